#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# A reduced run of app/xen-bench's quick preset (one size, 1 warm-up + 2
# windows) with xen, vhost-user and memif, from another directory. Checks
# that it exits 0, that its JSON has a result with Mpps > 0 for every
# transport and direction, and that its SVG plot parses as XML; then that
# Ctrl-C in the middle of a run leaves no testpmd, simulator instance or
# EAL runtime directory behind. No timing is asserted. Without hugepages (not root, none mounted) xen-bench falls
# back to --no-huge, which is fine here. Prints TAP.
#
# usage: test_bench_smoke.sh <dpdk-testpmd> <build dir>
set -u
testpmd="$1"
build="$(realpath "$2")"
here=$(dirname "$(realpath "$0")")
top=$(realpath "$here/../..")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "1..5"
cd "$work"
python3 "$top/app/xen-bench" --quick --sizes 64 --warmup 1 --windows 2 \
	--transports xen,vhost,memif --idle-wait 0 \
	--build-dir "$build" --testpmd "$testpmd" \
	--json "$work/bench.json" --plot "$work/bench.svg" \
	>"$work/out" 2>"$work/err"
rc=$?
sed 's/^/# /' "$work/out"
fail=0
if [ "$rc" = 0 ]; then
	echo "ok 1 - xen-bench exits 0"
else
	echo "not ok 1 - xen-bench exits 0 (status $rc)"
	sed 's/^/# stderr: /' "$work/err" | tail -n 40
	fail=1
fi

if python3 - "$work/bench.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
ok = True
for fam in ("xen", "vhost", "memif"):
    for d in ("f2b", "b2f"):
        rs = [r for r in doc["results"]
              if r["transport"] == fam and r["direction"] == d]
        if not rs or not all(r["mpps_median"] > 0 for r in rs):
            print("# no packets moved: %s %s" % (fam, d))
            ok = False
        else:
            print("# %s %s: %.2f Mpps" % (fam, d, rs[0]["mpps_median"]))
sys.exit(0 if ok else 1)
PY
then
	echo "ok 2 - every transport and direction moved packets"
else
	echo "not ok 2 - every transport and direction moved packets"
	fail=1
fi

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

if grep -q "^transport" "$work/out" && grep -q "indicative" "$work/out"; then
	echo "ok 4 - the table is printed, quick figures flagged as indicative"
else
	echo "not ok 4 - the table is printed, quick figures flagged as indicative"
	fail=1
fi
# Ctrl-C, pressed twice, while our pair runs: as a terminal does, SIGINT
# goes to the whole process group, testpmd included. xen-bench names
# what it makes (file prefixes, simulator instances) after its pid.
setsid python3 "$top/app/xen-bench" --quick --sizes 64 --warmup 1 --windows 30 \
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
exit $fail
