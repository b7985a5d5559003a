#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# A short run of app xen-gnt-cost on the simulator, so that it cannot rot:
# it exits 0, its JSON holds every operation at every batch and every
# packet size with figures above 0, and it leaves no simulator instance
# behind; arguments it cannot take get status 2 and a line naming them.
# No timing is asserted. Prints TAP.
#
# usage: test_gnt_cost_smoke.sh <xen-gnt-cost>
set -u
cost="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "1..3"
"$cost" --provider sim --rounds 5 --json "$work/cost.json" >"$work/out" 2>"$work/err"
rc=$?
sed 's/^/# /' "$work/out"
if [ "$rc" = 0 ] && grep -q '^crossover: ' "$work/out"; then
	echo "ok 1 - xen-gnt-cost --provider sim exits 0 with a crossover line"
else
	echo "not ok 1 - xen-gnt-cost --provider sim (status $rc)"
	sed 's/^/# stderr: /' "$work/err" | tail -n 20
fi

if python3 - "$work/cost.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["provider"] == "sim" and r["rounds"] == 5
for op in ("map", "copy", "header"):
    for batch in ("1", "4", "16", "64"):
        q = r["ns_per_page"][op][batch]
        assert 0 < q["p25"] <= q["median"] <= q["p75"], (op, batch, q)
sizes = [p["bytes"] for p in r["packet_ns"]]
assert sizes == [64, 512, 1518, 4096, 9000, 16384, 65536], sizes
assert all(p["copied"] > 0 and p["mapped"] > 0 for p in r["packet_ns"])
x = r["crossover_bytes"]
assert x is None or 64 <= x <= 65536, x
PY
then
	echo "ok 2 - the JSON has every operation, batch and packet size"
else
	echo "not ok 2 - the JSON has every operation, batch and packet size"
fi

bad=0
for args in "--provider kvm" "--pages 65" "--rounds 0" "--rounds 1x" "extra"; do
	# shellcheck disable=SC2086
	"$cost" $args >"$work/bad.out" 2>"$work/bad.err"
	rc=$?
	if [ "$rc" != 2 ] || ! [ -s "$work/bad.err" ]; then
		echo "# $args: status $rc, stderr: $(cat "$work/bad.err")"
		bad=1
	fi
done
left=$(ls /dev/shm | grep -c '^xsim-gnt-cost-\|gnt-cost-' || true)
if [ "$bad" = 0 ] && [ "$left" = 0 ]; then
	echo "ok 3 - bad arguments: status 2 and a line; no simulator instance left"
else
	echo "not ok 3 - bad arguments: status 2 and a line ($bad); instances left: $left"
fi
