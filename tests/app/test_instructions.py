# SPDX-License-Identifier: BSD-3-Clause
"""xen-bench's instructions per packet (instructions.py): the valgrind
command, a callgrind dump's count, testpmd's dropped share, and the
figures in a result and the table."""

import os
import tempfile
import unittest
from unittest import mock

import benchpath  # noqa: F401
from xenbench import cli, instructions, report
from xenbench.util import BenchError

TESTPMD = "/usr/bin/dpdk-testpmd"

# What testpmd 22.11 prints at "stop" for a txonly port (abridged).
STOP_ONE_PORT = """
  ---------------------- Forward statistics for port 0  ----------------------
  RX-packets: 0              RX-dropped: 0             RX-total: 0
  TX-packets: 3556736        TX-dropped: 28864         TX-total: 3585600
  ----------------------------------------------------------------------------
"""
STOP_TWO_PORTS = STOP_ONE_PORT + """
  ---------------------- Forward statistics for port 1  ----------------------
  RX-packets: 0              RX-dropped: 0             RX-total: 0
  TX-packets: 10             TX-dropped: 90            TX-total: 100
  ----------------------------------------------------------------------------

  +++++++++++++++ Accumulated forward statistics for all ports+++++++++++++++
  RX-packets: 0              RX-dropped: 0             RX-total: 0
  TX-packets: 3556746        TX-dropped: 28954         TX-total: 3585700
  ++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++++
"""

# The head of a callgrind dump (callgrind_control -d).
DUMP = """# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 2231
cmd:  /usr/bin/dpdk-testpmd --lcores 0@1,1@1
part: 1

desc: I1 cache:
positions: line
events: Ir
summary: 1036272532


totals: 1036855576
"""


class ValgrindArgv(unittest.TestCase):
    def test_valgrind_goes_right_before_testpmd(self):
        argv = ["timeout", "-s", "INT", "600", "stdbuf", "-oL", TESTPMD,
                "--lcores", "0@1,1@1", "--", "-i"]
        got = instructions.valgrind_argv(argv, TESTPMD, "/tmp/cg-x")
        self.assertEqual(got[:6], argv[:6])
        self.assertEqual(got[6:9], ["valgrind", "--tool=callgrind",
                                    "--callgrind-out-file=/tmp/cg-x"])
        self.assertEqual(got[9:], argv[6:])


class Dump(unittest.TestCase):
    def write(self, text):
        fd, path = tempfile.mkstemp()
        with os.fdopen(fd, "w") as f:
            f.write(text)
        self.addCleanup(os.unlink, path)
        return path

    def test_the_summary_line_is_the_count(self):
        self.assertEqual(instructions.summary(self.write(DUMP)), 1036272532)

    def test_a_dump_without_summary_is_an_error(self):
        path = self.write(DUMP.replace("summary:", "sum:"))
        with self.assertRaisesRegex(BenchError, "no 'summary:' line"):
            instructions.summary(path)

    def tmpdir(self):
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        return d.name

    def test_new_dumps_are_found_by_their_base(self):
        base = os.path.join(self.tmpdir(), "callgrind-xen-f2b-64-b32-q1-rx")
        open(base, "w").close()     # callgrind's own file, at exit
        before = instructions.dumps(base)
        open(base + ".1", "w").close()
        self.assertEqual(instructions.dumps(base) - before, {base + ".1"})

    def test_kept_dumps_move_to_the_log_dir_and_empty_ones_go(self):
        src, dst = self.tmpdir(), self.tmpdir()
        base = os.path.join(src, "callgrind-memif-b2f-64-b32-q1-tx")
        with open(base + ".1", "w") as f:
            f.write(DUMP)
        open(base + ".2", "w").close()
        kept = instructions.keep_dumps(dst, base)
        moved = os.path.join(dst, os.path.basename(base) + ".1")
        self.assertEqual(kept, {base + ".1": moved, base + ".2": None})
        self.assertEqual(instructions.summary(moved), 1036272532)
        self.assertEqual(os.listdir(src), [])

    def test_without_a_log_dir_dumps_are_removed(self):
        src = self.tmpdir()
        base = os.path.join(src, "callgrind-null-f2b-64-b32-q1-rx")
        with open(base + ".1", "w") as f:
            f.write(DUMP)
        self.assertEqual(instructions.keep_dumps(None, base),
                         {base + ".1": None})
        self.assertEqual(os.listdir(src), [])


class Dropped(unittest.TestCase):
    def test_one_port(self):
        self.assertEqual(instructions.tx_dropped(STOP_ONE_PORT),
                         (28864, 3585600))

    def test_several_ports_take_the_accumulated_block(self):
        self.assertEqual(instructions.tx_dropped(STOP_TWO_PORTS),
                         (28954, 3585700))

    def test_nothing_printed(self):
        self.assertIsNone(instructions.tx_dropped("Telling cores to stop"))


def counted(per_packet):
    return {"instructions": int(per_packet * 1000), "packets": 1000,
            "per_packet": per_packet, "mpps_under_callgrind": 0.5,
            "sender_dropped_share": 0.99, "dump": None, "command": "x"}


def result(family, **extra):
    r = {"transport": family, "label": family, "direction": "f2b",
         "size": 64, "burst": 32, "queues": 1, "mpps_median": 10.0,
         "mpps_min": 9.0, "mpps_max": 11.0, "gbps": 5.1,
         "windows_used": 2, "windows_total": 2, "disturbed": False,
         "cycles_per_pkt_sender": 150.0, "cycles_per_pkt_receiver": 160.0}
    r.update(extra)
    return r


class Figures(unittest.TestCase):
    def test_attach_puts_each_end_per_packet_figure(self):
        r = result("xen")
        instructions.attach(r, {"tx": counted(443.0), "rx": counted(636.0)})
        self.assertEqual(r["instructions_per_pkt_sender"], 443.0)
        self.assertEqual(r["instructions_per_pkt_receiver"], 636.0)
        self.assertEqual(r["instructions"]["rx"]["packets"], 1000)

    def test_attach_of_one_end_leaves_the_other_unknown(self):
        r = result("xen")
        instructions.attach(r, {"tx": counted(443.0)})
        self.assertIsNone(r["instructions_per_pkt_receiver"])

    def test_attach_of_nothing(self):
        r = result("memif")
        instructions.attach(r, None)
        self.assertIsNone(r["instructions"])
        self.assertIsNone(r["instructions_per_pkt_sender"])

    def test_the_table_shows_them_only_when_counted(self):
        r = result("xen")
        head, _ = report.table_rows([r])
        self.assertNotIn("ins tx", head)
        instructions.attach(r, {"tx": counted(443.4), "rx": counted(636.0)})
        other = result("memif")
        instructions.attach(other, None)
        head, rows = report.table_rows([r, other])
        self.assertEqual(rows[0][head.index("ins tx")], "443")
        self.assertEqual(rows[0][head.index("ins rx")], "636")
        self.assertEqual(rows[1][head.index("ins rx")], "-")
        legend = "\n".join(report.legend_lines([r], [], [], "", True))
        self.assertIn("ins tx, ins rx", legend)
        self.assertIn("callgrind", legend)


class Prerequisites(unittest.TestCase):
    def problems(self, argv):
        """What check_prerequisites() refuses, with valgrind missing."""
        def which(name):
            if name in ("valgrind", "callgrind_control"):
                return None
            return "/usr/bin/" + name

        with mock.patch("xenbench.cli.shutil.which", side_effect=which):
            try:
                cli.check_prerequisites(cli.parse_args(argv))
            except BenchError as e:
                return str(e)
        return ""

    def test_full_without_valgrind_says_what_to_install(self):
        got = self.problems(["--full"])
        self.assertIn("--instructions needs valgrind", got)
        self.assertIn("apt-get install valgrind", got)
        self.assertIn("--no-instructions", got)

    def test_asked_for_without_valgrind_is_refused(self):
        self.assertIn("needs valgrind", self.problems(["--instructions"]))

    def test_not_asked_for_needs_no_valgrind(self):
        self.assertNotIn("valgrind", self.problems([]))
        self.assertNotIn("valgrind",
                         self.problems(["--full", "--no-instructions"]))


if __name__ == "__main__":
    unittest.main()
