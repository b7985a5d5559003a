# SPDX-License-Identifier: BSD-3-Clause
"""The testpmd command line of one end. Every transport gets the same
options for a point; only --vdev (and -d for our out-of-tree plugins)
differ."""

import shutil

from .transports import display_xstats

# A frame longer than this is sent as a chain of segments of at most this
# many bytes (testpmd's default mbuf holds 2048 bytes of data), with the
# multi-segment Tx offload, for every transport alike.
SEG_MAX = 2000
TX_OFFLOAD_MULTI_SEGS = 0x8000


def txpkts(size):
    """--txpkts value (and the extra options) for a frame of size bytes:
    one segment, or a chain for multi-slot sizes such as 9000."""
    if size <= SEG_MAX:
        return str(size), []
    segs = [SEG_MAX] * (size // SEG_MAX)
    if size % SEG_MAX:
        segs.append(size % SEG_MAX)
    return (",".join(str(s) for s in segs),
            ["--tx-offloads=0x%x" % TX_OFFLOAD_MULTI_SEGS])


def testpmd_cmd(testpmd, end, mode, cpu, prefix, deadline_s, *, size,
                burst=32, queues=1, desc=1024, memory_args=(),
                eal_extra=(), xstats=True, stdbuf=None, extra_vdevs=(),
                interactive=False):
    """The argv of one testpmd: end is a transports.End, mode txonly or
    rxonly (or io, with extra_vdevs as the other ports, before ours), cpu
    the CPU both its lcores (main and forwarding) share. xstats: True for
    display_xstats(queues), a list for those names, False for none.
    interactive: testpmd's prompt on stdin (-i), forwarding stopped until
    told to start, instead of forwarding at once with a stats block every
    second."""
    eal = [testpmd,
           "--lcores", "0@%d,1@%d" % (cpu, cpu),
           "--file-prefix", prefix,
           "--no-pci",
           # vhost-user takes at most 8 memory regions: without this,
           # 2 MiB pages that are not physically contiguous make
           # virtio-user fail "Too many memory regions" and carry
           # nothing. One file per memseg list keeps it to a few.
           "--single-file-segments"]
    eal += list(memory_args)
    eal += list(eal_extra)
    if end.plugin:
        eal += ["-d", end.plugin]
    for v in extra_vdevs:
        eal += ["--vdev", v]
    eal += ["--vdev", end.vdev]
    pkts, extra = txpkts(size)
    app = ["--forward-mode=%s" % mode,
           "--txpkts=%s" % pkts] + extra + [
           "--burst=%d" % burst,
           "--rxq=%d" % queues, "--txq=%d" % queues,
           "--rxd=%d" % desc, "--txd=%d" % desc,
           # One forwarding core a side, whatever the queue count.
           "--nb-cores=1",
           "-i" if interactive else "--stats-period=1",
           "--record-core-cycles"]
    if xstats:
        names = display_xstats(queues) if xstats is True else xstats
        app.append("--display-xstats=%s" % ",".join(names))
    wrap = ["timeout", "-s", "INT", str(int(deadline_s))]
    if stdbuf is None:
        stdbuf = shutil.which("stdbuf") is not None
    if stdbuf:
        wrap += ["stdbuf", "-oL"]
    return wrap + eal + ["--"] + app
