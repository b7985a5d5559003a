#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Copy the two PMD plugins into a fresh private directory and print its
# path, for "dpdk-testpmd -d <dir>". EAL refuses a plugin below any
# world-writable directory (a build tree under /tmp, say), and follows
# symlinks, so a copy is the one form that works wherever the tree is.
# The caller removes the directory.
#
# usage: plugin-dir.sh <build dir>
set -eu
build="$1"
nb="$build/drivers/net/xen_netback/librte_net_xen_netback.so"
nf="$build/drivers/net/xen_netfront/librte_net_xen_netfront.so"
for so in "$nb" "$nf"; do
	[ -f "$so" ] || { echo "plugin-dir: $so is not built" >&2; exit 1; }
done
if [ "$(id -u)" = 0 ]; then
	dir=$(mktemp -d /run/xen-dpdk-pmd.XXXXXX)
else
	dir=$(mktemp -d "$HOME/.xen-dpdk-pmd.XXXXXX")
fi
chmod 700 "$dir"
cp "$nb" "$nf" "$dir/"
echo "$dir"
