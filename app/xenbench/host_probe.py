# SPDX-License-Identifier: BSD-3-Clause
"""The host's mode before a run: app xen-host-probe (a cache line's round
trip between the benchmark's two CPUs, and memcpy bandwidth), run while
no testpmd runs. These VMs move packets between two CPUs at one of two
speeds the host chooses; the round trip says which."""

import json
import os
import subprocess

PROBE = os.path.join("app", "xen-host-probe")
TIMEOUT = 30.0


def parse(text):
    """The probe's JSON line as a dict with bounce_ns and copy_gbs, or a
    dict with only "error" when it is not that."""
    try:
        doc = json.loads(text.strip().splitlines()[-1])
        return {"bounce_ns": float(doc["bounce_ns"]),
                "copy_gbs": float(doc["copy_gbs"])}
    except (IndexError, KeyError, TypeError, ValueError) as e:
        return {"error": "xen-host-probe printed no figures (%s): %r" %
                (e.__class__.__name__, text[-200:])}


def probe(build_dir, cpus):
    """Probe the two CPUs (sender's, receiver's); see parse()."""
    cmd = [os.path.join(build_dir, PROBE), "--cpus", "%d,%d" % tuple(cpus),
           "--json"]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True,
                           timeout=TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {"error": "xen-host-probe: %s" % e}
    if p.returncode != 0:
        return {"error": "xen-host-probe exited %d: %s" %
                (p.returncode, p.stderr.strip())}
    return parse(p.stdout)
