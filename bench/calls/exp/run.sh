#!/usr/bin/env bash
# Runs the kernel experiments' A/Bs that bench/calls/exp/build.sh built (this
# file travels beside them in gpu-bundle/exp.tar.xz), each bounded, outputs
# and logs under $EXP_OUT (default /tmp/exp-out); a summary of every A/B's
# verdict lines in $EXP_OUT/summary.txt. Exit 0 only if every A/B passed its
# checks.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out=${EXP_OUT:-/tmp/exp-out}
mkdir -p "$out"
status=0
echo "# experiments of $(cat "$here/commit" 2>/dev/null) on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > "$out/summary.txt"

# histogram.cuh's HistExp 0-3 (bench/NOTES.md, nineteenth session): about 90 s.
if [[ -x $here/hist_ab ]]; then
	timeout 240 "$here/hist_ab" --sizes 24,28 > "$out/hist_ab.tsv" 2> "$out/hist_ab.err"
	rc=$?
	echo "hist_ab: exit $rc" >> "$out/summary.txt"
	grep -E '^# ab|FAILED' "$out/hist_ab.tsv" >> "$out/summary.txt"
	(( rc != 0 )) && status=1
fi
# radix_sort.cuh's GOCCCL_EXPERIMENT_RADIX_ORDER: builds base and exp here
# with the machine's nvcc (ROOT: the carried repository), checks and times
# both beside CUB; stops itself at DEADLINE.
if [[ -n ${ROOT:-} && -f $ROOT/bench/cub/tune/radix_ab.sh ]]; then
	OUT="$out/radix" DEADLINE=200 bash "$ROOT/bench/cub/tune/radix_ab.sh" > "$out/radix_ab.log" 2>&1
	rc=$?
	echo "radix_ab (order): exit $rc" >> "$out/summary.txt"
	cat "$out/radix/summary.txt" >> "$out/summary.txt" 2>/dev/null
	(( rc != 0 )) && status=1
fi

# three_way_single.cuh (patches/issue38/three-way-small.patch's kernel): a few seconds.
if [[ -x $here/three_way_small/compact_tune && -n ${ROOT:-} ]]; then
	BUILD="$here/three_way_small" OUT="$out/three_way" timeout 90 bash "$ROOT/bench/cub/tune/three_way_small.sh" run \
		> "$out/three_way.log" 2>&1
	rc=$?
	echo "three_way_small: exit $rc" >> "$out/summary.txt"
	cat "$out/three_way/summary.txt" >> "$out/summary.txt" 2>/dev/null
	(( rc != 0 )) && status=1
fi
cat "$out/summary.txt"
exit $status
