# SPDX-License-Identifier: BSD-3-Clause
"""From stats windows to a point's figures (measure), and the table and
JSON document (report); the matrix and the command lines (cli, command)."""

import io
import json
import os
import tempfile
import unittest

import benchpath  # noqa: F401
from xenbench import (cli, command, host_probe, measure, report, rounds,
                      transports)


def block(t, rx_pkts=0, tx_pkts=0, rx_pps=0, tx_pps=0, xstats=None,
          share=None):
    b = {"port": 0, "t": t, "rx_packets": rx_pkts, "tx_packets": tx_pkts,
         "rx_pps": rx_pps, "tx_pps": tx_pps, "xstats": dict(xstats or {}),
         "dt": 1.0}
    if share is not None:
        b["cpu_share"] = share
    return b


def xen_f2b_run(mpps=(10.0, 11.0, 12.0), share=None, base_pkts=1000000):
    """A netfront txonly -> netback rxonly run: the netback (receiver)
    sends one notification per 64 packets and makes one grant-copy call
    of 1 op per packet per 32 packets; the netfront kicks once per 128."""
    rx_w, tx_w = [], []
    rx_pkts = tx_pkts = base_pkts
    rx_base = block(0, rx_pkts, 0, xstats={
        "rx_q0_notifications_sent": rx_pkts // 64,
        "rx_q0_grant_copy_calls": rx_pkts // 32,
        "rx_q0_grant_copy_ops": rx_pkts,
        "tx_q0_notifications_sent": 0})
    tx_base = block(0, 0, tx_pkts, xstats={
        "tx_q0_notifications_sent": tx_pkts // 128,
        "rx_q0_notifications_sent": 3})
    for i, m in enumerate(mpps, 1):
        n = int(m * 1e6)
        rx_pkts += n
        tx_pkts += n
        rx_w.append(block(i, rx_pkts, 0, rx_pps=n, xstats={
            "rx_q0_notifications_sent": rx_pkts // 64,
            "rx_q0_grant_copy_calls": rx_pkts // 32,
            "rx_q0_grant_copy_ops": rx_pkts,
            "tx_q0_notifications_sent": 0},
            share=share[i - 1] if share else [1.0, 1.0]))
        tx_w.append(block(i, 0, tx_pkts, tx_pps=n, xstats={
            "tx_q0_notifications_sent": tx_pkts // 128,
            "rx_q0_notifications_sent": 3}))
    cyc = lambda mode, c, p: {"cycles_per_packet": c / p, "cycles": c,
                              "mode": mode, "packets": p, "mhz": 2994}
    return {"windows": rx_w, "tx_windows": tx_w, "rx_base": rx_base,
            "tx_base": tx_base, "commands": ["a", "b"],
            "sender": "netfront", "receiver": "netback",
            "cycles": {"tx": cyc("txonly", 40 * 10 ** 6, 10 ** 6),
                       "rx": cyc("rxonly", 60 * 10 ** 6, 10 ** 6)}}


def peer_run(mpps, sender="virtio-user", receiver="vhost"):
    rx_w = [block(i, 0, 0, rx_pps=int(m * 1e6), share=[1.0, 1.0])
            for i, m in enumerate(mpps, 1)]
    return {"windows": rx_w, "tx_windows": [], "rx_base": None,
            "tx_base": None, "commands": [], "sender": sender,
            "receiver": receiver, "cycles": {"tx": None, "rx": None}}


class TestQueueCounters(unittest.TestCase):
    def test_sum_over_the_queues_of_one_end(self):
        xs = {"rx_q0_grant_copy_calls": 3, "rx_q1_grant_copy_calls": 4,
              "tx_q0_grant_copy_calls": 100, "rx_q0_grant_copy_ops": 9}
        self.assertEqual(
            transports.role_xstat_sum(xs, "rx", "grant_copy_calls"), 7)
        self.assertEqual(
            transports.role_xstat_sum(xs, "tx", "grant_copy_calls"), 100)
        self.assertIsNone(
            transports.role_xstat_sum(xs, "tx", "grant_copy_ops"))


class TestWarmUp(unittest.TestCase):
    """Which receiver blocks close a measured window (times in seconds)."""

    def picks(self, t_forwarding, warmup, times):
        w = measure.WarmUp(t_forwarding, warmup)
        return [t for t in times if w.measured({"t": t})]

    def test_receiver_started_last(self):
        # The sender forwards first: the receiver's first block opens a
        # clean window, so nothing more is lost without warm-up.
        self.assertEqual(self.picks(0.93, 0, [0.96, 2.96, 4.96]),
                         [2.96, 4.96])

    def test_sender_started_last(self):
        # The window open when the sender came up (at 2.3) is not clean.
        self.assertEqual(self.picks(2.3, 0, [0.5, 2.5, 4.5, 6.5]),
                         [4.5, 6.5])

    def test_warm_up_counts_clean_windows_only(self):
        self.assertEqual(self.picks(2.3, 2, [0.5, 2.5, 4.5, 6.5, 8.5, 9.5]),
                         [8.5, 9.5])

    def test_first_block_only_opens_a_window(self):
        self.assertEqual(self.picks(0.0, 0, [5.0]), [])


class TestMeasure(unittest.TestCase):
    def test_rates_and_spread(self):
        r = measure.summarize("xen", "f2b", 64, [xen_f2b_run()])
        self.assertAlmostEqual(r["mpps_median"], 11.0)
        self.assertAlmostEqual(r["mpps_min"], 10.0)
        self.assertAlmostEqual(r["mpps_max"], 12.0)
        self.assertAlmostEqual(r["gbps"], 11.0e6 * 64 * 8 / 1e9)
        self.assertEqual((r["windows_used"], r["windows_total"]), (3, 3))
        self.assertFalse(r["disturbed"])
        self.assertEqual(r["burst"], 32)
        self.assertEqual(r["queues"], 1)

    def test_host_mode_of_the_runs(self):
        runs = [xen_f2b_run(), xen_f2b_run(), xen_f2b_run()]
        runs[0]["host"] = {"bounce_ns": 120.0, "copy_gbs": 9.0}
        runs[1]["host"] = {"error": "xen-host-probe exited 1: x"}
        runs[2]["host"] = {"bounce_ns": 700.0, "copy_gbs": 8.0}
        r = measure.summarize("xen", "f2b", 64, runs)
        self.assertEqual(r["host"], [runs[i]["host"] for i in range(3)])
        self.assertAlmostEqual(r["host_bounce_ns"], 410.0)
        r = measure.summarize("xen", "f2b", 64, [xen_f2b_run()])
        self.assertEqual(r["host"], [None])
        self.assertIsNone(r["host_bounce_ns"])

    def test_per_packet_counters_over_measured_windows(self):
        r = measure.summarize("xen", "f2b", 64, [xen_f2b_run()])
        # Receiver (netback): 1/64 notifications, 1/32 copy calls, 1 op.
        self.assertAlmostEqual(r["notifications_per_pkt_receiver"],
                               1 / 64, places=4)
        self.assertAlmostEqual(r["notifications_per_pkt_sender"],
                               1 / 128, places=4)
        self.assertAlmostEqual(r["notifications_per_pkt"],
                               1 / 64 + 1 / 128, places=4)
        self.assertAlmostEqual(r["grant_copy_calls_per_pkt"], 1 / 32,
                               places=4)
        self.assertAlmostEqual(r["grant_copy_ops_per_pkt"], 1.0, places=6)
        # Copy calls and notifications sent, at both ends.
        self.assertAlmostEqual(r["hypercalls_per_pkt"],
                               1 / 32 + 1 / 64 + 1 / 128, places=4)
        self.assertEqual(r["counters"]["rx"]["packets"], 33000000)

    def test_counters_pooled_over_runs(self):
        r = measure.summarize("xen", "f2b", 64,
                              [xen_f2b_run(), xen_f2b_run((5.0, 5.0))])
        self.assertEqual(r["counters"]["rx"]["packets"], 43000000)
        self.assertEqual(r["windows_total"], 5)
        self.assertEqual(r["run_medians_mpps"], [11.0, 5.0])
        self.assertAlmostEqual(r["grant_copy_ops_per_pkt"], 1.0, places=6)

    def test_without_base_block_the_first_window_is_the_base(self):
        run = xen_f2b_run()
        run["rx_base"] = None
        d = measure.run_counters(run)["rx"]
        self.assertEqual(d["packets"], 23000000)

    def test_cycles_pooled(self):
        r = measure.summarize("xen", "f2b", 64,
                              [xen_f2b_run(), xen_f2b_run()])
        self.assertAlmostEqual(r["cycles_per_pkt_sender"], 40.0)
        self.assertAlmostEqual(r["cycles_per_pkt_receiver"], 60.0)
        run = xen_f2b_run()
        run["cycles"]["rx"] = None      # killed: printed nothing
        r = measure.summarize("xen", "f2b", 64, [run])
        self.assertIsNone(r["cycles_per_pkt_receiver"])

    def test_cycles_when_testpmd_count_wrapped(self):
        # memif: the peer's disconnect reset the counters testpmd's count
        # at stop is taken from; the last stats block has the packets.
        run = peer_run([9.0, 9.0], "memif-server", "memif-client")
        run["windows"][-1]["rx_packets"] = 2 * 10 ** 7
        run["cycles"]["rx"] = {"cycles_per_packet": 0.0,
                               "cycles": 5 * 10 ** 9, "mode": "rxonly",
                               "packets": 18446744073709549152,
                               "mhz": 2450}
        r = measure.summarize("memif", "b2f", 64, [run])
        self.assertAlmostEqual(r["cycles_per_pkt_receiver"], 250.0)
        run["cycles"]["rx"]["packets"] = 0
        r = measure.summarize("memif", "b2f", 64, [run])
        self.assertAlmostEqual(r["cycles_per_pkt_receiver"], 250.0)

    def test_peers_have_no_xen_counters(self):
        r = measure.summarize("vhost", "f2b", 64, [peer_run([15.0, 16.0])])
        self.assertIsNone(r["notifications_per_pkt"])
        self.assertIsNone(r["grant_copy_calls_per_pkt"])
        self.assertIsNone(r["hypercalls_per_pkt"])
        self.assertIsNone(r["tx_mpps_median"])

    def test_disturbed_windows_left_out(self):
        share = [[1.0, 1.0], [0.5, 1.0], [1.0, 0.99]]
        r = measure.summarize("xen", "f2b", 64,
                              [xen_f2b_run((10.0, 2.0, 12.0), share)])
        self.assertEqual(r["windows_used"], 2)
        self.assertAlmostEqual(r["mpps_median"], 11.0)
        self.assertFalse(r["disturbed"])
        # More than half disturbed: all used, flagged.
        share = [[0.5, 1.0], [0.5, 1.0], [1.0, 1.0]]
        r = measure.summarize("xen", "f2b", 64,
                              [xen_f2b_run((10.0, 2.0, 12.0), share)])
        self.assertTrue(r["disturbed"])
        self.assertEqual(r["windows_used"], 3)


class FakeMemory:
    hugepages = True
    note = "hugepages: existing mount /dev/hugepages"


def probed(run, ns):
    run["host"] = {"bounce_ns": ns, "copy_gbs": 9.5}
    return run


def sample_results():
    res = [measure.summarize("xen", "f2b", 64,
                             [probed(xen_f2b_run(), 123.4)]),
           measure.summarize("vhost", "f2b", 64, [peer_run([22.0])]),
           measure.summarize("memif", "f2b", 64,
                             [peer_run([11.0], "memif-client",
                                       "memif-server")]),
           measure.summarize("null", "f2b", 64,
                             [peer_run([44.0], "null-a", "null-b")])]
    report.add_ratios(res)
    return res


class TestReport(unittest.TestCase):
    def test_ratios(self):
        xen, vhost, memif, null = sample_results()
        self.assertAlmostEqual(xen["ratio_vhost"], 0.5)
        self.assertAlmostEqual(xen["ratio_memif"], 1.0)
        self.assertAlmostEqual(xen["ratio_null"], 0.25)
        self.assertAlmostEqual(vhost["ratio_null"], 0.5)
        self.assertNotIn("ratio_memif", vhost)
        self.assertNotIn("ratio_null", null)

    def test_ratios_match_burst_and_queues(self):
        a = measure.summarize("xen", "f2b", 64, [xen_f2b_run()], burst=64)
        b = measure.summarize("vhost", "f2b", 64, [peer_run([22.0])])
        report.add_ratios([a, b])
        self.assertIsNone(a["ratio_vhost"])

    def test_table(self):
        unsupported = [{"transport": "null", "direction": "f2b",
                        "size": 9000, "burst": 32, "queues": 1,
                        "reason": transports.unsupported("null", 1, 9000)}]
        failures = [{"transport": "memif", "direction": "b2f", "size": 64,
                     "burst": 32, "queues": 1,
                     "error": "memif-server txonly (tx): exited\n  | x"}]
        out = io.StringIO()
        report.print_table(sample_results(), failures, FakeMemory(),
                           unsupported, mode="quick", out=out)
        text = out.getvalue()
        lines = text.splitlines()
        head = lines[0].split()
        for col in ("transport", "size", "burst", "q", "Gbit/s", "vs",
                    "null", "cyc", "notif/pkt", "copy/pkt", "hcall/pkt",
                    "host", "ns", "windows"):
            self.assertIn(col, head)
        xen = [l for l in lines if l.startswith("xen ") and "11.00" in l][0]
        self.assertIn("0.50x", xen)       # vs vhost
        self.assertIn("0.25x", xen)       # vs null
        self.assertIn(" 40 ", xen)        # cycles/packet, sender
        self.assertIn(" 60 ", xen)
        self.assertIn("0.023", xen)       # 1/64 + 1/128 notifications
        self.assertIn("0.031", xen)       # 1/32 copy calls
        self.assertIn("round trip", text)  # the legend of host ns
        na = [l for l in lines if l.startswith("null ") and "n/a" in l]
        self.assertEqual(len(na), 1)
        self.assertIn("multi-segment", text)
        self.assertIn("FAILED", text)
        self.assertIn("indicative", text)
        self.assertNotIn("NOT comparable", text)
        # Columns line up: every row as wide as the rule under the head.
        rule = lines[1]
        for l in lines[2:2 + 6]:
            self.assertLessEqual(len(l), len(rule))

    def test_host_mode_column(self):
        head, rows = report.table_rows(sample_results())
        col = head.index("host ns")
        self.assertEqual([r[col] for r in rows], ["123", "-", "-", "-"])

    def test_no_null_column_without_null(self):
        head, rows = report.table_rows(sample_results()[:3])
        self.assertNotIn("vs null", head)
        self.assertTrue(all(len(r) == len(head) for r in rows))

    def test_no_hugepages_flagged(self):
        mem = FakeMemory()
        mem.hugepages = False
        mem.note = "NO HUGEPAGES (x)"
        out = io.StringIO()
        report.print_table(sample_results(), [], mem, out=out, mode="full")
        self.assertIn("NOT comparable", out.getvalue())
        self.assertNotIn("indicative", out.getvalue())

    def test_json_document(self):
        args = cli.parse_args(["--quick", "--json", "/tmp/x.json"])
        doc = report.build_doc(args, FakeMemory(), sample_results(), [],
                               [], False, "/tmp/x.svg")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            report.write_json(path, doc)
            with open(path) as f:
                back = json.load(f)
        self.assertTrue(back["indicative_only"])
        self.assertEqual(back["plot"], "/tmp/x.svg")
        self.assertEqual(len(back["results"]), 4)
        self.assertEqual(back["results"][0]["transport"], "xen")
        self.assertIn("grant_copy_calls_per_pkt", back["results"][0])
        self.assertEqual(back["method"], "interleaved")
        self.assertEqual(back["rounds"], args.rounds)
        self.assertIs(back["fresh_pairs"], False)


class TestArgsAndMatrix(unittest.TestCase):
    def test_quick_preset(self):
        a = cli.parse_args([])
        self.assertEqual(a.mode, "quick")
        self.assertEqual(a.sizes, [64, 1518])
        self.assertEqual(a.queues, [1])
        self.assertEqual({f for f, _ in a.transports},
                         {"xen", "vhost", "memif"})
        self.assertEqual(a.plot, "xen-bench.svg")
        self.assertLessEqual(a.warmup + a.windows, 4)
        self.assertFalse(a.fresh_pairs)

    def test_full_preset(self):
        a = cli.parse_args(["--full", "--json", "out/r.json"])
        self.assertIn(9000, a.sizes)
        self.assertEqual(a.queues, [1, 2])
        self.assertIn(("null", "f2b"), a.transports)
        self.assertEqual(a.plot, "out/r.svg")
        self.assertEqual(a.repeat, 3)
        self.assertTrue(a.fresh_pairs)
        self.assertFalse(cli.parse_args(["--full", "--no-fresh-pairs"])
                         .fresh_pairs)

    def test_overrides(self):
        a = cli.parse_args(["--full", "--sizes", "64", "--bursts", "16,64",
                            "--queues", "1", "--transports", "xen-f2b",
                            "--plot", "p.svg"])
        self.assertEqual((a.sizes, a.bursts, a.queues), ([64], [16, 64], [1]))
        self.assertEqual(a.transports, [("xen", "f2b")])
        self.assertEqual(a.plot, "p.svg")
        self.assertIsNone(cli.parse_args(["--no-plot"]).plot)

    def test_bad_arguments(self):
        import contextlib
        for bad in (["--bursts", "0"], ["--queues", "9"],
                    ["--sizes", "10000"], ["--transports", "foo"]):
            with contextlib.redirect_stderr(io.StringIO()):
                with self.assertRaises(SystemExit):
                    cli.parse_args(bad)

    def test_matrix_runs_xen_with_two_queues(self):
        a = cli.parse_args(["--transports", "xen,vhost", "--queues", "1,2",
                            "--sizes", "64"])
        points, unsupported = cli.matrix(a)
        self.assertEqual(len(points), 8)      # xen, vhost: q1,q2 x2
        self.assertEqual(unsupported, [])
        e = transports.ends("xen", 1, "/tmp", lambda so: so, queues=2)
        self.assertIn(",queues=2", e.front.vdev)
        self.assertIn(",queues=2", e.back.vdev)

    def test_matrix_reports_null_multisegment_as_unsupported(self):
        a = cli.parse_args(["--transports", "null,xen", "--sizes", "64,9000"])
        points, unsupported = cli.matrix(a)
        self.assertEqual(len(points), 6)      # null 64 x2, xen 64,9000 x2
        self.assertEqual({(u["transport"], u["size"]) for u in unsupported},
                         {("null", 9000)})
        self.assertIn("multi-segment", unsupported[0]["reason"])


class TestCommand(unittest.TestCase):
    def test_txpkts(self):
        self.assertEqual(command.txpkts(64), ("64", []))
        self.assertEqual(command.txpkts(1518), ("1518", []))
        self.assertEqual(command.txpkts(9000),
                         ("2000,2000,2000,2000,1000",
                          ["--tx-offloads=0x8000"]))
        self.assertEqual(command.txpkts(4000)[0], "2000,2000")

    def app_part(self, cmd):
        return cmd[cmd.index("--") + 1:]

    def test_same_options_for_every_transport(self):
        plug = lambda so: "/p/" + os.path.basename(so)
        cmds = {}
        for fam in transports.FAMILIES:
            e = transports.ends(fam, 1, "/tmp/t", plug, queues=2)
            cmds[fam] = command.testpmd_cmd(
                "/usr/bin/dpdk-testpmd", e.back, "rxonly", 1, "p", 60,
                size=9000, burst=64, queues=2, memory_args=["--no-huge"],
                stdbuf=False)
        apps = {f: self.app_part(c) for f, c in cmds.items()}
        self.assertEqual(len({tuple(a) for a in apps.values()}), 1)
        app = apps["xen"]
        for opt in ("--burst=64", "--rxq=2", "--txq=2", "--nb-cores=1",
                    "--stats-period=1", "--record-core-cycles",
                    "--tx-offloads=0x8000"):
            self.assertIn(opt, app)
        xs = [a for a in app if a.startswith("--display-xstats=")][0]
        self.assertIn("rx_q0_grant_copy_calls", xs)
        self.assertIn("rx_q1_grant_copy_calls", xs)
        self.assertIn("-d", cmds["xen"])
        self.assertNotIn("-d", cmds["vhost"])
        self.assertEqual(cmds["xen"][:4], ["timeout", "-s", "INT", "60"])


class TestHostProbe(unittest.TestCase):
    def test_figures(self):
        self.assertEqual(host_probe.parse(
            '{"cpus": [0, 1], "bounce_ns": 121.2, "copy_gbs": 5.45, '
            '"trials": 5, "trips": 20000}\n'),
            {"bounce_ns": 121.2, "copy_gbs": 5.45})

    def test_not_figures(self):
        for text in ("", "host: 12 ns\n", '{"bounce_ns": 1}\n',
                     '{"bounce_ns": "x", "copy_gbs": 1}\n'):
            r = host_probe.parse(text)
            self.assertEqual(list(r), ["error"], text)

    def test_probe_missing(self):
        r = host_probe.probe("/nonexistent", (0, 1))
        self.assertIn("error", r)


def probe(host_ns):
    """A host probe's figures (None: the probe failed)."""
    return ({"bounce_ns": host_ns, "copy_gbs": 9.0}
            if host_ns is not None else {"error": "no probe"})


def round_run(mpps, rnd, host_ns=None, after_ns=()):
    """An interleaved round's run: one window of mpps, after a host probe
    of host_ns and before one of after_ns (None: the probe failed; no
    after_ns: not probed after, as before this was done)."""
    run = xen_f2b_run(mpps=(mpps,))
    run["round"] = rnd
    run["host"] = probe(host_ns)
    if after_ns != ():
        run["host_after"] = probe(after_ns)
    return run


def cycle_runs(pairs, sender, receiver, mpps=None):
    """Interleaved runs over rounds 1.., each round's window with the
    (receiver, sender) cycles per packet of pairs (None: testpmd printed
    no count in that round) and the Mpps of mpps (default 10 each)."""
    out = []
    for i, cyc in enumerate(pairs, 1):
        run = round_run(mpps[i - 1] if mpps else 10.0, i)
        run["sender"], run["receiver"] = sender, receiver
        for role, c in zip(("rx", "tx"), cyc or (None, None)):
            run["cycles"][role] = None if c is None else {
                "cycles_per_packet": c, "cycles": c * 10 ** 6,
                "mode": "io", "packets": 10 ** 6, "mhz": 2100}
        out.append(run)
    return out


class TestInterleaved(unittest.TestCase):
    def test_mpps_by_round(self):
        r = measure.summarize("xen", "f2b", 64,
                              [round_run(10.0, 1), round_run(12.0, 2)])
        self.assertEqual(r["round_mpps"], {1: 10.0, 2: 12.0})
        self.assertAlmostEqual(r["mpps_median"], 11.0)
        self.assertEqual(measure.summarize(
            "xen", "f2b", 64, [xen_f2b_run()])["round_mpps"], {})

    def results(self, xen, vhost, hosts=(), hosts_after=()):
        host = dict(enumerate(hosts, 1))
        after = dict(enumerate(hosts_after, 1))
        res = [measure.summarize("xen", "f2b", 64, [
                   round_run(m, i, host.get(i), after.get(i, ()))
                   for i, m in enumerate(xen, 1)]),
               measure.summarize("vhost", "f2b", 64, [
                   round_run(m, i, host.get(i), after.get(i, ()))
                   for i, m in enumerate(vhost, 1)])]
        report.add_ratios(res)
        return res

    def test_ratios_split_by_the_hosts_mode(self):
        # Rounds 2 and 4 ran in the fast mode, where xen is at 0.5x; round
        # 5's probe failed: it counts in the ratio, in no mode.
        xen, vhost = self.results([10.0, 5.0, 10.0, 5.0, 10.0],
                                  [10.0, 10.0, 10.0, 10.0, 10.0],
                                  [450.0, 110.0, 460.0, 120.0, None])
        self.assertEqual(xen["round_host_ns"],
                         {1: 450.0, 2: 110.0, 3: 460.0, 4: 120.0})
        self.assertAlmostEqual(xen["ratio_vhost"], 1.0)
        self.assertEqual(xen["ratio_vhost_by_mode"], {
            "fast": {"median": 0.5, "p25": 0.5, "p75": 0.5, "rounds": 2},
            "slow": {"median": 1.0, "p25": 1.0, "p75": 1.0, "rounds": 2}})
        self.assertNotIn("ratio_vhost_by_mode", vhost)
        self.assertEqual(report.mode_lines([xen, vhost])[3:], [
            "  xen f2b 64B 1q  vs vhost-user: slow 1.00x 1.00-1.00 "
            "(2 rounds), fast 0.50x 0.50-0.50 (2 rounds)"])
        out = io.StringIO()
        report.print_table([xen, vhost], [], FakeMemory(), out=out)
        self.assertIn("By the host's mode", out.getvalue())

    def test_a_round_whose_probes_disagree_is_set_apart(self):
        # Round 2 was probed fast before its windows and slow after them:
        # its 0.5x may compare xen in one mode with vhost-user in the
        # other, so it counts in the ratio but in neither mode. Round 3's
        # probe after its windows failed: its probe before decides.
        xen, vhost = self.results([10.0, 5.0, 10.0, 10.0],
                                  [10.0, 10.0, 10.0, 10.0],
                                  [450.0, 110.0, 460.0, 440.0],
                                  [440.0, 470.0, None, 450.0])
        self.assertEqual(xen["round_host_after_ns"],
                         {1: 440.0, 2: 470.0, 4: 450.0})
        self.assertEqual(xen["host_after"][2], {"error": "no probe"})
        self.assertAlmostEqual(xen["ratio_vhost"], 1.0)
        self.assertEqual(xen["ratio_vhost_by_mode"], {
            "changed": {"median": 0.5, "p25": 0.5, "p75": 0.5, "rounds": 1},
            "slow": {"median": 1.0, "p25": 1.0, "p75": 1.0, "rounds": 3}})
        self.assertEqual(report.mode_lines([xen, vhost])[3:], [
            "  xen f2b 64B 1q  vs vhost-user: slow 1.00x 1.00-1.00 "
            "(3 rounds), changed 0.50x 0.50-0.50 (1 rounds)"])
        # Fast before and after: fast.
        xen, _ = self.results([5.0], [10.0], [110.0], [120.0])
        self.assertEqual(list(xen["ratio_vhost_by_mode"]), ["fast"])

    def test_a_ratio_counts_in_a_mode_only_where_both_windows_ran_in_it(
            self):
        # Each window is probed before and after: xen's three ran fast,
        # vhost-user's second was probed fast before and slow after (the
        # host changed while it forwarded), its third slow on both sides.
        xen = measure.summarize("xen", "f2b", 64, [
            round_run(m, i, 110.0, 120.0)
            for i, m in enumerate([8.0, 9.0, 7.0], 1)])
        vhost = measure.summarize("vhost", "f2b", 64, [
            round_run(10.0, 1, 120.0, 110.0),
            round_run(10.0, 2, 110.0, 450.0),
            round_run(5.0, 3, 450.0, 460.0)])
        self.assertEqual(report.joint_modes(xen, vhost),
                         {1: "fast", 2: "changed", 3: "changed"})
        report.add_ratios([xen, vhost], "fast")
        self.assertEqual(xen["ratio_vhost_rounds"], [0.8])
        self.assertEqual(
            {m: v["rounds"] for m, v in xen["ratio_vhost_by_mode"].items()},
            {"fast": 1, "changed": 2})
        report.add_ratios([xen, vhost], "slow")
        self.assertIsNone(xen["ratio_vhost"])

    def test_ratios_in_one_mode_only(self):
        # --host-mode fast: rounds 2 and 4 found the host fast before and
        # after their windows; round 3 changed; rounds 1 and 5 were slow.
        xen = [5.0, 8.0, 6.0, 9.0, 5.0]
        vhost = [10.0] * 5
        hosts = [450.0, 110.0, 120.0, 100.0, 460.0]
        after = [440.0, 120.0, 470.0, 105.0, 455.0]
        res = self.results(xen, vhost, hosts, after)
        fast = res[0]
        report.add_ratios(res, "fast")
        self.assertEqual(fast["ratio_vhost_rounds"], [0.8, 0.9])
        self.assertAlmostEqual(fast["ratio_vhost"], 0.85)
        # Every round still in the split by mode.
        self.assertEqual(fast["ratio_vhost_by_mode"]["slow"]["rounds"], 2)
        self.assertEqual(fast["ratio_vhost_by_mode"]["changed"]["rounds"],
                         1)
        report.add_ratios(res, "slow")
        self.assertAlmostEqual(fast["ratio_vhost"], 0.5)
        # All rounds slow: no fast figure rather than a slow one.
        res = self.results([5.0, 6.0], [10.0, 10.0], [450.0, 460.0])
        report.add_ratios(res, "fast")
        self.assertIsNone(res[0]["ratio_vhost"])
        self.assertNotIn("ratio_vhost_rounds", res[0])
        head, rows = report.table_rows(res)
        self.assertEqual(rows[0][head.index("vs vhost")], "-")
        out = io.StringIO()
        report.print_table(res, [], FakeMemory(), out=out, host_mode="fast")
        self.assertIn("--host-mode fast: those ratios", out.getvalue())

    def test_run_mode(self):
        self.assertEqual(report.run_mode(round_run(1.0, 1, 110.0, 120.0)),
                         "fast")
        self.assertEqual(report.run_mode(round_run(1.0, 1, 110.0, 470.0)),
                         "changed")
        # No probe after: the one before decides; none before: no mode.
        self.assertEqual(report.run_mode(round_run(1.0, 1, 450.0, None)),
                         "slow")
        self.assertEqual(report.run_mode(round_run(1.0, 1, 450.0)), "slow")
        self.assertIsNone(report.run_mode(round_run(1.0, 1, None, 120.0)))

    def test_one_mode_gives_no_split_line(self):
        xen, vhost = self.results([10.0, 5.0], [10.0, 10.0], [450.0, 440.0])
        self.assertEqual(list(xen["ratio_vhost_by_mode"]), ["slow"])
        self.assertEqual(xen["ratio_vhost_by_mode"]["slow"]["rounds"], 2)
        self.assertEqual(report.mode_lines([xen, vhost]), [])
        out = io.StringIO()
        report.print_table([xen, vhost], [], FakeMemory(), out=out)
        self.assertNotIn("By the host's mode", out.getvalue())
        xen, _ = self.results([10.0], [10.0])
        self.assertEqual(xen["ratio_vhost_by_mode"], {})
        # One CPU for both ends: no probe at all.
        run = round_run(10.0, 1)
        run["host"] = None
        self.assertEqual(measure.summarize("xen", "f2b", 64, [run])[
            "round_host_ns"], {})

    def test_ratios_within_rounds(self):
        # The host halves every transport's speed in alternate rounds:
        # 0.5x in every round.
        xen, vhost = self.results([10.0, 5.0, 10.0, 5.0],
                                  [20.0, 10.0, 20.0, 10.0])
        self.assertEqual(xen["ratio_vhost_rounds"], [0.5] * 4)
        self.assertAlmostEqual(xen["ratio_vhost"], 0.5)
        self.assertAlmostEqual(xen["ratio_vhost_p25"], 0.5)
        self.assertAlmostEqual(xen["ratio_vhost_p75"], 0.5)
        self.assertFalse(xen["ratio_vhost_marked"])
        head, rows = report.table_rows([xen, vhost])
        self.assertEqual(rows[0][head.index("vs vhost")], "0.50x 0.50-0.50")
        self.assertEqual(rows[1][head.index("vs vhost")], "-")

    def test_a_slow_spell_is_one_round_not_the_ratio(self):
        # The host slowed down after xen's first window and sped up
        # during round 3: the medians' ratio would be 5/20 = 0.25x.
        xen, _ = self.results([10.0, 5.0, 5.0], [20.0, 20.0, 10.0])
        self.assertEqual(xen["ratio_vhost_rounds"], [0.5, 0.25, 0.5])
        self.assertAlmostEqual(xen["ratio_vhost"], 0.5)
        self.assertTrue(xen["ratio_vhost_marked"])

    def test_spread_beyond_the_bound_is_marked(self):
        xen, _ = self.results([10.0, 10.0, 10.0], [20.0, 10.0, 20.0])
        self.assertAlmostEqual(xen["ratio_vhost"], 0.5)
        self.assertAlmostEqual(xen["ratio_vhost_p75"], 0.75)
        self.assertTrue(xen["ratio_vhost_marked"])
        head, rows = report.table_rows([xen])
        self.assertEqual(rows[0][head.index("vs vhost")], "0.50x 0.50-0.75!")

    def test_only_rounds_both_ran(self):
        xen, _ = self.results([10.0, 12.0], [20.0])
        self.assertEqual(xen["ratio_vhost_rounds"], [0.5])
        self.assertAlmostEqual(xen["ratio_vhost_p25"], 0.5)

    def cycle_results(self, xen, vhost, memif):
        """Our row and two peers' (cycle_runs)."""
        res = [measure.summarize("xen", "f2b", 64,
                                 cycle_runs(xen, "netfront", "netback")),
               measure.summarize("vhost", "f2b", 64, cycle_runs(
                   vhost, "virtio-user", "vhost")),
               measure.summarize("memif", "f2b", 64, cycle_runs(
                   memif, "memif-client", "memif-server"))]
        report.add_ratios(res)
        report.add_cycle_ratios(res)
        return res

    def test_cycles_by_round(self):
        xen = measure.summarize("xen", "f2b", 64, cycle_runs(
            [(100, 50), (120, 60), None], "netfront", "netback"))
        self.assertEqual(xen["round_cycles"],
                         {"rx": {1: 100.0, 2: 120.0},
                          "tx": {1: 50.0, 2: 60.0}})
        # Measured on its own: no rounds.
        self.assertEqual(measure.summarize("xen", "f2b", 64, [
            xen_f2b_run()])["round_cycles"], {"rx": {}, "tx": {}})

    def test_cycle_ratios_within_rounds(self):
        # The host slows every transport down by half in round 2: within
        # each round xen's receiver takes 0.9x the better peer's cycles
        # (memif in round 1, vhost-user in rounds 2 and 3).
        xen, vhost, memif = self.cycle_results(
            [(90, 40), (180, 80), (90, 40)],
            [(120, 50), (200, 100), (100, 50)],
            [(100, 80), (220, 160), (110, 80)])
        rx = xen["cycle_ratios"]["rx"]
        self.assertEqual([round(x, 3) for x in rx["better"]["rounds"]],
                         [0.9, 0.9, 0.9])
        self.assertAlmostEqual(rx["vhost"]["median"], 0.9)
        self.assertEqual([round(x, 3) for x in rx["memif"]["rounds"]],
                         [0.9, 0.818, 0.818])
        tx = xen["cycle_ratios"]["tx"]["better"]
        self.assertAlmostEqual(tx["median"], 0.8)
        self.assertNotIn("cycle_ratios", vhost)
        self.assertNotIn("cycle_ratios", memif)
        self.assertEqual(report.cycle_lines([xen, vhost, memif])[3:], [
            "  xen f2b 64B 1q  receiver 0.90x 0.90-0.90, "
            "sender 0.80x 0.80-0.80"])
        out = io.StringIO()
        report.print_table([xen, vhost, memif], [], FakeMemory(), out=out)
        self.assertIn("Cycles per packet within rounds", out.getvalue())

    def test_cycle_ratios_in_one_mode_only(self):
        # Round 2 ran slow (memif's receiver suffered most): with
        # --host-mode fast only rounds 1 and 3 count.
        runs = [cycle_runs(c, s, r) for c, s, r in (
            ([(90, 40), (300, 80), (90, 40)], "netfront", "netback"),
            ([(120, 50), (200, 100), (100, 50)], "virtio-user", "vhost"),
            ([(100, 80), (120, 160), (110, 80)], "memif-client",
             "memif-server"))]
        for rs in runs:
            for run, ns in zip(rs, (110.0, 450.0, 120.0)):
                run["host"] = probe(ns)
        res = [measure.summarize(f, "f2b", 64, rs)
               for f, rs in zip(("xen", "vhost", "memif"), runs)]
        report.add_cycle_ratios(res)
        self.assertEqual(len(res[0]["cycle_ratios"]["rx"]["better"][
            "rounds"]), 3)
        report.add_cycle_ratios(res, "fast")
        rx = res[0]["cycle_ratios"]["rx"]
        self.assertEqual([round(x, 3) for x in rx["better"]["rounds"]],
                         [0.9, 0.9])
        report.add_cycle_ratios(res, "slow")
        self.assertEqual(res[0]["cycle_ratios"]["rx"]["better"]["rounds"],
                         [2.5])

    def test_cycle_ratios_count_a_round_where_every_window_ran_in_it(self):
        # --host-mode fast: memif's window of round 2 ran slow while xen's
        # and vhost-user's ran fast: round 2 is left out against every
        # peer (memif might have been the better one in the fast mode).
        runs = [cycle_runs(c, s, r) for c, s, r in (
            ([(90, 40), (80, 40), (90, 40)], "netfront", "netback"),
            ([(120, 50), (100, 50), (100, 50)], "virtio-user", "vhost"),
            ([(100, 80), (400, 160), (110, 80)], "memif-client",
             "memif-server"))]
        for i, rs in enumerate(runs):
            for rnd, run in enumerate(rs, 1):
                ns = 450.0 if (i, rnd) == (2, 2) else 110.0
                run["host"], run["host_after"] = probe(ns), probe(ns)
        res = [measure.summarize(f, "f2b", 64, rs)
               for f, rs in zip(("xen", "vhost", "memif"), runs)]
        report.add_cycle_ratios(res, "fast")
        rx = res[0]["cycle_ratios"]["rx"]
        self.assertEqual([round(x, 3) for x in rx["better"]["rounds"]],
                         [0.9, 0.9])
        self.assertEqual(len(rx["vhost"]["rounds"]), 2)

    def test_a_round_a_peer_has_no_count_is_not_against_the_better(self):
        # Round 2: memif printed no count, and it might have been the
        # better: that round is left out against the better, not against
        # vhost-user.
        xen, _, _ = self.cycle_results([(90, 40), (90, 40)],
                                       [(100, 50), (100, 50)],
                                       [(95, 60), None])
        rx = xen["cycle_ratios"]["rx"]
        self.assertEqual(len(rx["vhost"]["rounds"]), 2)
        self.assertEqual(len(rx["memif"]["rounds"]), 1)
        self.assertEqual([round(x, 3) for x in rx["better"]["rounds"]],
                         [0.947])

    def test_the_baseline_build_within_rounds(self):
        # The host halves every rate in round 2: within rounds xen sends
        # 1.1x the baseline's packets, with 0.9x its receiver's cycles
        # and 0.8x its sender's. The baseline, cheaper than both peers,
        # is not one of them: against the better peer xen's receiver
        # takes 90 / 110.
        _, vhost, memif = self.cycle_results(
            [(90, 40), (180, 80), (90, 40)],
            [(120, 50), (220, 100), (110, 50)],
            [(110, 80), (240, 160), (120, 80)])
        res = [measure.summarize("xen", "f2b", 64, cycle_runs(
                   [(90, 40), (180, 80), (90, 40)], "netfront", "netback",
                   mpps=[11.0, 5.5, 11.0])),
               measure.summarize(transports.BASELINE, "f2b", 64, cycle_runs(
                   [(100, 50), (200, 100), (100, 50)], "netfront",
                   "netback", mpps=[10.0, 5.0, 10.0])),
               vhost, memif]
        report.add_ratios(res)
        report.add_cycle_ratios(res)
        xen, base = res[0], res[1]
        self.assertAlmostEqual(xen["ratio_base"], 1.1)
        self.assertEqual(xen["ratio_base_p25"], xen["ratio_base_p75"])
        self.assertAlmostEqual(xen["cycle_ratios_base"]["rx"]["median"], 0.9)
        self.assertAlmostEqual(xen["cycle_ratios_base"]["tx"]["median"], 0.8)
        self.assertEqual(
            [round(x, 3) for x in xen["cycle_ratios"]["rx"]["better"]
             ["rounds"]], [0.818, 0.818, 0.818])
        self.assertNotIn("ratio_base", base)
        self.assertNotIn("cycle_ratios_base", base)
        self.assertEqual(report.baseline_lines(res)[3:], [
            "  xen f2b 64B 1q  Mpps 1.10x 1.10-1.10, receiver cycles 0.90x "
            "0.90-0.90, sender cycles 0.80x 0.80-0.80"])
        head, rows = report.table_rows(res)
        self.assertIn("vs base", head)
        self.assertEqual(rows[0][head.index("vs base")],
                         "1.10x 1.10-1.10")
        self.assertEqual(rows[1][0], "xen base")
        out = io.StringIO()
        report.print_table(res, [], FakeMemory(), out=out)
        self.assertIn("Against the baseline build", out.getvalue())
        # Without it, none of that.
        self.assertEqual(report.baseline_lines([vhost, memif]), [])
        self.assertNotIn("vs base", report.table_rows([vhost, memif])[0])

    def test_baseline_runs_beside_each_xen(self):
        a = cli.parse_args(["--transports", "xen-f2b,memif-b2f",
                            "--baseline", "old"])
        self.assertEqual(a.transports, [("xen", "f2b"),
                                        (transports.BASELINE, "f2b"),
                                        ("memif", "b2f")])
        self.assertEqual(cli.parse_args([]).baseline, None)
        import contextlib
        with contextlib.redirect_stderr(io.StringIO()):
            with self.assertRaises(SystemExit):
                cli.parse_args(["--transports", "memif", "--baseline",
                                "old"])
        # A baseline without our plugins is refused, naming the option.
        from xenbench.util import BenchError
        a = cli.parse_args(["--transports", "xen-f2b", "--baseline",
                            "/nonexistent-build", "--no-plot"])
        with self.assertRaises(BenchError) as cm:
            cli.check_prerequisites(a)
        why = str(cm.exception)
        self.assertIn("/nonexistent-build/drivers/net/xen_netback/"
                      "librte_net_xen_netback.so is missing", why)
        self.assertIn("or pass --baseline", why)
        # Its ends are ours, from the plugins it is given.
        e = transports.ends(transports.BASELINE, 2, "/tmp/t",
                            lambda so: "/old/" + os.path.basename(so))
        x = transports.ends("xen", 2, "/tmp/t", lambda so: so)
        self.assertEqual(e.back.plugin,
                         "/old/librte_net_xen_netback.so")
        self.assertEqual(e.back.vdev.split(",sim=")[0],
                         x.back.vdev.split(",sim=")[0])

    def test_no_cycle_ratios_without_counts(self):
        xen, vhost, memif = self.cycle_results([None], [None], [None])
        self.assertNotIn("cycle_ratios", xen)
        self.assertEqual(report.cycle_lines([xen, vhost, memif]), [])
        out = io.StringIO()
        report.print_table([xen, vhost, memif], [], FakeMemory(), out=out)
        self.assertNotIn("Cycles per packet within rounds", out.getvalue())

    def test_every_window_is_probed_before_and_after(self):
        # Two transports, two sizes, round 1 on fresh pairs: four counted
        # windows and six probes, all while no window forwards
        # (rounds.window stops both ends). A probe after each window is
        # the next one's before, except where a fresh pair's warm-up
        # window comes between: there the counted window gets its own.
        args = cli.parse_args(["--transports", "xen-f2b,memif-f2b",
                               "--sizes", "64,512"])
        points, _ = cli.matrix(args)
        log = []

        class Bench:
            def probe_host(self):
                log.append("probe")
                return {"bounce_ns": float(len(log))}

        def window(pair, warm, seconds):
            log.append(("window", pair, seconds))
            return {"windows": []}

        saved = (rounds.window, rounds.start_pairs, rounds.stop_pairs,
                 rounds.set_size)
        rounds.window = window
        rounds.start_pairs = lambda bench, pts, rep, dl, failed: {
            pt.family: pt.family for pt in pts}
        rounds.stop_pairs = lambda bench, pairs: pairs.clear()
        rounds.set_size = lambda pair, size: None
        try:
            runs, failed = rounds.run_group(Bench(), points, 0, [1], 0.5,
                                            2.0, fresh=True)
        finally:
            (rounds.window, rounds.start_pairs, rounds.stop_pairs,
             rounds.set_size) = saved
        self.assertEqual(failed, {})
        self.assertEqual([e if e == "probe" else e[2] for e in log], [
            0.2, "probe", 2.0, "probe", 0.2, "probe", 2.0, "probe",
            2.0, "probe", 2.0, "probe"])
        got = sorted((r["host"]["bounce_ns"], r["host_after"]["bounce_ns"])
                     for rs in runs.values() for r in rs)
        self.assertEqual(got, [(2.0, 4.0), (6.0, 8.0), (8.0, 10.0),
                               (10.0, 12.0)])

    def test_rotation(self):
        self.assertEqual(rounds.rotated(["a", "b", "c"], 0), ["a", "b", "c"])
        self.assertEqual(rounds.rotated(["a", "b", "c"], 1), ["b", "c", "a"])
        self.assertEqual(rounds.rotated(["a", "b", "c"], 5), ["c", "a", "b"])

    def test_groups_share_pairs_across_sizes_of_one_kind(self):
        a = cli.parse_args(["--transports", "xen,memif", "--sizes",
                            "64,1518,9000"])
        points, _ = cli.matrix(a)
        gs = cli.groups(points)
        got = [sorted({(p.direction, p.size) for p in g}) for g in gs]
        self.assertEqual(len(gs), 4)
        self.assertIn([("f2b", 64), ("f2b", 1518)], got)
        self.assertIn([("b2f", 9000)], got)
        for g in gs:
            self.assertEqual(len({p.family for p in g}), 2)

    def test_kept_pairs_measure_a_group_at_a_time(self):
        self.assertEqual(cli.schedule(2, 3, fresh=False),
                         [(0, [0, 1, 2, 3]), (1, [0, 1, 2, 3])])

    def test_fresh_pairs_spread_a_points_rounds_over_the_run(self):
        # Every group's round 1, then every group's round 2: no round 0.
        self.assertEqual(cli.schedule(3, 2, fresh=True),
                         [(0, [1]), (1, [1]), (2, [1]),
                          (0, [2]), (1, [2]), (2, [2])])

    def test_rounds_added_until_each_point_has_them_in_the_mode(self):
        args = cli.parse_args(["--transports", "xen,memif", "--sizes",
                               "64,9000", "--rounds", "2", "--host-mode",
                               "fast"])
        self.assertEqual(args.max_rounds, 6)
        points, _ = cli.matrix(args)
        todo = cli.groups(points)
        runs = {pt: [] for pt in points}
        # Every point of every group: two fast rounds, but group 1's
        # second was slow.
        for g, group in enumerate(todo):
            for pt in group:
                runs[pt] = [round_run(1.0, 1, 110.0, 120.0),
                            round_run(1.0, 2, 110.0 if g != 1 else 450.0,
                                      120.0)]
        self.assertEqual(cli.more_rounds(args, todo, runs, set(), 3),
                         [(1, [3])])
        # Group 0's memif window of round 2 ran slow, xen's fast: that
        # round gives no fast ratio at its size, so the group is short.
        memif = next(pt for pt in todo[0] if pt.family == "memif")
        runs[memif] = [round_run(1.0, 1, 110.0, 120.0),
                       round_run(1.0, 2, 120.0, 460.0)]
        self.assertEqual(cli.more_rounds(args, todo, runs, set(), 3),
                         [(0, [3]), (1, [3])])
        runs[memif][1] = round_run(1.0, 2, 120.0, 110.0)
        # A point failed: its group needs nothing more from it.
        gone = {pt for pt in todo[1] if pt.family == "xen"}
        self.assertEqual(len(cli.more_rounds(args, todo, runs, gone, 3)),
                         1)
        self.assertEqual(cli.more_rounds(args, todo, runs,
                                         set(todo[1]), 3), [])
        # Past --max-rounds, or without --host-mode: none.
        self.assertEqual(cli.more_rounds(args, todo, runs, set(), 7), [])
        plain = cli.parse_args(["--transports", "xen,memif"])
        self.assertEqual(cli.more_rounds(plain, todo, runs, set(), 3), [])

    def test_host_mode_arguments(self):
        a = cli.parse_args(["--full", "--host-mode", "slow",
                            "--max-rounds", "25"])
        self.assertEqual((a.host_mode, a.max_rounds), ("slow", 25))
        self.assertIsNone(cli.parse_args([]).host_mode)
        doc = report.build_doc(a, FakeMemory(), [], [], [], False)
        self.assertEqual((doc["host_mode"], doc["max_rounds"]),
                         ("slow", 25))
        import contextlib
        for bad in (["--host-mode", "fast", "--sequential"],
                    ["--max-rounds", "9"],
                    ["--host-mode", "fast", "--rounds", "4",
                     "--max-rounds", "3"],
                    ["--host-mode", "medium"]):
            with contextlib.redirect_stderr(io.StringIO()):
                with self.assertRaises(SystemExit):
                    cli.parse_args(bad)

    def test_interleaved_by_default(self):
        a = cli.parse_args([])
        self.assertTrue(a.interleaved)
        self.assertGreaterEqual(a.rounds, 3)
        self.assertFalse(cli.parse_args(["--sequential"]).interleaved)
        self.assertEqual(cli.parse_args(["--full"]).rounds, 10)
        import contextlib
        for bad in (["--rounds", "0"], ["--round-window", "0.1"]):
            with contextlib.redirect_stderr(io.StringIO()):
                with self.assertRaises(SystemExit):
                    cli.parse_args(bad)

    def test_interactive_command(self):
        e = transports.ends("xen", 1, "/tmp/t", lambda so: so)
        cmd = command.testpmd_cmd("/usr/bin/dpdk-testpmd", e.back, "rxonly",
                                  1, "p", 60, size=64, interactive=True,
                                  stdbuf=True)
        app = cmd[cmd.index("--") + 1:]
        self.assertIn("-i", app)
        self.assertNotIn("--stats-period=1", app)
        self.assertIn("--record-core-cycles", app)
        self.assertEqual(cmd[4:6], ["stdbuf", "-oL"])


# A stand-in for testpmd's prompt, to test how Console reads it (the real
# testpmd is test_bench_smoke's): it writes each prompt in two pieces and
# answers "show port stats 0" with a recorded block.
PROMPTER = r"""
import sys, time
def prompt():
    sys.stdout.write("testp"); sys.stdout.flush(); time.sleep(0.05)
    sys.stdout.write("md> "); sys.stdout.flush()
prompt()
for line in sys.stdin:
    cmd = line.strip()
    sys.stdout.write(cmd + "\n")
    if cmd == "show port stats 0":
        sys.stdout.write(open(sys.argv[1]).read())
    elif cmd == "stop":
        sys.stdout.write("  CPU cycles/packet=41.27 (total cycles=4127 / "
                         "total rxonly packets=100) at 2994 MHz Clock\n")
    elif cmd == "quit":
        sys.stdout.write("Bye...\n"); break
    prompt()
"""

STATS_BLOCK = """
  ######################## NIC statistics for port 0  ########################
  RX-packets: 370688     RX-missed: 0          RX-bytes:  23724032
  RX-errors: 0
  RX-nombuf:  0
  TX-packets: 5          TX-errors: 0          TX-bytes:  320

  Throughput (since last show)
  Rx-pps:       370432          Rx-bps:    189661344
  Tx-pps:            0          Tx-bps:            0

                                   Value            Rate (since last show)
  rx_q0_notifications_sent          1234             617
  ############################################################################
"""


class TestConsole(unittest.TestCase):
    def test_prompt_in_pieces(self):
        import sys
        with tempfile.TemporaryDirectory() as d:
            stats = os.path.join(d, "stats")
            with open(stats, "w") as f:
                f.write(STATS_BLOCK)
            c = rounds.Console("stand-in", [sys.executable, "-c", PROMPTER,
                                            stats])
            c.start()
            try:
                self.assertTrue(c.ready.wait(10))
                b = c.stats()
                self.assertEqual(b["rx_packets"], 370688)
                self.assertEqual(b["tx_packets"], 5)
                self.assertEqual(b["xstats"],
                                 {"rx_q0_notifications_sent": 1234})
                self.assertEqual(c.stop_command()["cycles"], 4127)
                self.assertEqual(c.command("start").strip(), "start")
            finally:
                c.stop()
            self.assertFalse(c.alive())
            self.assertIn("Bye...", c.tail)
