#!/usr/bin/env bash
# One device call for the N×M transforms and TransformIfWith, not yet run on
# a GPU: conformance family transformnm and the transform3 / transform3x2
# bench rows beside bench/cub/transform.cu. From the repository root, with
# gpu-bundle/ built by `FAMILIES="transformnm" make gpu-bundle` and carried:
# `bash bench/calls/nmtransform.sh` (about 3 minutes). Everything comes back
# as $OUT/all.tgz.
set -uo pipefail
OUT_FINAL=$OUT
L=/tmp/logs; mkdir -p $L
pack() { (cd $L && tar czf "$OUT_FINAL/all.tgz" .); }
mkdir -p /tmp/b && tar xJf gpu-bundle/bundle.tar.xz -C /tmp/b
cd /tmp/b/bundle
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > $L/gpu.txt
t() { local name=$1 lim=$2; shift 2; local s=$SECONDS; timeout $lim "$@" > $L/$name.log 2>&1; echo "$name rc=$? $((SECONDS-s))s" >> $L/summary.txt; }
t transformnm 200 ./devicetest-transformnm.test -test.v -test.count=1 -test.timeout=0 -test.run 'TestGPUMatchesCPU|TestBadArguments'
grep -E '^(--- FAIL|FAIL|ok|PASS|panic)|Error:' $L/transformnm.log | head -12 | sed "s/^/transformnm: /" >> $L/summary.txt
pack
( export LOGS=$L/bench OUT=$L/benchout
BENCH_SIZES=20,24,28 BENCH_PARTS="cub go report" BENCH_CUB="transform" \
BENCH_GO_RUN='^(transform3|transform3x2)/' \
DEADLINE=200 timeout 210 bash ./run.sh bench > $L/bench.log 2>&1; echo "bench rc=$?" >> $L/summary.txt )
pack
cat $L/summary.txt; tail -5 $L/bench.log
