# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 1: a stock Linux DomU (kernel xen-netfront) against our netback
# in Dom0 under dpdk-testpmd icmpecho. The guest resolves 10.0.0.1 by ARP and
# sends 1000 echo requests (iputils ping, every reply's rtt printed); each
# must be answered exactly once, however late while ping waits (up to 30 s
# after the last). The rtt distribution is printed: scenario 0 prints the
# kernel netback's for the same guest and pings in the same boot.
# Then what a real Linux netfront does besides small pings: full-size
# (1514-byte) frames, which Linux splits into two slots where a buffer
# crosses a page, and unbinding and rebinding xen-netfront twice (frontend
# Closing/Closed, then a new Initialising on the same vif), each followed
# by pings that must be answered.
# Runs in Dom0; sourced by run.sh with NAME and S set.
. /host/scenarios/lib.sh
COUNT=${XDP_PING_COUNT:-1000}
SIZES=${XDP_SIZES:-1000,1472}; RELOAD=${XDP_RELOAD:-2}
netback_ping_guest s1 "xdp.sizes=$SIZES xdp.reload=$RELOAD"
bad=$(grep -E 'DOMU-RESULT (size|reload)-' $con | grep -v 'rc=0 ')
n=$(grep -cE 'DOMU-RESULT (size|reload)-' $con)
exp=$(( $(echo $SIZES | tr ',' ' ' | wc -w) + RELOAD ))
[ -z "$bad" ] && [ "$n" = "$exp" ] || fail "$n of $exp size/reload runs reported; failed: $bad"
nu=$(grep -c 'DOMU-RELOAD .* unbind rc=0 eth0=gone' $con)
[ "$nu" = "$RELOAD" ] || fail "only $nu of $RELOAD unbinds took the vif away"
nc=$(grep -c 'InitWait -> Connected' $S/testpmd.log)
[ "$nc" = $((RELOAD + 1)) ] || fail "backend connected $nc times, expected $((RELOAD + 1))"
pass "arp ok, $ANSWERED/$COUNT answered, rtt $RTT_LINE; sizes $SIZES and $RELOAD reloads all answered"
