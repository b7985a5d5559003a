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
. "$here/common/tap.sh"
for v in 0 00 x 2x -1; do
	FUZZ_JOBS=$v FUZZ_RUNS=1 "$here/../devtools/fuzz.sh" "$work/build" \
		fuzz_statics >"$work/out" 2>&1
	rc=$?
	[ $rc = 1 ] &&
		grep -q "FUZZ_JOBS must be a positive number, not '$v'" "$work/out" &&
		[ ! -e "$work/build" ]
	tap $? "FUZZ_JOBS=$v is refused before any build (status $rc)" "$work/out"
done
tap_done
