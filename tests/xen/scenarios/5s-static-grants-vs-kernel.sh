# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 5s: our netfront in a DPDK guest against our netback in Dom0
# (testpmd at both ends), with static grants, 64-byte frames, and what the
# netback's zero copy does with 1500-byte frames, in one boot.
# (a) guest -> Dom0: the guest's txonly into Dom0's rxonly, then (c)
# Dom0 -> guest: Dom0's testpmd restarted in txonly (so the backend also
# goes away and comes back under a guest that stays up) into the running
# guest's rxonly, each for XDP_RUN_SECS (default 10), with static grants
# (the netfront's default, said explicitly: the netback keeps the guest's
# buffer pages mapped and copies with memcpy).
#
# (f) zero copy: a fresh DPDK guest (static grants on) sends 1500-byte
# frames (XDP_ZC_SIZE) into our netback under testpmd rxonly for
# XDP_ZC_SECS (default 5) with zero_copy=1: the netback lends the guest's
# mapped pages to rxonly instead of copying them.
#
# With XDP_COMPARE=1, the same boot also runs what only puts figures
# beside these: (b) the pair again with xdp.static_grants=0 (grant-copy
# hypercalls), both ways; (f) again with the default zero_copy=0, a fresh
# guest each time, so that both runs start alike and nothing waits on a
# backend coming back; then the kernel's xen-netback: (d) the same DPDK
# guest's txonly, counted on the Dom0 end of the vif (scenario 11 has a
# stock Linux guest's pktgen into it), and (e) the other direction, Dom0's
# kernel pktgen out of the vif of a stock Linux guest, counted by that
# guest (eth0's rx_packets over XDP_RUN_SECS inside the flood: what
# arrived, where Dom0's count would include what the netback dropped),
# beside our Dom0 -> DPDK guest. The kernel's runs come last: once its
# xen-netback is loaded it claims every vif.
#
# Passes on correctness only: traffic in every phase; between our PMDs
# nothing lost (what one side sent, the other received); with static
# grants the netback's static_packets counting the traffic and its
# grant-copy calls ~0 (at most 1 per 100 packets); without, static_packets
# 0 and grant copies; the Linux guest of (e) received something; in (f)
# the netback lent packets with zero_copy=1 and none without, and its
# testpmd stayed up and closed its port on SIGINT. The rates
# (Dom0's median per-second receive or send rate while traffic flowed; for
# (e) the guest's, as Dom0's pktgen counts what the netback then drops; the
# counts over the whole run beside them) and their ratios are reported,
# never judged: TCG speed, compare only within one boot.
. /host/scenarios/lib.sh
SECS=${XDP_RUN_SECS:-10}
# the guest's rxonly outlasts Dom0's restart (~7 s) and txonly run; it
# ends 6 s after the last frame (xdp.run's idle end), not at this limit
SLACK=${XDP_RX_SLACK:-40}
SIZE=${XDP_PKTGEN_SIZE:-64}
# (f): a frame the netback may lend (256 B or more) that fits one page and
# one mbuf on both ends; 5 s gives the median 3 whole seconds or more, and
# the guest's boot costs more than that anyway (CI runs this boot)
ZSIZE=${XDP_ZC_SIZE:-1500}
ZSECS=${XDP_ZC_SECS:-5}
SAMPLER=
trap 'kill $SAMPLER 2>/dev/null; collect; cleanup' EXIT
# the netback's counters Dom0's testpmd shows every second
NB_X=rx_q0_packets,rx_q0_static_packets,rx_q0_static_grants,rx_q0_static_grant_maps,rx_q0_grant_copy_calls,rx_q0_notifications_sent,tx_q0_packets,tx_q0_static_packets,tx_q0_grant_copy_calls,tx_q0_notifications_sent
# and the netfront's, shown by the guest's testpmd (DOMU-XSTAT lines)
NF_X=rx_q0_packets,rx_q0_zero_copy_packets,rx_q0_static_grants,tx_q0_packets,tx_q0_zero_copy_packets

# xstat <log> <name> [max]: the last (with max: the largest) value of an
# xstat in testpmd's periodic statistics (0 when never shown)
xstat() {
	grep -E "^ +$2 +[0-9]" $1 | awk -v max="${3:-}" \
		'{ l = $2; if ($2 + 0 > n + 0) n = $2 } END { print (max != "" ? n + 0 : l + 0) }'
}
# The netback's hypercall-class counters and static grants of testpmd log
# $2, both directions of the queue pair, as <$1>_gcc, _ns, _grants, _maps.
set_backend_xstats() {
	set_ $1_gcc $(($(xstat $2 rx_q0_grant_copy_calls) + $(xstat $2 tx_q0_grant_copy_calls)))
	set_ $1_ns $(($(xstat $2 rx_q0_notifications_sent) + $(xstat $2 tx_q0_notifications_sent)))
	set_ $1_grants $(xstat $2 rx_q0_static_grants max)
	set_ $1_maps $(xstat $2 rx_q0_static_grant_maps)
}
# guest_xstat <mode> <name>: the netfront's xstat after the guest's run
guest_xstat() { sed -n "s/.*DOMU-XSTAT $1 $2 last=\([0-9]*\).*/\1/p" $con | head -1; }
guest_xstat_max() { sed -n "s/.*DOMU-XSTAT $1 $2 .*max=\([0-9]*\).*/\1/p" $con | head -1; }
# testpmd_rate <log> Rx|Tx: median of testpmd's per-second <dir>-pps figures
testpmd_rate() { awk -v k="$2-pps:" '$1 == k { print $2 }' $1 | median_rate; }
per() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN{ if (b + 0 > 0) printf "%.3f", a / b; else print "-" }'; }
avg() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN{ if (b + 0 > 0) printf "%.0f", a / b; else print 0 }'; }
set_() { eval "$1=\$2"; }

# ours_pair <pair> <static_grants 0|1>: a DPDK guest s5s-<pair> against our
# netback, guest -> Dom0 then Dom0 -> guest. Sets <pair>_<figure> for the
# table (f2b: guest -> Dom0, b2f: Dom0 -> guest). Not "tag": start_backend
# sets that.
ours_pair() {
	pair=$1 sg=$2 domu=s5s-$1
	vdev=$(ours_vdev $domu)
	BACKEND_APP_ARGS="--display-xstats=$NB_X"
	start_backend s5s$pair rxonly --vdev $vdev
	guest_cfg $domu initrd-dpdk.gz 256 "$(dpdk_vif_line)" \
		"xdp.run=txonly:$SECS,rxonly:$((SECS + SLACK)):6 xdp.static_grants=$sg xdp.xstats=$NF_X"
	create_guest $domu
	wait_guest $domu 'DOMU-RESULT testpmd-txonly' $TESTPMD_PID
	# Dom0's per-second statistics past the last frame
	sleep 2
	stop_testpmd
	log=$S/testpmd-$pair-rxonly.log; mv $S/testpmd.log $log
	grep -E 'xen_netback|ERR|WARN|rror' $log | head -30
	tx=$(txonly_field tx)
	secs=$(txonly_field secs)
	rx=$(port_count $log 0 RX)
	pk=$(xstat $log rx_q0_packets)
	set_ ${pair}_f2b_sent ${tx:-0}
	set_ ${pair}_f2b_got ${rx:-0}
	set_ ${pair}_f2b_pps $(testpmd_rate $log Rx)
	set_ ${pair}_f2b_avg $(avg ${rx:-0} ${secs:-0})
	set_ ${pair}_f2b_pk $pk
	set_ ${pair}_f2b_static $(xstat $log rx_q0_static_packets)
	set_backend_xstats ${pair}_f2b $log
	set_ ${pair}_f2b_zc $(guest_xstat txonly tx_q0_zero_copy_packets)
	set_ ${pair}_f2b_nfgrants $(guest_xstat_max txonly rx_q0_static_grants)
	note "$pair guest->Dom0: guest sent ${tx:-?}, Dom0 received ${rx:-?} in ${secs:-?}s"

	wait_guest $domu 'DOMU-TESTPMD-(UP|EXITED) rxonly'
	grep -q 'DOMU-TESTPMD-EXITED rxonly' $con && { tail -40 $con; fail "$pair: testpmd rxonly in the guest exited"; }
	start_backend s5s${pair}b txonly --vdev $vdev
	t=$(up)
	sleep $SECS
	secs=$(since $t)
	stop_testpmd
	log=$S/testpmd-$pair-txonly.log; mv $S/testpmd.log $log
	grep -E 'xen_netback|ERR|WARN|rror' $log | head -30
	grep -q 'DOMU-RESULT testpmd-rxonly' $con &&
		problem "$pair: the guest's rxonly ended before Dom0's txonly (raise XDP_RX_SLACK, now $SLACK)"
	wait_guest $domu DOMU-DONE
	grep -E 'DOMU-(RESULT|XSTAT|NETFRONT|TESTPMD|GNTALLOC)' $con
	tx=$(port_count $log 0 TX)
	rx=$(sed -n 's/.*DOMU-RESULT testpmd-rxonly .*rx=\([0-9]*\).*/\1/p' $con)
	set_ ${pair}_b2f_sent ${tx:-0}
	set_ ${pair}_b2f_got ${rx:-0}
	set_ ${pair}_b2f_pps $(testpmd_rate $log Tx)
	set_ ${pair}_b2f_avg $(avg ${tx:-0} $secs)
	set_ ${pair}_b2f_pk $(xstat $log tx_q0_packets)
	set_ ${pair}_b2f_static $(xstat $log tx_q0_static_packets)
	set_backend_xstats ${pair}_b2f $log
	set_ ${pair}_b2f_zc $(guest_xstat rxonly rx_q0_zero_copy_packets)
	set_ ${pair}_b2f_nfgrants $(guest_xstat_max rxonly rx_q0_static_grants)
	note "$pair Dom0->guest: Dom0 sent ${tx:-?} in ${secs}s, guest received ${rx:-?}"
	timeout 60 xl destroy $domu

	# correctness
	for d in f2b b2f; do
		eval "sent=\$${pair}_${d}_sent got=\$${pair}_${d}_got pk=\$${pair}_${d}_pk st=\$${pair}_${d}_static gcc=\$${pair}_${d}_gcc grants=\$${pair}_${d}_grants"
		[ "$sent" -gt 0 ] || problem "$pair $d: nothing sent"
		[ "$sent" = "$got" ] || problem "$pair $d: sent $sent, received $got"
		if [ $sg = 1 ]; then
			[ "$st" -gt 0 ] || problem "$pair $d: static grants on, static_packets 0 (grants mapped: $grants)"
			[ $((gcc * 100)) -le "$pk" ] || problem "$pair $d: static grants on, $gcc grant-copy calls for $pk packets"
		else
			[ "$st" = 0 ] || problem "$pair $d: static grants off, static_packets $st"
			[ "$gcc" -gt 0 ] || problem "$pair $d: static grants off, no grant-copy calls"
			[ "$grants" = 0 ] || problem "$pair $d: static grants off, $grants grants mapped"
		fi
	done
}

# zc_run <name> <zero_copy 0|1>: (f), a DPDK guest s5s-<name> (static
# grants, the netfront's default, said explicitly) sends $ZSIZE-byte frames
# for $ZSECS s into our netback with zero_copy=<0|1> under testpmd rxonly,
# which frees each mbuf at once: the software-only application zero_copy=1
# is for. Sets <name>_<figure> for the table.
zc_run() {
	zn=$1 zc=$2 domu=s5s-$1
	BACKEND_APP_ARGS="--display-xstats=$NB_X,rx_q0_zero_copy_packets,rx_q0_zero_copy_slots"
	start_backend s5s$zn rxonly --vdev "$(ours_vdev $domu),zero_copy=$zc"
	guest_cfg $domu initrd-dpdk.gz 256 "$(dpdk_vif_line)" \
		"xdp.run=txonly:$ZSECS xdp.txpkts=$ZSIZE xdp.static_grants=1 xdp.xstats=$NF_X"
	create_guest $domu
	# not bounded by Dom0's testpmd: the guest's run ends on its own, and a
	# netback that died under it is a problem reported with the figures
	wait_guest $domu 'DOMU-RESULT testpmd-txonly'
	# Dom0's per-second statistics past the last frame
	sleep 2
	alive=1; kill -0 $TESTPMD_PID 2>/dev/null || alive=0
	stop_testpmd
	rc=$TESTPMD_RC
	log=$S/testpmd-$zn-rxonly.log; mv $S/testpmd.log $log
	grep -E 'xen_netback|ERR|WARN|rror' $log | head -30
	grep -E 'DOMU-(RESULT|XSTAT|NETFRONT|TESTPMD|GNTALLOC)' $con
	tx=$(txonly_field tx)
	secs=$(txonly_field secs)
	rx=$(port_count $log 0 RX)
	set_ ${zn}_sent ${tx:-0}
	set_ ${zn}_got ${rx:-0}
	set_ ${zn}_pps $(testpmd_rate $log Rx)
	set_ ${zn}_avg $(avg ${rx:-0} ${secs:-0})
	set_ ${zn}_pk $(xstat $log rx_q0_packets)
	set_ ${zn}_static $(xstat $log rx_q0_static_packets)
	# the largest shown: a counter, but the check must see any loan
	lent=$(xstat $log rx_q0_zero_copy_packets max)
	set_ ${zn}_zc $lent
	set_ ${zn}_slots "$(xstat $log rx_q0_zero_copy_slots max) / $(xstat $log rx_q0_zero_copy_slots)"
	note "$zn guest->Dom0 ($ZSIZE B, zero_copy=$zc): guest sent ${tx:-?}, Dom0 received ${rx:-?} in ${secs:-?}s, lent $lent; Dom0's testpmd rc=$rc"
	timeout 60 xl destroy $domu

	# correctness, none of it timing: the netback stayed up through the
	# run and went down cleanly on SIGINT (testpmd prints "Bye..." once its
	# ports are closed; 130 if it re-raises SIGINT after that), received
	# the guest's frames, nothing lost, and lent only when asked to
	[ $alive = 1 ] || problem "$zn: Dom0's testpmd (netback zero_copy=$zc) died under the guest's traffic"
	case $rc in 0|130) ;; *) problem "$zn: Dom0's testpmd exited with status $rc on SIGINT" ;; esac
	grep -q '^Bye' $log || problem "$zn: Dom0's testpmd did not close its port (no 'Bye...')"
	[ "${rx:-0}" -gt 0 ] || problem "$zn: Dom0 received none of the guest's ${tx:-0} frames"
	[ "${tx:-0}" = "${rx:-0}" ] || problem "$zn: sent ${tx:-0}, received ${rx:-0}"
	if [ $zc = 1 ]; then
		[ "$lent" -gt 0 ] || problem "$zn: zero_copy=1, rx_q0_zero_copy_packets 0"
	else
		[ "$lent" = 0 ] || problem "$zn: zero_copy=0, rx_q0_zero_copy_packets $lent"
	fi
}

# compare_kernel: (d) and (e), only when comparing
compare_kernel() {
	# (d) the kernel's xen-netback under the DPDK guest's txonly (its netfront
	# asks for static grants; Linux netback answers NOT_SUPPORTED)
	kernel_netback
	# pktgen stopped and unloaded too: (e) loads it
	trap 'kill $SAMPLER 2>/dev/null; echo stop > /proc/net/pktgen/pgctrl 2>/dev/null; collect; cleanup; rmmod pktgen 2>/dev/null; rmmod xen-netback 2>/dev/null' EXIT
	domu=s5s-kdpdk
	kernel_txonly $domu "xdp.run=txonly:$SECS xdp.xstats=$NF_X"
	kd_sent=$TXONLY_SENT kd_got=$TXONLY_GOT kd_pps=$TXONLY_PPS
	kd_avg=$(avg ${kd_got:-0} ${TXONLY_SECS:-0})
	kd_nfgrants=$(guest_xstat_max txonly rx_q0_static_grants)
	kd_zc=$(guest_xstat txonly tx_q0_zero_copy_packets)
	timeout 60 xl destroy $domu
	[ "${kd_sent:-0}" -gt 0 ] || problem "kernel, DPDK guest: the guest sent nothing"
	[ "${kd_got:-0}" -gt 0 ] || problem "kernel, DPDK guest: vif received nothing of ${kd_sent:-0}"

	# (e) Dom0 -> a stock Linux guest through the kernel's xen-netback, the
	# counterpart of (c): Dom0's pktgen floods the vif from before the guest's
	# window opens until it closes; the guest counts what it received
	domu=s5s-krx
	guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" "xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=0 xdp.rxrate=$SECS"
	create_guest $domu
	kernel_vif_up $domid 10.0.0.1/24
	wait_guest $domu 'DOMU-RXRATE waiting'
	dom0_pktgen_start vif$domid.0 $SIZE 10.0.0.2 $(xenstore-read /local/domain/0/backend/vif/$domid/0/mac)
	wait_guest $domu 'DOMU-RESULT rxrate'
	set -- $(dom0_pktgen_stop vif$domid.0); ke_sent=${1:-0} ke_usec=${2:-0}
	ke_vif="tx_packets $(cat /sys/class/net/vif$domid.0/statistics/tx_packets) tx_dropped $(cat /sys/class/net/vif$domid.0/statistics/tx_dropped) rx_dropped $(cat /sys/class/net/vif$domid.0/statistics/rx_dropped)"
	wait_guest $domu DOMU-DONE
	grep -E 'DOMU-(RESULT|RXRATE|STAT)' $con
	ke_got=$(sed -n 's/.*DOMU-RESULT rxrate rx=\([0-9]*\).*/\1/p' $con)
	secs=$(sed -n 's/.*DOMU-RESULT rxrate .*secs=\([0-9.]*\).*/\1/p' $con)
	# the guest's samples are "uptime rx_packets", sample_vif's format
	sed -n 's/.*DOMU-RXSAMPLE \([0-9.]*\) \([0-9]*\).*/\1 \2/p' $con > $S/guest-krx.txt
	ke_pps=$(vif_rate $S/guest-krx.txt)
	ke_avg=$(avg ${ke_got:-0} ${secs:-0})
	ke_drop=$(sed -n 's/.*DOMU-STAT rx_dropped=\([0-9]*\).*/\1/p' $con)
	note "kernel Dom0->Linux guest: Dom0's pktgen sent $ke_sent in $ke_usec us (vif $ke_vif), guest received ${ke_got:-?} in ${secs:-?}s"
	timeout 60 xl destroy $domu
	[ "$ke_sent" -gt 0 ] || problem "kernel, Dom0 pktgen: Dom0 sent nothing"
	[ "${ke_got:-0}" -gt 0 ] || problem "kernel, Dom0 pktgen: the Linux guest received nothing of $ke_sent"
}

# (a), (c): static grants (the netfront's default, said explicitly)
ours_pair on 1
# (f): the netback's zero copy
zc_run zc1 1
if comparing; then
	# (b), (c): without static grants; (f) without zero copy
	ours_pair off 0
	zc_run zc0 0
	compare_kernel
fi

# pair_row <phase> <backend> <static grants> <pair>_<direction>: a row of
# the first table
pair_row() {
	v=$4
	eval "pps=\$${v}_pps a=\$${v}_avg sent=\$${v}_sent got=\$${v}_got pk=\$${v}_pk st=\$${v}_static gcc=\$${v}_gcc ns=\$${v}_ns grants=\$${v}_grants nfg=\$${v}_nfgrants"
	echo "| $1 | $2 | $3 | $pps | $a | $sent | $got | $st / $pk | $gcc | $ns | $(per $((gcc + ns)) $pk) | $grants / ${nfg:-?} |"
}
echo
echo "| phase | backend | static grants | pps (median of 1 s: Dom0's; e: the guest's) | pps (count / run) | sent | received | netback static_packets / packets (its last 1 s display, read in that order) | grant_copy_calls | notifications_sent | hcall/pkt | static_grants mapped (netback / netfront) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
pair_row "a guest->Dom0" ours on on_f2b
comparing && pair_row "b guest->Dom0" ours off off_f2b
pair_row "c Dom0->guest" ours on on_b2f
if comparing; then
	pair_row "c Dom0->guest" ours off off_b2f
	echo "| d guest->Dom0 | kernel, DPDK guest | asked | $kd_pps | $kd_avg | ${kd_sent:-0} | ${kd_got:-0} | - | - | - | - | - / ${kd_nfgrants:-?} |"
	echo "| e Dom0->guest | kernel, Dom0 pktgen -> Linux guest | - | $ke_pps | $ke_avg | $ke_sent | ${ke_got:-0} | - | - | - | - | - |"
	echo
	echo "e: sent is Dom0's pktgen over its whole run ($ke_usec us), received the guest's eth0 rx_packets over its ${secs:-?} s window inside it; vif$domid.0 $ke_vif, guest rx_dropped ${ke_drop:-?}"
	echo
	echo "| Dom0->guest, $SIZE B | pps (median of 1 s) | pps (count / run) | ours static / this |"
	echo "|---|---|---|---|"
	echo "| ours, static grants -> DPDK guest (c) | $on_b2f_pps | $on_b2f_avg | 1.00 |"
	echo "| ours, static_grants=0 -> DPDK guest (c) | $off_b2f_pps | $off_b2f_avg | $(ratio $on_b2f_pps $off_b2f_pps) |"
	echo "| kernel xen-netback -> Linux guest (e) | $ke_pps | $ke_avg | $(ratio $on_b2f_pps $ke_pps) |"
	echo
	echo "netfront zero-copy: on rxonly rx_q0_zero_copy_packets $on_b2f_zc of $on_b2f_got, off $off_b2f_zc of $off_b2f_got; txonly tx_q0_zero_copy_packets on $on_f2b_zc, off $off_f2b_zc, kernel ${kd_zc:-?}"
	echo "static grant maps (netback rx_q0_static_grant_maps): rxonly run on $on_f2b_maps off $off_f2b_maps; txonly run on $on_b2f_maps off $off_b2f_maps"
else
	echo
	echo "netfront zero-copy: rxonly rx_q0_zero_copy_packets $on_b2f_zc of $on_b2f_got; txonly tx_q0_zero_copy_packets $on_f2b_zc"
	echo "static grant maps (netback rx_q0_static_grant_maps): rxonly run $on_f2b_maps; txonly run $on_b2f_maps"
	echo "static_grants=0, zero_copy=0 and the kernel's xen-netback: $NOT_COMPARED"
fi
echo
echo "| f guest->Dom0, $ZSIZE B, static grants | pps (median of 1 s, Dom0's) | pps (count / run) | sent | received | netback zero_copy_packets (largest shown) / packets / static_packets (last 1 s display) | zero_copy_slots (largest / last shown) | zero_copy=1 / this |"
echo "|---|---|---|---|---|---|---|---|"
echo "| ours, zero_copy=1 | $zc1_pps | $zc1_avg | $zc1_sent | $zc1_got | $zc1_zc / $zc1_pk / $zc1_static | $zc1_slots | 1.00 |"
comparing && echo "| ours, zero_copy=0 | $zc0_pps | $zc0_avg | $zc0_sent | $zc0_got | $zc0_zc / $zc0_pk / $zc0_static | $zc0_slots | $(ratio $zc1_pps $zc0_pps) |"

ours="netback static_packets/packets $on_f2b_static/$on_f2b_pk and $on_b2f_static/$on_b2f_pk, grant_copy_calls $on_f2b_gcc and $on_b2f_gcc"
if comparing; then
	sum="64 B pps (Dom0, median of 1 s): guest->Dom0 static $on_f2b_pps, no-static $off_f2b_pps (x$(ratio $on_f2b_pps $off_f2b_pps)), kernel netback DPDK guest $kd_pps (static/kernel x$(ratio $on_f2b_pps $kd_pps)); Dom0->guest static $on_b2f_pps, no-static $off_b2f_pps (x$(ratio $on_b2f_pps $off_b2f_pps)), kernel netback -> Linux guest $ke_pps (static/kernel x$(ratio $on_b2f_pps $ke_pps)); $ours (no-static: $off_f2b_gcc, $off_b2f_gcc), hcall/pkt $(per $((on_f2b_gcc + on_f2b_ns)) $on_f2b_pk) vs $(per $((off_f2b_gcc + off_f2b_ns)) $off_f2b_pk); $ZSIZE B guest->Dom0: netback zero_copy=1 $zc1_pps, zero_copy=0 $zc0_pps (x$(ratio $zc1_pps $zc0_pps)), zero_copy_packets/packets/static_packets $zc1_zc/$zc1_pk/$zc1_static and $zc0_zc/$zc0_pk/$zc0_static; TCG"
else
	sum="64 B with static grants, nothing lost: guest->Dom0 ${on_f2b_got:-0} pkts, $on_f2b_pps pps; Dom0->guest (backend restarted under the guest) ${on_b2f_got:-0} pkts, $on_b2f_pps pps (Dom0, median of 1 s); $ours, hcall/pkt $(per $((on_f2b_gcc + on_f2b_ns)) $on_f2b_pk); $ZSIZE B guest->Dom0 with zero_copy=1: $zc1_pps pps, zero_copy_packets/packets/static_packets $zc1_zc/$zc1_pk/$zc1_static; TCG; comparisons $NOT_COMPARED"
fi
[ -z "$problems" ] || fail "$problems | $sum"
pass "$sum"
