# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 0c (baseline for 1c, not in the issue list): the same two stock
# Linux DomUs and the same ping + TCP transfer as scenario 1c, but the vifs
# are served by the kernel's xen-netback in Dom0 and joined by a Linux bridge
# (xenbr0). Whatever fails here fails without our PMDs. Loads xen-netback and
# unloads it at the end, so run it after the scenarios that need a userspace
# backend.
. /host/scenarios/lib.sh
BYTES=${XDP_TCP_BYTES:-4194304}
COUNT=${XDP_PING_COUNT:-100}
a=s0c-a; b=s0c-b
trap 'collect; cleanup; ip link del xenbr0 2>/dev/null; rmmod xen-netback 2>/dev/null' EXIT
modprobe xen-netback || fail "modprobe xen-netback"
modprobe bridge
# no address on the bridge: the guests talk to each other only
ip link add xenbr0 type bridge && ip link set xenbr0 type bridge stp_state 0 forward_delay 0 &&
	ip link set xenbr0 up || fail "bridge setup"

mkcfg() { # name mac extra
	cat <<CFG
name = "$1"
type = "pv"
kernel = "/root/domu/vmlinux"
ramdisk = "/root/domu/initrd.gz"
extra = "console=hvc0 quiet $3"
memory = 128
vcpus = 1
vif = [ 'bridge=xenbr0,mac=$2' ]
CFG
}
mkcfg $a 00:16:3e:00:00:03 "xdp.ip=10.0.0.3/24 xdp.peer=10.0.0.2 xdp.count=0 xdp.tcp=recv:5000:$BYTES" > /tmp/$a.cfg
mkcfg $b 00:16:3e:00:00:02 "xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.3 xdp.count=$COUNT xdp.interval=0.01 xdp.tcp=send:10.0.0.3:5000:$BYTES" > /tmp/$b.cfg
for d in $a $b; do
	t1=$(up)
	note "sha256 vmlinux $(sha256sum /root/domu/vmlinux | cut -c1-16) initrd $(sha256sum /root/domu/initrd.gz | cut -c1-16)"
	timeout 120 xl -vvv create /tmp/$d.cfg > $S/xl-create-$d.log 2>&1; rc=$?
	note "xl create $d rc=$rc took $(since $t1)s domid=$(xl domid $d 2>/dev/null)"
	[ $rc = 0 ] || { grep -iE 'error|fail' $S/xl-create-$d.log | tail -10; fail "xl create $d rc=$rc"; }
done
note "bridge: $(ls /sys/class/net/xenbr0/brif | tr '\n' ' ')"
for d in $b $a; do
	wait_for ${XDP_DOMU_LIMIT:-400} $CONSOLE_DIR/guest-$d.log 'DOMU-DONE' ||
		{ tail -20 $CONSOLE_DIR/guest-$d.log; fail "$d did not finish"; }
done
note "both guests done"
grep -H -E 'DOMU-|Segmentation' $CONSOLE_DIR/guest-$a.log $CONSOLE_DIR/guest-$b.log
for v in $(ls /sys/class/net/xenbr0/brif); do
	note "$v: rx $(cat /sys/class/net/$v/statistics/rx_packets) tx $(cat /sys/class/net/$v/statistics/tx_packets) rx_dropped $(cat /sys/class/net/$v/statistics/rx_dropped) tx_dropped $(cat /sys/class/net/$v/statistics/tx_dropped)"
done
segv=$(cat $CONSOLE_DIR/guest-$a.log $CONSOLE_DIR/guest-$b.log | grep -c Segmentation)
res=$(grep 'DOMU-RESULT ping' $CONSOLE_DIR/guest-$b.log)
echo "$res" | grep -q "transmitted=$COUNT received=$COUNT" || fail "ping B->A: $res (segfaults in guests: $segv)"
got=$(sed -n 's/.*tcp-recv bytes=\([0-9]*\).*/\1/p' $CONSOLE_DIR/guest-$a.log)
[ "${got:-0}" -ge "$BYTES" ] || fail "TCP: A received ${got:-0} of $BYTES bytes (segfaults in guests: $segv)"
pass "kernel netback + bridge: ping $COUNT/$COUNT, TCP $got bytes ($(grep -o 'tcp-recv.*' $CONSOLE_DIR/guest-$a.log)); segfaults in guests: $segv"
