#!/usr/bin/env bash
# Builds every bench/cub/*.cu benchmark (bench-NAME) and bench/transfer/ref.cu
# (transfer-ref) here, with the project's CUDA 13 toolkit and its CCCL 3.0.1
# (scripts/install-cuda-toolkit.sh), -O3 -arch=sm_90, the runtime linked
# statically (without -L it links Debian's CUDA 11 runtime and fails), into
# gpu-bundle/cub.tar.xz: the cub-NAME steps of bench/calls/session17.sh run
# them, so that no call spends its time compiling. JOBS compilations at once
# (default: the number of CPUs).
#
#   bash bench/calls/build-cub.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
T=${GOCCCL_TOOLKIT_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gocccl/cuda13}/nvidia/cu13
nvcc=${NVCC:-$T/bin/nvcc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc() { "$nvcc" -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub -L"$T/lib" -cudart static "$@"; }
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
