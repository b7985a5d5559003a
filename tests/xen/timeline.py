#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Per-packet timeline of a real-Xen ping run through our netback.

Reads what a scenario run with XDP_TIMELINE=1 leaves in its results
directory (tests/xen/run-scenario.sh -o DIR, then DIR/<scenario>/):
  testpmd.log      testpmd icmpecho's verbose lines, each stamped with Dom0's
                   uptime as written ("ICMP: echo request seq id=N": the
                   request reached testpmd, and its reply left in that burst)
  log.txt          the scenario's "timeline clock: uptime U epoch E" line
  guest-*.log      the guest's iputils ping -D lines: each reply's arrival
                   (wall clock) and rtt, so its request's send time
and splits each round trip in two: guest send -> testpmd (the guest's
netfront, the ring, our Rx poll) and testpmd -> guest receive (our Tx, the
event to the guest, its vCPU, its netfront and stack). Both domains take
the wall clock from Xen, Dom0's stamps have /proc/uptime's 10 ms
resolution: the split is good to about 10 ms, enough for tails of 100 ms.

usage: tests/xen/timeline.py SCENARIO_RESULTS_DIR [SLOWEST]
"""
import glob
import os
import re
import sys


def percentile(values, p):
    """Nearest rank."""
    v = sorted(values)
    return v[max(0, min(len(v) - 1, int(-(-len(v) * p // 1)) - 1))]


def spread(name, values):
    if not values:
        return '%s: none' % name
    return '%s: min %.1f median %.1f p90 %.1f p99 %.1f max %.1f ms (%d)' % (
        name, min(values), percentile(values, 0.5), percentile(values, 0.9),
        percentile(values, 0.99), max(values), len(values))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    slowest = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    clock = re.search(r'timeline clock: uptime ([0-9.]+) epoch ([0-9.]+)',
                      open(os.path.join(d, 'log.txt')).read())
    if clock is None:
        sys.exit('%s/log.txt: no "timeline clock" line: was XDP_TIMELINE=1 set?' % d)
    offset = float(clock.group(2)) - float(clock.group(1))
    at_testpmd = {}
    for line in open(os.path.join(d, 'testpmd.log'), errors='replace'):
        m = re.match(r'([0-9.]+) +ICMP: echo request seq id=([0-9]+)', line)
        if m and int(m.group(2)) not in at_testpmd:
            at_testpmd[int(m.group(2))] = float(m.group(1)) + offset
    sent, received, dups = {}, {}, 0
    consoles = glob.glob(os.path.join(d, 'guest-*.log'))
    if not consoles:
        sys.exit('%s: no guest console (guest-*.log)' % d)
    for line in open(consoles[0], errors='replace'):
        m = re.match(r'\[([0-9.]+)\] .*icmp_seq=([0-9]+) .*time=([0-9.]+) ms', line)
        if not m:
            continue
        seq = int(m.group(2))
        if seq in received:
            dups += 1
            continue
        received[seq] = float(m.group(1))
        sent[seq] = received[seq] - float(m.group(3)) / 1000
    if not received:
        sys.exit('%s: no ping -D reply lines' % consoles[0])
    top = max(max(sent), max(at_testpmd, default=0))
    both = [s for s in sent if s in at_testpmd]
    there = [(at_testpmd[s] - sent[s]) * 1000 for s in both]
    back = [(received[s] - at_testpmd[s]) * 1000 for s in both]
    rtt = [(received[s] - sent[s]) * 1000 for s in sent]
    print('%d requests seen by testpmd, %d replies received by the guest '
          '(%d duplicates); of 1..%d: %d never reached testpmd, %d answered '
          'but never received' % (
              len(at_testpmd), len(received), dups, top,
              sum(1 for s in range(1, top + 1) if s not in at_testpmd),
              sum(1 for s in at_testpmd if s not in received)))
    print(spread('rtt (guest)', rtt))
    print(spread('guest send -> testpmd', there))
    print(spread('testpmd -> guest receive', back))
    print('slowest %d round trips (ms): seq rtt = send->testpmd + testpmd->receive' % slowest)
    for s in sorted(both, key=lambda s: received[s] - sent[s])[-slowest:]:
        print('  %5d %8.1f = %8.1f + %8.1f' % (
            s, (received[s] - sent[s]) * 1000, (at_testpmd[s] - sent[s]) * 1000,
            (received[s] - at_testpmd[s]) * 1000))
    lost = sorted(s for s in at_testpmd if s not in received)
    if lost:
        print('answered by testpmd, never received: %s' % ','.join(map(str, lost[:40])))


main()
