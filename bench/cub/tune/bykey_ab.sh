#!/usr/bin/env bash
# bykey_ab.sh: the A/B of issue 38's scan-by-key experiment in C++, for a GPU
# machine with nvcc 13 and CCCL 3 (bench/NOTES.md, seventh session,
# "bykey-fold"), within about 3 minutes on 16 cores:
#   1. builds bench/cub/tune/bykey_tune.cu twice at once, with gocccl-gen's
#      flags: "base" (today's kernels) and "fold" (-DGOCCCL_EXPERIMENT_BYKEY_FOLD:
#      BlockScanRolledFold and the staged last tile), with ptxas -v;
#   2. prints both builds' registers and spills of every scan-by-key sweep
#      (ours and CUB's);
#   3. runs base, then fold (then base and fold again while DEADLINE
#      allows): each checks every shape against CUB on the GPU first
#      (integers bitwise; tile edges, one tile, NaNs) and then times
#      inclusive and exclusive scans by key of uint32 / float32 / uint64 /
#      float64 values (uint32 keys in runs of mean length 7) at SIZES beside
#      cub::DeviceScan::InclusiveSumByKey / ExclusiveSumByKey;
#   4. summary.txt: per row base and fold µs, fold / base, both against CUB,
#      and whether the two builds' outputs are bit-identical (output hashes;
#      floats included), then the verdict.
#
# From the repository root (the script finds its sources beside itself, so
# any working directory does):
#
#   bash bench/cub/tune/bykey_ab.sh
#
# or from a bundle (make gpu-bundle copies it to src/ with bykey_tune.cu,
# epoch_region.cuh, src/bench/bench.cuh and src/include):
#
#   bash gpu-bundle/src/bykey_ab.sh
#   DEADLINE=170 SIZES=20,24,28 NVCC=... ARCH=sm_90 BUILD_DIR=... OUT=...
#
# Everything goes under $OUT (default /tmp/bykey_ab): base.build.log,
# fold.build.log, base.tsv, fold.tsv (and base2.tsv, fold2.tsv), regs.txt,
# summary.txt. Exit status 0 only if both built, every check passed and
# every hash of fold equals base's.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-/tmp/bykey_ab}"
build="${BUILD_DIR:-${TMPDIR:-/tmp}/gocccl-bykey-ab}"
arch="${ARCH:-sm_90}"
start=$(date +%s)
deadline=$((start + ${DEADLINE:-170}))
mkdir -p "$out" "$build"

# Sources: bykey_tune.cu and epoch_region.cuh beside this script; bench.cuh
# in bench/cub (the repository) or bench/ (a bundle's src/); the kernel
# headers in kernels/include or include/.
src="$here/bykey_tune.cu"
incs=(-I"$here")
for d in "$here/.." "$here/bench"; do [[ -f "$d/bench.cuh" ]] && incs+=(-I"$d"); done
kinc="${KERNELS_INCLUDE:-}"
for d in "$here/../../../kernels/include" "$here/include" "$here/../include"; do
  [[ -z "$kinc" && -f "$d/gocccl/scan_by_key.cuh" ]] && kinc="$d"
done
if [[ ! -f "$src" || -z "$kinc" ]]; then echo "bykey_ab.sh: bykey_tune.cu or the kernel headers not found (set KERNELS_INCLUDE)" >&2; exit 2; fi
incs+=(-I"$kinc")

toolkit="${GOCCCL_TOOLKIT_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gocccl/cuda13}/nvidia/cu13/bin/nvcc"
nvcc="${NVCC:-}"
if [[ -z "$nvcc" ]]; then nvcc="$(command -v nvcc || true)"; fi
if [[ -z "$nvcc" && -x "$toolkit" ]]; then nvcc="$toolkit"; fi
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$nvcc" ]]; then echo "bykey_ab.sh: nvcc not found (set NVCC)" >&2; exit 2; fi
left() { local s=$((deadline - $(date +%s))); echo $((s > 1 ? s : 1)); } # timeout 0 would mean none

# gocccl-gen's flags (the bench/ops manifest); -L: a wheel's toolkit keeps
# libcudart in lib/, where nvcc.profile does not look.
flags=(-std=c++17 -O3 -fmad=false -ftz=false -prec-div=true -prec-sqrt=true -arch="$arch" "${incs[@]}"
  -L"$(dirname "$nvcc")/../lib" -Xptxas -v)
"$nvcc" "${flags[@]}" -DGOCCCL_SYSTEM='"base"' -o "$build/base" "$src" >"$out/base.build.log" 2>&1 &
pb=$!
"$nvcc" "${flags[@]}" -DGOCCCL_SYSTEM='"fold"' -DGOCCCL_EXPERIMENT_BYKEY_FOLD -o "$build/fold" "$src" \
  >"$out/fold.build.log" 2>&1 &
pf=$!
status=0
wait "$pb" || { echo "# base did not build: $out/base.build.log"; tail -20 "$out/base.build.log"; status=2; }
wait "$pf" || { echo "# fold did not build: $out/fold.build.log"; tail -20 "$out/fold.build.log"; status=2; }
[[ $status -ne 0 ]] && exit $status
echo "# built both in $(($(date +%s) - start)) s with $nvcc"

# Registers: one line per sweep kernel, both builds.
demangle() { if command -v c++filt >/dev/null; then c++filt; else cat; fi; }
regs() {
  awk '/Compiling entry function/ { name = $0; sub(/^.*function .?/, "", name); sub(/.? for .*$/, "", name) }
       /spill stores/ { spill = $0; sub(/^ +/, "", spill) }
       /Used [0-9]+ registers/ { r = $0; sub(/^.*Used /, "", r); sub(/ registers.*$/, "", r); print name "\t" r "\t" spill }' "$1" |
    while IFS=$'\t' read -r name r spill; do
      printf '%s\t%s regs\t%s\n' "$(echo "$name" | demangle | sed 's/(.*//; s/^void //; s/gocccl:://g; s/cub::CUB_[0-9]*_SM_[0-9]*:://g; s/detail::scan_by_key:://g; s/unsigned int/u32/g; s/unsigned long/u64/g')" "$r" "$spill"
    done | grep -E '^sbk_kernel|DeviceScanByKeyKernel' | sed -E 's/policy_hub<[^>]*>::Policy[0-9]+, //; s/cuda::std::__[0-9]+::plus<void>/plus/g' | sort
}
{
  echo "== base"; regs "$out/base.build.log"
  echo "== fold"; regs "$out/fold.build.log"
} >"$out/regs.txt"
grep -E '^==|^sbk_kernel' "$out/regs.txt"

sizes="${SIZES:-20,24,28}"
runone() { # tag
  local b=${1%2}
  timeout "$(left)" "$build/$b" --sizes "$sizes" >"$out/$1.tsv" 2>"$out/$1.err"
  local rc=$?
  echo "# $1: exit $rc after $(($(date +%s) - start)) s (124: ran past DEADLINE)"
  [[ $rc -ne 0 ]] && status=1
  return 0
}
t0=$(date +%s)
runone base
runone fold
pass=$(($(date +%s) - t0))
if [[ $(left) -gt $((pass + 10)) ]]; then runone base2; runone fold2; fi

# The summary: base and fold side by side (the first pass; the second's in
# parentheses), CUB's from the base build, and the hashes.
awk -F'\t' '
  function key(sys, alg, type, n) { sub(/^(base|fold)-/, "", sys); return alg "|" type "|" n "|" sys }
  FNR == 1 { f = FILENAME; sub(/^.*\//, "", f); sub(/\.tsv$/, "", f) }
  /^# check/ { k = key($2, $3, $4, $5) "|" $7; h[f, k] = $8; if (f == "base") ck[k] = 1; next }
  /^#|^system/ || $1 ~ /:host_call$/ { next }
  $5 == "-" { bad[f] = bad[f] $0 "\n"; next }
  $1 == "cub" { if (f == "base") cub[$2 "|" $3 "|" $4] = $5; next }
  { k = key($1, $2, $3, $4); t[f, k] = $5; hash = $NF; sub(/^.*hash /, "", hash); h[f, k] = hash; if (f == "base") rows[k] = 1 }
  END {
    printf "%-22s %-8s %-10s %-30s %9s %9s %7s %9s %6s %6s  %s\n", "algorithm", "type", "n", "shape", "base_us", "fold_us", "f/b", "cub_us", "b/cub", "f/cub", "bits"
    nr = 0; for (k in rows) order[++nr] = k
    for (i = 2; i <= nr; i++) { x = order[i]; for (j = i - 1; j >= 1 && order[j] > x; j--) order[j + 1] = order[j]; order[j + 1] = x }
    diffs = 0
    for (i = 1; i <= nr; i++) {
      k = order[i]; split(k, p, "|"); c = cub[p[1] "|" p[2] "|" p[3]]
      same = (h["fold", k] == h["base", k]) ? "same" : "DIFFER"; if (same != "same") diffs++
      b = t["base", k]; fo = t["fold", k]
      b2 = (("base2", k) in t) ? sprintf(" (%s)", t["base2", k]) : ""; f2 = (("fold2", k) in t) ? sprintf(" (%s)", t["fold2", k]) : ""
      printf "%-22s %-8s %-10s %-30s %9s %9s %7.3f %9s %6.3f %6.3f  %s%s%s\n", p[1], p[2], p[3], p[4], b, fo, (b > 0 ? fo / b : 0), c, (c > 0 ? b / c : 0), (c > 0 ? fo / c : 0), same, b2, f2
    }
    nc = 0; cd = 0; for (k in ck) { nc++; if (h["fold", k] != h["base", k]) { cd++; print "# check hash differs: " k } }
    printf "# checks: %d cases, fold hash differs from base in %d\n", nc, cd
    nbad = 0; for (g in bad) { nbad++; printf "# FAILED rows in %s:\n%s", g, bad[g] }
    printf "# verdict: %s\n", (diffs == 0 && cd == 0 && nbad == 0 && nr > 0) ? "fold bit-identical to base, every check passed" : "NOT CLEAN (see above)"
    exit (diffs == 0 && cd == 0 && nbad == 0 && nr > 0) ? 0 : 1
  }' "$out/base.tsv" "$out/fold.tsv" $( [[ -s "$out/base2.tsv" ]] && echo "$out/base2.tsv" ) $( [[ -s "$out/fold2.tsv" ]] && echo "$out/fold2.tsv" ) >"$out/summary.txt"
[[ $? -ne 0 ]] && status=1
cat "$out/summary.txt"
echo "# total $(($(date +%s) - start)) s; files in $out"
exit $status
