# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 5m: multicast control between our two PMDs on real Xen (Linux's
# netfront has none: this is the guest that has). A DPDK guest (testpmd
# rxonly, promiscuous mode off, multicast list 01:00:5e:00:00:0a) asks our
# Dom0 netback to filter multicast by its groups; its MCAST_ADD reaches the
# netback (rx_q0_multicast_requests = 1) while Dom0's testpmd receives
# (rxonly). Dom0's testpmd then sends (txonly) XDP_PHASE_SECS (default 5)
# of 64-byte frames to that group, and as long to 01:00:5e:00:00:0b, which
# the guest did not join. The guest receives exactly what the netback
# delivered of the first phase, none of it dropped; of the second nothing
# is delivered and the netback counts its frames in tx_q0_drop_multicast
# (a filter, as a NIC's: not a Tx error, so not in testpmd's TX-packets).
. /host/scenarios/lib.sh
SECS=${XDP_PHASE_SECS:-5}
joined=01:00:5e:00:00:0a other=01:00:5e:00:00:0b
domu=s5m-dpdk
trap 'collect; cleanup' EXIT

# xstat_now <name>: the netback port's extended counter, asked now
xstat_now() {
	n0=$(grep -c 'NIC extended statistics for port 0' $S/testpmd.log)
	backend_cmd "show port xstats 0"
	i=0; while [ $(grep -c 'NIC extended statistics for port 0' $S/testpmd.log) = $n0 ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
	sed -n "s/^ *$1: *\([0-9]*\)$/\1/p" $S/testpmd.log | tail -1
}
# phase <group>: Dom0 sends to <group> for SECS s; sets $delivered (the
# port's TX-packets over the phase) and $dropped (tx_q0_drop_multicast's)
phase() {
	d0=$(xstat_now tx_q0_drop_multicast)
	n0=$(grep -c 'Forward statistics for port 0' $S/testpmd.log)
	backend_cmd "set eth-peer 0 $1"
	backend_cmd start
	sleep $SECS
	backend_cmd stop
	i=0; while [ $(grep -c 'Forward statistics for port 0' $S/testpmd.log) = $n0 ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
	delivered=$(sed -n '/Forward statistics for port 0 /,/^ *-\{10,\}/s/.*TX-packets: *\([0-9]*\).*/\1/p' $S/testpmd.log | tail -1)
	dropped=$(( $(xstat_now tx_q0_drop_multicast) - ${d0:-0} ))
}

start_backend_cli s5m rxonly --vdev "$(ours_vdev $domu)"
# the guest's rxonly ends SECS + 15 s after the last frame it received,
# which outlasts the second phase (nothing for it: ~SECS + 5 s)
guest_cfg $domu initrd-dpdk.gz 256 "$(dpdk_vif_line)" "xdp.run=rxonly:$((4 * SECS + 60)):$((SECS + 15)) xdp.mcast=$joined"
create_guest $domu
dpdk_guest_up $domu rxonly $TESTPMD_PID
# the guest's group, a request on its TX ring, reaches the receiving netback
i=0
while [ "$(xstat_now rx_q0_multicast_requests)" != 1 ] && [ $i -lt 30 ]; do sleep 1; i=$((i + 1)); done
requests=$(xstat_now rx_q0_multicast_requests)
note "the guest's group changes at the netback: ${requests:-none}"
backend_cmd stop
backend_cmd "set fwd txonly"
phase $joined
sent_joined=$delivered dropped_joined=$dropped
phase $other
sent_other=$delivered dropped_other=$dropped
note "to $joined: $sent_joined delivered, $dropped_joined dropped; to $other: $sent_other delivered, $dropped_other dropped"
wait_guest $domu 'DOMU-RESULT testpmd-rxonly' $TESTPMD_PID
got=$(sed -n 's/.*DOMU-RESULT testpmd-rxonly .*rx=\([0-9]*\).*/\1/p' $con | head -1)
grep -E 'DOMU-(NETFRONT|RESULT)' $con | head -20
grep -E 'xen_netback' $S/testpmd.log | head -20

[ "$requests" = 1 ] || fail "the netback saw ${requests:-no} group changes, not the guest's 1"
[ "${sent_joined:-0}" -gt 0 ] && [ "$dropped_joined" = 0 ] || fail "to the guest's group: ${sent_joined:-?} delivered, $dropped_joined dropped"
[ "$sent_other" = 0 ] && [ "$dropped_other" -gt 0 ] || fail "to another group: ${sent_other:-?} delivered, $dropped_other dropped"
[ "$got" = "$sent_joined" ] || fail "the guest received ${got:-?} frames, the netback delivered $sent_joined"
pass "guest joined $joined: received all $got frames the netback delivered to it, none dropped; $dropped_other frames to $other dropped by the netback, none delivered"
