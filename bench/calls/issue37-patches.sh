#!/usr/bin/env bash
# One device call for what issue 37's last three patches added and nothing has yet run on a
# GPU (fifteenth session): MultiHistogramEven/Range, the determinism modes of Reduce and
# TransformReduce, SegmentedTopKKeys/Pairs. From the repository root, with gpu-bundle/ built by
# `FAMILIES="histogram determinism segtopk" make gpu-bundle` and carried:
# `bash bench/calls/issue37-patches.sh` (about 5 minutes). Everything comes back as
# $OUT/all.tgz (the tool returns few files).
set -uo pipefail
OUT_FINAL=$OUT
L=/tmp/logs; mkdir -p $L
pack() { (cd $L && tar czf "$OUT_FINAL/all.tgz" .); }
mkdir -p /tmp/b && tar xJf gpu-bundle/bundle.tar.xz -C /tmp/b
cd /tmp/b/bundle
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > $L/gpu.txt
t() { local name=$1 lim=$2; shift 2; local s=$SECONDS; timeout $lim "$@" > $L/$name.log 2>&1; echo "$name rc=$? $((SECONDS-s))s" >> $L/summary.txt; }
t multihist 150 ./devicetest-histogram.test -test.v -test.count=1 -test.timeout=0 -test.run 'TestMultiHistogram' &
t determinism 150 ./devicetest-determinism.test -test.v -test.count=1 -test.timeout=0 &
t segtopk 200 ./devicetest-segtopk.test -test.v -test.count=1 -test.timeout=0 -test.run 'GPU|Bad' &
wait
for f in multihist determinism segtopk; do grep -E '^(--- FAIL|FAIL|ok|PASS|panic)|Error:' $L/$f.log | head -12 | sed "s/^/$f: /" >> $L/summary.txt; done
pack
( export LOGS=$L/bench OUT=$L/benchout
BENCH_SIZES=20,24,26,28 BENCH_PARTS="cub go report" BENCH_CUB="histogram reduce topk" \
BENCH_GO_RUN='^(multi_histogram_even|reduce|segmented_topk_16)/' \
DEADLINE=200 timeout 210 bash ./run.sh bench > $L/bench.log 2>&1; echo "bench rc=$?" >> $L/summary.txt )
pack
cat $L/summary.txt; tail -5 $L/bench.log
