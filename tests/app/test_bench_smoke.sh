#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# A reduced run of app/xen-bench's quick preset (one size, 2 rounds of
# half-second windows, interleaved, each round on pairs started for it as
# in --full) with xen, vhost-user and memif, from another directory.
# Checks that it exits 0, that its JSON has a result with Mpps > 0 for
# every transport and direction, a figure for each round from a pair of
# its own and our ratios within rounds, each round over both directions
# before the next round, and that its SVG plot parses as XML;
# the same with --sequential (1 warm-up + 2 windows, a point at a time);
# then that Ctrl-C in the middle of a run leaves no testpmd, simulator
# instance or EAL runtime directory behind; that --instructions counts
# both ends of our pair; and that --baseline runs a second build's
# plugins beside ours, within rounds. No timing is asserted. Without hugepages
# (not root, none mounted) xen-bench falls back to --no-huge, which is
# fine here. Prints TAP.
#
# usage: test_bench_smoke.sh <dpdk-testpmd> <build dir>
set -u
testpmd="$1"
build="$(realpath "$2")"
here=$(dirname "$(realpath "$0")")
top=$(realpath "$here/../..")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "1..11"
cd "$work"
fail=0
# bench <n> <name> <options...>: a run of xen-bench, then its JSON
bench() {
	local n=$1 name=$2
	shift 2
	python3 "$top/app/xen-bench" --quick --sizes 64 \
		--transports xen,vhost,memif --idle-wait 0 \
		--build-dir "$build" --testpmd "$testpmd" \
		--json "$work/$name.json" --plot "$work/$name.svg" "$@" \
		>"$work/$name.out" 2>"$work/$name.err"
	local rc=$?
	sed 's/^/# /' "$work/$name.out"
	if [ "$rc" = 0 ]; then
		echo "ok $n - xen-bench $* exits 0"
	else
		echo "not ok $n - xen-bench $* exits 0 (status $rc)"
		sed 's/^/# stderr: /' "$work/$name.err" | tail -n 40
		fail=1
	fi
	if python3 - "$work/$name.json" "$name" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
interleaved = sys.argv[2] == "bench"
ok = True
for fam in ("xen", "vhost", "memif"):
    for d in ("f2b", "b2f"):
        rs = [r for r in doc["results"]
              if r["transport"] == fam and r["direction"] == d]
        if not rs or not all(r["mpps_median"] > 0 for r in rs):
            print("# no packets moved: %s %s" % (fam, d))
            ok = False
            continue
        r = rs[0]
        print("# %s %s: %.2f Mpps, rounds %s" % (fam, d, r["mpps_median"],
                                               r["round_mpps"]))
        if interleaved and (sorted(r["round_mpps"]) != ["1", "2"] or
                            len(r["host"]) != 2 or
                            len(r["host_after"]) != 2 or
                            not all(r["host_after"])):
            print("# %s %s: not two rounds, each probed before and after"
                  % (fam, d))
            ok = False
        if interleaved and len(set(r["commands"])) != 4:
            print("# %s %s: not a pair of its own each round: %r" % (
                fam, d, r["commands"]))
            ok = False
        if not interleaved and r["round_mpps"]:
            ok = False
        if fam == "xen" and interleaved and not (
                len(r["ratio_vhost_rounds"]) == 2 and
                r["ratio_vhost_p25"] <= r["ratio_vhost"] <=
                r["ratio_vhost_p75"]):
            print("# xen %s: no ratio within rounds: %r" % (d, r))
            ok = False
sys.exit(0 if ok else 1)
PY
	then
		echo "ok $((n + 1)) - every transport and direction moved packets ($name)"
	else
		echo "not ok $((n + 1)) - every transport and direction moved packets ($name)"
		fail=1
	fi
}
bench 1 bench --rounds 2 --round-window 0.5 --fresh-pairs

if [ -s "$work/bench.svg" ] && python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
sys.exit(0 if root.tag.endswith("svg") and
         len([g for g in root.iter("{http://www.w3.org/2000/svg}g")
              if g.get("data-series")]) == 6 else 1)' "$work/bench.svg"; then
	echo "ok 3 - the SVG plot parses as XML, a line per transport and direction"
else
	echo "not ok 3 - the SVG plot parses as XML, a line per transport and direction"
	fail=1
fi

if grep -q "^transport" "$work/bench.out" && grep -q "indicative" "$work/bench.out"; then
	echo "ok 4 - the table is printed, quick figures flagged as indicative"
else
	echo "not ok 4 - the table is printed, quick figures flagged as indicative"
	fail=1
fi
# Ctrl-C, pressed twice, while our pair runs: as a terminal does, SIGINT
# goes to the whole process group, testpmd included. xen-bench names
# what it makes (file prefixes, simulator instances) after its pid.
setsid python3 "$top/app/xen-bench" --quick --sizes 64 --rounds 30 \
	--transports xen --idle-wait 0 --build-dir "$build" --testpmd "$testpmd" \
	--json "$work/int.json" --plot "$work/int.svg" >"$work/int.out" 2>&1 &
pid=$!
i=0
while ! ls /dev/shm/xsim-xb$pid-* >/dev/null 2>&1 && [ $i -lt 300 ]; do
	sleep 0.1; i=$((i + 1))
done
sleep 1
kill -INT -- -$pid; sleep 0.3; kill -INT -- -$pid
wait $pid
left=$( { ls -d /dev/shm/xsim-xb$pid-* /var/run/dpdk/xb$pid-* \
	"${XDG_RUNTIME_DIR:-/nonexistent}"/dpdk/xb$pid-* 2>/dev/null
	pgrep -f "file-prefix xb$pid-"; } | tr '\n' ' ')
if [ $i -lt 300 ] && [ -z "$left" ]; then
	echo "ok 5 - Ctrl-C mid-run leaves no process or file behind"
else
	echo "not ok 5 - Ctrl-C mid-run leaves no process or file behind (${left:-run never started})"
	sed 's/^/# /' "$work/int.out" | tail -n 20
	fail=1
fi

# The older method, a point at a time with fresh processes.
bench 6 sequential --sequential --warmup 1 --windows 2

# Instructions per packet: each end of our pair under callgrind in turn.
python3 "$top/app/xen-bench" --quick --sizes 64 --transports xen-f2b \
	--rounds 1 --round-window 0.5 --instructions --idle-wait 0 \
	--build-dir "$build" --testpmd "$testpmd" --json "$work/instr.json" \
	--no-plot >"$work/instr.out" 2>"$work/instr.err"
rc=$?
sed 's/^/# /' "$work/instr.out"
if [ "$rc" = 0 ] && grep -q "ins tx" "$work/instr.out"; then
	echo "ok 8 - xen-bench --instructions exits 0 with ins tx/rx columns"
else
	echo "not ok 8 - xen-bench --instructions exits 0 with ins tx/rx columns (status $rc)"
	sed 's/^/# stderr: /' "$work/instr.err" | tail -n 40
	fail=1
fi
if python3 - "$work/instr.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
ok = True
for role in ("tx", "rx"):
    c = (r["instructions"] or {}).get(role)
    print("# %s: %r" % (role, c and {k: v for k, v in c.items()
                                     if k != "command"}))
    ok = ok and c and c["packets"] > 0 and c["instructions"] > 0 and \
        "valgrind --tool=callgrind" in c["command"] and \
        c["per_packet"] == r["instructions_per_pkt_" +
                               ("sender" if role == "tx" else "receiver")]
sys.exit(0 if ok else 1)
PY
then
	echo "ok 9 - both ends counted, with packets and the command"
else
	echo "not ok 9 - both ends counted, with packets and the command"
	fail=1
fi

# With fresh pairs a round goes over every group (here f2b and b2f)
# before the next round: the progress lines' (group, round) in order.
order=$(sed -n 's/^progress: \[group \([0-9]*\)\/2, round \([0-9]*\)\/2\].*/\2.\1/p' \
	"$work/bench.err" | uniq | tr '\n' ' ')
if [ "$order" = "1.1 1.2 2.1 2.2 " ]; then
	echo "ok 10 - fresh pairs: each round goes over both directions, then the next"
else
	echo "not ok 10 - fresh pairs: each round goes over both directions, then the next (round.group: $order)"
	fail=1
fi
# A second build (here a copy of this one's plugins) beside ours.
for pmd in xen_netback xen_netfront; do
	mkdir -p "$work/old/drivers/net/$pmd"
	cp "$build/drivers/net/$pmd/librte_net_$pmd.so" "$work/old/drivers/net/$pmd/"
done
python3 "$top/app/xen-bench" --quick --sizes 64 --transports xen-f2b \
	--baseline "$work/old" --rounds 2 --round-window 0.5 --idle-wait 0 \
	--build-dir "$build" --testpmd "$testpmd" --json "$work/base.json" \
	--no-plot >"$work/base.out" 2>"$work/base.err"
rc=$?
sed 's/^/# /' "$work/base.out"
if [ "$rc" = 0 ] && grep -q "Against the baseline build" "$work/base.out" &&
	python3 - "$work/base.json" "$work/old" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = {r["transport"]: r for r in doc["results"]}
xen, base = rows["xen"], rows["base"]
plugin = lambda r: [a for c in r["commands"] for a in c.split()
                    if a.endswith("librte_net_xen_netback.so")]
print("# ratio_base %r, plugins %r %r" % (xen.get("ratio_base_rounds"),
                                         plugin(xen)[:1], plugin(base)[:1]))
sys.exit(0 if doc["baseline"] == sys.argv[2] and base["mpps_median"] > 0
         and len(xen["ratio_base_rounds"]) == 2
         and set(plugin(xen)).isdisjoint(plugin(base)) else 1)
PY
then
	echo "ok 11 - --baseline runs the second build beside ours, within rounds"
else
	echo "not ok 11 - --baseline runs the second build beside ours, within rounds (status $rc)"
	sed 's/^/# stderr: /' "$work/base.err" | tail -n 40
	fail=1
fi
exit $fail
