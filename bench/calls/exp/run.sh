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
cat "$out/summary.txt"
exit $status
