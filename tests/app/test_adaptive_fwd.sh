#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# app xen-adaptive-fwd over the simulator. Idle, it sleeps on its ports'
# Rx interrupts: in 3 s with a stats line a second, a handful of sleeps
# (each ends at a stats line), not the thousands of a fd that stays
# readable; with --idle-polls 0 it never sleeps. Forwarding (io) between
# two netback ports whose two netfronts a testpmd in another process runs
# in io mode with --tx-first, it passes packets both ways and still
# sleeps once that testpmd is gone, whether its idle spell is counted in
# polls (--idle-polls) or in time (--idle-us), and with --gso, which
# serves both ports with their large-segment offloads. Bad arguments (an unknown mode, a
# count that is not a number or too large, a stray operand, a --timeline
# outside icmpecho or where it cannot be written) end it at once with the
# usage or the reason, non-zero and without a summary. With a watcher and no
# guest it starts with no port; guests created later get ports it serves
# (web-1's frames reach web-2), a destroyed guest's port is removed while
# it serves on, and SIGTERM ends it with status 0, even one that comes
# while it is still starting, or while it sleeps with no stats line to
# wake it (--stats-period 0). Prints TAP.
#
# usage: test_adaptive_fwd.sh <xen-adaptive-fwd> <dpdk-testpmd> <xsim-xl> <build dir>
set -u
app="$1"
testpmd="$2"
xl="$3"
build="$4"
here=$(dirname "$(realpath "$0")")
. "$here/../common/sim_processes.sh" adaptive "$build"

# The app runs on one lcore; testpmd needs a forwarding lcore besides.
eal() {
	echo "--lcores $1 --no-huge -m 512 --no-pci --file-prefix $2-$$" \
	     "-d $plugins"
}
back="provider=sim,sim=$inst,domid=1"

# A key of the app's summary line (the last line, JSON).
summary() {
	tail -n 1 "$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['$2'])"
}

echo "1..8"

"$app" $(eal 0@0 idle) --vdev "net_xen_netback0,$back" -- --mode rxonly \
	--idle-polls 100 --stats-period 1 --duration 3 >"$work/idle.log" 2>&1
sleeps=$(summary "$work/idle.log" sleeps)
echo "# idle 3 s: $(tail -n 1 "$work/idle.log")"
if [ -n "$sleeps" ] && [ "$sleeps" -ge 1 ] && [ "$sleeps" -le 20 ]; then
	echo "ok 1 - an idle port sleeps until its stats line"
else
	echo "not ok 1 - an idle port sleeps until its stats line"
	sed 's/^/# /' "$work/idle.log" | tail -n 20
	fail=1
fi

"$app" $(eal 0@0 poll) --vdev "net_xen_netback0,$back" -- --mode rxonly \
	--idle-polls 0 --stats-period 1 --duration 2 >"$work/poll.log" 2>&1
sleeps=$(summary "$work/poll.log" sleeps)
echo "# polling 2 s: $(tail -n 1 "$work/poll.log")"
if [ "$sleeps" = 0 ]; then
	echo "ok 2 - with --idle-polls 0 it polls"
else
	echo "not ok 2 - with --idle-polls 0 it polls"
	fail=1
fi

# forwarding <n> <idle option> <value> [--gso]: io between two netback
# ports whose two netfronts a testpmd in another process runs in io mode
forwarding() {
	local n=$1 log="$work/fwd-$1.log" gso=${4:-}

	"$app" $(eal 0@1 fwd) --vdev "net_xen_netback0,$back,handle=0" \
		--vdev "net_xen_netback1,$back,handle=1" -- --mode io \
		"$2" "$3" $gso --stats-period 1 >"$log" 2>&1 &
	local fwd=$!
	pids+=("$fwd")
	"$testpmd" $(eal 0@0,1@0 guest) \
		--vdev "net_xen_netfront0,$back,handle=0" \
		--vdev "net_xen_netfront1,$back,handle=1" -- \
		--forward-mode=io --tx-first --stats-period=1 --nb-cores=1 \
		--total-num-mbufs=16384 >"$work/guest-$n.log" 2>&1 &
	local guest=$!
	pids+=("$guest")
	# Timed from when the guest forwards, not from its start: on a loaded
	# host EAL and the mempool took most of a fixed budget. Then 4 s
	# idle: the stats lines after it left.
	wait_for 'forwards packets on' "$work/guest-$n.log"
	sleep 3
	kill -INT "$guest"
	wait "$guest"
	sleep 4
	terminate "$fwd" 20
	echo "# forwarding, $2 $3: $(tail -n 1 "$log")"
	local rx tx late_sleeps
	rx=$(summary "$log" rx)
	tx=$(summary "$log" tx)
	# The stats lines after testpmd left: sleeps while idle again.
	late_sleeps=$(grep '^rx-pps' "$log" | tail -n 3 |
		awk '{ s += $6 } END { print s + 0 }')
	echo "# sleeps in the last 3 s: $late_sleeps"
	[ -n "$rx" ] && [ "$rx" -ge 1000 ] && [ "$tx" -ge 1000 ] &&
		[ "$late_sleeps" -ge 1 ] &&
		{ [ -z "$gso" ] || [ "$(grep -c ': serving, 1 queues, GSO$' "$log")" = 2 ]; }
	tap_result $? "$n" "it forwards while busy and sleeps once idle ($2 $3${gso:+ $gso})" \
		"$log" "$work/guest-$n.log"
}
forwarding 3 --idle-polls 100
forwarding 4 --idle-us 1000 --gso

# bad <expected stderr> <app args...>: refused before any port starts
bad_ok=1
bad() {
	want=$1; shift
	if "$app" $(eal 0@0 bad) --vdev "net_xen_netback0,$back" -- "$@" \
		>"$work/bad.log" 2>&1; then
		echo "# $*: exit status 0"; bad_ok=0
	elif ! grep -q -- "$want" "$work/bad.log" || grep -q '^{' "$work/bad.log"; then
		echo "# $*: no '$want' or a summary:"
		sed 's/^/#   /' "$work/bad.log" | tail -n 5; bad_ok=0
	fi
}
bad "usage:" --mode bogus
bad "usage:" --idle-polls x
bad "usage:" --idle-polls -1
bad "usage:" --idle-us 1ms
bad "usage:" --duration 4294967296
bad "usage:" --mode rxonly stray
bad "usage:" --timeline "$work/timeline"
bad "cannot write the timeline $work/no/timeline" --mode icmpecho \
	--timeline "$work/no/timeline"
if [ $bad_ok = 1 ]; then
	echo "ok 5 - bad arguments are refused with the reason"
else
	echo "not ok 5 - bad arguments are refused with the reason"
	fail=1
fi

# Ports that come and go: a watcher's, one per guest created later. The
# app runs on CPU 0, beside the guests' main lcores, which sleep between
# stats lines, not on CPU 1 beside their busy forwarding lcores: there,
# woken by the doorbells some ten thousand times a second, it kept CPU 1's
# kernel workers from running for tens of seconds on this kind of
# machine's kernel (Linux 6.18, 2 vCPUs; dmesg: "workqueue lockup - pool
# cpus=1 ... stuck for 48s"), and this script's wait4() for a child that
# had ended spun in the kernel (release_task -> d_invalidate ->
# shrink_dcache_parent) until the app or a guest was stopped (SIGSTOP):
# 14 to 194 s in about one run in ten, once 24 minutes; the likely cause of
# the two meson timeouts CI saw in this case.
log="$work/hotplug.log"
"$app" $(eal 0@0 hotplug) \
	--vdev "net_xen_netback_vifs,vifs=web-*,provider=sim,sim=$inst" -- \
	--mode io --stats-period 1 >"$log" 2>&1 &
fwd=$!
pids+=("$fwd")
ok=0
wait_for 'no port yet' "$log" || ok=1
"$xl" "$inst" create 3 web-1 && "$xl" "$inst" create 5 web-2 || ok=1
wait_for 'net_xen_netback_vif5.0): serving' "$log" || ok=1
sim_guest "$testpmd" 5 rxonly
sim_guest "$testpmd" 3 txonly
wait_for 'RX-packets: *[1-9]' "$work/guest5.log" || ok=1
terminate "$guest5" 20
"$xl" "$inst" destroy 5 || ok=1
wait_for 'net_xen_netback_vif5.0): removed' "$log" || ok=1
kill -0 "$fwd" || ok=1
terminate "$guest3" 20
terminate "$fwd" 20 || ok=1
grep -q '^{' "$log" || ok=1
sed -n 's/^port /# port /p' "$log"
tap_result $ok 6 "guests created later are served, a destroyed one's port removed" \
	"$log" "$work/guest5.log"

# systemd stops a service whenever it likes, starting up included: a
# SIGTERM while EAL is still being set up ends it with status 0 too.
log="$work/early.log"
"$app" $(eal 0@0 early) --vdev "net_xen_netback0,$back" -- --mode rxonly \
	>"$log" 2>&1 &
early=$!
pids+=("$early")
# its first EAL line: main() has begun, EAL is setting up (a signal
# before main() would end any program: nothing to test there)
for _ in $(seq 500); do
	grep -q '^EAL: ' "$log" && break
	sleep 0.01
done
terminate "$early" 20
rc=$?
[ "$rc" = 0 ]
tap_result $? 7 "SIGTERM during start-up: status 0 (rc $rc)" "$log"

# Asleep with no timeout (no stats line, no guest): a SIGTERM ends the
# sleep, as systemd's stop of an idle service needs (not within 10 s:
# killed, rc 137).
log="$work/asleep.log"
"$app" $(eal 0@0 asleep) --vdev "net_xen_netback0,$back" -- --mode rxonly \
	--idle-polls 100 --stats-period 0 >"$log" 2>&1 &
asleep=$!
pids+=("$asleep")
wait_for ': serving' "$log"
sleep 1	# 100 empty rounds: long asleep
terminate "$asleep" 10
rc=$?
[ "$rc" = 0 ] && grep -q '"sleeps": [1-9]' "$log"
tap_result $? 8 "SIGTERM while asleep with no timeout: status 0 (rc $rc)" "$log"
exit $fail
