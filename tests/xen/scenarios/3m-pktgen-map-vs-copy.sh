# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 3m (exploratory, not in CI: issue 31's table by frame size): a
# stock Linux guest's kernel pktgen into our netback (testpmd rxonly) at
# each size of XDP_MAP_SIZES (default 64/256/1024/1500), XDP_PKTGEN_SECS
# seconds each (default 10), first with the guest's packets copied
# (tx_map_min=0, the default), then mapped (tx_map_min=1: every packet the
# netback lends, 256 bytes and more), then into the kernel's xen-netback;
# one boot, one guest each. The guest's pktgen waits on its full TX ring,
# so it sends at the backend's pace: its pps is each backend's. For ours,
# the port's counters are read after each size (the guest pauses 5 s
# between sizes) and give the hypercalls per packet of each path: grant-copy
# calls, gntdev maps and unmaps, notifications sent. Fails if ours
# received fewer packets than the guest sent, or a mapping was refused.
. /host/scenarios/lib.sh
SECS=${XDP_PKTGEN_SECS:-10}
SIZES=${XDP_MAP_SIZES:-64/256/1024/1500}
args="xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=0 xdp.pktgen=$SECS:$SIZES"
trap 'collect; cleanup; rmmod xen-netback 2>/dev/null' EXIT

# xstat <file> <name>: the counter of queue 0 in a telemetry dump
xstat() { grep -o "\"rx_q0_$2\": [0-9]*" $1 | awk '{ print $2 }'; }
# per <count> <packets>: count per packet, 3 places
per() { awk -v c=$1 -v p=$2 'BEGIN { if (p > 0) printf "%.3f", c / p; else print "-" }'; }

# ours <how> <tx_map_min>: the guest's pktgen at every size into our
# netback; rows of $S/table-<how>.txt: size pps packets calls/packet
# maps/packet unmaps/packet notifications/packet
ours() {
	how=$1 domu=s3m-$1
	start_backend s3m-$how rxonly --vdev $(ours_vdev $domu),tx_map_min=$2
	guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" "$args"
	create_guest $domu
	prev=$S/xstats-$how-0.txt
	: > $prev
	for s in $(echo $SIZES | tr / ' '); do
		wait_guest $domu "DOMU-RESULT pktgen size=$s " $TESTPMD_PID
		cur=$S/xstats-$how-$s.txt
		printf '/ethdev/xstats,0\n' | dpdk-telemetry.py -f s3m-$how > $cur 2>&1
		d() { echo $(($(xstat $cur $1) - $(xstat $prev $1 | grep . || echo 0))); }
		set -- $(grep "DOMU-RESULT pktgen size=$s " $con | sed 's/.*sent=\([0-9]*\) usec=\([0-9]*\).*/\1 \2/')
		pk=$(d packets)
		[ "$(d map_failed)" = 0 ] || problem "$domu $s B: $(d map_failed) mappings refused"
		echo "$s $(pps $1 $2) $1 $pk $(per $(d grant_copy_calls) $pk) $(per $(d map_calls) $pk)" \
			"$(per $(d unmaps) $pk) $(per $(d notifications_sent) $pk) $(d map_packets)" >> $S/table-$how.txt
		prev=$cur
	done
	wait_guest $domu DOMU-DONE $TESTPMD_PID
	stop_testpmd
	mv $S/testpmd.log $S/testpmd-$how.log
	timeout 60 xl destroy $domu
	# every packet the guest sent reached testpmd (the ring holds it back,
	# nothing may be lost); a few more: the guest's ARP and IPv6 packets
	sent=$(sed -n 's/.*DOMU-RESULT pktgen .*sent=\([0-9]*\).*/\1/p' $con | awk '{ n += $1 } END { print n + 0 }')
	got=$(port_count $S/testpmd-$how.log 0 RX)
	[ "${got:-0}" -ge "$sent" ] || problem "$domu: testpmd received ${got:-0} of the $sent packets sent"
	note "$domu: guest sent $sent, testpmd received ${got:-0}"
}
ours copy 0
ours map 1

# the kernel's xen-netback, same guest image and arguments
modprobe xen-netback || fail "modprobe xen-netback"
domu=s3m-kernel
KERNEL_VIF=1 guest_pktgen $domu "$args"
timeout 60 xl destroy $domu

echo "| size B | copy pps | mapped pps | kernel pps | mapped/copy | copy/kernel | mapped/kernel | copy: copy calls/pkt | mapped: copy calls/pkt | mapped: maps/pkt | mapped: unmaps/pkt | notifications/pkt copy, mapped | mapped packets |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
summary=
for s in $(echo $SIZES | tr / ' '); do
	set -- $(grep "^$s " $S/table-copy.txt); c_pps=$2 c_calls=$5 c_ntf=$8
	set -- $(grep "^$s " $S/table-map.txt); m_pps=$2 m_calls=$5 m_maps=$6 m_unmaps=$7 m_ntf=$8 m_pk=$4 m_mapped=$9
	k_pps=$(grep "DOMU-RESULT pktgen size=$s " $CONSOLE_DIR/guest-s3m-kernel.log | sed 's/.*sent=\([0-9]*\) usec=\([0-9]*\).*/\1 \2/' | { read n u; pps $n $u; })
	echo "| $s | $c_pps | $m_pps | $k_pps | $(ratio $m_pps $c_pps) | $(ratio $c_pps $k_pps) | $(ratio $m_pps $k_pps) | $c_calls | $m_calls | $m_maps | $m_unmaps | $c_ntf, $m_ntf | $m_mapped/$m_pk |"
	summary="$summary${summary:+; }$s B mapped/copy $(ratio $m_pps $c_pps) ($m_pps/$c_pps pps, kernel $k_pps)"
done
[ -z "$problems" ] || fail "$problems; $summary"
pass "pktgen ${SECS}s a size: $summary (TCG)"
