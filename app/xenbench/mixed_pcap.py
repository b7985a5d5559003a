# SPDX-License-Identifier: BSD-3-Clause
"""Mixed-EtherType traffic for the batch benchmark, as a pcap file that
net_pcap replays with infinite_rx=1 (testpmd's txonly and flowgen send
one EtherType only). Pure: frames and files, no processes.

The traffic is runs of frames of one kind, each run 1..MAX_RUN frames
long, the kinds drawn with the weights below from a seeded generator, so
every run of the benchmark replays the same sequence:

  ipv4        Ethernet + IPv4/UDP
  ipv6        Ethernet + IPv6/UDP
  vlan-ipv4   802.1Q tag + IPv4/UDP      (EtherType 0x0800 after the tag)
  qinq-ipv4   802.1ad + 802.1Q + IPv4/UDP
  arp         ARP request
  llc-snap    802.3 length + LLC/SNAP    (no EtherType: never grouped)
"""

import random
import struct

KINDS = [("ipv4", 45), ("ipv6", 25), ("vlan-ipv4", 10), ("qinq-ipv4", 5),
         ("arp", 5), ("llc-snap", 10)]
# EtherType each kind is grouped by (after its tags); None: none.
ETHERTYPE = {"ipv4": 0x0800, "ipv6": 0x86DD, "vlan-ipv4": 0x0800,
             "qinq-ipv4": 0x0800, "arp": 0x0806, "llc-snap": None}
MAX_RUN = 16
DEFAULT_FRAMES = 4096
SEED = 5

_DST = b"\xff" * 6
_SRC = b"\x02\x00\x00\x00\x00\x01"


def _ipv4_udp(length):
    """An IPv4/UDP header pair filling length bytes of L3 (checksum
    left 0: nothing on the path checks it)."""
    udp = struct.pack("!HHHH", 1024, 1024, length - 20, 0)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, length, 0, 0, 64, 17, 0,
                     bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    return ip + udp


def _ipv6_udp(length):
    udp = struct.pack("!HHHH", 1024, 1024, length - 40, 0)
    ip = struct.pack("!IHBB16s16s", 6 << 28, length - 40, 17, 64,
                     b"\xfd" + b"\x00" * 14 + b"\x01",
                     b"\xfd" + b"\x00" * 14 + b"\x02")
    return ip + udp


MIN_SIZE = 64      # QinQ + IPv4/UDP and IPv6/UDP fit


def frame(kind, size):
    """One frame of `kind`, exactly `size` bytes (no FCS), size at least
    MIN_SIZE."""
    if size < MIN_SIZE:
        raise ValueError("frames of %d bytes: at least %d" % (size,
                                                              MIN_SIZE))
    if kind in ("ipv4", "ipv6", "arp"):
        l2 = _DST + _SRC
    elif kind == "vlan-ipv4":
        l2 = _DST + _SRC + struct.pack("!HH", 0x8100, 100)
    elif kind == "qinq-ipv4":
        l2 = _DST + _SRC + struct.pack("!HHHH", 0x88A8, 200, 0x8100, 100)
    elif kind == "llc-snap":
        # The 802.3 length counts what follows it.
        l2 = _DST + _SRC + struct.pack("!H", size - 14)
        body = b"\xaa\xaa\x03\x00\x00\x00\x88\xb5"
        return (l2 + body).ljust(size, b"\x00")
    else:
        raise ValueError(kind)
    room = size - len(l2) - 2
    if kind == "arp":
        body = struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, 1, _SRC,
                           bytes([10, 0, 0, 1]), b"\x00" * 6,
                           bytes([10, 0, 0, 2]))
        out = l2 + struct.pack("!H", 0x0806) + body
    elif kind == "ipv6":
        out = l2 + struct.pack("!H", 0x86DD) + _ipv6_udp(room)
    else:
        out = l2 + struct.pack("!H", 0x0800) + _ipv4_udp(room)
    return out.ljust(size, b"\x00")


def kinds_sequence(n, seed=SEED):
    """The kinds of n frames: runs of 1..MAX_RUN of one kind."""
    rng = random.Random(seed)
    names = [k for k, _ in KINDS]
    weights = [w for _, w in KINDS]
    out = []
    while len(out) < n:
        kind = rng.choices(names, weights)[0]
        out += [kind] * rng.randint(1, MAX_RUN)
    return out[:n]


def runs(kinds):
    """Lengths of the runs a grouping receiver can make of `kinds`
    (consecutive frames of one EtherType; a frame without one alone),
    ignoring the batch bound."""
    out = []
    prev = object()
    for k in kinds:
        t = ETHERTYPE[k]
        if t is not None and t == prev:
            out[-1] += 1
        else:
            out.append(1)
        prev = t if t is not None else object()
    return out


def write_pcap(path, frames):
    """A classic pcap file (microsecond timestamps, Ethernet)."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            f.write(struct.pack("<IIII", i // 1000000, i % 1000000,
                                len(fr), len(fr)))
            f.write(fr)


def read_pcap(path):
    """The frames of a pcap file written by write_pcap (for the tests)."""
    with open(path, "rb") as f:
        data = f.read()
    magic, = struct.unpack_from("<I", data, 0)
    if magic != 0xA1B2C3D4:
        raise ValueError("not a little-endian microsecond pcap file")
    off, frames = 24, []
    while off < len(data):
        _, _, caplen, _ = struct.unpack_from("<IIII", data, off)
        off += 16
        frames.append(data[off:off + caplen])
        off += caplen
    return frames


def make_mixed_pcap(path, n=DEFAULT_FRAMES, size=64, seed=SEED):
    """Write the mixed traffic; returns its kinds (for the report)."""
    kinds = kinds_sequence(n, seed)
    write_pcap(path, [frame(k, size) for k in kinds])
    return kinds
