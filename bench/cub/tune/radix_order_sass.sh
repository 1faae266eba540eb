#!/usr/bin/env bash
# radix_order_sass.sh: SASS instruction counts and ptxas registers/spills of
# the onesweep kernels in each order variant (radix_order_sass.cu: rt = the
# run-time flip, today's kernel; asc, desc = the order compiled in; dual =
# run with GOCCCL_EXPERIMENT_RADIX_ORDER), for sm_90 with gocccl-gen's flags.
# No GPU needed. Instructions: every SASS line of the function as cuobjdump
# prints it (the padding NOPs to the 128-byte end included).
#
#   bash bench/cub/tune/radix_order_sass.sh          a table on stdout
#   NVCC=... ARCH=sm_90 CUOBJDUMP=...   (cuobjdump of nvcc's CUDA major)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
toolkit="${GOCCCL_TOOLKIT_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gocccl/cuda13}/nvidia/cu13/bin/nvcc"
nvcc="${NVCC:-}"
if [[ -z "$nvcc" && -x "$toolkit" ]]; then nvcc="$toolkit"; fi
if [[ -z "$nvcc" ]]; then nvcc="$(command -v nvcc || true)"; fi
if [[ -z "$nvcc" ]]; then echo "radix_order_sass.sh: nvcc not found (set NVCC)" >&2; exit 2; fi
# cuobjdump of the same CUDA major (11.8's cannot read CUDA 13's cubins):
# $CUOBJDUMP, else beside nvcc, else scripts/install-sass-tools.sh's.
cuobjdump="${CUOBJDUMP:-$(dirname "$nvcc")/cuobjdump}"
if [[ ! -x "$cuobjdump" ]]; then cuobjdump="$(bash "$repo/scripts/install-sass-tools.sh")/cuobjdump"; fi
arch="${ARCH:-sm_90}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$nvcc" -std=c++17 -O3 -fmad=false -ftz=false -prec-div=true -prec-sqrt=true -I"$repo/kernels/include" \
  -DGOCCCL_EXPERIMENT_RADIX_ORDER -cubin -arch="$arch" -Xptxas -v -o "$work/o.cubin" "$here/radix_order_sass.cu" \
  >"$work/ptxas.log" 2>&1 || { cat "$work/ptxas.log" >&2; exit 2; }
"$cuobjdump" -sass "$work/o.cubin" >"$work/o.sass"
awk '/Function : /{ f = $NF } /^        \/\*[0-9a-f]+\*\// { n[f]++ } END { for (k in n) print k, n[k] }' "$work/o.sass" >"$work/count"
awk '/Compiling entry function/ { f = $0; sub(/^.*function ./, "", f); sub(/. for .*$/, "", f) }
  /bytes spill stores/ { split($0, a, " "); st = a[5]; ld = a[9] }
  /Used [0-9]+ registers/ { r = $0; sub(/^.*Used /, "", r); sub(/ registers.*$/, "", r); print f, r, st "+" ld }' \
  "$work/ptxas.log" >"$work/regs"
echo "# $("$nvcc" --version | tail -n 1 | sed 's/^Build //'), $arch: SASS instructions (registers, spill store+load bytes)"
printf '%-22s %14s %14s %14s %14s\n' onesweep rt asc desc dual
for c in keys_uint32 keys_float32 keys_uint64 keys_float64 pairs_uint32_uint32 pairs_uint64_uint32; do
  printf '%-22s' "$c"
  for v in rt asc desc dual; do
    k="os_${c}_${v}"
    printf ' %14s' "$(awk -v k="$k" '$1 == k { printf "%d", $2 }' "$work/count") ($(awk -v k="$k" '$1 == k { printf "%s, %s", $2, $3 }' "$work/regs"))"
  done
  echo
done
