# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 4: our netfront PMD in a DomU (dpdk-testpmd icmpecho on
# net_xen_netfront, provider=xen) against the kernel's xen-netback in Dom0.
# Dom0 gives its end of the vif 10.0.0.1 and pings 10.0.0.2, which testpmd
# answers (ARP and ICMP) inside the guest; all XDP_PING_COUNT must come back.
. /host/scenarios/lib.sh
COUNT=${XDP_PING_COUNT:-200}
domu=s4-dpdk
kernel_netback
guest_cfg $domu initrd-dpdk.gz 256 "$(dpdk_vif_line)" "xdp.run=icmpecho:${XDP_ICMPECHO_SECS:-600}"
create_guest $domu
kernel_vif_up $domid 10.0.0.1/24
dpdk_guest_up $domu
t=$(up)
ping -c $COUNT -i 0.05 -W 5 -w $((COUNT / 5 + 60)) 10.0.0.2 > $S/ping.txt 2>&1
tail -3 $S/ping.txt
note "ping took $(since $t)s"
ip neigh show 10.0.0.2
rx=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' $S/ping.txt)
xl destroy $domu
grep -E 'DOMU-|xen_netfront|Error|error' $con | head -30
[ "${rx:-0}" = "$COUNT" ] || fail "ping 10.0.0.2 (testpmd icmpecho in the guest): ${rx:-0}/$COUNT answered"
pass "Dom0 -> guest's testpmd icmpecho over our netfront: $rx/$COUNT, $(grep -o 'rtt.*' $S/ping.txt)"
