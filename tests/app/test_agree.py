# SPDX-License-Identifier: BSD-3-Clause
"""app/xen-bench-agree (xenbench.agree): two runs' ratios within rounds,
compared spread against spread."""

import contextlib
import io
import json
import os
import tempfile
import unittest

import benchpath  # noqa: F401
from xenbench import agree, report


def xen_row(size, memif, vhost=None, rx=None):
    """A xen row of a --json document: (25th, median, 75th) over memif,
    over vhost-user, and of the receiver's cycles over the better peer."""
    r = {"transport": "xen", "direction": "f2b", "size": size, "burst": 32,
         "queues": 1}
    for peer, s in (("memif", memif), ("vhost", vhost)):
        if s:
            r["ratio_%s_p25" % peer], r["ratio_" + peer], \
                r["ratio_%s_p75" % peer] = s
    if rx:
        r["cycle_ratios"] = {"rx": {"better": {
            "p25": rx[0], "median": rx[1], "p75": rx[2], "rounds": []}}}
    return r


def doc(rows, host_mode=None, method="interleaved"):
    return {"tool": "xen-bench", "method": method, "host_mode": host_mode,
            "results": rows + [{"transport": "memif", "direction": "f2b",
                                "size": 64, "ratio_null": 0.5}]}


class TestAgree(unittest.TestCase):
    def test_each_median_within_the_others_spread(self):
        a = doc([xen_row(64, (0.9, 1.0, 1.1), (1.1, 1.2, 1.3),
                         (0.8, 0.9, 1.0)),
                 xen_row(512, (1.0, 1.1, 1.2))])
        b = doc([xen_row(64, (0.95, 1.05, 1.15), (1.25, 1.4, 1.5),
                         (0.85, 0.95, 1.1)),
                 xen_row(512, (1.3, 1.4, 1.5)),
                 xen_row(1518, (1.0, 1.1, 1.2))])
        rows = {k: (ok, overlap) for k, _, _, ok, overlap in
                agree.compare(a, b)}
        # 1518 B only in the second: not compared.
        self.assertEqual(rows, {
            ("f2b 64B burst 32 1q", "vs memif"): (True, True),
            # 1.4 lies outside 1.1-1.3 though the spreads overlap.
            ("f2b 64B burst 32 1q", "vs vhost"): (False, True),
            ("f2b 64B burst 32 1q", "cycles receiver"): (True, True),
            ("f2b 512B burst 32 1q", "vs memif"): (False, False)})
        out = agree.lines(agree.compare(a, b))
        self.assertEqual(out[-1], "4 ratios: 2 agree (each median within "
                         "the other's 25th-75th spread), 2 differ; 3 "
                         "spreads overlap, 1 disjoint")
        self.assertTrue(out[0].startswith("DIFFER f2b 64B"))
        self.assertTrue(out[0].endswith("spreads overlap"))

    def test_counts_set_against_draws_of_one_distribution(self):
        # 20 ratios, each run's rounds scattered around 1.0 in both runs
        # (another order, other small offsets): such few rounds rarely
        # meet the rule, and the draws say so. Then the second run is
        # 1.5x at every ratio: it agrees on none, below every draw.
        def rows(scale, turn):
            out = []
            for i in range(20):
                vals = [scale * (1.0 + 0.01 * ((i + j * turn) % 7 - 3))
                        for j in range(6)]
                r = xen_row(64 + i, spread_of(vals))
                r["ratio_memif_rounds"] = vals
                out.append(r)
            return out

        def spread_of(vals):
            med, p25, p75 = report.spread(vals)
            return p25, med, p75

        a, b = doc(rows(1.0, 1), "fast"), doc(rows(1.0, 3), "fast")
        n, seen, draws = agree.null_counts(a, b, draws=200)
        self.assertEqual(n, 20)
        below = sum(d[0] <= seen[0] for d in draws) / len(draws)
        self.assertGreater(below, 0.05)
        c = doc(rows(1.5, 3), "fast")
        n, seen, draws = agree.null_counts(a, c, draws=200)
        self.assertEqual(seen, (0, 0))
        self.assertTrue(all(d[1] > 0 for d in draws))
        out = agree.null_lines((n, seen, draws))
        self.assertIn("over the 20 ratios whose rounds both list: agree 0",
                      out[1])
        self.assertIn("0.0% of draws at or below", out[1])
        # Documents without rounds (older runs): no such line.
        self.assertIsNone(agree.null_counts(
            doc([xen_row(64, (0.9, 1.0, 1.1))]),
            doc([xen_row(64, (0.9, 1.0, 1.1))])))

    def run_main(self, a, b):
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for i, x in enumerate((a, b)):
                paths.append(os.path.join(d, "%d.json" % i))
                with open(paths[-1], "w") as f:
                    f.write(x if isinstance(x, str) else json.dumps(x))
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), \
                    contextlib.redirect_stderr(err):
                rc = agree.main(paths)
        return rc, out.getvalue(), err.getvalue()

    def test_exit_status(self):
        same = doc([xen_row(64, (0.9, 1.0, 1.1))], "fast")
        other = doc([xen_row(64, (1.2, 1.3, 1.4))], "fast")
        self.assertEqual(self.run_main(same, same)[0], 0)
        rc, out, _ = self.run_main(same, other)
        self.assertEqual(rc, 1)
        self.assertIn("0 agree", out)

    def test_what_cannot_be_compared(self):
        ok = doc([xen_row(64, (0.9, 1.0, 1.1))])
        for other, why in (
                (doc([xen_row(64, (0.9, 1.0, 1.1))], "fast"),
                 "the first run's ratios are over every round, the "
                 "second's over the rounds in the host's fast mode"),
                (doc([], method="sequential"), "point by point"),
                ({"results": []}, "not a xen-bench --json document"),
                (doc([xen_row(512, (0.9, 1.0, 1.1))]), "no ratio within"),
                ("{not json", "1.json")):
            rc, out, err = self.run_main(ok, other)
            self.assertEqual(rc, 2, why)
            self.assertIn(why, err)
            self.assertEqual(out, "")


if __name__ == "__main__":
    unittest.main()
