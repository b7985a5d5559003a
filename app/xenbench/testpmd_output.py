# SPDX-License-Identifier: BSD-3-Clause
"""Parsing dpdk-testpmd's (22.11) stdout; no processes here.

With --stats-period=N testpmd prints, every N seconds and for every
port, a block

    ######################## NIC statistics for port 0  ########################
    RX-packets: 370688     RX-missed: 0          RX-bytes:  23724032
    ...
    TX-packets: 0          TX-errors: 0          TX-bytes:  0

    Throughput (since last show)
    Rx-pps:       370432          Rx-bps:    189661344
    Tx-pps:            0          Tx-bps:            0

                                   Value            Rate (since last show)
    rx_q0_notifications_sent         1234             617
    ############################################################################

where the xstats part is there only with --display-xstats. When it stops
(SIGINT), testpmd prints its forward statistics and, with
--record-core-cycles, one line

    CPU cycles/packet=41.27 (total cycles=... / total rxonly packets=...) at 2994 MHz Clock

Counters (RX-packets, xstats values) are cumulative; Rx-pps and Tx-pps are
testpmd's own rates over the last period. Output printed from testpmd's
signal handler can interleave with a stats block, so a block also ends
where testpmd starts stopping; other threads' lines inside a block are
ignored.
"""

import re

RE_NIC_BLOCK = re.compile(r"NIC statistics for port (\d+)")
RE_BLOCK_END = re.compile(r"^\s*#{20,}\s*$")
RE_RX_PKTS = re.compile(r"^\s*RX-packets:\s+(\d+)")
RE_TX_PKTS = re.compile(r"^\s*TX-packets:\s+(\d+)")
RE_RX_BYTES = re.compile(r"RX-bytes:\s+(\d+)")
RE_TX_BYTES = re.compile(r"TX-bytes:\s+(\d+)")
RE_RX_PPS = re.compile(r"Rx-pps:\s+(\d+)")
RE_TX_PPS = re.compile(r"Tx-pps:\s+(\d+)")
RE_XSTATS_HEAD = re.compile(r"^\s*Value\s+Rate \(since last show\)")
RE_XSTAT = re.compile(r"^\s+([A-Za-z][\w.\-\[\]]*?)\s+(\d+)\s+(\d+)\s*$")
RE_CYCLES = re.compile(
    r"CPU cycles/packet=([0-9.]+)"
    r"(?:\s*\((?:total|busy) cycles=(\d+)\s*/\s*total (\w+) packets=(\d+)\))?"
    r"(?:\s*at (\d+) MHz)?")
RE_NO_XSTAT = re.compile(r"No xstat '([^']+)' on port (\d+)")
READY_TEXT = "start packet forwarding"
# After its forward statistics (and cycles line), testpmd stops and closes
# its ports; a peer that disconnects may reset the counters of the other
# end (memif does), so that one is stopped once this one got here.
RE_CLOSING = re.compile(r"^Stopping port|^Stopping ports|^Bye\.\.\.")

# Lines that end a block still open: testpmd stopping (its SIGINT handler
# prints while the main thread may be inside a block). Other foreign lines
# (a link state event from the interrupt thread, say) are ignored.
RE_STOPPING = re.compile(r"Telling cores to stop|Forward statistics|"
                         r"Accumulated forward statistics|"
                         r"Signal \d+ received|Stopping port")


class StatsParser:
    """Fed testpmd's stdout line by line (with the time each line was
    read); returns a stats block (a dict) when one is complete:

      port, rx_packets, tx_packets, rx_bytes, tx_bytes, rx_pps, tx_pps,
      t (time of the Tx-pps line), xstats {name: cumulative value}

    If testpmd left out Rx-pps, it is computed from the RX-packets delta
    over the caller's clock. Also records whether forwarding started
    (ready), the cycles/packet line printed at stop (cycles) and the
    xstats names testpmd said the port lacks (missing_xstats)."""

    def __init__(self):
        self.block = None
        self.in_xstats = False
        self.prev = {}          # port -> last complete block
        self.ready = False
        self.cycles = None
        self.missing_xstats = []
        self.closing = False    # past its forward statistics, closing ports

    def feed(self, line, now=0.0):
        """Returns a complete block or None."""
        line = line.rstrip("\r\n")
        if READY_TEXT in line:
            self.ready = True
        if RE_CLOSING.search(line):
            self.closing = True
        m = RE_CYCLES.search(line)
        if m:
            self.cycles = {
                "cycles_per_packet": float(m.group(1)),
                "cycles": int(m.group(2)) if m.group(2) else None,
                "mode": m.group(3),
                "packets": int(m.group(4)) if m.group(4) else None,
                "mhz": int(m.group(5)) if m.group(5) else None,
            }
        m = RE_NO_XSTAT.search(line)
        if m and m.group(1) not in self.missing_xstats:
            self.missing_xstats.append(m.group(1))
        m = RE_NIC_BLOCK.search(line)
        if m:
            done = self._close()
            self.block = {"port": int(m.group(1)), "xstats": {}}
            self.in_xstats = False
            return done
        if self.block is None:
            return None
        b = self.block
        if RE_BLOCK_END.match(line):
            return self._close()
        if self.in_xstats:
            m = RE_XSTAT.match(line)
            if m:
                b["xstats"][m.group(1)] = int(m.group(2))
                return None
        if RE_XSTATS_HEAD.match(line):
            self.in_xstats = True
            return None
        m = RE_RX_PKTS.search(line)
        if m and "rx_packets" not in b:
            b["rx_packets"] = int(m.group(1))
            m = RE_RX_BYTES.search(line)
            if m:
                b["rx_bytes"] = int(m.group(1))
            return None
        m = RE_TX_PKTS.search(line)
        if m and "tx_packets" not in b:
            b["tx_packets"] = int(m.group(1))
            m = RE_TX_BYTES.search(line)
            if m:
                b["tx_bytes"] = int(m.group(1))
            return None
        m = RE_RX_PPS.search(line)
        if m:
            b["rx_pps"] = int(m.group(1))
        m = RE_TX_PPS.search(line)
        if m:
            b["tx_pps"] = int(m.group(1))
            b["t"] = now
            return None
        if RE_STOPPING.search(line):
            return self._close()
        return None

    def _close(self):
        b, self.block = self.block, None
        self.in_xstats = False
        if b is None or "tx_pps" not in b:
            return None     # incomplete: cut short
        prev = self.prev.get(b["port"])
        if "rx_pps" not in b:
            dt = b["t"] - prev["t"] if prev else 0
            b["rx_pps"] = int((b.get("rx_packets", 0) -
                               prev.get("rx_packets", 0)) / dt) if dt > 0 \
                else 0
        self.prev[b["port"]] = b
        return b

    def finish(self):
        """End of output: a block still open is incomplete."""
        self.block = None


def parse_text(text, period=1.0):
    """Parse a whole recorded output. Lines carry no time, so each block
    gets t = its index x period. Returns (blocks, parser)."""
    p = StatsParser()
    blocks = []
    n = 0
    for line in text.splitlines():
        # The time of a block is that of its Tx-pps line.
        if RE_TX_PPS.search(line):
            n += 1
        b = p.feed(line, n * period)
        if b is not None:
            blocks.append(b)
    p.finish()
    return blocks, p


def parse_file(path, period=1.0):
    with open(path, errors="replace") as f:
        return parse_text(f.read(), period)


PROMPT = "testpmd> "
# testpmd's command line writes its prompt a character at a time, and its
# other threads write whole lines (the event callback's "\nPort 0: link
# state change event\n", a driver's log line): such lines can land inside
# a prompt, as "test" + lines + "pmd> " (seen: "testpmd>" + a netfront's
# line + " "). At most INSIDE_MAX lines are taken for one landing.
INSIDE_MAX = 3
RE_INSIDE = re.compile("|".join(
    r"(?<=\n)%s((?:[^\n]*\n){1,%d}?)%s" %
    (re.escape(PROMPT[:k]), INSIDE_MAX, re.escape(PROMPT[k:]))
    for k in range(1, len(PROMPT))))


def _inside_moved(m):
    """A prompt with lines inside: the lines, then the prompt."""
    return next(g for g in m.groups() if g is not None) + PROMPT


def _may_be_inside(rest):
    """Whether rest, after the start of a prompt, may be lines landing in
    it (the last one still coming, or the prompt's end)."""
    last = rest[rest.rfind("\n") + 1:]
    return rest.count("\n") <= INSIDE_MAX and not last.startswith(PROMPT[0])


class Transcript:
    """testpmd's output at its prompt, fed in chunks as they are read:
    text is what came since the last answer taken, a prompt with lines
    inside given as the lines then the prompt; prompts is how many
    prompts it has shown. The end of the output that may be a prompt's
    start with lines landing in it is held back (a few lines at most)
    until more output says, so that such a prompt counts once, and so
    does one cut across two chunks."""

    def __init__(self):
        self.text = ""
        self.prompts = 0
        self._held = ""         # begins a line
        self._line_start = True  # the text given ends a line

    def _hold_from(self, buf):
        """Where in buf (its first character a sentinel) the part held
        back begins: the earliest of its last lines that begins like a
        prompt and is followed only by lines that may have landed in it."""
        cut, end = len(buf), len(buf)
        for _ in range(INSIDE_MAX + 1):
            nl = buf.rfind("\n", 0, end)
            if nl < 0:
                break
            line = nl + 1
            k = 0
            while (k < len(PROMPT) - 1 and line + k < len(buf) and
                   buf[line + k] == PROMPT[k]):
                k += 1
            if (k > 0 and (line + k == len(buf) or
                           buf[line + k] != PROMPT[k]) and
                    _may_be_inside(buf[line + k:])):
                cut = line
            end = nl
        return cut

    def feed(self, chunk):
        # The sentinel: a newline where the buffer begins a line.
        buf = ("\n" if self._held or self._line_start else "\0") + \
            self._held + chunk
        buf = RE_INSIDE.sub(_inside_moved, buf)
        cut = self._hold_from(buf)
        self._held = buf[cut:]
        out = buf[1:cut]
        if out:
            self._line_start = out.endswith("\n")
        # A prompt counted before has no whole copy in the last
        # len(PROMPT) - 1 characters of the text.
        start = max(0, len(self.text) - (len(PROMPT) - 1))
        self.text += out
        self.prompts += self.text.count(PROMPT, start)

    def take(self, mark):
        """The text from mark to the first prompt after it (or to the end
        when none), and the text after that prompt kept for the next."""
        out = self.text[mark:]
        end = out.find(PROMPT)
        if end < 0:
            end = len(out)
        self.text = out[end + len(PROMPT):]
        return out[:end]
