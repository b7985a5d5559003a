# SPDX-License-Identifier: BSD-3-Clause
"""Instructions per packet of each end (--instructions): a count that
does not depend on the host's mode, beside testpmd's cycles, which do.

One end at a time runs under valgrind's callgrind while its peer runs
natively on the other CPU. Callgrind makes the end it counts about 50x
slower, so that end is the bottleneck by far: a receiver counted finds a
full ring at every poll and a sender counted finds room, as the slower
end of a real run does, and empty polls do not dilute the count. The
peer's side of this is measured, not assumed: the sender's TX-dropped
share (testpmd's txonly counts a packet its PMD refused as dropped) is
near 1 when the receiver is counted (its ring was full) and near 0 when
the sender is (it always had room); both are in the JSON.

A window, with the pair at its prompt (rounds.Console): "start" on the
receiver, then on the sender; WARM seconds; callgrind's counters zeroed
(callgrind_control -z) and the counted end's port counters read;
WINDOW seconds; the port counters read and callgrind's dumped
(callgrind_control -d); "stop" on the sender, then on the receiver. The
count is every instruction of the counted testpmd over the window (all
its threads: the forwarding lcore's polls, and the few of the main
thread answering "show port stats" and of the idle interrupt thread)
over the packets its port counted. No symbols are needed (Debian's
dpdk-testpmd is stripped) and every transport is counted alike: testpmd's
forwarding engine and the PMD's burst functions, with the copies and
mbuf handling they do. The same command, at the same size and burst,
gives the same count within a few percent (callgrind counts the
instructions of the code paths the CPU valgrind presents selects).

Reproducible by hand: the commands are in the JSON ("instructions" ->
"command"), and callgrind_annotate on the dump (kept with --log-dir)
shows where the instructions go (with symbols for our PMDs' plugins)."""

import glob
import os
import re
import shlex
import shutil
import subprocess
import time

from .rounds import Console, set_size
from .runner import stop_together
from .util import BenchError, log, vlog

RE_SUMMARY = re.compile(r"^summary:\s+(\d+)", re.M)
# The forward statistics "stop" prints, summed over the ports.
RE_ACCUMULATED = re.compile(
    r"Accumulated forward statistics for all ports.*?"
    r"TX-dropped:\s+(\d+)\s+TX-total:\s+(\d+)", re.S)
RE_PORT_TX = re.compile(r"TX-dropped:\s+(\d+)\s+TX-total:\s+(\d+)")

CALLGRIND_CONTROL_TIMEOUT = 60.0
# Seconds of a window under callgrind: a warm-up (the peer fills the
# counted receiver's ring), then the count, some 10^5 packets or more.
WARM = 1.0
WINDOW = 3.0


def valgrind_argv(argv, testpmd, out_base):
    """argv with testpmd run under callgrind, dumps to out_base.<n>."""
    i = argv.index(testpmd)
    return argv[:i] + ["valgrind", "--tool=callgrind",
                       "--callgrind-out-file=%s" % out_base] + argv[i:]


def summary(path):
    """The instructions (event Ir) a callgrind dump counted."""
    with open(path) as f:
        m = RE_SUMMARY.search(f.read())
    if not m:
        raise BenchError("no 'summary:' line in callgrind dump %s" % path)
    return int(m.group(1))


def tx_dropped(stop_text):
    """(dropped, total) of what testpmd's "stop" printed for the packets
    it sent: the accumulated block when there are several ports, else the
    one port's; None when it printed none."""
    m = RE_ACCUMULATED.search(stop_text)
    if not m:
        found = RE_PORT_TX.findall(stop_text)
        if not found:
            return None
        m_d, m_t = found[-1]
        return int(m_d), int(m_t)
    return int(m.group(1)), int(m.group(2))


def callgrind_control(option, pid):
    """callgrind_control -z (zero) or -d (dump) of one process."""
    cmd = ["callgrind_control", option, str(pid)]
    vlog("+ " + " ".join(cmd))
    try:
        out = subprocess.run(cmd, capture_output=True, text=True,
                             timeout=CALLGRIND_CONTROL_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise BenchError("%s: no answer in %.0f s" %
                         (" ".join(cmd), CALLGRIND_CONTROL_TIMEOUT)) from None
    if out.returncode != 0 or "OK." not in out.stdout:
        raise BenchError("%s failed: %s" % (" ".join(cmd),
                                            (out.stdout + out.stderr).strip()))


def dumps(out_base):
    """The dumps so far of the one process counted into out_base."""
    return set(glob.glob(out_base + ".*"))


def count_window(pair, counted, out_base, warm, seconds):
    """One window of a pair whose end counted ("tx" or "rx") runs under
    callgrind: its instructions and packets, and the sender's TX-dropped
    share."""
    tx, rx = pair.procs["tx"], pair.procs["rx"]
    me = pair.procs[counted]
    pid = me.testpmd_pid()
    if pid is None:
        raise me.failure("no testpmd process under valgrind")
    key = "%s_packets" % counted
    before = dumps(out_base)
    rx.command("start")
    tx.command("start")
    try:
        time.sleep(warm)
        callgrind_control("-z", pid)
        base = me.stats()
        time.sleep(seconds)
        last = me.stats()
        callgrind_control("-d", pid)
    finally:
        tx_stop = tx.command("stop")
        rx.command("stop")
    new = sorted(dumps(out_base) - before)
    if len(new) != 1:
        raise BenchError("%s: expected one new callgrind dump, found %s" %
                         (me.name, new or "none"))
    instructions = summary(new[0])
    packets = last[key] - base[key]
    if packets <= 0:
        raise me.failure("counted no packets in %.1f s under callgrind" %
                         seconds)
    dropped = tx_dropped(tx_stop)
    return {"instructions": instructions, "packets": packets,
            "per_packet": instructions / packets,
            "mpps_under_callgrind": packets / (last["t"] - base["t"]) / 1e6,
            "sender_dropped_share": (dropped[0] / dropped[1]
                                     if dropped and dropped[1] else None),
            "dump": new[0], "command": shlex.join(me.cmd)}


def count_group(bench, points, warm=WARM, seconds=WINDOW):
    """Instructions per packet of both ends of every point of a group
    (cli.groups: one direction, burst and queue count): for each transport
    and end, one pair at its prompt with that end under callgrind, a
    window per size. Returns ({point: {"tx": .., "rx": ..}},
    {point: BenchError})."""
    out, failed = {}, {}
    for fam in dict.fromkeys(pt.family for pt in points):
        mine = [pt for pt in points if pt.family == fam]
        for counted in ("rx", "tx"):
            # Dumps base.1, base.2, ...: a window each, in size order.
            base = os.path.join(bench.tmpdir, "callgrind-%s-%s-%d-b%d-q%d-%s"
                                % (fam, mine[0].direction, mine[0].size,
                                   mine[0].burst, mine[0].queues, counted))

            def wrap(role, argv, counted=counted, base=base):
                if role != counted:
                    return argv
                return valgrind_argv(argv, bench.args.testpmd, base)

            pair = bench.pair(mine[0], 0, Console,
                              deadline=600 + 60 * len(mine),
                              interactive=True, wrap=wrap,
                              log_tag="-callgrind-" + counted)
            try:
                bench.start_pair(pair)
                for pt in mine:
                    set_size(pair, pt.size)
                    got = count_window(pair, counted, base, warm, seconds)
                    out.setdefault(pt, {})[counted] = got
                    log("progress: instructions: %s %s %dB burst %d %dq "
                        "%s: %.0f per packet (%d packets)" % (
                            fam, pt.direction, pt.size, pt.burst, pt.queues,
                            "sender" if counted == "tx" else "receiver",
                            got["per_packet"], got["packets"]))
            except BenchError as e:
                for pt in mine:
                    failed[pt] = e
                log("progress: instructions: %s %s: FAILED: %s" % (
                    fam, mine[0].direction, e))
            finally:
                stop_together(pair.order)
                bench.stop_pair(pair)
                kept = keep_dumps(bench.args.log_dir, base)
                for pt in mine:
                    got = out.get(pt, {}).get(counted)
                    if got:
                        got["dump"] = kept.get(got["dump"])
    return out, failed


def keep_dumps(log_dir, base):
    """The dumps of base move to log_dir (--log-dir), else are removed
    with the rest; {old path: new path or None}."""
    kept = {}
    for path in glob.glob(base + ".*"):
        if log_dir and os.path.getsize(path):
            kept[path] = os.path.join(log_dir, os.path.basename(path))
            shutil.move(path, kept[path])
        else:
            os.unlink(path)
            kept[path] = None
    return kept


def attach(result, got):
    """A point's counts ({"tx": .., "rx": ..} of count_group, or None)
    into its result (measure.summarize): "instructions", and
    instructions_per_pkt_sender and _receiver for the table."""
    got = got or {}
    result["instructions"] = got or None
    for role, name in (("tx", "sender"), ("rx", "receiver")):
        one = got.get(role)
        result["instructions_per_pkt_" + name] = (one["per_packet"]
                                                  if one else None)
