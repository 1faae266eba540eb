#!/usr/bin/env bash
# Builds the kernel experiments' A/B binaries here (no GPU needed) into
# gpu-bundle/exp.tar.xz, for the "exp" step of bench/calls/session17.sh:
#   hist_ab          bench/cub/tune/hist_ab.cu: histogram.cuh's HistExp 0-3 beside CUB
#   three_way_small/ bench/cub/tune/three_way_small.sh build: three_way_single.cuh beside CUB
# (radix_ab.sh, the radix-order A/B, builds itself on the GPU machine from the
# carried repository: run.sh calls it there.)
# with the project's CUDA 13 toolkit (scripts/install-cuda-toolkit.sh) and
# its CCCL, -O3 -arch=sm_90, the runtime linked statically; run.sh beside
# them runs each within its share of the step's time.
#
#   bash bench/calls/exp/build.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/calls/nvcc13.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc -o "$out/hist_ab" bench/cub/tune/hist_ab.cu
BUILD="$out/three_way_small" bash bench/cub/tune/three_way_small.sh build
cp bench/calls/exp/run.sh "$out/run.sh"
git rev-parse --short HEAD > "$out/commit"
mkdir -p gpu-bundle
tar cJf gpu-bundle/exp.tar.xz -C "$out" .
ls -l gpu-bundle/exp.tar.xz
