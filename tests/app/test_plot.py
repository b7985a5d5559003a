# SPDX-License-Identifier: BSD-3-Clause
"""The SVG plot: well-formed XML, one line per transport and direction,
axes and legend labelled, a panel per burst and queue count."""

import os
import tempfile
import unittest
import xml.etree.ElementTree as ET

import benchpath  # noqa: F401
from xenbench import plot

NS = {"s": "http://www.w3.org/2000/svg"}


def result(fam, d, size, med, burst=32, queues=1):
    return {"transport": fam, "direction": d, "size": size,
            "burst": burst, "queues": queues, "mpps_median": med,
            "mpps_min": med * 0.9, "mpps_max": med * 1.1}


RESULTS = [result(f, d, s, m)
           for f, base in (("xen", 8.0), ("vhost", 15.0), ("memif", 20.0))
           for d in ("f2b", "b2f")
           for s, m in ((64, base), (1518, base / 3))]


def texts(root):
    return [t.text or "" for t in root.iter("{%s}text" % NS["s"])]


class TestPlot(unittest.TestCase):
    def parse(self, svg):
        return ET.fromstring(svg.encode("utf-8"))

    def test_well_formed_with_axes_and_legend(self):
        root = self.parse(plot.render_svg(RESULTS, notes=["quick preset"]))
        self.assertEqual(root.tag, "{%s}svg" % NS["s"])
        self.assertIn("width", root.attrib)
        t = texts(root)
        self.assertIn("packet size (bytes)", t)
        self.assertTrue(any(x.startswith("Mpps") for x in t))
        self.assertIn("64", t)
        self.assertIn("1518", t)
        self.assertIn("quick preset", t)
        for label in ("xen f2b (netfront \u2192 netback zero_copy=1)",
                      "xen b2f (netback zero_copy=1 \u2192 netfront)",
                      "vhost-user f2b (virtio-user \u2192 vhost)",
                      "memif b2f (memif server \u2192 memif client)"):
            self.assertIn(label, t)

    def test_one_line_per_transport_and_direction(self):
        root = self.parse(plot.render_svg(RESULTS))
        lines = root.findall(".//s:polyline", NS)
        self.assertEqual(len(lines), 6)
        series = [g.get("data-series")
                  for g in root.iter("{%s}g" % NS["s"])
                  if g.get("data-series")]
        self.assertEqual(sorted(series), sorted(
            "%s-%s" % (f, d) for f in ("xen", "vhost", "memif")
            for d in ("f2b", "b2f")))
        # b2f dashed, f2b solid.
        dashed = [p for p in lines if p.get("stroke-dasharray")]
        self.assertEqual(len(dashed), 3)

    def test_points_inside_plot_and_ordered_by_value(self):
        root = self.parse(plot.render_svg(RESULTS))
        ys = {}
        for g in root.iter("{%s}g" % NS["s"]):
            if g.get("data-series"):
                pts = g.find("s:polyline", NS).get("points").split()
                ys[g.get("data-series")] = [float(p.split(",")[1])
                                            for p in pts]
        # Higher Mpps is higher up (smaller y).
        self.assertLess(ys["memif-f2b"][0], ys["xen-f2b"][0])
        self.assertLess(ys["xen-f2b"][0], ys["xen-f2b"][1])
        h = float(root.get("height"))
        for v in ys.values():
            for y in v:
                self.assertTrue(0 < y < h)

    def test_panels_and_not_supported(self):
        res = RESULTS + [result("vhost", "f2b", 64, 12.0, queues=2)]
        uns = [{"transport": "xen", "direction": d, "size": s, "burst": 32,
                "queues": 2, "reason": "not supported"}
               for d in ("f2b", "b2f") for s in (64, 1518)]
        root = self.parse(plot.render_svg(res, unsupported=uns))
        t = texts(root)
        self.assertIn("burst 32, 1 queue per port", t)
        self.assertIn("burst 32, 2 queues per port", t)
        self.assertEqual(t.count("xen f2b at 64, 1518 B: not supported"), 1)
        self.assertEqual(t.count("xen b2f at 64, 1518 B: not supported"), 1)

    def test_escapes_text(self):
        svg = plot.render_svg(RESULTS, title="a < b & c")
        self.assertIn("a &lt; b &amp; c", svg)
        self.parse(svg)

    def test_empty_results_still_an_svg(self):
        self.parse(plot.render_svg([], notes=["interrupted"]))

    def test_log_axis(self):
        self.assertEqual(plot.log_decades(0.35, 112.9), (-1, 3))
        self.assertEqual(plot.log_decades(2.0, 9.0), (0, 1))
        self.assertEqual(plot.log_ticks(0, 1), [1, 2, 5, 10])
        # Equal ratios are equal distances: 1->10 as 10->100.
        res = [result("xen", "f2b", 64, 1.0), result("xen", "f2b", 512, 10.0),
               result("xen", "f2b", 1518, 100.0)]
        root = self.parse(plot.render_svg(res))
        for g in root.iter("{%s}g" % NS["s"]):
            if g.get("data-series") == "xen-f2b":
                ys = [float(p.split(",")[1]) for p in
                      g.find("s:polyline", NS).get("points").split()]
        self.assertAlmostEqual(ys[0] - ys[1], ys[1] - ys[2], places=1)

    def test_write_svg(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.svg")
            plot.write_svg(path, RESULTS)
            ET.parse(path)


if __name__ == "__main__":
    unittest.main()
