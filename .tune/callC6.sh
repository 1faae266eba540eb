#!/usr/bin/env bash
# Device call C (2026-12-04, sixth session): the compactions' full-tile
# sweeps (correctness, harness, ncu), adjacent_difference at 16 bytes a
# thread, and the Go rows RESULTS.md needs for every changed algorithm.
set -u
L=$OUT/l; mkdir -p $L
DEADLINE=${DEADLINE:-555}
step() { local name=$1 limit=$2; shift 2; local left=$((DEADLINE - SECONDS)); ((left < 15)) && { echo "SKIP $name" >>$L/summary; return; }
  ((limit > left)) && limit=$left; local s=$SECONDS
  if timeout $limit "$@" >$L/$name.log 2>&1; then echo "PASS $name ($((SECONDS-s))s)" >>$L/summary; else echo "FAIL $name ($((SECONDS-s))s exit $?)" >>$L/summary; fi; }
tar xJf gpu-bundle/bundle.tar.xz -C /tmp && B=/tmp/bundle
T="-test.v -test.count=1 -test.timeout=0"
NV="nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub"
( $NV -o /tmp/cdt bench/cub/tune/compact_delay_tune.cu >$L/build-cdt.log 2>&1 ) &
( $NV -o /tmp/seg bench/cub/segmented.cu >$L/build-seg.log 2>&1 ) &
step select 220 $B/devicetest-select.test $T -test.short -test.run 'TestGPUMatchesCPU|TestUniqueByKey|TestEpochSequence|TestEpochGraphReplay|TestSelectBeyond2e31' &
step iterator 200 $B/devicetest-iterator.test $T -test.run 'TestSelectIteratorsMatchCPU|TestUniqueByKeyIteratorsMatchCPU|TestMergeSortIteratorsMatchCPU' &
step iterout 200 $B/devicetest-iterout.test $T -test.run 'TestSelectFamilyInto' &
step segmented 200 $B/devicetest-segmented.test $T -test.short &
step state 200 $B/devicetest-state.test $T -test.short &
step sweepall 200 $B/devicetest-sweepall.test $T -test.short &
wait
step cdt 60 /tmp/cdt --only select,unique,partition --sizes 24,28
step go-compact 150 $B/gpubench -run '^(select|partition|unique|unique_by_key|three_way_partition)/' -out $L/go-compact.tsv
step go-adj 40 $B/gpubench -run '^adjacent_difference/' -out $L/go-adj.tsv
step go-ms 70 $B/gpubench -sizes 10,16,20,24 -run '^merge_sort(_pairs)?/' -out $L/go-ms.tsv
step go-exbk 30 $B/gpubench -sizes 10,16,20,24,28 -run '^exclusive_scan_by_key/float32/' -out $L/go-exbk.tsv
step ncu-unique 40 ncu --clock-control none --section SpeedOfLight --section Occupancy --section InstructionStats --section WarpStateStats --kill yes -k regex:unique_sweep --launch-skip 4 -c 1 /tmp/cdt --only unique --sizes 28
step seg 50 /tmp/seg --sizes 10,16,20,24,28
tar czf $OUT/logs.tgz -C $L .
cp $L/go-*.tsv $OUT/ 2>/dev/null
cat $L/summary
for f in $L/select.log $L/iterator.log $L/iterout.log $L/segmented.log $L/state.log $L/sweepall.log; do echo "== $f"; grep -E '^(--- FAIL|FAIL|ok|PASS)|panic' $f | head -6; done
grep -v '^#' $L/cdt.log | grep -v host_call | cut -f1-5
grep -E "Duration|Executed Instructions  " $L/ncu-unique.log
