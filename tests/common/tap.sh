# SPDX-License-Identifier: BSD-3-Clause
#
# Sourced by the test scripts that print TAP: the one home of their ok /
# not ok lines. $fail, the script's exit status, turns 1 at the first
# failed check. A script numbers its checks itself with tap_result, or
# lets tap count them and print the plan at the end with tap_done. Plain
# sh, for the scripts meson runs with /bin/sh.
#
# usage: . tests/common/tap.sh
fail=0
tap_n=0

# tap_result <status> <n> <what> <file>...: TAP line <n> for a check that
# exited with <status>; when it failed, the last lines of each file as
# comments, and $fail set to 1. (local is not POSIX, but dash and bash
# both have it.)
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

# tap <status> <what> <file>...: tap_result for the next check.
tap() {
	local status=$1
	shift
	tap_n=$((tap_n + 1))
	tap_result "$status" "$tap_n" "$@"
}

# tap_done: the plan, for the checks tap counted, and exit with $fail.
tap_done() {
	echo "1..$tap_n"
	exit $fail
}
