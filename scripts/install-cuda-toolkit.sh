#!/usr/bin/env bash
# Installs the CUDA toolkit gocccl-gen compiles with: nvcc 13.0 and CCCL 3.0
# from NVIDIA's Python wheels, with pip install --target into a user-level
# directory. No root, no apt. It prints what it installed, how big, and where.
#
#   scripts/install-cuda-toolkit.sh          install (a fast no-op when present)
#   scripts/install-cuda-toolkit.sh --nvcc   print the nvcc path, installing first
#
# The directory is $GOCCCL_TOOLKIT_DIR, else $XDG_DATA_HOME/gocccl/cuda13, else
# ~/.local/share/gocccl/cuda13; nvcc is <dir>/nvidia/cu13/bin/nvcc, which
# gocccl-gen finds there without configuration (see gocccl-gen doctor). The
# wheels lay it out as a CUDA installation (bin/, include/ with include/cccl,
# nvvm/, lib/) that nvcc finds through its nvcc.profile: no -I or $CUDA_HOME is
# needed. Debian's nvcc 11.8 (scripts/install-debian-nvcc.sh) stays supported.
set -euo pipefail

# Pinned to CUDA 13.0 Update 2, not the newest 13.x: the PTX an nvcc writes
# carries its PTX ISA version (13.0 writes 9.0, 13.5 writes 9.5) and a driver
# JIT-compiles only ISA versions up to its own CUDA release. Our GPU machine's
# driver is 580 (CUDA 13.0) with nvcc 13.0 and CCCL 3.0.1 beside it, so these
# pins give PTX it can load, SASS identical to what its own nvcc writes, and the
# same CUB (CUB_VERSION 300001). Raise them together, and only once the drivers
# we run on support the new release.
pins=(
	nvidia-cuda-nvcc==13.0.88    # nvcc, ptxas, fatbinary, nvlink, cudafe++
	nvidia-nvvm==13.0.88         # cicc and libdevice
	nvidia-cuda-crt==13.0.88     # include/crt: host_defines.h, the device runtime headers
	nvidia-cuda-runtime==13.0.96 # include/cuda_runtime.h and friends (nvcc includes it implicitly)
	nvidia-cuda-cccl==13.0.85    # include/cccl: CUB, Thrust, libcu++ of CCCL 3.0.1
)

dir=${GOCCCL_TOOLKIT_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gocccl/cuda13}
nvcc=$dir/nvidia/cu13/bin/nvcc
stamp=$dir/gocccl-toolkit.txt
want=$(printf '%s\n' "${pins[@]}")

print_nvcc=false
case "${1:-}" in
--nvcc) print_nvcc=true ;;
"") ;;
*)
	echo "usage: $0 [--nvcc]" >&2
	exit 2
	;;
esac

if [ -x "$nvcc" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	if $print_nvcc; then echo "$nvcc"; fi
	exit 0
fi

python=$(command -v python3 || true)
if [ -z "$python" ] || ! "$python" -m pip --version >/dev/null 2>&1; then
	echo "install-cuda-toolkit: needs python3 with pip (apt-get install python3-pip)" >&2
	exit 1
fi

# Install next to the final directory and rename it into place, so that an
# interrupted install never leaves a half toolkit where gocccl-gen looks.
mkdir -p "$(dirname "$dir")"
tmp=$(mktemp -d "$dir.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
echo "install-cuda-toolkit: gocccl-gen compiles operators with nvcc, and this project's toolkit (CUDA 13.0 nvcc with CCCL 3.0) is not in $dir yet:" >&2
echo "  installing NVIDIA's wheels there, without root: about 100 MB to download, 270 MB on disk, usually under a minute" >&2
printf '  %s\n' $want >&2
# The wheels are downloaded first, to report their size, then installed from
# there. pip's notices go to stderr, keeping stdout for --nvcc.
pipargs=(--quiet --disable-pip-version-check --no-input --no-deps --only-binary=:all:)
"$python" -m pip download "${pipargs[@]}" --dest "$tmp/wheels" $want >&2
download=$(du -sh "$tmp/wheels" | cut -f1)
"$python" -m pip install "${pipargs[@]}" --root-user-action=ignore --no-index --target "$tmp/toolkit" "$tmp"/wheels/*.whl >&2
printf '%s\n' "$want" >"$tmp/toolkit/gocccl-toolkit.txt"
rm -rf "$dir"
mv "$tmp/toolkit" "$dir"

cub=$(sed -n 's/^#define CUB_VERSION \([0-9]*\).*/\1/p' "$dir/nvidia/cu13/include/cccl/cub/version.cuh")
{
	echo "install-cuda-toolkit: downloaded $download of wheels, installed $(du -sh "$dir" | cut -f1) in $dir, in $(($(date +%s) - start)) s"
	echo "  nvcc: $nvcc"
	echo "  $("$nvcc" --version | grep release)"
	echo "  CCCL $((cub / 100000)).$((cub / 100 % 1000)).$((cub % 100)) (CUB_VERSION $cub)"
} >&2
if $print_nvcc; then echo "$nvcc"; fi
