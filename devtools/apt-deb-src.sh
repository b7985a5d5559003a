#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Add a deb-src entry for the suites the machine already uses, so that
# "apt-get source dpdk" can fetch the driver-SDK headers (see
# config/dpdk-sdk-headers.sh). Idempotent; needs root.
set -eu
f=/etc/apt/sources.list.d/xen-dpdk-pmd-src.sources
[ -f "$f" ] && exit 0
. /etc/os-release
cat > "$f" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $VERSION_CODENAME $VERSION_CODENAME-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
apt-get update -qq
