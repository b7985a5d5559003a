# SPDX-License-Identifier: BSD-3-Clause
#
# Where a guest's ping replies spent their time: xen-adaptive-fwd's
# --timeline (a line per echo reply: id, seq, the send time ping wrote in
# the request, "-" if none, when the request's burst arrived, when the
# transmit call of the reply's began and when it returned, "-" if the
# reply was dropped; microseconds) joined by sequence number
# with the guest's iputils ping -D output ("[<epoch s.us>] 64 bytes from
# ...: icmp_seq=N ttl=64 time=T ms"). ping measures T from that send time
# to the kernel's receive, so send + T is when the reply arrived; without
# a send time, the line's stamp stands for the arrival, which is later
# when ping itself waits to run (the way there then looks shorter and the
# way back longer by that wait).
#
# The two clocks differ by an offset (guest - Dom0) taken from the fastest
# tenth of the replies, where the way there and the way back are assumed
# to take as long; it moves time between those two legs, never into or
# out of the backend's. Each reply's rtt is then cut into three legs:
#   to   the guest's send to the backend's receive (guest stack, netfront,
#        ring, event channel, the backend getting to poll)
#   in   the backend's receive to the start of its transmit call
#   back the start of that call to ping's receive (our ring and
#        notification, the guest's vCPU getting to run, its stack)
# and the transmit call's own length beside them: the reply reaches the
# guest somewhere in that call, and Dom0's vCPU may be descheduled in it
# once its notification woke the guest's, so its end says little of when
# the reply went (a long call with a short way back: the guest had it
# while the call went on).
#
# Prints one line per reply ("seq rtt to in back call", ms) to the file
# given as -v table=FILE, and a summary line on stdout.
#
# usage: awk -v table=FILE [-v late=10] -f ping-timeline.awk TIMELINE CONSOLE
BEGIN {
	if (late == "")
		late = 10
}
# the timeline
FNR == NR {
	if ($6 == "-")
		dropped[$2] = 1
	else {
		rx[$2] = $4
		tx[$2] = $5
		done[$2] = $6
		if ($3 != "-")
			sent[$2] = $3
	}
	answered[$2] = 1
	next
}
# the console
/icmp_seq=[0-9]+ .*time=[0-9.]+ ms/ {
	if (!match($0, /^\[[0-9]+\.[0-9]+\]/))
		next
	v = substr($0, 2, RLENGTH - 2)
	match($0, /icmp_seq=[0-9]+/)
	seq = substr($0, RSTART + 9, RLENGTH - 9)
	match($0, /time=[0-9.]+/)
	rtt = substr($0, RSTART + 5, RLENGTH - 5) * 1000
	if (seq in got)
		next
	got[seq] = 1
	if (!(seq in rx)) {
		unknown++
		next
	}
	n++
	sq[n] = seq
	rt[n] = rtt
	if (seq in sent) {
		st[n] = sent[seq]
		vt[n] = st[n] + rtt
	} else {
		vt[n] = v * 1000000
		st[n] = vt[n] - rtt
	}
}
function median(a, k,    i, j, t) {
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return k == 0 ? 0 : a[int((k + 1) / 2)]
}
function ms(us) {
	return sprintf("%.2f", us / 1000)
}
END {
	if (n == 0) {
		print "timeline: no reply of the guest's ping is in the backend's timeline"
		exit 1
	}
	# the offset, from the fastest tenth (by rtt)
	for (i = 1; i <= n; i++)
		ord[i] = int(rt[i] + 0.5) * 100000 + i
	median(ord, n)
	k = int(n / 10)
	if (k < 1)
		k = 1
	for (i = 1; i <= k; i++) {
		j = ord[i] % 100000
		th[i] = (vt[j] + st[j] - rx[sq[j]] - tx[sq[j]]) / 2
	}
	theta = median(th, k)
	nl = 0
	for (i = 1; i <= n; i++) {
		q = sq[i]
		to = rx[q] - st[i] + theta
		in_ = tx[q] - rx[q]
		back = vt[i] - theta - tx[q]
		call = done[q] - tx[q]
		printf "%s %s %s %s %s %s\n", q, ms(rt[i]), ms(to), ms(in_), ms(back), ms(call) > table
		ato[i] = to; ain[i] = in_; aback[i] = back
		if (rt[i] > late * 1000) {
			nl++
			lto[nl] = to; lin[nl] = in_; lback[nl] = back
			if (call > 5000)
				longcall++
			if (to >= in_ && to >= back)
				mto++
			else if (in_ >= back)
				min_++
			else
				mback++
		}
	}
	for (q in answered)
		if (!(q in got) && !(q in dropped))
			lost++
	for (q in dropped)
		ndrop++
	printf "timeline of %d replies (clock offset %s ms): median legs to us %s, in us %s, back %s ms",
		n, ms(theta), ms(median(ato, n)), ms(median(ain, n)), ms(median(aback, n))
	if (nl > 0)
		printf "; of %d over %s ms, longest leg to us %d, in us %d, back %d (medians %s, %s, %s ms), our transmit call over 5 ms in %d",
			nl, late, mto, min_, mback, ms(median(lto, nl)), ms(median(lin, nl)), ms(median(lback, nl)), longcall
	printf "; answered but not received by ping %d, dropped by us %d", lost, ndrop
	if (unknown > 0)
		printf ", received but not in the timeline %d", unknown
	printf "\n"
}
