#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Guests' large segments through OVS-DPDK, on the simulator: Debian's
# ovs-vswitchd-dpdk with other_config:userspace-tso-enable=true (so it
# enables Tx TSO, never Rx LRO, on its dpdk ports) and a netback watcher
# (vifs=web-*, gso_contiguous=1); two guests on our netfront run
# tcp-guest, which enables Tx TSO. Checked: OVS enabled TSO on both ports,
# and so both guests were offered GSO; web-1's 60000-byte TSO frames,
# flooded by OVS's NORMAL action (web-2 never sends, so OVS copies each one
# for its bridge port), reach web-2 unsplit (as many GSO packets as frames,
# 60000 bytes each) and byte for byte; the same through conntrack
# (ct(commit), sequence checks off: the stream is one-way), where an
# invalid packet, such as a partial checksum conntrack verifies, is
# dropped and counted. Prints TAP.
#
# usage: test_ovs_tso.sh <tcp-guest> <xsim-xl> <build dir>
set -u
guest_app="$1"
xl="$2"
build="$3"
here=$(dirname "$(realpath "$0")")
. "$here/../common/ovs_sim.sh" ovstso "$build"
FRAMES=40
LEN=60000

# guest <domid> <tcp-guest arguments...>: tcp-guest as that guest, in the
# background, its output in $work/guest<domid>.log
guest() {
	d=$1
	shift
	"$guest_app" -l 0 --no-huge -m 256 --no-pci --file-prefix "t$d-$$" \
		-d "$plugins" --vdev "net_xen_netfront0,provider=sim,sim=$inst,domid=$d" \
		-- "$@" >"$work/guest$d.log" 2>&1 &
	pids+=("$!")
	eval "guest$d=$!"
}
# stream <case>: web-1 sends $FRAMES frames, web-2 checks them; true when
# web-2 got every one whole, as one large segment each
stream() {
	guest 5 recv $FRAMES 60
	sleep 1
	guest 3 send 02:00:00:00:00:99 $FRAMES $LEN
	wait "$guest3"
	wait "$guest5"
	r=$(tail -n 1 "$work/guest5.log")
	echo "# $1: web-2 received $r"
	python3 - "$r" $FRAMES $LEN <<'EOF'
import json, sys
r, frames, size = json.loads(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
sys.exit(0 if r['packets'] == frames and r['gso'] == frames
         and r['bytes'] == frames * size and r['bad_payload'] == 0
         and r['bad_csum'] == 0 else 1)
EOF
}

echo "1..3"
ovs_start "vifs=web-*,gso_contiguous=1" other_config:userspace-tso-enable=true

"$xl" "$inst" create 3 web-1 br0 && hotplug online 3 &&
	"$xl" "$inst" create 5 web-2 br0 && hotplug online 5
ok=$?
for d in 3 5; do
	[ "$("$xl" "$inst" read "backend/vif/$d/0/feature-gso-tcpv4")" = 1 ] ||
		ok=1
done
grep -q 'Userspace TCP Segmentation Offloading support enabled' \
	"$OVS_LOGDIR/ovs-vswitchd.log" || ok=1
tap_result $ok 1 "userspace TSO: OVS enables Tx TSO, both guests are offered GSO" \
	"$work/hotplug.out" "$OVS_LOGDIR/ovs-vswitchd.log"

[ "$ok" = 0 ] && stream flooded
tap_result $? 2 "$FRAMES TSO frames of $LEN bytes, flooded, reach web-2 whole" \
	"$work/guest3.log" "$work/guest5.log" "$OVS_LOGDIR/ovs-vswitchd.log"

ovs-appctl --timeout=30 dpctl/ct-disable-tcp-seq-chk >/dev/null
ovs-ofctl add-flow br0 "table=0,priority=10,ip,actions=ct(table=1)" &&
	ovs-ofctl add-flow br0 "table=1,priority=20,ct_state=+trk+inv,actions=drop" &&
	ovs-ofctl add-flow br0 "table=1,priority=10,ip,actions=ct(commit),normal"
ok=$?
[ "$ok" = 0 ] && stream conntrack
ok=$?
invalid=$(ovs-ofctl dump-flows br0 table=1 | grep 'ct_state=+inv' |
	grep -o 'n_packets=[0-9]*')
committed=$(ovs-ofctl dump-flows br0 table=1 | grep 'ct(commit)' |
	grep -o 'n_packets=[0-9]*')
echo "# conntrack: invalid $invalid, committed $committed"
[ "$ok" = 0 ] && [ "$invalid" = n_packets=0 ] && [ "$committed" != n_packets=0 ]
tap_result $? 3 "through conntrack: none invalid, all whole at web-2" \
	"$work/guest5.log" "$OVS_LOGDIR/ovs-vswitchd.log"
exit $fail
