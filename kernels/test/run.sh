#!/usr/bin/env bash
# Builds and runs the standalone kernel test (kernels_test.cu) with the local
# nvcc: CUDA 11.8 + CUB 1.17 or CUDA 13 + CCCL 3.x both work.
#
#   kernels/test/run.sh                  build for sm_90 and run (all cases)
#   ARCH=sm_80 kernels/test/run.sh       another target
#   kernels/test/run.sh --quick          sizes up to 10^6+3 only
#   kernels/test/run.sh --no-large       skip the n > 2^31 cases
#   BUILD_ONLY=1 kernels/test/run.sh     compile only (no GPU needed)
#   ARCHS="sm_75 sm_80 sm_86 sm_89 sm_90" BUILD_ONLY=1 kernels/test/run.sh
#                                        compile for each target
#   SANITIZE=1 kernels/test/run.sh       also run --quick under compute-sanitizer
#
# The binary goes to $BUILD_DIR (default: ${TMPDIR:-/tmp}/gocccl-kernels-test).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
nvcc="${NVCC:-$(command -v nvcc || true)}"
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$nvcc" ]]; then echo "run.sh: nvcc not found (set NVCC)" >&2; exit 2; fi
build="${BUILD_DIR:-${TMPDIR:-/tmp}/gocccl-kernels-test}"
mkdir -p "$build"

archs="${ARCHS:-${ARCH:-sm_90}}"
"$nvcc" --version | tail -n 1; echo
for arch in $archs; do
  echo "== nvcc -arch=$arch"
  "$nvcc" -std=c++17 -O3 -arch="$arch" -Xptxas -v \
    -I"$repo/kernels/include" \
    -o "$build/kernels_test_$arch" "$here/kernels_test.cu" > "$build/ptxas_$arch.log" 2>&1 || {
      cat "$build/ptxas_$arch.log" >&2; exit 2; }
  # compiler warnings, then registers / spills of every entry point
  grep -iE "warning|error" "$build/ptxas_$arch.log" || true
  awk '/Compiling entry function/ { name = $0; sub(/^.*function ./, "", name); sub(/. for .*$/, "", name) }
       /spill stores/ { spill = $0; sub(/^[ \t]+/, "", spill) }
       /Used [0-9]+ registers/ { line = $0; sub(/^.*Used /, "Used ", line); printf "  %-36s %s; %s\n", name, line, spill }' \
    "$build/ptxas_$arch.log"
done

[[ "${BUILD_ONLY:-0}" == 1 ]] && exit 0

bin="$build/kernels_test_${archs##* }"
"$bin" "$@"
if [[ "${SANITIZE:-0}" == 1 ]]; then
  sanitizer="$(command -v compute-sanitizer || echo "$(dirname "$nvcc")/compute-sanitizer")"
  "$sanitizer" --tool memcheck --error-exitcode 3 "$bin" --quick
fi
