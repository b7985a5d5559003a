# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 6: lifecycle. Our netback (testpmd icmpecho) claims the vif of a
# stock Linux guest by name (domain=s6-linux) while the guest pings it
# without end. Each step happens while traffic flows, and traffic must flow
# again afterwards:
#   1. xl reboot: the guest comes back under a new domain id; the port
#      follows it, and the old vif leaves nothing mapped in Dom0;
#   2. the backend testpmd is killed (no goodbye on xenstore) and started
#      again while the guest stays up: it re-attaches to the guest's rings;
#      the dead process held nothing the guest still sees pinned;
#   3. the backend, given on_close=detach, quits cleanly (SIGINT: testpmd
#      closes its port and exits 0) and is started again: the guest's pings
#      resume with nothing done in the guest, which sees only a pause:
#      neither end's xenbus state leaves Connected (4), read every ~0.2 s
#      from before the quit until traffic flows again, and the guest's
#      console (all kernel messages: ignore_loglevel) gets no line of its
#      netfront, vif, xenbus or eth0. The pause is reported: from the
#      SIGINT to the new backend's first received packet;
#   4. xl destroy: the port lets the vif go (link down), nothing stays mapped.
# "Mapped" is read twice: /dev/xen/gntdev mappings of the testpmd process,
# and the guest's grant entries Xen reports as active (xl debug-keys g).
. /host/scenarios/lib.sh
domu=s6-linux
trap 'collect; cleanup' EXIT
vdev=$(ours_vdev $domu)

# RX packets testpmd reported last (stats every second)
rx_now() { grep 'RX-packets:' $S/testpmd.log | tail -1 | awk '{print $2}'; }
# flowing <what>: the backend's RX count grows within 60 s
flowing() {
	a=$(rx_now); end=$(awk "BEGIN{print $(up)+60}")
	while awk "BEGIN{exit !($(up) < $end)}"; do
		sleep 2; b=$(rx_now)
		[ "${b:-0}" -gt $((${a:-0} + 5)) ] && { note "$1: traffic flows (RX $a -> $b)"; return 0; }
	done
	tail -20 $S/testpmd.log; tail -20 $CONSOLE_DIR/guest-$domu.log
	fail "$1: no traffic within 60 s"
}
# what the guest's kernel prints of its vif (step 3)
vif_lines() { grep -aiE 'netfront|xen_net|vif|xenbus|backend|eth0' $CONSOLE_DIR/guest-$domu.log; }
# sample_states <domid> <file>: "<uptime> <frontend state> <backend state>"
# of the guest's vif into <file> every ~0.2 s, in the background until
# killed ($SAMPLER_PID)
sample_states() {
	while :; do
		echo "$(up) $(xenstore-read /local/domain/$1/device/vif/0/state 2>/dev/null || echo -)" \
			"$(xenstore-read /local/domain/0/backend/vif/$1/0/state 2>/dev/null || echo -)"
		sleep 0.2
	done > $2 &
	SAMPLER_PID=$!
}

start_backend s6 icmpecho --vdev $vdev
guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" \
	"ignore_loglevel xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=1000000 xdp.interval=0.05"
create_guest $domu
d1=$(xl domid $domu)
flowing "first boot (domain $d1)"
m=$(backend_maps); g=$(active_grants $d1)
note "connected: backend gntdev mappings $m, active grants of d$d1: $g"
[ "$m" -ge 2 ] && [ "$g" -ge 2 ] || fail "connected, yet backend maps $m and d$d1 has $g active grants (want >= 2: the rings)"

# 1. reboot
t=$(up); xl reboot $domu || fail "xl reboot"
d2=$(wait_domid_change $domu $d1) || fail "the guest did not come back after xl reboot"
note "rebooted: domain $d1 -> $d2 after $(since $t)s"
flowing "after reboot (domain $d2)"
grep -q "vif removed by the toolstack" $S/testpmd.log || fail "the port never released the old vif"
xenstore-ls /local/domain/0/backend/vif/$d1 > /dev/null 2>&1 && fail "vif $d1 still in xenstore"
m=$(backend_maps); [ "$m" = 2 ] || fail "after reboot the backend maps $m pages, want 2 (the new rings)"

# 2. backend killed and restarted under the running guest
kill -9 $TESTPMD_PID; wait $TESTPMD_PID 2>/dev/null; TESTPMD_PID=
g=$(active_grants $d2)
note "backend killed: active grants of d$d2: $g"
[ "$g" = 0 ] || fail "backend process gone, yet d$d2 has $g grants in use"
mv $S/testpmd.log $S/testpmd-1.log
# detaching on close, for step 3 (a killed backend detaches anyway)
start_backend s6b icmpecho --vdev $vdev,on_close=detach
flowing "after backend restart"
grep -E 'connected to' $S/testpmd.log | head -2

# 3. clean quit and restart with on_close=detach: a pause, nothing more
con=$CONSOLE_DIR/guest-$domu.log
note "the guest's console has $(vif_lines | wc -l) lines of its vif so far (boot), e.g.:"
vif_lines | head -3
lines=$(wc -l < $con)
sample_states $d2 $S/states-detach.txt
sleep 1
t=$(up); stop_testpmd; t_down=$(up)
note "backend quit (SIGINT) after $(since $t)s: rc=$TESTPMD_RC"
[ "$TESTPMD_RC" = 0 ] || fail "testpmd did not exit by itself on SIGINT (rc=$TESTPMD_RC)"
grep -E 'detached' $S/testpmd.log || fail "the port did not detach on close"
mv $S/testpmd.log $S/testpmd-2.log
sleep 2
note "backend down: vif states (frontend backend) $(xenstore-read /local/domain/$d2/device/vif/0/state)" \
	"$(xenstore-read /local/domain/0/backend/vif/$d2/0/state)"
start_backend s6c icmpecho --vdev $vdev,on_close=detach
end=$(awk "BEGIN{print $(up)+60}")
until [ "$(port_pkts 0 RX)" -gt 0 ] 2>/dev/null; do
	awk "BEGIN{exit !($(up) < $end)}" || { kill $SAMPLER_PID; fail "restarted backend: no packet within 60 s"; }
	sleep 0.5
done
t_flow=$(up)
flowing "after detach + restart"
kill $SAMPLER_PID; wait $SAMPLER_PID 2>/dev/null
n=$(wc -l < $S/states-detach.txt)
down=$(awk -v a=$t_down -v b=$t_flow '$1 >= a && $1 <= b' $S/states-detach.txt | wc -l)
odd=$(awk '$2 != 4 || $3 != 4' $S/states-detach.txt)
note "vif states sampled $n times ($down between the quit and the first packet): $(awk '{print $2 "/" $3}' $S/states-detach.txt | sort | uniq -c | tr '\n' ' ')"
[ -z "$odd" ] || { echo "$odd" | head; fail "a vif state left Connected (4) across the detach + restart"; }
[ "$down" -gt 0 ] || fail "no state sample while the backend was down"
new_lines=$(tail -n +$((lines + 1)) $con | grep -aiE 'netfront|xen_net|vif|xenbus|backend|eth0')
[ -z "$new_lines" ] || { echo "$new_lines"; fail "the guest's kernel noticed: console lines of its vif after the restart"; }
pause=$(awk "BEGIN{printf \"%.1f\", $t_flow - $t}")
note "pause: ${pause}s from SIGINT to the new backend's first packet (quit $(awk "BEGIN{printf \"%.1f\", $t_down - $t}")s, down until the restart and its start-up, first packet at $t_flow; 1 s statistics)"

# 4. destroy
xl destroy $domu || fail "xl destroy"
wait_for 30 $S/testpmd.log 'vif removed by the toolstack' || fail "the port did not release the destroyed guest's vif"
m=$(backend_maps)
[ "$m" = 0 ] || fail "guest destroyed, yet the backend still maps $m pages"
stop_testpmd
pass "reboot (d$d1 -> d$d2), backend kill + restart, clean quit + restart detached (pause ${pause}s, vif states stayed 4/4 over $n samples), destroy: traffic resumed each time, nothing left mapped"
