# SPDX-License-Identifier: BSD-3-Clause
#
# Sourced by the test scripts that run DPDK processes over a simulator
# instance of their own. Sets $inst (the instance, "<tag>-<pid>"),
# $plugins (a private copy of the two PMD plugins, for EAL's -d), $work (a
# scratch directory) and the array $pids, where the script adds the
# processes it starts in the background; on exit they are killed and all
# of it is removed. tap_result (below) prints the scripts' TAP lines.
#
# usage: . tests/common/sim_processes.sh <tag> <build dir>
inst="$1-$$"
plugins=$("$(dirname "${BASH_SOURCE[0]}")/../../devtools/plugin-dir.sh" "$2") ||
	exit 1
work=$(mktemp -d)
pids=()

sim_processes_cleanup() {
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$plugins" "$work" "/dev/shm/xsim-$inst"
}
trap sim_processes_cleanup EXIT

# tap_result <status> <n> <what> <file>...: TAP line <n> for a check that
# exited with <status>; when it failed, the last lines of each file as
# comments, and $fail set to 1 (the script's exit status).
fail=0
tap_result() {
	local status=$1 n=$2 what=$3
	shift 3
	if [ "$status" = 0 ]; then
		echo "ok $n - $what"
		return
	fi
	echo "not ok $n - $what"
	for f in "$@"; do sed 's/^/# /' "$f" | tail -n 30; done
	fail=1
}
