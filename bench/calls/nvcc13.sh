# Sourced by the scripts that build GPU binaries here (build-cub.sh,
# exp/build.sh) from the repository root: T is the project's CUDA 13 toolkit
# (scripts/install-cuda-toolkit.sh), nvcc its compiler ($NVCC overrides), and
# cc compiles one benchmark as every call's binaries are built: nvcc 13 +
# CCCL 3.0.1, -O3 -arch=sm_90, the kernel and bench headers, the runtime
# linked statically (without -L it links Debian's CUDA 11 runtime and fails).
T=${GOCCCL_TOOLKIT_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/gocccl/cuda13}/nvidia/cu13
nvcc=${NVCC:-$T/bin/nvcc}
cc() { "$nvcc" -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub -L"$T/lib" -cudart static "$@"; }
