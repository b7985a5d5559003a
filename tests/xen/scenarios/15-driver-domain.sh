# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 15: our netback in a driver domain, a DomU that serves other
# guests' vifs instead of Dom0. The driver domain (the DPDK image, created
# with driver_domain=1) runs 'xl devd' and xen-adaptive-fwd icmpecho on our
# netback's watcher vifs=*: it cannot read other guests' names (libxl
# lets only Dom0 and the guest read /local/domain/<id>/name), so it takes
# every vif the toolstack puts in its backend directory. A stock Linux
# guest's vif line names it: backend=s15-dd, with script=/bin/true (a vif
# of a DPDK port has no kernel interface to plug; devd runs the script).
#   1. the guest pings the driver domain's backend: every ping answered;
#   2. xl reboot: the guest comes back under a new domain id, the watcher
#      makes a port of its new vif, every ping answered again, and the old
#      vif's backend directory is gone (devd removed it for xl);
#   3. xl destroy of the driver domain with the guest connected: Dom0 and
#      the guest go on (what the guest's vif shows is reported);
#   4. a new driver domain: xl network-detach of the dead vif and
#      network-attach of a new one, which the new driver domain connects
#      (xenbus states; the guest's init configures no address on it, so no
#      ping checks the traffic there).
# Times (xl create, ports up, destroy) are reported, at TCG speed.
. /host/scenarios/lib.sh
COUNT=${XDP_PING_COUNT:-20}
DD=s15-dd GU=s15-linux MAC=00:16:3e:00:00:15
trap 'collect; cleanup' EXIT

# vif_states <guest domid>: the backend's and the frontend's state of its vif 0
vif_states() {
	echo "backend $(xenstore-read /local/domain/$dd/backend/vif/$1/0/state 2>/dev/null || echo gone)" \
		"frontend $(xenstore-read /local/domain/$1/device/vif/0/state 2>/dev/null || echo gone)"
}
# pings <label> <byte>: waits (240 s) for the guest's DOMU-DONE after that
# byte of its console (xenconsoled appends across a reboot) and judges the
# pings there (rtt_summary): a problem unless every one is answered once
pings() {
	end=$(awk "BEGIN{print $(up) + 240}")
	until tail -c +$2 $gcon 2>/dev/null | grep -q DOMU-DONE; do
		if ! awk "BEGIN{exit !($(up) < $end)}"; then
			tail -20 $gcon; problem "$1: no DOMU-DONE from $GU in 240 s"; return
		fi
		sleep 1
	done
	tail -c +$2 $gcon > $S/guest-$1.log
	rtt_summary $S/guest-$1.log $COUNT
	note "$1: $ANSWERED/$COUNT answered, $DUPS duplicates; rtt $RTT_LINE"
	[ "$ANSWERED" = "$COUNT" ] && [ "$DUPS" = 0 ] ||
		problem "$1: $ANSWERED/$COUNT pings answered, $DUPS duplicates"
}

t0=$(up)
guest_cfg $DD initrd-dpdk.gz 512 "driver_domain = 1" "xdp.devd=1 xdp.fwd=icmpecho"
create_guest $DD
dd=$domid
wait_guest $DD 'DOMU-FWD rx-pps'
dcon=$con
note "driver domain $DD (domain $dd): xl devd and xen-adaptive-fwd up $(since $t0)s after its xl create"

# 1. a guest whose vif's backend is the driver domain
gcon=$CONSOLE_DIR/guest-$GU.log
guest_cfg $GU initrd.gz 128 "vif = [ 'backend=$DD,script=/bin/true,mac=$MAC' ]" \
	"xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=$COUNT xdp.interval=0.2 xdp.rtt=1"
create_guest $GU
g1=$domid
note "guest $GU (domain $g1): $(vif_states $g1)"
pings first 1

# 2. xl reboot: a new domain, a new vif, a new port
from=$(($(wc -c < $gcon) + 1))
t=$(up); xl reboot $GU || fail "xl reboot $GU"
g2=$(wait_domid_change $GU $g1) || fail "$GU did not come back after xl reboot"
note "rebooted: domain $g1 -> $g2 after $(since $t)s; $(vif_states $g2)"
pings reboot $from
old=$(xenstore-read /local/domain/$dd/backend/vif/$g1/0/state 2>/dev/null) &&
	problem "the rebooted guest's old vif is still in the driver domain (state $old)"
grep 'DOMU-FWD' $dcon | grep -E 'vif|port|InitWait|Connected|removed|rror' | tail -12

# 3. the driver domain destroyed under the connected guest
t=$(up); timeout 60 xl destroy $DD; rc=$?
note "xl destroy $DD rc=$rc after $(since $t)s; then $(vif_states $g2)"
[ $rc = 0 ] || problem "xl destroy $DD rc=$rc"
sleep 5
xl list | grep -q "^$GU " || problem "$GU went with its driver domain"
note "5 s later: $(vif_states $g2); xl list: $(xl list | awk 'NR > 1 { printf "%s ", $1 }')"

# 4. a new driver domain: xl does not move the guest's vif to it; the
# operator detaches the dead one and attaches a new one
t=$(up)
create_guest $DD
dd=$domid
wait_guest $DD 'DOMU-FWD rx-pps'
note "new driver domain (domain $dd) up after $(since $t)s; the guest's vif 0: $(vif_states $g2), backend-id $(xenstore-read /local/domain/$g2/device/vif/0/backend-id 2>&1)"
t=$(up)
timeout 60 xl network-detach $GU 0
rc=$?
note "xl network-detach $GU 0 rc=$rc after $(since $t)s"
[ $rc = 0 ] || problem "xl network-detach of the dead driver domain's vif rc=$rc"
t=$(up); timeout 60 xl network-attach $GU backend=$DD script=/bin/true mac=$MAC; rc=$?
note "xl network-attach rc=$rc after $(since $t)s"
[ $rc = 0 ] || problem "xl network-attach to the new driver domain rc=$rc"
i=0; while [ $i -lt 30 ] && [ "$(vif_states $g2)" != "backend 4 frontend 4" ]; do sleep 1; i=$((i + 1)); done
note "the guest's new vif: $(vif_states $g2) after ${i}s (backend-id $(xenstore-read /local/domain/$g2/device/vif/0/backend-id 2>&1))"
[ "$(vif_states $g2)" = "backend 4 frontend 4" ] || problem "the new driver domain did not connect the guest's new vif"
grep 'DOMU-FWD' $dcon | grep -E 'vif|Connected' | tail -4
t=$(up); timeout 60 xl destroy $GU; rc=$?
note "xl destroy $GU rc=$rc after $(since $t)s"
[ $rc = 0 ] || problem "xl destroy $GU rc=$rc"
[ -z "$problems" ] || fail "$problems"
pass "a driver domain's netback (vifs=*, xl devd): $COUNT/$COUNT pings answered, and again after xl reboot (domain $g1 -> $g2); the driver domain destroyed under the guest, which went on; a new driver domain connected the vif xl network-attach gave it; whole scenario $(since $t0)s"
