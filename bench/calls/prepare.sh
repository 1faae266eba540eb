#!/usr/bin/env bash
# Rebuilds here, in one command, everything a call of bench/calls/session17.sh
# carries (gpu-bundle/ and .whl/ are ignored by git, so a fresh checkout has
# neither; about 15 minutes on 2 CPUs):
#   gpu-bundle/bundle.tar.xz       FAMILIES=none make gpu-bundle (it empties gpu-bundle/ first)
#   gpu-bundle/cub.tar.xz          bench/calls/build-cub.sh
#   gpu-bundle/exp.tar.xz          bench/calls/exp/build.sh (the kernel experiments' A/Bs)
#   gpu-bundle/gpubench-79855ed.xz gpubench of commit 79855ed, for the ab step
#   gpu-bundle/state-KIND.tgz      the committed rows of each kind's run (RUNS below), so
#                                  that a fresh machine resumes its kind's run
#   .whl/                          NVIDIA's cuda-cccl wheel for the py step (pip download)
# Then, for the call: scripts/slim-tree.sh on; run `LIMIT=570 bash bench/calls/session17.sh`
# carrying ["gpu-bundle", ".whl"]; scripts/slim-tree.sh off.
#
#   bash bench/calls/prepare.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/bin:/usr/local/go/bin:$PATH"
# Each kind's run: KIND:folder of bench/results whose gocccl-call*.tsv and env.tsv it resumes from.
RUNS=${RUNS:-"h200:h200-2026-12-07 h100:h100-2026-12-07c"}
WHEEL=${WHEEL:-cuda-cccl==1.2.1}

bash scripts/install-cuda-toolkit.sh
make -s build
FAMILIES=none make -s gpu-bundle
bash bench/calls/build-cub.sh
bash bench/calls/exp/build.sh

tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/w79" 2>/dev/null || true; rm -rf "$tmp"' EXIT
git worktree add -f --detach "$tmp/w79" 79855ed > /dev/null
(cd "$tmp/w79" && go build -ldflags="-s -w" -o "$tmp/gpubench-79855ed" ./bench/gpubench)
xz -c "$tmp/gpubench-79855ed" > gpu-bundle/gpubench-79855ed.xz

for run in $RUNS; do
	kind=${run%%:*} dir=bench/results/${run#*:}
	mkdir -p "$tmp/state-$kind/results"
	cp "$dir"/gocccl-call*.tsv "$dir"/env.tsv "$tmp/state-$kind/results/"
	tar czf "gpu-bundle/state-$kind.tgz" -C "$tmp/state-$kind" .
done

if ! ls .whl/*.whl > /dev/null 2>&1; then
	mkdir -p .whl
	pip3 download -q --no-deps --only-binary=:all: --python-version 3.12 \
		--platform manylinux_2_26_x86_64 -d .whl "$WHEEL"
fi
grep -qx '/.whl/' .gitignore .git/info/exclude 2>/dev/null || echo '/.whl/' >> .git/info/exclude
ls -l gpu-bundle .whl
