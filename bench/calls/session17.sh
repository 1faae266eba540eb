#!/usr/bin/env bash
# One bench run of main's code as a queue of steps that as many calls as it takes work through:
# every call runs the same command,
#
#   LIMIT=585 bash bench/calls/session17.sh
#
# and does the steps that the earlier calls did not finish. The state (results/, logs/, done/)
# lives in /tmp/run on the warm machine; a fresh machine starts from gpu-bundle/state-KIND.tgz
# when one is carried (the state.tgz an earlier call on that kind of GPU returned, renamed). Steps, in order:
#   exp           the kernel experiments' A/Bs (bench/calls/exp/run.sh), when gpu-bundle/exp.tar.xz
#                 is carried (bench/calls/exp/build.sh); outputs in exp/ of the state, not results/
#   go            gpubench over every size; a call cut off resumes (gpubench -skip) in the next
#   cub-NAME      each bench/cub benchmark, prebuilt here (gpu-bundle/cub.tar.xz: the bundle's
#                 src/bench built with the same CCCL 3.0.1 and nvcc -O3 -arch=sm_90)
#   firstcall     bench/firstcall, 11 processes per package and mode
#   transfer      host transfers beside cudaMemcpyAsync (outside results/)
#   py            cuda.compute, CuPy and PyTorch (.whl carried) in the time left
#   ab            gpubench of 79855ed against main's on the rows that moved (session 16)
# gpu-bundle/ holds bundle.tar.xz (FAMILIES=none make gpu-bundle), cub.tar.xz and
# gpubench-79855ed.xz. Every call returns $OUT/state.tgz (packed every 45 s as well).
set -uo pipefail
OUT_FINAL=$OUT
ROOT=$PWD
S=/tmp/run
# One run is one kind of GPU: a fresh machine resumes the run of its own kind from
# gpu-bundle/state-KIND.tgz (KIND: h200, h100, … from the GPU's name), and starts one where there is none.
kind=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | grep -o 'H[0-9]\{3\}' | tr A-Z a-z)
if [[ ! -d $S && -f gpu-bundle/state-$kind.tgz ]]; then
	mkdir -p $S && tar xzf gpu-bundle/state-$kind.tgz -C $S
fi
mkdir -p $S/results $S/logs $S/done $S/ab $S/exp
pack() { tar czf "$OUT_FINAL/state.tgz" -C $S .; }
trap pack EXIT
( while sleep 45; do pack; done ) & PACKER=$!
LIMIT=${LIMIT:-585}
CALL=$(( $(cat $S/calls 2>/dev/null || echo 0) + 1 )); echo $CALL > $S/calls
echo "== call $CALL $(date -u +%H:%M:%S) $(nvidia-smi --query-gpu=name --format=csv,noheader)" >> $S/summary.txt
left() { echo $((LIMIT - SECONDS)); }

B=/tmp/b/bundle
if [[ ! -x $B/gpubench ]]; then
	mkdir -p /tmp/b /tmp/cub && tar xJf gpu-bundle/bundle.tar.xz -C /tmp/b && tar xJf gpu-bundle/cub.tar.xz -C /tmp/cub
	xz -dc gpu-bundle/gpubench-79855ed.xz > /tmp/gpubench-79855ed && chmod +x /tmp/gpubench-79855ed
fi
cd $B

# step NAME MIN CMD...: runs CMD (its output in logs/NAME.log; a function exported with export -f,
# STEP_LEFT its seconds) unless done/NAME exists or fewer than MIN seconds are left; a run that
# ended by itself (not cut by its timeout, not a command missing) marks NAME done.
step() {
	local name=$1 min=$2; shift 2
	[[ -e $S/done/$name ]] && return 0
	if (( $(left) < min )); then echo "$name: not started, $(left)s left" >> $S/summary.txt; return 1; fi
	local t0=$SECONDS
	STEP_LEFT=$(( $(left) - 5 )) timeout $(( $(left) - 5 )) "$@" >> $S/logs/$name.log 2>&1
	local rc=$?
	echo "$name rc=$rc in $((SECONDS - t0))s (at ${SECONDS}s)" >> $S/summary.txt
	(( rc != 124 && rc != 137 && rc != 126 && rc != 127 )) && touch $S/done/$name
	pack
	return 0
}

if [[ ! -s $S/results/env.tsv ]]; then
	{
		printf 'date\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 | awk -F', ' '{ printf "gpu\t%s\ndriver\t%s\n", $1, $2 }'
		printf 'cuda\t%s\n' "$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
		printf 'cub_version\t%s\n' "$(printf '#include <cub/version.cuh>\nCUB_VERSION\n' | nvcc -x cu -E - 2>/dev/null | tail -1)"
		printf 'host\t%s CPUs\n' "$(nproc)"
	} > $S/results/env.tsv
fi

if [[ -f $ROOT/gpu-bundle/exp.tar.xz ]]; then
	mkdir -p /tmp/exp && tar xJf $ROOT/gpu-bundle/exp.tar.xz -C /tmp/exp
	step exp 120 bash -c "EXP_OUT=$S/exp bash /tmp/exp/run.sh"
fi

go_step() {
	local skip=()
	if ls $S/results/gocccl-call*.tsv > /dev/null 2>&1; then
		cat $S/results/gocccl-call*.tsv > /tmp/skip.tsv
		skip=(-skip /tmp/skip.tsv)
	fi
	./gpubench "${skip[@]}" -out $S/results/gocccl-call$CALL.tsv
}
export S CALL ROOT
export -f go_step
step go 60 bash -c go_step

for bin in /tmp/cub/bench-*; do
	name=${bin#/tmp/cub/bench-}
	[[ $name == histogram ]] && continue
	step cub-$name 60 bash -c "$bin --sizes 10,16,20,24,28 > $S/results/cub-$name.tsv"
done

step firstcall 60 bash -c 'for mode in LAZY EAGER; do for pkg in ops hundred; do
	CUDA_MODULE_LOADING=$mode ./firstcall -runs 11 -pkg $pkg || exit 1
	CUDA_MODULE_LOADING=$mode ./firstcall -runs 11 -pkg $pkg -raw || exit 1
done; done > '"$S/results/gocccl-firstcall.tsv"
step transfer 30 bash -c "{ ./transfer; /tmp/cub/transfer-ref; } > $S/transfer.tsv"

ab() {
	local re='^(fill|generate|transform_if|argmin|lower_bound_sorted|reduce)/uint32/1048576$|^reduce/uint32/16777216$'
	for i in 1 2; do
		./gpubench -seed 17 -run "$re" -out $S/ab/main-$i.tsv || return 1
		/tmp/gpubench-79855ed -seed 17 -run "$re" -out $S/ab/79855ed-$i.tsv || return 1
	done
}
export -f ab
step cub-histogram 250 bash -c "/tmp/cub/bench-histogram --sizes 10,16,20,24,28 > $S/results/cub-histogram.tsv"

py_step() {
	python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site "$ROOT"/.whl/*.whl || return 1
	export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
	grep -q '^cuda-cccl' $S/results/env.tsv || python3 py/bench.py --env >> $S/results/env.tsv
	PYTHONUNBUFFERED=1 python3 py/bench.py --sizes 10,16,20,24,28 --budget $(( STEP_LEFT - 25 )) --out $S/results/py.tsv
}
export -f py_step
step py 300 bash -c py_step
step ab 60 bash -c ab

kill $PACKER 2>/dev/null
cat $S/summary.txt
