# SPDX-License-Identifier: BSD-3-Clause
"""The batch benchmark (app/xen-bench-batch): the table of the Windows
seed (NblBatchMax 1..64 against throughput) redone on our PMDs, with
EtherType grouping off and on, on mixed-EtherType traffic.

Per point, two testpmd processes as in xen-bench (one CPU each, the
simulated hypervisor): the sender io-forwards a net_pcap port that
replays the mixed traffic (mixed_pcap.py, infinite_rx=1) into our sending
end; the receiver is rxonly on our receiving end, whose devargs carry
batch=<B>,group_ethertype=<0|1>, with --burst 64 so that the bound, not
testpmd, limits a pull. Figures are the receiver's:

  Mpps        median (min, max) of its Rx-pps over the measured windows
  notif/pkt   rx_q0_notifications_sent per packet
  bells/pkt   (notifications_sent + _suppressed) per packet: the ring
              publishes, each with its one notify decision; the analogue
              of the seed's indications
  pkts/pull   packets per publish, i.e. per pull from the ring

Between two polling PMDs nobody moves an event index after the first
notification, so notif/pkt is ~0 at every bound; bells/pkt is what the
bound changes (1/B when the ring keeps up).
"""

import collections
import os
import shlex

from . import transports
from .bench import Bench, Point
from .command import testpmd_cmd
from .load import wait_for_idle
from .mixed_pcap import make_mixed_pcap, runs
from .runner import Testpmd, wait_ready
from .report import format_table

DEFAULT_BATCHES = [1, 8, 16, 32, 64]
BURST = 64
RX_XSTATS = ["rx_q0_notifications_sent", "rx_q0_notifications_suppressed"]

# One point: the receiver's bound and grouping, and the direction.
BatchPoint = collections.namedtuple("BatchPoint", "batch group direction")


def receiver_devargs(batch, group):
    return "batch=%d,group_ethertype=%d" % (batch, 1 if group else 0)


def pcap_vdev(path):
    return "net_pcap0,rx_pcap=%s,infinite_rx=1" % path


def with_devargs(end, extra):
    return transports.End(end.label, end.vdev + "," + extra, end.plugin)


def matrix(batches, groupings, directions):
    return [BatchPoint(b, g, d) for d in directions for g in groupings
            for b in batches]


def figures(res):
    """Add the receiver's per-packet doorbells to a summarize() result."""
    rx = (res.get("counters") or {}).get("rx") or {}
    pkts = rx.get("packets", 0)
    xs = rx.get("xstats", {})
    sent = xs.get("rx_q0_notifications_sent")
    supp = xs.get("rx_q0_notifications_suppressed")
    res["notif_per_pkt"] = sent / pkts if pkts and sent is not None else None
    bells = None if sent is None or supp is None else sent + supp
    res["bells_per_pkt"] = bells / pkts if pkts and bells is not None \
        else None
    res["pkts_per_pull"] = pkts / bells if bells else None
    return res


def onoff(text):
    """"on" or "off" -> bool; ValueError otherwise."""
    v = {"off": False, "on": True}.get(text.strip())
    if v is None:
        raise ValueError(text)
    return v


def _fmt(v, fmt):
    return "-" if v is None else fmt % v


def table_lines(results):
    head = ["dir", "batch", "grouping", "Mpps med", "min", "max",
            "notif/pkt", "bells/pkt", "pkts/pull", "windows"]
    rows = []
    for r in results:
        rows.append([r["direction"], str(r["batch"]),
                     "on" if r["grouping"] else "off",
                     "%.2f" % r["mpps_median"], "%.2f" % r["mpps_min"],
                     "%.2f" % r["mpps_max"],
                     _fmt(r.get("notif_per_pkt"), "%.4f"),
                     _fmt(r.get("bells_per_pkt"), "%.4f"),
                     _fmt(r.get("pkts_per_pull"), "%.1f"),
                     "%d/%d%s" % (r["windows_used"], r["windows_total"],
                                  " *" if r["disturbed"] else "")])
    return format_table(head, rows)


def traffic_note(kinds):
    r = runs(kinds)
    return ("traffic: %d frames replayed, %s; mean EtherType run %.1f "
            "frames (LLC/SNAP frames never join one)" %
            (len(kinds), ", ".join("%s %d%%" % (k, round(
                100.0 * kinds.count(k) / len(kinds)))
                for k in sorted(set(kinds), key=kinds.index)),
             sum(r) / len(r)))


class BatchBench(Bench):
    """xen-bench's runner with other testpmd command lines."""

    def __init__(self, args, memory, pcap):
        super().__init__(args, memory)
        self.pcap = pcap

    def run_batch(self, bp, rep):
        if self.args.idle_each:
            wait_for_idle(self.args.idle_wait, self.args.idle_sample)
        self.serial += 1
        n = self.serial
        pt = Point("xen", bp.direction, self.args.size, BURST, 1)
        e = transports.ends("xen", n, self.tmpdir, self.plugin,
                            tag="xbb%d" % os.getpid())
        devargs = receiver_devargs(bp.batch, bp.group)
        if bp.direction == "f2b":
            e = e._replace(back=with_devargs(e.back, devargs))
        else:
            e = e._replace(front=with_devargs(e.front, devargs))
        tx_end, rx_end = transports.sender_receiver(e, bp.direction)
        warmup, nwin = self.args.warmup, self.args.windows
        deadline = 240 + (warmup + nwin + 5) * 3
        procs = {}
        for role, end, cpu in (("tx", tx_end, self.cpus[0]),
                               ("rx", rx_end, self.cpus[1])):
            prefix = "xbb%d-%d%s" % (os.getpid(), n, role)
            tx = role == "tx"
            cmd = testpmd_cmd(self.args.testpmd, end,
                              "io" if tx else "rxonly", cpu, prefix,
                              deadline, size=self.args.size, burst=BURST,
                              desc=self.args.desc,
                              memory_args=self.memory.eal_args(),
                              eal_extra=self.args.eal_args,
                              xstats=False if tx else RX_XSTATS,
                              extra_vdevs=[pcap_vdev(self.pcap)] if tx
                              else ())
            log_path = None
            if self.args.log_dir:
                log_path = os.path.join(
                    self.args.log_dir, "batch-%s-b%d-g%d-r%d-%s.log" %
                    (bp.direction, bp.batch, bp.group, rep, role))
            p = Testpmd("%s (%s)" % (end.label, role), cmd, log_path)
            p.prefix = prefix
            p.end = end
            procs[role] = p
        order = [procs["rx"], procs["tx"]] if rx_end is e.back else \
            [procs["tx"], procs["rx"]]
        meas = {"commands": [shlex.join(p.cmd) for p in order],
                "sender": tx_end.label, "receiver": rx_end.label,
                "cycles": {"tx": None, "rx": None}}
        try:
            self.running += order
            order[0].start()
            order[1].start()
            wait_ready(order[0])
            wait_ready(order[1])
            meas.update(self._measure(procs["rx"], procs["tx"], warmup,
                                      nwin))
        finally:
            self._stop_run(procs, e, pt, n, meas)
        # The sender's blocks of the pcap port are not ours.
        meas["tx_windows"] = [w for w in meas.get("tx_windows", [])
                              if w.get("port") == 1]
        if (meas.get("tx_base") or {}).get("port") != 1:
            meas["tx_base"] = None
        return meas


def parse_args(argv):
    import argparse

    from .cli import DEFAULT_TESTPMD, parse_list

    ap = argparse.ArgumentParser(
        prog="xen-bench-batch",
        description="Mpps and notifications per packet of our PMDs' "
                    "receive side against the batch bound, EtherType "
                    "grouping off and on, on mixed-EtherType traffic.")
    ap.add_argument("--batches", default="1,8,16,32,64",
                    type=lambda s: parse_list(s, int, "batch"),
                    help="batch= values (1..64; default 1,8,16,32,64)")
    ap.add_argument("--grouping", default="off,on",
                    type=lambda s: parse_list(s, onoff, "grouping"),
                    help="off, on or both (default off,on)")
    ap.add_argument("--directions", default="f2b",
                    type=lambda s: parse_list(s, str.strip, "direction"),
                    help="f2b (netback receives, the default), b2f "
                    "(netfront receives) or both")
    ap.add_argument("--size", type=int, default=64,
                    help="frame size in the pcap (64..1514, default 64)")
    ap.add_argument("--frames", type=int, default=4096,
                    help="frames in the replayed pcap (default 4096)")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--windows", type=int, default=3)
    ap.add_argument("--build-dir", default="./build")
    ap.add_argument("--testpmd", default=DEFAULT_TESTPMD)
    ap.add_argument("--cpus", default="0,1",
                    type=lambda s: parse_list(s, int, "cpu"))
    ap.add_argument("--desc", type=int, default=1024)
    ap.add_argument("--idle-wait", type=int, default=30, metavar="SECS")
    ap.add_argument("--no-huge", action="store_true")
    ap.add_argument("--eal-args", default="", type=shlex.split)
    ap.add_argument("--log-dir")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    if not args.batches or any(b < 1 or b > 64 for b in args.batches):
        ap.error("--batches must lie in 1..64")
    if not args.grouping:
        ap.error("--grouping: off, on or off,on")
    if not args.directions or any(d not in transports.DIRECTIONS
                                  for d in args.directions):
        ap.error("--directions: f2b, b2f or f2b,b2f")
    if args.size < 64 or args.size > 1514:
        ap.error("--size must lie in 64..1514")
    if args.windows < 1 or args.warmup < 0 or args.frames < 1:
        ap.error("--windows and --frames must be >= 1, --warmup >= 0")
    if len(args.cpus) != 2:
        ap.error("--cpus takes two CPUs: sender,receiver")
    # What xen-bench's runner reads.
    args.transports = [("xen", d) for d in args.directions]
    args.idle_each = False
    args.idle_sample = 0.5
    args.measure_seconds = None
    args.repeat = 1
    return args


def main(argv):
    import json
    import tempfile
    import time

    from .measure import summarize
    from .memory import Memory
    from .util import BenchError, log

    args = parse_args(argv)
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
    for so in (transports.NETFRONT_SO, transports.NETBACK_SO):
        if not os.path.isfile(os.path.join(args.build_dir, so)):
            raise BenchError("%s missing in %s (build it first)" %
                             (so, args.build_dir))
    t0 = time.monotonic()
    memory = Memory(force_nohuge=args.no_huge)
    work = tempfile.mkdtemp(prefix="xen-bench-batch-")
    pcap = os.path.join(work, "mixed.pcap")
    kinds = make_mixed_pcap(pcap, args.frames, args.size)
    bench = None
    results, failures = [], []
    points = matrix(args.batches, args.grouping, args.directions)
    try:
        memory.setup()
        log("xen-bench-batch: %s; %d points, %d warm-up + %d windows" %
            (memory.note, len(points), args.warmup, args.windows))
        wait_for_idle(args.idle_wait, args.idle_sample)
        bench = BatchBench(args, memory, pcap)
        for i, bp in enumerate(points, 1):
            tag = "[%d/%d] %s batch %d grouping %s" % (
                i, len(points), bp.direction, bp.batch,
                "on" if bp.group else "off")
            try:
                meas = bench.run_batch(bp, 0)
            except BenchError as e:
                failures.append((bp, str(e)))
                log("progress: %s: FAILED: %s" % (tag, e))
                continue
            r = figures(summarize("xen", bp.direction, args.size, [meas],
                                  BURST, 1))
            r["batch"], r["grouping"] = bp.batch, bp.group
            results.append(r)
            log("progress: %s: %.2f Mpps %.0fs" % (
                tag, r["mpps_median"], time.monotonic() - t0))
    finally:
        if bench:
            bench.stop_all()
        memory.cleanup()
        os.remove(pcap)
        os.rmdir(work)
    lines = table_lines(results)
    lines += ["", traffic_note(kinds),
              "Receiver: testpmd rxonly --burst %d on the port with "
              "batch=B,group_ethertype=0|1; sender: testpmd io from "
              "net_pcap (infinite_rx) into our other end." % BURST,
              "notif/pkt: notifications sent by the receiver's rx queue; "
              "bells/pkt: its publishes (sent +",
              "  suppressed), one per pull; pkts/pull = 1 / bells/pkt. "
              "Polling peers never re-arm",
              "  their event index, so notif/pkt stays ~0.",
              "windows: used/measured ('*': disturbed by other load, all "
              "used).", memory.note]
    if not memory.hugepages:
        lines.append("WARNING: no hugepages, figures NOT comparable.")
    for bp, err in failures:
        lines.append("FAILED: %s batch %d grouping %s: %s" % (
            bp.direction, bp.batch, "on" if bp.group else "off",
            err.splitlines()[0] if err else ""))
    print("\n".join(lines), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tool": "xen-bench-batch", "results": results,
                       "failures": [{"point": bp._asdict(), "error": e}
                                    for bp, e in failures]}, f, indent=2)
    print("xen-bench-batch: %d points in %.0f s" %
          (len(points), time.monotonic() - t0))
    return 1 if failures else 0


def entry():
    import sys

    from .util import BenchError, log

    try:
        sys.exit(main(sys.argv[1:]))
    except BenchError as e:
        log("xen-bench-batch: %s" % e)
        sys.exit(2)
