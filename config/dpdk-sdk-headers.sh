#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Provide the DPDK driver-SDK headers (ethdev_driver.h and friends) of exactly
# the installed DPDK, for distributions such as Debian 12 whose libdpdk-dev
# does not ship them. The headers come from the distribution's own dpdk source
# package, so the PMDs are built against the very ABI the installed
# librte_ethdev.so exports. Nothing is downloaded from anywhere else.
#
# usage: dpdk-sdk-headers.sh <dpdk version from pkg-config> <output dir>
set -eu

want="$1"
out="$2"
headers="lib/ethdev/ethdev_driver.h lib/ethdev/ethdev_vdev.h
	 drivers/bus/vdev/bus_vdev_driver.h lib/eal/include/dev_driver.h"

if [ -f "$out/.version" ] && [ "$(cat "$out/.version")" = "$want" ]; then
	exit 0
fi

die() {
	echo "dpdk-sdk-headers: $*" >&2
	exit 1
}

command -v dpkg-query >/dev/null ||
	die "no SDK headers in the installed DPDK and no dpkg to find its source package"
srcver=$(dpkg-query -W -f '${source:Version}' libdpdk-dev 2>/dev/null) ||
	die "libdpdk-dev is not installed"
upstream=${srcver%-*}
[ "${upstream#*:}" = "$want" ] ||
	die "libdpdk-dev source version $srcver does not match pkg-config libdpdk $want"

cache="${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/xen-dpdk-pmd"
tarball="$cache/dpdk_${want}.orig.tar.xz"
mkdir -p "$cache"
if [ ! -f "$tarball" ]; then
	if ! apt-cache showsrc dpdk 2>/dev/null | grep -q "^Version: $srcver\$"; then
		[ "$(id -u)" = 0 ] ||
			die "need a deb-src entry for dpdk $srcver; run devtools/bootstrap.sh as root once"
		"$(dirname "$0")/../devtools/apt-deb-src.sh"
	fi
	(cd "$cache" && apt-get source --download-only -qq "dpdk=$srcver" >/dev/null 2>&1) ||
		die "apt-get source dpdk=$srcver failed"
	[ -f "$tarball" ] || die "apt-get source did not leave $tarball"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
top=$(tar -tJf "$tarball" | head -n 1 | cut -d/ -f1)
for h in $headers; do
	tar -xJf "$tarball" -C "$tmp" "$top/$h" || die "$h is not in $tarball"
done
mkdir -p "$out"
for h in $headers; do
	cp "$tmp/$top/$h" "$out/"
done
echo "$want" > "$out/.version"
