# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 2: TCP through our netback. One dpdk-testpmd io-forwards between
# our netback port (the vif of a stock Linux DomU) and a net_tap port whose
# kernel end, dtap0, is 10.0.0.1 in Dom0. iperf3 runs between the guest
# (client) and Dom0 (server) for XDP_IPERF_SECS seconds each way, with the
# offloads the guest's xen-netfront negotiates against what our backend
# advertises (SG and checksum offload: the backend completes blank checksums;
# no GSO, which it does not advertise).
. /host/scenarios/lib.sh
SECS=${XDP_IPERF_SECS:-10}
domu=s2-linux
trap 'collect; cleanup; kill $IPERF_PID 2>/dev/null' EXIT
modprobe tun || fail "modprobe tun (net_tap needs /dev/net/tun)"
start_backend s2 io --vdev $(ours_vdev $domu) --vdev net_tap0,iface=dtap0
ip addr add 10.0.0.1/24 dev dtap0 && ip link set dtap0 up || fail "dtap0 setup"
iperf3 -s -f m > $S/iperf3-server.log 2>&1 &
IPERF_PID=$!
guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" \
	"xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=20 xdp.interval=0.05 xdp.iperf=10.0.0.1:$SECS"
create_guest $domu
wait_guest $domu DOMU-DONE $TESTPMD_PID
grep -E 'DOMU-' $con
be=/local/domain/0/backend/vif/$domid/0 fe=/local/domain/$domid/device/vif/0
for k in feature-sg feature-gso-tcpv4 feature-gso-tcpv6 feature-no-csum-offload feature-ipv6-csum-offload; do
	note "$k: backend=$(xenstore-read $be/$k 2>/dev/null || echo -) frontend=$(xenstore-read $fe/$k 2>/dev/null || echo -)"
done
gso=$(xenstore-read $be/feature-gso-tcpv4 2>/dev/null)
stop_testpmd
sed -n '/Forward statistics for port 0/,/Accumulated/p' $S/testpmd.log
grep -E 'xen_netback|netif' $S/testpmd.log | head -30
grep -q 'DOMU-RESULT arp=ok' $con || fail "ARP for 10.0.0.1 (the tap) not resolved"
[ "${gso:-0}" = 0 ] || fail "backend advertises feature-gso-tcpv4=$gso, which it does not implement"
for dir in send recv; do
	r=$(grep "DOMU-RESULT iperf-$dir " $con)
	echo "$r" | grep -q ' rc=0 .*Mbits/sec' || fail "iperf3 $dir: ${r:-no result}"
	eval "mbit_$dir=$(echo "$r" | sed -n 's/.*_\([0-9.]*\)_Mbits\/sec.*/\1/p')"
done
pass "iperf3 ${SECS}s each way: guest->Dom0 $mbit_send Mbit/s, Dom0->guest $mbit_recv Mbit/s (TCG speed)"
