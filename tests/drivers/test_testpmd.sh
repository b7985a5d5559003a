#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Two processes, the stock dpdk-testpmd in each, over one simulator
# instance: txonly on a netfront port, rxonly on a netback port. Every
# packet the frontend's testpmd counts as sent (at least 1000) must be
# counted as received by the backend's, for small and multi-slot frames,
# and with the offloads testpmd users enable for TCP (LRO and the checksum
# offloads on the backend, TSO and checksums on the frontend). Prints TAP.
#
# usage: test_testpmd.sh <dpdk-testpmd> <build dir>
set -u
testpmd="$1"
build="$2"
here=$(dirname "$(realpath "$0")")
. "$here/../common/sim_processes.sh" testpmd "$build"

# The netback's forwarding lcore has core 1 to itself; everything else
# (the netfront's forwarding lcore and both main lcores, which only print
# statistics) shares core 0, so neither process starts up behind a
# busy-polling lcore.
eal() {
	echo "--lcores 0@$1,1@$2 --no-huge -m 1024 --no-pci" \
	     "--file-prefix $3-$$ -d $plugins --log-level=pmd.net.xen*:info"
}
pmd_args="provider=sim,sim=$inst,domid=1"

# Sum of "<key>: N" from testpmd's accumulated forward statistics.
stat() {
	grep -A4 'Accumulated forward statistics for all ports' "$1" |
		grep -o "$2: *[0-9]*" | grep -o '[0-9]*$' | head -n 1
}

run_case() {
	local n=$1 name=$2 txpkts=$3 offloads=$4 back_offloads=${5:-}
	local blog="$work/back-$n.log" flog="$work/front-$n.log"

	"$testpmd" $(eal 0 1 nb) --vdev "net_xen_netback0,$pmd_args" -- \
		--forward-mode=rxonly --stats-period=1 --nb-cores=1 \
		--total-num-mbufs=32768 $back_offloads >"$blog" 2>&1 &
	local back=$!
	pids+=("$back")
	# testpmd's statistics start with forwarding: a frame the backend
	# took before would be missing from them.
	wait_for 'forwards packets on' "$blog"
	"$testpmd" $(eal 0 0 nf) \
		--vdev "net_xen_netfront0,$pmd_args" -- \
		--forward-mode=txonly --txpkts="$txpkts" $offloads \
		--stats-period=1 --nb-cores=1 --total-num-mbufs=32768 \
		>"$flog" 2>&1 &
	local front=$!
	pids+=("$front")
	# Ten seconds from the start of forwarding, not of the process: on a
	# loaded host, EAL and the mempool took most of a fixed budget.
	wait_for 'forwards packets on' "$flog"
	sleep 10
	kill -INT "$front"
	wait "$front"
	sleep 1
	kill -INT "$back"
	wait "$back"
	local sent received
	sent=$(stat "$flog" TX-packets)
	received=$(stat "$blog" RX-packets)
	echo "# $name: netfront sent ${sent:-?}, netback received ${received:-?}"
	# Ten seconds of traffic: a few bursts and a stall is a failure too.
	if [ -n "$sent" ] && [ -n "$received" ] && [ "$sent" -ge 1000 ] &&
	   [ "$sent" = "$received" ]; then
		echo "ok $n - $name"
		return 0
	fi
	echo "not ok $n - $name"
	sed 's/^/# back: /' "$blog" | tail -n 30
	sed 's/^/# front: /' "$flog" | tail -n 30
	return 1
}

fail=0
run_case 1 "txonly_64B_frames_all_arrive" 64 "" || fail=1
run_case 2 "txonly_9000B_frames_all_arrive" 2000,2000,2000,2000,1000 \
	"--tx-offloads=0x8000" || fail=1
# Tx: IPv4, UDP and TCP checksums, TSO, multi-segment.
run_case 3 "offloads_enabled_9000B_frames_all_arrive" \
	2000,2000,2000,2000,1000 "--tx-offloads=0x802e" \
	"--enable-lro --max-lro-pkt-size=65535 --enable-rx-cksum" || fail=1
echo "1..3"
exit $fail
