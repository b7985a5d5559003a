# SPDX-License-Identifier: BSD-3-Clause
"""From the stats blocks of a point's runs to its figures (pure; no
processes, no clock).

A run is a dict:
  windows      receiver blocks measured (after warm-up), each with dt and
               cpu_share [sender, receiver] where known
  rx_base      the receiver block just before the first measured one
  tx_windows   sender blocks over the same stretch of time
  tx_base      the sender block just before those
  cycles       {"tx": ..., "rx": ...}: testpmd's cycles/packet at stop
               (testpmd_output.StatsParser.cycles) or None
  commands, sender, receiver
"""

import statistics

from .load import CLEAN_CPU_SHARE
from .transports import FAMILY_LABEL, HYPERCALL_XSTATS, role_xstat_sum

PKT_KEY = {"rx": "rx_packets", "tx": "tx_packets"}


class WarmUp:
    """Which of the receiver's stats blocks, fed in order, close a window
    to measure. A window runs from one block to the next; it counts only
    if it began once both testpmd were forwarding (t_forwarding, the later
    of their "start packet forwarding" lines), and the first `windows` of
    those are the warm-up. The first block fed only opens a window."""

    def __init__(self, t_forwarding, windows):
        self.t_forwarding = t_forwarding
        self.left = windows
        self.prev_t = None

    def measured(self, block):
        start, self.prev_t = self.prev_t, block["t"]
        if start is None or start < self.t_forwarding:
            return False
        if self.left > 0:
            self.left -= 1
            return False
        return True


def counter_deltas(base, last, pkt_key):
    """Packets and xstats counted between two blocks of one process, or
    None if there is no such stretch."""
    if base is None or last is None or base is last:
        return None
    pkts = last.get(pkt_key, 0) - base.get(pkt_key, 0)
    xs = {}
    for name, v in last.get("xstats", {}).items():
        if name in base.get("xstats", {}):
            xs[name] = v - base["xstats"][name]
    return {"packets": pkts, "xstats": xs}


def run_counters(run):
    """{"rx": deltas, "tx": deltas} over the measured stretch of a run:
    the receiver's from the block before the first measured window to the
    last; the sender's likewise over its blocks of the same time."""
    out = {}
    for role, base_key, wins_key in (("rx", "rx_base", "windows"),
                                     ("tx", "tx_base", "tx_windows")):
        wins = run.get(wins_key) or []
        base = run.get(base_key)
        if base is None and len(wins) >= 2:
            base = wins[0]
        out[role] = counter_deltas(base, wins[-1] if wins else None,
                                   PKT_KEY[role])
    return out


def pool_counters(runs):
    """Sum of each role's packets and xstats deltas over the runs."""
    pooled = {}
    for run in runs:
        for role, d in run_counters(run).items():
            if d is None:
                continue
            acc = pooled.setdefault(role, {"packets": 0, "xstats": {}})
            acc["packets"] += d["packets"]
            for k, v in d["xstats"].items():
                acc["xstats"][k] = acc["xstats"].get(k, 0) + v
    return pooled


def per_packet(pooled, role, what):
    """Counter `what` of the traffic's queue at one end, per packet that
    end counted; None where the end has no such counter."""
    d = pooled.get(role)
    if not d or d["packets"] <= 0:
        return None
    v = role_xstat_sum(d["xstats"], role, what)
    return None if v is None else v / d["packets"]


def _sum_known(*vals):
    known = [v for v in vals if v is not None]
    return sum(known) if known else None


def _sane_count(n):
    return n is not None and 0 < n < 1 << 62


def run_cycles(run, role):
    """(cycles, packets) of one end in one run from testpmd's line at
    stop, or None. Where that line's packet count is wrong (memif resets
    a port's counters when its peer disconnects, so testpmd's count since
    the start of forwarding wraps below zero), the end's last stats block
    gives the packets instead."""
    c = (run.get("cycles") or {}).get(role)
    if not c or c.get("cycles") is None:
        return None
    if _sane_count(c.get("packets")):
        return c["cycles"], c["packets"]
    wins = run.get("windows" if role == "rx" else "tx_windows") or []
    n = wins[-1].get(PKT_KEY[role]) if wins else None
    return (c["cycles"], n) if _sane_count(n) else None


def pooled_cycles(runs, role):
    """CPU cycles per packet of one end over all runs: total cycles over
    total packets; None if testpmd printed no usable line (it prints none
    when it counted no packets)."""
    got = [x for x in (run_cycles(r, role) for r in runs) if x]
    if got:
        return sum(c for c, _ in got) / sum(n for _, n in got)
    cyc = [c for c in (printed_cycles(r, role) for r in runs) if c]
    return statistics.median(cyc) if cyc else None


def printed_cycles(run, role):
    """testpmd's own cycles/packet figure of one end in one run, where its
    line has no totals (another testpmd version); else None."""
    c = (run.get("cycles") or {}).get(role)
    if c and c.get("cycles") is None and c.get("cycles_per_packet", 0) > 0:
        return c["cycles_per_packet"]
    return None


def run_cycles_per_packet(run, role):
    """One end's cycles per packet in one run (run_cycles), or testpmd's
    own figure (printed_cycles); None if neither is usable."""
    got = run_cycles(run, role)
    return got[0] / got[1] if got else printed_cycles(run, role)


def round_cycles(runs, role):
    """Round -> one end's cycles per packet in that round's window (the
    interleaved method's runs), for ratios within rounds
    (report.add_cycle_ratios); rounds without a usable count left out."""
    out = {}
    for r in runs:
        if "round" in r:
            c = run_cycles_per_packet(r, role)
            if c is not None:
                out[r["round"]] = c
    return out


def _round_bounce(runs, key):
    """Round -> the bounce_ns of the probe under key in each run that has
    one."""
    return {r["round"]: r[key]["bounce_ns"] for r in runs
            if "round" in r and r.get(key) and "bounce_ns" in r[key]}


def summarize(family, direction, size, runs, burst=32, queues=1):
    """One point's result from its runs (each with fresh processes):
    their measured windows are pooled."""
    windows = [w for r in runs for w in r["windows"]]
    tx_windows = [w for r in runs for w in r.get("tx_windows", [])]
    # Windows in which other processes took CPU time from a testpmd are
    # left out when at least half of the windows are clean; if not, all
    # count and the point is flagged as disturbed.
    clean = [w for w in windows
             if min(w.get("cpu_share") or [1.0]) >= CLEAN_CPU_SHARE]
    disturbed = len(clean) * 2 < len(windows)
    used = windows if disturbed else clean
    pps = [w["rx_pps"] for w in used]
    first = runs[0]
    res = {
        "transport": family,
        "label": FAMILY_LABEL[family],
        "direction": direction,
        "sender": first["sender"],
        "receiver": first["receiver"],
        "size": size,
        "burst": burst,
        "queues": queues,
        "mpps_median": statistics.median(pps) / 1e6,
        "mpps_min": min(pps) / 1e6,
        "mpps_max": max(pps) / 1e6,
        "windows_used": len(used),
        "windows_total": len(windows),
        "disturbed": disturbed,
        "windows_mpps": [round(w["rx_pps"] / 1e6, 4) for w in windows],
        "windows_cpu_share": [w.get("cpu_share") for w in windows],
        "window_seconds": [round(w["dt"], 3) for w in windows
                           if w.get("dt")],
        "run_medians_mpps": [round(statistics.median(
            [w["rx_pps"] for w in r["windows"]]) / 1e6, 4)
            for r in runs],
        "tx_mpps_median": (statistics.median(
            [w["tx_pps"] for w in tx_windows]) / 1e6
            if tx_windows else None),
        "commands": [c for r in runs for c in r["commands"]],
    }
    res["gbps"] = res["mpps_median"] * 1e6 * size * 8 / 1e9
    # The interleaved method's runs are rounds: Mpps by round, for ratios
    # within a round (report.add_ratios).
    res["round_mpps"] = {r["round"]: r["windows"][-1]["rx_pps"] / 1e6
                         for r in runs if "round" in r and r["windows"]}
    res["host"] = [r.get("host") for r in runs]
    res["host_after"] = [r.get("host_after") for r in runs]
    # The host's mode by round, before the round's windows at this size
    # and after them, to split ratios within rounds by it
    # (report.add_ratios).
    res["round_host_ns"] = _round_bounce(runs, "host")
    res["round_host_after_ns"] = _round_bounce(runs, "host_after")
    bounces = [h["bounce_ns"] for h in res["host"] if h and "bounce_ns" in h]
    res["host_bounce_ns"] = statistics.median(bounces) if bounces else None
    res["cycles_per_pkt_sender"] = pooled_cycles(runs, "tx")
    res["cycles_per_pkt_receiver"] = pooled_cycles(runs, "rx")
    res["round_cycles"] = {role: round_cycles(runs, role)
                           for role in ("tx", "rx")}
    pooled = pool_counters(runs)
    notif_tx = per_packet(pooled, "tx", "notifications_sent")
    notif_rx = per_packet(pooled, "rx", "notifications_sent")
    res["notifications_per_pkt_sender"] = notif_tx
    res["notifications_per_pkt_receiver"] = notif_rx
    res["notifications_per_pkt"] = _sum_known(notif_tx, notif_rx)
    # Only the netback copies; it is the sender (b2f) or the receiver.
    res["grant_copy_calls_per_pkt"] = _sum_known(
        per_packet(pooled, "tx", "grant_copy_calls"),
        per_packet(pooled, "rx", "grant_copy_calls"))
    res["grant_copy_ops_per_pkt"] = _sum_known(
        per_packet(pooled, "tx", "grant_copy_ops"),
        per_packet(pooled, "rx", "grant_copy_ops"))
    res["hypercalls_per_pkt"] = _sum_known(
        *[per_packet(pooled, role, what) for role in ("tx", "rx")
          for what in HYPERCALL_XSTATS])
    res["counters"] = pooled
    return res
