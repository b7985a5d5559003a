# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 1: a stock Linux DomU (kernel xen-netfront) against our netback
# in Dom0 under dpdk-testpmd icmpecho. The guest resolves 10.0.0.1 by ARP and
# sends 1000 echo requests; all must be answered.
# Runs in Dom0; sourced by run.sh with NAME and S set.
. /host/scenarios/lib.sh
COUNT=${XDP_PING_COUNT:-1000}
domu=s1-linux
domid=$(next_domid)
trap 'collect; cleanup' EXIT

# XDP_VERBOSE=1: testpmd prints every packet it receives and sends
echo "set verbose ${XDP_VERBOSE:-0}" > /tmp/s1-testpmd.cmd
t0=$(up)
start_testpmd $S/testpmd.log --no-huge -m 512 --no-pci -l 0,1 --file-prefix s1 \
	-d $NETBACK_SO --log-level=pmd.net.xen_netback:info --log-level=lib.netif:info \
	--vdev net_xen_netback0,domid=$domid,handle=0,provider=xen \
	-- --forward-mode=icmpecho --stats-period 1 --total-num-mbufs=8192 --cmdline-file=/tmp/s1-testpmd.cmd
wait_for 120 $S/testpmd.log 'Start automatic packet forwarding|Checking link statuses' $TESTPMD_PID ||
	{ tail -30 $S/testpmd.log; fail "testpmd did not start forwarding within 120 s"; }
kill -0 $TESTPMD_PID 2>/dev/null || { tail -30 $S/testpmd.log; fail "testpmd exited"; }
note "testpmd up after $(since $t0)s (pid $TESTPMD_PID), claims vif $domid/0"

cat > /tmp/$domu.cfg <<CFG
name = "$domu"
type = "pv"
kernel = "/root/domu/vmlinuz"
ramdisk = "/root/domu/initrd.gz"
extra = "console=hvc0 quiet xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=$COUNT xdp.interval=0.01"
memory = 128
vcpus = 1
$(dpdk_vif_line)
CFG
note "domU config:"; cat /tmp/$domu.cfg
t1=$(up)
timeout 120 xl -vvv create /tmp/$domu.cfg > $S/xl-create.log 2>&1
rc=$?
domu_created $domu
note "xl create rc=$rc took $(since $t1)s domid=$(xl domid $domu 2>/dev/null)"
if [ $rc != 0 ]; then
	grep -E 'error|ERROR|fail|timed out|unable' $S/xl-create.log | grep -v 'libxl_event.c.*debug' | tail -15
	tail -30 $S/testpmd.log
	fail "xl create rc=$rc"
fi
[ "$(xl domid $domu)" = "$domid" ] || note "WARNING: guest got domid $(xl domid $domu), backend expected $domid"

con=$CONSOLE_DIR/guest-$domu.log
if ! wait_for ${XDP_DOMU_LIMIT:-400} $con 'DOMU-DONE' $TESTPMD_PID; then
	tail -30 $con; tail -40 $S/testpmd.log
	xenstore-ls -f /local/domain/0/backend/vif; xenstore-ls -f /local/domain/$domid/device/vif
	fail "guest did not finish within ${XDP_DOMU_LIMIT:-400} s"
fi
note "guest done after $(since $t1)s since xl create"
grep -E 'DOMU-|packets transmitted|round-trip' $con
stop_testpmd
sed -n '/Forward statistics for port 0/,/^ *+\{10,\}/p' $S/testpmd.log | tail -12
grep -E 'xen_netback|NETBACK|netif' $S/testpmd.log | head -30

grep -q 'DOMU-RESULT arp=ok' $con || fail "ARP for 10.0.0.1 not resolved"
res=$(grep 'DOMU-RESULT ping' $con)
tx=$(echo "$res" | sed -n 's/.*transmitted=\([0-9]*\).*/\1/p')
rx=$(echo "$res" | sed -n 's/.*received=\([0-9]*\).*/\1/p')
[ "$tx" = "$COUNT" ] && [ "$rx" = "$COUNT" ] || fail "ping: transmitted=$tx received=$rx of $COUNT"
pass "arp ok, $rx/$COUNT echo replies"
