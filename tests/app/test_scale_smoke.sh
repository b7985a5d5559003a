#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# A short run of app xen-scale (3 guests, 2 s, one guest replaced every
# 200 ms) so that it cannot rot: it exits 0 (every packet checked intact,
# every guest's traffic both ways), prints each figure of its report, and
# leaves no simulator instance or process behind. No timing is asserted.
# Prints TAP.
#
# usage: test_scale_smoke.sh <xen-scale>
set -u
scale="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "1..3"
"$scale" --guests 3 --duration 2 --churn-ms 200 >"$work/out" 2>"$work/err"
rc=$?
sed 's/^/# /' "$work/out"
inst=$(sed -n 's/.*simulator instance \(xscale-[0-9]*-[0-9]*\)$/\1/p' "$work/out")
fail=0
if [ "$rc" = 0 ] && grep -q "^RESULT: ok" "$work/out"; then
	echo "ok 1 - xen-scale exits 0: every packet intact, every guest both ways"
else
	echo "not ok 1 - xen-scale exits 0 (status $rc)"
	sed 's/^/# stderr: /' "$work/err" | tail -n 40
	fail=1
fi

missing=""
for figure in "DPDK heap per vif" "memzones per vif" "open fds per vif" \
	"grants mapped by the backend per vif" "grants offered by each guest" \
	"event channels (dom0 ends) per vif" "xenstore watches (dom0) per vif" \
	"vif plugged -> backend RTE_ETH_EVENT_NEW     median" \
	"vif plugged -> backend port link up          median" \
	"vif plugged -> netfront link up              median" \
	"1 ms alarm lateness (interrupt thread)       median"; do
	grep -qF "$figure" "$work/out" || missing="$missing [$figure]"
done
# Guests came and went: more lives than guests at once.
lives=$(sed -n 's/^guest lives (created in all) *\([0-9]*\)$/\1/p' "$work/out")
if [ -z "$missing" ] && [ "${lives:-0}" -gt 3 ]; then
	echo "ok 2 - the report has every figure, guests were replaced ($lives lives)"
else
	echo "not ok 2 - the report has every figure, guests were replaced (${lives:-no} lives; missing:${missing:- none})"
	fail=1
fi

if [ -n "$inst" ] && ! ls "/dev/shm/xsim-$inst" >/dev/null 2>&1 &&
	! pgrep -f "file-prefix $inst-" >/dev/null; then
	echo "ok 3 - no simulator instance or process left behind"
else
	echo "not ok 3 - no simulator instance or process left behind (instance ${inst:-not printed})"
	fail=1
fi
exit $fail
