#!/usr/bin/env bash
# nan_ab.sh: the A/B of Go's float NaN fix (bench/NOTES.md, 2026-12-02, third
# session). Two halves:
#
#   bash bench/cub/tune/nan_ab.sh prepare ab   # here: header trees from git into ./ab
#   bash bench/cub/tune/nan_ab.sh run ab       # on the GPU machine (carry ab): build, time
#
# Trees: A = d46ca92's kernels/include (a branch to nan2, by-key operators
# that branch around the operator: the committed code), B = febbe59's (the
# branch-free fix, by-key operators computing both sides), C = B's fix with
# A's by-key operators, D = A's fix with B's operators. Each tree builds
# lookback_tune.cu with Go's fadd as the sum (-DGOCCCL_AB_TAG) and the
# flags gocccl-gen compiles with; rows are tagged with the tree's letter.
# The run writes $OUT/ab.tsv (sizes 2^24 and 2^28, float32 only).
set -euo pipefail
mode=$1 dir=$2
case $mode in
prepare)
	root=$(git rev-parse --show-toplevel)
	rm -rf "$dir" && mkdir -p "$dir"/{A,B,C,D}/gocccl
	for f in $(git -C "$root" ls-tree --name-only d46ca92 kernels/include/gocccl/); do
		git -C "$root" show "d46ca92:$f" >"$dir/A/gocccl/$(basename "$f")"
	done
	for f in $(git -C "$root" ls-tree --name-only febbe59 kernels/include/gocccl/); do
		git -C "$root" show "febbe59:$f" >"$dir/B/gocccl/$(basename "$f")"
	done
	cp -r "$dir/B/gocccl/." "$dir/C/gocccl/"
	cp "$dir/A/gocccl/scan_by_key.cuh" "$dir/A/gocccl/reduce_by_key.cuh" "$dir/C/gocccl/"
	cp -r "$dir/B/gocccl/." "$dir/D/gocccl/"
	cp "$dir/A/gocccl/gosem.cuh" "$dir/D/gocccl/"
	cp "$root/bench/cub/tune/lookback_tune.cu" "$root/bench/cub/bench.cuh" "$dir/"
	;;
run)
	flags="-std=c++17 -O3 -fmad=false -ftz=false -prec-div=true -prec-sqrt=true -arch=sm_90 -I$dir"
	for t in A B C D; do
		nvcc $flags -I"$dir/$t" -DGOCCCL_AB_TAG="\"$t\"" -o "/tmp/ab$t" "$dir/lookback_tune.cu" &
	done
	wait
	: >"${OUT:-.}/ab.tsv"
	for t in A B C D D C B A; do # twice, in both orders: the drift of the machine shows
		"/tmp/ab$t" --sizes 24,28 | grep -v '^#' >>"${OUT:-.}/ab.tsv"
	done
	grep -v 'host_call\|^system' "${OUT:-.}/ab.tsv" | awk -F'\t' '{ printf "%-28s %-14s %10s %9s\n", $1, $2, $4, $5 }'
	;;
*)
	echo "usage: nan_ab.sh prepare|run DIR" >&2
	exit 2
	;;
esac
