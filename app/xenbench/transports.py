# SPDX-License-Identifier: BSD-3-Clause
"""The transports: for each, its two ends (vdev and plugin), which end
starts first, the system plugins it needs and what it cannot do."""

import collections
import os
import re
import time

FAMILIES = ["xen", "vhost", "memif", "null"]
DEFAULT_FAMILIES = ["xen", "vhost", "memif"]
# Our PMDs of a second build (--baseline): not one to name in
# --transports, it runs beside xen wherever xen does.
BASELINE = "base"
DIRECTIONS = ["f2b", "b2f"]
FAMILY_LABEL = {
    "xen": "xen",
    "vhost": "vhost-user",
    "memif": "memif",
    "null": "null",
    BASELINE: "xen base",
}
# What "frontend" and "backend" are for each family (legend and JSON).
FAMILY_ENDS = {
    "xen": ("netfront", "netback zero_copy=1"),
    "vhost": ("virtio-user", "vhost"),
    "memif": ("memif client", "memif server"),
    "null": ("null", "null"),
    BASELINE: ("netfront", "netback zero_copy=1"),
}
# Peer plugins each family needs from the system PMD directory.
SYSTEM_PLUGINS = {
    "vhost": ["librte_net_vhost.so", "librte_net_virtio.so"],
    "memif": ["librte_net_memif.so"],
    "null": ["librte_net_null.so"],
    "xen": [],
    BASELINE: [],
}
# Queue pairs per port each family can do (testpmd --rxq/--txq).
MAX_QUEUES = {"xen": 8, "vhost": 8, "memif": 8, "null": 8, BASELINE: 8}
# Peers our transport is compared with, in the table's ratio columns.
PEERS = ["vhost", "memif", "null", BASELINE]

# The receiving testpmd forwards in software (rxonly): the netback may lend
# it the guest's pages instead of copying them (README, "Zero copy").
NETBACK_ARGS = "zero_copy=1"

NETFRONT_SO = "drivers/net/xen_netfront/librte_net_xen_netfront.so"
NETBACK_SO = "drivers/net/xen_netback/librte_net_xen_netback.so"

# Our PMDs' counters that testpmd prints with every stats block
# (--display-xstats), for each queue. Every transport gets the same list
# (testpmd skips, with a message, the names a port lacks), so that the
# testpmd options stay the same for all. The sender's counters are its
# tx_q<n>_*, the receiver's its rx_q<n>_*; netback = Dom0 side: its rx
# queues carry what the guest sends.
XSTATS_SHOWN = ["notifications_sent", "grant_copy_calls", "grant_copy_ops"]
# Each a hypercall on Xen (a map or unmap of a ring page, a grant-copy call
# of up to 16 segments per hypercall in the kernel, an event notification).
HYPERCALL_XSTATS = ["grant_copy_calls", "grant_maps", "grant_unmaps",
                    "static_grant_maps", "static_grant_unmaps",
                    "notifications_sent", "notifications_failed"]
XSTATS_SHOWN += [x for x in HYPERCALL_XSTATS if x not in XSTATS_SHOWN]


def display_xstats(queues):
    return ["%s_q%d_%s" % (d, q, what) for what in XSTATS_SHOWN
            for d in ("rx", "tx") for q in range(queues)]


DISPLAY_XSTATS = display_xstats(1)
_QUEUE_XSTAT = re.compile(r"^(rx|tx)_q\d+_(\w+)$")


def role_xstat_sum(xstats, role, what):
    """The sum over all queues of counter `what` (notifications_sent,
    grant_copy_calls, ...) at an end in role tx or rx, from a dict of
    counters by name; None if the end has none."""
    d = "tx" if role == "tx" else "rx"
    vals = [v for name, v in xstats.items()
            for m in [_QUEUE_XSTAT.match(name)]
            if m and m.group(1) == d and m.group(2) == what]
    return sum(vals) if vals else None


# One end: a label, its --vdev and our plugin (None: system PMD).
End = collections.namedtuple("End", "label vdev plugin")
# first: "back" or "front", the end started first; wait_path: must exist
# before the second end starts (it is started as soon as it does; without
# one, as soon as the first is forwarding, unless second_early); and
# sim_instance: the simulator to remove afterwards.
Ends = collections.namedtuple(
    "Ends", "front back first wait_path sim_instance second_early")


# Data room of testpmd's default mbufs: longer frames take several segments.
TESTPMD_MBUF_DATA = 2048


def unsupported(family, queues, size):
    """Why a point cannot be run (reported, never silently skipped), or
    None."""
    if queues > MAX_QUEUES[family]:
        return "not supported: at most %d queues" % MAX_QUEUES[family]
    if family == "null" and size > TESTPMD_MBUF_DATA:
        return ("not supported: net_null has no multi-segment Tx, which "
                "testpmd asks for frames over %d bytes" % TESTPMD_MBUF_DATA)
    return None


def socket_path(tmpdir, family, n):
    return os.path.join(tmpdir, "%s%d.sock" % (family, n))


def ends(family, n, tmpdir, plugin, queues=1, tag=None):
    """The two ends of run n of a family. plugin(so) gives the path of
    one of our plugins (the baseline's for BASELINE); tag begins the
    simulator instance's name. The clock ends it: of the pid alone, it
    would be a killed run's whose pid this one has now, and its instance,
    guests and all, may still be in /dev/shm."""
    sock = socket_path(tmpdir, family, n)
    if family in ("xen", BASELINE):
        inst = "%s-%d-%d" % (tag or "xb%d" % os.getpid(), n,
                             time.monotonic_ns())
        common = "domid=1,handle=0,provider=sim,sim=%s,queues=%d" % (
            inst, queues)
        front = End("netfront", "net_xen_netfront0," + common,
                    plugin(NETFRONT_SO))
        back = End("netback",
                   "net_xen_netback0,%s,%s" % (NETBACK_ARGS, common),
                   plugin(NETBACK_SO))
        # A netfront started early waits for its device to appear.
        return Ends(front, back, "back", None, inst, True)
    if family == "vhost":
        front = End("virtio-user",
                    "net_virtio_user0,path=%s,queues=%d" % (sock, queues),
                    None)
        back = End("vhost", "net_vhost0,iface=%s,queues=%d" % (sock, queues),
                   None)
        # virtio-user fails its probe if the socket is not there yet.
        return Ends(front, back, "back", sock, None, False)
    if family == "memif":
        # memif takes its queue count from the port's configuration.
        front = End("memif-client",
                    "net_memif0,role=client,socket=%s" % sock, None)
        back = End("memif-server",
                   "net_memif0,role=server,socket=%s" % sock, None)
        # The client connects to the server's socket, which is abstract
        # (no file to wait for): the server must be forwarding first.
        return Ends(front, back, "back", None, None, False)
    if family == "null":
        return Ends(End("null-a", "net_null0", None),
                    End("null-b", "net_null0", None), "back", None, None,
                    True)
    raise ValueError(family)


def with_baseline(points):
    """[(family, direction)] with BASELINE right after each xen: the
    second build takes its turn beside ours in every round."""
    out = []
    for fam, d in points:
        out.append((fam, d))
        if fam == "xen":
            out.append((BASELINE, d))
    return out


def sender_receiver(e, direction):
    """(sender end, receiver end) for f2b or b2f."""
    return (e.front, e.back) if direction == "f2b" else (e.back, e.front)


def parse_transports(text):
    """"xen,vhost-f2b,..." -> [(family, direction)]; ValueError if bad."""
    points = []
    for tok in text.split(","):
        tok = tok.strip().lower()
        if not tok:
            continue
        if tok.startswith("vhost-user"):
            tok = "vhost" + tok[len("vhost-user"):]
        fam, _, d = tok.partition("-")
        if fam not in FAMILIES or (d and d not in DIRECTIONS):
            raise ValueError(
                "unknown transport %r (families: %s; optionally -f2b or "
                "-b2f, e.g. xen-f2b)" % (tok, ", ".join(FAMILIES)))
        for dd in ([d] if d else DIRECTIONS):
            if (fam, dd) not in points:
                points.append((fam, dd))
    if not points:
        raise ValueError("no transport given")
    return points
