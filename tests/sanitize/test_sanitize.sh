#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# devtools/sanitize.sh on <sanitized build dir>, its result as TAP: one
# line per test of the unit and vdev suites there. What sanitize.sh prints
# (the build, meson's summary, the reports) goes to stderr, so that
# stdout holds TAP only.
#
# usage: test_sanitize.sh <sanitized build dir>
set -u
here=$(dirname "$0")
build="$1"
log="$build/meson-logs/testlog.json"

# A log left by an earlier run must not stand in for this one.
rm -f "$log"
"$here/../../devtools/sanitize.sh" "$build" >&2
status=$?
if [ ! -f "$log" ]; then
	echo "Bail out! the sanitized tree did not build or run (exit $status)"
	exit 1
fi
python3 - "$log" <<'PY' || status=1
import json, sys

tests = [json.loads(line) for line in open(sys.argv[1])]
print(f"1..{len(tests)}")
failed = False
for i, t in enumerate(tests, 1):
    # "<project>:<suite> / <test>"
    name = t["name"].split(":", 1)[-1]
    if t["result"] in ("OK", "EXPECTEDFAIL"):
        print(f"ok {i} - {name}")
    elif t["result"] == "SKIP":
        print(f"ok {i} - {name} # SKIP")
    else:
        print(f"not ok {i} - {name} # {t['result']}")
        failed = True
sys.exit(1 if failed else 0)
PY
exit $status
