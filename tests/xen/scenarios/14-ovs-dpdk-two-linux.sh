# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 14: stock Linux guests as OVS-DPDK ports, as an NFV Dom0 runs
# them, against the same guests on the kernel's xen-netback and a Linux
# bridge, in one boot.
#
# Ours: Debian's OVS-DPDK (ovs-vswitchd-dpdk, chosen with
# update-alternatives as the README says) loads our netback with a watcher
# (vifs=s14-*) in dpdk-extra; bridge br0 (netdev datapath); every guest's
# vif line is 'script=vif-ovs-dpdk,bridge=br0', so xl's hotplug script adds
# and removes its OVS port. Then, while OVS runs:
#   1. guest A serves iperf3, guest B pings A ($COUNT requests) and sends
#      to it with iperf3 for $SECS s;
#   2. A is destroyed and a new guest A2 (A's address) pings B, then
#      serves iperf3;
#   3. B is rebooted (a new domain id): it pings A2 and sends to it again;
#   4. both are destroyed.
# After each step OVS's ports on br0 are exactly the running guests' vifs
# and OVS's DPDK has a port for each, no more (telemetry: /ethdev/list,
# /xen_netback/watchers). Kernel: step 1 with the kernel's xen-netback and
# the vifs on a Linux bridge.
#
# Passes on correctness: every request answered, every iperf3 run
# complete, no port left behind. The pings' round trips and the iperf3
# Mbit/s of both backends are printed for a human, not judged: under TCG
# they compare only with each other.
. /host/scenarios/lib.sh
SECS=${XDP_IPERF_SECS:-10}
COUNT=${XDP_PING_COUNT:-20}
mac_a=00:16:3e:00:00:02 mac_b=00:16:3e:00:00:03
OVS_LOG=/var/log/openvswitch/ovs-vswitchd.log
trap 'collect; cp $OVS_LOG /var/log/xen/vif-ovs-dpdk.log $S/ 2>/dev/null; cleanup; ovs_stop; ip link del xenbr0 2>/dev/null; rmmod xen-netback 2>/dev/null' EXIT

# OVS-DPDK as an operator starts it without systemd: the database, then
# ovs-vswitchd with DPDK and our watcher, and the bridge (whose own port
# is a tap: the netdev datapath needs /dev/net/tun).
ovs_start() {
	t0=$(up)
	modprobe tun || fail "modprobe tun"
	update-alternatives --set ovs-vswitchd \
		/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk >/dev/null ||
		fail "update-alternatives ovs-vswitchd"
	mkdir -p /etc/openvswitch /var/run/openvswitch /var/log/openvswitch
	ovsdb-tool create /etc/openvswitch/conf.db /usr/share/openvswitch/vswitch.ovsschema &&
		ovsdb-server --remote=punix:/var/run/openvswitch/db.sock --pidfile \
			--detach --log-file /etc/openvswitch/conf.db &&
		ovs-vsctl --no-wait init || fail "ovsdb-server"
	ovs-vsctl --no-wait set Open_vSwitch . other_config:dpdk-init=true \
		other_config:dpdk-lcore-mask=0x1 other_config:pmd-cpu-mask=0x2 \
		other_config:per-port-memory=true \
		"other_config:dpdk-extra=--no-huge -m 512 --legacy-mem --no-pci --file-prefix ovs -d $NETBACK_SO --vdev net_xen_netback_vifs,vifs=s14-*,provider=xen"
	ovs-vswitchd --pidfile --detach --log-file || { tail -20 $OVS_LOG; fail "ovs-vswitchd"; }
	ovs-vsctl add-br br0 -- set bridge br0 datapath_type=netdev &&
		[ "$(ovs-vsctl get Interface br0 ofport)" = 65534 ] ||
		{ tail -20 $OVS_LOG; fail "add-br br0"; }
	note "OVS-DPDK up after $(since $t0)s: $(ovs-vsctl --version | head -1)"
}
ovs_stop() {
	ovs-appctl -t ovs-vswitchd exit 2>/dev/null
	ovs-appctl -t ovsdb-server exit 2>/dev/null
}
ovs_vif() { echo "vif = [ 'script=vif-ovs-dpdk,bridge=br0,mac=$1' ]"; }

# ports_are <step> <guest>...: OVS's ports on br0 are the guests' vifs
# (vif<domid>.0), and its DPDK has one port each, all the watcher's
ports_are() {
	step=$1; shift
	want=$(for g in "$@"; do echo "vif$(xl domid $g).0"; done | sort | tr '\n' ' ')
	have=$(ovs-vsctl list-ports br0 | sort | tr '\n' ' ')
	printf '%s\n' /ethdev/list /xen_netback/watchers | dpdk-telemetry.py -f ovs \
		> $S/telemetry-$step.txt 2>&1
	n=$(sed -n 's/.*"\/ethdev\/list": \[\([0-9, ]*\)\].*/\1/p' $S/telemetry-$step.txt | tr ',' '\n' | grep -c '[0-9]')
	note "$step: OVS ports [$have], DPDK ports $n, $(grep watchers $S/telemetry-$step.txt)"
	[ "$have" = "$want" ] || problem "$step: OVS ports [$have], want [$want]"
	[ "$n" = $# ] || problem "$step: OVS's DPDK has $n ports for $# guests"
	grep -q '"no_port": 0' $S/telemetry-$step.txt || problem "$step: a vif got no port"
}

# pinged <guest> <what> <n>: the guest's <n>th ping result answered all
# $COUNT requests; its average round trip (ms) into $rtt
pinged() {
	r=$(grep 'DOMU-RESULT ping' $CONSOLE_DIR/guest-$1.log | sed -n "$3p")
	rtt=$(grep 'round-trip' $CONSOLE_DIR/guest-$1.log | sed -n "$3p" | cut -d/ -f4)
	echo "$r" | grep -q "transmitted=$COUNT received=$COUNT" || problem "$2: ${r:-no ping result}"
}
# sent <guest> <what> <n>: the guest's <n>th iperf3 send completed; the
# receiver's Mbit/s into $mbits
sent() {
	r=$(grep 'DOMU-RESULT iperf-send' $CONSOLE_DIR/guest-$1.log | sed -n "$3p")
	mbits=$(echo "$r" | sed -n 's/.* rc=0 .*_\([0-9.]*\)_Mbits\/sec.*/\1/p')
	[ -n "$mbits" ] || { problem "$2: ${r:-no iperf3 result}"; mbits=-; }
}
# wait_done <guest> <n>: the guest's console says DOMU-DONE for the <n>th
# time
wait_done() {
	end=$(awk "BEGIN{print $(up) + ${XDP_DOMU_LIMIT:-400}}")
	while [ "$(grep -c DOMU-DONE $CONSOLE_DIR/guest-$1.log 2>/dev/null)" -lt $2 ]; do
		awk "BEGIN{exit !($(up) >= $end)}" && { tail -30 $CONSOLE_DIR/guest-$1.log; fail "$1: no DOMU-DONE #$2"; }
		sleep 0.5
	done
}

# pair <backend> <A> <vif line A> <B> <vif line B>: step 1, A serving and
# B pinging and sending; its figures into $<backend>_rtt, $<backend>_mbits
pair() {
	guest_cfg $2 initrd.gz 128 "$3" "xdp.ip=10.0.0.2/24 xdp.count=0 xdp.iperfd=$((SECS + 300))"
	create_guest $2
	wait_guest $2 DOMU-IPERFD
	guest_cfg $4 initrd.gz 128 "$5" \
		"xdp.ip=10.0.0.3/24 xdp.peer=10.0.0.2 xdp.count=$COUNT xdp.interval=0.2 xdp.iperf=10.0.0.2:$SECS:send"
	create_guest $4
	wait_done $4 1
	wait_done $2 1
	grep -H 'DOMU-\|round-trip' $CONSOLE_DIR/guest-$2.log $CONSOLE_DIR/guest-$4.log
	pinged $4 "$1: B->A" 1; eval "${1}_rtt=$rtt"
	sent $4 "$1: B->A iperf3" 1; eval "${1}_mbits=$mbits"
}

# ours
ovs_start
pair ours s14-a "$(ovs_vif $mac_a)" s14-b "$(ovs_vif $mac_b)"
ports_are 1-two-guests s14-a s14-b

t=$(up); timeout 60 xl destroy s14-a || problem "xl destroy s14-a"
guest_cfg s14-a2 initrd.gz 128 "$(ovs_vif $mac_a)" \
	"xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.3 xdp.count=$COUNT xdp.interval=0.2 xdp.iperfd=$((SECS + 300))"
create_guest s14-a2
wait_guest s14-a2 DOMU-IPERFD
pinged s14-a2 "A2->B" 1; a2_rtt=$rtt
ports_are 2-a-destroyed-a2-created s14-a2 s14-b

# The new domain's console goes to a new log: the first one is set aside.
d1=$(xl domid s14-b)
mv $CONSOLE_DIR/guest-s14-b.log $CONSOLE_DIR/guest-s14-b-boot1.log
xl reboot s14-b || problem "xl reboot s14-b"
d2=$(wait_domid_change s14-b $d1) || fail "s14-b did not come back after xl reboot"
note "s14-b rebooted: domain $d1 -> $d2 after $(since $t)s"
wait_done s14-b 1
wait_done s14-a2 1
grep -H 'DOMU-\|round-trip' $CONSOLE_DIR/guest-s14-a2.log $CONSOLE_DIR/guest-s14-b.log
pinged s14-b "rebooted B->A2" 1; b2_rtt=$rtt
sent s14-b "rebooted B->A2 iperf3" 1; b2_mbits=$mbits
ports_are 3-b-rebooted s14-a2 s14-b

timeout 60 xl destroy s14-a2 || problem "xl destroy s14-a2"
timeout 60 xl destroy s14-b || problem "xl destroy s14-b"
sleep 2
ports_are 4-all-destroyed
note "ours (OVS-DPDK): $(since $t)s of lifecycle"
ovs_stop

# the kernel's xen-netback and a Linux bridge
modprobe xen-netback || fail "modprobe xen-netback"
modprobe bridge
ip link add xenbr0 type bridge && ip link set xenbr0 type bridge stp_state 0 forward_delay 0 &&
	ip link set xenbr0 up || fail "bridge setup"
pair kernel s14-ka "vif = [ 'bridge=xenbr0,mac=$mac_a' ]" s14-kb "vif = [ 'bridge=xenbr0,mac=$mac_b' ]"

echo "| backend | B->A ping avg rtt (ms) | B->A iperf3 Mbit/s |"
echo "|---|---|---|"
echo "| kernel xen-netback + Linux bridge | $kernel_rtt | $kernel_mbits |"
echo "| ours in OVS-DPDK | $ours_rtt | $ours_mbits |"
echo "| ours in OVS-DPDK, new A2->B | $a2_rtt | - |"
echo "| ours in OVS-DPDK, rebooted B->A2 | $b2_rtt | $b2_mbits |"
figures="ping B->A avg ${ours_rtt}/${kernel_rtt} ms, iperf3 B->A ${ours_mbits}/${kernel_mbits} Mbit/s (ours/kernel, $(ratio $ours_mbits $kernel_mbits)x)"
[ -z "$problems" ] || fail "$problems; $figures"
pass "OVS-DPDK: 2 guests, A destroyed, A2 created, B rebooted, all destroyed: ports followed, $((COUNT * 3))/$((COUNT * 3)) pings, $figures (TCG speed)"
