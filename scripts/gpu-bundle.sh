#!/usr/bin/env bash
# Builds everything the GPU machine runs into one folder: Go test and bench
# binaries (cgo, dlopen: no CUDA needed to build them), the CUDA sources that
# are compiled there with its nvcc, and run.sh, which runs them all and writes
# logs under $OUT.
set -euo pipefail
out=${1:-gpu-bundle}
rm -rf "$out"
mkdir -p "$out/src"

go test -c -ldflags="-s -w" -o "$out/cuda.test" ./runtime/cuda
go test -c -ldflags="-s -w" -o "$out/runtime.test" ./runtime
go test -c -ldflags="-s -w" -o "$out/devicetest.test" ./internal/devicetest
go test -c -ldflags="-s -w" -o "$out/difftest.test" ./internal/difftest
go build -ldflags="-s -w" -o "$out/sum" ./examples/sum
go build -ldflags="-s -w" -o "$out/gpubench" ./bench/gpubench

# CUDA sources compiled on the GPU machine with its own nvcc (13.x, CCCL 3).
cp -r kernels/include "$out/src/include"
cp kernels/test/*.cu "$out/src/"
cp bench/cub/*.cu "$out/src/"
mkdir -p "$out/src/generated"
for f in $(git ls-files '*gocccl_gen.cu'); do
	cp "$f" "$out/src/generated/$(echo "$f" | tr / _)"
done

cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the GPU bundle: `run.sh [group...]`, groups "test" (correctness),
# "sanitize" (compute-sanitizer memcheck over part of the conformance suite)
# and "bench" (timings against CUB); test and bench when none is named. Logs go to
# $OUT/logs.tgz (default OUT: ./out); a summary prints last.
set -uo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-$PWD/out}
LOGS=$(mktemp -d)
groups=${*:-test bench}
summary=()
step() { # name, seconds, command...
	local name=$1 limit=$2; shift 2
	local start=$SECONDS
	if timeout "$limit" "$@" >"$LOGS/$name.log" 2>&1; then
		summary+=("PASS $name ($((SECONDS-start))s)")
	else
		summary+=("FAIL $name ($((SECONDS-start))s, exit $?)")
	fi
}
mkdir -p "$OUT"
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader; nvcc --version | tail -2; } >"$LOGS/gpu.txt" 2>&1
NVCC="nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/include"
if [[ " $groups " == *" test "* ]]; then
	step cuda-tests 90 ./cuda.test -test.v -test.count=1
	step runtime-tests 60 ./runtime.test -test.v -test.count=1
	step device-tests 280 ./devicetest.test -test.v -test.count=1
	step diff-tests 240 ./difftest.test -test.v -test.count=1
	step example-sum 30 ./sum
	step nvcc13-generated 150 bash -c 'for f in src/generated/*.cu; do echo "$f"; '"$NVCC"' -fmad=false -cubin -o /tmp/g.cubin "$f" || exit 1; done'
	step kernel-tests 200 bash -c "$NVCC -o /tmp/kernels_test src/kernels_test.cu && /tmp/kernels_test"
fi
if [[ " $groups " == *" sanitize "* ]]; then
	step sanitize 240 compute-sanitizer --tool memcheck --error-exitcode 9 ./devicetest.test -test.v -test.short -test.count=1 -test.run 'TestGPUMatchesCPU/(int8|int32|uint64|float32|float64)/|TestMixedTypes'
fi
if [[ " $groups " == *" bench "* ]]; then
	step cub-bench 240 bash -c "$NVCC -o /tmp/reduce_bench src/reduce_bench.cu && /tmp/reduce_bench --tsv $LOGS/cub.tsv"
	step go-bench 120 ./gpubench -cub "$LOGS/cub.tsv"
fi
tar czf "$OUT/logs.tgz" -C "$LOGS" .
cat "$LOGS/gpu.txt"
for f in "$LOGS"/*-tests.log; do [ -f "$f" ] && grep -E '^(--- FAIL|FAIL|ok|PASS)|kernels_test:' "$f" | tail -8; done
[ -f "$LOGS/example-sum.log" ] && cat "$LOGS/example-sum.log"
[ -f "$LOGS/sanitize.log" ] && grep -E "ERROR SUMMARY|^(ok|PASS|FAIL)" "$LOGS/sanitize.log"
[ -f "$LOGS/cub-bench.log" ] && sed -n '1,25p' "$LOGS/cub-bench.log"
[ -f "$LOGS/go-bench.log" ] && cat "$LOGS/go-bench.log"
printf '%s\n' "${summary[@]}"
RUN
chmod +x "$out/run.sh"
du -sh "$out"
