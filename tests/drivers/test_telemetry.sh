#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# The PMDs' telemetry, read as an operator would, with DPDK's
# dpdk-telemetry.py: one stock dpdk-testpmd holds a netback port (0) and
# the netfront port (1) that is its guest, over a simulator instance,
# forwarding between the two (io, --tx-first). /xen_netback/vifs lists
# port 0 only, with its guest (domain 1) and both xenbus states Connected;
# /xen_netback/vif,0 adds each queue's ring indexes, which move between
# two asks, a producer never behind the consumer beside it (the snapshot
# reads ours first; traffic moves on while it is taken);
# /xen_netfront/vifs and /xen_netfront/vif,1 show the other end (its
# backend, domain 0). Asked for a port of the other PMD, one that does not
# exist or no port at all, a command answers null. Prints TAP.
#
# usage: test_telemetry.sh <dpdk-testpmd> <dpdk-telemetry.py> <build dir>
set -u
testpmd="$1"
telemetry="$2"
build="$3"
here=$(dirname "$(realpath "$0")")
. "$here/../common/sim_processes.sh" telemetry "$build"
prefix="telemetry-$$"
pmd_args="provider=sim,sim=$inst,domid=1"

"$testpmd" --lcores 0@0,1@1 --no-huge -m 1024 --no-pci --file-prefix "$prefix" \
	-d "$plugins" --vdev "net_xen_netback0,$pmd_args" \
	--vdev "net_xen_netfront0,$pmd_args" -- \
	--forward-mode=io --tx-first --stats-period=1 --nb-cores=1 \
	--total-num-mbufs=32768 >"$work/testpmd.log" 2>&1 &
pids+=("$!")
for _ in $(seq 100); do
	grep -q 'RX-pps' "$work/testpmd.log" && break
	sleep 0.2
done

# ask <file> <command>...: their replies, one JSON object a line
ask() {
	local out=$1
	shift
	printf '%s\n' "$@" | "$telemetry" -f "$prefix" >"$out" 2>&1
}
# check <n> <what> <python condition on r, the list of replies>
check() {
	python3 -c "
import json, sys
r = [json.loads(l) for l in open('$work/replies') if l.startswith('{')]
sys.exit(0 if ($3) else 1)" 2>"$work/py.err"
	tap_result $? "$1" "$2" "$work/replies" "$work/py.err"
}

echo "1..5"
ask "$work/replies" /xen_netback/vifs /xen_netfront/vifs
check 1 "vifs lists each PMD's own port: guest, backend, states" "
len(r) == 2 and list(r[0]['/xen_netback/vifs']) == ['0'] and
r[0]['/xen_netback/vifs']['0']['guest_domid'] == 1 and
r[0]['/xen_netback/vifs']['0']['state'] == 'Connected' and
r[0]['/xen_netback/vifs']['0']['frontend_state'] == 'Connected' and
r[0]['/xen_netback/vifs']['0']['link'] == 'up' and
list(r[1]['/xen_netfront/vifs']) == ['1'] and
r[1]['/xen_netfront/vifs']['1']['backend_domid'] == 0 and
r[1]['/xen_netfront/vifs']['1']['backend_state'] == 'Connected'"
cp "$work/replies" "$work/first"

ask "$work/replies" /xen_netback/vif,0
cp "$work/replies" "$work/second"
sleep 1
ask "$work/replies" /xen_netback/vif,0
cat "$work/second" >>"$work/replies"
check 2 "vif,0 shows the rings of its queue pair, moving" "
len(r) == 2 and all(
  q['ring'].startswith('guest') and
  (q['req_prod'] - q['req_cons']) % 2**32 == q['requests_unconsumed'] and
  q['requests_unconsumed'] < 2**31
  for x in r for q in (x['/xen_netback/vif']['rxq0'], x['/xen_netback/vif']['txq0'])) and
r[0]['/xen_netback/vif']['rxq0']['req_cons'] != r[1]['/xen_netback/vif']['rxq0']['req_cons'] and
r[0]['/xen_netback/vif']['txq0']['req_cons'] != r[1]['/xen_netback/vif']['txq0']['req_cons']"

ask "$work/replies" /xen_netfront/vif,1
check 3 "vif,1 of the netfront shows its rings from the frontend's end, and its NUMA node" "
len(r) == 1 and r[0]['/xen_netfront/vif']['role'] == 'frontend' and
'rsp_cons' in r[0]['/xen_netfront/vif']['rxq0'] and
r[0]['/xen_netfront/vif']['queue_pairs_connected'] == 1 and
r[0]['/xen_netfront/vif']['numa_node'] == 0"

ask "$work/replies" /xen_netback/vif,1 /xen_netback/vif,99 /xen_netback/vif \
	/xen_netback/vif,0x
check 4 "another PMD's port, no port, no or a bad id: null" "
len(r) == 4 and all(list(x.values()) == [None] for x in r)"

grep -q 'Bad arguments\|Error' "$work/testpmd.log" && fail=1
kill -0 "${pids[0]}" 2>/dev/null
tap_result $? 5 "testpmd still forwarding after the questions" \
	"$work/testpmd.log"
kill -INT "${pids[0]}"
wait "${pids[0]}"
exit $fail
