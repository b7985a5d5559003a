# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 5: our netfront PMD in a DomU against our netback in Dom0, both
# under dpdk-testpmd. Guest -> Dom0: the guest's txonly for XDP_RUN_SECS
# seconds into Dom0's rxonly. Then Dom0 -> guest: the guest switches to
# rxonly, Dom0's testpmd is restarted in txonly (so the backend also goes
# away and comes back under a guest that stays up) and sends for
# XDP_RUN_SECS. Each direction: nothing lost (what one side's testpmd
# counts as sent, the other counts as received) and Mpps.
. /host/scenarios/lib.sh
SECS=${XDP_RUN_SECS:-20}
domu=s5-dpdk
trap 'collect; cleanup' EXIT
vdev=$(ours_vdev $domu)
start_backend s5 rxonly --vdev $vdev
# the guest's rxonly outlasts Dom0's restart (12 s in CI runs) and txonly
# run; the scenario waits for its end, 6 s after the last frame
guest_cfg $domu initrd-dpdk.gz 256 "$(dpdk_vif_line)" "xdp.run=txonly:$SECS,rxonly:$((SECS + 60)):6"
create_guest $domu
wait_guest $domu 'DOMU-RESULT testpmd-txonly' $TESTPMD_PID
stop_testpmd
mv $S/testpmd.log $S/testpmd-rxonly.log
f2b_rx=$(port_count $S/testpmd-rxonly.log 0 RX)
f2b_tx=$(txonly_field tx)
f2b_secs=$(txonly_field secs)
note "guest->Dom0: guest sent ${f2b_tx:-?}, backend received ${f2b_rx:-?} in ${f2b_secs:-?}s"

dpdk_guest_up $domu rxonly
start_backend s5b txonly --vdev $vdev
sleep $SECS
stop_testpmd
b2f_tx=$(port_count $S/testpmd.log 0 TX)
t2=$(up)
wait_guest $domu DOMU-DONE
b2f_rx=$(sed -n 's/.*DOMU-RESULT testpmd-rxonly .*rx=\([0-9]*\).*/\1/p' $con)
grep -E 'DOMU-|xen_netfront' $con | head -40
note "Dom0->guest: backend sent ${b2f_tx:-?}, guest received ${b2f_rx:-?}"
[ "${f2b_tx:-0}" -gt 0 ] && [ "$f2b_tx" = "$f2b_rx" ] || fail "guest->Dom0: guest sent ${f2b_tx:-0}, backend received ${f2b_rx:-0}"
[ "${b2f_tx:-0}" -gt 0 ] && [ "$b2f_tx" = "$b2f_rx" ] || fail "Dom0->guest: backend sent ${b2f_tx:-0}, guest received ${b2f_rx:-0}"
mpps() { awk "BEGIN{printf \"%.3f\", $1 / $2 / 1e6}"; }
pass "guest->Dom0 $f2b_rx pkts $(mpps $f2b_rx $f2b_secs) Mpps; Dom0->guest $b2f_rx pkts $(mpps $b2f_rx $SECS) Mpps (64 B, TCG); backend restarted under a running guest"
