#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
#
# The end of tests/run-all: meson's testlog.json as the lines CI shows,
# each test skipped or failed, and one "N passed, N failed, N skipped".
# A failed test's lines come here, at the end, because a long run's first
# lines may be all that is left of its output where CI shows a tail: its
# "not ok" subtests, and where each failed (tests/test.h's CHECK and
# REQUIRE name their file and line on stderr), the first thing to know of
# a failure seen once, on another machine.
#
# usage: summary.py <testlog.json>
import json
import sys

LINE_MAX = 400
WHERE_MAX = 20


def clip(line):
    return line if len(line) <= LINE_MAX else line[:LINE_MAX] + " ..."


def is_check_failure(line):
    return line.endswith(" failed") and (": CHECK(" in line or
                                         ": REQUIRE(" in line)


def summary(records):
    """The lines to print for meson's test records (dicts)."""
    out = []
    passed = failed = skipped = 0
    for r in records:
        if r["result"] in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r["result"] == "SKIP":
            skipped += 1
            why = [l for l in (r.get("stdout") or "").splitlines()
                   if "# SKIP" in l]
            out.append("SKIPPED: %s %s" % (
                r["name"], why[0].split("# SKIP", 1)[1].strip()
                if why else ""))
        else:
            failed += 1
            out.append("FAILED: %s %s" % (r["name"], r["result"]))
            for l in (r.get("stdout") or "").splitlines():
                if l.startswith("not ok"):
                    out.append("  " + clip(l))
            where = [l for l in (r.get("stderr") or "").splitlines()
                     if is_check_failure(l)]
            out.extend("    " + clip(l) for l in where[:WHERE_MAX])
    out.append("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return out


def main():
    with open(sys.argv[1]) as f:
        records = [json.loads(line) for line in f]
    print("\n".join(summary(records)))


if __name__ == "__main__":
    main()
