#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# devtools/fuzz.sh refuses a FUZZ_JOBS that is not a positive number, with
# a message naming it, before it installs or builds anything (the build
# directory it is given stays empty). TAP.
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
fail=0
for v in 0 00 x 2x -1; do
	n=$((n + 1))
	FUZZ_JOBS=$v FUZZ_RUNS=1 "$here/../devtools/fuzz.sh" "$work/build" \
		fuzz_statics >"$work/out" 2>&1
	rc=$?
	if [ $rc = 1 ] &&
		grep -q "FUZZ_JOBS must be a positive number, not '$v'" "$work/out" &&
		[ ! -e "$work/build" ]; then
		echo "ok $n - FUZZ_JOBS=$v is refused before any build"
	else
		echo "not ok $n - FUZZ_JOBS=$v: status $rc, $(head -c 200 "$work/out")"
		fail=1
	fi
done
echo "1..$n"
exit $fail
