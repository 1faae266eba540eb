#!/usr/bin/env bash
# A full bench run of main's code, split over calls (part A, B, ...): `PART=A bash
# bench/calls/session16b.sh` runs every C++ bench (bench/cub), the first call and host transfers,
# then gpubench over every size until DEADLINE; `PART=B GO_RUN=REGEXP` runs gpubench over the
# algorithms REGEXP names (those part A did not reach) and `PART=C` the Python part (cuda-cccl
# wheel in .whl, carried). gpu-bundle/ built by `FAMILIES=none make gpu-bundle` and carried.
# Results in $OUT/all.tgz (the TSVs under results/, logs beside them).
set -uo pipefail
OUT_FINAL=$OUT
L=/tmp/logs; mkdir -p $L
pack() { (cd $L && tar czf "$OUT_FINAL/all.tgz" .); }
trap pack EXIT
# Pack every 45 s too, so that a call cut off at its limit still returns what ran.
( while sleep 45; do pack; done ) & PACKER=$!
LIMIT=${LIMIT:-575} # seconds by which gpubench ends
mkdir -p /tmp/b && tar xJf gpu-bundle/bundle.tar.xz -C /tmp/b
W=$PWD/.whl
cd /tmp/b/bundle
export LOGS=$L/bench OUT=$L/benchout
case ${PART:-A} in
A) BENCH_PARTS="cub firstcall transfer" DEADLINE=${CUB_DEADLINE:-330} bash ./run.sh bench > $L/bench-cub.log 2>&1
   echo "cub part rc=$? at ${SECONDS}s" >> $L/summary.txt; pack
   mkdir -p $L/go; timeout $((LIMIT - SECONDS)) ./gpubench -out $L/go/gocccl-a.tsv 2> $L/go/gpubench-a.err
   echo "gpubench A rc=$? at ${SECONDS}s" >> $L/summary.txt ;;
B) mkdir -p $L/go; timeout 570 ./gpubench -run "$GO_RUN" -out $L/go/gocccl-b.tsv 2> $L/go/gpubench-b.err
   echo "gpubench B rc=$? at ${SECONDS}s" >> $L/summary.txt ;;
C) WHEELS=$W BENCH_PARTS="py" BENCH_PY_BUDGET=540 DEADLINE=570 bash ./run.sh bench > $L/bench-py.log 2>&1
   echo "py part rc=$? at ${SECONDS}s" >> $L/summary.txt ;;
esac
kill $PACKER 2>/dev/null
cat $L/summary.txt
