#!/usr/bin/env bash
# Builds everything the GPU machine runs into one folder: Go test and bench
# binaries (cgo, dlopen: no CUDA needed to build them), the CUDA sources that
# are compiled there with its nvcc, and run.sh, which runs them all and writes
# logs under $OUT.
set -euo pipefail
out=${1:-gpu-bundle}
rm -rf "$out"
mkdir -p "$out/src"

go test -c -o "$out/cuda.test" ./runtime/cuda
go test -c -o "$out/runtime.test" ./runtime
go test -c -o "$out/devicetest.test" ./internal/devicetest
go build -o "$out/sum" ./examples/sum
go build -o "$out/gpubench" ./bench/gpubench

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
# Runs the GPU bundle. Logs go to $OUT (default ./out); a summary prints last.
set -uo pipefail
cd "$(dirname "$0")"
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
summary=()
step() { # name, command...
	local name=$1; shift
	local start=$SECONDS
	if "$@" >"$OUT/$name.log" 2>&1; then
		summary+=("PASS $name ($((SECONDS-start))s)")
	else
		summary+=("FAIL $name ($((SECONDS-start))s): see $name.log")
	fi
}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$OUT/gpu.txt" 2>&1
nvcc --version | tail -2 >>"$OUT/gpu.txt"
NVCC="nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/include"
step cuda-tests ./cuda.test -test.v -test.count=1
step runtime-tests ./runtime.test -test.v -test.count=1
step device-tests ./devicetest.test -test.v -test.count=1 -test.timeout=20m
step example-sum ./sum
step nvcc13-generated bash -c 'for f in src/generated/*.cu; do echo "$f"; '"$NVCC"' -fmad=false -cubin -o /tmp/g.cubin "$f" || exit 1; done'
step kernel-tests bash -c "$NVCC -o /tmp/kernels_test src/kernels_test.cu && /tmp/kernels_test"
step cub-bench bash -c "$NVCC -o /tmp/reduce_bench src/reduce_bench.cu && /tmp/reduce_bench --tsv $OUT/cub.tsv"
step go-bench ./gpubench -cub "$OUT/cub.tsv"
cat "$OUT/gpu.txt"
tail -n 25 "$OUT/cub-bench.log" "$OUT/go-bench.log"
grep -E '^(--- FAIL|FAIL|ok|PASS)' "$OUT"/*-tests.log | head -40
printf '%s\n' "${summary[@]}"
RUN
chmod +x "$out/run.sh"
du -sh "$out"
