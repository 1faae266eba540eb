#!/usr/bin/env bash
# radix_ab.sh: the radix onesweep A/B run for a GPU machine with nvcc 13 and
# CCCL 3 (bench/NOTES.md, "Radix onesweep against CUB 3.0, read side by
# side"), within about 150 s:
#   1. compiles kernels/test/kernels_test.cu and the radix tune harness
#      (radix_tune.sh BUILD_ONLY=1) at once, 6 translation units;
#   2. runs kernels_test --only segsort as soon as it is built (the segmented
#      sorts: radix_sort.cuh's BlockRank, Onesweep and single tile inside,
#      over many portions);
#   3. runs the harness: --quick-check (every key type, windows, descending,
#      pairs, portions, each match, against a CPU stable sort), then the
#      sweep at 2^24 and 2^28 of uint32 keys, uint64 keys and uint32 pairs:
#      match.any (old) and ballot (new) configurations, each compared byte for
#      byte with cub::DeviceRadixSort before it is timed beside it.
# Everything goes under $OUT (default /tmp/radix_ab): *.build.log (ptxas
# registers of every onesweep kernel, CUB's included, in radix_tune.build.log),
# kernels_test.log, radix_ab.tsv (the harness's rows and summary) and
# summary.txt (the "# summary" and "# check" lines, the verdicts).
#
#   bash bench/cub/tune/radix_ab.sh
#   DEADLINE=145 SIZES=24,28 NVCC=... ARCH=sm_90 BUILD_DIR=...
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
out="${OUT:-/tmp/radix_ab}"
build="${BUILD_DIR:-${TMPDIR:-/tmp}/gocccl-radix-ab}"
arch="${ARCH:-sm_90}"
deadline=$(($(date +%s) + ${DEADLINE:-145}))
mkdir -p "$out" "$build"
toolkit="${GOCCCL_TOOLKIT_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gocccl/cuda13}/nvidia/cu13/bin/nvcc"
nvcc="${NVCC:-}"
if [[ -z "$nvcc" && -x "$toolkit" ]]; then nvcc="$toolkit"; fi
if [[ -z "$nvcc" ]]; then nvcc="$(command -v nvcc || true)"; fi
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$nvcc" ]]; then echo "radix_ab.sh: nvcc not found (set NVCC)" >&2; exit 2; fi
left() { local s=$((deadline - $(date +%s))); echo $((s > 1 ? s : 1)); } # timeout 0 would mean none
start=$(date +%s)

# -L: a wheel's toolkit keeps libcudart in lib/, where nvcc.profile does not look.
"$nvcc" -std=c++17 -O3 -arch="$arch" -I"$repo/kernels/include" -L"$(dirname "$nvcc")/../lib" \
  -o "$build/kernels_test" "$repo/kernels/test/kernels_test.cu" >"$out/kernels_test.build.log" 2>&1 &
kt=$!
BUILD_DIR="$build" BUILD_ONLY=1 NVCC="$nvcc" ARCH="$arch" bash "$here/radix_tune.sh" \
  >"$out/radix_tune.build.log" 2>&1 &
rt=$!

status=0
if wait "$kt"; then
  echo "# kernels_test built in $(($(date +%s) - start)) s"
  # The GPU is free while the harness still compiles.
  timeout "$(( $(left) > 45 ? 45 : $(left) ))" "$build/kernels_test" --only segsort >"$out/kernels_test.log" 2>&1
  rc=$?
  echo "# kernels_test --only segsort: exit $rc ($(tail -n 1 "$out/kernels_test.log"))"
  [[ $rc -ne 0 ]] && status=1
else
  echo "# kernels_test did not build: $out/kernels_test.build.log"; status=1
fi
if wait "$rt"; then
  echo "# radix_tune built after $(($(date +%s) - start)) s"
  grep '^# ptxas' "$out/radix_tune.build.log"
  timeout "$(left)" "$build/radix_tune" --quick-check --sizes "${SIZES:-24,28}" >"$out/radix_ab.tsv" 2>"$out/radix_ab.err"
  rc=$?
  echo "# radix_tune: exit $rc after $(($(date +%s) - start)) s (124: ran past DEADLINE)"
  [[ $rc -ne 0 ]] && status=1
else
  echo "# radix_tune did not build: $out/radix_tune.build.log"; status=1
fi
grep -E '^# (check|summary|CUB_VERSION|radix_tune:)|FAIL' "$out/radix_ab.tsv" "$out/radix_ab.err" 2>/dev/null |
  sed 's/^[^:]*://' | tee "$out/summary.txt"
exit $status
