#!/usr/bin/env bash
# CONCLUDED (fifteenth session, H100: bykey_ab_h100_2026-12-07.txt): RBK_REGS
# and RBK_KEYS_AGAIN (8-byte values) are now reduce_by_key.cuh's only path and
# BYKEY_FOLD is taken back, so the three builds below compile the same kernels
# and the macros change nothing. Kept as the C++ harness that checks our
# by-key kernels against CUB and times them beside it; a new experiment adds
# its macro to `defs`.
# bykey_ab.sh: the A/B of issue 38's by-key experiments in C++, for a GPU
# machine with nvcc 13 and CCCL 3 (bench/NOTES.md, seventh session,
# "bykey-fold" and "rbk-regs"), within about 3 minutes on 16 cores:
#   1. builds bench/cub/tune/bykey_tune.cu three times at once, with
#      gocccl-gen's flags and ptxas -v: "base" (today's kernels), "exp"
#      (-DGOCCCL_EXPERIMENT_BYKEY_FOLD: BlockScanRolledFold and the staged
#      last tile in scan_by_key.cuh; -DGOCCCL_EXPERIMENT_RBK_REGS: int
#      counts, head bits, values read again in reduce_by_key.cuh) and
#      "keys" (exp and -DGOCCCL_EXPERIMENT_RBK_KEYS_AGAIN: the heads' keys
#      read again);
#   2. prints every build's registers and spills of our sweeps (regs.txt
#      holds CUB's too);
#   3. runs base, exp and keys (keys: ReduceByKey only), then all three
#      again while DEADLINE allows: each checks every shape against CUB on
#      the GPU first (integers bitwise; tile edges, one tile, NaNs) and then
#      times inclusive and exclusive scans by key and ReduceByKey of uint32 /
#      float32 / uint64 / float64 values (uint32 keys in runs of mean length
#      7) at SIZES beside cub::DeviceScan::InclusiveSumByKey /
#      ExclusiveSumByKey and cub::DeviceReduce::ReduceByKey;
#   4. summary.txt: per row the builds' µs, their ratios to base and to
#      CUB, and whether each build's outputs are bit-identical to base's
#      (output hashes, floats included), then the verdict.
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
# $OUT (default /tmp/bykey_ab) gets three files: summary.txt, regs.txt and
# bykey_ab_logs.tar.gz (B.build.log, B.tsv, B.err for B in base, exp, keys;
# B2.tsv: the second pass), so that a device call's $OUT brings them all
# back. Exit status 0 only if all built, every check passed and every hash
# equals base's.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${OUT:-/tmp/bykey_ab}"
build="${BUILD_DIR:-${TMPDIR:-/tmp}/gocccl-bykey-ab}"
arch="${ARCH:-sm_90}"
start=$(date +%s)
deadline=$((start + ${DEADLINE:-170}))
logs="$build/logs" # every log and TSV; $out gets summary.txt, regs.txt and a tarball of these
rm -rf "$logs"
mkdir -p "$out" "$logs"
pack() { tar -czf "$out/bykey_ab_logs.tar.gz" -C "$logs" . 2>/dev/null; cp "$logs/summary.txt" "$logs/regs.txt" "$out/" 2>/dev/null; true; }
trap pack EXIT

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
# The builds: base (no macro), exp (both experiments) and keys (exp with
# the heads' keys read again; timed for ReduceByKey only).
declare -A defs=([base]="" [exp]="-DGOCCCL_EXPERIMENT_BYKEY_FOLD -DGOCCCL_EXPERIMENT_RBK_REGS"
  [keys]="-DGOCCCL_EXPERIMENT_BYKEY_FOLD -DGOCCCL_EXPERIMENT_RBK_REGS -DGOCCCL_EXPERIMENT_RBK_KEYS_AGAIN")
builds=(base exp keys)
declare -A pid
for b in "${builds[@]}"; do
  # shellcheck disable=SC2086 # defs are words
  "$nvcc" "${flags[@]}" -DGOCCCL_SYSTEM="\"$b\"" ${defs[$b]} -o "$build/$b" "$src" >"$logs/$b.build.log" 2>&1 &
  pid[$b]=$!
done
status=0
for b in "${builds[@]}"; do
  wait "${pid[$b]}" || { echo "# $b did not build: $b.build.log in $out/bykey_ab_logs.tar.gz"; tail -20 "$logs/$b.build.log"; status=2; }
done
[[ $status -ne 0 ]] && exit $status
echo "# built ${builds[*]} in $(($(date +%s) - start)) s with $nvcc"

# Registers: one line per sweep kernel of each build.
demangle() { if command -v c++filt >/dev/null; then c++filt; else cat; fi; }
regs() {
  awk '/Compiling entry function/ { name = $0; sub(/^.*function .?/, "", name); sub(/.? for .*$/, "", name) }
       /spill stores/ { spill = $0; sub(/^ +/, "", spill) }
       /Used [0-9]+ registers/ { r = $0; sub(/^.*Used /, "", r); sub(/ registers.*$/, "", r); print name "\t" r "\t" spill }' "$1" |
    while IFS=$'\t' read -r name r spill; do
      printf '%s\t%s regs\t%s\n' "$(echo "$name" | demangle | sed 's/(.*//; s/^void //; s/gocccl:://g; s/cub::CUB_[0-9]*_SM_[0-9]*:://g; s/detail::scan_by_key:://g; s/unsigned int/u32/g; s/unsigned long/u64/g')" "$r" "$spill"
    done | grep -E '(sbk|rbk)_kernel|DeviceScanByKeyKernel|DeviceReduceByKeyKernel' |
    sed -E 's/policy_hub<[^>]*>::Policy[0-9]+, //; s/cuda::std::__[0-9]+::plus<void>/plus/g' | sort
}
for b in "${builds[@]}"; do echo "== $b"; regs "$logs/$b.build.log"; done >"$logs/regs.txt"
grep -E '^==|(sbk|rbk)_kernel' "$logs/regs.txt"

sizes="${SIZES:-20,24,28}"
runone() { # tag [args]: tag is a build, with a trailing 2 for the second pass
  local t=$1 b=${1%2}
  shift
  timeout "$(left)" "$build/$b" --sizes "$sizes" "$@" >"$logs/$t.tsv" 2>"$logs/$t.err"
  local rc=$?
  echo "# $t: exit $rc after $(($(date +%s) - start)) s (124: ran past DEADLINE)"
  [[ $rc -ne 0 ]] && status=1
  return 0
}
t0=$(date +%s)
runone base
runone exp
runone keys --only rbk
pass=$(($(date +%s) - t0))
if [[ $(left) -gt $((pass + 10)) ]]; then runone base2; runone exp2; runone keys2 --only rbk; fi

# The summary: each row's base, exp and keys µs (the second pass in
# parentheses), the ratios, CUB's (the base build's), and whether each
# build's output hash equals base's.
files=()
for t in base exp keys base2 exp2 keys2; do [[ -s "$logs/$t.tsv" ]] && files+=("$logs/$t.tsv"); done
awk -F'\t' '
  function key(sys, alg, type, n) { sub(/^[a-z]+-/, "", sys); return alg "|" type "|" n "|" sys }
  function us(v) { return v == "" ? "-" : v }
  function ratio(a, b) { return (a > 0 && b > 0) ? sprintf("%.3f", a / b) : "-" }
  FNR == 1 { f = FILENAME; sub(/^.*\//, "", f); sub(/\.tsv$/, "", f) }
  /^# check/ { k = key($2, $3, $4, $5) "|" $7; h[f, k] = $8; if (f == "base") ck[k] = 1; next }
  /^#|^system/ || $1 ~ /:host_call$/ { next }
  $5 == "-" { bad[f] = bad[f] $0 "\n"; next }
  $1 == "cub" { if (f == "base") cub[$2 "|" $3 "|" $4] = $5; next }
  { k = key($1, $2, $3, $4); t[f, k] = $5; hash = $NF; sub(/^.*hash /, "", hash); h[f, k] = hash; if (f == "base") rows[k] = 1 }
  END {
    printf "%-21s %-7s %-9s %-27s %8s %8s %8s %6s %6s %8s %6s %6s %6s  %s\n", "algorithm", "type", "n", "shape", "base_us", "exp_us", "keys_us", "e/b", "k/b", "cub_us", "b/cub", "e/cub", "k/cub", "bits vs base; second pass base/exp/keys"
    nr = 0; for (k in rows) order[++nr] = k
    for (i = 2; i <= nr; i++) { x = order[i]; for (j = i - 1; j >= 1 && order[j] > x; j--) order[j + 1] = order[j]; order[j + 1] = x }
    diffs = 0
    for (i = 1; i <= nr; i++) {
      k = order[i]; split(k, p, "|"); c = cub[p[1] "|" p[2] "|" p[3]]
      b = t["base", k]; e = t["exp", k]; q = t["keys", k]
      bits = ""
      for (g = 1; g <= 2; g++) { v = g == 1 ? "exp" : "keys"; if ((v, k) in h) { s = h[v, k] == h["base", k] ? "same" : "DIFFER"; if (s != "same") diffs++; bits = bits v ":" s " " } }
      second = (("base2", k) in t || ("exp2", k) in t) ? sprintf("(%s/%s/%s)", us(t["base2", k]), us(t["exp2", k]), us(t["keys2", k])) : ""
      printf "%-21s %-7s %-9s %-27s %8s %8s %8s %6s %6s %8s %6s %6s %6s  %s%s\n", p[1], p[2], p[3], p[4], us(b), us(e), us(q), ratio(e, b), ratio(q, b), us(c), ratio(b, c), ratio(e, c), ratio(q, c), bits, second
    }
    nc = 0; cd = 0
    for (k in ck) for (g = 1; g <= 2; g++) { v = g == 1 ? "exp" : "keys"; if ((v, k) in h) { nc++; if (h[v, k] != h["base", k]) { cd++; print "# check hash differs (" v "): " k } } }
    printf "# checks: %d comparisons of a build with base, %d hashes differ\n", nc, cd
    nbad = 0; for (g in bad) { nbad++; printf "# FAILED rows in %s:\n%s", g, bad[g] }
    ok = diffs == 0 && cd == 0 && nbad == 0 && nr > 0
    printf "# verdict: %s\n", ok ? "the experiments bit-identical to base, every check passed" : "NOT CLEAN (see above)"
    exit ok ? 0 : 1
  }' "${files[@]}" >"$logs/summary.txt"
[[ $? -ne 0 ]] && status=1
cat "$logs/summary.txt"
echo "# total $(($(date +%s) - start)) s; $out: summary.txt, regs.txt, bykey_ab_logs.tar.gz"
exit $status
