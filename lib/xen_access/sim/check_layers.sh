#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Checks that the simulator's files call downwards only (layers in
# xsim_shm.h): no file includes the header of a file on its own layer or
# above, and none calls a function defined there, even through a
# declaration of its own. Prints each violation; exits 1 if there is any.
#
# Usage: check_layers.sh [directory of the simulator's sources]

cd "${1:-$(dirname "$0")}" || exit 2

layer() {
	case $1 in
	xsim_shm) echo 1 ;;
	xsim_gnttab|xsim_evtchn|xsim_xenstore) echo 2 ;;
	xsim_domain) echo 3 ;;
	xsim_toolstack) echo 4 ;;
	xsim_provider) echo 5 ;;
	*) echo "unknown file $1: give it a layer here" >&2; exit 2 ;;
	esac
}

for src in xsim_*.c xsim_*.h; do
	layer "${src%.*}" >/dev/null || exit 2
done

bad=0
for src in xsim_*.c xsim_*.h; do
	self=${src%.*}
	own=$(layer "$self")
	# Headers of the same or a higher layer, other than its own.
	for inc in $(sed -n 's/^#include "\(xsim_[a-z_]*\)\.h"$/\1/p' "$src"); do
		[ "$inc" = "$self" ] && continue
		if [ "$(layer "$inc")" -ge "$own" ]; then
			echo "$src includes $inc.h (layer $(layer "$inc") >= $own)"
			bad=1
		fi
	done
	# Functions defined (return type on the line before, DPDK style) in a
	# file of the same or a higher layer, called here.
	[ "${src##*.}" = c ] || continue
	for def in xsim_*.c; do
		other=${def%.c}
		[ "$other" = "$self" ] && continue
		[ "$(layer "$other")" -ge "$own" ] || continue
		for fn in $(awk 'prev !~ /^static/ && /^[a-z_]+\(/ {
				sub(/\(.*/, ""); print }
			{ prev = $0 }' "$def"); do
			if grep -nE "(^|[^a-z_])$fn[[:space:]]*\(" "$src" |
			   sed "s|^|$src:|; s|\$| (calls $fn of $def)|" |
			   grep .; then
				bad=1
			fi
		done
	done
done
exit $bad
