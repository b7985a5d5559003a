#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# meson's "xen" suite: the real-Xen scenarios (tests/xen/scenarios) in one
# boot of Xen under QEMU, reported as TAP, one line per scenario. Where
# they cannot run (not root, QEMU not installable), the whole suite is a
# SKIP whose reason is printed loudly. Results and logs stay in the
# directory printed at the end.
#
# usage: tests/xen/tap-scenarios.sh BUILD_DIR
# Environment: XEN_SCENARIOS (default: all but the baseline 0, in an order
# that keeps the kernel's xen-netback out of the way of ours), and what
# tests/xen/run-scenario.sh takes (XDP_COMPARE=1: the comparisons too).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1
scenarios=${XEN_SCENARIOS:-1 10 7 2 9 5s 5q 5m 6 12 8 gm 11 13 14 15 4 4r}
skip() {
	echo "1..0 # SKIP $*"
	printf '\n*** REAL-XEN SCENARIOS NOT RUN: %s ***\n\n' "$*" >&2
	exit 0
}
[ "$(id -u)" = 0 ] || skip "they need root (debootstrap, Xen images, QEMU)"
need=
for c in qemu-system-x86_64:qemu-system-x86 debootstrap:debootstrap cpio:cpio; do
	command -v "${c%%:*}" >/dev/null || need="$need ${c#*:}"
done
if [ -n "$need" ]; then
	log=$(mktemp)
	if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $need; } >"$log" 2>&1; then
		skip "cannot install$need: $(tail -1 "$log")"
	fi
fi
out=/var/tmp/xen-dpdk-pmd/results/tap-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
# run-scenario.sh empties its results directory: the summary stays outside
"$here/run-scenario.sh" -b "$build" -o "$out/boot" $scenarios >"$out/summary.txt" 2>&1
rc=$?
set -- $scenarios
echo "1..$#"
i=0
for s in "$@"; do
	i=$((i + 1))
	line=$(grep -E "^(PASS|FAIL) ${s}(-| )" "$out/summary.txt" | head -1)
	case $line in
	PASS*) echo "ok $i - ${line#PASS }" ;;
	FAIL*) echo "not ok $i - ${line#FAIL }" ;;
	*) echo "not ok $i - $s: no result (image build or boot failed)" ;;
	esac
done
sed 's/^/# /' "$out/summary.txt"
exit $rc
