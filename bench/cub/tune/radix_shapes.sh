#!/usr/bin/env bash
# radix_shapes.sh: builds and runs bench/cub/tune/radix_shapes.cu: our
# onesweep kernels at the shapes CUB 3 runs on sm_90 beside
# cub::DeviceRadixSort (long long n and int n), uint32 / float32 / uint64
# keys and uint32 pairs at 2^24 and 2^28, each sort and histogram phase
# checked before it is timed (see the .cu's comment). One source file,
# compiled as parts in parallel (-DRS_PART=0..7: 0 main, 1-4 u32k f32k u64k
# u32p, 5-7 the histogram fast mode), then linked; only part 0 and the parts
# the run needs are built (the others are stubs).
#
#   bash bench/cub/tune/radix_shapes.sh                   build for sm_90 and run (u32k f32k u64k u32p)
#   bash bench/cub/tune/radix_shapes.sh --only u32k,f32k  some parts (u32k f32k u64k u32p hist)
#   bash bench/cub/tune/radix_shapes.sh --only hist       the histogram fast mode (about 60 s)
#   BUILD_ONLY=1 bash bench/cub/tune/radix_shapes.sh      compile only (ptxas lines)
#   OUT=dir DEADLINE=140 NVCC=... ARCH=sm_90 BUILD_DIR=...
#
# Writes 5 files to $OUT (default /tmp/radix_shapes): radix_shapes.build.log
# (ptxas -v of every part), ptxas.txt (registers, spills and shared memory of
# every onesweep and histogram kernel, ours and CUB's), radix_shapes.tsv (the
# rows, "# kernel" and "# summary" lines), radix_shapes.err, and summary.txt
# (the "# kernel", "# summary" and FAILED lines), which it also prints. The run stops itself DEADLINE s (default 140) after
# the script started (exit 124 then).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
out="${OUT:-/tmp/radix_shapes}"
build="${BUILD_DIR:-${TMPDIR:-/tmp}/gocccl-radix-shapes}"
arch="${ARCH:-sm_90}"
deadline=$(($(date +%s) + ${DEADLINE:-140}))
toolkit="${GOCCCL_TOOLKIT_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gocccl/cuda13}/nvidia/cu13/bin/nvcc"
nvcc="${NVCC:-}"
if [[ -z "$nvcc" && -x "$toolkit" ]]; then nvcc="$toolkit"; fi
if [[ -z "$nvcc" ]]; then nvcc="$(command -v nvcc || true)"; fi
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$nvcc" ]]; then echo "radix_shapes.sh: nvcc not found (set NVCC)" >&2; exit 2; fi
mkdir -p "$out" "$build"
start=$(date +%s)
"$nvcc" --version | tail -n 1
# The parts --only names (all full parts without it).
only=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [[ "${args[$i]}" == --only ]]; then only="${args[$((i + 1))]:-}"; fi
done
parts=(0)
if [[ -z "$only" ]]; then parts+=(1 2 3 4); fi
[[ ",$only," == *,u32k,* ]] && parts+=(1)
[[ ",$only," == *,f32k,* ]] && parts+=(2)
[[ ",$only," == *,u64k,* ]] && parts+=(3)
[[ ",$only," == *,u32p,* ]] && parts+=(4)
[[ ",$only," == *,hist,* ]] && parts+=(5 6 7)
pids=()
for part in "${parts[@]}"; do
  "$nvcc" -std=c++17 -O3 -arch="$arch" -Xptxas -v -I"$repo/kernels/include" -DRS_PART=$part \
    -c -o "$build/part$part.o" "$here/radix_shapes.cu" >"$build/part$part.log" 2>&1 &
  pids+=($!)
done
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
for part in "${parts[@]}"; do cat "$build/part$part.log"; done >"$out/radix_shapes.build.log"
if [[ $fail -ne 0 ]]; then
  grep -v "^ptxas info\|^    [0-9]* bytes stack\|^ptxas info    : Used" "$out/radix_shapes.build.log" >&2
  echo "radix_shapes.sh: compilation failed ($out/radix_shapes.build.log)" >&2
  exit 2
fi
# -L: a wheel's toolkit keeps libcudart in lib/, where nvcc.profile does not look.
objs=()
for part in "${parts[@]}"; do objs+=("$build/part$part.o"); done
"$nvcc" -arch="$arch" -L"$(dirname "$nvcc")/../lib" -o "$build/radix_shapes" "${objs[@]}" || exit 2
echo "# built in $(($(date +%s) - start)) s"

# ptxas: registers, spills and shared memory of every onesweep and histogram
# kernel, ours (k_sweep<threads, items, minblocks, portion bits, match, key,
# value>, k_hist<threads, minblocks, key>) and CUB's.
demangle() { if command -v c++filt >/dev/null; then c++filt; else cat; fi; }
awk '
  /Compiling entry function/ { name = $0; sub(/^.*function ./, "", name); sub(/. for .*$/, "", name) }
  /spill stores/ { spill = $0; sub(/^[ \t]+/, "", spill) }
  /Used [0-9]+ registers/ && name ~ /k_sweep|k_hist|OnesweepKernel|HistogramKernel/ {
    line = $0; sub(/^.*Used /, "Used ", line); printf "%s\t%s; %s\n", name, line, spill }' \
  "$out/radix_shapes.build.log" | demangle |
  sed -E -e 's/\(gocccl::detail::radix::RankMatch\)0/ballot/g' -e 's/gocccl::detail::radix::NoValues/-/g' \
    -e 's/cub::CUB_[0-9]+_SM_[0-9]+:://g' -e 's/detail::radix_sort:://g' -e 's/detail::radix:://g' \
    -e 's/detail::identity_decomposer_t//g' -e 's/::Policy1000//g' -e 's/\(SortOrder\)0, //g' -e 's/NullType/-/g' \
    -e 's/unsigned long long/u64/g' -e 's/unsigned long/u64/g' -e 's/unsigned int/u32/g' \
    -e 's/^(void )?(tune::)?//' -e 's/>\([^\t]*\)\t/>\t/' |
  sort -u | sed 's/^/# ptxas\t/' >"$out/ptxas.txt"
if [[ "${BUILD_ONLY:-0}" == 1 ]]; then cat "$out/ptxas.txt"; exit 0; fi

left=$((deadline - $(date +%s)))
((left < 1)) && left=1
timeout "$left" "$build/radix_shapes" "$@" >"$out/radix_shapes.tsv" 2>"$out/radix_shapes.err"
rc=$?
echo "# radix_shapes: exit $rc after $(($(date +%s) - start)) s (124: ran past DEADLINE)" | tee -a "$out/radix_shapes.tsv"
{
  grep -E '^# (CUB_VERSION|radix_shapes|kernel|summary)|FAIL' "$out/radix_shapes.tsv" "$out/radix_shapes.err" |
    sed 's/^[^:]*://'
} >"$out/summary.txt"
cat "$out/summary.txt"
exit $rc
