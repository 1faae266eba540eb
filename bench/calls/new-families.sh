#!/usr/bin/env bash
# One device call for the families and bench rows that have not yet run on a GPU
# (bench/NOTES.md, fourteenth session). From the repository root, with gpu-bundle/
# built by `FAMILIES="segscan topk histogram find segmented complex fill half" make gpu-bundle`
# and carried: `bash bench/calls/new-families.sh` (about 6 minutes). Everything comes back
# as $OUT/all.tgz (the tool returns few files).
set -uo pipefail
OUT_FINAL=$OUT; R=$PWD
L=/tmp/logs; mkdir -p $L
pack() { (cd $L && tar czf "$OUT_FINAL/all.tgz" .); }
mkdir -p /tmp/b && tar xJf gpu-bundle/bundle.tar.xz -C /tmp/b
cd /tmp/b/bundle
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > $L/gpu.txt
t() { local name=$1 lim=$2; shift 2; local s=$SECONDS; timeout $lim "$@" > $L/$name.log 2>&1; echo "$name rc=$? $((SECONDS-s))s" >> $L/summary.txt; }
t segscan 150 ./devicetest-segscan.test -test.v -test.count=1 -test.timeout=0 &
t topk 150 ./devicetest-topk.test -test.v -test.count=1 -test.timeout=0 -test.short -test.run 'GPU|Bad' &
t search 150 ./devicetest-histogram.test -test.v -test.count=1 -test.timeout=0 -test.run 'TestSearch' &
t complex 150 ./devicetest-complex.test -test.v -test.count=1 -test.timeout=0 -test.run 'TestGPUMatchesCPU|TestEdgeValues' &
t fill 150 ./devicetest-fill.test -test.v -test.count=1 -test.timeout=0 -test.run 'TestGPUMatchesCPU' &
t half 150 ./devicetest-half.test -test.v -test.count=1 -test.timeout=0 -test.run "TestGPUMatchesCPU|TestEdgeValues" &
t segmented 150 ./devicetest-segmented.test -test.v -test.count=1 -test.timeout=0 -test.short -test.run 'TestGPUMatchesCPU|TestGPUBrokenPromise|TestGPUBadOffsets' &
wait
for f in segscan topk search complex fill half segmented; do grep -E '^(--- FAIL|FAIL|ok|PASS|panic)|Error:' $L/$f.log | head -12 | sed "s/^/$f: /" >> $L/summary.txt; done
pack
( export LOGS=$L/bench OUT=$L/benchout
BENCH_SIZES=20,24,28 BENCH_PARTS="cub go py report" BENCH_CUB="find segscan segmented topk fill" \
BENCH_GO_RUN='^(find_if|find_if_mid|argmin|argmax|segmented_scan|segmented_scan_fixed|segmented_exclusive_scan|segmented_reduce.*|topk.*|lower_bound_sorted.*|lower_bound|fill|generate|transform_if|batched_copy.*)/' \
BENCH_PY_ONLY='/(argmin|argmax|segmented_scan|segmented_exclusive_scan|segmented_reduce|topk.*)/' \
DEADLINE=200 timeout 210 bash ./run.sh bench > $L/bench.log 2>&1; echo "bench rc=$?" >> $L/summary.txt )
pack
cd $R && DEADLINE=150 SIZES=20,24,28 OUT=$L/bykey timeout 160 bash bench/cub/tune/bykey_ab.sh > $L/bykey.log 2>&1; echo "bykey rc=$?" >> $L/summary.txt
pack
cat $L/summary.txt; tail -5 $L/bench.log; tail -30 $L/bykey/summary.txt 2>/dev/null
