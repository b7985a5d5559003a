# SPDX-License-Identifier: BSD-3-Clause
"""The batch benchmark's pieces that run no process: the mixed-EtherType
pcap (frames, runs, file format), the points, the devargs and command
lines, and the figures and table from recorded-style stats blocks."""

import os
import struct
import tempfile
import unittest

import benchpath  # noqa: F401
from xenbench import batch, command, measure, mixed_pcap, transports


def ethertype_after_tags(fr):
    off, t = 12, struct.unpack_from("!H", fr, 12)[0]
    for _ in range(2):
        if t not in (0x8100, 0x88A8):
            break
        off += 4
        t = struct.unpack_from("!H", fr, off)[0]
    return t if t >= 0x0600 else None


class TestMixedPcap(unittest.TestCase):
    def test_every_kind_has_its_ethertype_and_size(self):
        for kind, _ in mixed_pcap.KINDS:
            for size in (64, 128, 1514):
                fr = mixed_pcap.frame(kind, size)
                self.assertEqual(len(fr), size, kind)
                self.assertEqual(ethertype_after_tags(fr),
                                 mixed_pcap.ETHERTYPE[kind], kind)

    def test_too_small_frames_are_refused(self):
        with self.assertRaises(ValueError):
            mixed_pcap.frame("ipv4", 60)

    def test_llc_length_field_counts_the_rest(self):
        fr = mixed_pcap.frame("llc-snap", 64)
        self.assertEqual(struct.unpack_from("!H", fr, 12)[0], 50)
        self.assertEqual(fr[14:17], b"\xaa\xaa\x03")

    def test_ip_headers(self):
        v4 = mixed_pcap.frame("vlan-ipv4", 64)
        self.assertEqual(v4[18] >> 4, 4)
        self.assertEqual(struct.unpack_from("!H", v4, 20)[0], 64 - 18)
        v6 = mixed_pcap.frame("ipv6", 128)
        self.assertEqual(v6[14] >> 4, 6)
        self.assertEqual(v6[14 + 6], 17)

    def test_sequence_is_runs_and_repeatable(self):
        a = mixed_pcap.kinds_sequence(3000)
        self.assertEqual(a, mixed_pcap.kinds_sequence(3000))
        self.assertEqual(len(a), 3000)
        self.assertEqual(set(a), {k for k, _ in mixed_pcap.KINDS})
        self.assertNotEqual(a, mixed_pcap.kinds_sequence(3000, seed=6))

    def test_runs_split_at_ethertype_and_around_llc(self):
        kinds = ["ipv4", "vlan-ipv4", "qinq-ipv4", "ipv6", "llc-snap",
                 "llc-snap", "arp", "arp", "ipv4"]
        self.assertEqual(mixed_pcap.runs(kinds), [3, 1, 1, 1, 2, 1])

    def test_pcap_round_trip(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m.pcap")
            kinds = mixed_pcap.make_mixed_pcap(path, 100, 64)
            frames = mixed_pcap.read_pcap(path)
            self.assertEqual(len(frames), 100)
            self.assertEqual(os.path.getsize(path), 24 + 100 * (16 + 64))
            for k, fr in zip(kinds, frames):
                self.assertEqual(fr, mixed_pcap.frame(k, 64))


def rx_block(t, pkts, pps, sent, supp):
    return {"port": 0, "t": t, "rx_packets": pkts, "tx_packets": 0,
            "rx_pps": pps, "tx_pps": 0, "dt": 1.0, "cpu_share": [1.0, 1.0],
            "xstats": {"rx_q0_notifications_sent": sent,
                       "rx_q0_notifications_suppressed": supp}}


class TestBatchReport(unittest.TestCase):
    def run_of(self, batch):
        wins = [rx_block(i, i * 10 ** 6, 10 ** 6, 1, i * 10 ** 6 // batch)
                for i in (1, 2, 3)]
        return {"windows": wins[1:], "rx_base": wins[0], "tx_windows": [],
                "tx_base": None, "commands": [], "sender": "netfront",
                "receiver": "netback", "cycles": {"tx": None, "rx": None}}

    def test_figures_per_packet_and_per_pull(self):
        r = batch.figures(measure.summarize("xen", "f2b", 64,
                                            [self.run_of(8)], 64))
        self.assertAlmostEqual(r["mpps_median"], 1.0)
        self.assertEqual(r["notif_per_pkt"], 0.0)
        self.assertAlmostEqual(r["bells_per_pkt"], 1 / 8)
        self.assertAlmostEqual(r["pkts_per_pull"], 8.0)

    def test_figures_without_counters(self):
        run = self.run_of(8)
        for w in run["windows"] + [run["rx_base"]]:
            w["xstats"] = {}
        r = batch.figures(measure.summarize("xen", "f2b", 64, [run], 64))
        self.assertIsNone(r["bells_per_pkt"])
        self.assertIsNone(r["pkts_per_pull"])

    def test_table(self):
        rs = []
        for b, g in ((1, False), (64, True)):
            r = batch.figures(measure.summarize("xen", "f2b", 64,
                                                [self.run_of(b)], 64))
            r["batch"], r["grouping"] = b, g
            rs.append(r)
        lines = batch.table_lines(rs)
        self.assertTrue(lines[0].startswith("dir"))
        self.assertIn("bells/pkt", lines[0])
        self.assertRegex(lines[2], r"^f2b\s+1\s+off\s+1\.00 .* 1\.0000\s+"
                                   r"1\.0\s+2/2$")
        self.assertRegex(lines[3], r"^f2b\s+64\s+on .* 0\.0156\s+64\.0")

    def test_traffic_note(self):
        note = batch.traffic_note(["ipv4", "ipv4", "llc-snap", "arp"])
        self.assertIn("4 frames", note)
        self.assertIn("ipv4 50%", note)
        self.assertIn("mean EtherType run 1.3", note)


class TestBatchArgsAndCommands(unittest.TestCase):
    def test_defaults_are_the_seed_table(self):
        a = batch.parse_args([])
        self.assertEqual(a.batches, [1, 8, 16, 32, 64])
        self.assertEqual(a.grouping, [False, True])
        self.assertEqual(a.directions, ["f2b"])
        pts = batch.matrix(a.batches, a.grouping, a.directions)
        self.assertEqual(len(pts), 10)
        self.assertEqual(pts[0], batch.BatchPoint(1, False, "f2b"))
        self.assertEqual(pts[-1], batch.BatchPoint(64, True, "f2b"))

    def test_bad_arguments(self):
        for bad in (["--batches", "0"], ["--batches", "65"],
                    ["--batches", "x"], ["--grouping", "maybe"],
                    ["--directions", "up"], ["--size", "63"]):
            with self.assertRaises(SystemExit, msg=bad):
                batch.parse_args(bad)

    def test_devargs_and_vdevs(self):
        self.assertEqual(batch.receiver_devargs(16, True),
                         "batch=16,group_ethertype=1")
        self.assertEqual(batch.receiver_devargs(1, False),
                         "batch=1,group_ethertype=0")
        end = transports.End("netback", "net_xen_netback0,domid=1", None)
        self.assertEqual(batch.with_devargs(end, "batch=8").vdev,
                         "net_xen_netback0,domid=1,batch=8")
        self.assertEqual(batch.pcap_vdev("/x/m.pcap"),
                         "net_pcap0,rx_pcap=/x/m.pcap,infinite_rx=1")

    def test_sender_puts_the_pcap_port_first(self):
        end = transports.End("netfront", "net_xen_netfront0,x=1", "/p.so")
        cmd = command.testpmd_cmd("testpmd", end, "io", 0, "p", 10, size=64,
                                  burst=64, xstats=False, stdbuf=False,
                                  extra_vdevs=["net_pcap0,rx_pcap=f"])
        vdevs = [cmd[i + 1] for i, a in enumerate(cmd) if a == "--vdev"]
        self.assertEqual(vdevs, ["net_pcap0,rx_pcap=f",
                                 "net_xen_netfront0,x=1"])
        self.assertIn("--forward-mode=io", cmd)
        self.assertFalse(any(a.startswith("--display-xstats") for a in cmd))

    def test_receiver_shows_its_notification_counters(self):
        end = transports.End("netback", "net_xen_netback0", "/p.so")
        cmd = command.testpmd_cmd("testpmd", end, "rxonly", 1, "p", 10,
                                  size=64, burst=64, xstats=batch.RX_XSTATS,
                                  stdbuf=False)
        self.assertIn("--display-xstats=rx_q0_notifications_sent,"
                      "rx_q0_notifications_suppressed", cmd)
        self.assertIn("--burst=64", cmd)


if __name__ == "__main__":
    unittest.main()
