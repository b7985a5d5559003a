#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# The guides build with Sphinx as the guide itself says, warnings as
# errors (a broken reference, an unknown directive, a page outside the
# table of contents, an included file that is not there), and each .rst
# file is a page of the result. Prints TAP.
#
# usage: test_guide_build.sh <source root>
set -u
src="$1"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$(dirname "$0")/../common/tap.sh"

cd "$src" || exit 1
sphinx-build -W --keep-going -b html doc/guides "$out/doc" > "$out/log" 2>&1
rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$out/log"
tap $rc "the guides build without a warning"

missing=""
for rst in $(cd doc/guides && find . -name '*.rst' | sort); do
	page="$out/doc/${rst%.rst}.html"
	[ -s "$page" ] || missing="$missing $rst"
done
[ -z "$missing" ] || echo "# no page for:$missing"
tap "$([ -z "$missing" ] && echo 0 || echo 1)" "a page for each .rst file"

tap_done
