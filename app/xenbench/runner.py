# SPDX-License-Identifier: BSD-3-Clause
"""One dpdk-testpmd process: started under `timeout -s INT` in a session
of its own, its output parsed by a thread into stats blocks, its CPU time
read from /proc, and stopped with SIGINT (then SIGKILL)."""

import os
import queue
import shlex
import shutil
import signal
import subprocess
import threading
import time

from .testpmd_output import StatsParser
from .util import BenchError, log, vlog

READY_TIMEOUT = 120.0       # --no-huge mempool population is slow
STOP_GRACE = 15.0
_CLK_TCK = os.sysconf("SC_CLK_TCK")


class Testpmd:
    """A dpdk-testpmd under `timeout -s INT`; events gets each complete
    stats block, then None at the end of the output."""

    def __init__(self, name, cmd, log_path=None):
        self.name = name
        self.cmd = cmd
        self.log_path = log_path
        self.proc = None
        self.events = queue.Queue()
        self.ready = threading.Event()
        self.ready_at = None    # monotonic time of the forwarding line
        self.parser = StatsParser()
        self.tail = []
        self._thread = None
        self._testpmd_pid = None
        self.prefix = None
        self.end = None

    def start(self):
        vlog("+ " + shlex.join(self.cmd))
        # A session of its own: a Ctrl-C on our terminal reaches only us,
        # and we stop testpmd in order (and can kill the whole group).
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT,
                                     text=True, errors="replace",
                                     start_new_session=True)
        self._thread = threading.Thread(target=self._reader, daemon=True)
        self._thread.start()

    def _reader(self):
        logf = open(self.log_path, "w") if self.log_path else None
        try:
            for line in self.proc.stdout:
                now = time.monotonic()
                if logf:
                    logf.write(line)
                self.tail.append(line.rstrip("\n"))
                if len(self.tail) > 40:
                    del self.tail[0]
                block = self.parser.feed(line, now)
                if self.parser.ready and not self.ready.is_set():
                    self.ready_at = now
                    self.ready.set()
                if block is not None:
                    self.events.put(block)
        finally:
            self.parser.finish()
            if logf:
                logf.close()
            self.events.put(None)   # end of output

    @property
    def cycles(self):
        """testpmd's cycles/packet line at stop, parsed, or None."""
        return self.parser.cycles

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def testpmd_pid(self):
        """The pid of testpmd itself, or None before it exists.
        timeout(1) forks testpmd (stdbuf, and valgrind, exec into it), so
        it is the only child of the process we started."""
        if self._testpmd_pid is None:
            try:
                with open("/proc/%d/task/%d/children" %
                          (self.proc.pid, self.proc.pid)) as f:
                    kids = f.read().split()
                self._testpmd_pid = int(kids[0]) if kids else None
            except (OSError, ValueError):
                return None
        return self._testpmd_pid

    def cpu_seconds(self):
        """CPU time testpmd itself (all its threads) has used, or None."""
        if self.testpmd_pid() is None:
            return None
        try:
            with open("/proc/%d/stat" % self._testpmd_pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        # utime and stime: fields 14 and 15 of proc(5), counted from the
        # state field (3) that follows the command name.
        return (int(fields[11]) + int(fields[12])) / _CLK_TCK

    def drain(self):
        """Take the blocks seen so far. Returns (alive, blocks); alive is
        False if the output ended."""
        blocks = []
        while True:
            try:
                ev = self.events.get_nowait()
            except queue.Empty:
                return True, blocks
            if ev is None:
                self.events.put(None)
                return False, blocks
            blocks.append(ev)

    def failure(self, what):
        tail = "\n".join("    | " + l for l in self.tail[-15:])
        rc = self.proc.poll() if self.proc else None
        return BenchError("%s: %s (exit status %s); last output:\n%s" %
                          (self.name, what, rc, tail))

    def interrupt(self):
        """SIGINT: timeout(1) passes it on to testpmd, which then stops
        its ports, prints its forward statistics and exits."""
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, signal.SIGINT)
            except ProcessLookupError:
                pass

    def stop(self, deadline=None):
        """Stop (SIGINT, then SIGKILL after STOP_GRACE or at deadline)
        and collect the rest of the output."""
        if self.proc is None:
            return
        pgid = self.proc.pid    # session (and group) leader: timeout(1)
        if self.proc.poll() is None:
            self.interrupt()
            if deadline is None:
                deadline = time.monotonic() + STOP_GRACE
            try:
                self.proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log("xen-bench: %s did not stop on SIGINT; killing" %
                    self.name)
        # Whatever is left of the group we started goes now.
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        if self._thread:
            self._thread.join(5)
        if self.proc.stdout:
            self.proc.stdout.close()


def stop_in_order(procs, first_timeout=3.0):
    """Stop the first of procs (the receiver) and, once it has printed
    its forward statistics and cycles (testpmd acts on SIGINT only when
    its main loop wakes, once a second) or after first_timeout, the
    others; then wait for all (one grace period). The receiver goes first
    because a peer that disconnects may reset its counters (memif does),
    and with them testpmd's packet count at stop."""
    if not procs:
        return
    first, rest = procs[0], procs[1:]
    first.interrupt()
    limit = time.monotonic() + first_timeout
    while first.alive() and not first.parser.closing and \
            time.monotonic() < limit:
        time.sleep(0.02)
    for p in rest:
        p.interrupt()
    deadline = time.monotonic() + STOP_GRACE
    for p in procs:
        p.stop(deadline)


def stop_together(procs):
    """Stop several testpmd at once: SIGINT to all, then wait for each
    (one grace period for all), then kill what is left."""
    for p in procs:
        p.interrupt()
    deadline = time.monotonic() + STOP_GRACE
    for p in procs:
        p.stop(deadline)


def wait_ready(p, wait_path=None, timeout=READY_TIMEOUT, need_ready=True):
    """Until p forwards (unless not need_ready) and wait_path, if given,
    exists."""
    limit = time.monotonic() + timeout
    while need_ready and not p.ready.wait(0.05):
        if not p.alive():
            p.ready.wait(1.0)   # let the reader finish the output
            raise p.failure("exited during start-up")
        if time.monotonic() > limit:
            raise p.failure("not forwarding after %ds" % timeout)
    while wait_path and not os.path.exists(wait_path):
        if not p.alive():
            raise p.failure("exited before creating %s" % wait_path)
        if time.monotonic() > limit:
            raise p.failure("no socket %s after %ds" % (wait_path, timeout))
        time.sleep(0.02)


def remove_runtime_dir(prefix):
    """EAL leaves its runtime directory (config, mp socket) behind."""
    base = "/var/run/dpdk" if os.geteuid() == 0 else os.path.join(
        os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "dpdk")
    shutil.rmtree(os.path.join(base, prefix), ignore_errors=True)
