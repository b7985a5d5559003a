#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# app xen-host-probe, so that xen-bench's host column cannot rot: on CPUs
# 0 and 1 it exits 0 with one JSON line whose round trip and bandwidth are
# above 0 (never judged: no timing is asserted), and its text line names
# both CPUs; arguments it cannot take get status 2 and the usage; a CPU
# this process may not run on gets status 1 and the reason. Prints TAP.
#
# usage: test_host_probe.sh <xen-host-probe>
set -u
probe="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "1..4"
"$probe" --cpus 0,1 --trips 2000 --trials 3 --json >"$work/out" 2>"$work/err"
rc=$?
sed 's/^/# /' "$work/out"
if [ "$rc" = 0 ] && python3 - "$work/out" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
r = json.loads(lines[0])
assert r["cpus"] == [0, 1] and r["trials"] == 3 and r["trips"] == 2000, r
assert r["bounce_ns"] > 0 and r["copy_gbs"] > 0, r
PY
then
	echo "ok 1 - --json: one line with the round trip and the bandwidth"
else
	echo "not ok 1 - --json (status $rc)"
	sed 's/^/# stderr: /' "$work/err"
fi

"$probe" --cpus 1,0 --trips 2000 --trials 1 >"$work/out" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q "between CPUs 1 and 0 [0-9.]* ns, memcpy [0-9.]* GB/s" "$work/out"; then
	echo "ok 2 - the text line names both CPUs"
else
	echo "not ok 2 - the text line (status $rc)"
	sed 's/^/# /' "$work/out"
fi

bad=0
for args in "" "--cpus 0" "--cpus 0,0" "--cpus 0,x" "--cpus -1,1" \
	"--cpus 0,1 --trips 1" "--cpus 0,1 --trials 0" "--cpus 0,1 --trials 102" \
	"--cpus 0,1 extra"; do
	# shellcheck disable=SC2086
	"$probe" $args >"$work/bad.out" 2>"$work/bad.err"
	rc=$?
	if [ "$rc" != 2 ] || ! grep -q '^usage:' "$work/bad.err" || [ -s "$work/bad.out" ]; then
		echo "# '$args': status $rc, $(head -c 200 "$work/bad.err")"
		bad=1
	fi
done
if [ $bad = 0 ]; then
	echo "ok 3 - bad arguments: status 2 and the usage"
else
	echo "not ok 3 - bad arguments: status 2 and the usage"
fi

# A CPU that exists in no set this process may use.
"$probe" --cpus 0,1000 >"$work/out" 2>"$work/err"
rc=$?
if [ "$rc" = 1 ] && grep -q "cannot run on CPUs 0 and 1000" "$work/err" && [ ! -s "$work/out" ]; then
	echo "ok 4 - a CPU it cannot run on: status 1 and the reason"
else
	echo "not ok 4 - a CPU it cannot run on (status $rc)"
	sed 's/^/# /' "$work/err"
fi
