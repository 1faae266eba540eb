#!/usr/bin/env bash
# The sixteenth session's first device call: the TopK prefilter (GOCCCL_TOPK_FILTER=on) and the
# runtime's lazy kernel binding on a GPU, then TopK's A/B (prefilter off/on) beside CUB, the
# fixed CUB histogram bench and the first call. From the repository root, with gpu-bundle/ built
# by `FAMILIES="topk segtopk histogram segmented transformnm" make gpu-bundle` and carried:
# `bash bench/calls/session16a.sh` (about 7 minutes). Results in $OUT/all.tgz.
set -uo pipefail
OUT_FINAL=$OUT
L=/tmp/logs; mkdir -p $L
pack() { (cd $L && tar czf "$OUT_FINAL/all.tgz" .); }
mkdir -p /tmp/b && tar xJf gpu-bundle/bundle.tar.xz -C /tmp/b
cd /tmp/b/bundle
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $L/gpu.txt
t() { local name=$1 lim=$2; shift 2; local s=$SECONDS; timeout $lim "$@" > $L/$name.log 2>&1; echo "$name rc=$? $((SECONDS-s))s" >> $L/summary.txt; }
G="-test.v -test.count=1 -test.timeout=0"
t runtime 150 ./runtime.test $G &
t devicetest 200 ./devicetest.test $G -test.short &
t topk-filter 230 env GOCCCL_TOPK_FILTER=on ./devicetest-topk.test $G -test.run 'GPU|Bad' &
t segtopk 120 ./devicetest-segtopk.test $G -test.short -test.run 'GPU|Bad' &
wait
t allocs 90 bash -c 'for f in segmented transformnm topk; do ./devicetest-$f.test -test.v -test.count=1 -test.run "^TestGPUAllocations$" || exit 1; done' 
t topk-off-short 120 env GOCCCL_TOPK_FILTER=off ./devicetest-topk.test $G -test.short -test.run 'GPU|Bad'
for f in runtime devicetest topk-filter segtopk allocs topk-off-short; do grep -E '^(--- FAIL|FAIL|ok|PASS|panic)|Error:' $L/$f.log | head -12 | sed "s/^/$f: /" >> $L/summary.txt; done
pack
NVCC="nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/include"
( $NVCC -Isrc/bench -o /tmp/bench-histogram src/bench/histogram.cu && timeout 100 /tmp/bench-histogram --sizes 10,16,20,24,28 > $L/cub-histogram.tsv 2> $L/cub-histogram.err; echo "cub-histogram rc=$?" >> $L/summary.txt )
( $NVCC -Isrc/bench -o /tmp/bench-topk src/bench/topk.cu && timeout 60 /tmp/bench-topk --sizes 20,24,28 > $L/cub-topk.tsv 2> $L/cub-topk.err; echo "cub-topk rc=$?" >> $L/summary.txt )
for mode in off on; do
  GOCCCL_TOPK_FILTER=$mode timeout 90 ./gpubench -sizes 20,24,28 -run '^topk' -out $L/topk-$mode.tsv 2> $L/topk-$mode.err; echo "gpubench topk $mode rc=$?" >> $L/summary.txt
done
pack
timeout 60 bash -c 'for pkg in ops hundred; do ./firstcall -runs 11 -pkg $pkg; done' > $L/firstcall.tsv 2>&1; echo "firstcall rc=$?" >> $L/summary.txt
pack
cat $L/summary.txt
