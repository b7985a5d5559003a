# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 5q: scenario 5s's pair with two queue pairs. Our netfront in a
# DPDK guest (queues=2, testpmd --rxq=2 --txq=2, txonly for XDP_RUN_SECS,
# default 10) into our netback in Dom0 (queues=2, testpmd rxonly with 2 Rx
# queues). Two pairs share at least 1028 pages (1547 with zero-copy pools,
# static grants and the hash pages), past the 1024 that the guest's stock
# xen_gntalloc allows by default: the netfront, root in the guest, must
# raise the limit and say so. testpmd's two Rx queues ask for RSS: the netfront configures
# the backend's hash over the control ring and says the backend took it.
# Then: xenstore shows multi-queue-num-queues=2,
# each of Dom0's Rx queues received frames, and per queue and in total Dom0
# received exactly what the guest sent.
. /host/scenarios/lib.sh
SECS=${XDP_RUN_SECS:-10}
domu=s5q-dpdk
vif=/local/domain/0/backend/vif
trap 'collect; cleanup' EXIT
# stream_count <log> <queue> RX|TX: a queue's packets in testpmd's final
# per-stream statistics ("Forward Stats for RX Port= 0/Queue= 1 -> ...")
stream_count() {
	sed -n "/Forward Stats for RX Port= *0\/Queue= *$2 /{n;s/.*$3-packets: *\([0-9]*\).*/\1/p}" $1 | head -1
}
last_xstat() { grep -E "^ +$1 " $S/testpmd.log | tail -1 | awk '{print $2}'; }

BACKEND_APP_ARGS="--rxq=2 --txq=2 --display-xstats=rx_q0_packets,rx_q1_packets"
start_backend s5q rxonly --vdev "$(ours_vdev $domu),queues=2"
guest_cfg $domu initrd-dpdk.gz 256 "$(dpdk_vif_line)" "xdp.run=txonly:$SECS xdp.queues=2"
create_guest $domu
dpdk_guest_up $domu txonly $TESTPMD_PID
# the frontend's keys, read while it is connected (they go when it closes)
i=0
while [ "$(xenstore-read /local/domain/$domid/device/vif/0/multi-queue-num-queues 2>/dev/null)" != 2 ] && [ $i -lt 40 ]; do
	sleep 0.5; i=$((i + 1))
done
xenstore-ls -f /local/domain/$domid/device/vif/0 > $S/xenstore-frontend.txt 2>&1
xenstore-ls -f $vif/$domid/0 > $S/xenstore-backend.txt 2>&1
asked=$(xenstore-read /local/domain/$domid/device/vif/0/multi-queue-num-queues 2>/dev/null)
offered=$(xenstore-read $vif/$domid/0/multi-queue-max-queues 2>/dev/null)
note "xenstore: backend multi-queue-max-queues=${offered:-none}, frontend multi-queue-num-queues=${asked:-none}"
grep -E 'multi-queue|queue-[0-9]+/(tx|rx)-ring-ref|event-channel' $S/xenstore-frontend.txt

wait_guest $domu 'DOMU-RESULT testpmd-txonly' $TESTPMD_PID
# let Dom0's 1 s statistics show the last frames before it stops
sleep 2
stop_testpmd
grep -E 'DOMU-' $con
grep -E 'xen_netback' $S/testpmd.log | head -20
sed -n '/Forward Stats for RX/,/^ *+\{10,\}/p' $S/testpmd.log | grep -v '^ *$'

[ "$asked" = 2 ] || fail "the guest asked for ${asked:-no} queue pairs (multi-queue-num-queues), not 2"
grep -q 'connected to .*: 2 of 2 queue pairs' $S/testpmd.log || fail "no '2 of 2 queue pairs' in the backend log"
raised=$(grep -o 'grant limit raised from [0-9]* to [0-9]* for [0-9]* queue pairs' $con | head -1)
lim=$(sed -n 's/.*DOMU-GNTALLOC-LIMIT after-txonly \([0-9a-z]*\).*/\1/p' $con | head -1)
lim0=$(sed -n 's/.*DOMU-GNTALLOC-LIMIT boot \([0-9a-z]*\).*/\1/p' $con | head -1)
note "guest's gntalloc limit: ${lim0:-?} at boot, ${lim:-?} after testpmd; netfront: ${raised:-no 'raised' line}"
[ -n "$raised" ] || { grep -E 'DOMU-NETFRONT' $con; fail "the netfront did not log raising the grant limit"; }
[ "${lim:-0}" -ge 1028 ] 2>/dev/null || fail "the guest's gntalloc limit is ${lim:-unknown} after testpmd, below 1028"

hashed=$(grep -o 'the backend takes our hash: Toeplitz over hash types 0x[0-9a-f]*' $con | head -1)
grep -E 'the backend (takes our hash|refused)' $con | head -3
[ -n "$hashed" ] || fail "the netfront did not log that the backend took its hash (testpmd --rxq=2 asks for RSS)"

sent=$(txonly_field tx)
secs=$(txonly_field secs)
got=$(port_count $S/testpmd.log 0 RX)
g0=$(stream_count $con 0 TX) g1=$(stream_count $con 1 TX)
r0=$(stream_count $S/testpmd.log 0 RX) r1=$(stream_count $S/testpmd.log 1 RX)
x0=$(last_xstat rx_q0_packets) x1=$(last_xstat rx_q1_packets)
note "guest sent ${sent:-?} (queue 0 ${g0:-?}, queue 1 ${g1:-?}); Dom0 received ${got:-?} (queue 0 ${r0:-?}, queue 1 ${r1:-?}; xstats ${x0:-?}, ${x1:-?}) in ${secs:-?}s"
[ "${r0:-0}" -gt 0 ] && [ "${r1:-0}" -gt 0 ] || fail "frames per Rx queue in Dom0: q0=${r0:-none} q1=${r1:-none}"
[ "${sent:-0}" -gt 0 ] && [ "$sent" = "$got" ] || fail "guest sent ${sent:-0}, Dom0 received ${got:-0}"
[ "$g0" = "$r0" ] && [ "$g1" = "$r1" ] || fail "per queue: guest sent $g0 + $g1, Dom0 received $r0 + $r1"
mpps() { awk "BEGIN{printf \"%.3f\", $1 / $2 / 1e6}"; }
pass "guest's gntalloc $raised; multi-queue-num-queues=2; ${hashed#the }; guest->Dom0 $got pkts, none lost: Rx queue 0 $r0, queue 1 $r1; $(mpps $got $secs) Mpps (64 B, TCG)"
