# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 4r: receive-side scaling that our netfront asks of the kernel's
# xen-netback. A DPDK guest with two queue pairs (testpmd icmpecho with
# --rxq=2, which asks for RSS over IPv4 and IPv6 with no key of its own)
# configures Linux netback's hash over the control ring, as Windows's PV
# drivers do: Toeplitz, Microsoft's key (the netfront's default), a table
# spreading the 128 entries over queues 0 and 1. Linux then sends each
# frame with its hash in a hash extra, on the queue the table names. Dom0
# pings the guest from four of its addresses, XDP_PING_COUNT (default 20)
# each: every ping is answered, the netfront says Linux took its hash, and
# the pings from 10.0.0.1 and .3 (Toeplitz hashes 0x02b7c9b1, 0x8be10a01:
# odd, table entry 1) arrive hashed on queue 1, those from .4 and .6
# (0x54b12f08, 0xdde7ecb8: even) on queue 0.
. /host/scenarios/lib.sh
COUNT=${XDP_PING_COUNT:-20}
domu=s4r-dpdk
kernel_netback
xstats=rx_q0_hashed_packets,rx_q1_hashed_packets
# icmpecho ends 10 s after the last frame it received (the pings take
# ~8 s, back to back), or after XDP_ICMPECHO_SECS: the counters are read
# from its final statistics
guest_cfg $domu initrd-dpdk.gz 256 "$(dpdk_vif_line)" \
	"xdp.run=icmpecho:${XDP_ICMPECHO_SECS:-60}:10 xdp.queues=2 xdp.xstats=$xstats"
create_guest $domu
kernel_vif_up $domid 10.0.0.1/24
for a in 3 4 6; do ip addr add 10.0.0.$a/24 dev vif$domid.0; done
dpdk_guest_up $domu
t=$(up)
answered=0
for a in 1 3 4 6; do
	ping -c $COUNT -i 0.05 -W 5 -w $((COUNT / 5 + 30)) -I 10.0.0.$a 10.0.0.2 \
		> $S/ping-$a.txt 2>&1
	# with -w, ping may send more than COUNT to get COUNT answers
	tx=$(sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p' $S/ping-$a.txt)
	rx=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' $S/ping-$a.txt)
	note "from 10.0.0.$a: ${rx:-0}/${tx:-0} answered, $(grep -o 'rtt.*' $S/ping-$a.txt)"
	[ "${rx:-0}" -ge $COUNT ] && [ "$rx" = "$tx" ] && answered=$((answered + COUNT))
done
note "pings took $(since $t)s"
wait_guest $domu 'DOMU-RESULT testpmd-icmpecho'
xl destroy $domu
grep -E 'DOMU-(XSTAT|RESULT)|the backend (takes our hash|refused)' $con
xstat() { sed -n "s/.*DOMU-XSTAT icmpecho $1 last=[^ ]* max=\([0-9]*\).*/\1/p" $con | head -1; }
q0=$(xstat rx_q0_hashed_packets) q1=$(xstat rx_q1_hashed_packets)
taken=$(grep -o 'the backend takes our hash: Toeplitz over hash types 0x[0-9a-f]*' $con | head -1)

[ "$answered" = $((4 * COUNT)) ] || fail "not every ping answered from the four addresses (see above)"
[ -n "$taken" ] || fail "the netfront did not log that Linux netback took its hash"
# at least the pings of each queue's two addresses; Dom0's IPv6 neighbour
# and router messages may add some to either
[ "${q0:-0}" -ge $((2 * COUNT)) ] && [ "${q1:-0}" -ge $((2 * COUNT)) ] ||
	fail "hashed frames per queue: q0=${q0:-none} q1=${q1:-none}, want at least $((2 * COUNT)) each"
pass "${taken#the }; every ping answered, $COUNT or more from each address; hashed frames: queue 0 $q0, queue 1 $q1"
