# SPDX-License-Identifier: BSD-3-Clause
#
# Sourced by the test scripts that run DPDK processes over a simulator
# instance of their own. Sets $inst (the instance, "<tag>-<pid>-<ns>": of
# the pid alone it could be a killed test's, guests and all, whose pid
# this one has now; xsim_instance_name_private() in C),
# $plugins (a private copy of the two PMD plugins, for EAL's -d), $work (a
# scratch directory) and the array $pids, where the script adds the
# processes it starts in the background; on exit they are killed and all
# of it is removed. tap.sh, sourced here, prints the scripts' TAP lines;
# wait_for, terminate and sim_guest are the watcher tests' (test_testpmd_vifs,
# test_ovs_dpdk).
#
# usage: . tests/common/sim_processes.sh <tag> <build dir>
inst="$1-$$-$(date +%s%N)"
plugins=$("$(dirname "${BASH_SOURCE[0]}")/../../devtools/plugin-dir.sh" "$2") ||
	exit 1
work=$(mktemp -d)
pids=()

sim_processes_cleanup() {
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$plugins" "$work" "/dev/shm/xsim-$inst"
}
trap sim_processes_cleanup EXIT
# Stopped from outside (meson's timeout sends SIGTERM): the end of every
# log first, as TAP comments, so that a hang says where it waited.
sim_processes_timed_out() {
	local f
	for f in "$work"/*.log; do
		[ -f "$f" ] || continue
		echo "# --- $(basename "$f"), last 20 lines, at SIGTERM:"
		tail -n 20 "$f" | sed 's/^/# /'
	done
	exit 143
}
trap sim_processes_timed_out TERM
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"

# wait_for <pattern> <file>: true once a line of the file matches (60 s:
# a guest's start, with four testpmds and the backend polling on two
# cores, took 6 s here while a real-Xen boot shared them, and CI on a
# fresh machine shares them with the Debian root's bootstrap).
wait_for() {
	for _ in $(seq 600); do
		grep -q -- "$1" "$2" && return 0
		sleep 0.1
	done
	return 1
}

# terminate <pid> <seconds>: SIGTERM, as systemd's stop; SIGKILL if it is
# still there after <seconds>. Returns its status (137: killed).
terminate() {
	kill -TERM "$1"
	for _ in $(seq $(($2 * 10))); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$1" 2>/dev/null && kill -KILL "$1"
	wait "$1"
}

# sim_guest <dpdk-testpmd> <domid> <mode>: a guest's testpmd on our
# netfront as domain <domid> of the instance, forwarding in <mode>, its
# output in $work/guest<domid>.log, its pid in $guest<domid> (and $pids).
sim_guest() {
	"$1" -l 0,1 --no-huge -m 512 --no-pci --file-prefix "g$2-$$" \
		-d "$plugins" --vdev "net_xen_netfront0,provider=sim,sim=$inst,domid=$2" \
		-- --forward-mode="$3" --stats-period=1 --total-num-mbufs=4096 \
		>"$work/guest$2.log" 2>&1 &
	pids+=("$!")
	eval "guest$2=$!"
}
