# SPDX-License-Identifier: BSD-3-Clause
"""Interleaved measurement (the default): the transports of a point take
turns, so that a change of the host's speed hits all of them alike.

A group is the points of one direction, size, burst and queue count, one
per transport. Every transport's pair of testpmd is started once, at the
prompt (-i) with forwarding stopped: an idle pair costs no CPU. Then come
rounds; in each round every transport forwards in turn for one window,
in an order rotated from round to round, and the host's mode is probed
before and after every window (host_probe), since it can change within a
round, every few seconds: a ratio within a round then counts in a mode
only when both its windows ran in it (report.joint_modes). A window:
"start" on the receiver, then on the sender; --round-warm seconds; the
counters ("show port stats", with the xstats); --round-window seconds;
the counters again; "stop" on the sender, then on the receiver (their
cycles/packet lines). Round 0 warms the pairs up (a netfront still
connecting, caches) and is not counted.

With fresh pairs (--full's default), every round starts every pair anew
and stops it at its end, each pair's first window a short warm-up not
counted: what a start decides (where the memory lies, which pages share
cache sets, the simulator's placement) then differs from round to round
as it does from run to run, and the spread over rounds shows it. Each
round then goes over every group before the next round (cli.schedule),
so that a point's rounds lie spread over the whole run.

Each counted window is a run as measure.summarize takes it, with the
round it belongs to, so that report.add_ratios can take ratios within
a round."""

import os
import select
import shlex
import subprocess
import threading
import time

from .command import txpkts
from .load import cpu_share, cpu_snapshot
from .runner import READY_TIMEOUT, STOP_GRACE, Testpmd, stop_together
from .testpmd_output import StatsParser, Transcript
from .util import BenchError, vlog

COMMAND_TIMEOUT = 30.0


class Console(Testpmd):
    """A dpdk-testpmd at its prompt: command() sends one line and returns
    what testpmd printed until its next prompt. Its lines still go to the
    log and the parser; ready is set at its first prompt."""

    def __init__(self, name, cmd, log_path=None):
        super().__init__(name, cmd, log_path)
        self._cond = threading.Condition()
        self._out = Transcript()
        self._ended = False

    def start(self):
        vlog("+ " + shlex.join(self.cmd))
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, bufsize=0,
                                     start_new_session=True)
        self._thread = threading.Thread(target=self._reader, daemon=True)
        self._thread.start()

    def _reader(self):
        logf = open(self.log_path, "w") if self.log_path else None
        line = ""
        try:
            fd = self.proc.stdout.fileno()
            while True:
                select.select([fd], [], [])
                chunk = os.read(fd, 65536).decode(errors="replace")
                if not chunk:
                    break
                if logf:
                    logf.write(chunk)
                with self._cond:
                    self._out.feed(chunk)
                    if self._out.prompts and not self.ready.is_set():
                        self.ready_at = time.monotonic()
                        self.ready.set()
                    self._cond.notify_all()
                line += chunk
                *whole, line = line.split("\n")
                for w in whole:
                    self.tail.append(w)
                    self.parser.feed(w, time.monotonic())
                del self.tail[:-40]
        finally:
            if logf:
                logf.close()
            with self._cond:
                self._ended = True
                self._cond.notify_all()
            self.events.put(None)

    def command(self, text, timeout=COMMAND_TIMEOUT):
        """Send one command; what testpmd printed until its next prompt.
        BenchError if it ends or does not prompt again in time."""
        with self._cond:
            seen, mark = self._out.prompts, len(self._out.text)
            try:
                self.proc.stdin.write((text + "\n").encode())
            except OSError:
                raise self.failure("gone before %r" % text) from None
            if not self._cond.wait_for(
                    lambda: self._out.prompts > seen or self._ended,
                    timeout):
                raise self.failure("no prompt %.0f s after %r" %
                                   (timeout, text))
            if self._out.prompts == seen:
                raise self.failure("exited after %r" % text)
            return self._out.take(mark)

    def stats(self):
        """Port 0's counters now: a stats block (testpmd_output) whose t
        is when testpmd printed it."""
        out = self.command("show port stats 0")
        t = time.monotonic()
        parser = StatsParser()
        for line in out.splitlines() + ["#" * 40]:
            b = parser.feed(line, t)
            if b is not None:
                return b
        raise self.failure("no statistics in %r" % out[-300:])

    def stop_command(self):
        """"stop": testpmd's cycles/packet line of this forwarding spell
        (testpmd_output.StatsParser.cycles), or None."""
        parser = StatsParser()
        for line in self.command("stop").splitlines():
            parser.feed(line)
        return parser.cycles

    def interrupt(self):
        """Leave the prompt ("quit"); SIGINT as a last resort in stop()."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"quit\n")
                self.proc.stdin.close()
            except (OSError, ValueError):   # closed: quit already sent
                super().interrupt()


def rotated(items, r):
    """items in the order of round r: the first r % len moved to the end."""
    k = r % len(items)
    return items[k:] + items[:k]


def window(pair, warm, seconds):
    """One forwarding window of a started pair; a run for
    measure.summarize."""
    tx, rx = pair.procs["tx"], pair.procs["rx"]
    rx.command("start")
    tx.command("start")
    try:
        time.sleep(warm)
        rx_base, tx_base = rx.stats(), tx.stats()
        before = cpu_snapshot(tx, rx)
        time.sleep(seconds)
        rx_last, tx_last = rx.stats(), tx.stats()
        after = cpu_snapshot(tx, rx)
    finally:
        cycles = {"tx": tx.stop_command(), "rx": rx.stop_command()}
    dt = rx_last["t"] - rx_base["t"]
    tx_dt = tx_last["t"] - tx_base["t"]
    if dt <= 0 or tx_dt <= 0:
        raise BenchError("%s: a window of no time" % rx.name)
    rx_last["dt"] = dt
    rx_last["rx_pps"] = (rx_last["rx_packets"] - rx_base["rx_packets"]) / dt
    tx_last["tx_pps"] = (tx_last["tx_packets"] - tx_base["tx_packets"]) / \
        tx_dt
    share = cpu_share(before, after)
    if share is not None:
        rx_last["cpu_share"] = share
    return {"windows": [rx_last], "tx_windows": [tx_last],
            "rx_base": rx_base, "tx_base": tx_base, "cycles": cycles,
            "commands": [shlex.join(p.cmd) for p in pair.order],
            "sender": pair.sender, "receiver": pair.receiver}


def deadline_for(rounds, points, warm, seconds):
    """timeout(1)'s safety net for a group's testpmd: its start, every
    window and every probe, with room to spare."""
    per_window = warm + seconds + 4 * COMMAND_TIMEOUT / 10
    return int(2 * READY_TIMEOUT + (rounds + 1) * points * per_window * 3 +
               STOP_GRACE + 60)


def start_pairs(bench, points, rep, deadline, failed):
    """A pair for each transport of points not failed yet, started side
    by side at the prompt (each waits for its own peer, a memif server
    for its link; no pair forwards yet); a transport whose pair fails has
    its points in failed. Returns {family: pair}."""
    fams = []
    for pt in points:
        if pt.family not in fams and pt not in failed:
            fams.append(pt.family)
    pairs = {}
    for f in fams:
        first = next(pt for pt in points if pt.family == f)
        pairs[f] = bench.pair(first, rep, Console, deadline,
                              interactive=True)
    errors = {}

    def start(f):
        try:
            bench.start_pair(pairs[f])
        except BenchError as e:
            errors[f] = e

    starters = [threading.Thread(target=start, args=(f,)) for f in fams]
    for t in starters:
        t.start()
    for t in starters:
        t.join()
    for f, e in errors.items():
        drop(bench, pairs, f, e, points, failed)
    return pairs


def stop_pairs(bench, pairs):
    """Stop every pair at once, then remove what each leaves behind."""
    stop_together([p for pair in pairs.values() for p in pair.order])
    for pair in pairs.values():
        bench.stop_pair(pair)
    pairs.clear()


def run_group(bench, points, rep, numbers, warm, seconds, on_window=None,
              fresh=False):
    """The points of one group (transports and sizes of one direction,
    burst and queue count, all sizes one segment or all a chain), over the
    rounds numbered in numbers (0: a warm-up round, not counted): one pair
    per transport, started at the size of its first point and set to each
    size in turn ("set txpkts"); with fresh, a pair per transport and
    round instead, whose first window warms it up. Returns ({point:
    [runs]}, {point: BenchError}); a transport whose pair fails has its
    points in the second, and is left out of the later rounds."""
    deadline = deadline_for(len(numbers), len(points), warm, seconds)
    fams = []
    for pt in points:
        if pt.family not in fams:
            fams.append(pt.family)
    sizes = sorted({pt.size for pt in points})
    by = {(pt.family, pt.size): pt for pt in points}
    runs, failed, pairs, cold = {pt: [] for pt in points}, {}, {}, set()
    try:
        for r in numbers:
            if fresh or r == numbers[0]:
                stop_pairs(bench, pairs)
                pairs = start_pairs(bench, points, rep, deadline, failed)
                cold = set(pairs) if fresh else set()
            # The host's mode right before each counted window and right
            # after it (the probe after one window is the next's before).
            host = None
            for size in sizes:
                for f in rotated(fams, r):
                    pt = by.get((f, size))
                    if pt is None or f not in pairs:
                        continue
                    try:
                        set_size(pairs[f], size)
                        if f in cold:
                            # A fresh pair's warm-up, not counted.
                            cold.discard(f)
                            window(pairs[f], warm, min(seconds, 0.2))
                            host = None
                        if r and host is None:
                            host = bench.probe_host()
                        # Round 0 warms up: a short window, not counted.
                        run = window(pairs[f], warm,
                                     seconds if r else min(seconds, 0.2))
                    except BenchError as e:
                        drop(bench, pairs, f, e, points, failed)
                        host = None
                        continue
                    if r == 0:
                        continue
                    after = bench.probe_host()
                    run.update(round=r, host=host, host_after=after)
                    host = after
                    runs[pt].append(run)
                    if on_window:
                        on_window(pt, r, run)
    finally:
        stop_pairs(bench, pairs)
    return runs, failed


def drop(bench, pairs, family, error, points, failed):
    """A transport's pair failed: stop it, its points failed."""
    bench.stop_pair(pairs.pop(family))
    for pt in points:
        if pt.family == family:
            failed[pt] = error


def set_size(pair, size):
    """The sender's frames from now on: size bytes (as --txpkts)."""
    tx = pair.procs["tx"]
    if getattr(tx, "size", pair.pt.size) != size:
        out = tx.command("set txpkts %s" % txpkts(size)[0])
        if "error" in out.lower() or "invalid" in out.lower():
            raise tx.failure("set txpkts %d: %s" % (size, out.strip()))
    tx.size = size
