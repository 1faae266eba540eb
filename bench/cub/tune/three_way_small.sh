#!/usr/bin/env bash
# three_way_small.sh: the GPU call of the three-way-small experiment
# (bench/NOTES.md, nineteenth session; patches/issue38/README.md): checks and
# times kernels/include/gocccl/three_way_single.cuh's single-tile three-way
# partition at one-tile sizes, uint32 and float32, beside
# cub::DevicePartition::If and today's path (the 256 x 23 sweep over one
# tile): bench/cub/tune/compact_tune.cu --only small. A few seconds of GPU
# time once built.
#
#   bash bench/cub/tune/three_way_small.sh build   # here: nvcc 13, no GPU needed
#   bash bench/cub/tune/three_way_small.sh run     # on the GPU machine
#   bash bench/cub/tune/three_way_small.sh         # both
#
# build compiles compact_tune.cu with gocccl-gen's flags and ptxas -v into
# BUILD (default gpu-bundle/three_way_small, ignored by git: carry it to the
# GPU machine) and writes BUILD/regs.txt (registers and spills of the
# three-way kernels). NVCC: the compiler (default: the project's toolkit,
# scripts/install-cuda-toolkit.sh, else nvcc on PATH, else
# /usr/local/cuda); the wheel's toolkit links cudart statically, so the
# binary needs only the driver there.
# run runs BIN (default BUILD/compact_tune) --only small with RUNS (default
# 50) timed runs a row; OUT (default /tmp/three_way_small) gets small.tsv
# (the rows), summary.txt (per type and n: each row's µs and its ratio to
# cub and to today's gocccl-256x23), small.err and regs.txt.
# Exit status: compact_tune's (1 if a check failed), 2 if nothing ran.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
mode="${1:-all}"
build="${BUILD:-$repo/gpu-bundle/three_way_small}"
out="${OUT:-/tmp/three_way_small}"
if [[ $mode == build || $mode == all ]]; then
  mkdir -p "$build"
  toolkit="${GOCCCL_TOOLKIT_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gocccl/cuda13}/nvidia/cu13/bin/nvcc"
  nvcc="${NVCC:-}"
  if [[ -z "$nvcc" && -x "$toolkit" ]]; then nvcc="$toolkit"; fi
  if [[ -z "$nvcc" ]]; then nvcc="$(command -v nvcc || true)"; fi
  if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
  if [[ -z "$nvcc" ]]; then echo "three_way_small.sh: nvcc not found (set NVCC, or build elsewhere)" >&2; exit 2; fi
  # gocccl-gen's flags; -L: a wheel's toolkit keeps libcudart in lib/.
  if ! "$nvcc" -std=c++17 -O3 -fmad=false -ftz=false -prec-div=true -prec-sqrt=true -arch="${ARCH:-sm_90}" \
    -I"$repo/kernels/include" -I"$repo/bench/cub" -L"$(dirname "$nvcc")/../lib" -Xptxas -v \
    -o "$build/compact_tune" "$here/compact_tune.cu" >"$build/build.log" 2>&1; then
    tail -20 "$build/build.log"
    exit 2
  fi
  {
    echo "# $("$nvcc" --version | tail -1)"
    awk '/Compiling entry function/ { name = $0; sub(/^.*function .?/, "", name); sub(/.? for .*$/, "", name) }
         /spill stores/ { spill = $0; sub(/^ +/, "", spill); sub(/^ptxas info *: */, "", spill) }
         /Used [0-9]+ registers/ { r = $0; sub(/^.*Used /, "", r); sub(/ registers.*$/, "", r); print name "\t" r "\t" spill }' \
      "$build/build.log" | while IFS=$'\t' read -r name r spill; do
      printf '%s\t%s regs\t%s\n' "$( (c++filt 2>/dev/null || cat) <<<"$name" | sed 's/(.*//; s/^void //')" "$r" "$spill"
    done | grep -E 'three_(single|rung)_kernel|three_kernel<256, 23' | sort
  } >"$build/regs.txt"
  cat "$build/regs.txt"
  echo "# built $build/compact_tune"
fi
[[ $mode == build ]] && exit 0
mkdir -p "$out"
bin="${BIN:-$build/compact_tune}"
[[ -f "$build/regs.txt" ]] && cp "$build/regs.txt" "$out/"
if [[ ! -x "$bin" ]]; then echo "three_way_small.sh: no $bin (run the build step, or set BIN)" >&2; exit 2; fi
"$bin" --only small --runs "${RUNS:-50}" >"$out/small.tsv" 2>"$out/small.err"
status=$?
# summary: every row of a (type, n) with its ratio to cub and to gocccl-256x23.
awk -F'\t' '
  /^#/ || $1 == "system" || $1 ~ /:host_call$/ { next }
  { k = $3 "\t" $4; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
    rows[k] = rows[k] "\t" $1 "=" $5; us[k, $1] = $5 }
  END {
    print "type\tn\tsystem\tus\tvs_cub\tvs_today"
    for (i = 1; i <= nk; i++) {
      k = keys[i]; c = us[k, "cub"]; t = us[k, "gocccl-256x23"]
      m = split(substr(rows[k], 2), r, "\t")
      for (j = 1; j <= m; j++) {
        split(r[j], p, "="); v = p[2]
        vc = (v != "-" && c != "-" && c > 0) ? sprintf("%.2f", v / c) : "-"
        vt = (v != "-" && t != "-" && t > 0) ? sprintf("%.2f", v / t) : "-"
        print k "\t" p[1] "\t" v "\t" vc "\t" vt
      }
    }
  }' "$out/small.tsv" >"$out/summary.txt"
cat "$out/summary.txt"
grep -h FAILED "$out/small.tsv" || true
cat "$out/small.err"
echo "# compact_tune --only small: exit $status"
exit $status
