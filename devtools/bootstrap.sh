#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Everything a fresh Debian 12 machine needs before the first build:
# the Debian packages (as root), a deb-src entry for DPDK's driver-SDK
# headers, then a configured and built tree in <build dir> (default
# ./build). Safe to run again; it only does what is missing.
#
# usage: devtools/bootstrap.sh [build dir]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="${1:-$top/build}"

packages="build-essential meson ninja-build pkg-config python3
	python3-pyelftools libdpdk-dev dpdk-dev libxen-dev libnuma-dev
	dpkg-dev xz-utils iproute2 procps openvswitch-switch-dpdk
	python3-sphinx valgrind"

missing=""
for p in $packages; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "bootstrap: missing Debian packages:$missing" >&2
		echo "bootstrap: run as root once to install them" >&2
		exit 1
	fi
	echo "bootstrap: installing$missing"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
if [ "$(id -u)" = 0 ]; then
	"$top/devtools/apt-deb-src.sh"
fi

if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$top" >/dev/null
fi
ninja -C "$build" >/dev/null
