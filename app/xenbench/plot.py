# SPDX-License-Identifier: BSD-3-Clause
"""An SVG plot (standard library only) of Mpps by packet size: one line
per transport and direction, min-max bars, axes and legend labelled; one
panel per burst size and queue count measured. The Mpps axis is
logarithmic: net_null's ceiling near 100 Mpps and a 9000-byte transport
near 0.5 Mpps both stay readable."""

import math
from xml.sax.saxutils import escape, quoteattr

from .transports import BASELINE, FAMILY_ENDS, FAMILY_LABEL

COLORS = {"xen": "#d62728", "vhost": "#1f77b4", "memif": "#2ca02c",
          "null": "#7f7f7f", BASELINE: "#ff9896"}
DASH = {"f2b": None, "b2f": "7,4"}

WIDTH = 1000
PANEL_H = 380
MARGIN_L = 70
PLOT_W = 560
LEGEND_X = MARGIN_L + PLOT_W + 30
TOP = 70
PLOT_H = 290
FONT = "font-family=\"sans-serif\""


def log_decades(vmin, vmax):
    """(lo, hi): the powers of ten a log axis spans to hold every value
    in [vmin, vmax] (vmin > 0); at least one decade."""
    lo = math.floor(math.log10(vmin))
    hi = math.ceil(math.log10(vmax))
    return lo, max(hi, lo + 1)


def log_ticks(lo, hi):
    """Ticks at 1, 2 and 5 x 10^n from 10^lo to 10^hi."""
    return [m * 10.0 ** e for e in range(lo, hi) for m in (1, 2, 5)] + \
        [10.0 ** hi]


def _fmt_tick(v):
    return ("%.3f" % v).rstrip("0").rstrip(".") if v % 1 else "%d" % v


def _text(x, y, s, size=12, anchor="start", extra=""):
    return ('<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s" %s%s>'
            '%s</text>' % (x, y, size, anchor, FONT,
                           (" " + extra) if extra else "", escape(s)))


def _marker(x, y, direction, color):
    if direction == "f2b":
        return ('<circle cx="%.1f" cy="%.1f" r="4" fill="%s"/>' %
                (x, y, color))
    return ('<rect x="%.1f" y="%.1f" width="8" height="8" fill="white" '
            'stroke="%s" stroke-width="2"/>' % (x - 4, y - 4, color))


def _series_label(fam, d):
    front, back = FAMILY_ENDS[fam]
    src, dst = (front, back) if d == "f2b" else (back, front)
    return "%s %s (%s \u2192 %s)" % (FAMILY_LABEL[fam], d, src, dst)


def render_svg(results, title=None, notes=(), unsupported=()):
    """The SVG document (a string) for results (measure.summarize
    dicts)."""
    panels = sorted({(r.get("burst", 32), r.get("queues", 1))
                     for r in results} |
                    {(u.get("burst", 32), u.get("queues", 1))
                     for u in unsupported})
    if not panels:
        panels = [(32, 1)]
    sizes = sorted({r["size"] for r in results}) or [64]
    values = [v for r in results
              for v in (r["mpps_min"], r["mpps_median"], r["mpps_max"])
              if v > 0]
    lo, hi = log_decades(min(values, default=1.0), max(values, default=10.0))
    series = []
    for r in results:
        k = (r["transport"], r["direction"])
        if k not in series:
            series.append(k)
    order = {f: i for i, f in enumerate(["xen", BASELINE, "vhost", "memif",
                                          "null"])}
    series.sort(key=lambda k: (order.get(k[0], 9), k[1] != "f2b"))

    notes = [n for n in notes if n]
    head_h = 50 + 16 * len(notes)
    height = head_h + PANEL_H * len(panels) + 10
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d">' % (WIDTH, height, WIDTH, height),
           '<rect x="0" y="0" width="%d" height="%d" fill="white"/>' %
           (WIDTH, height)]
    out.append(_text(WIDTH / 2, 26, title or
                     "xen-bench: one-way packet rate by packet size "
                     "(dpdk-testpmd txonly \u2192 rxonly)",
                     size=16, anchor="middle", extra='font-weight="bold"'))
    for i, n in enumerate(notes):
        out.append(_text(WIDTH / 2, 46 + 16 * i, n, size=12,
                         anchor="middle",
                         extra='fill="#b00000"' if "NOT" in n or "WARN" in n
                         else 'fill="#444444"'))

    nx = len(sizes)
    slot = PLOT_W / nx

    def xpos(i):
        return MARGIN_L + slot * (i + 0.5)

    for pi, (burst, queues) in enumerate(panels):
        y0 = head_h + PANEL_H * pi          # top of the panel
        top = y0 + 34
        bottom = top + PLOT_H

        def ypos(v):
            """Zero (nothing moved) sits on the axis."""
            if v <= 0:
                return bottom
            return bottom - PLOT_H * (math.log10(v) - lo) / (hi - lo)

        out.append('<g class="panel">')
        out.append(_text(MARGIN_L + PLOT_W / 2, y0 + 20,
                         "burst %d, %d queue%s per port" %
                         (burst, queues, "" if queues == 1 else "s"),
                         size=13, anchor="middle",
                         extra='font-weight="bold"'))
        # Grid and y axis.
        for v in log_ticks(lo, hi):
            y = ypos(v)
            out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" '
                       'stroke="#dddddd" stroke-width="1"/>' %
                       (MARGIN_L, y, MARGIN_L + PLOT_W, y))
            out.append(_text(MARGIN_L - 8, y + 4, _fmt_tick(v), size=11,
                             anchor="end"))
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
                   % (MARGIN_L, top, MARGIN_L, bottom))
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
                   % (MARGIN_L, bottom, MARGIN_L + PLOT_W, bottom))
        for i, s in enumerate(sizes):
            x = xpos(i)
            out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                       'stroke="black"/>' % (x, bottom, x, bottom + 5))
            out.append(_text(x, bottom + 19, str(s), size=11,
                             anchor="middle"))
        out.append(_text(MARGIN_L + PLOT_W / 2, bottom + 38,
                         "packet size (bytes)", size=12, anchor="middle"))
        cy = (top + bottom) / 2
        out.append(_text(20, cy, "Mpps (receiver, median; bar = min-max; log scale)",
                         size=12, anchor="middle",
                         extra='transform="rotate(-90 20 %.1f)"' % cy))

        # The lines, each slightly offset so that bars do not overlap.
        mine = {(r["transport"], r["direction"], r["size"]): r
                for r in results if (r.get("burst", 32),
                                     r.get("queues", 1)) == (burst, queues)}
        nser = max(1, len(series))
        for si, (fam, d) in enumerate(series):
            color = COLORS.get(fam, "#000000")
            off = (si - (nser - 1) / 2) * min(6.0, slot / (2 * nser))
            pts = []
            for i, s in enumerate(sizes):
                r = mine.get((fam, d, s))
                if r is not None:
                    pts.append((xpos(i) + off, r))
            if not pts:
                continue
            label = _series_label(fam, d)
            out.append('<g class="series" data-series=%s>' %
                       quoteattr("%s-%s" % (fam, d)))
            if len(pts) > 1:
                dash = (' stroke-dasharray="%s"' % DASH[d]) if DASH.get(d) \
                    else ""
                out.append('<polyline fill="none" stroke="%s" '
                           'stroke-width="2"%s points="%s"/>' % (
                               color, dash, " ".join(
                                   "%.1f,%.1f" % (x, ypos(r["mpps_median"]))
                                   for x, r in pts)))
            for x, r in pts:
                ylo, yhi = ypos(r["mpps_min"]), ypos(r["mpps_max"])
                out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" '
                           'stroke="%s" stroke-opacity="0.55"/>' %
                           (x, ylo, x, yhi, color))
                for yy in (ylo, yhi):
                    out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" '
                               'y2="%.1f" stroke="%s" '
                               'stroke-opacity="0.55"/>' %
                               (x - 3, yy, x + 3, yy, color))
                out.append('<g>%s<title>%s</title></g>' % (
                    _marker(x, ypos(r["mpps_median"]), d, color),
                    escape("%s, %d bytes: %.2f Mpps (min %.2f, max %.2f)"
                           % (label, r["size"], r["mpps_median"],
                              r["mpps_min"], r["mpps_max"]))))
            out.append('</g>')

        # Legend.
        ly = top + 4
        out.append(_text(LEGEND_X, ly, "transport, direction "
                         "(sender \u2192 receiver)", size=12,
                         extra='font-weight="bold"'))
        ly += 20
        for fam, d in series:
            if not any(k[0] == fam and k[1] == d for k in mine):
                continue
            color = COLORS.get(fam, "#000000")
            dash = (' stroke-dasharray="%s"' % DASH[d]) if DASH.get(d) else ""
            out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" '
                       'stroke="%s" stroke-width="2"%s/>' %
                       (LEGEND_X, ly - 4, LEGEND_X + 28, ly - 4, color, dash))
            out.append(_marker(LEGEND_X + 14, ly - 4, d, color))
            out.append(_text(LEGEND_X + 36, ly, _series_label(fam, d),
                             size=11))
            ly += 18
        gone = {}
        for u in unsupported:
            if (u.get("burst", 32), u.get("queues", 1)) == (burst, queues):
                gone.setdefault((u["transport"], u["direction"]),
                                []).append(u["size"])
        for (fam, d), gone_sizes in gone.items():
            out.append(_text(LEGEND_X, ly + 6, "%s %s at %s B: not supported"
                             % (FAMILY_LABEL[fam], d,
                                ", ".join(str(x) for x in
                                          sorted(gone_sizes))),
                             size=11, extra='fill="#b00000"'))
            ly += 16
        out.append('</g>')
    out.append('</svg>')
    return "\n".join(out) + "\n"


def write_svg(path, results, **kw):
    with open(path, "w", encoding="utf-8") as f:
        f.write(render_svg(results, **kw))
