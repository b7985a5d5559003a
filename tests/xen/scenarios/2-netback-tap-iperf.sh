# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 2: TCP through our netback. One dpdk-testpmd io-forwards between
# our netback port (the vif of a stock Linux DomU) and a net_tap port whose
# kernel end, dtap0, is 10.0.0.1 in Dom0. iperf3 runs between the guest
# (client) and Dom0 (server) for XDP_IPERF_SECS seconds each way, with the
# offloads the guest's xen-netfront negotiates against what our backend
# advertises: SG, checksum offload and GSO, which must be negotiated (LRO on
# our port, TSO and checksums on net_tap, which segments the guest's large
# packets and completes their checksums in software).
. /host/scenarios/lib.sh
SECS=${XDP_IPERF_SECS:-10}
domu=s2-linux
trap 'collect; cleanup; kill $IPERF_PID 2>/dev/null' EXIT
modprobe tun || fail "modprobe tun (net_tap needs /dev/net/tun)"
tcp_offloads 0x802e 0
start_backend s2 io --vdev $(ours_vdev $domu) --vdev net_tap0,iface=dtap0
# net_tap (DPDK 22.11) segments a TSO packet only if MSS + headers fit its
# MTU, which counts no Ethernet header, and its MTU cannot grow: 14 bytes
# off Dom0's MTU make the guest's TCP segments that much smaller
ip addr add 10.0.0.1/24 dev dtap0 && ip link set dtap0 mtu 1486 up || fail "dtap0 setup"
iperf3 -s -f m > $S/iperf3-server.log 2>&1 &
IPERF_PID=$!
guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" \
	"xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=20 xdp.interval=0.05 xdp.iperf=10.0.0.1:$SECS"
create_guest $domu
wait_guest $domu DOMU-DONE $TESTPMD_PID
grep -E 'DOMU-' $con
echo "| key | backend | frontend |"; echo "|---|---|---|"; vif_offloads $domid
gso_negotiated $domid && gso=yes || gso=no
stop_testpmd
sed -n '/Forward statistics for port 0/,/Accumulated/p' $S/testpmd.log
grep -E 'xen_netback|netif' $S/testpmd.log | head -30
grep -q 'DOMU-RESULT arp=ok' $con || fail "ARP for 10.0.0.1 (the tap) not resolved"
[ $gso = yes ] || fail "GSO not negotiated (feature-gso-tcpv4 of backend and frontend)"
# what net_tap refused to send (a segment too large for it): TCP would
# still complete, crawling on retransmissions
refused=$(sed -n '/Forward statistics for port 1 /,/^ *+\{10,\}/s/.*TX-dropped: *\([0-9]*\).*/\1/p' $S/testpmd.log | head -1)
[ "${refused:-none}" = 0 ] || fail "net_tap refused ${refused:-an unknown number of} packets"
for dir in send recv; do
	r=$(grep "DOMU-RESULT iperf-$dir " $con)
	echo "$r" | grep -q ' rc=0 .*Mbits/sec' || fail "iperf3 $dir: ${r:-no result}"
	eval "mbit_$dir=$(echo "$r" | sed -n 's/.*_\([0-9.]*\)_Mbits\/sec.*/\1/p')"
done
# bytes per packet the guest sent, then received (above 1514: GSO)
avg_send=$(grep 'DOMU-RESULT iperf-send ' $con | sed -n 's/.*tx_avg=\([0-9]*\).*/\1/p')
avg_recv=$(grep 'DOMU-RESULT iperf-recv ' $con | sed -n 's/.*rx_avg=\([0-9]*\).*/\1/p')
pass "iperf3 ${SECS}s each way, GSO negotiated: guest->Dom0 $mbit_send Mbit/s ($avg_send B/packet)," \
	"Dom0->guest $mbit_recv Mbit/s ($avg_recv B/packet) (TCG speed)"
