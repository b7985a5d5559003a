# SPDX-License-Identifier: BSD-3-Clause
"""Arguments, prerequisite checks and the main loop of xen-bench."""

import argparse
import glob
import os
import shlex
import shutil
import signal
import sys
import time

from . import (command, host_probe, instructions, report, rounds,
               transports)
from .bench import Bench, Point
from .measure import summarize
from .load import wait_for_idle
from .memory import NOHUGE_MEM_MB, Memory
from .plot import write_svg
from .util import BenchError, log, set_verbose

DEFAULT_TESTPMD = "/usr/bin/dpdk-testpmd"
PMD_DIR_GLOBS = [
    "/usr/lib/*/dpdk/pmds-*",
    "/usr/lib64/dpdk/pmds-*",
    "/usr/local/lib/*/dpdk/pmds-*",
    "/usr/local/lib64/dpdk/pmds-*",
]

# The presets: warm-up windows discarded (of those that begin once both
# testpmd forward; measure.WarmUp), windows measured, runs per
# point, and the matrix measured unless given on the command line.
# idle_sample: seconds the idle check before each run looks at the CPUs.
# measure_seconds: with the preset's window count, stop measuring a point
# once its windows cover this long (testpmd prints every 2 s instead of
# every 1 s where EAL's TSC estimate is rounded up: on such machines the
# quick preset measures one 2-s window). idle_each: the idle check before
# every run, else once at the start. rounds, round_warm, round_window: the interleaved method
# (rounds.py, the default): rounds counted after a warm-up round, and the
# seconds of a window's warm-up and measurement; fresh_pairs: every round
# starts its own pairs (rounds.py), so that the spread over rounds holds
# what differs from one start to the next.
MODES = {
    "quick": {"warmup": 0, "windows": 2, "repeat": 1,
              "sizes": "64,1518", "bursts": "32", "queues": "1",
              "transports": "xen,vhost,memif", "idle_sample": 0.25,
              "measure_seconds": 2.0, "idle_each": False,
              "rounds": 3, "round_warm": 0.2, "round_window": 1.0,
              "fresh_pairs": False, "instructions": False},
    "full": {"warmup": 2, "windows": 10, "repeat": 3,
             "sizes": "64,512,1518,9000", "bursts": "32", "queues": "1,2",
             "transports": "xen,vhost,memif,null", "idle_sample": 1.0,
             "measure_seconds": None, "idle_each": True,
             "rounds": 10, "round_warm": 0.5, "round_window": 2.0,
             "fresh_pairs": True, "instructions": True},
}
MAX_BURST = 512     # testpmd's MAX_PKT_BURST
MAX_QUEUES = 8


def parse_list(text, conv, what):
    try:
        return [conv(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("bad %s list: %s" % (what, text))


def _transports_arg(text):
    try:
        return transports.parse_transports(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def _preset_help(key):
    return "quick: %s; full: %s" % (MODES["quick"][key], MODES["full"][key])


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="xen-bench",
        description="One-way Mpps of the Xen netif PMDs and their peers "
                    "(vhost-user, memif, net_null) with dpdk-testpmd.",
        epilog="See the top of app/xen-bench for the method and pitfalls.")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--quick", dest="mode", action="store_const",
                      const="quick", help="the default: about a minute, "
                      "%(rounds)d rounds of %(round_window)g-s windows "
                      "(--sequential: up to %(windows)d windows, one run "
                      "per point), sizes %(sizes)s; indicative figures" %
                      MODES["quick"])
    mode.add_argument("--full", dest="mode", action="store_const",
                      const="full", help="%(rounds)d rounds of "
                      "%(round_window)g-s windows (--sequential: "
                      "%(warmup)d warm-up + %(windows)d windows, %(repeat)d "
                      "runs per point), sizes %(sizes)s, queues %(queues)s, "
                      "transports %(transports)s" % MODES["full"])
    ap.set_defaults(mode="quick")
    ap.add_argument("--sizes", type=lambda s: parse_list(s, int, "size"),
                    help="packet sizes in bytes, for --txpkts; above %d a "
                    "chain of segments (%s)" % (2000, _preset_help("sizes")))
    ap.add_argument("--bursts", type=lambda s: parse_list(s, int, "burst"),
                    help="testpmd --burst values (%s)" %
                    _preset_help("bursts"))
    ap.add_argument("--queues", type=lambda s: parse_list(s, int, "queue"),
                    help="queue pairs per port, --rxq/--txq (our PMDs: "
                    "devarg queues), one forwarding core a side whatever "
                    "the count (%s)" % _preset_help("queues"))
    ap.add_argument("--transports", type=_transports_arg,
                    help="comma list of xen, vhost, memif, null, each "
                    "optionally with -f2b or -b2f (%s)" %
                    _preset_help("transports"))
    ap.add_argument("--build-dir", default="./build",
                    help="meson build directory holding our PMD plugins "
                    "(default ./build)")
    ap.add_argument("--baseline", metavar="DIR",
                    help="a second meson build directory of our PMDs (the "
                    "build before a change, say): run as transport 'xen "
                    "base' beside xen at every xen point, taking its turn "
                    "in every round; lines under the table give xen's Mpps "
                    "and cycles per packet over it within rounds")
    ap.add_argument("--json", metavar="FILE",
                    help="also write the results and commands as JSON")
    ap.add_argument("--plot", metavar="FILE",
                    help="SVG plot of Mpps by packet size (default: next to "
                    "the JSON file, else ./xen-bench.svg)")
    ap.add_argument("--no-plot", action="store_true",
                    help="write no plot")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="print every command run, on stderr")
    ap.add_argument("--testpmd", default=DEFAULT_TESTPMD,
                    help="testpmd binary (default %s)" % DEFAULT_TESTPMD)
    ap.add_argument("--desc", type=int, default=1024,
                    help="--rxd/--txd for every transport (default 1024)")
    ap.add_argument("--cpus", default="0,1",
                    type=lambda s: parse_list(s, int, "cpu"),
                    help="CPU of the sender and of the receiver "
                    "(default 0,1)")
    ap.add_argument("--warmup", type=int,
                    help="override the warm-up windows discarded once "
                    "both testpmd forward")
    ap.add_argument("--windows", type=int,
                    help="override the windows measured")
    ap.add_argument("--repeat", type=int,
                    help="override how many times each point is run with "
                    "fresh processes (windows are pooled)")
    ap.add_argument("--sequential", action="store_true",
                    help="the older method: each point on its own, with "
                    "fresh processes per run (--warmup, --windows, "
                    "--repeat), instead of the transports taking turns "
                    "in rounds")
    ap.add_argument("--rounds", type=int,
                    help="override the rounds counted (interleaved "
                    "method; a warm-up round comes first, or with "
                    "--fresh-pairs a warm-up window of each new pair)")
    ap.add_argument("--host-mode", choices=("fast", "slow"),
                    help="ratios within rounds over the rounds the host "
                    "ran in this mode only (probed before and after each "
                    "window; a ratio's round counts when both its windows "
                    "ran in the mode; see --max-rounds), so that runs at "
                    "other hours compare like with like (interleaved "
                    "method)")
    ap.add_argument("--max-rounds", type=int, metavar="N",
                    help="with --host-mode: rounds are added to a group "
                    "until each of its sizes has --rounds rounds in which "
                    "every transport's window ran in that mode, up to N "
                    "rounds in all (default: 3 x --rounds)")
    ap.add_argument("--round-window", type=float, metavar="SECS",
                    help="override the seconds a transport forwards in a "
                    "round (interleaved method)")
    ap.add_argument("--fresh-pairs", action=argparse.BooleanOptionalAction,
                    help="start every transport's pair of testpmd anew for "
                    "each round (interleaved method), so that the spread "
                    "over rounds includes what differs between starts; "
                    "default: on in --full, off in --quick")
    ap.add_argument("--idle-wait", type=int, default=60, metavar="SECS",
                    help="before each run, wait up to SECS for other load "
                    "to go away (default 60, 0 = do not wait)")
    ap.add_argument("--no-huge", action="store_true",
                    help="force --no-huge -m %d (figures not comparable)" %
                    NOHUGE_MEM_MB)
    ap.add_argument("--eal-args", default="", type=shlex.split,
                    help="extra EAL options for every testpmd (all "
                    "transports alike)")
    ap.add_argument("--instructions", action=argparse.BooleanOptionalAction,
                    help="after the rates, count each end's instructions "
                    "per packet under valgrind's callgrind, one end at a "
                    "time (app/xenbench/instructions.py); default: on in "
                    "--full, off in --quick")
    ap.add_argument("--log-dir",
                    help="keep every testpmd's full output in this "
                    "directory")
    args = ap.parse_args(argv)
    preset = MODES[args.mode]
    for key, conv in (("sizes", int), ("bursts", int), ("queues", int)):
        if getattr(args, key) is None:
            setattr(args, key, parse_list(preset[key], conv, key))
    if args.transports is None:
        args.transports = transports.parse_transports(preset["transports"])
    if args.baseline is not None:
        if not any(f == "xen" for f, _ in args.transports):
            ap.error("--baseline is compared with xen: give xen among "
                     "--transports")
        args.transports = transports.with_baseline(args.transports)
    # An explicit --windows is a count, not capped by time.
    args.measure_seconds = (preset["measure_seconds"]
                            if args.windows is None else None)
    for key in ("warmup", "windows", "repeat", "rounds", "round_window"):
        if getattr(args, key) is None:
            setattr(args, key, preset[key])
    args.round_warm = preset["round_warm"]
    if args.instructions is None:
        args.instructions = preset["instructions"]
    if args.fresh_pairs is None:
        args.fresh_pairs = preset["fresh_pairs"]
    args.interleaved = not args.sequential
    args.idle_sample = preset["idle_sample"]
    args.idle_each = preset["idle_each"]
    if args.windows < 1 or args.warmup < 0 or args.repeat < 1:
        ap.error("--windows and --repeat must be >= 1, --warmup >= 0")
    if args.rounds < 1 or not 0.2 <= args.round_window <= 60:
        ap.error("--rounds must be >= 1, --round-window in 0.2..60 s")
    if args.host_mode and not args.interleaved:
        ap.error("--host-mode splits rounds: not with --sequential")
    if args.max_rounds is not None and not args.host_mode:
        ap.error("--max-rounds adds rounds in a --host-mode: give one")
    if args.max_rounds is None:
        args.max_rounds = 3 * args.rounds
    if args.max_rounds < args.rounds:
        ap.error("--max-rounds must be >= --rounds")
    if len(args.cpus) != 2:
        ap.error("--cpus takes two CPUs: sender,receiver")
    if not args.sizes or any(s < 60 or s > 9000 for s in args.sizes):
        ap.error("--sizes must lie in 60..9000")
    if not args.bursts or any(b < 1 or b > MAX_BURST for b in args.bursts):
        ap.error("--bursts must lie in 1..%d" % MAX_BURST)
    if not args.queues or any(q < 1 or q > MAX_QUEUES for q in args.queues):
        ap.error("--queues must lie in 1..%d" % MAX_QUEUES)
    if args.plot is None and not args.no_plot:
        if args.json:
            args.plot = os.path.splitext(args.json)[0] + ".svg"
        else:
            args.plot = "xen-bench.svg"
    if args.no_plot:
        args.plot = None
    return args


def find_pmd_dir():
    for pattern in PMD_DIR_GLOBS:
        found = sorted(glob.glob(pattern))
        if found:
            return found[-1]
    return None


def check_prerequisites(args):
    problems = []
    if not (os.path.isfile(args.testpmd) and
            os.access(args.testpmd, os.X_OK)):
        problems.append("%s not found or not executable (Debian: "
                        "apt-get install dpdk-dev)" % args.testpmd)
    if not shutil.which("timeout"):
        problems.append("timeout(1) not found (coreutils)")
    if args.instructions and not (shutil.which("valgrind") and
                                  shutil.which("callgrind_control")):
        problems.append("--instructions needs valgrind and "
                        "callgrind_control (Debian: apt-get install "
                        "valgrind; or --no-instructions)")
    fams = {f for f, _ in args.transports}
    need = sorted({so for f in fams for so in transports.SYSTEM_PLUGINS[f]})
    if need:
        pmd_dir = find_pmd_dir()
        if pmd_dir is None:
            problems.append("no DPDK PMD plugin directory found (looked "
                            "for %s); peer plugins needed: %s" %
                            (", ".join(PMD_DIR_GLOBS), ", ".join(need)))
        else:
            for so in need:
                if not os.path.exists(os.path.join(pmd_dir, so)):
                    problems.append("peer PMD plugin %s missing from %s" %
                                    (so, pmd_dir))
    for fam, bdir, opt in (("xen", args.build_dir, "--build-dir"),
                           (transports.BASELINE, args.baseline,
                            "--baseline")):
        if fam not in fams:
            continue
        for so in (transports.NETFRONT_SO, transports.NETBACK_SO):
            path = os.path.join(os.path.abspath(bdir), so)
            if not os.path.isfile(path):
                problems.append("our PMD plugin %s is missing (build it: "
                                "meson setup %s && ninja -C %s; or pass "
                                "%s)" % (path, bdir, bdir, opt))
    probe = os.path.join(os.path.abspath(args.build_dir),
                         host_probe.PROBE)
    if not os.access(probe, os.X_OK):
        problems.append("%s is missing (build it: meson setup %s && ninja "
                        "-C %s; or pass --build-dir)" % (probe, args.build_dir,
                                                        args.build_dir))
    ncpu = os.cpu_count() or 1
    for c in args.cpus:
        if c >= ncpu:
            problems.append("CPU %d does not exist (%d CPUs)" % (c, ncpu))
    for path in (args.json, args.plot):
        if path:
            d = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(d) or not os.access(d, os.W_OK):
                problems.append("cannot write %s (directory %s)" % (path, d))
    if problems:
        raise BenchError("cannot run:\n  - " + "\n  - ".join(problems))


def matrix(args):
    """(points to run, points not supported with the reason)."""
    points, unsupported = [], []
    for fam, d in args.transports:
        for q in args.queues:
            for b in args.bursts:
                for s in args.sizes:
                    why = transports.unsupported(fam, q, s)
                    if why:
                        unsupported.append({
                            "transport": fam, "direction": d, "size": s,
                            "burst": b, "queues": q, "reason": why})
                    else:
                        points.append(Point(fam, d, s, b, q))
    return points, unsupported


def _on_sigterm(signum, frame):
    raise SystemExit(128 + signum)


def _tag(args, i, n, pt, rep):
    tag = "[%d/%d] %s %s %dB" % (i, n, transports.FAMILY_LABEL[pt.family],
                                 pt.direction, pt.size)
    if len(args.bursts) > 1:
        tag += " burst %d" % pt.burst
    if len(args.queues) > 1:
        tag += " %dq" % pt.queues
    if args.repeat > 1:
        tag += " run %d/%d" % (rep + 1, args.repeat)
    return tag


def _run_notes(r):
    """What a progress line says of a run besides its Mpps."""
    notes = ""
    if r["tx_mpps_median"] is not None:
        notes += ", sender %.2f Mpps" % r["tx_mpps_median"]
    if r["disturbed"]:
        notes += ", DISTURBED by other load"
    if r["host_bounce_ns"] is not None:
        notes += ", host %.0f ns" % r["host_bounce_ns"]
    return notes


def _failure(pt, error):
    """A point that failed, as the table and the JSON list it."""
    return {"transport": pt.family, "direction": pt.direction,
            "size": pt.size, "burst": pt.burst, "queues": pt.queues,
            "error": str(error)}


def groups(points):
    """The points one set of testpmd pairs measures (rounds.run_group):
    one direction, burst and queue count, and sizes that are all one
    segment or all a chain (a chain needs the multi-segment offload from
    the start); in the order of their first point."""
    out = {}
    for pt in points:
        out.setdefault((pt.direction, pt.burst, pt.queues,
                        pt.size > command.SEG_MAX), []).append(pt)
    return list(out.values())


def _round_starts(args):
    """How the interleaved method's pairs start, in words."""
    if args.fresh_pairs:
        return "on pairs started anew each round, every group in turn"
    return "after a warm-up round"


def schedule(nb_groups, rounds, fresh):
    """The interleaved method's order: [(group index, [round numbers])],
    a call of rounds.run_group each. Pairs kept over rounds measure a
    group's rounds in one call, after the warm-up round 0. Fresh pairs
    cost the same started in any order, so there each round goes over
    every group before the next round begins: a point's rounds lie spread
    over the whole run, and the spread over them holds what the host does
    over that time (its speed drifts over minutes), as between two runs."""
    if not fresh:
        return [(g, list(range(rounds + 1))) for g in range(nb_groups)]
    return [(g, [r]) for r in range(1, rounds + 1) for g in range(nb_groups)]


def short_of_mode(group, runs, mode, wanted):
    """Whether a size of group has fewer than wanted rounds in which the
    probes around every transport's window found the host in mode
    (report.run_mode): only such a round gives every ratio at that size
    in that mode."""
    for size in {pt.size for pt in group}:
        modes = report.joint([{run["round"]: report.run_mode(run)
                               for run in runs[pt]}
                              for pt in group if pt.size == size])
        if sum(m == mode for m in modes.values()) < wanted:
            return True
    return False


def more_rounds(args, todo, runs, failed, first):
    """With --host-mode, the rounds added after the counted ones: [(group
    index, [round number])] for round first, the groups of which a point
    still lacks --rounds rounds in that mode; [] when none does or round
    first would pass --max-rounds. Each is measured on fresh pairs: a new
    round may come long after a group's last."""
    if not args.host_mode or first > args.max_rounds:
        return []
    return [(g, [first]) for g, group in enumerate(todo)
            if short_of_mode([pt for pt in group if pt not in failed],
                             runs, args.host_mode, args.rounds)]


def _interleaved(args, bench, points, runs, failed, failures, t0):
    """The interleaved method (rounds.py) over every group of points, in
    the order of schedule(), then the rounds more_rounds() adds; a
    transport whose pair failed is left out of the later calls."""
    todo = groups(points)
    plan = schedule(len(todo), args.rounds, args.fresh_pairs)
    fresh, nxt = args.fresh_pairs, args.rounds + 1
    while plan:
        for g, numbers in plan:
            group = [pt for pt in todo[g] if pt not in failed]
            if group:
                _measure_group(args, bench, (g, len(todo)), group, numbers,
                               fresh, runs, failed, failures, t0)
        plan = more_rounds(args, todo, runs, failed, nxt)
        fresh, nxt = True, nxt + 1


def _measure_group(args, bench, which, group, numbers, fresh, runs, failed,
                   failures, t0):
    """rounds.run_group over group (which: its index and the number of
    groups), its runs into runs, its failures into failed and failures."""
    if args.idle_each:
        wait_for_idle(args.idle_wait, args.idle_sample)

    def progress(pt, r, run):
        one = summarize(pt.family, pt.direction, pt.size, [run],
                        pt.burst, pt.queues)
        log("progress: [group %d/%d, round %d/%d] %s %s %dB burst %d "
            "%dq: %.2f Mpps%s %.0fs" % (
                which[0] + 1, which[1], r,
                args.rounds if r <= args.rounds else args.max_rounds,
                transports.FAMILY_LABEL[pt.family], pt.direction,
                pt.size, pt.burst, pt.queues, one["mpps_median"],
                _run_notes(one), time.monotonic() - t0))

    got, bad = rounds.run_group(bench, group, 0, numbers, args.round_warm,
                                args.round_window, progress, fresh=fresh)
    for pt, rs in got.items():
        runs[pt] += rs
    for pt, e in bad.items():
        failed.add(pt)
        failures.append(_failure(pt, e))
        log("progress: %s %s %dB: FAILED: %s" % (
            transports.FAMILY_LABEL[pt.family], pt.direction, pt.size, e))


def _instructions(bench, points, counted, failures):
    """Each end's instructions per packet (instructions.py), a group of
    points at a time, into counted; what fails into failures."""
    for group in groups(points):
        got, bad = instructions.count_group(bench, group)
        counted.update(got)
        for pt, e in bad.items():
            failures.append(_failure(pt, "instructions: %s" % e))


def main(argv):
    t0 = time.monotonic()
    args = parse_args(argv)
    set_verbose(args.verbose)
    check_prerequisites(args)
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)

    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _on_sigterm)
    signal.signal(signal.SIGHUP, _on_sigterm)

    memory = Memory(force_nohuge=args.no_huge)
    bench = None
    failures = []
    interrupted = False
    points, unsupported = matrix(args)
    runs = {p: [] for p in points}
    counted = {}
    failed = set()
    try:
        memory.setup()
        if args.interleaved:
            log("xen-bench: %s; %d points, %s mode, interleaved: %d rounds "
                "%s, %g s a window%s" % (
                    memory.note, len(points), args.mode, args.rounds,
                    _round_starts(args), args.round_window,
                    "; ratios over rounds in the host's %s mode, up to %d "
                    "rounds" % (args.host_mode, args.max_rounds)
                    if args.host_mode else ""))
        else:
            log("xen-bench: %s; %d points, %s mode (%d warm-up + %d "
                "windows, %d run(s) per point)" % (
                    memory.note, len(points), args.mode, args.warmup,
                    args.windows, args.repeat))
        if args.mode == "quick":
            log("xen-bench: quick preset: the figures are indicative only "
                "(--full for figures to quote)")
        for u in unsupported:
            log("progress: %s %s %dB burst %d %dq: %s" % (
                transports.FAMILY_LABEL[u["transport"]], u["direction"],
                u["size"], u["burst"], u["queues"], u["reason"]))
        families = {pt.family for pt in points}
        if args.interleaved and not memory.room_for(2 * len(families)):
            args.interleaved = False
            log("xen-bench: not enough free memory for %d testpmd at once: "
                "each point on its own (--sequential)" % (2 * len(families)))
        if not args.idle_each:
            wait_for_idle(args.idle_wait, args.idle_sample)
        bench = Bench(args, memory)
        if args.interleaved:
            _interleaved(args, bench, points, runs, failed, failures, t0)
        # Runs of all points take turns (run 1 of every point, then run 2,
        # ...), so that a slow spell of this machine hits every transport
        # alike rather than one of them.
        for rep in range(0 if args.interleaved else args.repeat):
            for i, pt in enumerate(points, 1):
                if pt in failed:
                    continue
                tag = _tag(args, i, len(points), pt, rep)
                try:
                    one = bench.run_once(pt, rep)
                except BenchError as e:
                    failed.add(pt)
                    failures.append(_failure(pt, e))
                    log("progress: %s: FAILED: %s" % (tag, e))
                    continue
                runs[pt].append(one)
                r = summarize(pt.family, pt.direction, pt.size, [one],
                              pt.burst, pt.queues)
                log("progress: %s: %.2f Mpps (min %.2f, max %.2f, %d/%d "
                    "windows)%s %.0fs" % (
                        tag, r["mpps_median"], r["mpps_min"], r["mpps_max"],
                        r["windows_used"], r["windows_total"], _run_notes(r),
                        time.monotonic() - t0))
        if args.instructions:
            _instructions(bench, [p for p in points if p not in failed],
                          counted, failures)
    except (KeyboardInterrupt, SystemExit):
        interrupted = True
        log("xen-bench: interrupted; stopping testpmd and cleaning up")
    finally:
        # No second Ctrl-C may leave a testpmd or a hugetlbfs mount behind.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if bench:
            bench.stop_all()
        memory.cleanup()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    # Whatever completed counts, also after an interruption.
    results = [summarize(p.family, p.direction, p.size, runs[p], p.burst,
                         p.queues)
               for p in points if runs[p] and p not in failed]
    for r in results:
        instructions.attach(r, counted.get(Point(
            r["transport"], r["direction"], r["size"], r["burst"],
            r["queues"])))
    host_mode = args.host_mode if args.interleaved else None
    report.add_ratios(results, host_mode)
    report.add_cycle_ratios(results, host_mode)
    if results or failures or unsupported:
        report.print_table(results, failures, memory, unsupported,
                           args.mode, host_mode=host_mode)
    if args.plot:
        notes = []
        if args.interleaved:
            notes.append("%s preset, interleaved: %d rounds of %g-s windows "
                         "%s%s" % (
                             args.mode, args.rounds, args.round_window,
                             _round_starts(args),
                             "; indicative figures only"
                             if args.mode == "quick" else ""))
            if args.host_mode:
                notes.append("ratios over the rounds in the host's %s mode "
                             "only" % args.host_mode)
        elif args.mode == "quick" and args.measure_seconds:
            notes.append("quick preset (about %g s measured once both "
                         "testpmd forward, one run per point): indicative "
                         "figures only" % args.measure_seconds)
        elif args.mode == "quick":
            notes.append("quick preset (%d warm-up + %d windows, one run "
                         "per point): indicative figures only" %
                         (args.warmup, args.windows))
        else:
            notes.append("%s preset: %d warm-up + %d windows (testpmd's stats period), "
                         "%d runs per point" % (args.mode, args.warmup,
                                                args.windows, args.repeat))
        disturbed = [r for r in results if r["disturbed"]]
        if disturbed:
            notes.append("%d of %d points disturbed by other load on this "
                         "machine (see the table)" % (len(disturbed),
                                                      len(results)))
        if not memory.hugepages:
            notes.append("NO HUGEPAGES (--no-huge): figures NOT comparable")
        if interrupted:
            notes.append("interrupted: partial results")
        write_svg(args.plot, results, notes=notes, unsupported=unsupported)
        print("plot: %s" % os.path.abspath(args.plot))
    if args.json:
        report.write_json(args.json, report.build_doc(
            args, memory, results, failures, unsupported, interrupted,
            os.path.abspath(args.plot) if args.plot else None))
        print("json: %s" % os.path.abspath(args.json))
    print("xen-bench: %d points in %.0f s" % (len(points),
                                              time.monotonic() - t0))
    if interrupted:
        return 130
    return 1 if failures else 0


def entry():
    try:
        sys.exit(main(sys.argv[1:]))
    except BenchError as e:
        log("xen-bench: %s" % e)
        sys.exit(2)
