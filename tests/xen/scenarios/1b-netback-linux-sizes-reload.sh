# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 1b (not in the issue list): scenario 1 plus what a real Linux netfront
# does besides small pings: full-size (1514-byte) frames, which Linux splits into
# two slots where a buffer crosses a page, and unbinding and rebinding xen-netfront
# (frontend Closing/Closed, then a new Initialising on the same vif).
# Runs in Dom0; sourced by run.sh with NAME and S set.
. /host/scenarios/lib.sh
COUNT=${XDP_PING_COUNT:-200}
SIZES=${XDP_SIZES:-1000,1472}; RELOAD=${XDP_RELOAD:-2}
netback_ping_guest s1b "xdp.sizes=$SIZES xdp.reload=$RELOAD"
bad=$(grep -E 'DOMU-RESULT (size|reload)-' $con | grep -v 'rc=0 ')
n=$(grep -cE 'DOMU-RESULT (size|reload)-' $con)
exp=$(( $(echo $SIZES | tr ',' ' ' | wc -w) + RELOAD ))
[ -z "$bad" ] && [ "$n" = "$exp" ] || fail "$n of $exp size/reload runs reported; failed: $bad"
nu=$(grep -c 'DOMU-RELOAD .* unbind rc=0 eth0=gone' $con)
[ "$nu" = "$RELOAD" ] || fail "only $nu of $RELOAD unbinds took the vif away"
nc=$(grep -c 'InitWait -> Connected' $S/testpmd.log)
[ "$nc" = $((RELOAD + 1)) ] || fail "backend connected $nc times, expected $((RELOAD + 1))"
pass "arp ok, $ANSWERED/$COUNT small, sizes $SIZES and $RELOAD reloads all answered"
