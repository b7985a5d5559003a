#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Build the libFuzzer targets of tests/fuzz with clang, AddressSanitizer
# and UndefinedBehaviorSanitizer in a tree of their own, then run each for
# FUZZ_RUNS executions (default 10^7) starting from its seed corpus
# (tests/fuzz/corpus/<target>; what the fuzzer finds new goes to
# <build dir>/corpus/<target>, the tree's corpus is never written). A
# crash, a sanitizer report or a broken invariant stops that target with
# its input saved as <build dir>/crash/<target>-*, and the script fails.
# Installs clang and its fuzzing runtime when missing (as root).
#
# usage: devtools/fuzz.sh [build dir] [target...]   (default: build/fuzz, all)
# Environment: FUZZ_RUNS (executions per target), FUZZ_SECONDS (a time
#   limit per target instead, when set).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="${1:-$top/build/fuzz}"
[ $# -gt 0 ] && shift
targets="${*:-fuzz_back_tx fuzz_front_rx fuzz_ctrl_hash fuzz_statics fuzz_xenbus_keys fuzz_sim_gnt_copy}"
runs="${FUZZ_RUNS:-10000000}"

for p in clang libclang-rt-dev; do
	if ! dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		[ "$(id -u)" = 0 ] || { echo "fuzz: needs $p (run as root once)" >&2; exit 1; }
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >/dev/null
	fi
done
if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" "$top" -Dfuzz=true -Dtests=false \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dbuildtype=debugoptimized >/dev/null
fi
ninja -C "$build" >"$build/ninja.log" 2>&1 ||
	{ tail -n 30 "$build/ninja.log" >&2; exit 1; }

limit="-runs=$runs"
[ -n "${FUZZ_SECONDS:-}" ] && limit="-max_total_time=$FUZZ_SECONDS"
mkdir -p "$build/crash"
status=0
for t in $targets; do
	mkdir -p "$build/corpus/$t"
	log="$build/$t.log"
	if "$build/tests/fuzz/$t" $limit -print_final_stats=1 \
		-artifact_prefix="$build/crash/$t-" \
		"$build/corpus/$t" "$top/tests/fuzz/corpus/$t" >"$log" 2>&1; then
		echo "fuzz: $t: $(grep -m1 '^stat::number_of_executed_units' "$log" |
			awk '{print $2}') executions," \
			"$(grep -m1 '^stat::peak_rss_mb' "$log" | awk '{print $2}') MB," \
			"$(grep -m1 '^Done' "$log" | sed 's/.* in //')"
	else
		echo "fuzz: $t FAILED, see $log and $build/crash/:" >&2
		grep -E 'ERROR|SUMMARY|runtime error|abort' "$log" | head -5 >&2
		status=1
	fi
done
exit $status
