#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# The guides' backend for one guest claimed by name (domain=), run on the
# simulator as the guides write it, the simulator's devargs and EAL memory
# options added: a guest (web-1) is a simulated domain whose testpmd sends
# through our netfront. Checked for each forwarding mode the guides show
# (io in the deployment guide, icmpecho in xen_netback.rst): the port
# claims web-1's vif, receives its frames, and SIGINT ends it with status
# 0. Prints TAP.
#
# usage: test_guide_commands.sh <xsim-xl> <build dir>
set -u
xl="$1"
build="$2"
here=$(dirname "$(realpath "$0")")
. "$here/../common/sim_processes.sh" guide "$build"
sim="provider=sim,sim=$inst"
mem="--no-huge -m 512 --no-pci -d $plugins"

# backend_receives <n> <what> <log>: web-1's frames reach the backend
# started just before; then SIGINT, status 0.
backend_receives() {
	sim_guest dpdk-testpmd 3 txonly
	wait_for 'RX-packets: *[1-9]' "$3"
	local ok=$?
	kill -INT "$backend" "$guest3"
	wait "$backend"
	local rc=$?
	wait "$guest3"
	[ "$ok" = 0 ] && [ "$rc" = 0 ]
	tap_result $? "$1" "$2 (rc $rc)" "$3" "$work/guest3.log"
}

echo "1..2"
"$xl" "$inst" create 3 web-1
dpdk-testpmd -l 0,1 --file-prefix "nb-$$" $mem --vdev "net_xen_netback0,domain=web-1,$sim" -- --forward-mode=io --stats-period=1 --total-num-mbufs=8192 \
	>"$work/io.log" 2>&1 &
backend=$!
pids+=("$backend")
backend_receives 1 "domain=<guest name>, io: web-1's frames arrive" "$work/io.log"

dpdk-testpmd -l 0,1 $mem --file-prefix "nb-$$" --vdev "net_xen_netback0,domain=web-1,$sim" -- --forward-mode=icmpecho --total-num-mbufs=8192 --stats-period=1 \
	>"$work/icmpecho.log" 2>&1 &
backend=$!
pids+=("$backend")
backend_receives 2 "domain=<guest name>, icmpecho: web-1's frames arrive" "$work/icmpecho.log"
exit $fail
