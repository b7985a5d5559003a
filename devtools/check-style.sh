#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Style checks, each failure reported as file:line: what.
#
# The whole tree (cheap; the unit suite runs them, so CI fails on them):
# every C file, header, meson.build, shell and Python script names its
# licence (SPDX-License-Identifier in its first 5 lines); no trailing
# whitespace and no CR line ends in any text file; C code is indented with
# tabs, spaces only to align after them.
#
# Then, unless --tree, the lines changed since <base> (commits, staged and
# unstaged changes of tracked files) must be formatted as .clang-format
# says: only those lines, so the style applies from now on without
# reformatting the whole tree. "git clang-format <base>" fixes them.
#
# usage: devtools/check-style.sh [--tree | <base>]
#   <base> defaults to the merge base of HEAD with main (or origin/main).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

tree_only=false
base=""
case "${1:-}" in
--tree) tree_only=true ;;
-*) echo "usage: $0 [--tree | <base revision>]" >&2; exit 2 ;;
*) base="${1:-}" ;;
esac

# 77: meson's "skipped", for a source tree that is not a git checkout.
git rev-parse --git-dir >/dev/null 2>&1 || {
	echo "check-style: $top is not a git checkout: no file list" >&2
	exit 77
}

list=$(mktemp)
trap 'rm -f "$list" "$list".*' EXIT
# Tracked files and new ones not yet added, as they are in the work tree;
# what .gitignore names (build trees) is not ours to check.
git ls-files --cached --others --exclude-standard |
	while IFS= read -r f; do [ -f "$f" ] && echo "$f"; done >"$list.all"

# Recorded testpmd output, compared byte for byte by the tests.
grep -v '^tests/app/fixtures/' "$list.all" >"$list.text" || true

grep -E '\.[ch]$' "$list.all" >"$list.c" || true
: >"$list.licensed"
while IFS= read -r f; do
	case "$f" in
	*.c | *.h | meson.build | */meson.build | *.sh | *.py)
		echo "$f" ;;
	*)
		case "$(head -n 1 "$f")" in
		'#!'*sh | '#!'*sh' '* | '#!'*python*) echo "$f" ;;
		esac ;;
	esac
done <"$list.all" >"$list.licensed"

status=0
report() {
	# stdin: "file:line:..." lines; $1: what is wrong there.
	while IFS=: read -r file line _; do
		echo "$file:$line: $1"
		status=1
	done
}

each() {
	# $1: file list; the rest: grep arguments. Lines are file:line:text.
	l="$1"
	shift
	[ -s "$l" ] || return 0
	tr '\n' '\0' <"$l" | xargs -0 grep -nH -I "$@" || true
}

while IFS= read -r f; do
	head -n 5 "$f" | grep -q 'SPDX-License-Identifier: ' ||
		echo "$f:1: no SPDX-License-Identifier in the first 5 lines"
done <"$list.licensed" >"$list.out"
[ -s "$list.out" ] && { cat "$list.out"; status=1; }

cr=$(printf '\r')
each "$list.text" -e "$cr\$" >"$list.out"
report "CR line end" <"$list.out"
each "$list.text" -E -e '[[:blank:]]$' >"$list.out"
report "trailing whitespace" <"$list.out"
each "$list.c" -E -e '^	*        ' >"$list.out"
report "indented with spaces, not tabs" <"$list.out"
each "$list.c" -E -e '^	* +	' >"$list.out"
report "space before a tab in the indent" <"$list.out"

if $tree_only; then
	exit $status
fi

if [ -z "$base" ]; then
	for main in main origin/main; do
		if git rev-parse --verify -q "$main^{commit}" >/dev/null; then
			base=$(git merge-base HEAD "$main")
			break
		fi
	done
	[ -n "$base" ] || {
		echo "check-style: no main branch here; give the base revision" >&2
		exit 2
	}
fi
command -v git-clang-format >/dev/null || {
	echo "check-style: git clang-format is missing (Debian: clang-format)" >&2
	exit 2
}

# The diff clang-format would apply to the lines changed since $base.
git clang-format --diff --extensions c,h "$base" -- >"$list.out" 2>&1 || true
if grep -q '^diff ' "$list.out"; then
	awk '/^\+\+\+ b\// { file = substr($0, 7) }
	     /^@@ / { split($2, a, ","); line = substr(a[1], 2)
		      print file ":" line ": not formatted as .clang-format says" }' \
		"$list.out"
	cat "$list.out"
	echo "check-style: \"git clang-format $base\" reformats these lines"
	status=1
fi
exit $status
