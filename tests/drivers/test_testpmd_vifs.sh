#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# The README's "Every vif in one process" with the stock dpdk-testpmd: one
# interactive testpmd holds a watcher (vifs=web-*) over a simulator
# instance while xsim-xl plays xl. Guest web-1 is there at start, web-2
# and mail come later; each web guest runs a testpmd with our netfront.
# Checked: web-1's port is there at start; web-2's is attached with "port
# attach" and forwards web-1's frames to web-2 (io); mail gets no port;
# destroying web-2 makes testpmd detach its port by itself; telemetry
# /xen_netback/watchers counts 2 ports made; quit is clean.
# Prints TAP.
#
# usage: test_testpmd_vifs.sh <dpdk-testpmd> <dpdk-telemetry.py> <xsim-xl> <build dir>
set -u
testpmd="$1"
telemetry="$2"
xl="$3"
build="$4"
here=$(dirname "$(realpath "$0")")
. "$here/../common/sim_processes.sh" vifs "$build"

eal() {
	echo "--no-huge -m 512 --no-pci --file-prefix $1-$$ -d $plugins"
}
log="$work/backend.log"

echo "1..5"
"$xl" "$inst" create 3 web-1
mkfifo "$work/in"
# Line-buffered, so that the log shows each answer as it comes.
stdbuf -oL "$testpmd" -l 0,1 $(eal back) \
	--vdev "net_xen_netback_all,vifs=web-*,provider=sim,sim=$inst" \
	-- -i --total-num-mbufs=8192 <"$work/in" >"$log" 2>&1 &
backend=$!
pids+=("$backend")
exec 3>"$work/in"
wait_for 'testpmd>' "$log"
echo "show port summary all" >&3
wait_for 'net_xen_netback_vif3.0' "$log"
tap_result $? 1 "the vif there at start is a port" "$log"

"$xl" "$inst" create 5 web-2
"$xl" "$inst" create 6 mail
echo "port attach net_xen_netback_vif5.0" >&3
wait_for 'Port 1 is attached' "$log"
echo "port start all" >&3
echo "start" >&3
wait_for 'io packet forwarding' "$log"
sim_guest "$testpmd" 5 rxonly
sim_guest "$testpmd" 3 txonly
# Frames web-1 sends reach web-2 through both ports of the backend.
wait_for 'RX-packets: *[1-9]' "$work/guest5.log"
ok=$?
echo "show port summary all" >&3
sleep 1
[ "$ok" = 0 ] && ! grep -q 'net_xen_netback_vif6' "$log"
tap_result $? 2 "web-2's port attached, forwarding web-1's frames; mail has none" \
	"$log" "$work/guest5.log"

kill -INT "$guest3" "$guest5"
wait "$guest3" "$guest5"
"$xl" "$inst" destroy 5
wait_for 'Device is detached' "$log"
tap_result $? 3 "web-2 destroyed: testpmd detaches its port" "$log"
# testpmd then restarts forwarding from its interrupt thread; a quit
# before that ends races it (testpmd's own, not the PMD's).
wait_for 'nb forwarding ports=1' "$log"
sleep 1

echo /xen_netback/watchers | "$telemetry" -f "back-$$" >"$work/watchers" 2>&1
python3 -c "
import json, sys
r = [json.loads(l) for l in open('$work/watchers') if l.startswith('{')]
w = r[0]['/xen_netback/watchers']['net_xen_netback_all']
sys.exit(0 if (w['pattern'], w['ports'], w['no_port'], w['vifs']) ==
         ('web-*', 2, 0, 2) else 1)" 2>"$work/py.err"
tap_result $? 4 "telemetry: the watcher made 2 ports, sees 2 vifs" \
	"$work/watchers" "$work/py.err"

echo "quit" >&3
exec 3>&-
wait "$backend"
rc=$?
[ "$rc" = 0 ]
tap_result $? 5 "testpmd quits cleanly (rc $rc)" "$log"
exit $fail
