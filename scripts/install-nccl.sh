#!/usr/bin/env bash
# Installs NVIDIA's NCCL from its Python wheel (nvidia-nccl-cu13), with pip
# install --target into a user-level directory: no root, no apt. The
# multi-GPU runtime (runtime/group, internal/nccl) opens
# <dir>/nvidia/nccl/lib/libnccl.so.2 there without configuration; gocccl-gen
# doctor says which NCCL it found.
#
#   scripts/install-nccl.sh     install (a fast no-op when present)
#
# The directory is $GOCCCL_NCCL_DIR, else $XDG_DATA_HOME/gocccl/nccl, else
# ~/.local/share/gocccl/nccl. About 200 MB of download.
set -euo pipefail

pin=nvidia-nccl-cu13==2.32.6
dir=${GOCCCL_NCCL_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gocccl/nccl}
lib=$dir/nvidia/nccl/lib/libnccl.so.2
stamp=$dir/gocccl-nccl.txt

if [ -f "$lib" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$pin" ]; then
	exit 0
fi
python=$(command -v python3 || true)
if [ -z "$python" ] || ! "$python" -m pip --version >/dev/null 2>&1; then
	echo "install-nccl: needs python3 with pip (apt-get install python3-pip)" >&2
	exit 1
fi
# Install beside the final directory and rename it into place, so that an
# interrupted install never leaves half a library where the runtime looks.
mkdir -p "$(dirname "$dir")"
tmp=$(mktemp -d "$dir.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$python" -m pip install --quiet --no-deps --no-compile --disable-pip-version-check --target "$tmp" "$pin"
echo "$pin" >"$tmp/gocccl-nccl.txt"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
echo "install-nccl: $pin in $dir ($(du -sh "$dir" | cut -f1))"
