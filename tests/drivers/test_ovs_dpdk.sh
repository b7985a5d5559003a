#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guests as OVS-DPDK ports, on the simulator: Debian's ovs-vswitchd-dpdk
# (a private instance: its own database, run directory and file prefix)
# loads the PMDs with a netback watcher (vifs=web-*) in dpdk-extra;
# xsim-xl plays xl, and config/xen/vif-ovs-dpdk is run as libxl runs it
# (online, offline; XENBUS_PATH, vif), reaching the simulator's xenstore
# through xsim-xl. Two guests run testpmd on our netfront. Checked: OVS
# forwards web-1's frames to web-2; web-2 rebooted (a new domain id) is a
# new port that receives again, web-1's traffic going on; nothing stays
# behind in OVS or in DPDK (ethdev ports, the watcher's counts); a guest
# without a port makes the script fail with a clear line, and so do
# input libxl never gives (no XENBUS_PATH, a bad one, no bridge key, an
# unknown command); OVS exits cleanly. Prints TAP.
#
# usage: test_ovs_dpdk.sh <dpdk-testpmd> <dpdk-telemetry.py> <xsim-xl> <build dir>
set -u
testpmd="$1"
telemetry="$2"
xl="$3"
build="$4"
here=$(dirname "$(realpath "$0")")
. "$here/../common/ovs_sim.sh" ovs "$build"

# The ethdev ports and the watcher's counts, from OVS's DPDK.
dpdk_state() {
	printf '%s\n' /ethdev/list /xen_netback/watchers /xen_netback/vifs |
		"$telemetry" -f "$prefix" 2>&1
}

echo "1..7"
ovs_start "vifs=web-*"

"$xl" "$inst" create 3 web-1 br0 && hotplug online 3 &&
	"$xl" "$inst" create 5 web-2 br0 && hotplug online 5
ok=$?
sim_guest "$testpmd" 5 rxonly
sim_guest "$testpmd" 3 txonly
[ "$ok" = 0 ] && wait_for 'RX-packets: *[1-9]' "$work/guest5.log"
tap_result $? 1 "vif-ovs-dpdk online: OVS forwards web-1's frames to web-2" \
	"$work/hotplug.out" "$work/vif-ovs-dpdk.log" "$OVS_LOGDIR/ovs-vswitchd.log" \
	"$work/guest5.log"

# xl reboot web-2: its vif goes (offline, then the directories), the new
# domain's comes.
kill -INT "$guest5"
wait "$guest5"
hotplug offline 5 && "$xl" "$inst" destroy 5 &&
	"$xl" "$inst" create 6 web-2 br0 && hotplug online 6
ok=$?
sim_guest "$testpmd" 6 rxonly
[ "$ok" = 0 ] && wait_for 'RX-packets: *[1-9]' "$work/guest6.log"
tap_result $? 2 "web-2 rebooted: a new port, receiving again" \
	"$work/hotplug.out" "$work/vif-ovs-dpdk.log" "$work/guest6.log"

dpdk_state >"$work/state1"
python3 - "$work/state1" <<'EOF'
import json, sys
r = {}
for l in open(sys.argv[1]):
    if l.startswith('{'):
        r.update(json.loads(l))
names = sorted(v['name'] for v in r['/xen_netback/vifs'].values())
w = r['/xen_netback/watchers']['net_xen_netback_vifs']
print('# ports %s, watcher %s' % (names, w))
sys.exit(0 if names == ['net_xen_netback_vif3.0', 'net_xen_netback_vif6.0']
         and len(r['/ethdev/list']) == 2 and w['ports'] == 3
         and w['no_port'] == 0 else 1)
EOF
tap_result $? 3 "the old vif's port is gone from DPDK: 2 ports for 2 guests" \
	"$work/state1"

# xl destroy web-2; web-1 goes on sending through OVS.
kill -INT "$guest6"
wait "$guest6"
# Packets web-1's port (ethdev 0) received, as DPDK counts them now (OVS
# copies them to its database only every 5 s).
rx_web1() {
	echo /ethdev/stats,0 | "$telemetry" -f "$prefix" 2>&1 |
		grep -o '"ipackets": [0-9]*' | grep -o '[0-9]*$'
}
before=$(rx_web1)
hotplug offline 6 && "$xl" "$inst" destroy 6
ok=$?
sleep 2
after=$(rx_web1)
dpdk_state >"$work/state2"
[ "$ok" = 0 ] && [ "${after:-0}" -gt "${before:-0}" ] &&
	[ "$(ovs-vsctl list-ports br0)" = "vif3.0" ] &&
	grep -q '"/ethdev/list": \[[0-9]*\]' "$work/state2"
tap_result $? 4 "web-2 destroyed: its port gone, web-1's traffic on ($before -> $after)" \
	"$work/state2" "$work/hotplug.out"

# A guest the watcher does not serve: the script says so and fails.
"$xl" "$inst" create 7 mail br0
hotplug online 7
rc=$?
[ "$rc" = 1 ] && grep -q 'OVS cannot set up vif7.0 (net_xen_netback_vif7.0) on br0' \
	"$work/hotplug.out" && [ "$(ovs-vsctl list-ports br0)" = "vif3.0" ]
tap_result $? 5 "a vif without a port: online fails, saying why (rc $rc)" \
	"$work/hotplug.out"

# What libxl never gives but a hand could: each refused, saying why.
: >"$work/bad.out"
"$script" online >>"$work/bad.out" 2>&1; r1=$?
XENBUS_PATH=backend/vif/x/0 "$script" online >>"$work/bad.out" 2>&1; r2=$?
"$xl" "$inst" create 8 web-8
XENBUS_PATH=backend/vif/8/0 vif=vif8.0 "$script" online >>"$work/bad.out" 2>&1; r3=$?
XENBUS_PATH=backend/vif/3/0 "$script" plug >>"$work/bad.out" 2>&1; r4=$?
[ "$r1$r2$r3$r4" = 1111 ] && grep -q 'XENBUS_PATH not set' "$work/bad.out" &&
	grep -q 'is not backend/vif/<domid>/<handle>' "$work/bad.out" &&
	grep -q 'no bridge for vif8.0' "$work/bad.out" &&
	grep -q 'unknown command plug' "$work/bad.out" &&
	[ "$(ovs-vsctl list-ports br0)" = "vif3.0" ]
tap_result $? 6 "no XENBUS_PATH, a bad one, no bridge, a bad command: refused" \
	"$work/bad.out"

kill -INT "$guest3"
wait "$guest3"
pid=$(cat "$OVS_RUNDIR/ovs-vswitchd.pid")
ovs-appctl -t ovs-vswitchd exit
for _ in $(seq 100); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
! kill -0 "$pid" 2>/dev/null &&
	! grep -q 'EMER\|Segmentation\|assertion' "$OVS_LOGDIR/ovs-vswitchd.log"
tap_result $? 7 "ovs-vswitchd exits cleanly" "$OVS_LOGDIR/ovs-vswitchd.log"
exit $fail
