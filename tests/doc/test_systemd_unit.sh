#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# The systemd unit meson makes of config/systemd/xen-netback-dpdk.service.in
# as systemd would run it: the unit passes systemd-analyze verify, and its
# ExecStart= line, expanded from the environment file example with the
# simulator's values (provider, file prefix, memory without hugepages, the
# plugin directory), serves two simulated guests whose vifs the watcher
# found: web-1's frames reach web-2. Two guests created while it runs are
# served too (web-3's frames reach web-4). SIGTERM (systemctl stop) ends
# it with status 0; started again, it attaches to the guests' rings
# (on_close=detach) and web-2 receives again; SIGTERM again, status 0.
# xen-adaptive-fwd runs from the build tree, not from the unit's
# installed path. Prints TAP.
#
# usage: test_systemd_unit.sh <unit> <xen-adaptive-fwd> <dpdk-testpmd> <xsim-xl> <build dir>
set -u
built_unit="$1"
app="$2"
testpmd="$3"
xl="$4"
build="$5"
here=$(dirname "$(realpath "$0")")
. "$here/../common/sim_processes.sh" unit "$build"
envfile="$here/../../config/systemd/xen-netback-dpdk.env.example"
# Under its own name, as installed; the program where it was built.
unit="$work/$(basename "$built_unit")"
sed "s|^ExecStart=[^ ]*/xen-adaptive-fwd |ExecStart=$app |" "$built_unit" >"$unit"

echo "1..6"
if command -v systemd-analyze >/dev/null; then
	systemd-analyze verify "$unit" >"$work/verify.log" 2>&1
	tap_result $? 1 "systemd-analyze verify accepts the unit" "$work/verify.log"
else
	echo "ok 1 # SKIP no systemd-analyze"
fi

# The example's values, but on the simulator and without hugepages.
eal=$(sed -n 's/^EAL_ARGS="\(.*\)"$/\1/p' "$envfile")
vdevs=$(sed -n 's/^VDEV_ARGS="\(.*\)"$/\1/p' "$envfile")
eal="${eal/--file-prefix xen-netback/--file-prefix unit-$$} --no-huge -m 512 --no-pci -d $plugins"
# On CPU 0, not the example's CPU 1, where the guests' forwarding lcores
# poll: beside them the app starves CPU 1's kernel workers (see case 6 of
# tests/app/test_adaptive_fwd.sh).
case $eal in
"-l 1 "*) eal="-l 0 ${eal#-l 1 }" ;;
*) echo "Bail out! the example's EAL_ARGS no longer begin with -l 1: $eal"; exit 1 ;;
esac
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
# stop: systemd's stop: SIGTERM, then the status (137: still there
# after 20 s, killed); how long it took in $took (seconds).
stop() {
	local t0=$SECONDS rc

	terminate "$backend" 20
	rc=$?
	took=$((SECONDS - t0))
	return $rc
}
# rx_web2: the packets web-2's testpmd last said it received
rx_web2() {
	grep -o 'RX-packets: *[0-9]*' "$work/guest5.log" | tail -n 1 |
		grep -o '[0-9]*$'
}

"$xl" "$inst" create 3 web-1 && "$xl" "$inst" create 5 web-2
service 1
wait_for 'vif5.0): serving' "$work/service1.log"
sim_guest "$testpmd" 5 rxonly
sim_guest "$testpmd" 3 txonly
wait_for 'RX-packets: *[1-9]' "$work/guest5.log"
tap_result $? 2 "the unit's command serves the watcher's guests: web-1's frames reach web-2" \
	"$work/service1.log" "$work/guest5.log"

"$xl" "$inst" create 7 web-3 && "$xl" "$inst" create 9 web-4
wait_for 'vif9.0): serving' "$work/service1.log"
sim_guest "$testpmd" 9 rxonly
sim_guest "$testpmd" 7 txonly
wait_for 'RX-packets: *[1-9]' "$work/guest9.log"
tap_result $? 3 "guests created while it runs are served: web-3's frames reach web-4" \
	"$work/service1.log" "$work/guest9.log"
terminate "$guest7" 20
terminate "$guest9" 20

stop
rc=$?
[ "$rc" = 0 ]
tap_result $? 4 "SIGTERM stops it with status 0 (rc $rc, ${took} s)" "$work/service1.log"

sleep 1
before=$(rx_web2)
service 2
ok=1
for _ in $(seq 200); do
	[ "$(rx_web2)" -gt "${before:-0}" ] && { ok=0; break; }
	sleep 0.1
done
[ "$ok" = 0 ]
tap_result $? 5 "started again, it serves the same guests (web-2: $before -> $(rx_web2) packets)" \
	"$work/service2.log" "$work/guest5.log"

stop
rc=$?
[ "$rc" = 0 ]
tap_result $? 6 "SIGTERM again: status 0 (rc $rc, ${took} s)" "$work/service2.log"
terminate "$guest3" 20
terminate "$guest5" 20
exit $fail
