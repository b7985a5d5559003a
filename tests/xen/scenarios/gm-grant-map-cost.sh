# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario gm: what mapping a guest's pages costs a backend in user space
# against copying them, on this Xen (app/xen-gnt-cost: Dom0 grants its own
# pages, as a guest would, and maps and copies them in batches of 1 to 64
# pages), and what letting go of a mapping costs (xa_gnt_detach(), the
# netback's tx_map_hold_ms). Passes when every map, unmap, copy and let go
# succeeded, and a page let go no longer shows the sharer's writes: in CI
# for that check, its 2 s the cheapest proof that the netback's let go
# works on Xen. The figures, ns a page and the estimated crossover packet
# size, are for the notes (compare them only within one boot: TCG).
. /host/scenarios/lib.sh
ROUNDS=${XDP_GNT_ROUNDS:-200}
modprobe xen-gntdev 2>/dev/null
modprobe xen-gntalloc 2>/dev/null
t0=$(up)
$PMD_DIR/xen-gnt-cost --provider xen --rounds $ROUNDS --json $S/gnt-cost.json \
	>$S/gnt-cost.txt 2>&1
rc=$?
cat $S/gnt-cost.txt
[ $rc = 0 ] || fail "xen-gnt-cost exited $rc: $(tail -1 $S/gnt-cost.txt)"
pass "$(grep '^crossover' $S/gnt-cost.txt), $ROUNDS rounds in $(since $t0)s"
