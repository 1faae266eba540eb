#!/usr/bin/env bash
# Compiles the kernel headers (kernels/test/kernels_test.cu instantiates every
# kernel) and the CUDA source of every committed generated package with each
# nvcc given (a package's own toolchain, the one its manifest records,
# excepted), for one target, with the flags each package's manifest records.
# It checks that the sources keep compiling with every supported toolchain
# (CUB 1.17 of nvcc 11.8 and CCCL 3 of nvcc 13), not what they compile to.
#
#   scripts/compile-check.sh NVCC...        e.g. the wheel's nvcc and /usr/bin/nvcc
#   ARCH=sm_80 scripts/compile-check.sh ... another target (default sm_90)
set -euo pipefail
if [ $# -eq 0 ]; then
	echo "usage: $0 NVCC..." >&2
	exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
arch=${ARCH:-sm_90}
jobs=${JOBS:-$(nproc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$repo/kernels/include" "$work/include"

# One line per compile: nvcc, source, the flags. A generated package is
# compiled with every nvcc but the release its manifest records: that one
# compiled its committed images, and gocccl-gen check proves they are fresh.
defaults="-std=c++17 -O3 -Iinclude"
{
	for nvcc; do
		release=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
		echo "$nvcc|$repo/kernels/test/kernels_test.cu|$defaults"
		for m in $(cd "$repo" && git ls-files '*gocccl_gen_manifest.json' | grep -v '^cmd/gocccl-gen/internal/emit/testdata/'); do
			python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); sys.exit(m["nvcc"] != sys.argv[2])' "$repo/$m" "$release" && continue
			flags=$(python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))["flags"]))' "$repo/$m")
			echo "$nvcc|$repo/$(dirname "$m")/gocccl_gen.cu|$flags"
		done
	done
} >"$work/jobs"

compile() {
	IFS='|' read -r nvcc src flags <<<"$1"
	local out log
	out=$(mktemp "$work/out.XXXXXX")
	log=$out.log
	start=$(date +%s)
	# shellcheck disable=SC2086 # flags are words
	if (cd "$work" && "$nvcc" $flags -cubin -arch="$arch" -o "$out" "$src") >"$log" 2>&1; then
		echo "ok    nvcc $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') $arch ${src#"$repo"/} ($(($(date +%s) - start)) s)"
	else
		echo "FAIL  $nvcc $arch ${src#"$repo"/}:"
		cat "$log"
		return 1
	fi
}
export -f compile
export work arch repo
tr '\n' '\0' <"$work/jobs" | xargs -0 -P "$jobs" -I{} bash -c 'compile "$1"' _ {}
