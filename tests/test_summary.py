#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
#
# tests/summary.py, the end of every CI run (TAP): the counts; a skipped
# test with its reason; a failed one with its "not ok" subtests and the
# file and line of each failed CHECK or REQUIRE from its stderr, and
# nothing else from there; long lines clipped.
#
# usage: test_summary.py
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import summary  # noqa: E402

FAILED = {
    "name": "p:vdev / test_x", "result": "ERROR",
    "stdout": "ok 1 - a\nnot ok 2 - b\nok 3 - c\n",
    "stderr": "EAL: a log line that failed\n"
              "../tests/drivers/test_x.c:81: CHECK(n == 1) failed\n"
              "../tests/drivers/test_x.c:90: REQUIRE(p != NULL) failed\n",
}
cases = [
    ("counts passed, expected failures, skipped and failed",
     summary.summary([{"name": "a", "result": "OK"},
                      {"name": "b", "result": "EXPECTEDFAIL"},
                      {"name": "c", "result": "SKIP",
                       "stdout": "1..0 # SKIP no ovs\n"},
                      dict(FAILED)])[-1]
     == "2 passed, 1 failed, 1 skipped"),
    ("a skipped test says why",
     summary.summary([{"name": "c", "result": "SKIP",
                       "stdout": "1..0 # SKIP no ovs\n"}])[0]
     == "SKIPPED: c no ovs"),
    ("a failed test: its not-ok subtests, then where its checks failed",
     summary.summary([dict(FAILED)])[:-1] == [
         "FAILED: p:vdev / test_x ERROR",
         "  not ok 2 - b",
         "    ../tests/drivers/test_x.c:81: CHECK(n == 1) failed",
         "    ../tests/drivers/test_x.c:90: REQUIRE(p != NULL) failed"]),
    ("a failed test without stderr (a script's) has its subtests only",
     summary.summary([{"name": "s", "result": "FAIL",
                       "stdout": "not ok 1 - x\n", "stderr": None}])[:-1]
     == ["FAILED: s FAIL", "  not ok 1 - x"]),
    ("at most 20 check lines, each clipped at 400 characters",
     [len(l) for l in summary.summary([{
         "name": "t", "result": "FAIL", "stdout": "",
         "stderr": "t.c:1: CHECK(%s) failed\n" % ("x" * 500) * 30}])[1:-1]]
     == [4 + 400 + 4] * 20),
]
print("1..%d" % len(cases))
for i, (what, ok) in enumerate(cases, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
sys.exit(0 if all(ok for _, ok in cases) else 1)
