#!/usr/bin/env bash
# Installs Debian's CUDA toolkit (nvcc 11.8, CUB 1.17) through apt, as root:
# the second toolchain gocccl keeps compiling with (make compile-check), about
# 5 GB. The project's own toolchain is CUDA 13 (scripts/install-cuda-toolkit.sh,
# no root). It enables the non-free component on the machine's existing Debian
# apt source; no package host is named here.
set -euo pipefail

if [ -x /usr/bin/nvcc ]; then
	exit 0
fi

sudo=""
if [ "$(id -u)" != 0 ]; then
	sudo="sudo"
fi

src=/etc/apt/sources.list.d/debian.sources
if [ -f "$src" ]; then
	# deb822 format: the toolkit is in non-free and its driver library needs
	# contrib (nvidia-support); add each missing component to every Components line.
	for c in contrib non-free non-free-firmware; do
		if ! grep -qE "^Components:.* $c( |\$)" "$src"; then
			$sudo sed -i -E "s/^(Components:.*)\$/\1 $c/" "$src"
		fi
	done
elif [ -f /etc/apt/sources.list ]; then
	if ! grep -qE '^deb .* non-free( |$)' /etc/apt/sources.list; then
		$sudo sed -i -E 's/^(deb .* main)(.*)$/\1 contrib non-free non-free-firmware\2/' /etc/apt/sources.list
	fi
else
	echo "install-cuda-toolkit: no Debian apt source found" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit >/dev/null
/usr/bin/nvcc --version | tail -n 2
