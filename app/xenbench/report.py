# SPDX-License-Identifier: BSD-3-Clause
"""The terminal table and the JSON document of a benchmark's results
(the dicts of measure.summarize), its failures and the points the
transports cannot run."""

import json
import os
import platform
import statistics
import time

from .load import CLEAN_CPU_SHARE
from .transports import BASELINE, FAMILY_ENDS, FAMILY_LABEL, PEERS

# Peers our rows are compared with; null is the ceiling for every row.
XEN_PEERS = ["vhost", "memif"]
# A ratio whose rounds spread more than this (25th to 75th percentile
# over the median) is marked '!': the host changed speed within a round.
RATIO_SPREAD_MAX = 0.10
# The host's two modes on these VMs: a cache line's round trip between the
# benchmark's two CPUs (xen-host-probe) of about 110 ns or about 450 ns,
# at which every transport that moves packets between them runs at other
# speeds, and not all by the same factor. A window whose probes before
# and after it took less than this ran in the fast mode.
HOST_FAST_NS = 250
# The order of the modes in the table's lines.
MODE_ORDER = {"slow": 0, "fast": 1, "changed": 2}


def _key(r, family=None):
    return (family or r["transport"], r["direction"], r["size"],
            r.get("burst", 32), r.get("queues", 1))


def _ratio_by_round(mine, peer):
    """Our Mpps over the peer's within each round both ran (interleaved
    method), by round in round order; empty for points measured on their
    own."""
    a, b = mine.get("round_mpps") or {}, peer.get("round_mpps") or {}
    return {k: a[k] / b[k] for k in sorted(set(a) & set(b)) if b[k] > 0}


def host_mode(bounce_ns):
    """"fast" or "slow": the host's mode from its probe (HOST_FAST_NS)."""
    return "fast" if bounce_ns < HOST_FAST_NS else "slow"


def round_modes(hosts, hosts_after=None):
    """The host's mode in each round's window of a row (hosts: round ->
    probe ns before the window, hosts_after: after it): round -> "fast" or
    "slow", or "changed" where the probes after and before disagree; a
    round whose probe before gave no figure is left out."""
    after = hosts_after or {}
    return {rnd: _mode_of(ns, after.get(rnd)) for rnd, ns in hosts.items()}


def _mode_of(before_ns, after_ns):
    """The mode of probes before and after windows (after_ns None: not
    probed after, the one before decides); "changed" where they differ."""
    mode = host_mode(before_ns)
    if after_ns is not None and host_mode(after_ns) != mode:
        return "changed"
    return mode


def run_mode(run):
    """A round's run's mode (round_modes), or None without a probe
    before its windows."""
    before = (run.get("host") or {}).get("bounce_ns")
    if before is None:
        return None
    return _mode_of(before, (run.get("host_after") or {}).get("bounce_ns"))


def _counted(modes, rnd, host_mode):
    """Whether round rnd counts in the ratios (--host-mode: only a round
    that ran in that mode, modes: round_modes)."""
    return host_mode is None or modes.get(rnd) == host_mode


def _point_modes(r):
    """round_modes of a result (measure.summarize)."""
    return round_modes(r.get("round_host_ns") or {},
                       r.get("round_host_after_ns"))


def joint_modes(*rows):
    """The host's mode in each round over the windows of several rows
    (results of one point, each window probed before and after): a round's
    mode where every row's window ran in it, "changed" where they differ;
    a round some row has no mode for is left out. A ratio within a round
    holds for a mode only when both its windows ran in that mode."""
    return joint([_point_modes(r) for r in rows])


def joint(maps):
    """joint_modes over maps of round -> mode (round_modes or run_mode of
    each run)."""
    out = {}
    for rnd in set(maps[0]).intersection(*maps[1:]):
        seen = {m[rnd] for m in maps}
        out[rnd] = seen.pop() if len(seen) == 1 else "changed"
    return out


def ratios_by_mode(by_round, modes):
    """The ratios within rounds (by_round: round -> ratio) split by the
    host's mode in each round (modes: round_modes): {mode: {"median",
    "p25", "p75", "rounds"}} over the rounds with a mode; empty when none
    has one."""
    split = {}
    for rnd, ratio in by_round.items():
        if rnd in modes:
            split.setdefault(modes[rnd], []).append(ratio)
    out = {}
    for mode, values in sorted(split.items()):
        med, p25, p75 = spread(values)
        out[mode] = {"median": med, "p25": p25, "p75": p75,
                     "rounds": len(values)}
    return out


def spread(values):
    """(median, 25th, 75th percentile) of values."""
    if len(values) == 1:
        return values[0], values[0], values[0]
    q = statistics.quantiles(values, n=4, method="inclusive")
    return statistics.median(values), q[0], q[2]


def add_ratios(results, host_mode=None):
    """ratio_<peer> = our Mpps over the peer's at the same point: for our
    rows against each peer and against the baseline build when it was run
    (ratio_base), for every row against null (the ceiling) when null was
    run. Interleaved, the median of the ratios within rounds,
    with ratio_<peer>_p25 and _p75 and ratio_<peer>_marked when they
    spread more than RATIO_SPREAD_MAX, and ratio_<peer>_by_mode the same
    over the rounds of each host mode (ratios_by_mode); else the ratio of
    the medians. With host_mode ("fast" or "slow", --host-mode), the
    median and spread are over the rounds that ran in that mode only
    (round_modes), None when none did."""
    index = {_key(r): r for r in results}
    for r in results:
        peers = XEN_PEERS if r["transport"] == "xen" else []
        if r["transport"] == "xen" and _key(r, BASELINE) in index:
            peers = peers + [BASELINE]
        if r["transport"] != "null":
            peers = peers + ["null"]
        for peer in PEERS:
            key = "ratio_" + peer
            if peer not in peers:
                r.pop(key, None)
                continue
            for k in ("_p25", "_p75", "_marked", "_rounds", "_by_mode"):
                r.pop(key + k, None)
            p = index.get(_key(r, peer))
            modes = joint_modes(r, p) if p else {}
            by_round = _ratio_by_round(r, p) if p else {}
            within = [v for k, v in by_round.items()
                      if _counted(modes, k, host_mode)]
            if by_round:
                r[key + "_by_mode"] = ratios_by_mode(by_round, modes)
            if within:
                r[key], r[key + "_p25"], r[key + "_p75"] = spread(within)
                r[key + "_rounds"] = within
                r[key + "_marked"] = (r[key + "_p75"] - r[key + "_p25"] >
                                      RATIO_SPREAD_MAX * r[key])
            elif by_round and host_mode is not None:
                # None ran in that mode: no figure, not one of another.
                r[key] = None
            elif p and p.get("mpps_median"):
                r[key] = r["mpps_median"] / p["mpps_median"]
            else:
                r[key] = None


def _cycle_ratios(mine, peers, rounds):
    """One end's cycles per packet over the peers' within rounds
    (measure.round_cycles: role -> round -> cycles), for each peer and for
    the better one of each round (the fewer cycles):
    {role: {peer or "better": {"median", "p25", "p75", "rounds"}}}, over
    the rounds in rounds; a role or peer left out where none has both
    counts."""
    out = {}
    for role in ("tx", "rx"):
        ours = {k: v for k, v in
                ((mine.get("round_cycles") or {}).get(role) or {}).items()
                if k in rounds}
        theirs = {p["transport"]: (p.get("round_cycles") or {}).get(role)
                  or {} for p in peers}
        by_peer = {}
        for name, cyc in theirs.items():
            by_peer[name] = [ours[k] / cyc[k] for k in sorted(ours)
                             if cyc.get(k, 0) > 0]
        # Only rounds in which every peer has a count: the one missing
        # may have been the better.
        by_peer["better"] = [
            ours[k] / min(c[k] for c in theirs.values())
            for k in sorted(ours)
            if all(c.get(k, 0) > 0 for c in theirs.values())]
        got = {}
        for name, values in by_peer.items():
            if values:
                med, p25, p75 = spread(values)
                got[name] = {"median": med, "p25": p25, "p75": p75,
                             "rounds": values}
        if got:
            out[role] = got
    return out


def add_cycle_ratios(results, host_mode=None):
    """cycle_ratios on our rows (interleaved method): our cycles per
    packet at each end over vhost-user's and memif's in the same round
    (_cycle_ratios). They drift with the host's mode as Mpps do, so they
    are compared within rounds too; with host_mode, over the rounds that
    ran in that mode only (add_ratios). cycle_ratios_base: over the
    baseline build's, {role: {"median", "p25", "p75", "rounds"}}, when it
    ran."""
    index = {_key(r): r for r in results}
    for r in results:
        r.pop("cycle_ratios", None)
        r.pop("cycle_ratios_base", None)
        if r["transport"] != "xen":
            continue
        peers = [index[_key(r, p)] for p in XEN_PEERS
                 if _key(r, p) in index]
        ratios = _cycle_ratios(r, peers, _rounds_in(
            host_mode, r, *peers)) if peers else {}
        if ratios:
            r["cycle_ratios"] = ratios
        base = index.get(_key(r, BASELINE))
        ratios = _cycle_ratios(r, [base], _rounds_in(
            host_mode, r, base)) if base else {}
        if ratios:
            r["cycle_ratios_base"] = {role: v[BASELINE]
                                      for role, v in ratios.items()}


def _rounds_in(host_mode, r, *others):
    """The rounds of r's cycle counts that count against others (every
    round; with host_mode, those whose windows of r and of every one of
    others ran in that mode, joint_modes)."""
    modes = joint_modes(r, *others)
    return {k for role in ("tx", "rx")
            for k in (r.get("round_cycles") or {}).get(role) or {}
            if _counted(modes, k, host_mode)}


def cycle_lines(results):
    """A line per xen row with cycle ratios (add_cycle_ratios): each end's
    against the better peer of each round. Empty when none has any."""
    out = []
    for r in results:
        parts = []
        for role, name in (("rx", "receiver"), ("tx", "sender")):
            b = (r.get("cycle_ratios") or {}).get(role, {}).get("better")
            if b:
                parts.append("%s %.2fx %.2f-%.2f" % (
                    name, b["median"], b["p25"], b["p75"]))
        if parts:
            out.append("  %s  %s" % (_row_label(r), ", ".join(parts)))
    if not out:
        return []
    return ["Cycles per packet within rounds: xen's at each end over the "
            "better peer's (vhost-user",
            "or memif, whichever took fewer in that round; below 1.00x "
            "xen took fewer), median",
            "and 25th-75th percentile over the rounds (each peer's in the "
            "JSON, cycle_ratios):"] + out


def baseline_lines(results):
    """A line per xen row run beside the baseline build (--baseline): its
    Mpps and each end's cycles per packet over the baseline's, within
    rounds. Empty when there is none."""
    out = []
    for r in results:
        if r["transport"] != "xen" or r.get("ratio_base") is None:
            continue
        parts = ["Mpps %.2fx" % r["ratio_base"]]
        if "ratio_base_p25" in r:
            parts[0] += " %.2f-%.2f" % (r["ratio_base_p25"],
                                        r["ratio_base_p75"])
        for role, name in (("rx", "receiver"), ("tx", "sender")):
            c = (r.get("cycle_ratios_base") or {}).get(role)
            if c:
                parts.append("%s cycles %.2fx %.2f-%.2f" % (
                    name, c["median"], c["p25"], c["p75"]))
        out.append("  %s  %s" % (_row_label(r), ", ".join(parts)))
    if not out:
        return []
    return ["Against the baseline build (--baseline), which took its turn "
            "in every round: xen's",
            "Mpps and cycles per packet over its, median and 25th-75th "
            "percentile over the rounds",
            "(above 1.00x: more packets; below 1.00x: fewer cycles):"] + out


def _row_label(r):
    """A xen row as the lines under the table name it."""
    return "%s %s %dB %dq" % (r["label"], r["direction"], r["size"],
                              r.get("queues", 1))


def _num(v, fmt):
    return fmt % v if v is not None else "-"


def _per_pkt(v):
    """A per-packet ratio that may be tiny (notifications)."""
    if v is None:
        return "-"
    if v == 0:
        return "0"
    return "%.3f" % v if v >= 0.001 else "%.1e" % v


def table_rows(results, failures=(), unsupported=()):
    """(head, rows) of the table, every cell a string."""
    show_null = any(r["transport"] == "null" for r in results)
    show_base = any(r["transport"] == BASELINE for r in results)
    head = ["transport", "dir", "size", "burst", "q", "Mpps med", "min",
            "max", "Gbit/s", "vs vhost", "vs memif"]
    if show_null:
        head.append("vs null")
    if show_base:
        head.append("vs base")
    show_instr = any(r.get("instructions") for r in results)
    head += ["cyc tx", "cyc rx"]
    if show_instr:
        head += ["ins tx", "ins rx"]
    head += ["notif/pkt", "copy/pkt", "hcall/pkt",
             "host ns", "windows"]
    rows = []

    def ratio(r, key):
        v = r.get(key)
        if v is None:
            return "-"
        if key + "_p25" not in r:
            return "%.2fx" % v
        return "%.2fx %.2f-%.2f%s" % (v, r[key + "_p25"], r[key + "_p75"],
                                     "!" if r[key + "_marked"] else "")

    def filler(r, what):
        row = [FAMILY_LABEL[r["transport"]], r["direction"], str(r["size"]),
               str(r.get("burst", 32)), str(r.get("queues", 1)), what]
        row += ["-"] * (len(head) - len(row))
        return row

    for r in results:
        row = [r["label"], r["direction"], str(r["size"]),
               str(r.get("burst", 32)), str(r.get("queues", 1)),
               "%.2f" % r["mpps_median"], "%.2f" % r["mpps_min"],
               "%.2f" % r["mpps_max"], "%.1f" % r["gbps"],
               ratio(r, "ratio_vhost"), ratio(r, "ratio_memif")]
        if show_null:
            row.append(ratio(r, "ratio_null"))
        if show_base:
            row.append(ratio(r, "ratio_base"))
        row += [_num(r.get("cycles_per_pkt_sender"), "%.0f"),
                _num(r.get("cycles_per_pkt_receiver"), "%.0f")]
        if show_instr:
            row += [_num(r.get("instructions_per_pkt_sender"), "%.0f"),
                    _num(r.get("instructions_per_pkt_receiver"), "%.0f")]
        row += [_per_pkt(r.get("notifications_per_pkt")),
                _per_pkt(r.get("grant_copy_calls_per_pkt")),
                _per_pkt(r.get("hypercalls_per_pkt")),
                _num(r.get("host_bounce_ns"), "%.0f"),
                "%d/%d%s" % (r["windows_used"], r["windows_total"],
                             " *" if r["disturbed"] else "")]
        rows.append(row)
    for u in unsupported:
        rows.append(filler(u, "n/a"))
    for f in failures:
        rows.append(filler(f, "FAILED"))
    return head, rows


def mode_lines(results):
    """A line per xen row whose rounds ran in both host modes: its ratio
    within rounds to each peer over the rounds of each mode. Empty when no
    row's did."""
    out = []
    for r in results:
        if r["transport"] != "xen":
            continue
        parts = []
        for peer in XEN_PEERS:
            modes = r.get("ratio_%s_by_mode" % peer) or {}
            if len(modes) < 2:
                continue
            parts.append("vs %s: %s" % (FAMILY_LABEL[peer], ", ".join(
                "%s %.2fx %.2f-%.2f (%d rounds)" % (
                    mode, m["median"], m["p25"], m["p75"], m["rounds"])
                for mode, m in sorted(modes.items(),
                                      key=lambda kv: MODE_ORDER[kv[0]]))))
        if parts:
            out.append("  %s  %s" % (_row_label(r), "; ".join(parts)))
    if not out:
        return []
    return ["By the host's mode (a round in which the probes before and "
            "after both transports'",
            "windows took < %d ns ran fast; 'changed': they disagree), "
            "where a point's rounds ran" % HOST_FAST_NS,
            "in more than one: the ratio within rounds, median and "
            "25th-75th percentile:"] + out


def format_table(head, rows):
    widths = [max([len(h)] + [len(row[i]) for row in rows])
              for i, h in enumerate(head)]
    # Text columns (transport, dir) and the last one to the left.
    left = {0, 1, len(head) - 1}
    fmt = "  ".join("%%-%ds" % w if i in left else "%%%ds" % w
                    for i, w in enumerate(widths))
    lines = [(fmt % tuple(head)).rstrip(),
             (fmt % tuple("-" * w for w in widths)).rstrip()]
    lines += [(fmt % tuple(row)).rstrip() for row in rows]
    return lines


def legend_lines(results, failures, unsupported, memory_note, hugepages,
                 mode=None, host_mode=None):
    out = ["Mpps: receiver Rx-pps, median (min/max) over the windows used; "
           "Gbit/s: median x size x 8.",
           "vs vhost, vs memif: xen's Mpps over that transport's at the "
           "same point."]
    if any(r.get("round_mpps") for r in results):
        out += ["  Interleaved (the transports of a point take turns, a "
                "window each, round after",
                "  round): the ratio within each round, median and 25th-"
                "75th percentile over the",
                "  rounds; '!': they spread more than %d%% of the median "
                "(the host changed speed)." % round(RATIO_SPREAD_MAX * 100)]
    if host_mode is not None:
        out += ["  --host-mode %s: those ratios, and the cycles' within "
                "rounds, are over the rounds" % host_mode,
                "  in which the probes before and after every window "
                "compared found the %s mode;" % host_mode,
                "  '-': none did."]
    if any(r["transport"] == "null" for r in results):
        out.append("vs null: the row's Mpps over net_null's (the ceiling: "
                   "testpmd alone).")
    if any(r["transport"] == BASELINE for r in results):
        out.append("vs base: xen's Mpps over xen base's, the same PMDs of "
                   "the --baseline build.")
    out += [
        "cyc tx, cyc rx: CPU cycles per packet, testpmd "
        "--record-core-cycles over the whole run:",
        "  rx counts bursts that received packets (the cost of "
        "receiving); tx counts every",
        "  burst, also those a full ring refused (near CPU Hz / rate "
        "when the receiver limits)."]
    if any(r.get("instructions") for r in results):
        out += [
            "ins tx, ins rx: instructions per packet of the whole "
            "testpmd, the end counted under",
            "  callgrind while its peer ran natively (so it was the "
            "slower end: full polls),",
            "  after the rates (app/xenbench/instructions.py; commands "
            "in the JSON)."]
    out += [
        "notif/pkt: notifications sent by both ends, copy/pkt: grant-copy "
        "calls, per packet,",
        "  hcall/pkt: every hypercall-class operation of both ends (grant "
        "copy calls, ring",
        "  maps and unmaps, notifications sent or failed) per packet",
        "  (our xstats, over the measured windows; '-' for other "
        "transports).",
        "  A '-' under cyc: testpmd printed no count at stop (memif "
        "resets a port's counters",
        "  when its peer disconnects; the receiver is stopped first).",
        "host ns: a cache line's round trip between the two CPUs, timed "
        "before the point's",
        "  windows while no testpmd forwarded (app xen-host-probe; median "
        "over the runs): the host's",
        "  mode. These VMs move packets between two CPUs at one of two "
        "speeds; compare rows",
        "  whose host ns are alike.",
        "windows: used/measured; a window is left out when a testpmd got "
        "< %d%% of its CPU" % round(CLEAN_CPU_SHARE * 100),
        "  (other load on this machine), unless that would leave out "
        "half; '*' = disturbed,",
        "  all windows used."]
    fams = []
    for r in list(results) + list(failures) + list(unsupported):
        if r["transport"] not in fams:
            fams.append(r["transport"])
    out.append("f2b = frontend -> backend: " + "; ".join(
        "%s %s -> %s" % (FAMILY_LABEL[f], *FAMILY_ENDS[f]) for f in fams))
    reasons = []
    for u in unsupported:
        line = "n/a: %s %d queues: %s" % (FAMILY_LABEL[u["transport"]],
                                          u["queues"], u["reason"])
        if line not in reasons:
            reasons.append(line)
    out += reasons
    for f in failures:
        first = f["error"].splitlines()[0] if f["error"] else ""
        out.append("FAILED: %s %s %dB burst %d q%d: %s" % (
            FAMILY_LABEL[f["transport"]], f["direction"], f["size"],
            f.get("burst", 32), f.get("queues", 1), first))
    out.append(memory_note)
    if not hugepages:
        out.append("WARNING: no hugepages, these figures are NOT "
                   "comparable.")
    if mode == "quick":
        out.append("QUICK preset: few short windows; the figures are "
                   "indicative only (--full for figures to quote).")
    return out


def print_table(results, failures, memory, unsupported=(), mode=None,
                out=None, host_mode=None):
    head, rows = table_rows(results, failures, unsupported)
    extra = []
    for lines in (mode_lines(results), cycle_lines(results),
                  baseline_lines(results)):
        extra += lines + ([""] if lines else [])
    text = format_table(head, rows) + [""] + extra + legend_lines(
        results, failures, unsupported, memory.note, memory.hugepages, mode,
        host_mode)
    print("\n".join(text), file=out, flush=True)


def machine_info():
    info = {"cpus": os.cpu_count(), "kernel": platform.release(),
            "machine": platform.machine()}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu_model"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return info


def build_doc(args, memory, results, failures, unsupported, interrupted,
              plot=None):
    return {
        "tool": "xen-bench",
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": machine_info(),
        "testpmd": args.testpmd,
        "baseline": (os.path.abspath(args.baseline)
                     if getattr(args, "baseline", None) else None),
        "mode": args.mode,
        "indicative_only": args.mode == "quick",
        "method": "interleaved" if args.interleaved else "sequential",
        "rounds": args.rounds if args.interleaved else None,
        "host_mode": args.host_mode if args.interleaved else None,
        "max_rounds": (args.max_rounds
                       if args.interleaved and args.host_mode else None),
        "fresh_pairs": args.fresh_pairs if args.interleaved else None,
        "round_seconds": ({"warm": args.round_warm,
                           "window": args.round_window}
                          if args.interleaved else None),
        "warmup_windows": args.warmup,
        "windows": args.windows,
        "repeat": args.repeat,
        "desc": args.desc,
        "sizes": args.sizes,
        "bursts": args.bursts,
        "queues": args.queues,
        "idle_wait": args.idle_wait,
        "cpus": {"sender": args.cpus[0], "receiver": args.cpus[1]},
        "memory": {"hugepages": memory.hugepages,
                   "comparable": memory.hugepages,
                   "note": memory.note},
        "interrupted": interrupted,
        "plot": plot,
        "results": results,
        "unsupported": list(unsupported),
        "failures": failures,
    }


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
