#!/usr/bin/env bash
# Builds and runs the radix sort tuning harness: radix_tune_{main,check,u32k,
# u64k,u32p,mid,order}.cu, compiled in parallel into one binary; checks correctness at
# the policies (and small portions), then sweeps configurations of uint32
# keys, uint64 keys and uint32 pairs at 2^20, 2^24, 2^28 beside
# cub::DeviceRadixSort, with a summary per type at the end.
#
#   bash bench/cub/tune/radix_tune.sh                 build for sm_90 and run
#   bash bench/cub/tune/radix_tune.sh --big           also n = 2^31 + 4097 checks
#   bash bench/cub/tune/radix_tune.sh --no-check      the sweep only
#   bash bench/cub/tune/radix_tune.sh --quick-check --sizes 24,28
#                                                     what radix_ab.sh runs
#   bash bench/cub/tune/radix_tune.sh --no-check --mid
#                                                     smaller tiles at 2^14-2^20
#   bash bench/cub/tune/radix_tune.sh --no-check --order
#                                                     the policies ascending and
#                                                     descending at 2^24, 2^28
#   BUILD_ONLY=1 bash bench/cub/tune/radix_tune.sh    compile only
#   NVCC=... ARCH=sm_90                               the compiler and target
#   EXTRA_FLAGS=-DGOCCCL_EXPERIMENT_RADIX_ORDER       more nvcc flags for every part
#                                                     (radix_ab.sh MODE=order)
#
# nvcc: $NVCC, else the project's toolkit (~/.local/share/gocccl/cuda13), else
# nvcc on PATH. The binary goes to $BUILD_DIR (default ${TMPDIR:-/tmp}/gocccl-radix-tune).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
toolkit="${GOCCCL_TOOLKIT_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gocccl/cuda13}/nvidia/cu13/bin/nvcc"
nvcc="${NVCC:-}"
if [[ -z "$nvcc" && -x "$toolkit" ]]; then nvcc="$toolkit"; fi
if [[ -z "$nvcc" ]]; then nvcc="$(command -v nvcc || true)"; fi
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$nvcc" ]]; then echo "radix_tune.sh: nvcc not found (set NVCC)" >&2; exit 2; fi
build="${BUILD_DIR:-${TMPDIR:-/tmp}/gocccl-radix-tune}"
arch="${ARCH:-sm_90}"
mkdir -p "$build"
"$nvcc" --version | tail -n 1
start=$(date +%s)
pids=()
parts=(main check u32k u64k u32p mid order)
# shellcheck disable=SC2206 # EXTRA_FLAGS are words
extra=(${EXTRA_FLAGS:-})
for part in "${parts[@]}"; do
  "$nvcc" -std=c++17 -O3 -arch="$arch" -Xptxas -v ${extra[@]+"${extra[@]}"} -I"$repo/kernels/include" \
    -c -o "$build/$part.o" "$here/radix_tune_$part.cu" >"$build/$part.log" 2>&1 &
  pids+=($!)
done
fail=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { fail=1; }
done
if [[ $fail -ne 0 ]]; then
  cat "$build"/*.log | grep -v "^ptxas info\|^    [0-9]* bytes stack" >&2
  exit 2
fi
# -L: the wheel's toolkit keeps its libraries in lib/, where nvcc.profile does not look.
objs=()
for part in "${parts[@]}"; do objs+=("$build/$part.o"); done
"$nvcc" -arch="$arch" -L"$(dirname "$nvcc")/../lib" -o "$build/radix_tune" "${objs[@]}"
echo "# built in $(($(date +%s) - start)) s"
# Registers and shared memory of the onesweep kernels, ours and CUB's (ptxas):
# k_sweep<threads x items, minblocks, portion bits, match, key, value>, with
# the match 0 ballot, 1 match.any, 2 atomic-or; key/value in Itanium letters
# (j uint32, m uint64, - none).
cat "$build"/u32k.log "$build"/u64k.log "$build"/u32p.log "$build"/mid.log "$build"/order.log | awk '
  /Compiling entry function/ { name = $0; sub(/^.*function ./, "", name); sub(/. for .*$/, "", name) }
  /spill stores/ { spill = $0; sub(/^[ \t]+/, "", spill) }
  /Used [0-9]+ registers/ && name ~ /k_sweep|OnesweepKernel/ { line = $0; sub(/^.*Used /, "Used ", line); printf "# ptxas %s: %s; %s\n", name, line, spill }' |
  sed -E -e 's/_ZN4tune7k_sweepILi([0-9]+)ELi([0-9]+)ELi([0-9]+)ELi([0-9]+)ELN6gocccl6detail5radix9RankMatchE([0-9])E([a-z])(NS3_8NoValuesE|[a-z])E[^:]*:/k_sweep<\1x\2,minb \3,pb \4,match \5,\6,\7>:/' \
    -e 's/,NS3_8NoValuesE>/,->/' \
    -e 's/_ZN3cub[0-9A-Z_]*6detail10radix_sort29DeviceRadixSortOnesweepKernelINS[0-9]_5radix10policy_hubI([a-z])(NS[0-9]_8NullTypeE|[a-z])[^:]*:/cub onesweep<\1,\2>:/' \
    -e 's/<([a-z]),NS[0-9]_8NullTypeE>/<\1,->/' | sort -u
[[ "${BUILD_ONLY:-0}" == 1 ]] && exit 0
"$build/radix_tune" "$@"
