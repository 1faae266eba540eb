#!/usr/bin/env bash
# Drops the committed GPU images (*.cubin, *.ptx: 55 MB of the 62 MB tree)
# from the working tree for a call to the GPU machine, and puts them back.
#
#   scripts/slim-tree.sh on    remove them (only if none differs from HEAD)
#   scripts/slim-tree.sh off   restore them from HEAD
#
# A call carries the working tree and its carry paths, 64 MiB in all; the GPU
# machine never reads these files (the Go binaries built here embed their
# images, and it compiles kernels/, bench/cub and the bundle's sources
# itself), so without them a call can carry the whole GPU bundle. Run `off`
# right after the call: never commit while the tree is slim (git would
# record the images as deleted).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
images() { git ls-files -z "$@" -- '*.cubin' '*.ptx'; }
case ${1:-} in
on)
	if [[ -n $(git diff --name-only HEAD -- '*.cubin' '*.ptx') ]]; then
		echo "slim-tree: GPU images differ from HEAD; commit or restore them first" >&2
		exit 1
	fi
	images | xargs -0 rm -f
	echo "slim-tree: removed $(images -d | tr -cd '\0' | wc -c) images; restore with: $0 off"
	;;
off)
	images -d | xargs -0 -r git checkout HEAD --
	echo "slim-tree: restored; $(images -d | tr -cd '\0' | wc -c) images missing"
	;;
*)
	echo "usage: $0 on|off" >&2
	exit 2
	;;
esac
