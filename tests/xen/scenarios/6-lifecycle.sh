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
#   3. xl destroy: the port lets the vif go (link down), nothing stays mapped.
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
start_backend s6 icmpecho --vdev $vdev
guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" \
	"xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=1000000 xdp.interval=0.05"
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
start_backend s6b icmpecho --vdev $vdev
flowing "after backend restart"
grep -E 'connected to' $S/testpmd.log | head -2

# 3. destroy
xl destroy $domu || fail "xl destroy"
wait_for 30 $S/testpmd.log 'vif removed by the toolstack' || fail "the port did not release the destroyed guest's vif"
m=$(backend_maps)
[ "$m" = 0 ] || fail "guest destroyed, yet the backend still maps $m pages"
stop_testpmd
pass "reboot (d$d1 -> d$d2), backend kill + restart, destroy: traffic resumed each time, nothing left mapped"
