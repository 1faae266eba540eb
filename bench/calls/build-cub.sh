#!/usr/bin/env bash
# Builds every bench/cub/*.cu benchmark (bench-NAME) and bench/transfer/ref.cu
# (transfer-ref) here, as bench/calls/nvcc13.sh compiles (nvcc 13 + CCCL 3.0.1), into
# gpu-bundle/cub.tar.xz: the cub-NAME steps of bench/calls/session17.sh run
# them, so that no call spends its time compiling. JOBS compilations at once
# (default: the number of CPUs).
#
#   bash bench/calls/build-cub.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source bench/calls/nvcc13.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export -f cc
export nvcc T
{
	for f in bench/cub/*.cu; do
		name=$(basename "$f" .cu)
		printf '%s\0%s\0' "$out/bench-$name" "$f"
	done
	printf '%s\0%s\0' "$out/transfer-ref" bench/transfer/ref.cu
} | xargs -0 -n 2 -P "${JOBS:-$(nproc)}" bash -c 'cc -o "$0" "$1" || { echo "build-cub: $1 failed" >&2; exit 255; }'
git rev-parse --short HEAD > "$out/commit"
mkdir -p gpu-bundle
tar cJf gpu-bundle/cub.tar.xz -C "$out" .
ls -l gpu-bundle/cub.tar.xz
