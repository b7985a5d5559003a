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

# ours
domu=s3-ours
trap 'collect; cleanup' EXIT
start_backend s3 rxonly --vdev $(ours_vdev $domu)
guest_pktgen $domu "$args" $TESTPMD_PID
ours_sent=$PG_SENT ours_usec=$PG_USEC
stop_testpmd
sed -n '/Forward statistics for port 0/,/^ *+\{10,\}/p' $S/testpmd.log
ours_rx=$(port_count $S/testpmd.log 0 RX)
timeout 60 xl destroy $domu
[ "$ours_sent" -gt 0 ] && [ "$ours_usec" -gt 0 ] || fail "ours: pktgen sent nothing"
[ "${ours_rx:-0}" -gt 0 ] || fail "ours: testpmd received nothing of $ours_sent"

# the kernel's xen-netback, same guest image and arguments
kernel_netback
domu=s3-kernel
KERNEL_VIF=1 guest_pktgen $domu "$args"
kern_sent=$PG_SENT kern_usec=$PG_USEC kern_rx=$(vif_rx $domid)
timeout 60 xl destroy $domu
[ "$kern_sent" -gt 0 ] && [ "$kern_usec" -gt 0 ] || fail "kernel: pktgen sent nothing"
[ "${kern_rx:-0}" -gt 0 ] || fail "kernel: vif$domid.0 received nothing of $kern_sent"

echo "| backend | guest sent | guest pps | backend received | received pps | received/sent |"
echo "|---|---|---|---|---|---|"
pktgen_row "ours (net_xen_netback)" $ours_sent $ours_usec $ours_rx
pktgen_row "kernel xen-netback" $kern_sent $kern_usec $kern_rx
pass "$SIZE-byte pktgen ${SECS}s: ours received $(pps $ours_rx $ours_usec) pps, kernel netback $(pps $kern_rx $kern_usec) pps (ratio $(awk "BEGIN{printf \"%.2f\", ($ours_rx / $ours_usec) / ($kern_rx / $kern_usec)}"))"
