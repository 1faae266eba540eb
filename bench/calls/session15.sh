#!/usr/bin/env bash
# The fifteenth session's second device call: everything merged that day and not yet run on a
# GPU (TopK sorted past 4096, SegmentedReduce's MaxSegmentSize kernels, the N×M transforms and
# TransformIfWith, MultiHistogram, determinism modes, SegmentedTopK, ReduceByKey's lean sweep),
# then their bench rows beside CUB. From the repository root, with gpu-bundle/ built by
# `FAMILIES="topk segmented transformnm histogram determinism segtopk scan" make gpu-bundle`
# and carried: `bash bench/calls/session15.sh` (about 7 minutes). Results in $OUT/all.tgz.
set -uo pipefail
OUT_FINAL=$OUT; R=$PWD
L=/tmp/logs; mkdir -p $L
pack() { (cd $L && tar czf "$OUT_FINAL/all.tgz" .); }
mkdir -p /tmp/b && tar xJf gpu-bundle/bundle.tar.xz -C /tmp/b
cd /tmp/b/bundle
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $L/gpu.txt
t() { local name=$1 lim=$2; shift 2; local s=$SECONDS; timeout $lim "$@" > $L/$name.log 2>&1; echo "$name rc=$? $((SECONDS-s))s" >> $L/summary.txt; }
G="-test.v -test.count=1 -test.timeout=0"
t topk 170 ./devicetest-topk.test $G -test.short -test.run 'GPU|Bad' &
t segmented 170 ./devicetest-segmented.test $G -test.short -test.run 'TestGPUMatchesCPU|TestGPUBrokenPromise|TestGPUBadOffsets' &
t transformnm 170 ./devicetest-transformnm.test $G -test.run 'TestGPUMatchesCPU|TestBadArguments' &
t mhist 170 ./devicetest-histogram.test $G -test.run 'TestMultiHistogram' &
t determinism 170 ./devicetest-determinism.test $G &
t segtopk 170 ./devicetest-segtopk.test $G -test.short -test.run 'GPU|Bad' &
t bykey 170 ./devicetest-scan.test $G -test.run 'ByKey|Epoch|LookBack' &
wait
for f in topk segmented transformnm mhist determinism segtopk bykey; do grep -E '^(--- FAIL|FAIL|ok|PASS|panic)|Error:' $L/$f.log | head -12 | sed "s/^/$f: /" >> $L/summary.txt; done
pack
( export LOGS=$L/bench OUT=$L/benchout
BENCH_SIZES=20,24,28 BENCH_PARTS="cub go report" BENCH_CUB="topk transform segmented histogram reduce" \
BENCH_GO_RUN='^(topk.*|segmented_topk.*|segmented_reduce.*|transform3.*|multi_histogram_even|reduce|reduce_by_key|scan_by_key|exclusive_scan_by_key)/' \
DEADLINE=250 timeout 260 bash ./run.sh bench > $L/bench.log 2>&1; echo "bench rc=$?" >> $L/summary.txt )
pack
cat $L/summary.txt; tail -8 $L/bench.log
