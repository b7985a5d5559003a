# SPDX-License-Identifier: BSD-3-Clause
"""Parsing dpdk-testpmd 22.11's output (xenbench.testpmd_output), on
recorded outputs (fixtures/) and on the corner cases seen in them."""

import re
import unittest

import benchpath
from xenbench import measure, testpmd_output as tpo
from xenbench.transports import display_xstats

# The --display-xstats list the fixtures were recorded with (xen-bench's of
# the time: before grant maps, unmaps and failed notifications were shown).
RECORDED_XSTATS = ["%s_q0_%s" % (d, what)
                   for what in ("notifications_sent", "grant_copy_calls",
                                "grant_copy_ops")
                   for d in ("rx", "tx")]


def read(name):
    with open(benchpath.fixture(name), errors="replace") as f:
        return f.read()


def independent_counts(text, key):
    """The values of "<key>: N" inside NIC statistics blocks, found
    without the parser."""
    out = []
    for blk in text.split("NIC statistics for port")[1:]:
        blk = blk.split("Telling cores to stop")[0]
        m = re.search(r"%s:\s+(\d+)" % re.escape(key), blk)
        if m and "Tx-pps" in blk:
            out.append(int(m.group(1)))
    return out


BLOCK = """\
  ######################## NIC statistics for port 0  ########################
  RX-packets: {rx:<10} RX-missed: 0          RX-bytes:  {rxb}
  RX-errors: 0
  RX-nombuf:  0
  TX-packets: 0          TX-errors: 0          TX-bytes:  0

  Throughput (since last show)
  Rx-pps: {pps:>12}          Rx-bps: {bps:>12}
  Tx-pps:            0          Tx-bps:            0
{extra}  ############################################################################
"""


class TestSynthetic(unittest.TestCase):
    """Shapes built from testpmd's printf formats."""

    def feed(self, text, times=None):
        p = tpo.StatsParser()
        blocks = []
        t = 0.0
        for line in text.splitlines(True):
            if "Tx-pps" in line:
                t += 1.0
            b = p.feed(line, t)
            if b:
                blocks.append(b)
        return blocks, p

    def test_block_with_xstats(self):
        xs = ("\n%-31s%-17s%s\n" % (" ", "Value", "Rate (since last show)") +
              "  %-25s%12d %15d\n" % ("rx_q0_notifications_sent", 1234, 617)
              + "  %-25s%12d %15d\n" % ("rx_q0_notifications_suppressed",
                                        99, 1))
        text = BLOCK.format(rx=100, rxb=6400, pps=50, bps=25600, extra=xs)
        blocks, p = self.feed(text)
        self.assertEqual(len(blocks), 1)
        b = blocks[0]
        self.assertEqual((b["rx_packets"], b["rx_bytes"], b["rx_pps"],
                          b["tx_pps"]), (100, 6400, 50, 0))
        self.assertEqual(b["xstats"], {"rx_q0_notifications_sent": 1234,
                                       "rx_q0_notifications_suppressed": 99})

    def test_foreign_line_inside_block_ignored(self):
        text = BLOCK.format(rx=100, rxb=6400, pps=50, bps=0, extra="")
        text = text.replace("  Throughput", "\nPort 0: link state change "
                            "event\n  Throughput")
        blocks, _ = self.feed(text)
        self.assertEqual(len(blocks), 1)
        self.assertEqual(blocks[0]["rx_pps"], 50)

    def test_block_cut_by_stop_is_dropped(self):
        text = BLOCK.format(rx=100, rxb=0, pps=50, bps=0, extra="")
        cut = text.split("  Throughput")[0] + "Telling cores to stop...\n" \
            "  ---------------------- Forward statistics for port 0  ---\n" \
            "  RX-packets: 5              RX-dropped: 0\n" \
            "  Rx-pps:            7          Rx-bps:            0\n" \
            "  Tx-pps:            0          Tx-bps:            0\n"
        blocks, _ = self.feed(text + cut)
        self.assertEqual(len(blocks), 1)
        self.assertEqual(blocks[0]["rx_packets"], 100)

    def test_rate_from_packets_when_rx_pps_missing(self):
        a = BLOCK.format(rx=1000, rxb=0, pps=0, bps=0, extra="")
        b = BLOCK.format(rx=3000, rxb=0, pps=0, bps=0, extra="")
        b = "\n".join(l for l in b.splitlines() if "Rx-pps" not in l) + "\n"
        blocks, _ = self.feed(a + b)
        self.assertEqual([x["rx_pps"] for x in blocks], [0, 2000])

    def test_cycles_line(self):
        p = tpo.StatsParser()
        p.feed("  CPU cycles/packet=41.27 (total cycles=4127000 / total "
               "rxonly packets=100000) at 2994 MHz Clock\n")
        self.assertEqual(p.cycles, {"cycles_per_packet": 41.27,
                                    "cycles": 4127000, "mode": "rxonly",
                                    "packets": 100000, "mhz": 2994})
        p = tpo.StatsParser()
        p.feed("  CPU cycles/packet=12.50 (busy cycles=125 / total txonly "
               "packets=10) at 3000 MHz Clock")
        self.assertEqual(p.cycles["mode"], "txonly")
        p = tpo.StatsParser()
        p.feed("CPU cycles/packet=7.00")
        self.assertEqual(p.cycles["cycles_per_packet"], 7.0)
        self.assertIsNone(p.cycles["packets"])

    def test_missing_xstats_and_ready(self):
        p = tpo.StatsParser()
        p.feed("No xstat 'rx_q0_grant_copy_calls' on port 0 - skip it 2\n")
        self.assertEqual(p.missing_xstats, ["rx_q0_grant_copy_calls"])
        self.assertFalse(p.ready)
        p.feed("No commandline core given, start packet forwarding\n")
        self.assertTrue(p.ready)


class TestRecordedStop(unittest.TestCase):
    """A real netfront txonly run (9000-byte frames in 5 segments) stopped
    with SIGINT: the handler's output interleaves with the stats."""

    def test_parse(self):
        text = read("netfront-txonly-9000-stop.log")
        blocks, p = tpo.parse_text(text)
        self.assertTrue(p.ready)
        self.assertEqual(len(blocks), 1)
        self.assertEqual(blocks[0]["tx_packets"], 0)
        # The Rx-pps lines after "Accumulated forward statistics" make no
        # block, and there is no cycles line without --record-core-cycles.
        self.assertIsNone(p.cycles)


class TestRecorded(unittest.TestCase):
    """Real runs of the quick preset (see fixtures/README.md)."""

    def check_against_text(self, text, blocks):
        # The parser finds every complete block, with the same counters
        # as a plain search of the text.
        self.assertEqual([b["rx_packets"] for b in blocks],
                         independent_counts(text, "RX-packets"))
        self.assertEqual([b["tx_packets"] for b in blocks],
                         independent_counts(text, "TX-packets"))
        self.assertEqual([b["rx_pps"] for b in blocks],
                         independent_counts(text, "Rx-pps"))
        self.assertEqual([b["tx_pps"] for b in blocks],
                         independent_counts(text, "Tx-pps"))

    def test_netback_receiver(self):
        text = read("xen-f2b-64-netback-rxonly.log")
        blocks, p = tpo.parse_text(text)
        self.assertTrue(p.ready)
        self.assertTrue(p.closing)
        self.assertEqual(len(blocks), 4)
        self.check_against_text(text, blocks)
        self.assertEqual(p.missing_xstats, [])
        for b in blocks:
            self.assertEqual(sorted(b["xstats"]), sorted(RECORDED_XSTATS))
        last = blocks[-1]
        self.assertEqual(last["rx_packets"], 63058976)
        self.assertEqual(last["rx_pps"], 13216538)
        self.assertEqual(last["xstats"]["rx_q0_grant_copy_ops"], 63058976)
        self.assertEqual(last["xstats"]["rx_q0_grant_copy_calls"], 1970593)
        self.assertEqual(last["xstats"]["rx_q0_notifications_sent"], 1)
        # Cumulative counters only grow.
        for a, b in zip(blocks, blocks[1:]):
            for k, v in a["xstats"].items():
                self.assertLessEqual(v, b["xstats"][k])
        self.assertEqual(p.cycles, {"cycles_per_packet": 164.5,
                                    "cycles": 11574761866, "mode": "rxonly",
                                    "packets": 70361568, "mhz": 2450})

    def test_netfront_sender(self):
        text = read("xen-f2b-64-netfront-txonly.log")
        blocks, p = tpo.parse_text(text)
        self.check_against_text(text, blocks)
        self.assertEqual(sorted(p.missing_xstats), sorted(
            n for n in RECORDED_XSTATS if "grant_copy" in n))
        self.assertEqual(sorted(blocks[-1]["xstats"]),
                         ["rx_q0_notifications_sent",
                          "tx_q0_notifications_sent"])
        self.assertGreater(blocks[-1]["tx_pps"], 0)
        self.assertEqual(p.cycles["mode"], "txonly")
        self.assertEqual(p.cycles["packets"], 70361568)

    def test_netback_sender(self):
        text = read("xen-b2f-64-netback-txonly.log")
        blocks, p = tpo.parse_text(text)
        self.check_against_text(text, blocks)
        last = blocks[-1]
        self.assertEqual(last["xstats"]["tx_q0_grant_copy_ops"],
                         last["tx_packets"])
        self.assertGreater(last["xstats"]["tx_q0_grant_copy_calls"], 0)
        self.assertEqual(p.cycles["cycles_per_packet"], 382.04)

    def test_shown_xstats_cover_every_hypercall(self):
        shown = display_xstats(2)
        for what in ("grant_copy_calls", "grant_maps", "grant_unmaps",
                     "notifications_sent", "notifications_failed"):
            for name in ("rx_q1_" + what, "tx_q0_" + what):
                self.assertIn(name, shown)
        self.assertEqual(display_xstats(1)[:6], RECORDED_XSTATS)

    def test_peer_without_our_xstats(self):
        text = read("vhost-f2b-64-virtio-user-txonly.log")
        blocks, p = tpo.parse_text(text)
        self.check_against_text(text, blocks)
        self.assertEqual(p.missing_xstats, RECORDED_XSTATS)
        self.assertTrue(all(b["xstats"] == {} for b in blocks))
        self.assertGreater(blocks[-1]["tx_pps"], 0)
        self.assertEqual(p.cycles["mode"], "txonly")

    def test_wrapped_count_at_stop(self):
        text = read("memif-b2f-64-client-rxonly.log")
        blocks, p = tpo.parse_text(text)
        self.check_against_text(text, blocks)
        self.assertEqual(p.cycles["packets"], 18446744073709549152)
        self.assertEqual(p.cycles["cycles_per_packet"], 0.0)


class TestRecordedToFigures(unittest.TestCase):
    """The recorded xen f2b pair through measure.summarize, as the bench
    does it: one warm-up block, the rest measured."""

    def run_from_fixtures(self, rx_name, tx_name, warmup=1):
        rx, prx = tpo.parse_text(read(rx_name), period=2.0)
        tx, ptx = tpo.parse_text(read(tx_name), period=2.0)
        for a, b in zip(rx, rx[1:]):
            b["dt"] = b["t"] - a["t"]
        # Skip the blocks before traffic and the warm-up one.
        first = next(i for i, b in enumerate(rx) if b["rx_pps"] > 0)
        base = first + warmup - 1
        windows = rx[base + 1:]
        t0, t1 = rx[base]["t"], windows[-1]["t"]
        tx_w = [b for b in tx if t0 < b["t"] <= t1 + 0.5]
        tx_before = [b for b in tx if b["t"] <= t0]
        return {"windows": windows, "rx_base": rx[base],
                "tx_windows": tx_w,
                "tx_base": tx_before[-1] if tx_before else None,
                "cycles": {"rx": prx.cycles, "tx": ptx.cycles},
                "commands": [], "sender": "netfront",
                "receiver": "netback"}

    def test_xen_f2b(self):
        run = self.run_from_fixtures("xen-f2b-64-netback-rxonly.log",
                                     "xen-f2b-64-netfront-txonly.log")
        r = measure.summarize("xen", "f2b", 64, [run])
        self.assertEqual(r["windows_total"], len(run["windows"]))
        self.assertGreater(r["mpps_median"], 1.0)
        rx = measure.run_counters(run)["rx"]
        self.assertEqual(rx["packets"],
                         run["windows"][-1]["rx_packets"] -
                         run["rx_base"]["rx_packets"])
        self.assertAlmostEqual(
            r["grant_copy_calls_per_pkt"],
            rx["xstats"]["rx_q0_grant_copy_calls"] / rx["packets"])
        # One grant-copy call per burst of 32, one op per 64-byte frame.
        self.assertAlmostEqual(r["grant_copy_calls_per_pkt"], 1 / 32,
                               places=3)
        self.assertAlmostEqual(r["grant_copy_ops_per_pkt"], 1.0, places=6)
        self.assertIsNotNone(r["notifications_per_pkt"])
        self.assertLess(r["notifications_per_pkt"], 0.01)
        self.assertAlmostEqual(r["cycles_per_pkt_receiver"], 164.50,
                               places=1)
        self.assertAlmostEqual(r["cycles_per_pkt_sender"], 172.22,
                               places=1)


class TestTranscript(unittest.TestCase):
    """Prompts counted as testpmd's output comes in chunks, with lines
    other threads write (events, drivers' logs) landing anywhere in it,
    inside a prompt too."""

    EVENT = "\nPort 0: link state change event\n"
    # Seen in a failed run: a netfront's log line inside the prompt.
    NETFRONT = ("xen_netfront: /local/domain/1/device/vif/0: the backend "
                "takes our hash: Toeplitz over hash types 0x5\n")

    def fed(self, *chunks):
        t = tpo.Transcript()
        for c in chunks:
            t.feed(c)
        return t

    def test_prompt_whole_and_split(self):
        for chunks in (["a\ntestpmd> "], ["a\ntest", "pmd> "],
                       ["a\n"] + list("testpmd> ")):
            t = self.fed(*chunks)
            self.assertEqual(t.prompts, 1, chunks)
            self.assertEqual(t.take(0), "a\n")

    def test_lines_inside_a_prompt(self):
        # The prompt written a character at a time, a line written whole
        # between two of them: the line comes before the prompt.
        cases = [(["done\ntest" + self.EVENT + "pmd> "], self.EVENT),
                 (["done\ntest", self.EVENT, "pmd> "], self.EVENT),
                 (["done\ntest", self.EVENT[:9], self.EVENT[9:],
                   "pmd> "], self.EVENT),
                 (["done\ntes", "t" + self.EVENT[:1],
                   self.EVENT[1:] + "p", "md> "], self.EVENT),
                 (["done\ntestpmd>", self.NETFRONT, " "], self.NETFRONT),
                 (["done\nt", self.NETFRONT, self.EVENT[1:], "estpmd> "],
                  self.NETFRONT + self.EVENT[1:])]
        cases += [(list("done\ntestpmd>") + [self.NETFRONT, " "],
                   self.NETFRONT)]
        for chunks, lines in cases:
            t = self.fed(*chunks)
            self.assertEqual(t.prompts, 1, chunks)
            self.assertEqual(t.take(0), "done\n" + lines, chunks)
            self.assertEqual(t.text, "", chunks)

    def test_lines_between_lines_and_after_prompt(self):
        t = self.fed("a\n" + self.EVENT + "b\ntestpmd> ",
                     "\nPort 1: device removal event\n")
        self.assertEqual(t.prompts, 1)
        self.assertEqual(t.take(0), "a\n" + self.EVENT + "b\n")
        self.assertEqual(t.text, "\nPort 1: device removal event\n")

    def test_lines_that_begin_like_a_prompt(self):
        # Held only while they may still be a prompt with lines inside,
        # and never more than a few lines.
        t = self.fed("x\ntx_q0_packets 5\n")
        self.assertEqual(t.text, "x\n")
        t.feed("tx_q1_packets 6\ntestpmd> ")
        self.assertEqual(t.prompts, 1)
        self.assertEqual(t.take(0), "x\ntx_q0_packets 5\ntx_q1_packets 6\n")
        t = self.fed("x\nt\n1\n2\n3\n")
        self.assertEqual(t.text, "x\nt\n1\n2\n3\n")

    def test_answers_one_after_another(self):
        t = self.fed("testpmd> ")
        self.assertEqual((t.prompts, t.take(len(t.text))), (1, ""))
        mark = len(t.text)
        t.feed("start\none\ntestpmd> ")
        self.assertEqual((t.prompts, t.take(mark)), (2, "start\none\n"))
        mark = len(t.text)
        t.feed("stop\ntwo\ntest")
        self.assertEqual(t.prompts, 2)
        t.feed("pmd> ")
        self.assertEqual((t.prompts, t.take(mark)), (3, "stop\ntwo\n"))


if __name__ == "__main__":
    unittest.main()
