# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 1: a stock Linux DomU (kernel xen-netfront) against our netback
# in Dom0 under dpdk-testpmd icmpecho. The guest resolves 10.0.0.1 by ARP and
# sends 1000 echo requests (iputils ping, every reply's rtt printed); each
# must be answered exactly once, however late while ping waits (up to 30 s
# after the last). The rtt distribution is printed: scenario 0 prints the
# kernel netback's for the same guest and pings in the same boot.
# Runs in Dom0; sourced by run.sh with NAME and S set.
. /host/scenarios/lib.sh
COUNT=${XDP_PING_COUNT:-1000}
netback_ping_guest s1 ""
pass "arp ok, $ANSWERED/$COUNT answered, rtt $RTT_LINE"
