# SPDX-License-Identifier: BSD-3-Clause
"""xen-bench-agree: whether two runs of xen-bench (their --json
documents) agree. For every ratio within rounds both give, xen's Mpps over
each peer's and each end's cycles per packet over the better peer's, at
every point: whether each run's median lies within the other's 25th-75th
percentile spread (the two agree on it), and whether the spreads at least
overlap. Exit status 0 when they agree on every ratio, 1 when not, 2 when
the two cannot be compared (not interleaved runs, other --host-mode, no
ratio in common).

That rule asks more than two runs of one unchanging host give with a few
rounds: a median of n rounds lies within another run's 25th-75th spread
of n rounds from the same distribution about a third of the time at n = 4
and half of it at n = 8, and every one of 64 ratios only from about n =
64. So the counts are also set against what they would be were both runs
drawn from one distribution (null_counts): where the runs agree on fewer
ratios than nearly all such draws, they differ beyond their rounds'
noise."""

import argparse
import json
import random
import sys

from .report import XEN_PEERS, spread

# null_counts' draws, seeded: the tool prints the same figures for the
# same documents.
DRAWS = 2000


def _point(r):
    return "%s %dB burst %d %dq" % (r["direction"], r["size"],
                                    r.get("burst", 32), r.get("queues", 1))


def _entries(doc):
    """((point, what), (25th, median, 75th), [the ratio in each round
    counted, empty where the document lists none]) of a document's xen
    rows: what is "vs <peer>" (Mpps) or "cycles <end>" (over the better
    peer)."""
    for r in doc["results"]:
        if r["transport"] != "xen":
            continue
        for peer in XEN_PEERS:
            k = "ratio_" + peer
            if r.get(k) is not None and (k + "_p25") in r:
                yield ((_point(r), "vs " + peer),
                       (r[k + "_p25"], r[k], r[k + "_p75"]),
                       r.get(k + "_rounds") or [])
        for role, end in (("rx", "receiver"), ("tx", "sender")):
            b = ((r.get("cycle_ratios") or {}).get(role) or {}).get("better")
            if b:
                yield ((_point(r), "cycles " + end),
                       (b["p25"], b["median"], b["p75"]),
                       b.get("rounds") or [])


def ratios(doc):
    """{(point, what): (25th, median, 75th)} of a document (_entries)."""
    return {k: s for k, s, _ in _entries(doc)}


def round_values(doc):
    """{(point, what): [the ratio in each round counted]}, for the ratios
    of ratios() whose rounds the document lists."""
    return {k: v for k, _, v in _entries(doc) if v}


def _rule(sa, sb):
    """(agree, overlap) of two runs' (25th, median, 75th) of a ratio:
    agree when each median lies within the other's spread."""
    (a1, am, a3), (b1, bm, b3) = sa, sb
    return a1 <= bm <= a3 and b1 <= am <= b3, a1 <= b3 and b1 <= a3


def _quartiles(values):
    """(25th, median, 75th) of values (report.spread)."""
    med, p25, p75 = spread(values)
    return p25, med, p75


def null_counts(a, b, draws=DRAWS):
    """What compare() would count were both runs drawn from one
    distribution: over the ratios both documents list rounds for, each
    ratio's rounds of both pooled, and two runs of their sizes drawn from
    the pool (with replacement) draws times. Returns (number of ratios,
    observed (agree, overlap) counts over them, [(agree, overlap) counts
    of each draw]); None when no ratio lists rounds in both."""
    va, vb = round_values(a), round_values(b)
    keys = sorted(k for k in va if k in vb)
    if not keys:
        return None
    seen = [_rule(_quartiles(va[k]), _quartiles(vb[k])) for k in keys]
    rnd = random.Random(1)
    out = []
    for _ in range(draws):
        got = [0, 0]
        for k in keys:
            pool = va[k] + vb[k]
            j = _rule(_quartiles([rnd.choice(pool) for _ in va[k]]),
                      _quartiles([rnd.choice(pool) for _ in vb[k]]))
            got[0] += j[0]
            got[1] += j[1]
        out.append(tuple(got))
    return len(keys), (sum(x[0] for x in seen), sum(x[1] for x in seen)), out


def null_lines(null):
    """The line of null_counts: each observed count, the draws' median and
    5th-95th percentile, and the share of draws at or below it."""
    n, seen, draws = null
    parts = []
    for i, what in enumerate(("agree", "overlap")):
        xs = sorted(d[i] for d in draws)
        low = sum(x <= seen[i] for x in xs) / len(xs)
        parts.append("%s %d (drawn: %d, %d-%d; %.1f%% of draws at or "
                     "below)" % (what, seen[i], xs[len(xs) // 2],
                                 xs[len(xs) * 5 // 100],
                                 xs[len(xs) * 95 // 100], 100 * low))
    return ["Were both runs drawn from one distribution (each ratio's "
            "rounds pooled, %d draws)," % len(draws),
            "over the %d ratios whose rounds both list: %s." % (
                n, "; ".join(parts))]


def compare(a, b):
    """[(key, a's, b's, agree, overlap)] over the ratios both give, in
    a's order: agree when each median lies within the other's spread."""
    ra, rb = ratios(a), ratios(b)
    rows = []
    for k in (k for k in ra if k in rb):
        rows.append((k, ra[k], rb[k]) + _rule(ra[k], rb[k]))
    return rows


def comparable(a, b):
    """None, or why the two documents cannot be compared."""
    for name, doc in (("first", a), ("second", b)):
        if doc.get("tool") != "xen-bench" or "results" not in doc:
            return "the %s is not a xen-bench --json document" % name
        if doc.get("method") != "interleaved":
            return ("the %s was measured point by point (--sequential): "
                    "no ratios within rounds" % name)
    if a.get("host_mode") != b.get("host_mode"):
        return ("the first run's ratios are over %s, the second's over "
                "%s: compare like with like (--host-mode)" % (
                    _mode_words(a.get("host_mode")),
                    _mode_words(b.get("host_mode"))))
    return None


def _mode_words(mode):
    return ("the rounds in the host's %s mode" % mode if mode else
            "every round")


def _fmt(s):
    return "%.2f (%.2f-%.2f)" % (s[1], s[0], s[2])


def lines(rows):
    """The report: a line per ratio, then the counts."""
    out = []
    for (point, what), sa, sb, agree, overlap in rows:
        out.append("%-6s %-24s %-16s %-18s %-18s %s" % (
            "agree" if agree else "DIFFER", point, what, _fmt(sa), _fmt(sb),
            "" if agree else
            ("spreads overlap" if overlap else "spreads disjoint")))
    n_agree = sum(r[3] for r in rows)
    n_overlap = sum(r[4] for r in rows)
    out.append("%d ratios: %d agree (each median within the other's "
               "25th-75th spread), %d differ; %d spreads overlap, %d "
               "disjoint" % (len(rows), n_agree, len(rows) - n_agree,
                             n_overlap, len(rows) - n_overlap))
    return out


def main(argv):
    ap = argparse.ArgumentParser(
        prog="xen-bench-agree",
        description="Whether two xen-bench runs (--json) agree on every "
        "ratio within its spread.")
    ap.add_argument("first", help="a xen-bench --json document")
    ap.add_argument("second", help="another, of the same points")
    args = ap.parse_args(argv)
    docs = []
    for path in (args.first, args.second):
        try:
            with open(path) as f:
                docs.append(json.load(f))
        except (OSError, ValueError) as e:
            print("xen-bench-agree: %s: %s" % (path, e), file=sys.stderr)
            return 2
    why = comparable(*docs)
    rows = compare(*docs) if why is None else []
    if why is None and not rows:
        why = "no ratio within rounds at a point both measured"
    if why:
        print("xen-bench-agree: %s" % why, file=sys.stderr)
        return 2
    print("%-6s %-24s %-16s %-18s %-18s" % ("", "point", "ratio", "first",
                                           "second"))
    print("\n".join(lines(rows)))
    null = null_counts(*docs)
    if null:
        print("\n".join(null_lines(null)))
    return 0 if all(r[3] for r in rows) else 1


def entry():
    sys.exit(main(sys.argv[1:]))
