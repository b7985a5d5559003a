# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 0 (a baseline, not in CI's list): the same stock Linux DomU and
# the same pings as scenario 1, against the kernel's xen-netback on a
# Dom0 bridge (10.0.0.1). Tells our bugs from the testbed's: whatever fails
# here fails without our PMDs. Loads xen-netback and unloads it at the end,
# so run it after the scenarios that need a userspace backend. Judged as
# scenario 1 is (ping_judged: every request answered once), and its rtt
# distribution printed beside scenario 1's in the same boot.
. /host/scenarios/lib.sh
COUNT=${XDP_PING_COUNT:-1000}
domu=s0-linux
trap 'collect; cleanup; ip link del xenbr0 2>/dev/null; rmmod xen-netback 2>/dev/null' EXIT
modprobe xen-netback || fail "modprobe xen-netback"
modprobe bridge
ip link add xenbr0 type bridge && ip addr add 10.0.0.1/24 dev xenbr0 && ip link set xenbr0 up || fail "bridge setup"
cat > /tmp/$domu.cfg <<CFG
name = "$domu"
type = "pv"
kernel = "/root/domu/vmlinux"
ramdisk = "/root/domu/initrd.gz"
extra = "console=hvc0 quiet xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=$COUNT xdp.interval=0.01 xdp.rtt=1 xdp.sizes=1000,1472 xdp.reload=2"
memory = 128
vcpus = 1
vif = [ 'bridge=xenbr0,mac=00:16:3e:00:00:02' ]
CFG
t1=$(up)
timeout 120 xl create /tmp/$domu.cfg > $S/xl-create.log 2>&1; rc=$?
note "xl create rc=$rc took $(since $t1)s"
[ $rc = 0 ] || { tail -20 $S/xl-create.log; fail "xl create rc=$rc"; }
con=$CONSOLE_DIR/guest-$domu.log
wait_for ${XDP_DOMU_LIMIT:-400} $con 'DOMU-DONE' || { tail -30 $con; fail "guest did not finish"; }
note "guest done after $(since $t1)s since xl create"
grep -E 'DOMU-|Segmentation' $con
ping_judged "kernel"
bad=$(grep -E 'DOMU-RESULT (size|reload)' $con | grep -v 'rc=0 ')
[ -z "$bad" ] || fail "$bad"
pass "kernel netback: $ANSWERED/$COUNT answered, rtt $RTT_LINE; sizes and reloads ok; segfaults in guest: $(grep -c Segmentation $con)"
