# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 13: XDP in a stock Linux guest behind our netback (testpmd
# icmpecho), then, with XDP_COMPARE=1, behind the kernel's xen-netback in
# the same boot, the same guest image each time. Linux's netfront attaches
# an XDP program only through a backend that offers feature-xdp-headroom:
# it writes xdp-headroom (256), goes Reconfiguring and waits for
# Reconfigured without a time limit; every frame then has to start where
# the XDP extra says.
# The guest (xdp.xdp=N, tests/xen/guest/domu-init.sh) attaches, natively:
#  - a program passing every frame: N echo requests of 56 and of 1400
#    bytes must all come back (through XDP_PASS, from the offset the
#    backend gave);
#  - one dropping IPv4 ICMP: none of N may come back (it finds the frames'
#    headers, so the frame starts where the program looks), while ARP
#    passes (arping);
#  - none again: N requests all come back, the headroom back to 0.
# Passes when ours does all that, said "frames start 256 bytes" and "0
# bytes" in its log, and the vif ends Connected at both ends. The kernel's
# netback is the reference: its results are reported, not judged.
. /host/scenarios/lib.sh
N=${XDP_S13_PINGS:-20}
args="xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=5 xdp.interval=0.1 xdp.xdp=$N"
trap 'collect; cleanup; rmmod xen-netback 2>/dev/null' EXIT

# received <tag>: replies the guest's pingrun <tag> counted
received() { sed -n "s/.*DOMU-RESULT $1 .*received=\([0-9]*\).*/\1/p" $con | head -1; }
xdp_rc() { sed -n "s/.*DOMU-XDP $1 rc=\([0-9]*\).*/\1/p" $con | head -1; }
# xdp_row <label> [judge]: the guest's results, a row of $S/xdp.md; with
# judge, each one that is not as it must be is a problem
xdp_row() {
	grep -E 'DOMU-XDP|DOMU-RESULT (xdp|arp|ping)' $con
	set -- "$1" "${2:-}" "$(xdp_rc attach-pass)" "$(received xdp-pass)" \
		"$(received xdp-pass-1400)" "$(xdp_rc attach-drop-icmp)" \
		"$(received xdp-drop-icmp)" \
		"$(sed -n 's/.*DOMU-RESULT xdp-arp=\([a-z]*\).*/\1/p' $con)" \
		"$(xdp_rc detach)" "$(received xdp-off)"
	echo "| $1 | ${3:--} | ${4:--}/$N | ${5:--}/$N | ${6:--} | ${7:--}/$N | ${8:--} | ${9:--} | ${10:--}/$N |" >> $S/xdp.md
	[ -n "$2" ] || return 0
	[ "$3" = 0 ] || problem "$1: attaching the passing program: rc ${3:-none}"
	[ "$4" = $N ] && [ "$5" = $N ] || problem "$1: through XDP_PASS ${4:-0} and ${5:-0} (1400 B) of $N replies"
	[ "$6" = 0 ] || problem "$1: attaching the ICMP-dropping program: rc ${6:-none}"
	[ "$7" = 0 ] || problem "$1: ${7:-?} replies came through the ICMP-dropping program (did it see the frames?)"
	[ "$8" = ok ] || problem "$1: ARP did not pass the ICMP-dropping program"
	[ "$9" = 0 ] && [ "${10}" = $N ] || problem "$1: after detaching (rc ${9:-none}): ${10:-0} of $N replies"
}
: > $S/xdp.md

# ours
domu=s13-ours
start_backend s13 icmpecho --vdev $(ours_vdev $domu)
guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" "$args"
create_guest $domu
wait_guest $domu DOMU-DONE $TESTPMD_PID
xdp_row "ours (net_xen_netback)" judge
be=$(xenstore-read /local/domain/0/backend/vif/$domid/0/state 2>/dev/null)
fe=$(xenstore-read /local/domain/$domid/device/vif/0/state 2>/dev/null)
note "states at the end: backend ${be:-?}, frontend ${fe:-?}"
grep -E 'xdp-headroom|Reconfigur' $S/testpmd.log
[ "$be" = 4 ] && [ "$fe" = 4 ] || problem "ours: the vif ended in states ${be:-?}/${fe:-?}, not Connected"
grep -q 'frames start 256 bytes' $S/testpmd.log || problem "ours: the netback never left 256 bytes of headroom"
grep -q 'frames start 0 bytes .*reconfiguration [1-9]' $S/testpmd.log || problem "ours: the netback never went back to no headroom"
stop_testpmd
timeout 60 xl destroy $domu

# the kernel's, the same guest: a comparison
if comparing; then
	kernel_netback
	domu=s13-kernel
	guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" "$args"
	create_guest $domu
	kernel_vif_up $domid 10.0.0.1/24
	wait_guest $domu DOMU-DONE
	xdp_row "kernel xen-netback (reference)"
	timeout 60 xl destroy $domu
fi

echo
echo "XDP in the guest's netfront (replies of N = $N echo requests):"
echo "| backend | attach pass rc | through XDP_PASS 56 B | 1400 B | attach drop-ICMP rc | through drop-ICMP (want 0) | ARP | detach rc | after detach |"
echo "|---|---|---|---|---|---|---|---|---|"
cat $S/xdp.md
[ -z "$problems" ] || fail "$problems"
pass "a Linux guest's XDP programs run on our netback's frames: $N/$N through XDP_PASS (56 and 1400 B), 0/$N through the ICMP-dropping one, ARP passing, $N/$N after detaching$(comparing || echo "; the kernel's xen-netback $NOT_COMPARED")"
