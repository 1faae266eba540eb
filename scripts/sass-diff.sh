#!/usr/bin/env bash
# sass-diff.sh: compare a generated kernel's SASS with a hand-written one's,
# instruction for instruction (addresses and encodings dropped).
#
#   scripts/sass-diff.sh PKG_DIR GO_KERNEL CUBIN_OR_CU CPP_KERNEL [ARCH]
#
# PKG_DIR is a generated package (gocccl_gen_manifest.json beside
# gocccl_gen_sm_XY.cubin); its cubin joins one ELF image per instance, which
# cuobjdump cannot read whole, so the part holding GO_KERNEL is cut out first
# (cubin-parts.py). CUBIN_OR_CU is a
# cubin, or a .cu compiled here with $NVCC at -O3 for ARCH (default sm_90;
# -I kernels/include and bench/cub). Prints both kernels' resource usage and
# the diff of their SASS; exits 0 when the SASS is the same.
#
# Needs CUDA 13's cuobjdump and nvdisasm for CUDA 13 cubins (Debian's 11.8
# refuse them): installed by scripts/install-sass-tools.sh (NVIDIA's wheels,
# no root) and used from there unless $CUOBJDUMP names another cuobjdump.
#
# Example (the generated scan sweep against bench/cub/scan.cu's, which has
# other tile guards today: 1552 and 1408 instructions):
#   scripts/sass-diff.sh bench/ops gocccl_inclusive_scan_AddUint32_sweep bench/cub/scan.cu scan_u32_incl
set -euo pipefail
[[ $# -ge 4 ]] || { sed -n 2,20p "$0" >&2; exit 2; }
pkg=$1 gok=$2 other=$3 cppk=$4 arch=${5:-sm_90}
repo=$(cd "$(dirname "$0")/.." && pwd)
# CUDA 13's cuobjdump and nvdisasm (scripts/install-sass-tools.sh) unless
# CUOBJDUMP names another: Debian's 11.8 cannot read CUDA 13 cubins.
if [[ -z ${CUOBJDUMP:-} ]]; then
	PATH=$("$(dirname "$0")/install-sass-tools.sh"):$PATH
fi
cuobjdump=${CUOBJDUMP:-cuobjdump}
nvcc=${NVCC:-$HOME/.local/share/gocccl/cuda13/nvidia/cu13/bin/nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 "$(dirname "$0")/cubin-parts.py" "$pkg" "$tmp" "$arch"
gopart=
for f in "$tmp"/part*.cubin; do
	# grep reads all of cuobjdump's output (no -q): an early exit would
	# kill cuobjdump with SIGPIPE and, under pipefail, miss the part.
	if "$cuobjdump" -res-usage "$f" 2>/dev/null | grep "Function $gok:" >/dev/null; then gopart=$f; break; fi
done
[[ -n $gopart ]] || { echo "sass-diff: no part of $pkg holds $gok" >&2; exit 2; }

if [[ $other == *.cu ]]; then
	"$nvcc" -std=c++17 -O3 -arch="$arch" -cubin -I"$repo/kernels/include" -I"$repo/bench/cub" \
		-o "$tmp/other.cubin" "$other"
	other=$tmp/other.cubin
fi

"$cuobjdump" -res-usage "$other" | grep "Function $cppk:" >/dev/null ||
	{ echo "sass-diff: $other holds no kernel $cppk" >&2; exit 2; }

norm() { grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed -E 's@/\*[0-9a-f]+\*/@@; s@;.*@@; s/ +/ /g'; }
"$cuobjdump" -res-usage "$gopart" | grep -A1 "Function $gok:"
"$cuobjdump" -res-usage "$other" | grep -A1 "Function $cppk:"
"$cuobjdump" -sass -fun "$gok" "$gopart" | norm >"$tmp/go.sass"
"$cuobjdump" -sass -fun "$cppk" "$other" | norm >"$tmp/cpp.sass"
echo "instructions: $gok $(wc -l <"$tmp/go.sass"), $cppk $(wc -l <"$tmp/cpp.sass")"
diff "$tmp/cpp.sass" "$tmp/go.sass" && echo "same SASS"
