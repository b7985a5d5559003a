# SPDX-License-Identifier: BSD-3-Clause
"""Running one measurement point: start the two testpmd (the end that
must exist first, first), skip the warm-up windows, collect the measured
ones with the CPU share each testpmd got, stop both, clean up."""

import collections
import glob
import os
import queue
import shlex
import shutil
import subprocess
import tempfile
import time

from . import host_probe, transports
from .command import testpmd_cmd
from .load import cpu_share, cpu_snapshot, wait_for_idle
from .measure import WarmUp
from .runner import (READY_TIMEOUT, Testpmd, remove_runtime_dir,
                     stop_in_order, stop_together, wait_ready)
from .util import log

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__))))

# One point of the matrix.
Point = collections.namedtuple("Point", "family direction size burst queues")
# One run's two testpmd: procs by role ("tx", "rx"), order: to start.
Pair = collections.namedtuple(
    "Pair", "pt n ends procs order sender receiver")


def remove_sim_instance(name):
    """The shared memory of a simulator instance, once no process uses it."""
    for path in glob.glob("/dev/shm/xsim-%s" % name) \
            + glob.glob("/dev/shm/xsim-%s.*" % name):
        try:
            os.unlink(path)
        except OSError:
            pass


def world_writable_parent(path):
    """The first directory above path that EAL would refuse, or None."""
    d = os.path.dirname(os.path.abspath(path))
    while True:
        try:
            if os.stat(d).st_mode & 0o002:
                return d
        except OSError:
            return None
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


class Bench:
    def __init__(self, args, memory):
        self.args = args
        self.memory = memory
        self.build_dir = os.path.abspath(args.build_dir)
        self.cpus = args.cpus
        self.tmpdir = tempfile.mkdtemp(prefix="xen-bench-")
        self.running = []
        self.serial = 0
        fams = {f for f, _ in args.transports}
        # Our plugins' directory, by family: the build's, or a private
        # copy of it where EAL would refuse them.
        self.plugin_dirs = {}
        self.private_dirs = []
        for fam, bdir in (("xen", self.build_dir),
                          (transports.BASELINE,
                           getattr(args, "baseline", None))):
            if fam not in fams:
                continue
            bdir = os.path.abspath(bdir)
            self.plugin_dirs[fam] = (bdir, False)
            if world_writable_parent(os.path.join(bdir,
                                                  transports.NETBACK_SO)):
                copy = subprocess.check_output(
                    [os.path.join(TOP, "devtools", "plugin-dir.sh"), bdir],
                    text=True).strip()
                self.private_dirs.append(copy)
                self.plugin_dirs[fam] = (copy, True)

    def plugin(self, so, family="xen"):
        """The path of our plugin so for family (xen or the baseline)."""
        d, private = self.plugin_dirs.get(family, (self.build_dir, False))
        return os.path.join(d, os.path.basename(so) if private else so)

    def run_once(self, pt, rep):
        """One run of a point with fresh processes; see measure.py for
        what it returns. Its processes are gone when it returns: the next
        run's host probe must find the CPUs free."""
        if self.args.idle_each:
            wait_for_idle(self.args.idle_wait, self.args.idle_sample)
        host = self.probe_host()
        warmup, nwin = self.args.warmup, self.args.windows
        # A generous safety net; we stop testpmd ourselves well before.
        deadline = 2 * READY_TIMEOUT + (warmup + nwin + 5) * 3 + 30
        pair = self.pair(pt, rep, Testpmd, deadline)
        procs, e, n = pair.procs, pair.ends, pair.n
        meas = {"commands": [shlex.join(p.cmd) for p in pair.order],
                "sender": pair.sender, "receiver": pair.receiver,
                "cycles": {"tx": None, "rx": None}, "host": host}
        try:
            self.start_pair(pair)
            meas.update(self._measure(procs["rx"], procs["tx"], warmup,
                                      nwin))
        finally:
            self._stop_run(procs, e, pt, n, meas)
        return meas

    def probe_host(self):
        """The host's mode (host_probe), called while no testpmd runs;
        None with a single CPU."""
        if self.cpus[0] == self.cpus[1]:
            return None
        host = host_probe.probe(self.build_dir, self.cpus)
        if "error" in host:
            log("xen-bench: %s" % host["error"])
        return host

    def pair(self, pt, rep, cls, deadline, interactive=False, wrap=None,
             log_tag=""):
        """The two testpmd (not started) of one run of a point: cls is
        runner.Testpmd, or rounds.Console with interactive. wrap(role,
        argv), if given, returns the argv each end runs instead; log_tag
        goes into their log files' names."""
        self.serial += 1
        n = self.serial
        e = transports.ends(pt.family, n, self.tmpdir,
                            lambda so: self.plugin(so, pt.family),
                            queues=pt.queues, tag="xb%d" % os.getpid())
        tx_end, rx_end = transports.sender_receiver(e, pt.direction)
        procs = {}
        for role, end, cpu, mode in (("tx", tx_end, self.cpus[0], "txonly"),
                                     ("rx", rx_end, self.cpus[1], "rxonly")):
            prefix = "xb%d-%d%s" % (os.getpid(), n, role)
            cmd = testpmd_cmd(self.args.testpmd, end, mode, cpu, prefix,
                              deadline, size=pt.size, burst=pt.burst,
                              queues=pt.queues, desc=self.args.desc,
                              memory_args=self.memory.eal_args(),
                              eal_extra=self.args.eal_args,
                              interactive=interactive)
            if wrap:
                cmd = wrap(role, cmd)
            log_path = None
            if self.args.log_dir:
                log_path = os.path.join(
                    self.args.log_dir, "%s-%s-%d-b%d-q%d-r%d%s-%s.log" %
                    (pt.family, pt.direction, pt.size, pt.burst, pt.queues,
                     rep, log_tag, role))
            p = cls("%s %s (%s)" % (end.label, mode, role), cmd, log_path)
            p.prefix = prefix
            p.end = end
            p.sim_instance = e.sim_instance
            procs[role] = p
        first_end = e.back if e.first == "back" else e.front
        order = sorted(procs.values(), key=lambda p: p.end is not first_end)
        return Pair(pt, n, e, procs, order, tx_end.label, rx_end.label)

    def start_pair(self, pair):
        """Start the end that must exist first, then the other, and wait
        until both forward (interactive: until both prompt)."""
        first, second = pair.order
        e = pair.ends
        self.running += pair.order
        first.start()
        if e.wait_path:
            wait_ready(first, e.wait_path, need_ready=False)
        elif not e.second_early:
            wait_ready(first)
        second.start()
        wait_ready(first)
        wait_ready(second)

    def stop_pair(self, pair, meas=None):
        """Stop a pair (receiver first), remove what it leaves behind; its
        cycles lines into meas if given."""
        self._stop_run(pair.procs, pair.ends, pair.pt, pair.n, meas or {})

    def _stop_run(self, procs, e, pt, n, meas):
        """Stop a run's two testpmd (receiver first), take their cycles
        line, remove what they leave behind."""
        order = [procs["rx"], procs["tx"]]
        stop_in_order(order)
        meas["cycles"] = {"tx": procs["tx"].cycles, "rx": procs["rx"].cycles}
        for p in order:
            if p in self.running:
                self.running.remove(p)
            remove_runtime_dir(p.prefix)
        if e.sim_instance:
            remove_sim_instance(e.sim_instance)
        sock = transports.socket_path(self.tmpdir, pt.family, n)
        if os.path.exists(sock):
            os.unlink(sock)

    def _measure(self, rx, tx, warmup, nwin):
        """Receiver windows after warm-up, each with the share of its CPU
        that each testpmd got, and the sender's windows over the same
        stretch of time; with the block just before each stretch."""
        alive, rx_seen = rx.drain()
        if not alive:
            raise rx.failure("exited")
        rx_base = rx_seen[-1] if rx_seen else None
        _, tx_seen = tx.drain()
        windows = []
        warm = WarmUp(max(rx.ready_at, tx.ready_at), warmup)
        prev_t = None
        if rx_base is not None:
            warm.measured(rx_base)
            prev_t = rx_base["t"]
        t_begin = prev_t if prev_t is not None else time.monotonic()
        last = cpu_snapshot(tx, rx)
        # Quick preset: enough windows to cover measure_seconds suffice
        # (one where testpmd prints every 2 s).
        cap = self.args.measure_seconds
        while len(windows) < nwin and not (
                cap and windows and
                sum(w.get("dt", 1.0) for w in windows) >= cap - 0.1):
            try:
                ev = rx.events.get(timeout=0.5)
            except queue.Empty:
                if not tx.alive():
                    raise tx.failure("exited while measuring")
                continue
            if ev is None:
                raise rx.failure("exited while measuring")
            snap = cpu_snapshot(tx, rx)
            if prev_t is not None:
                ev["dt"] = ev["t"] - prev_t
            share = cpu_share(last, snap)
            if share is not None:
                ev["cpu_share"] = share
            last, prev_t = snap, ev["t"]
            if not warm.measured(ev):
                t_begin = ev["t"]
                rx_base = ev
                continue
            windows.append(ev)
        t_end = windows[-1]["t"]
        tx_seen += tx.drain()[1]
        tx_windows = [ev for ev in tx_seen if t_begin < ev["t"] <= t_end + 0.5]
        before = [ev for ev in tx_seen if ev["t"] <= t_begin]
        return {"windows": windows, "tx_windows": tx_windows,
                "rx_base": rx_base,
                "tx_base": before[-1] if before else None}

    def stop_all(self):
        stop_together(list(self.running))
        for p in self.running:
            remove_runtime_dir(p.prefix)
            # an interrupted run's simulator instance
            if p.sim_instance:
                remove_sim_instance(p.sim_instance)
        self.running = []
        shutil.rmtree(self.tmpdir, ignore_errors=True)
        for d in self.private_dirs:
            shutil.rmtree(d, ignore_errors=True)
