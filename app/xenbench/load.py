# SPDX-License-Identifier: BSD-3-Clause
"""Other load: this machine may be shared, and a polling testpmd loses
packets per second in proportion to the CPU time others take from it."""

import os
import time

from .util import log

# Each testpmd polls its own CPU flat out. A window in which either got
# less than this share of its CPU was disturbed by other load here.
CLEAN_CPU_SHARE = 0.95


def cpu_snapshot(tx, rx):
    """(now, CPU seconds of the sender's testpmd, of the receiver's)."""
    return (time.monotonic(), tx.cpu_seconds(), rx.cpu_seconds())


def cpu_share(before, after):
    """The share of its CPU each testpmd (sender, receiver) got between
    two cpu_snapshot()s, or None where it cannot be told."""
    wall = after[0] - before[0]
    if wall <= 0 or None in before or None in after:
        return None
    return [round((after[1] - before[1]) / wall, 3),
            round((after[2] - before[2]) / wall, 3)]


def _cpu_busy_idle():
    with open("/proc/stat") as f:
        vals = [int(x) for x in f.readline().split()[1:]]
    idle = vals[3] + (vals[4] if len(vals) > 4 else 0)   # idle + iowait
    return sum(vals[:8]) - idle, idle


def busy_cpus(interval=1.0):
    """How many CPUs' worth of time was busy over interval seconds."""
    b0, i0 = _cpu_busy_idle()
    time.sleep(interval)
    b1, i1 = _cpu_busy_idle()
    total = (b1 - b0) + (i1 - i0)
    return (os.cpu_count() or 1) * (b1 - b0) / total if total else 0.0


_IDLE_LIMIT = 0.15


def wait_for_idle(max_wait, sample=1.0):
    """Before starting testpmd, wait up to max_wait seconds for the
    machine to be (nearly) idle, looking at it sample seconds at a time;
    go ahead regardless afterwards, the per-window CPU share check still
    flags what was disturbed."""
    if max_wait <= 0:
        return
    deadline = time.monotonic() + max_wait
    said = False
    while True:
        busy = busy_cpus(sample)
        if busy <= _IDLE_LIMIT:
            return
        if time.monotonic() >= deadline:
            log("xen-bench: machine still busy (%.2f CPUs), going ahead"
                % busy)
            return
        if not said:
            log("xen-bench: other load on this machine (%.2f CPUs busy); "
                "waiting up to %ds for it to go idle" % (busy, max_wait))
            said = True
