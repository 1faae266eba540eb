#!/usr/bin/env bash
# radix_ab.sh: the radix onesweep A/B runs for a GPU machine with nvcc 13 and
# CCCL 3, each within a DEADLINE. Two modes:
#
# MODE=order (the default; bench/NOTES.md, nineteenth session), about 170 s:
#   1. builds the radix tune harness twice at once (radix_tune.sh
#      BUILD_ONLY=1): "base", the header's default kernels (the run-time
#      order flip), and "exp", with -DGOCCCL_EXPERIMENT_RADIX_ORDER (the
#      onesweep kernel with both orders compiled in, one uniform branch);
#   2. runs base: radix_tune --no-check --order (the policies of uint32 keys,
#      uint64 keys and uint32 pairs, ascending and descending, at 2^24 and
#      2^28, every output compared byte for byte with
#      cub::DeviceRadixSort(Descending)'s before it is timed beside it);
#   3. runs exp: radix_tune --quick-check --order (the checks of every key
#      type, window, direction, value size and portions against a CPU stable
#      sort, then the same sweep);
#   4. runs base again if the time left allows (base2: the run-to-run noise
#      of the same kernels);
#   5. writes summary.txt: per row base µs, exp µs, exp/base, base/cub and
#      exp/cub (each run's own CUB time), base2/base when there is one; the
#      geometric mean of exp/base per type; the exp checks; the verdict lines.
#   Files under $OUT: {base,exp}.build.log (ptxas registers and spills of
#   every onesweep kernel, CUB's included), {base,exp,base2}.tsv and .err,
#   summary.txt. Without a GPU it stops after the builds with a message in
#   summary.txt (exit 3).
#
# MODE=match (the second session's A/B), about 150 s:
#   1. compiles kernels/test/kernels_test.cu and the radix tune harness
#      (radix_tune.sh BUILD_ONLY=1) at once;
#   2. runs kernels_test --only segsort as soon as it is built (the segmented
#      sorts: radix_sort.cuh's BlockRank, Onesweep and single tile inside,
#      over many portions);
#   3. runs the harness: --quick-check (every key type, windows, descending,
#      pairs, portions, each match, against a CPU stable sort), then the
#      sweep at 2^24 and 2^28 of uint32 keys, uint64 keys and uint32 pairs:
#      match.any (old) and ballot (new) configurations, each compared byte for
#      byte with cub::DeviceRadixSort before it is timed beside it.
#   Files under $OUT: *.build.log (ptxas registers of every onesweep kernel,
#   CUB's included, in radix_tune.build.log), kernels_test.log, radix_ab.tsv
#   (the harness's rows and summary) and summary.txt (the "# summary" and
#   "# check" lines, the verdicts).
#
#   bash bench/cub/tune/radix_ab.sh                      MODE=order
#   MODE=match bash bench/cub/tune/radix_ab.sh
#   OUT=/tmp/radix_ab DEADLINE=170 SIZES=24,28 NVCC=... ARCH=sm_90 BUILD_DIR=...
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
mode="${MODE:-order}"
out="${OUT:-/tmp/radix_ab}"
build="${BUILD_DIR:-${TMPDIR:-/tmp}/gocccl-radix-ab}"
arch="${ARCH:-sm_90}"
case "$mode" in
  order) deadline=$(($(date +%s) + ${DEADLINE:-170})) ;;
  match) deadline=$(($(date +%s) + ${DEADLINE:-145})) ;;
  *) echo "radix_ab.sh: MODE is order or match, not $mode" >&2; exit 2 ;;
esac
mkdir -p "$out" "$build"
toolkit="${GOCCCL_TOOLKIT_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gocccl/cuda13}/nvidia/cu13/bin/nvcc"
nvcc="${NVCC:-}"
if [[ -z "$nvcc" && -x "$toolkit" ]]; then nvcc="$toolkit"; fi
if [[ -z "$nvcc" ]]; then nvcc="$(command -v nvcc || true)"; fi
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$nvcc" ]]; then echo "radix_ab.sh: nvcc not found (set NVCC)" >&2; exit 2; fi
left() { local s=$((deadline - $(date +%s))); echo $((s > 1 ? s : 1)); } # timeout 0 would mean none
start=$(date +%s)
since() { echo $(($(date +%s) - start)); }

if [[ "$mode" == match ]]; then
  # -L: a wheel's toolkit keeps libcudart in lib/, where nvcc.profile does not look.
  "$nvcc" -std=c++17 -O3 -arch="$arch" -I"$repo/kernels/include" -L"$(dirname "$nvcc")/../lib" \
    -o "$build/kernels_test" "$repo/kernels/test/kernels_test.cu" >"$out/kernels_test.build.log" 2>&1 &
  kt=$!
  BUILD_DIR="$build" BUILD_ONLY=1 NVCC="$nvcc" ARCH="$arch" bash "$here/radix_tune.sh" \
    >"$out/radix_tune.build.log" 2>&1 &
  rt=$!

  status=0
  if wait "$kt"; then
    echo "# kernels_test built in $(since) s"
    # The GPU is free while the harness still compiles.
    timeout "$(( $(left) > 45 ? 45 : $(left) ))" "$build/kernels_test" --only segsort >"$out/kernels_test.log" 2>&1
    rc=$?
    echo "# kernels_test --only segsort: exit $rc ($(tail -n 1 "$out/kernels_test.log"))"
    [[ $rc -ne 0 ]] && status=1
  else
    echo "# kernels_test did not build: $out/kernels_test.build.log"; status=1
  fi
  if wait "$rt"; then
    echo "# radix_tune built after $(since) s"
    grep '^# ptxas' "$out/radix_tune.build.log"
    timeout "$(left)" "$build/radix_tune" --quick-check --sizes "${SIZES:-24,28}" >"$out/radix_ab.tsv" 2>"$out/radix_ab.err"
    rc=$?
    echo "# radix_tune: exit $rc after $(since) s (124: ran past DEADLINE)"
    [[ $rc -ne 0 ]] && status=1
  else
    echo "# radix_tune did not build: $out/radix_tune.build.log"; status=1
  fi
  grep -E '^# (check|summary|CUB_VERSION|radix_tune:)|FAIL' "$out/radix_ab.tsv" "$out/radix_ab.err" 2>/dev/null |
    sed 's/^[^:]*://' | tee "$out/summary.txt"
  exit $status
fi

# MODE=order.
notes=() # verdict lines for summary.txt
note() { echo "# $*"; notes+=("# $*"); }
summary() {
  {
    echo "# radix_ab.sh MODE=order: base = the run-time order flip (today's kernels), exp = -DGOCCCL_EXPERIMENT_RADIX_ORDER; $(date -u +%FT%TZ)"
    grep -h -E '^# (radix_tune:|CUB_VERSION|GOCCCL_EXPERIMENT_RADIX_ORDER)' "$out/base.tsv" "$out/exp.tsv" 2>/dev/null | sort -u
    grep -h '^# ptxas k_sweep<384x\(20,minb 3,pb 29,match 0,j,-\|15,minb 3,pb 29,match 0,m,-\|18,minb 3,pb 29,match 0,j,j\)' \
      "$out/base.build.log" 2>/dev/null | sed 's/^# ptxas/# ptxas base/'
    grep -h '^# ptxas k_sweep<384x\(20,minb 3,pb 29,match 0,j,-\|15,minb 3,pb 29,match 0,m,-\|18,minb 3,pb 29,match 0,j,j\)' \
      "$out/exp.build.log" 2>/dev/null | sed 's/^# ptxas/# ptxas exp/'
    grep -h -E '^# check|^# [0-9]+ checks run' "$out/exp.tsv" 2>/dev/null | sed 's/^# check/# check exp/'
    grep -h 'FAIL' "$out/base.tsv" "$out/exp.tsv" "$out/base2.tsv" "$out/base.err" "$out/exp.err" "$out/base2.err" \
      2>/dev/null | sed 's/^/# /'
    local tsvs=() f
    for f in base exp base2; do [[ -f "$out/$f.tsv" ]] && tsvs+=("$out/$f.tsv"); done
    # Rows: system algorithm type n median_us bytes note; ours carry the
    # configuration before "; " in the note.
    awk -F'\t' '
      FNR == 1 { run = FILENAME; sub(/^.*\//, "", run); sub(/\.tsv$/, "", run) }
      /^#/ || $1 == "system" || $5 == "-" { next }
      $1 == "cub" { cub[run, $2 SUBSEP $3 SUBSEP $4] = $5; next }
      $1 == "gocccl-kernels" {
        cfg = $7; sub(/;.*$/, "", cfg); k = $2 SUBSEP $3 SUBSEP $4 SUBSEP cfg
        us[run, k] = $5; key[$2 SUBSEP $3 SUBSEP $4] = $2 SUBSEP $3 SUBSEP $4; cfgof[k] = cfg
        if (!(k in seen)) { seen[k] = 1; order[++rows] = k }
      }
      END {
        printf "# order\talgorithm\ttype\tn\tconfig\tbase_us\texp_us\texp/base\tbase/cub\texp/cub\tbase2/base\n"
        for (i = 1; i <= rows; i++) {
          k = order[i]; split(k, f, SUBSEP); c = f[1] SUBSEP f[2] SUBSEP f[3]
          b = us["base", k]; e = us["exp", k]; b2 = us["base2", k]
          printf "# order\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", f[1], f[2], f[3], f[4],
            b == "" ? "-" : b, e == "" ? "-" : e,
            (b != "" && e != "") ? sprintf("%.3f", e / b) : "-",
            (b != "" && cub["base", c] != "") ? sprintf("%.3f", b / cub["base", c]) : "-",
            (e != "" && cub["exp", c] != "") ? sprintf("%.3f", e / cub["exp", c]) : "-",
            (b != "" && b2 != "") ? sprintf("%.3f", b2 / b) : "-"
          if (b != "" && e != "") { t = f[1] " " f[2]; lg[t] += log(e / b); nt[t]++ }
        }
        for (t in lg) printf "# order geomean exp/base\t%s\t%.3f\t(%d sizes)\n", t, exp(lg[t] / nt[t]), nt[t]
      }' ${tsvs[@]+"${tsvs[@]}"} /dev/null
    printf '%s\n' "${notes[@]}"
  } >"$out/summary.txt"
  cat "$out/summary.txt"
}
: >"$out/base2.tsv"

BUILD_DIR="$build/base" BUILD_ONLY=1 NVCC="$nvcc" ARCH="$arch" EXTRA_FLAGS= bash "$here/radix_tune.sh" \
  >"$out/base.build.log" 2>&1 &
bb=$!
BUILD_DIR="$build/exp" BUILD_ONLY=1 NVCC="$nvcc" ARCH="$arch" EXTRA_FLAGS=-DGOCCCL_EXPERIMENT_RADIX_ORDER \
  bash "$here/radix_tune.sh" >"$out/exp.build.log" 2>&1 &
eb=$!
status=0
wait "$bb" || { note "base harness did not build: $out/base.build.log"; status=1; }
wait "$eb" || { note "exp harness did not build: $out/exp.build.log"; status=1; }
if [[ $status -ne 0 ]]; then summary; exit 1; fi
note "both harnesses built after $(since) s"

# run NAME ARGS...: one harness run under the deadline; its exit status.
run() {
  local name=$1 bin=$2
  shift 2
  local t0
  t0=$(date +%s)
  timeout "$(left)" "$bin" "$@" >"$out/$name.tsv" 2>"$out/$name.err"
  local rc=$?
  note "$name: radix_tune $* exit $rc in $(($(date +%s) - t0)) s, at $(since) s (124: ran past DEADLINE)"
  return $rc
}
sizes="${SIZES:-24,28}"
t0=$(date +%s)
run base "$build/base/radix_tune" --no-check --order --sizes "$sizes"
rc=$?
base_s=$(($(date +%s) - t0))
if [[ $rc -eq 2 ]] && grep -q -E 'cudaErrorNoDevice|cudaErrorInsufficientDriver|no CUDA-capable device|cudaErrorSystemNotReady|cudaErrorDevicesUnavailable' "$out/base.err"; then
  note "no usable GPU here ($(grep -m1 'CUDA error' "$out/base.err")): built both harnesses, timed nothing"
  summary
  exit 3
fi
[[ $rc -ne 0 ]] && status=1
run exp "$build/exp/radix_tune" --quick-check --order --sizes "$sizes" || status=1
# A second base run when it fits in what is left (with 10 s to spare).
if [[ $(left) -gt $((base_s + 10)) ]]; then
  run base2 "$build/base/radix_tune" --no-check --order --sizes "$sizes" || status=1
else
  note "base2 skipped: $(left) s left, base took $base_s s"
fi
summary
exit $status
