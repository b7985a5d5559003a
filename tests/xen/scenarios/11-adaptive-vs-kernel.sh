# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 11: an adaptive backend (app/xen-adaptive-fwd: polls while
# packets come, sleeps on the Rx event channel after an idle spell), and
# with XDP_COMPARE=1 beside it our polling one and the kernel's
# interrupt-driven xen-netback ((a), (p), (c) and their rows of (d) and
# (e)), in one boot, with the same stock Linux guest image each time:
#  (a) ours polling: xen-adaptive-fwd --mode icmpecho --idle-polls 0 (it
#      never sleeps: testpmd's icmpecho on one lcore); the guest sends XDP_S11_PINGS
#      (default 200; issue 13's figures came from 500) 56-byte echo
#      requests, one every XDP_S11_INTERVAL s (default 0.1: long enough
#      for the adaptive backend to be asleep for each), with iputils
#      ping, which prints every reply's rtt;
#      then, the guest connected and idle, testpmd's CPU over XDP_S11_IDLE s
#      (default 10; /proc/<pid>/stat)
#  (p) only with XDP_S11_PINNED=1: (a) again with the guest's vCPU hard
#      pinned to pCPU 0 and Dom0's polling vCPU 1 to pCPU 1 (Dom0's vCPU 0
#      to pCPU 0): the guest then never waits behind the poller
#  (b) ours adaptive: xen-adaptive-fwd --mode icmpecho, the same pings, then
#      its CPU over the same idle spell: what its stats lines report and
#      /proc/<pid>/stat, and how often it went to sleep
#  (c) the kernel's xen-netback: the same pings to Dom0's end of the vif
#  (d) pps: the guest's kernel pktgen (XDP_PKTGEN_SIZE-byte frames, default
#      60, for XDP_PKTGEN_SECS, default 10) into our polling netback
#      (testpmd rxonly), into xen-adaptive-fwd --mode rxonly and into the
#      kernel's xen-netback, each counting what it received (the kernel's
#      on Dom0's end of the vif)
#  (e) pps from a DPDK guest: its testpmd txonly (64-byte frames, for
#      XDP_S11_TXONLY_SECS, default 6) through our netfront into
#      xen-adaptive-fwd rxonly and into the kernel's xen-netback, each
#      backend's median per-second receive rate while it flowed (scenario
#      5s has the same guest into our polling netback, in CI's boot)
# For each ping run it records Xen's view of the vCPUs (xl vcpu-list: CPU
# time of Dom0's vCPUs and the guest's, and 1-s samples of where each runs
# and in which state) and the guest's steal time over the pings (the time
# its vCPU was runnable but waited for a pCPU): the data to tell whether a
# polling Dom0 vCPU delays the guest's, which is the question behind the
# long rtts seen with testpmd. For (a) and (b), each reply's timeline: the
# app's --timeline (ping's send time, when each request reached it, and
# both ends of its reply's transmit call)
# joined with the guest's ping -D output by ping-timeline.awk, which cuts
# every rtt into the way to the backend, the time in it and the way back
# (timeline-<run>-replies.txt) and says which of the three made the replies
# over 10 ms late.
#
# Time limit: 1500 s (two guest images, three ping runs of ~20 s, pktgen).
#
# Passes when every part that ran measured something: ARP resolved and
# replies received in every ping run (and found in ours' timelines), the
# guest's pktgen sent and each backend received (both guests), and the
# adaptive app slept while idle. The rtts, CPU
# seconds and pps are reported, never judged: TCG speed, noisy; compare
# only within one boot.
. /host/scenarios/lib.sh
COUNT=${XDP_S11_PINGS:-200}
INTERVAL=${XDP_S11_INTERVAL:-0.1}
IDLE=${XDP_S11_IDLE:-10}
PINNED=${XDP_S11_PINNED:-0}
SECS=${XDP_PKTGEN_SECS:-10}
SIZE=${XDP_PKTGEN_SIZE:-60}
TXSECS=${XDP_S11_TXONLY_SECS:-6}
HZ=$(getconf CLK_TCK)
pingargs="xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=$COUNT xdp.interval=$INTERVAL xdp.rtt=1"
pktgenargs="xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=0 xdp.pktgen=$SECS:$SIZE"
SAMPLER=
unpin() { xl vcpu-pin Domain-0 all all 2>/dev/null; }
trap 'kill $SAMPLER 2>/dev/null; unpin; collect; cleanup; rmmod xen-netback 2>/dev/null' EXIT

# What the scheduler has to share: pCPUs, Dom0's vCPUs, the scheduler and
# its rate limit (a vCPU runs at least that long once scheduled).
{ xl info | grep -E '^(nr_cpus|xen_scheduler|xen_commandline)'; xl sched-credit2 -s 2>&1; xl vcpu-list; } > $S/xen-sched.txt
cat $S/xen-sched.txt

# vcpu_time <snapshot> <domain> <vcpu>: Xen's CPU seconds of that vCPU
vcpu_time() { awk -v d=$2 -v v=$3 '$1 == d && $3 == v {print $6}' $1; }
# snap <file>: Dom0's uptime, the steal time of its CPU 1 (ticks: the
# poller's vCPU runnable but not running) and xl vcpu-list
snap() { { echo "uptime $(up)"; awk '$1 == "cpu1" {print "steal1", $9}' /proc/stat; xl vcpu-list; } > $1; }
# steal1_ms <snapshot 0> <snapshot 1>: Dom0 CPU 1's steal between them
steal1_ms() { echo $(( ($(sed -n 's/^steal1 //p' $2) - $(sed -n 's/^steal1 //p' $1)) * 1000 / HZ )); }
# sampler <file>: xl vcpu-list once a second until killed ($SAMPLER)
sampler() { while :; do echo "== $(up)"; xl vcpu-list; sleep 1; done > $1 2>&1 & SAMPLER=$!; }

# ping_run <tag> <label>: the stock guest s11-<tag> pings 10.0.0.1 through
# whichever backend is up (for the kernel's, $KERNEL_VIF=1 addresses its
# vif); records a row of $S/rtt.md and of $S/sched.md. Leaves the guest
# running (idle) for the caller.
ping_run() {
	tag=$1 label=$2
	domu=s11-$tag
	guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" "$pingargs"
	create_guest $domu
	[ "${KERNEL_VIF:-0}" = 1 ] && kernel_vif_up $domid 10.0.0.1/24
	[ -z "${PIN_GUEST:-}" ] || { xl vcpu-pin $domu 0 $PIN_GUEST; note "guest vCPU pinned to pCPU $PIN_GUEST"; }
	wait_guest $domu 'DOMU-STEAL before' ${BPID:-}
	snap $S/vcpu-$tag-0.txt; sampler $S/vcpu-samples-$tag.txt
	wait_guest $domu DOMU-DONE ${BPID:-}
	kill $SAMPLER; SAMPLER=
	snap $S/vcpu-$tag-1.txt
	grep -E 'DOMU-|packets transmitted|rtt ' $con
	cp $con $S/console-$domu.log
	grep -q 'DOMU-RESULT arp=ok' $con || problem "$label: ARP for 10.0.0.1 not resolved"
	res=$(grep 'DOMU-RESULT ping' $con)
	tx=$(echo "$res" | sed -n 's/.*transmitted=\([0-9]*\).*/\1/p')
	rx=$(echo "$res" | sed -n 's/.*received=\([0-9]*\).*/\1/p')
	[ "${rx:-0}" -gt 0 ] || problem "$label: no echo reply of ${tx:-0}"
	# the rtts iputils printed, sorted: min, median, p99 (nearest rank), max
	# and how many exceeded 10 and 100 ms
	sed -n 's/.*icmp_seq=[0-9]* .*time=\([0-9.]*\) ms.*/\1/p' $con | sort -n > $S/rtt-$tag.txt
	echo "| $label | ${tx:-0} | ${rx:-0} | $((${tx:-0} - ${rx:-0})) | $(awk '
		{ v[NR] = $1; if ($1 > 10) a++; if ($1 > 100) b++ }
		END {
			if (NR == 0) { print "- | - | - | - | 0 | 0 |"; exit }
			p = int(NR * 0.99); if (p < NR * 0.99) p++
			printf "%s | %s | %s | %s | %d | %d |\n", v[1], v[int((NR + 1) / 2)], v[p], v[NR], a, b
		}' $S/rtt-$tag.txt)" >> $S/rtt.md
	# Xen's view over the pings: CPU seconds of each vCPU, the guest's
	# steal, and in the 1-s samples how often the guest's vCPU was found
	# runnable but not running ("-") and how often Dom0's vCPU 1 (the
	# poller's) was running
	set -- $(sed -n 's/.*DOMU-STEAL \(before\|after\) \([0-9]*\) uptime=\([0-9.]*\).*/\2 \3/p' $con)
	steal_ms=$(( (${3:-0} - ${1:-0}) * 1000 / HZ )); pwall=$(awk "BEGIN{print ${4:-0} - ${2:-0}}")
	f0=$S/vcpu-$tag-0.txt f1=$S/vcpu-$tag-1.txt
	d() { awk "BEGIN{printf \"%.1f\", $(vcpu_time $f1 $1 $2) - $(vcpu_time $f0 $1 $2)}"; }
	samples=$(grep -c '^==' $S/vcpu-samples-$tag.txt)
	# (xl's state: "r--" running, "-b-" blocked, "---" runnable, waiting)
	gwait=$(awk -v d=$domu '$1 == d && $5 == "---"' $S/vcpu-samples-$tag.txt | wc -l)
	d1run=$(awk '$1 == "Domain-0" && $3 == 1 && $5 ~ /^r/' $S/vcpu-samples-$tag.txt | wc -l)
	echo "| $label | $(awk "BEGIN{printf \"%.1f\", $(sed -n 1p $f1 | cut -d' ' -f2) - $(sed -n 1p $f0 | cut -d' ' -f2)}") | $(d Domain-0 0) | $(d Domain-0 1) | $(d $domu 0) | $steal_ms ms in ${pwall} s | $(steal1_ms $f0 $f1) ms | $gwait/$samples | $d1run/$samples |" >> $S/sched.md
}

# timeline <tag> <label>: ping-timeline.awk's summary of ping run <tag>
# (its backend stopped: the timeline is written), a row of $S/timeline.md;
# the late replies' longest legs (to us/in us/back) in $LATE_LEGS
timeline() {
	line=$(awk -v table=$S/timeline-$1-replies.txt -f /host/scenarios/ping-timeline.awk \
		$S/timeline-$1.txt $S/console-s11-$1.log) || problem "$2: $line"
	note "$2: $line"
	echo "| $2 | ${line#timeline of } |" >> $S/timeline.md
	LATE_LEGS=$(echo "$line" | sed -n 's/.*longest leg to us \([0-9]*\), in us \([0-9]*\), back \([0-9]*\).*/\1\/\2\/\3/p')
	LATE_LEGS=${LATE_LEGS:-none late}
}

# idle_cpu <tag> <label> <pid> [app log]: the backend's CPU over $IDLE s with the
# guest connected and idle; a row of $S/cpu.md. With the app's log, also the
# CPU its stats lines report over that spell and the sleeps they count.
idle_cpu() {
	tag=$1 label=$2 pid=$3 ilog=${4:-}
	t0=$(up); c0=$(cpu_ticks $pid); l0=$(cat ${ilog:-/dev/null} | wc -l); snap $S/idle-$tag-0.txt
	sleep $IDLE
	t1=$(up); c1=$(cpu_ticks $pid); snap $S/idle-$tag-1.txt
	secs=$(awk "BEGIN{printf \"%.1f\", $t1 - $t0}")
	proc=$(awk "BEGIN{printf \"%.2f\", ($c1 - $c0) / $HZ}")
	dom0v1=$(awk "BEGIN{printf \"%.1f\", $(vcpu_time $S/idle-$tag-1.txt Domain-0 1) - $(vcpu_time $S/idle-$tag-0.txt Domain-0 1)}")
	app=- sleeps=-
	if [ -n "$ilog" ]; then
		set -- $(tail -n +$((l0 + 1)) $ilog | awk '$1 == "rx-pps" { n++; s += $6; c += $8 } END { printf "%.2f %d %d\n", c / 100, s, n }')
		app="$1 ($3 lines)" sleeps=$2
		IDLE_SLEEPS=$2
	fi
	echo "| $label | $secs | $proc | $app | $sleeps | $dom0v1 |" >> $S/cpu.md
}

: > $S/rtt.md; : > $S/sched.md; : > $S/cpu.md; : > $S/timeline.md

# (a) ours polling: xen-adaptive-fwd that never sleeps (on Dom0's CPU 1,
# as testpmd's forwarding lcore), and (p) the same with the guest kept off
# the poller's pCPU: comparisons
if comparing; then
	label="ours polling (xen-adaptive-fwd --idle-polls 0)"
	start_adaptive $S/polling-icmpecho.log s11a icmpecho --vdev $(ours_vdev s11-poll) \
		-- --idle-polls 0 --timeline $S/timeline-poll.txt
	BPID=$ADAPTIVE_PID
	ping_run poll "$label"
	idle_cpu poll "$label" $ADAPTIVE_PID $S/polling-icmpecho.log
	stop_adaptive
	note "xen-adaptive-fwd polling icmpecho: $ADAPTIVE_JSON"
	timeline poll "$label"
	poll_legs=$LATE_LEGS
	timeout 60 xl destroy $domu

	if [ "$PINNED" = 1 ]; then
		label="ours polling, guest pinned away"
		xl vcpu-pin Domain-0 0 0; xl vcpu-pin Domain-0 1 1
		start_adaptive $S/pinned-icmpecho.log s11p icmpecho --vdev $(ours_vdev s11-pin) \
			-- --idle-polls 0 --timeline $S/timeline-pin.txt
		BPID=$ADAPTIVE_PID PIN_GUEST=0
		ping_run pin "$label"
		PIN_GUEST=
		stop_adaptive
		timeline pin "$label"
		timeout 60 xl destroy $domu
		unpin
	fi
fi

# (b) ours adaptive: xen-adaptive-fwd icmpecho (on Dom0's CPU 1 too)
label="ours adaptive (xen-adaptive-fwd icmpecho)"
IDLE_SLEEPS=0
start_adaptive $S/adaptive-icmpecho.log s11b icmpecho --vdev $(ours_vdev s11-adapt) \
	-- --timeline $S/timeline-adapt.txt
BPID=$ADAPTIVE_PID
ping_run adapt "$label"
idle_cpu adapt "$label" $ADAPTIVE_PID $S/adaptive-icmpecho.log
stop_adaptive
note "xen-adaptive-fwd icmpecho: $ADAPTIVE_JSON"
timeline adapt "$label"
adapt_legs=$LATE_LEGS
timeout 60 xl destroy $domu
[ "${IDLE_SLEEPS:-0}" -gt 0 ] || problem "xen-adaptive-fwd did not sleep in $IDLE idle seconds"
[ -n "$ADAPTIVE_JSON" ] || problem "xen-adaptive-fwd icmpecho printed no summary"

# (d, ours polling) pktgen into testpmd rxonly: a comparison
if comparing; then
	domu=s11-pg-poll
	start_backend s11dp rxonly --vdev $(ours_vdev $domu)
	guest_pktgen $domu "$pktgenargs" $TESTPMD_PID
	poll_sent=$PG_SENT poll_usec=$PG_USEC
	stop_testpmd
	sed -n '/Forward statistics for port 0/,/^ *+\{10,\}/p' $S/testpmd.log
	mv $S/testpmd.log $S/testpmd-pktgen.log
	poll_rx=$(port_count $S/testpmd-pktgen.log 0 RX); poll_rx=${poll_rx:-0}
	timeout 60 xl destroy $domu
	[ "$poll_sent" -gt 0 ] && [ "$poll_usec" -gt 0 ] || problem "ours polling: pktgen sent nothing"
	[ "$poll_rx" -gt 0 ] || problem "ours polling: testpmd received nothing of $poll_sent"
fi

# (d, ours adaptive) pktgen into xen-adaptive-fwd rxonly
domu=s11-pg-ours
start_adaptive $S/adaptive-rxonly.log s11d rxonly --vdev $(ours_vdev $domu)
guest_pktgen $domu "$pktgenargs" $ADAPTIVE_PID
ours_sent=$PG_SENT ours_usec=$PG_USEC
stop_adaptive
note "xen-adaptive-fwd rxonly: $ADAPTIVE_JSON"
ours_rx=$(adaptive_field rx); ours_rx=${ours_rx:-0}
timeout 60 xl destroy $domu
[ "$ours_sent" -gt 0 ] && [ "$ours_usec" -gt 0 ] || problem "ours: pktgen sent nothing"
[ "$ours_rx" -gt 0 ] || problem "ours: xen-adaptive-fwd received nothing of $ours_sent"

# (e, ours) the DPDK guest's txonly into xen-adaptive-fwd rxonly: the
# median of its per-second rx-pps lines
domu=s11-dp-ours
start_adaptive $S/adaptive-dpdk.log s11e rxonly --vdev $(ours_vdev $domu)
guest_cfg $domu initrd-dpdk.gz 256 "$(dpdk_vif_line)" "xdp.run=txonly:$TXSECS"
create_guest $domu
wait_guest $domu DOMU-DONE $ADAPTIVE_PID
# a stats line past the last frame
sleep 2
stop_adaptive
grep -E 'DOMU-(RESULT|NETFRONT|TESTPMD)' $con
note "xen-adaptive-fwd rxonly, DPDK guest: $ADAPTIVE_JSON"
dp_ours_sent=$(txonly_field tx) dp_ours_got=$(adaptive_field rx)
dp_ours_pps=$(awk '$1 == "rx-pps" { print $2 }' $S/adaptive-dpdk.log | median_rate)
timeout 60 xl destroy $domu
[ "${dp_ours_sent:-0}" -gt 0 ] || problem "ours, DPDK guest: the guest sent nothing"
[ "${dp_ours_got:-0}" -gt 0 ] || problem "ours, DPDK guest: xen-adaptive-fwd received nothing of ${dp_ours_sent:-0}"

# (c), (d), (e) the kernel's xen-netback: comparisons; it claims every vif
# from then on (unloaded at exit)
if comparing; then
	modprobe xen-netback || fail "modprobe xen-netback"
	BPID=
	KERNEL_VIF=1
	ping_run kernel "kernel xen-netback"
	timeout 60 xl destroy $domu

	# (d, kernel) pktgen into the kernel's xen-netback
	domu=s11-pg-kernel
	guest_pktgen $domu "$pktgenargs"
	kern_sent=$PG_SENT kern_usec=$PG_USEC kern_rx=$(vif_rx $domid)
	timeout 60 xl destroy $domu
	[ "$kern_sent" -gt 0 ] && [ "$kern_usec" -gt 0 ] || problem "kernel: pktgen sent nothing"
	[ "${kern_rx:-0}" -gt 0 ] || problem "kernel: vif received nothing of $kern_sent"

	# (e, kernel) the DPDK guest's txonly into the kernel's xen-netback
	domu=s11-dp-kernel
	kernel_txonly $domu "xdp.run=txonly:$TXSECS"
	dp_kern_sent=$TXONLY_SENT dp_kern_got=$TXONLY_GOT dp_kern_pps=$TXONLY_PPS
	timeout 60 xl destroy $domu
	[ "${dp_kern_sent:-0}" -gt 0 ] || problem "kernel, DPDK guest: the guest sent nothing"
	[ "${dp_kern_got:-0}" -gt 0 ] || problem "kernel, DPDK guest: vif received nothing of ${dp_kern_sent:-0}"
fi

echo
echo "rtt of $COUNT 56-byte pings, one every ${INTERVAL}s (ms; >10, >100: replies slower than that):"
echo "| backend | sent | received | lost | min | median | p99 | max | >10 ms | >100 ms |"
echo "|---|---|---|---|---|---|---|---|---|---|"
cat $S/rtt.md
echo
echo "where ours spent each reply's rtt (ms; to us: the guest's send to our Rx burst; in us: to the start of our transmit call; back: from there to ping's receive; the clock offset from the fastest tenth; per reply, with the transmit call's length, in timeline-<run>-replies.txt):"
echo "| backend | timeline |"
echo "|---|---|"
cat $S/timeline.md
echo
echo "backend CPU with the guest connected and idle (s; the app's: the sum of its stats lines; Dom0 vCPU 1: Xen's count for the vCPU the backend runs on):"
echo "| backend | idle seconds | CPU seconds (/proc) | CPU seconds (app) | sleeps | Dom0 vCPU 1 s (xl) |"
echo "|---|---|---|---|---|---|"
cat $S/cpu.md
echo
echo "Xen's view over the pings (vCPU CPU seconds from xl vcpu-list; steal: runnable, waiting for a pCPU, as the guest's and Dom0's kernels count it; samples: 1 s xl vcpu-list):"
echo "| backend | wall s | Dom0 vCPU0 s | Dom0 vCPU1 s | guest vCPU s | guest steal | Dom0 vCPU1 steal | guest vCPU runnable, not running | Dom0 vCPU1 running |"
echo "|---|---|---|---|---|---|---|---|---|"
cat $S/sched.md
echo
echo "pktgen, $SIZE-byte frames for ${SECS}s:"
echo "| backend | guest sent | guest pps | backend received | received pps | received/sent |"
echo "|---|---|---|---|---|---|"
pktgen_row "ours polling (testpmd rxonly)" $poll_sent $poll_usec $poll_rx
pktgen_row "ours adaptive (xen-adaptive-fwd rxonly)" $ours_sent $ours_usec $ours_rx
pktgen_row "kernel xen-netback" $kern_sent $kern_usec $kern_rx
echo
echo "DPDK guest (our netfront, testpmd txonly, 64-byte frames) for ${TXSECS}s:"
echo "| backend | guest sent | backend received | received pps (median of 1 s) |"
echo "|---|---|---|---|"
echo "| ours adaptive (xen-adaptive-fwd rxonly) | ${dp_ours_sent:-0} | ${dp_ours_got:-0} | ${dp_ours_pps:-0} |"
comparing && echo "| kernel xen-netback | ${dp_kern_sent:-0} | ${dp_kern_got:-0} | ${dp_kern_pps:-0} |"
[ -z "$problems" ] || fail "$problems"
comparing || pass "rtt max (ms) adaptive $(tail -1 $S/rtt-adapt.txt); replies over 10 ms by longest leg (to us/in us/back): adaptive $adapt_legs; idle, it slept $IDLE_SLEEPS times; Linux pktgen $(pps $ours_rx $ours_usec) pps received of $(pps $ours_sent $ours_usec) sent; DPDK guest ${dp_ours_pps:-0} pps (median of 1 s); polling and the kernel's xen-netback $NOT_COMPARED"
# pg_ratio <received> <usec>: that backend's received pps over the kernel's
pg_ratio() { awk "BEGIN{printf \"%.2f\", ($1 / $2) / ($kern_rx / $kern_usec)}"; }
pass "rtt max (ms) polling $(tail -1 $S/rtt-poll.txt), adaptive $(tail -1 $S/rtt-adapt.txt), kernel $(tail -1 $S/rtt-kernel.txt); replies over 10 ms by longest leg (to us/in us/back): polling $poll_legs, adaptive $adapt_legs; idle adaptive slept $IDLE_SLEEPS times; pps ours/kernel: Linux pktgen polling $(pg_ratio $poll_rx $poll_usec), adaptive $(pg_ratio $ours_rx $ours_usec), DPDK guest adaptive $(ratio $dp_ours_pps $dp_kern_pps)"
