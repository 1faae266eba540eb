#!/usr/bin/env bash
# Builds everything the GPU machine runs into one folder: Go test and bench
# binaries (cgo, dlopen: no CUDA needed to build them), the CUDA sources that
# are compiled there with its nvcc, and run.sh, which runs them all and writes
# logs under $OUT. The folder holds them packed (bundle.tar.xz, about 14 MB
# instead of 150: the binaries share most of their bytes) and a run.sh that
# unpacks them next to itself and runs the inner run.sh with its arguments.
set -euo pipefail
final=${1:-gpu-bundle}
out=$(mktemp -d)/bundle
trap 'rm -rf "$(dirname "$out")"' EXIT
mkdir -p "$out/src"

go test -c -ldflags="-s -w" -o "$out/cuda.test" ./internal/cuda
go test -c -ldflags="-s -w" -o "$out/runtime.test" ./runtime
go test -c -ldflags="-s -w" -o "$out/nccl.test" ./internal/nccl
go test -c -ldflags="-s -w" -o "$out/group.test" ./runtime/group
go test -c -ldflags="-s -w" -o "$out/dlpack.test" ./runtime/dlpack
go test -c -ldflags="-s -w" -o "$out/devicetest.test" ./conformance/devicetest
# One conformance binary per algorithm family: conformance/devicetest/<family>;
# FAMILIES (names, space-separated) bundles only those, for a call that
# needs a few and must carry less (a call carries 64 MiB, the tree included).
for p in $(go list ./conformance/devicetest/... | grep -v '/conformance/devicetest$'); do
	[[ -z ${FAMILIES:-} || " $FAMILIES " == *" $(basename "$p") "* ]] || continue
	go test -c -ldflags="-s -w" -o "$out/devicetest-$(basename "$p").test" "$p"
done
go test -c -ldflags="-s -w" -o "$out/difftest.test" ./conformance/difftest
go build -ldflags="-s -w" -o "$out/sum" ./examples/sum
go build -ldflags="-s -w" -o "$out/particles" ./examples/particles
go build -ldflags="-s -w" -o "$out/sweep" ./examples/sweep
go build -ldflags="-s -w" -o "$out/groupby" ./examples/groupby
go build -ldflags="-s -w" -o "$out/gpubench" ./bench/gpubench
go build -ldflags="-s -w" -o "$out/firstcall" ./bench/firstcall
go build -ldflags="-s -w" -o "$out/report" ./bench/report
go build -ldflags="-s -w" -o "$out/transfer" ./bench/transfer

# CUDA sources compiled on the GPU machine with its own nvcc (13.x, CCCL 3).
cp -r kernels/include "$out/src/include"
cp kernels/test/*.cu "$out/src/"
# Side-by-side benchmarks: every bench/cub/*.cu (with bench.cuh) and bench/py.
mkdir -p "$out/src/bench" "$out/py"
cp bench/cub/*.cu bench/cub/*.cuh "$out/src/bench/"
cp bench/cub/tune/*.cu "$out/src/"
# The tune headers and the by-key A/B (bash src/bykey_ab.sh: it finds its
# sources beside itself, bench.cuh in src/bench and the headers in src/include).
cp bench/cub/tune/*.cuh bench/cub/tune/bykey_ab.sh "$out/src/"
cp bench/transfer/ref.cu "$out/src/transfer_ref.cu"
cp -r bench/py/. "$out/py/"
find "$out/py" -name __pycache__ -prune -exec rm -rf {} +
mkdir -p "$out/src/generated"
for f in $(git ls-files '*gocccl_gen.cu'); do
	cp "$f" "$out/src/generated/$(echo "$f" | tr / _)"
done

cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the GPU bundle: `run.sh [group...]`, groups "test" (correctness),
# "sanitize" (compute-sanitizer memcheck over part of the conformance suite)
# and "bench" (gocccl, CUB, cuda.compute, CuPy and PyTorch side by side; see
# bench/README.md); test and bench when none is named. FAMILY_LIMIT (s,
# default 300) bounds each conformance family and FAMILY_FLAGS (e.g.
# -test.short) is added to its flags; DEADLINE (s) ends every step
# by then, for a call of limited time. Logs go to
# $OUT/logs.tgz (default OUT: ./out); the bench group also writes
# $OUT/RESULTS.md and $OUT/results.tgz (RESULTS.md, plots, TSVs). A summary
# prints last. Wheels for the Python bench (cuda-cccl) are installed from
# $WHEELS, else from .whl in the folder run.sh was started from, else from
# .whl two folders above this script (the repository root).
set -uo pipefail
START=$PWD
cd "$(dirname "$0")"
OUT=${OUT:-$PWD/out}
LOGS=${LOGS:-$(mktemp -d)} # set LOGS to keep the logs where a caller can pack them after a timeout
mkdir -p "$LOGS"
groups=${*:-test bench}
SUMMARY=$LOGS/summary.txt # one line per step, in the order the steps end
: >"$SUMMARY"
DEADLINE=${DEADLINE:-0} # seconds after start by which every step has ended (0: none)
PARALLEL=${PARALLEL:-1} # conformance steps run at once in the test group (correctness only: nothing there is timed)
step() { # name, seconds, command...
	local name=$1 limit=$2; shift 2
	local start=$SECONDS
	if ((DEADLINE > 0 && DEADLINE - SECONDS < limit)); then
		limit=$((DEADLINE - SECONDS))
		if ((limit < 10)); then
			echo "SKIP $name (DEADLINE)" >>"$SUMMARY"
			return
		fi
	fi
	if timeout "$limit" "$@" >"$LOGS/$name.log" 2>&1; then
		echo "PASS $name ($((SECONDS-start))s)" >>"$SUMMARY"
	else
		echo "FAIL $name ($((SECONDS-start))s, exit $?)" >>"$SUMMARY"
	fi
}
pstep() { # step in the background, at most PARALLEL at once
	while (($(jobs -rp | wc -l) >= PARALLEL)); do wait -n; done
	step "$@" &
}
mkdir -p "$OUT"
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader; nvcc --version | tail -2; } >"$LOGS/gpu.txt" 2>&1
NVCC="nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/include"
if [[ " $groups " == *" test "* ]]; then
	# The sweep checks the device's memory in use against its baseline: it
	# runs alone, before anything else holds memory.
	step example-sweep 240 ./sweep
	step device-tests-memory 120 ./devicetest.test -test.v -test.count=1 -test.run 'TestSweepDropsBuffers|TestCloseReleasesEverything|TestFreeAfter'
	# TestScratchRetain reads the device's free memory from the driver,
	# which other processes on the GPU move: alone too, and skipped below.
	step radixsort-memory 60 ./devicetest-radixsort.test -test.v -test.count=1 -test.run '^TestScratchRetain$'
	# Every algorithm over every element type, device memory checked after
	# every state (conformance/devicetest/sweepall): alone too, and skipped below.
	step sweepall-memory 180 ./devicetest-sweepall.test -test.v -test.count=1 -test.timeout=0 ${SWEEPALL_FLAGS:-}
	pstep nvcc13-generated 300 bash -c 'ls src/generated/*.cu | xargs -P 4 -I{} sh -c '"'"'echo {}; '"$NVCC"' -fmad=false -cubin -o /tmp/$(basename {}).cubin {}'"'"
	pstep kernel-tests 420 bash -c "$NVCC -o /tmp/kernels_test src/kernels_test.cu && /tmp/kernels_test"
	pstep cuda-tests 90 ./cuda.test -test.v -test.count=1
	pstep runtime-tests 90 ./runtime.test -test.v -test.count=1
	# NCCL: $GOCCCL_NCCL, else the wheel PyTorch brings, else the loader's search.
	[[ -n ${GOCCCL_NCCL:-} ]] || export GOCCCL_NCCL=$(python3 -c 'import nvidia.nccl as m, os; print(os.path.join(list(m.__path__)[0], "lib", "libnccl.so.2"))' 2>/dev/null)
	pstep nccl-tests 60 env GOCCCL_REQUIRE_NCCL=1 ./nccl.test -test.v -test.count=1
	pstep group-tests 90 ./group.test -test.v -test.count=1
	pstep dlpack-tests 60 ./dlpack.test -test.v -test.count=1
	pstep device-tests 280 ./devicetest.test -test.v -test.count=1 -test.skip 'TestSweepDropsBuffers|TestCloseReleasesEverything|TestFreeAfter'
	for t in ./devicetest-*.test; do
		[ -e "$t" ] || continue
		name=$(basename "$t" .test)
		[ "$name" = devicetest-sweepall ] && continue # ran alone above
		pstep "$name-tests" "${FAMILY_LIMIT:-300}" "$t" -test.v -test.count=1 -test.timeout=0 -test.skip '^TestScratchRetain$' ${FAMILY_FLAGS:-}
	done
	pstep diff-tests 240 ./difftest.test -test.v -test.count=1
	# A kernel that traps loses its process's CUDA context: each trap test
	# runs in a process of its own.
	for trap in devicetest-iterator:TestPermutationOutOfRange devicetest-iterator:TestPermutationOutputOutOfRange devicetest-state:TestViewOutOfRange; do
		[ -e "./${trap%%:*}.test" ] || continue
		pstep "trap-${trap#*:}" 60 env GOCCCL_TEST_TRAP=1 "./${trap%%:*}.test" -test.v -test.count=1 -test.run "^${trap#*:}\$"
	done
	pstep example-sum 30 ./sum
	pstep example-particles 60 ./particles
	pstep example-groupby 120 ./groupby -rows 33554433 -chunk 4194304 -groups 100003 -phases
fi
if [[ " $groups " == *" sanitize "* ]]; then
	# memcheck over part of the conformance suite; racecheck, synccheck and
	# initcheck over the shared-memory algorithms (scan, select, sorts).
	pstep sanitize 240 compute-sanitizer --tool memcheck --error-exitcode 9 ./devicetest.test -test.v -test.short -test.count=1 -test.run 'TestGPUMatchesCPU/(int8|int32|uint64|float32|float64)/|TestMixedTypes'
	for tool in racecheck synccheck initcheck; do
		for fam in scan select radixsort segsort mergesort; do
			[ -e "./devicetest-$fam.test" ] || continue
			run=${SANITIZE_RUN:-TestGPUMatchesCPU|TestScanMatchesCPU|TestMergeSortKeys}
			if [[ -z ${SANITIZE_RUN:-} ]]; then
				# The sanitizers slow every kernel down by orders of
				# magnitude: the sorts' -short suites ran past 240 s under
				# racecheck on 2026-12-01, and segsort's and mergesort's
				# smaller sets below still did under every tool on the
				# evening run, so they get a few tile-edge and multi-tile
				# sizes of one or two types.
				case $fam in
				radixsort) [[ $tool == racecheck ]] && run='TestGPUMatchesCPU/(uint32|float64)/n=(1|257|3073|4097|1000003)$' ;;
				segsort) run='TestGPUMatchesCPU/(uint32|float64)/n=(1|129|1025|4097)$' ;;
				mergesort) run='TestMergeSortKeys/^uint32$/^uint32$/^random$/^(1|4353|34816)$/^gpu$' ;;
				esac
			fi
			pstep "sanitize-$tool-$fam" "${SANITIZE_LIMIT:-240}" compute-sanitizer --tool "$tool" --error-exitcode 9 "./devicetest-$fam.test" -test.v -test.short -test.count=1 -test.run "$run"
		done
	done
	pstep sanitize-structs 240 compute-sanitizer --tool memcheck --error-exitcode 9 ./difftest.test -test.v -test.count=1 -difftest.random 2000 -test.run 'TestDiff/(EmbedSum|BlankEq|ConvStruct|ArrBool|PaddedStep|PaddedSum|Vec3Add|ParticleStep|MakePair|Swizzle|CombinePair|ArrSum|ArrReverse|ArrIndex|ArrRange|ArrEq|ArrMax|Transpose|HistoAdd|ArrOfStruct)$'
fi
wait # the test and sanitize steps end before any timing starts
if [[ " $groups " == *" bench "* ]]; then
	# BENCH_SIZES (log2 of n, default 10,16,20,24,28) and BENCH_PY_BUDGET
	# (seconds, default 0: no limit) shorten a run. A run too long for one
	# sitting splits: BENCH_PARTS (default "cub go firstcall py report"), BENCH_CUB (the
	# bench/cub names to build and run, default all), BENCH_GO_RUN and
	# BENCH_PY_ONLY (regular expressions over algorithm/type/n); the TSVs of
	# several runs go into one bench/results for bench/report.
	sizes=${BENCH_SIZES:-10,16,20,24,28}
	parts=" ${BENCH_PARTS:-cub go transfer firstcall py report} "
	cubs=${BENCH_CUB:-$(cd src/bench && ls *.cu | sed 's/\.cu$//')}
	R=$LOGS/results # RESULTS.md; its results/ folder holds the TSVs and the plots, as bench/ does
	T=$R/results
	mkdir -p "$T"
	{
		printf 'date\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 | awk -F', ' '{ printf "gpu\t%s\ndriver\t%s\n", $1, $2 }'
		printf 'cuda\t%s\n' "$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
		printf 'cub_version\t%s\n' "$(printf '#include <cub/version.cuh>\nCUB_VERSION\n' | nvcc -x cu -E - 2>/dev/null | tail -1)"
		printf 'host\t%s CPUs\n' "$(nproc)"
	} >"$T/env.tsv" 2>>"$LOGS/env.log"
	# Compile every C++ benchmark at once (nvcc is slow, the machine has
	# cores), then run them one at a time (they time the GPU).
	if [[ $parts == *" cub "* ]]; then
		for name in $cubs; do
			$NVCC -Isrc/bench -o /tmp/bench-$name "src/bench/$name.cu" >"$LOGS/build-$name.log" 2>&1 &
		done
		wait
		for name in $cubs; do
			step "cub-$name" 300 bash -c "cat $LOGS/build-$name.log; /tmp/bench-$name --sizes $sizes >$T/cub-$name.tsv"
		done
	fi
	if [[ $parts == *" go "* ]]; then
		step go-bench 480 ./gpubench -sizes "$sizes" -run "${BENCH_GO_RUN:-}" -out "$T/gocccl${BENCH_GO_RUN:+-part}.tsv"
	fi
	if [[ $parts == *" transfer "* ]]; then
		# Host transfers (issue 36): gocccl's Pinned copies beside
		# cudaMemcpyAsync from cudaMallocHost memory, outside results/ (the
		# report's algorithms do not include them).
		step transfer 120 bash -c "$NVCC -O2 -o /tmp/transfer-ref src/transfer_ref.cu && { ./transfer; /tmp/transfer-ref; } >$R/transfer.tsv && cat $R/transfer.tsv"
	fi
	if [[ $parts == *" firstcall "* ]]; then
		# A first call happens once a process: firstcall runs each package
		# in 11 processes of its own, through the Go API and the driver's
		# side alone (-raw), with the driver's lazy and eager module loading.
		step firstcall 120 bash -c 'for mode in LAZY EAGER; do for pkg in ops hundred; do
			CUDA_MODULE_LOADING=$mode ./firstcall -runs 11 -pkg $pkg || exit 1
			CUDA_MODULE_LOADING=$mode ./firstcall -runs 11 -pkg $pkg -raw || exit 1
		done; done >'"$T/gocccl-firstcall.tsv"
	fi
	wheels=${WHEELS:-}
	for w in "$START/.whl" "$PWD/../../.whl"; do
		[[ -z "$wheels" && -d "$w" ]] && wheels=$w
	done
	if [[ -n "$wheels" ]] && ls "$wheels"/*.whl >/dev/null 2>&1; then
		step py-wheels 120 python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site "$wheels"/*.whl
		export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
	fi
	python3 py/bench.py --env >>"$T/env.tsv" 2>>"$LOGS/env.log"
	if [[ $parts == *" py "* ]]; then
		step py-bench 600 env PYTHONUNBUFFERED=1 python3 py/bench.py --sizes "$sizes" --budget "${BENCH_PY_BUDGET:-0}" ${BENCH_PY_ONLY:+--only "$BENCH_PY_ONLY"} --out "$T/py.tsv"
	fi
	[[ $parts == *" report "* ]] && step report 60 ./report -in "$T" -out "$R"
	cp "$R/RESULTS.md" "$OUT/RESULTS.md" 2>/dev/null
	tar czf "$OUT/results.tgz" -C "$R" .
fi
tar czf "$OUT/logs.tgz" -C "$LOGS" .
cat "$LOGS/gpu.txt"
for f in "$LOGS"/*-tests.log; do [ -f "$f" ] && grep -E '^(--- FAIL|FAIL|ok|PASS)|kernels_test:' "$f" | tail -8; done
for f in "$LOGS"/example-*.log; do [ -f "$f" ] && cat "$f"; done
for f in "$LOGS"/sanitize*.log; do [ -f "$f" ] && grep -E "ERROR SUMMARY|^(ok|PASS|FAIL)" "$f"; done
for f in "$LOGS"/cub-*.log "$LOGS"/go-bench.log "$LOGS"/py-*.log "$LOGS"/report.log; do [ -s "$f" ] && { echo "== $f"; tail -5 "$f"; }; done
[ -d "$LOGS/results" ] && grep -h 'FAILED' "$LOGS"/results/results/*.tsv | head -20
cat "$SUMMARY"
RUN
chmod +x "$out/run.sh"

rm -rf "$final"
mkdir -p "$final"
# One xz stream with a dictionary larger than the bundle: the binaries share
# most of their bytes (the Go runtime, the test framework), which a solid
# stream stores once (13 MB instead of 30 with -T0's independent blocks).
tar cf - -C "$(dirname "$out")" bundle | xz -T1 -9 --lzma2=dict=192MiB >"$final/bundle.tar.xz"
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
