#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# How the real-Xen ping scenarios (0, 1) judge a guest's ping, on
# consoles written here instead of booted: by sequence number, every
# request answered exactly once however late (a slow reply is reported in
# the rtt distribution, not failed), a missing or duplicate reply fails
# whatever ping's closing count says. And ping-timeline.awk, which cuts
# each reply's rtt into its legs, on a timeline and console written here.
# TAP.
#
# usage: test_ping_judged.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/../common/tap.sh"

# console <file> <seq:rtt ms>...: an iputils ping -D console after ARP
console() {
	f=$1; shift
	{
		echo "DOMU-RESULT arp=ok"
		for r in "$@"; do
			echo "[1700000000.$((${r%%:*} + 100000))] 64 bytes from 10.0.0.1: icmp_seq=${r%%:*} ttl=64 time=${r#*:} ms"
		done
		echo "$# packets transmitted, $# received, 0% packet loss"
	} >"$f"
}
# judged <console> <count>: ping_judged of lib.sh in a subshell, as a
# scenario runs it; prints what it says, returns 1 when it failed
judged() {
	(
		NAME=t S=$work
		. "$here/scenarios/lib.sh"
		con=$1 COUNT=$2
		ping_judged ours
		echo "RTT $RTT_LINE"
	) 2>&1 | tee "$work/out" | grep -q 'SCENARIO-RESULT t FAIL' && return 1
	return 0
}

console "$work/c1" 1:0.5 2:0.7 3:2500 4:0.6
judged "$work/c1" 4
tap $? "every request answered, one 2.5 s late: passes"
grep -q 'RTT min 0.5 median 0.6 p90 2500 p99 2500 max 2500 ms; >10 ms 1, >100 ms 1, >1 s 1 of 4' "$work/out"
tap $? "the late reply is in the rtt distribution"

# the guest's steal time around its ping: 250 ticks in 10 s is 25 %
{ echo "DOMU-STEAL before 900 uptime=9.50"; cat "$work/c1"; echo "DOMU-STEAL after 1150 uptime=19.50"; } >"$work/c1s"
judged "$work/c1s" 4
grep -q 'of 4; the guest.s vCPU waited for a CPU 25% of the time' "$work/out"
tap $? "the guest's steal share over its ping is reported"

console "$work/c2" 1:0.5 2:0.7 4:0.6
judged "$work/c2" 4
tap $(($? == 1 ? 0 : 1)) "a request never answered fails"
grep -q 'FAIL ours: 3 of 4 requests answered, 0 duplicates (unanswered: 3)' "$work/out"
tap $? "the failure names the unanswered sequence number"

# the closing line says 4 received: one of them is a duplicate of seq 2
console "$work/c3" 1:0.5 2:0.7 2:0.9 4:0.6
judged "$work/c3" 4
tap $(($? == 1 ? 0 : 1)) "a duplicate reply fails, whatever ping's closing count says"

# replies to requests past the count (ping -w resends while it waits) do
# not stand in for an unanswered one
console "$work/c4" 1:0.5 2:0.7 4:0.6 5:0.5
judged "$work/c4" 4
tap $(($? == 1 ? 0 : 1)) "a reply beyond the count does not stand in for a missing one"

# ping-timeline.awk: Dom0's clock 50 ms behind the guest's; every leg
# 0.3 ms to the backend, 0.02 in it, 0.4 back, but seq 3 comes back
# 14.6 ms late (and ping prints it 5 ms later still: the send time in
# the request keeps that out of the legs), seq 4 reaches the backend
# 11.7 ms late and its transmit call returns 8 ms later, long after the
# guest had the reply; seq 5's reply never reaches ping, seq 7's is dropped by
# the backend; seq 6's request carried no send time (its line's stamp is
# used)
cat >"$work/tl" <<'EOF'
77 1 1700000000100000 1700000000050300 1700000000050320 1700000000050330
77 2 1700000000200000 1700000000150300 1700000000150320 1700000000150330
77 3 1700000000300000 1700000000250300 1700000000250320 1700000000250330
77 4 1700000000400000 1700000000362000 1700000000362020 1700000000370020
77 5 1700000000500000 1700000000450300 1700000000450320 1700000000450330
77 6 - 1700000000550300 1700000000550320 1700000000550330
77 7 1700000000700000 1700000000800000 1700000000800020 -
EOF
cat >"$work/ct" <<'EOF'
DOMU-RESULT arp=ok
[1700000000.100720] 64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.720 ms
[1700000000.200720] 64 bytes from 10.0.0.1: icmp_seq=2 ttl=64 time=0.720 ms
[1700000000.320320] 64 bytes from 10.0.0.1: icmp_seq=3 ttl=64 time=15.320 ms
[1700000000.412420] 64 bytes from 10.0.0.1: icmp_seq=4 ttl=64 time=12.420 ms
[1700000000.600720] 64 bytes from 10.0.0.1: icmp_seq=6 ttl=64 time=0.720 ms
EOF
timeline() { awk -v table="$work/table" -f "$here/scenarios/ping-timeline.awk" "$@"; }
timeline "$work/tl" "$work/ct" >"$work/out"
tap $? "the timeline tool joins a backend's timeline with the guest's ping"
grep -q 'timeline of 5 replies (clock offset 50.05 ms): median legs to us 0.35, in us 0.02, back 0.35 ms; of 2 over 10 ms, longest leg to us 1, in us 0, back 1 (medians 0.35, 0.02, 0.35 ms), our transmit call over 5 ms in 1;' "$work/out"
tap $? "it finds the clock offset and which leg made each late reply late"
grep -q 'answered but not received by ping 1, dropped by us 1$' "$work/out"
tap $? "it counts replies that left the backend but never reached ping, and drops"
grep -qx '3 15.32 0.35 0.02 14.95 0.01' "$work/table" && grep -qx '4 12.42 12.05 0.02 0.35 8.00' "$work/table"
tap $? "its per-reply table cuts each rtt into the three legs"
# the same replies under other sequence numbers: none is the ping's
awk '{ $2 += 100; print }' "$work/tl" >"$work/tl2"
timeline "$work/tl2" "$work/ct" >"$work/out"
tap $(($? == 1 ? 0 : 1)) "a timeline with none of the ping's replies is an error"
grep -q "no reply of the guest's ping is in the backend's timeline" "$work/out"
tap $? "which it says"

[ $fail = 0 ] || sed 's/^/# /' "$work/out"
tap_done
