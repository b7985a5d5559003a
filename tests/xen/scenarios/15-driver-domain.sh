# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 15: our netback in a driver domain, a DomU that serves other
# guests' vifs instead of Dom0. The driver domain (the DPDK image, created
# with driver_domain=1) runs 'xl devd' and xen-adaptive-fwd --mode io --gso on
# our netback's watcher vifs=*: it cannot read other guests' names (libxl
# lets only Dom0 and the guest read /local/domain/<id>/name), so it takes
# every vif the toolstack puts in its backend directory, and io forwards
# between its first two ports: the two guests' vifs, in the order they
# came. Two stock Linux guests' vif lines name it: backend=s15-dd, with
# script=/bin/true (a vif of a DPDK port has no kernel interface to plug;
# devd runs the script).
#   1. guest A serves iperf3; guest B pings A, then runs iperf3 to A and
#      from A (-R) for $SECS s each: every request answered once, both
#      runs complete;
#   2. the backend process restarted inside the driver domain: killed
#      (SIGKILL, as a crash ends it: nothing said on xenstore) and started
#      again by the driver domain's init, asked through xenstore
#      (data/fwd); both guests' vifs stay Connected, untold, and the new
#      process takes them over;
#   3. xl reboot of B: B comes back under a new domain id, the watcher
#      makes a port of its new vif (port ids are reused: io pairs it with
#      A's, which the restarted process took over), and B's pings and
#      iperf3 runs go through again; the old vif's backend directory is
#      gone (devd removed it for xl);
#   4. xl destroy of the driver domain with both guests connected: Dom0 and
#      the guests go on (what their vifs show is reported);
#   5. a new driver domain: xl network-detach of each guest's dead vif
#      and network-attach of a new one, which the new driver domain
#      connects, and B's pings to A over the new vifs all answered;
#   6. with XDP_COMPARE=1, in the same boot: the kernel's netback in a Linux
#      driver domain (the same image, driver_domain=1, with xdp.knb=1:
#      xen-netback, its vifs in a bridge, and xl devd), serving the same
#      two guests (the same configs but for backend=s15-kdd) and the
#      same traffic as in 1, judged the same, with both vifs Connected.
# Reported, never judged (TCG speed): times (xl create, ports up,
# destroy), rtts, iperf3's Mbit/s each way, and for each run the driver
# domain's CPU seconds (xl list's Time(s), read when Dom0 sees B's
# result lines; they include the cost of its per-second pps line) and
# packets per second: the median of its per-second rx-pps lines (the
# packets its backend took from both guests, data and acknowledgements,
# a GSO packet counting once: both offer the guests GSO, ours as
# xen-adaptive-fwd --gso enables LRO and TSO)
# printed during the run, over the seconds with at least a tenth of the
# run's peak, the first and last left out (lib.sh's median_rate); the
# run's and the lines' times are Xen's wall clock, which every domain
# reads; and the maptrack frames each driver domain holds with both
# guests connected (Xen's 'g' debug key). The pass line puts 1 (ours) and
# 6 (the kernel's) side by side.
. /host/scenarios/lib.sh
COUNT=${XDP_PING_COUNT:-20}
REATTACH_COUNT=10
SECS=${XDP_IPERF_SECS:-5}
DD=s15-dd KDD=s15-kdd A=s15-a B=s15-b MAC_A=00:16:3e:00:00:15 MAC_B=00:16:3e:00:00:16
trap 'collect; cleanup' EXIT

# vif_states <guest domid>: the backend's and the frontend's state of its vif 0
vif_states() {
	echo "backend $(xenstore-read /local/domain/$dd/backend/vif/$1/0/state 2>/dev/null || echo gone)" \
		"frontend $(xenstore-read /local/domain/$1/device/vif/0/state 2>/dev/null || echo gone)"
}
# dd_cpu: the driver domain's ($ddn's) CPU seconds so far (xl list's Time(s))
dd_cpu() { xl list $ddn 2>/dev/null | awk 'NR == 2 { print $NF }'; }
# next_byte <file>: where what is appended to the file next will start
next_byte() { echo $(($(cat $1 2>/dev/null | wc -c) + 1)); }
# dd_pps <B's console> send|recv: the median per-second rx-pps the driver
# domain printed on its console ($dcon) during that iperf3 run of B's, by
# the wall clock (in seconds) both stamp their lines with
dd_pps() {
	set -- $(sed -n "s/.*DOMU-IPERF-TIME $2 start=\([0-9]*\) end=\([0-9]*\).*/\1 \2/p" $1)
	sed -n 's/.*DOMU-PPS \([0-9]*\) rx-pps \([0-9]*\).*/\1 \2/p' $dcon |
		awk -v s=${1:-0} -v e=${2:-0} '$1 > s && $1 <= e { print $2 }' | median_rate
}
# console_after <guest> <byte> <regex>: waits (XDP_DOMU_LIMIT s, default
# 400) for a line of the guest's console after that byte (xenconsoled
# appends across a reboot)
console_after() {
	WAIT_FROM=$2 wait_for ${XDP_DOMU_LIMIT:-400} $CONSOLE_DIR/guest-$1.log "$3" || {
		tail -20 $CONSOLE_DIR/guest-$1.log; fail "$1: no '$3' within ${XDP_DOMU_LIMIT:-400} s"; }
}
# traffic <label> <byte>: B's pings and iperf3 runs to A after that byte
# of B's console, judged; the driver domain's CPU seconds and pps over
# each run, all in $<label>_line
traffic() {
	console_after $B $2 'DOMU-RESULT ping'
	c0=$(dd_cpu)
	console_after $B $2 'DOMU-RESULT iperf-send'
	c1=$(dd_cpu)
	console_after $B $2 'DOMU-DONE'
	c2=$(dd_cpu)
	tail -c +$2 $CONSOLE_DIR/guest-$B.log > $S/guest-$B-$1.log
	rtt_summary $S/guest-$B-$1.log $COUNT
	note "$1: $ANSWERED/$COUNT answered, $DUPS duplicates; rtt $RTT_LINE"
	[ "$ANSWERED" = "$COUNT" ] && [ "$DUPS" = 0 ] ||
		problem "$1: $ANSWERED/$COUNT pings answered, $DUPS duplicates"
	for dir in send recv; do
		r=$(grep "DOMU-RESULT iperf-$dir" $S/guest-$B-$1.log | head -1)
		m=$(iperf_mbits "$r")
		[ -n "$m" ] || problem "$1: iperf3 $dir: ${r:-no result}"
		eval "mbits_$dir=\${m:--}"
	done
	med=$(echo "$RTT_LINE" | sed -n 's/.*median \([0-9.]*\).*/\1/p')
	line="ping $ANSWERED/$COUNT, rtt median ${med:--} ms;"
	line="$line B->A $mbits_send Mbit/s, $(dd_pps $S/guest-$B-$1.log send) pps, CPU $(awk "BEGIN{print $c1 - $c0}") s;"
	line="$line A->B $mbits_recv Mbit/s, $(dd_pps $S/guest-$B-$1.log recv) pps, CPU $(awk "BEGIN{print $c2 - $c1}") s"
	note "$1 ($ddn, iperf3 runs of ${SECS} s; pps and CPU seconds the driver domain's): $line"
	eval "${1}_line=\$line"
}
# guests <driver domain>: A, which serves iperf3, and B, which pings A and
# runs iperf3 to it, their vifs served by that driver domain (A's first:
# port 0 in ours); their domain ids in $ga and $gb, and in $from the byte
# of B's console where this B's lines start
guests() {
	from=$(next_byte $CONSOLE_DIR/guest-$A.log)
	guest_cfg $A initrd.gz 128 "vif = [ 'backend=$1,script=/bin/true,mac=$MAC_A' ]" \
		"xdp.ip=10.0.0.2/24 xdp.count=0 xdp.iperfd=$((SECS + 300)):4 xdp.reattach=0"
	create_guest $A
	ga=$domid
	console_after $A $from DOMU-IPERFD
	from=$(next_byte $CONSOLE_DIR/guest-$B.log)
	guest_cfg $B initrd.gz 128 "vif = [ 'backend=$1,script=/bin/true,mac=$MAC_B' ]" \
		"xdp.ip=10.0.0.3/24 xdp.peer=10.0.0.2 xdp.count=$COUNT xdp.interval=0.2 xdp.rtt=1 xdp.iperf=10.0.0.2:$SECS xdp.reattach=$REATTACH_COUNT"
	create_guest $B
	gb=$domid
	note "guests $A (domain $ga), $B (domain $gb): $(vif_states $ga); $(vif_states $gb)"
}
# grants <label>: what the driver domain ($dd) holds of Xen's grant
# table limits with the two guests connected, from Xen's 'g' debug key:
# its maptrack frames (each tracks 256 of its mappings of guests' pages)
# against their maximum, reported
grants() {
	g=$(gkey_dump | awk -v d="grant-table for remote d$dd " \
		'index($0, d) { f = 1; next } f { sub(/^.*\] +/, ""); print; exit }')
	note "$1 ($ddn, domain $dd) with both guests connected, Xen's 'g' key: ${g:-no line for d$dd}"
}
# destroy <domain>...: xl destroy of each, bounded, rc judged
destroy() {
	for g in "$@"; do
		t=$(up); timeout 60 xl destroy $g; rc=$?
		note "xl destroy $g rc=$rc after $(since $t)s"
		[ $rc = 0 ] || problem "xl destroy $g rc=$rc"
	done
}

# driver_domain <name> <init args> <ready regex> <what>: the driver
# domain created and up (its id in $dd, its console in $dcon)
driver_domain() {
	t=$(up)
	guest_cfg $1 initrd-dpdk.gz 512 "driver_domain = 1" "$2"
	create_guest $1
	dd=$domid ddn=$1
	wait_guest $1 "$3"
	dcon=$con
	note "driver domain $1 (domain $dd): $4 up $(since $t)s after its xl create"
}

t0=$(up)
driver_domain $DD "xdp.devd=1 xdp.fwd=io" 'DOMU-FWD rx-pps' "xl devd and xen-adaptive-fwd"

# 1. A serves, B pings and sends to it and receives from it, through the
# driver domain
guests $DD
g1=$gb
traffic first $from
grants "ours"

# 2. the forwarder killed in the driver domain and started again; the
# vifs stay Connected on both ends while it is away
from=$(($(wc -c < $dcon) + 1))
t=$(up); xenstore-write /local/domain/$dd/data/fwd kill || fail "xenstore-write data/fwd"
console_after $DD $from 'DOMU-FWD-KILLED'
states="A: $(vif_states $ga), B: $(vif_states $g1)"
console_after $DD $from 'DOMU-FWD rx-pps'
note "forwarder killed and up again after $(since $t)s; right after the kill $states; now A: $(vif_states $ga), B: $(vif_states $g1)"
[ "$states" = "A: backend 4 frontend 4, B: backend 4 frontend 4" ] ||
	problem "the vifs left Connected while the forwarder was away ($states)"
tail -c +$from $dcon | grep 'DOMU-FWD' | grep -E 'vif|port|InitWait|Connected|rror' | tail -6

# 3. xl reboot of B: a new domain, a new vif, a new port paired with A's
from=$(($(wc -c < $CONSOLE_DIR/guest-$B.log) + 1))
t=$(up); xl reboot $B || fail "xl reboot $B"
g2=$(wait_domid_change $B $g1) || fail "$B did not come back after xl reboot"
note "rebooted: domain $g1 -> $g2 after $(since $t)s; $(vif_states $g2)"
traffic reboot $from
old=$(xenstore-read /local/domain/$dd/backend/vif/$g1/0/state 2>/dev/null) &&
	problem "the rebooted guest's old vif is still in the driver domain (state $old)"
grep 'DOMU-FWD' $dcon | grep -E 'vif|port|InitWait|Connected|removed|rror' | tail -12

# 4. the driver domain destroyed under the connected guests
t=$(up); timeout 60 xl destroy $DD; rc=$?
note "xl destroy $DD rc=$rc after $(since $t)s; then A: $(vif_states $ga), B: $(vif_states $g2)"
[ $rc = 0 ] || problem "xl destroy $DD rc=$rc"
sleep 5
for g in $A $B; do xl list | grep -q "^$g " || problem "$g went with its driver domain"; done
note "5 s later: A: $(vif_states $ga), B: $(vif_states $g2); xl list: $(xl list | awk 'NR > 1 { printf "%s ", $1 }')"

# 5. a new driver domain: xl does not move a guest's vif to it; the
# operator detaches each guest's dead vif and attaches a new one (A's
# first: port 0 again), which the new driver domain connects; B's init
# addresses its new eth0 and pings A over them (xdp.reattach)
# (its console goes on in the same file: waits for a line after the old
# driver domain's)
from=$(next_byte $dcon)
t=$(up)
create_guest $DD
dd=$domid
console_after $DD $from 'DOMU-FWD rx-pps'
note "new driver domain (domain $dd) up after $(since $t)s; B's vif 0: $(vif_states $g2), backend-id $(xenstore-read /local/domain/$g2/device/vif/0/backend-id 2>&1)"
console_after $A 1 'DOMU-DONE'
fromb=$(next_byte $CONSOLE_DIR/guest-$B.log)
for g in $A $B; do
	case $g in $A) id=$ga mac=$MAC_A ;; *) id=$g2 mac=$MAC_B ;; esac
	t=$(up)
	timeout 60 xl network-detach $g 0
	rc=$?
	note "xl network-detach $g 0 rc=$rc after $(since $t)s"
	[ $rc = 0 ] || problem "xl network-detach of $g's dead driver domain's vif rc=$rc"
	t=$(up); timeout 60 xl network-attach $g backend=$DD script=/bin/true mac=$mac; rc=$?
	note "xl network-attach $g rc=$rc after $(since $t)s"
	[ $rc = 0 ] || problem "xl network-attach of $g to the new driver domain rc=$rc"
	i=0; while [ $i -lt 30 ] && [ "$(vif_states $id)" != "backend 4 frontend 4" ]; do sleep 1; i=$((i + 1)); done
	note "$g's new vif: $(vif_states $id) after ${i}s (backend-id $(xenstore-read /local/domain/$id/device/vif/0/backend-id 2>&1))"
	[ "$(vif_states $id)" = "backend 4 frontend 4" ] || problem "the new driver domain did not connect $g's new vif"
done
grep 'DOMU-FWD' $dcon | grep -E 'vif|Connected' | tail -4
console_after $B $fromb 'DOMU-RESULT reattach'
r=$(tail -c +$fromb $CONSOLE_DIR/guest-$B.log | grep -E 'DOMU-REATTACH|DOMU-RESULT reattach')
echo "$r"
note "over the new vifs: $(echo "$r" | grep 'DOMU-RESULT reattach')"
echo "$r" | grep -q "DOMU-RESULT reattach rc=0 transmitted=$REATTACH_COUNT received=$REATTACH_COUNT " ||
	problem "B's pings to A over the re-attached vifs: $(echo "$r" | grep 'DOMU-RESULT reattach')"
destroy $B $A $DD

# 6. the kernel's netback in a Linux driver domain, the same guests and
# traffic as in 1: a comparison
kernel_line=$NOT_COMPARED
if comparing; then
	driver_domain $KDD "xdp.devd=1 xdp.knb=1" 'DOMU-PPS' "xl devd, the kernel's netback and its bridge"
	guests $KDD
	traffic kernel $from
	grants "the kernel's"
	states="A: $(vif_states $ga), B: $(vif_states $gb)"
	note "kernel driver domain: $states"
	[ "$states" = "A: backend 4 frontend 4, B: backend 4 frontend 4" ] ||
		problem "the kernel driver domain's vifs not Connected ($states)"
	grep 'DOMU-KNB' $dcon
	note "side by side: ours (1) $first_line | the kernel's (6) $kernel_line"
	destroy $B $A $KDD
fi
[ -z "$problems" ] || fail "$problems"
pass "a driver domain's netback (vifs=*, xl devd, io) between two guests: $first_line; the forwarder killed and restarted in the driver domain, the vifs Connected throughout; again after B's xl reboot (domain $g1 -> $g2): $reboot_line; the driver domain destroyed under the guests, which went on; a new driver domain connected the vifs xl network-attach gave A and B, and B's $REATTACH_COUNT pings to A over them were answered; the kernel's netback in a Linux driver domain, the same guests and traffic: $kernel_line; whole scenario $(since $t0)s"
