# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 3: the kernel's pktgen in a stock Linux DomU sends 60-byte frames
# as fast as it can for XDP_PKTGEN_SECS seconds, first into our netback
# (testpmd rxonly), then, in the same boot and with the same guest image,
# into the kernel's own xen-netback (counted on the Dom0 end of the vif).
# Reports packets per second side by side: what the guest sent and what
# each backend received. Emulation speed (TCG): compare only within one boot.
. /host/scenarios/lib.sh
SECS=${XDP_PKTGEN_SECS:-20}
SIZE=${XDP_PKTGEN_SIZE:-60}
args="xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=0 xdp.pktgen=$SECS:$SIZE"
pps() { awk "BEGIN{printf \"%.0f\", $1 * 1000000 / $2}"; }

# ours
domu=s3-ours
trap 'collect; cleanup' EXIT
start_backend s3 rxonly --vdev $(ours_vdev $domu)
guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" "$args"
create_guest $domu
wait_guest $domu DOMU-DONE $TESTPMD_PID
grep -E 'DOMU-|pps' $con
stop_testpmd
sed -n '/Forward statistics for port 0/,/^ *+\{10,\}/p' $S/testpmd.log
set -- $(pktgen_result $domu); ours_sent=${1:-0} ours_usec=${2:-0}
ours_rx=$(port_count $S/testpmd.log 0 RX)
timeout 60 xl destroy $domu
[ "$ours_sent" -gt 0 ] && [ "$ours_usec" -gt 0 ] || fail "ours: pktgen sent nothing"
[ "${ours_rx:-0}" -gt 0 ] || fail "ours: testpmd received nothing of $ours_sent"

# the kernel's xen-netback, same guest image and arguments
kernel_netback
domu=s3-kernel
guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" "$args"
create_guest $domu
kernel_vif_up $domid 10.0.0.1/24
wait_guest $domu DOMU-DONE
grep -E 'DOMU-|pps' $con
set -- $(pktgen_result $domu); kern_sent=${1:-0} kern_usec=${2:-0}
kern_rx=$(cat /sys/class/net/vif$domid.0/statistics/rx_packets)
timeout 60 xl destroy $domu
[ "$kern_sent" -gt 0 ] && [ "$kern_usec" -gt 0 ] || fail "kernel: pktgen sent nothing"
[ "${kern_rx:-0}" -gt 0 ] || fail "kernel: vif$domid.0 received nothing of $kern_sent"

echo "| backend | guest sent | guest pps | backend received | received pps | received/sent |"
echo "|---|---|---|---|---|---|"
for b in ours kern; do
	eval "sent=\$${b}_sent usec=\$${b}_usec rx=\$${b}_rx"
	echo "| $b | $sent | $(pps $sent $usec) | $rx | $(pps $rx $usec) | $(awk "BEGIN{printf \"%.3f\", $rx / $sent}") |"
done | sed 's/^| kern /| kernel xen-netback /; s/^| ours /| ours (net_xen_netback) /'
pass "$SIZE-byte pktgen ${SECS}s: ours received $(pps $ours_rx $ours_usec) pps, kernel netback $(pps $kern_rx $kern_usec) pps (ratio $(awk "BEGIN{printf \"%.2f\", ($ours_rx / $ours_usec) / ($kern_rx / $kern_usec)}"))"
