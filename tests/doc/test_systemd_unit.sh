#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# config/systemd/xen-netback-dpdk.service as systemd would run it: the
# unit passes systemd-analyze verify, and its ExecStart= line, expanded
# from the environment file example with the simulator's values (provider,
# file prefix, memory without hugepages, the plugin directory), serves two
# simulated guests whose vifs the watcher found: web-1's frames reach
# web-2. SIGTERM (systemctl stop) ends it with status 0; started again, it
# attaches to the guests' rings (on_close=detach) and web-2 receives
# again; SIGTERM again, status 0. Prints TAP.
#
# usage: test_systemd_unit.sh <dpdk-testpmd> <xsim-xl> <build dir>
set -u
testpmd="$1"
xl="$2"
build="$3"
here=$(dirname "$(realpath "$0")")
. "$here/../common/sim_processes.sh" unit "$build"
unit="$here/../../config/systemd/xen-netback-dpdk.service"
envfile="$here/../../config/systemd/xen-netback-dpdk.env.example"

echo "1..5"
if command -v systemd-analyze >/dev/null; then
	# A unit file is verified under its own name, as installed.
	systemd-analyze verify "$unit" >"$work/verify.log" 2>&1
	tap_result $? 1 "systemd-analyze verify accepts the unit" "$work/verify.log"
else
	echo "ok 1 # SKIP no systemd-analyze"
fi

# The example's values, but on the simulator and without hugepages.
eal=$(sed -n 's/^EAL_ARGS="\(.*\)"$/\1/p' "$envfile")
vdevs=$(sed -n 's/^VDEV_ARGS="\(.*\)"$/\1/p' "$envfile")
eal="${eal/--file-prefix xen-netback/--file-prefix unit-$$} --no-huge -m 512 --no-pci -d $plugins"
vdevs="${vdevs/provider=xen/provider=sim,sim=$inst}"
mapfile -d '' cmd < <(python3 "$here/systemd_exec.py" "$unit" "$envfile" \
	"EAL_ARGS=$eal" "VDEV_ARGS=$vdevs")
echo "# ${cmd[*]}"

# service <n>: systemd's start: the command, stdin /dev/null.
service() {
	"${cmd[@]}" </dev/null >"$work/service$1.log" 2>&1 &
	backend=$!
	pids+=("$backend")
}
# stop <n>: systemd's stop: SIGTERM, then the status (137: still there
# after 20 s, killed).
stop() {
	kill -TERM "$backend"
	for _ in $(seq 200); do
		kill -0 "$backend" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$backend" 2>/dev/null && kill -KILL "$backend"
	wait "$backend"
}
# rx_web2: the packets web-2's testpmd last said it received
rx_web2() {
	grep -o 'RX-packets: *[0-9]*' "$work/guest5.log" | tail -n 1 |
		grep -o '[0-9]*$'
}

"$xl" "$inst" create 3 web-1 && "$xl" "$inst" create 5 web-2
service 1
wait_for 'Start automatic packet forwarding\|Press enter' "$work/service1.log"
sim_guest "$testpmd" 5 rxonly
sim_guest "$testpmd" 3 txonly
wait_for 'RX-packets: *[1-9]' "$work/guest5.log"
tap_result $? 2 "the unit's command serves the watcher's guests: web-1's frames reach web-2" \
	"$work/service1.log" "$work/guest5.log"

stop 1
rc=$?
[ "$rc" = 0 ]
tap_result $? 3 "SIGTERM stops it with status 0 (rc $rc)" "$work/service1.log"

sleep 1
before=$(rx_web2)
service 2
ok=1
for _ in $(seq 200); do
	[ "$(rx_web2)" -gt "${before:-0}" ] && { ok=0; break; }
	sleep 0.1
done
[ "$ok" = 0 ]
tap_result $? 4 "started again, it serves the same guests (web-2: $before -> $(rx_web2) packets)" \
	"$work/service2.log" "$work/guest5.log"

stop 2
rc=$?
[ "$rc" = 0 ]
tap_result $? 5 "SIGTERM again: status 0 (rc $rc)" "$work/service2.log"
kill -INT "$guest3" "$guest5"
wait "$guest3" "$guest5"
exit $fail
