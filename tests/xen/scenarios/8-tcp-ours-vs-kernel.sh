# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 8: TCP through our netback, with a stock Linux DomU image
# (kernel xen-netfront), and with XDP_COMPARE=1 TCP through the kernel's
# xen-netback beside it, in the same boot with the same image, on three
# paths, iperf3 for XDP_IPERF_SECS seconds each:
#   guest->Dom0   iperf3 client in the guest, server in Dom0
#   Dom0->guest   the same client with -R
#   guest->guest  one DomU's iperf3 client to another DomU's server, the
#                 guests' packets grant-mapped (tx_map_min, below); then
#                 the client's kernel pktgen floods the server with
#                 XDP_G2G_PKTGEN_SIZE-byte UDP frames (default 1500, so
#                 mapped) for XDP_G2G_PKTGEN_SECS seconds (default 5)
# Ours first: the kernel's xen-netback, once loaded, claims every vif (it is
# unloaded at exit). Ours: one dpdk-testpmd io-forwards between our netback
# port and Dom0's end, a virtio-user port on vhost-kernel whose tap, dvu0,
# is 10.0.0.1; for guest->guest it is restarted with one netback port per
# guest. Kernel: the vifs and 10.0.0.1 on a Linux bridge.
#
# Dom0's end is virtio-user, not net_tap, for the TSO-sized segments, both
# ways. A guest's GSO packet reaches testpmd as one mbuf flagged for TSO,
# which virtio-user hands to vhost-net as one packet behind a virtio-net
# header (gso_type, gso_size, checksum left to the receiver), while net_tap
# (no IFF_VNET_HDR) cuts it into MSS-sized frames and checksums each in
# software, and only when MSS and headers fit its MTU (see scenario 2).
# With LRO and the checksum Rx offloads on virtio-user too, vhost-net hands
# over Dom0's large segments (TUN_F_CSUM, TUN_F_TSO4/6), flagged RX_LRO,
# which our netback sends the guest as GSO packets; net_tap gives
# MSS-sized frames. io forwarding never calls rte_eth_tx_prepare(), so a
# packet must come from our netback as the kernel takes it: an IPv4 header
# with a valid checksum (Dom0 drops it otherwise, which fails the
# scenario). testpmd enables LRO and the TCP/UDP checksum Rx offloads on
# every port (tcp_offloads), and the Tx offloads TCP and UDP checksum, TSO
# and chained mbufs (0x802c; virtio has no IPv4 header checksum offload,
# our ports add it for guest->guest: 0x802e).
#
# Passes on correctness only: every iperf3 run completes, no guest and not
# Dom0 dropped a packet for a bad checksum, every guest of our backend
# negotiated GSO (the backend offers feature-gso-tcpv4=1, the frontend
# wrote feature-gso-tcpv4=1), and guest->guest through ours lost nothing
# unaccounted: each guest's port received every packet the guest sent and
# the guest received every packet its port sent, and what testpmd could not
# hand to the receiving guest (its ring full) is printed, counted by
# testpmd. The throughputs, their ratio ours/kernel and
# the guest's bytes per packet (above 1514: GSO) are printed for a human,
# not judged: under TCG, on 2 cores shared by Dom0, the guests and
# testpmd's polling lcore, they compare only with each other.
. /host/scenarios/lib.sh
SECS=${XDP_IPERF_SECS:-10}
PG_SECS=${XDP_G2G_PKTGEN_SECS:-5} PG_SIZE=${XDP_G2G_PKTGEN_SIZE:-1500}
# Guest->guest runs with the netback's tx_map_min (issue 31): a guest's
# packets of that many bytes and more are grant-mapped and lent to testpmd,
# which sends them to the other guest by their grants (one copy), where
# Dom0's path copies (virtio-user hands vhost-net only memory DPDK
# registered). 256, the least lent, maps every packet mapping can take;
# 0 copies them all. XDP_TX_MAP_MINS="256 0" runs guest->guest with each
# in turn, in the same boot (the first one's figures make the summary);
# XDP_TX_MAP_MIN is the one-value form.
MINS=${XDP_TX_MAP_MINS:-${XDP_TX_MAP_MIN:-256}}
mac_a=00:16:3e:00:00:02 mac_b=00:16:3e:00:00:03
trap 'collect; cleanup; kill $IPERF_PID 2>/dev/null; ip link del xenbr0 2>/dev/null; rmmod xen-netback 2>/dev/null' EXIT

# result <guest> <tag> <var>: from the guest's "DOMU-RESULT <tag>" line, the
# receiver's Mbit/s into $<var> ("-" and a problem if the run did not
# complete), the guest's bytes per packet sent and received into $<var>_tx
# and $<var>_rx
result() {
	r=$(grep "DOMU-RESULT $2 " $CONSOLE_DIR/guest-$1.log | tail -1)
	m=$(echo "$r" | sed -n 's/.* rc=0 .*_\([0-9.]*\)_Mbits\/sec.*/\1/p')
	[ -n "$m" ] || { problem "$1 $2: ${r:-no result}"; m=-; }
	eval "$3=$m ${3}_tx=$(echo "$r" | sed -n 's/.*tx_avg=\([0-9]*\).*/\1/p')" \
		"${3}_rx=$(echo "$r" | sed -n 's/.*rx_avg=\([0-9]*\).*/\1/p')"
}

# features <backend> <guest>: the offload keys of both ends of the guest's
# vif, as rows of $S/features.txt; with ours, a problem unless GSO was
# negotiated
features() {
	d=$(xl domid $2)
	vif_offloads $d | sed "s/^/| $1 | $2 /" >> $S/features.txt
	[ $1 = kernel ] || gso_negotiated $d || problem "$2: GSO not negotiated with our backend (feature-gso-tcpv4)"
}

# intact <guest>: a problem unless the guest's count of packets dropped for a
# bad checksum is 0 (data the backend or the next hop corrupted, or
# offloads that did not agree)
intact() {
	n=$(sed -n 's/.*DOMU-STAT csum_errors=\([0-9]*\).*/\1/p' $CONSOLE_DIR/guest-$1.log)
	[ "${n:-none}" = 0 ] || problem "$1: ${n:-no count of} packets dropped for a bad checksum"
}
# dom0_intact <backend> <count before>: the same for Dom0's count
dom0_intact() {
	n=$(($(csum_errors) - $2))
	[ $n = 0 ] || problem "$1: Dom0 dropped $n packets for a bad checksum"
}

# to_dom0 <backend> <guest> <vif line>: the guest's iperf3 client to Dom0's
# server, sending then receiving; Mbit/s into $<backend>_g2d, $<backend>_d2g
to_dom0() {
	guest_cfg $2 initrd.gz 128 "$3" \
		"xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=3 xdp.interval=0.2 xdp.iperf=10.0.0.1:$SECS"
	create_guest $2
	wait_guest $2 DOMU-DONE ${TESTPMD_PID:-}
	grep 'DOMU-' $con
	features $1 $2
	intact $2
	result $2 iperf-send ${1}_g2d
	result $2 iperf-recv ${1}_d2g
	timeout 60 xl destroy $2
}

# guest_stat <guest> <key>: the guest's last DOMU-STAT <key>= count of eth0
guest_stat() { sed -n "s/.*DOMU-STAT $2=\([0-9]*\).*/\1/p" $CONSOLE_DIR/guest-$1.log | tail -1; }

# to_guest <backend> <guest A> <vif line A> <guest B> <vif line B>: B's
# iperf3 client sends to A's server; Mbit/s into $<backend>_g2g (B's
# bytes per packet sent: _tx), A's bytes per packet received into
# $<backend>_g2gd_rx. Then B's pktgen floods A (A counts what it receives
# over a window that outlasts the flood): "sent usec" into $<backend>_pg,
# what A received of it into $<backend>_pg_rx
to_guest() {
	guest_cfg $2 initrd.gz 128 "$3" \
		"xdp.ip=10.0.0.2/24 xdp.count=0 xdp.iperfd=$((SECS + 120)) xdp.rxrate=$((PG_SECS + 5))"
	create_guest $2
	wait_guest $2 DOMU-IPERFD ${TESTPMD_PID:-}
	guest_cfg $4 initrd.gz 128 "$5" \
		"xdp.ip=10.0.0.3/24 xdp.peer=10.0.0.2 xdp.count=3 xdp.interval=0.2 xdp.iperf=10.0.0.2:$SECS:send xdp.pktgen=$PG_SECS:$PG_SIZE"
	create_guest $4
	wait_guest $4 DOMU-DONE ${TESTPMD_PID:-}
	wait_guest $2 DOMU-DONE ${TESTPMD_PID:-}
	grep -H 'DOMU-' $CONSOLE_DIR/guest-$2.log $CONSOLE_DIR/guest-$4.log
	features $1 $2
	features $1 $4
	intact $2
	intact $4
	result $4 iperf-send ${1}_g2g
	result $2 iperfd ${1}_g2gd
	eval "${1}_pg=\"$(pktgen_result $4)\"" \
		"${1}_pg_rx=$(sed -n 's/.*DOMU-RESULT rxrate rx=\([0-9]*\).*/\1/p' $CONSOLE_DIR/guest-$2.log)"
	[ -n "$(pktgen_result $4)" ] || problem "$4: no pktgen result"
}

# ours: Dom0's end through virtio-user, then guest to guest
t=$(up) c=$(csum_errors)
modprobe vhost_net || fail "modprobe vhost_net (virtio-user's vhost-kernel backend)"
iperf3 -s -f m > $S/iperf3-server.log 2>&1 &
IPERF_PID=$!
tcp_offloads 0x802c 0 1
start_backend s8 io --vdev $(ours_vdev s8-ours-0) --vdev virtio_user0,path=/dev/vhost-net,iface=dvu0,queues=1
ip addr add 10.0.0.1/24 dev dvu0 && ip link set dvu0 up || fail "dvu0 setup"
to_dom0 ours s8-ours-0 "$(dpdk_vif_line $mac_a)"
stop_testpmd
mv $S/testpmd.log $S/testpmd-dom0.log
# xsum <counter> <file>: the counter summed over a telemetry dump's queues
xsum() { grep -o "\"$1\": [0-9]*" $2 | awk '{ n += $2 } END { print n + 0 }'; }

# suffix <tx_map_min>: what names the guests of a guest->guest run with it
# apart from the first's (none for the first: CI's names)
suffix() { [ "$1" = "${MINS%% *}" ] || echo "-$1"; }

# accounted <guest> <its port's telemetry dump>: a problem unless the port
# received every packet the guest counted sent, and the guest counted every
# packet the port sent it but the last few: a guest's own late packets (an
# ARP probe, the last TCP ACK) may cross after it counted, the other way
# they reach the port too, so "more" is allowed up to MAX_LATE and "fewer"
# never
MAX_LATE=3
accounted() {
	sent=$(guest_stat $1 tx_packets) got=$(xsum rx_good_packets $2)
	[ -n "$sent" ] && [ $got -ge $sent ] && [ $got -le $((sent + MAX_LATE)) ] ||
		problem "$1 sent ${sent:-?} packets, its port received $got"
	got=$(guest_stat $1 rx_packets) sent=$(xsum tx_good_packets $2)
	[ -n "$got" ] && [ $sent -ge $got ] && [ $sent -le $((got + MAX_LATE)) ] ||
		problem "$1 received ${got:-?} packets, its port sent $sent"
}

# g2g <tx_map_min>: guest->guest through ours (to_guest) with the guests'
# packets of that many bytes mapped; the figures into variables suffixed
# _<tx_map_min>
g2g() {
	min=$1 x=$S/xstats-guests-$1.txt
	# a guest name a run: a console log holds one run's lines
	ga=s8-ours-a$(suffix $1) gb=s8-ours-b$(suffix $1)
	tcp_offloads 0x802e 0 1
	start_backend s8b io --vdev $(ours_vdev $ga),tx_map_min=$min \
		--vdev $(ours_vdev $gb 1),tx_map_min=$min
	to_guest ours $ga "$(dpdk_vif_line $mac_a)" $gb "$(dpdk_vif_line $mac_b)"
	# both ports' counters (port 0 serves A, port 1 B): with mapping,
	# packets mapped, none refused, and no copy to a guest failed (a copy
	# from a mapped page by its address is what Xen refuses)
	for p in 0 1; do
		printf '/ethdev/xstats,%s\n' $p | dpdk-telemetry.py -f s8b > $S/xstats-port$p-$min.txt 2>&1
	done
	cat $S/xstats-port0-$min.txt $S/xstats-port1-$min.txt > $x
	# nothing lost unaccounted: what each guest sent its port received,
	# and what each port sent its guest received (counted)
	for g in $ga:0 $gb:1; do
		accounted ${g%:*} $S/xstats-port${g#*:}-$min.txt
	done
	timeout 60 xl destroy $gb; timeout 60 xl destroy $ga
	mapped=$(xsum rx_q0_map_packets $x)
	[ $min = 0 ] || [ $mapped -gt 0 ] || problem "guest->guest: tx_map_min=$min, no packet mapped"
	for k in rx_q0_map_failed rx_q0_unmap_failed tx_q0_drop_copy_failed; do
		[ $(xsum $k $x) = 0 ] || problem "guest->guest, tx_map_min=$min: $k $(xsum $k $x)"
	done
	note "guest->guest, tx_map_min=$min: $mapped packets mapped in $(xsum rx_q0_map_calls $x) mappings, $(xsum rx_q0_unmaps $x) unmapped, $(xsum tx_q0_grant_copy_calls $x) grant-copy calls for $(xsum tx_q0_packets $x) packets to the guests"
	stop_testpmd
	mv $S/testpmd.log $S/testpmd-guests-$min.log
	# what testpmd could not hand to A (A's ring full): counted, not lost
	drop=$(sed -n '/Forward statistics for port 0 /,/^ *-\{10,\}/s/.*TX-dropped: *\([0-9]*\).*/\1/p' $S/testpmd-guests-$min.log | head -1)
	note "guest->guest pktgen, tx_map_min=$min: B sent ${ours_pg% *} $PG_SIZE-byte frames, A received ${ours_pg_rx:-?} in its window; testpmd dropped ${drop:-?} for A's full ring"
	eval "g2g_$min=$ours_g2g g2g_tx_$min=$ours_g2g_tx g2gd_rx_$min=$ours_g2gd_rx" \
		"pg_$min=\"$ours_pg\" pg_rx_$min=$ours_pg_rx mapped_$min=$mapped drop_$min=${drop:-?}" \
		"calls_$min=$(xsum rx_q0_map_calls $x)"
}
for m in $MINS; do g2g $m; done
# the summary's figures: the first tx_map_min's
first=${MINS%% *}
eval "ours_g2g=\$g2g_$first ours_g2g_tx=\$g2g_tx_$first ours_g2gd_rx=\$g2gd_rx_$first" \
	"ours_pg=\"\$pg_$first\" ours_pg_rx=\$pg_rx_$first mapped=\$mapped_$first" \
	"pg_drop=\$drop_$first calls=\$calls_$first"
dom0_intact ours $c
note "ours: $(since $t)s"

# the kernel's xen-netback, the vifs and Dom0 on a bridge
kernel_g2d=- kernel_d2g=- kernel_g2g=- kernel_pg=
if comparing; then
	t=$(up) c=$(csum_errors)
	modprobe xen-netback || fail "modprobe xen-netback"
	modprobe bridge
	ip link add xenbr0 type bridge && ip link set xenbr0 type bridge stp_state 0 forward_delay 0 &&
		ip addr add 10.0.0.1/24 dev xenbr0 && ip link set xenbr0 up || fail "bridge setup"
	to_dom0 kernel s8-kernel-0 "vif = [ 'bridge=xenbr0,mac=$mac_a' ]"
	to_guest kernel s8-kernel-a "vif = [ 'bridge=xenbr0,mac=$mac_a' ]" s8-kernel-b "vif = [ 'bridge=xenbr0,mac=$mac_b' ]"
	timeout 60 xl destroy s8-kernel-b; timeout 60 xl destroy s8-kernel-a
	dom0_intact kernel $c
	note "kernel: $(since $t)s"
else
	note "the kernel's xen-netback: $NOT_COMPARED"
fi

echo "| backend | guest | key | backend dir | frontend dir |"
echo "|---|---|---|---|---|"
cat $S/features.txt
# ratio <ours> <kernel>: ours/kernel to 2 places, "-" without both
ratio() { awk -v o=$1 -v k=$2 'BEGIN { if (o + 0 > 0 && k + 0 > 0) printf "%.2f", o / k; else printf "-" }'; }
echo "| path | kernel Mbit/s | ours Mbit/s | ours/kernel | kernel B/packet | ours B/packet |"
echo "|---|---|---|---|---|---|"
echo "| guest->Dom0 | $kernel_g2d | $ours_g2d | $(ratio $ours_g2d $kernel_g2d) | $kernel_g2d_tx | $ours_g2d_tx |"
echo "| Dom0->guest | $kernel_d2g | $ours_d2g | $(ratio $ours_d2g $kernel_d2g) | $kernel_d2g_rx | $ours_d2g_rx |"
for m in $MINS; do
	eval "o=\$g2g_$m ot=\$g2g_tx_$m orx=\$g2gd_rx_$m"
	echo "| guest->guest, tx_map_min=$m | $kernel_g2g | $o | $(ratio $o $kernel_g2g) | $kernel_g2g_tx/$kernel_g2gd_rx | $ot/$orx |"
done
echo "(B/packet: bytes per packet of the guest's vif, sent for guest->Dom0, received for Dom0->guest, sent/received for guest->guest)"
# pg_pps <sent usec>: the pktgen sender's packets per second
pg_pps() { [ $# = 2 ] && [ "$2" -gt 0 ] && pps $1 $2 || echo -; }
echo "| guest->guest pktgen $PG_SIZE B | kernel | ours | ours/kernel |"
echo "|---|---|---|---|"
for m in $MINS; do
	eval "p=\"\$pg_$m\" prx=\$pg_rx_$m"
	echo "| B sent, pps (ours: tx_map_min=$m) | $(pg_pps $kernel_pg) | $(pg_pps $p) | $(ratio $(pg_pps $p) $(pg_pps $kernel_pg)) |"
	echo "| A received in its window / B sent (ours: tx_map_min=$m) | ${kernel_pg_rx:--}/${kernel_pg% *} | ${prx:--}/${p% *} | - |"
done
if comparing; then
	ratios="ours/kernel: guest->Dom0 $(ratio $ours_g2d $kernel_g2d) ($ours_g2d/$kernel_g2d Mbit/s),\
 Dom0->guest $(ratio $ours_d2g $kernel_d2g) ($ours_d2g/$kernel_d2g),\
 guest->guest $(ratio $ours_g2g $kernel_g2g) ($ours_g2g/$kernel_g2g; tx_map_min=$first: $mapped packets mapped in $calls mappings),\
 guest->guest pktgen $PG_SIZE B $(ratio $(pg_pps $ours_pg) $(pg_pps $kernel_pg)) ($(pg_pps $ours_pg)/$(pg_pps $kernel_pg) pps; A received ${ours_pg_rx:-?}/${kernel_pg_rx:-?}, testpmd dropped ${pg_drop:-?}; nothing lost unaccounted)"
else
	ratios="ours: guest->Dom0 $ours_g2d Mbit/s,\
 Dom0->guest $ours_d2g, guest->guest $ours_g2g (tx_map_min=$first: $mapped packets mapped in $calls mappings),\
 guest->guest pktgen $PG_SIZE B $(pg_pps $ours_pg) pps (A received ${ours_pg_rx:-?}, testpmd dropped ${pg_drop:-?}; nothing lost unaccounted);\
 the kernel's xen-netback $NOT_COMPARED"
fi
[ -z "$problems" ] || fail "$problems; $ratios"
pass "iperf3 ${SECS}s, $ratios; GSO negotiated with ours (TCG speed)"
