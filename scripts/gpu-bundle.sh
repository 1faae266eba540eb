#!/usr/bin/env bash
# Builds everything the GPU machine runs into one folder: Go test and bench
# binaries (cgo, dlopen: no CUDA needed to build them), the CUDA sources that
# are compiled there with its nvcc, and run.sh, which runs them all and writes
# logs under $OUT. The folder holds them packed (bundle.tar.xz, about 7 MB
# instead of 50: the embedded images compress well) and a run.sh that
# unpacks them next to itself and runs the inner run.sh with its arguments.
set -euo pipefail
final=${1:-gpu-bundle}
out=$(mktemp -d)/bundle
trap 'rm -rf "$(dirname "$out")"' EXIT
mkdir -p "$out/src"

go test -c -ldflags="-s -w" -o "$out/cuda.test" ./runtime/cuda
go test -c -ldflags="-s -w" -o "$out/runtime.test" ./runtime
go test -c -ldflags="-s -w" -o "$out/devicetest.test" ./internal/devicetest
# One conformance binary per algorithm family: internal/devicetest/<family>.
for p in $(go list ./internal/devicetest/... | grep -v '/internal/devicetest$'); do
	go test -c -ldflags="-s -w" -o "$out/devicetest-$(basename "$p").test" "$p"
done
go test -c -ldflags="-s -w" -o "$out/difftest.test" ./internal/difftest
go build -ldflags="-s -w" -o "$out/sum" ./examples/sum
go build -ldflags="-s -w" -o "$out/particles" ./examples/particles
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
	for t in ./devicetest-*.test; do
		[ -e "$t" ] || continue
		name=$(basename "$t" .test)
		step "$name-tests" 240 "$t" -test.v -test.count=1
	done
	step diff-tests 240 ./difftest.test -test.v -test.count=1
	step example-sum 30 ./sum
	step example-particles 60 ./particles
	step nvcc13-generated 150 bash -c 'for f in src/generated/*.cu; do echo "$f"; '"$NVCC"' -fmad=false -cubin -o /tmp/g.cubin "$f" || exit 1; done'
	step kernel-tests 200 bash -c "$NVCC -o /tmp/kernels_test src/kernels_test.cu && /tmp/kernels_test"
fi
if [[ " $groups " == *" sanitize "* ]]; then
	step sanitize 240 compute-sanitizer --tool memcheck --error-exitcode 9 ./devicetest.test -test.v -test.short -test.count=1 -test.run 'TestGPUMatchesCPU/(int8|int32|uint64|float32|float64)/|TestMixedTypes'
	step sanitize-structs 240 compute-sanitizer --tool memcheck --error-exitcode 9 ./difftest.test -test.v -test.count=1 -difftest.random 2000 -test.run 'TestDiff/(EmbedSum|BlankEq|ConvStruct|ArrBool|PaddedStep|PaddedSum|Vec3Add|ParticleStep|MakePair|Swizzle|CombinePair|ArrSum|ArrReverse|ArrIndex|ArrRange|ArrEq|ArrMax|Transpose|HistoAdd|ArrOfStruct)$'
fi
if [[ " $groups " == *" bench "* ]]; then
	step cub-bench 240 bash -c "$NVCC -o /tmp/reduce_bench src/reduce_bench.cu && /tmp/reduce_bench --tsv $LOGS/cub.tsv"
	step go-bench 120 ./gpubench -cub "$LOGS/cub.tsv"
fi
tar czf "$OUT/logs.tgz" -C "$LOGS" .
cat "$LOGS/gpu.txt"
for f in "$LOGS"/*-tests.log; do [ -f "$f" ] && grep -E '^(--- FAIL|FAIL|ok|PASS)|kernels_test:' "$f" | tail -8; done
for f in "$LOGS"/example-*.log; do [ -f "$f" ] && cat "$f"; done
for f in "$LOGS"/sanitize*.log; do [ -f "$f" ] && grep -E "ERROR SUMMARY|^(ok|PASS|FAIL)" "$f"; done
[ -f "$LOGS/cub-bench.log" ] && sed -n '1,25p' "$LOGS/cub-bench.log"
[ -f "$LOGS/go-bench.log" ] && cat "$LOGS/go-bench.log"
printf '%s\n' "${summary[@]}"
RUN
chmod +x "$out/run.sh"

rm -rf "$final"
mkdir -p "$final"
tar cf - -C "$(dirname "$out")" bundle | xz -T0 -6 >"$final/bundle.tar.xz"
cat >"$final/run.sh" <<'RUN'
#!/usr/bin/env bash
# Unpacks bundle.tar.xz next to this script and runs its run.sh.
set -euo pipefail
dir=$(cd "$(dirname "$0")" && pwd)
tar xJf "$dir/bundle.tar.xz" -C "$dir"
exec bash "$dir/bundle/run.sh" "$@"
RUN
chmod +x "$final/run.sh"
du -sh "$final"
