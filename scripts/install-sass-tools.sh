#!/usr/bin/env bash
# Installs cuobjdump and nvdisasm of CUDA 13 from NVIDIA's Python wheels, for
# reading the SASS and register use of the cubins gocccl-gen writes on a
# machine without a GPU or a CUDA installation (Debian's cuobjdump 11.8
# cannot read CUDA 13 cubins). No root, no apt; a fast no-op when present.
#
#   scripts/install-sass-tools.sh          install, print the bin directory
#
# The directory is $GOCCCL_SASS_TOOLS_DIR, else $XDG_DATA_HOME/gocccl/sass13,
# else ~/.local/share/gocccl/sass13; the tools are in <dir>/nvidia/cu13/bin
# (cuobjdump runs the nvdisasm found on PATH: put that directory first).
# Neither tool takes part in generation: CI never installs them, and the
# toolkit pins of install-cuda-toolkit.sh stay where they are. These are the
# oldest 13.x releases published as wheels (none exists for 13.0); they
# disassemble sm_90 cubins of nvcc 13.0 as its own tools do.
#
#   PATH=$(scripts/install-sass-tools.sh):$PATH cuobjdump -sass -fun KERNEL x.cubin
set -euo pipefail

pins=(
	nvidia-cuda-cuobjdump==13.2.86
	nvidia-cuda-nvdisasm==13.2.86
)
dir=${GOCCCL_SASS_TOOLS_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gocccl/sass13}
bin=$dir/nvidia/cu13/bin
stamp=$dir/gocccl-sass-tools.txt
want=$(printf '%s\n' "${pins[@]}")

if [ -x "$bin/cuobjdump" ] && [ -x "$bin/nvdisasm" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	echo "$bin"
	exit 0
fi
python=$(command -v python3 || true)
if [ -z "$python" ] || ! "$python" -m pip --version >/dev/null 2>&1; then
	echo "install-sass-tools: needs python3 with pip (apt-get install python3-pip)" >&2
	exit 1
fi
mkdir -p "$(dirname "$dir")"
tmp=$(mktemp -d "$dir.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pipargs=(--quiet --disable-pip-version-check --no-input --no-deps --only-binary=:all:)
"$python" -m pip install "${pipargs[@]}" --root-user-action=ignore --target "$tmp/tools" $want >&2
chmod +x "$tmp"/tools/nvidia/cu13/bin/*
printf '%s\n' "$want" >"$tmp/tools/gocccl-sass-tools.txt"
rm -rf "$dir"
mv "$tmp/tools" "$dir"
echo "install-sass-tools: $(PATH=$bin:$PATH cuobjdump --version | tail -1) in $bin" >&2
echo "$bin"
