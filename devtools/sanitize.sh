#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The unit and vdev suites on a tree built with AddressSanitizer and
# UndefinedBehaviorSanitizer: configured if it is not yet, built, run.
# Any report fails the test that made it: both runtimes stop at the first
# error (halt_on_error) with a stack trace, and LeakSanitizer is on.
#
# Leaks: EAL (DPDK 22.11, --no-huge --no-shconf, as tests/test_eal.h
# starts it) leaves nothing that LeakSanitizer reports at exit, with or
# without rte_eal_cleanup(), so there is no suppressions file; a report
# is a leak of ours.
#
# XEN_TEST_PACKETS=100000: the two-process stress test and the vdev
# traffic test send that many packets each way instead of 2 and 1
# million: the sanitized data path is several times slower, and 100000
# packets still wrap each 256-slot ring hundreds of times.
#
# usage: devtools/sanitize.sh [build dir]    (default: build/sanitize)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="${1:-$top/build/sanitize}"

# debug: reports name source lines, nothing is optimised away.
# b_lundef=false: clang links the sanitizer runtimes into executables only,
# so the shared objects (the PMDs) use symbols that --no-undefined refuses.
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$top" -Db_sanitize=address,undefined \
		-Db_lundef=false -Dbuildtype=debug
fi
# A tree configured otherwise (an ordinary build named by mistake) would
# pass without a sanitizer watching.
sanitize=$(meson introspect --buildoptions "$build" | python3 -c '
import json, sys
print([o["value"] for o in json.load(sys.stdin) if o["name"] == "b_sanitize"][0])')
if [ "$sanitize" != "address,undefined" ]; then
	echo "sanitize: $build is built with b_sanitize=$sanitize;" \
		"give a directory of its own" >&2
	exit 1
fi
ninja -C "$build"

export ASAN_OPTIONS="halt_on_error=1:print_stacktrace=1:detect_leaks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export XEN_TEST_PACKETS=100000
# test_lifecycle_leaks: its memory bound is off under ASan (the quarantine
# keeps freed memory resident), and 300 cycles take its guest's reboots
# through every domain id (2-63) and round again.
export XEN_TEST_LIFETIMES=300
# The sources' checks (suite lint) have nothing for a sanitizer to watch.
exec meson test -C "$build" --suite unit --suite vdev --no-suite lint \
	--print-errorlogs \
	--num-processes 2
