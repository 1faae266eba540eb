#!/usr/bin/env bash
# kernel-try.sh: compile a few kernels of a generated package as gocccl-gen
# would (the manifest's flags, CUDA 13's nvcc) and print ptxas' registers
# and spills, to try a bound or a header change in seconds, without
# regenerating and without a GPU:
#
#   scripts/kernel-try.sh PKG_DIR REGEX [MINBLOCKS [INCLUDE_DIR]]
#
# REGEX picks kernels by symbol (kernel-extract.py); MINBLOCKS, when given,
# replaces their __launch_bounds__' minimum blocks an SM (0: none);
# INCLUDE_DIR replaces kernels/include (a copy with a header changed);
# EXTRA_FLAGS, when set, is added to the manifest's flags (e.g.
# EXTRA_FLAGS=-DGOCCCL_EXPERIMENT_<NAME> for a header's experiment).
#
# Example: scripts/kernel-try.sh bench/ops 'reduce_by_key_EqUint32_AddUint64_sweep' 6
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n 2,14p "$0" >&2; exit 2; }
pkg=$1 re=$2 minblocks=${3:-} include=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
include=${include:-$repo/kernels/include}
nvcc=$("$here/install-cuda-toolkit.sh" --nvcc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$(cd "$include" && pwd)" "$tmp/include"
python3 "$here/kernel-extract.py" "$pkg/gocccl_gen.cu" "$re" $minblocks >"$tmp/gocccl_gen.cu"
read -r -a flags < <(python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))["flags"]))' "$pkg/gocccl_gen_manifest.json")
cd "$tmp"
read -r -a extra <<<"${EXTRA_FLAGS:-}"
"$nvcc" "${flags[@]}" "${extra[@]}" -arch="${ARCH:-sm_90}" -cubin -Xptxas -v -o kernels.cubin gocccl_gen.cu 2>&1 |
	awk '/Compiling entry function/ { name = $0; sub(/^.*function .?/, "", name); sub(/.? for .*$/, "", name) }
	     /spill stores/ { spill = $0; sub(/^ +/, "", spill) }
	     /Used [0-9]+ registers/ { regs = $0; sub(/^.*Used /, "", regs); sub(/,.*$/, "", regs); print name ": " regs "; " spill }
	     /error/ { print }' | sort
