# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 7: multi-queue. A stock Linux DomU with 2 vCPUs (its xen-netfront
# asks for one queue pair per vCPU) against our netback offering queues=2,
# under testpmd icmpecho with 2 Rx and 2 Tx queues. The guest must connect
# both pairs; its pings must all be answered; then its pktgen spreads UDP
# frames over both of its TX queues, and each of our Rx queues must get some.
# Runs in Dom0; sourced by run.sh with NAME and S set.
. /host/scenarios/lib.sh
COUNT=${XDP_PING_COUNT:-200}
domu=s7-linux
# last_xstat <name>: the value in testpmd's last stats block
last_xstat() { grep -E "^ +$1 " $S/testpmd.log | tail -1 | awk '{print $2}'; }

trap 'collect; cleanup' EXIT
BACKEND_APP_ARGS="--rxq=2 --txq=2 --display-xstats=rx_q0_packets,rx_q1_packets,tx_q0_packets,tx_q1_packets"
start_backend s7 icmpecho --vdev "$(ours_vdev $domu),queues=2"
GUEST_VCPUS=2 guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" \
	"xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=$COUNT xdp.interval=0.01 xdp.pktgen=5:60:2"
create_guest $domu
asked=$(xenstore-read /local/domain/$domid/device/vif/0/multi-queue-num-queues 2>/dev/null)
wait_guest $domu DOMU-DONE $TESTPMD_PID
grep -E 'DOMU-|packets transmitted' $con
stop_testpmd
sed -n '/Forward statistics for port 0/,/^ *+\{10,\}/p' $S/testpmd.log | tail -12
grep -E 'xen_netback' $S/testpmd.log | head -20

# The guest may still be connecting when read first: its log says too.
[ "$asked" = 2 ] || asked=$(sed -n 's/.*connected to .*: \([0-9]*\) of 2 queue pairs.*/\1/p' $S/testpmd.log | tail -1)
[ "$asked" = 2 ] || fail "the guest connected ${asked:-no} queue pairs, not 2"
grep -q 'connected to .*: 2 of 2 queue pairs' $S/testpmd.log || fail "no '2 of 2 queue pairs' in the backend log"
grep -q 'DOMU-RESULT arp=ok' $con || fail "ARP for 10.0.0.1 not resolved"
res=$(grep 'DOMU-RESULT ping' $con)
tx=$(echo "$res" | sed -n 's/.*transmitted=\([0-9]*\).*/\1/p')
rx=$(echo "$res" | sed -n 's/.*received=\([0-9]*\).*/\1/p')
[ "$tx" = "$COUNT" ] && [ "$rx" = "$COUNT" ] || fail "ping: transmitted=$tx received=$rx of $COUNT"
q0=$(last_xstat rx_q0_packets) q1=$(last_xstat rx_q1_packets)
[ "${q0:-0}" -gt 0 ] && [ "${q1:-0}" -gt 0 ] || fail "frames per Rx queue: q0=${q0:-none} q1=${q1:-none}"
pass "2 queue pairs connected; $rx/$COUNT echo replies; Rx queue 0 got $q0 frames, queue 1 $q1"
