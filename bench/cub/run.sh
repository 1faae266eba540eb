#!/usr/bin/env bash
# Builds and runs tune/reduce_bench.cu (gocccl reduce vs cub::DeviceReduce::Sum vs a
# device-to-device copy) with the local nvcc: CUDA 13 + CCCL 3.x on the GPU
# machine; CUDA 11.8 + CUB 1.17 also compiles it.
#
#   bench/cub/run.sh                 build for sm_90 and run
#   bench/cub/run.sh --k 2 --runs 50 arguments go to the benchmark
#   ARCH=sm_80 bench/cub/run.sh      another target
#   BUILD_ONLY=1 bench/cub/run.sh    compile only
#
# The binary goes to $BUILD_DIR (default: ${TMPDIR:-/tmp}/gocccl-bench).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
nvcc="${NVCC:-$(command -v nvcc || true)}"
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$nvcc" ]]; then echo "run.sh: nvcc not found (set NVCC)" >&2; exit 2; fi
build="${BUILD_DIR:-${TMPDIR:-/tmp}/gocccl-bench}"
arch="${ARCH:-sm_90}"
mkdir -p "$build"

"$nvcc" --version | tail -n 1; echo
"$nvcc" -std=c++17 -O3 -arch="$arch" -Xptxas -v \
  -I"$repo/kernels/include" \
  -o "$build/reduce_bench" "$here/tune/reduce_bench.cu" > "$build/ptxas.log" 2>&1 || { cat "$build/ptxas.log" >&2; exit 2; }
grep -iE "warning|error" "$build/ptxas.log" || true
# registers / spills of the gocccl kernels at the recommended policies
awk '/Compiling entry function/ { name = $0; sub(/^.*function ./, "", name); sub(/. for .*$/, "", name) }
     /spill stores/ { spill = $0; sub(/^[ \t]+/, "", spill) }
     /Used [0-9]+ registers/ && name ~ /^bench_sum_(i32|f32|f64|u8)_(partial|final)$/ {
       line = $0; sub(/^.*Used /, "Used ", line); printf "  %-26s %s; %s\n", name, line, spill }' \
  "$build/ptxas.log"

[[ "${BUILD_ONLY:-0}" == 1 ]] && exit 0
"$build/reduce_bench" "$@"
