#!/usr/bin/env bash
# Device call B (2026-12-04, sixth session): adjacent_difference's 16-byte
# kernel and the merge sort's single-tile kernel (correctness, harnesses, Go
# rows), bind's occupancy errors (every Go test binary binds), ncu of the
# 8-byte scan by key and the radix onesweep pass, ours beside CUB's.
set -u
L=$OUT/l; mkdir -p $L
DEADLINE=${DEADLINE:-540}
step() { local name=$1 limit=$2; shift 2; local left=$((DEADLINE - SECONDS)); ((left < 15)) && { echo "SKIP $name" >>$L/summary; return; }
  ((limit > left)) && limit=$left; local s=$SECONDS
  if timeout $limit "$@" >$L/$name.log 2>&1; then echo "PASS $name ($((SECONDS-s))s)" >>$L/summary; else echo "FAIL $name ($((SECONDS-s))s exit $?)" >>$L/summary; fi; }
tar xJf gpu-bundle/bundle.tar.xz -C /tmp && B=/tmp/bundle
T="-test.v -test.count=1 -test.timeout=0"
NV="nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub"
( BUILD_ONLY=1 BUILD_DIR=/tmp/kt bash kernels/test/run.sh >$L/build-kt.log 2>&1 ) &
( $NV -o /tmp/mst bench/cub/tune/merge_small_tune.cu >$L/build-mst.log 2>&1 ) &
( $NV -o /tmp/ms bench/cub/mergesort.cu >$L/build-ms.log 2>&1 ) &
( $NV -o /tmp/seg bench/cub/segmented.cu >$L/build-seg.log 2>&1 ) &
( $NV -fmad=false -ftz=false -prec-div=true -prec-sqrt=true -o /tmp/adjt bench/cub/tune/adjacent_tune.cu >$L/build-adjt.log 2>&1 ) &
( $NV -o /tmp/lbt bench/cub/tune/lookback_tune.cu >$L/build-lbt.log 2>&1 ) &
( $NV -o /tmp/radix bench/cub/radix.cu >$L/build-radix.log 2>&1 ) &
step mergesort 200 $B/devicetest-mergesort.test $T -test.run 'TestMergeSort(Keys|Pairs|TempStorage|WaveEdges)' &
step iterator 200 $B/devicetest-iterator.test $T -test.run 'TestMergeSortIteratorsMatchCPU' &
step segmented 200 $B/devicetest-segmented.test $T -test.short &
step state 200 $B/devicetest-state.test $T -test.short &
step sweepall 200 $B/devicetest-sweepall.test $T -test.short &
wait
step kt-adjacent 120 /tmp/kt/kernels_test_sm_90 --only adjacent
step kt-merge 120 /tmp/kt/kernels_test_sm_90 --only merge
step kt-large 90 /tmp/kt/kernels_test_sm_90 --only large
step mst 90 /tmp/mst
step adjt 60 /tmp/adjt --sizes 20,24,28
step ms-small 40 /tmp/ms --sizes 10,11,12,16
step go-adj-ms 70 $B/gpubench -sizes 10,16,20,24,28 -run '^adjacent_difference/|^merge_sort(_pairs)?/.*/(1024|65536|1048576)$' -out $L/go-adj-ms.tsv
N="ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats --section InstructionStats --kill yes"
step ncu-sbk-ours 60 $N -k regex:inclusive_scan_by_key_EqUint32_AddUint64_sweep --launch-skip 3 -c 1 $B/gpubench -sizes 28 -run '^scan_by_key/uint64/'
step ncu-sbk-cub 60 env LOOKBACK_ONLY=bykey8 $N -k regex:DeviceScanByKeyKernel --launch-skip 3 -c 1 /tmp/lbt --sizes 28
step ncu-radix-ours 60 $N -k regex:radix_sort_keys_uint32_onesweep -c 4 $B/gpubench -sizes 28 -run '^sort_keys/uint32/'
step ncu-radix-cub 60 $N -k regex:DeviceRadixSortOnesweepKernel -c 4 /tmp/radix --sizes 28
step seg-adj 80 /tmp/seg --sizes 10,16,20,24,28
tar czf $OUT/logs.tgz -C $L .
cat $L/summary
for f in $L/mergesort.log $L/iterator.log $L/segmented.log $L/state.log $L/sweepall.log; do echo "== $f"; grep -E '^(--- FAIL|FAIL|ok|PASS)|panic' $f | head -6; done
for f in $L/kt-*.log; do echo "== $f"; grep -E "passed|FAIL|wrong\)" $f | tail -4; done
