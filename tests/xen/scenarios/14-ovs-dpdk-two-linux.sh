# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 14: stock Linux guests as OVS-DPDK ports, as an NFV Dom0 runs
# them; with XDP_COMPARE=1, against the same guests on the kernel's
# xen-netback and a Linux bridge in the same boot.
#
# Ours: Debian's OVS-DPDK (ovs-vswitchd-dpdk, chosen with
# update-alternatives as the README says) with userspace TSO
# (other_config:userspace-tso-enable: OVS enables Tx TSO on its dpdk ports,
# so ours offer the guests GSO) and load-based PMD sleep (pmd-maxsleep, so
# an idle PMD thread leaves Dom0's CPU to others) loads our netback with a
# watcher (vifs=s14-*, gso_contiguous=1: a large segment in one mbuf, as
# OVS copies it) in dpdk-extra; bridge br0 (netdev datapath); every
# guest's vif line is 'script=vif-ovs-dpdk,bridge=br0', so xl's hotplug
# script adds and removes its OVS port. Then, while OVS runs:
#   1. guest A serves iperf3, guest B pings A ($COUNT requests), sends to
#      it with iperf3 for $SECS s, then receives from it (-R);
#   2. A is destroyed and a new guest A2 (A's address) pings B, then
#      serves iperf3;
#   3. B is rebooted (a new domain id): it pings A2 and sends to it again;
#   4. both are destroyed.
# After each step OVS's ports on br0 are exactly the running guests' vifs
# and OVS's DPDK has a port for each, no more (telemetry: /ethdev/list,
# /xen_netback/watchers). Kernel (XDP_COMPARE=1): step 1 with the kernel's
# xen-netback and the vifs on a Linux bridge.
#
# Passes on correctness: every request answered, every iperf3 run
# complete, no port left behind, no checksum error in a guest
# (InCsumErrors), and with ours the receiving guest gets large segments
# (more than 1514 bytes a packet on its eth0) both ways. The pings' round
# trips, the iperf3 Mbit/s, the bytes a packet at the receiving guest and
# Dom0's CPU seconds while each of step 1's iperf3 runs goes (xl list:
# Dom0's vCPUs busy, OVS's PMD thread included) of both backends, and with
# ours the grant-copy segments and page splits a packet, are printed for a
# human, not judged: under TCG, whose guests and Dom0 share two CPUs, they
# compare only with each other.
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
		other_config:userspace-tso-enable=true other_config:pmd-maxsleep=1000 \
		"other_config:dpdk-extra=--no-huge -m 512 --legacy-mem --no-pci --file-prefix ovs -d $NETBACK_SO --vdev net_xen_netback_vifs,vifs=s14-*,provider=xen,gso_contiguous=1"
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
# sent <guest> <what> <n> [dir]: the guest's <n>th iperf3 run that way
# (send, or recv: -R) completed; the receiver's Mbit/s into $mbits, the
# bytes a packet the guest received (rx_avg) into $rx_avg
sent() {
	r=$(grep "DOMU-RESULT iperf-${4:-send}" $CONSOLE_DIR/guest-$1.log | sed -n "$3p")
	mbits=$(iperf_mbits "$r")
	rx_avg=$(echo "$r" | sed -n 's/.* rx_avg=\([0-9]*\).*/\1/p')
	[ -n "$mbits" ] || { problem "$2: ${r:-no iperf3 result}"; mbits=-; }
}
# served <guest> <n>: the bytes a packet the guest received during the
# <n>th test it served, into $rx_avg
served() {
	rx_avg=$(grep 'DOMU-RESULT iperfd' $CONSOLE_DIR/guest-$1.log | sed -n "$2p" |
		sed -n 's/.* rx_avg=\([0-9]*\).*/\1/p')
}
# csum_ok <guest>...: no TCP, UDP or IP checksum error in the guests
csum_ok() {
	for g in "$@"; do
		n=$(grep -h 'DOMU-STAT csum_errors' $CONSOLE_DIR/guest-$g*.log | tail -1 |
			sed -n 's/.*csum_errors=\([0-9]*\).*/\1/p')
		[ "$n" = 0 ] || problem "$g: ${n:-no} checksum errors (InCsumErrors)"
	done
}
# large <what> <bytes>: with ours, the receiving guest got large segments
large() {
	[ "${2:-0}" -gt 1514 ] || problem "$1: ${2:-no} bytes a packet at the receiving guest, no large segments"
}
# copy_cost: over OVS's DPDK ports (telemetry /ethdev/xstats), grant-copy
# segments and the page splits Linux's gntdev adds to them, per packet
# moved (received + sent), into $ops_pkt and $splits_pkt
copy_cost() {
	ids=$(sed -n 's/.*"\/ethdev\/list": \[\([0-9, ]*\)\].*/\1/p' $S/telemetry-$1.txt | tr ',' ' ')
	for i in $ids; do echo "/ethdev/xstats,$i"; done | dpdk-telemetry.py -f ovs \
		> $S/xstats-$1.txt 2>&1
	set -- $(python3 - $S/xstats-$1.txt <<'PY'
import json, sys
ops = splits = pkts = 0
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    for x in r.values():
        if not isinstance(x, dict):
            continue
        for k, v in x.items():
            ops += v if k.endswith("_grant_copy_ops") else 0
            splits += v if k.endswith("_grant_copy_page_splits") else 0
            pkts += v if k in ("rx_good_packets", "tx_good_packets") else 0
print("%.2f %.2f" % (ops / pkts, splits / pkts) if pkts else "- -")
PY
)
	ops_pkt=${1:--} splits_pkt=${2:--}
}
# cpu_s <from> <to>: Dom0's CPU seconds between two dom0_cpu readings
cpu_s() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a != "" && b != "") print b - a; else print "-" }'; }
# dom0_cpu: Dom0's vCPU seconds so far (xl list's Time(s))
dom0_cpu() {
	xl list 0 | awk 'NR == 2 { print $NF }'
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
# B pinging, sending and receiving; its figures into $<backend>_rtt,
# $<backend>_mbits (B->A), $<backend>_rmbits (A->B), $<backend>_avg and
# $<backend>_ravg (bytes a packet at A, at B), $<backend>_cpu and
# $<backend>_rcpu (Dom0's CPU seconds from B's ping result to its B->A
# result, and from there to its DOMU-DONE: each iperf3 run's)
pair() {
	guest_cfg $2 initrd.gz 128 "$3" "xdp.ip=10.0.0.2/24 xdp.count=0 xdp.iperfd=$((SECS + 300)):2"
	create_guest $2
	wait_guest $2 DOMU-IPERFD
	guest_cfg $4 initrd.gz 128 "$5" \
		"xdp.ip=10.0.0.3/24 xdp.peer=10.0.0.2 xdp.count=$COUNT xdp.interval=0.2 xdp.iperf=10.0.0.2:$SECS"
	create_guest $4
	wait_guest $4 'DOMU-RESULT ping'
	[ $1 != ours ] || ovs-appctl dpif-netdev/pmd-stats-clear >/dev/null
	c0=$(dom0_cpu)
	wait_guest $4 'DOMU-RESULT iperf-send'
	cm=$(dom0_cpu)
	wait_done $4 1
	c1=$(dom0_cpu)
	if [ $1 = ours ]; then
		ovs-appctl dpif-netdev/pmd-stats-show > $S/pmd-stats.txt 2>&1
		note "OVS's PMD over both runs: $(grep -E 'idle cycles|processing cycles|sleep' $S/pmd-stats.txt | tr -s ' ' | tr '\n' ';')"
	fi
	wait_done $2 1
	grep -H 'DOMU-\|round-trip' $CONSOLE_DIR/guest-$2.log $CONSOLE_DIR/guest-$4.log
	pinged $4 "$1: B->A" 1; eval "${1}_rtt=$rtt"
	sent $4 "$1: B->A iperf3" 1; eval "${1}_mbits=$mbits"
	served $2 1; eval "${1}_avg=$rx_avg"
	sent $4 "$1: A->B iperf3" 1 recv; eval "${1}_rmbits=$mbits ${1}_ravg=$rx_avg"
	eval "${1}_cpu=$(cpu_s "$c0" "$cm") ${1}_rcpu=$(cpu_s "$cm" "$c1")"
	csum_ok $2 $4
}

# ours
ovs_start
pair ours s14-a "$(ovs_vif $mac_a)" s14-b "$(ovs_vif $mac_b)"
large "ours: B->A" "$ours_avg"
large "ours: A->B" "$ours_ravg"
ports_are 1-two-guests s14-a s14-b
copy_cost 1-two-guests
note "ours: grant-copy segments a packet $ops_pkt, page splits a packet $splits_pkt"

t=$(up); timeout 60 xl destroy s14-a || problem "xl destroy s14-a"
guest_cfg s14-a2 initrd.gz 128 "$(ovs_vif $mac_a)" \
	"xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.3 xdp.count=$COUNT xdp.interval=0.2 xdp.iperfd=$((SECS + 300)):2"
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
sent s14-b "rebooted A2->B iperf3" 1 recv; b2_rmbits=$mbits
csum_ok s14-a2 s14-b
ports_are 3-b-rebooted s14-a2 s14-b

timeout 60 xl destroy s14-a2 || problem "xl destroy s14-a2"
timeout 60 xl destroy s14-b || problem "xl destroy s14-b"
sleep 2
ports_are 4-all-destroyed
note "ours (OVS-DPDK): $(since $t)s of lifecycle"
ovs_stop

# the kernel's xen-netback and a Linux bridge: a comparison
if comparing; then
	modprobe xen-netback || fail "modprobe xen-netback"
	modprobe bridge
	ip link add xenbr0 type bridge && ip link set xenbr0 type bridge stp_state 0 forward_delay 0 &&
		ip link set xenbr0 up || fail "bridge setup"
	pair kernel s14-ka "vif = [ 'bridge=xenbr0,mac=$mac_a' ]" s14-kb "vif = [ 'bridge=xenbr0,mac=$mac_b' ]"
fi

# Mbit moved per Dom0 CPU second, each way
per_cpu() { awk -v a="$1" -v c="${2:-0}" -v s="$SECS" 'BEGIN{ if (c + 0 > 0 && a != "-") printf "%.1f", a * s / c; else print "-" }'; }
ours_eff=$(per_cpu $ours_mbits $ours_cpu) ours_reff=$(per_cpu $ours_rmbits $ours_rcpu)
kernel_eff=$(per_cpu $kernel_mbits $kernel_cpu) kernel_reff=$(per_cpu $kernel_rmbits $kernel_rcpu)
echo "| backend | B->A ping avg rtt (ms) | B->A iperf3 Mbit/s | A->B iperf3 Mbit/s | bytes/packet at A, at B | Dom0 CPU s B->A, A->B | Mbit per Dom0 CPU s B->A, A->B |"
echo "|---|---|---|---|---|---|---|"
comparing && echo "| kernel xen-netback + Linux bridge | $kernel_rtt | $kernel_mbits | $kernel_rmbits | $kernel_avg, $kernel_ravg | $kernel_cpu, $kernel_rcpu | $kernel_eff, $kernel_reff |"
echo "| ours in OVS-DPDK (userspace TSO) | $ours_rtt | $ours_mbits | $ours_rmbits | $ours_avg, $ours_ravg | $ours_cpu, $ours_rcpu | $ours_eff, $ours_reff |"
echo "| ours in OVS-DPDK, new A2->B | $a2_rtt | - | - | - | - | - |"
echo "| ours in OVS-DPDK, rebooted B->A2 | $b2_rtt | $b2_mbits | $b2_rmbits | - | - | - |"
figures="grant-copy segments a packet $ops_pkt + page splits $splits_pkt (ours), ping B->A avg ${ours_rtt}/${kernel_rtt} ms, iperf3 B->A ${ours_mbits}/${kernel_mbits} Mbit/s ($(ratio $ours_mbits $kernel_mbits)x), A->B ${ours_rmbits}/${kernel_rmbits} Mbit/s ($(ratio $ours_rmbits $kernel_rmbits)x), bytes/packet at A ${ours_avg}/${kernel_avg}, at B ${ours_ravg}/${kernel_ravg}, Dom0 CPU s B->A ${ours_cpu}/${kernel_cpu}, A->B ${ours_rcpu}/${kernel_rcpu}, Mbit per Dom0 CPU s B->A ${ours_eff}/${kernel_eff} ($(ratio $ours_eff $kernel_eff)x), A->B ${ours_reff}/${kernel_reff} ($(ratio $ours_reff $kernel_reff)x) (ours/kernel)"
comparing || figures="grant-copy segments a packet $ops_pkt + page splits $splits_pkt, ping B->A avg $ours_rtt ms, iperf3 B->A $ours_mbits Mbit/s, A->B $ours_rmbits Mbit/s, bytes/packet at A $ours_avg, at B $ours_ravg, Dom0 CPU s B->A $ours_cpu, A->B $ours_rcpu, Mbit per Dom0 CPU s B->A $ours_eff, A->B $ours_reff; the kernel's xen-netback $NOT_COMPARED"
[ -z "$problems" ] || fail "$problems; $figures"
pass "OVS-DPDK: 2 guests, A destroyed, A2 created, B rebooted, all destroyed: ports followed, $((COUNT * 3))/$((COUNT * 3)) pings, $figures (TCG speed)"
