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
#   limit per target instead, when set), FUZZ_JOBS (processes per target,
#   default 1: each runs FUZZ_RUNS/FUZZ_JOBS executions with a seed of its
#   own, all sharing the new-corpus directory; the line printed sums them).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build="${1:-$top/build/fuzz}"
[ $# -gt 0 ] && shift
targets="${*:-fuzz_back_tx fuzz_front_rx fuzz_ctrl_hash fuzz_statics fuzz_xenbus_keys fuzz_sim_gnt_copy}"
runs="${FUZZ_RUNS:-10000000}"
# Checked before anything is installed or built.
jobs="${FUZZ_JOBS:-1}"
case $jobs in
'' | *[!0-9]*) jobs=0 ;;
esac
[ "$jobs" -gt 0 ] || { echo "fuzz: FUZZ_JOBS must be a positive number, not '$FUZZ_JOBS'" >&2; exit 1; }

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

limit="-runs=$((runs / jobs))"
[ -n "${FUZZ_SECONDS:-}" ] && limit="-max_total_time=$FUZZ_SECONDS"
mkdir -p "$build/crash"

# Sum of a final statistic of every job's log of target $1.
stat() {
	cat "$build/$1".*.log | awk -v k="stat::$2:" '$1 == k { n += $2 } END { print n + 0 }'
}

status=0
for t in $targets; do
	mkdir -p "$build/corpus/$t"
	rm -f "$build/$t".*.log
	start=$(date +%s)
	pids=
	j=1
	while [ $j -le "$jobs" ]; do
		"$build/tests/fuzz/$t" $limit -seed=$j -print_final_stats=1 \
			-artifact_prefix="$build/crash/$t-" \
			"$build/corpus/$t" "$top/tests/fuzz/corpus/$t" \
			>"$build/$t.$j.log" 2>&1 &
		pids="$pids $!"
		j=$((j + 1))
	done
	failed=
	j=1
	for pid in $pids; do
		wait "$pid" || failed="$failed $build/$t.$j.log"
		j=$((j + 1))
	done
	if [ -z "$failed" ]; then
		echo "fuzz: $t: $(stat "$t" number_of_executed_units) executions" \
			"in $jobs process(es), $(($(date +%s) - start)) s," \
			"peak $(cat "$build/$t".*.log | awk '$1 == "stat::peak_rss_mb:" && $2 > m { m = $2 } END { print m + 0 }') MB"
	else
		echo "fuzz: $t FAILED, see$failed and $build/crash/:" >&2
		grep -hE 'ERROR|SUMMARY|runtime error|abort' $failed | head -5 >&2
		status=1
	fi
done
exit $status
