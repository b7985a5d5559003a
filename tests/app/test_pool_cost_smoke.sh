#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# A short run of app xen-pool-cost on the simulator, so that it cannot rot:
# it exits 0, prints a row for each way and its JSON holds each way's
# figures above 0, and it leaves no simulator instance behind; arguments
# it cannot take get status 2 and a line naming them. No timing is
# asserted. Prints TAP.
#
# usage: test_pool_cost_smoke.sh <xen-pool-cost>
set -u
cost="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
eal=(--no-huge -m 256 --no-pci --no-shconf --no-telemetry -l 0
     --log-level='*:warning')

echo "1..3"
"$cost" "${eal[@]}" -- --provider sim --rounds 3 --mbufs 65536 \
	--json "$work/cost.json" >"$work/out" 2>"$work/err"
rc=$?
sed 's/^/# /' "$work/out"
rows=$(grep -c '^| \(stash\|stack\|dpdk\): ' "$work/out")
if [ "$rc" = 0 ] && [ "$rows" = 3 ]; then
	echo "ok 1 - xen-pool-cost --provider sim exits 0 with a row for each way"
else
	echo "not ok 1 - xen-pool-cost --provider sim (status $rc, $rows rows)"
	sed 's/^/# stderr: /' "$work/err" | tail -n 20
fi

if python3 - "$work/cost.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["provider"] == "sim" and r["rounds"] == 3 and r["mbufs"] == 65536
assert sorted(r["ways"]) == ["dpdk", "stack", "stash"], r["ways"]
for way, f in r["ways"].items():
    for what in ("ns_per_mbuf", "over_dpdk"):
        q = f[what]
        assert 0 < q["p25"] <= q["median"] <= q["p75"], (way, what, q)
assert r["ways"]["dpdk"]["over_dpdk"]["median"] == 1.0
PY
then
	echo "ok 2 - the JSON has every way's figures"
else
	echo "not ok 2 - the JSON has every way's figures"
fi

bad=0
for args in "--provider kvm" "--mbufs 31" "--rounds 0" "--rounds 1x" "extra"; do
	# shellcheck disable=SC2086
	"$cost" "${eal[@]}" -- $args >"$work/bad.out" 2>"$work/bad.err"
	rc=$?
	if [ "$rc" != 2 ] || ! [ -s "$work/bad.err" ]; then
		echo "# $args: status $rc, stderr: $(cat "$work/bad.err")"
		bad=1
	fi
done
left=$(ls /dev/shm | grep -c 'pool-cost-' || true)
if [ "$bad" = 0 ] && [ "$left" = 0 ]; then
	echo "ok 3 - bad arguments: status 2 and a line; no simulator instance left"
else
	echo "not ok 3 - bad arguments: status 2 and a line ($bad); instances left: $left"
fi
