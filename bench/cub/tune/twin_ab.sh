#!/usr/bin/env bash
# twin_ab.sh: what the twins with the GPU's NaNs cost and save, in C++
# (bench/NOTES.md, 2026-12-02, fourth session). On the GPU machine, from a
# folder holding lookback_tune.cu, bench.cuh and include/ (kernels/include):
#
#   bash twin_ab.sh DIR     # four builds at once, each timed twice; $OUT/twin_ab.tsv
#
# Builds lookback_tune.cu with -DGOCCCL_AB_TAG and GOCCCL_AB_SUM 0-3 (see its
# header: fadd alone, fadd with a twin, + with a twin, + alone) and the flags
# gocccl-gen compiles with; rows are tagged exact, twin, twin-plain, plain.
set -euo pipefail
dir=$1
flags="-std=c++17 -O3 -fmad=false -ftz=false -prec-div=true -prec-sqrt=true -arch=sm_90 -I$dir -I$dir/include"
tags=(exact twin twin-plain plain)
for i in 0 1 2 3; do
	nvcc $flags -DGOCCCL_AB_TAG="\"${tags[$i]}\"" -DGOCCCL_AB_SUM=$i -o "/tmp/ab$i" "$dir/lookback_tune.cu" &
done
wait
: >"${OUT:-.}/twin_ab.tsv"
for i in 0 1 2 3 3 2 1 0; do # twice, in both orders: the drift of the machine shows
	"/tmp/ab$i" --sizes 24,28 | grep -v '^#' >>"${OUT:-.}/twin_ab.tsv"
done
grep -v 'host_call\|^system' "${OUT:-.}/twin_ab.tsv" | awk -F'\t' '{ printf "%-32s %-14s %10s %9s\n", $1, $2, $4, $5 }'
