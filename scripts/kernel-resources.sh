#!/usr/bin/env bash
# kernel-resources.sh: registers, stack and shared memory of a generated
# package's kernels, read from its committed cubin without a GPU (CUDA 13's
# cuobjdump from scripts/install-sass-tools.sh):
#
#   scripts/kernel-resources.sh PKG_DIR [REGEX] [ARCH]
#
# prints "KERNEL REG=n STACK=bytes SHARED=bytes" for every kernel whose
# name matches REGEX (default: all), sorted. STACK above 0 is local memory a
# thread: spills, or arrays indexed at run time. Blocks an SM by registers:
# 65536 / (BLOCK_THREADS x REG rounded up to 8).
#
# Example: scripts/kernel-resources.sh bench/ops 'scan_by_key.*sweep'
set -euo pipefail
[[ $# -ge 1 ]] || { sed -n 2,13p "$0" >&2; exit 2; }
pkg=$1 re=${2:-.} arch=${3:-sm_90}
here=$(cd "$(dirname "$0")" && pwd)
PATH=$("$here/install-sass-tools.sh"):$PATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/cubin-parts.py" "$pkg" "$tmp" "$arch"
for f in "$tmp"/part*.cubin; do
	cuobjdump -res-usage "$f" | grep -A1 '^ *Function' | paste - - |
		sed -E 's/^ *Function ([^:]*):.*REG:([0-9]+) STACK:([0-9]+) SHARED:([0-9]+).*/\1 REG=\2 STACK=\3 SHARED=\4/'
done | grep -E -- "$re" | sort
