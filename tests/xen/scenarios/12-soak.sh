# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 12: soak. Two stock Linux guests (s12-a, s12-b: their own MACs
# and addresses) ping our netback without end, one testpmd icmpecho with a
# port for each guest, claimed by name (domain=<name>): port 0 serves
# s12-a, port 1 s12-b. (The guest's pktgen runs only after its pings end:
# pings only.) For XDP_SOAK_SECS seconds (default 60) actions chosen by a
# seeded generator (XDP_SOAK_SEED, default the time; printed: the same seed
# replays the same choices) follow one another, the first three one of each
# kind in a random order:
#   reboot    xl reboot of a guest (it comes back under a new domain id)
#   recreate  xl destroy of a guest, then xl create
#   backend   kill -9 of the backend (nobody maps the guests' pages then:
#             xl debug-keys g), started again under both guests
# After each, traffic must flow again through both guests within
# XDP_SOAK_WAIT s (default 180): each port's RX count grows; then the
# backend maps 4 pages of /dev/xen/gntdev, the 2 rings of each guest. At
# the end, after a last check that both guests pass traffic:
#   - both guests destroyed under the running backend: its ports let the
#     vifs go and it maps nothing; mbufs of its pool neither free nor
#     cached (testpmd's dump_mempool) at most 64 a port (the spares an Rx
#     queue keeps: NETIF_BACK_SPARE_MBUFS), i.e. none held for a packet;
#   - the backend quits on SIGINT, exit status 0;
#   - no grant of any guest is in use (xl debug-keys g: a destroyed guest
#     held by a mapping would show), xl list has only Domain-0, and Dom0
#     has as many open event channels (lsevtchn 0) as before the soak.
# Reported: seed, duration, actions of each kind with the time traffic took
# to come back, backend restarts, and per guest the frames each port
# received and sent (echo requests and replies, ARP, IPv6), summed over the
# backends. The default is CI's short form; the long soak is
#   XDP_SOAK_SECS=1800 XEN_SCENARIO_LIMIT=2400 tests/xen/run-scenario.sh -b build 12
# (run-scenario.sh stops a scenario after XEN_SCENARIO_LIMIT s, default 900).
. /host/scenarios/lib.sh
trap 'collect; cleanup' EXIT
secs=${XDP_SOAK_SECS:-60}
wait_max=${XDP_SOAK_WAIT:-180}
seed=${XDP_SOAK_SEED:-$(date +%s)}
guests="s12-a s12-b"
note "soak: ${secs}s, seed $seed (XDP_SOAK_SEED=$seed replays it)"

# rnd <n>: R = the generator's next number in 0..n-1 (an LCG, in this shell)
RNG=$seed
rnd() { RNG=$(((RNG * 1103515245 + 12345) % 2147483648)); R=$((RNG / 65536 % $1)); }
rnd 2; rnd 2; rnd 2	# away from a small seed's first numbers
# add <var> <n>: var += n
add() { eval "$1=\$((\${$1:-0} + $2))"; }

# the interactive backend, both ports, tag s12-<n>
nb=0
backend_up() {
	nb=$((nb + 1))
	[ ! -f $S/testpmd.log ] || mv $S/testpmd.log $S/testpmd-$((nb - 1)).log
	start_backend_cli s12-$nb icmpecho --vdev $(ours_vdev s12-a 0) --vdev $(ours_vdev s12-b 1)
}
# stats_now: the ports' statistics, asked afresh (RX0 RX1 TX0 TX1)
stats_now() {
	n0=$(grep -c 'NIC statistics for port 1 ' $S/testpmd.log)
	backend_cmd "show port stats all"
	i=0; while [ $(grep -c 'NIC statistics for port 1 ' $S/testpmd.log) = $n0 ] && [ $i -lt 20 ]; do sleep 0.5; i=$((i + 1)); done
	sleep 0.5
	RX0=$(port_pkts 0 RX) RX1=$(port_pkts 1 RX) TX0=$(port_pkts 0 TX) TX1=$(port_pkts 1 TX)
}
# bank: add this backend's counts to the soak's (before it goes)
bank() { stats_now; add rx_a ${RX0:-0}; add rx_b ${RX1:-0}; add tx_a ${TX0:-0}; add tx_b ${TX1:-0}; }
# flowing_all <what>: each port's RX grows by more than 5 within $wait_max s;
# sets $took (s)
flowing_all() {
	t0=$(up); stats_now; a0=${RX0:-0} a1=${RX1:-0}
	end=$(awk "BEGIN{print $t0 + $wait_max}")
	while :; do
		sleep 1; stats_now
		[ "${RX0:-0}" -gt $((a0 + 5)) ] && [ "${RX1:-0}" -gt $((a1 + 5)) ] && break
		awk "BEGIN{exit !($(up) < $end)}" && continue
		for g in $guests; do tail -15 $CONSOLE_DIR/guest-$g.log; done
		tail -30 $S/testpmd.log; xl list
		fail "$1: traffic not back through both guests within ${wait_max}s (RX port 0: $a0 -> $RX0, port 1: $a1 -> $RX1)"
	done
	took=$(since $t0)
	note "$1: both guests pass traffic after ${took}s (RX port 0: $a0 -> $RX0, port 1: $a1 -> $RX1)"
}
# maps_ok <what>: the backend maps the 2 rings of each guest, nothing more
maps_ok() {
	m=$(backend_maps)
	[ "$m" = 4 ] || fail "$1: the backend maps $m gntdev pages, want 4 (2 rings of each guest)"
}

dom0_evtchns > $S/evtchn-before.txt
ev0=$(wc -l < $S/evtchn-before.txt)
note "Dom0 event channels before: $ev0, e.g."; head -3 $S/evtchn-before.txt
backend_up
i=0
for g in $guests; do
	i=$((i + 1))
	guest_cfg $g initrd.gz 128 "$(dpdk_vif_line 00:16:3e:00:12:0$i)" \
		"xdp.ip=10.0.0.1$i/24 xdp.peer=10.0.0.1 xdp.count=1000000 xdp.interval=0.05"
	create_guest $g
done
flowing_all "first boot (domains $(xl domid s12-a), $(xl domid s12-b))"
maps_ok "first boot"
note "with both guests connected: mbufs in use $(mbufs_in_use mb_pool_0), Dom0 event channels $(dom0_evtchns | wc -l)"

# the first three actions: one of each kind, shuffled
set -- reboot recreate backend
rnd 3; first=$(eval echo \${$((R + 1))}); rest=$(for k in "$@"; do [ $k = $first ] || echo $k; done)
rnd 2; [ $R = 0 ] && rest=$(echo $rest) || rest=$(echo $rest | awk '{print $2, $1}')
plan="$first $rest"
t_start=$(up); end_soak=$(awk "BEGIN{print $t_start + $secs}")
n=0
echo "# action guest took_s" > $S/actions.txt
while [ $n -lt 3 ] || awk "BEGIN{exit !($(up) < $end_soak)}"; do
	n=$((n + 1))
	if [ $n -le 3 ]; then set -- $plan; eval kind=\${$n}
	else rnd 3; set -- reboot recreate backend; eval kind=\${$((R + 1))}; fi
	rnd 2; set -- $guests; eval g=\${$((R + 1))}
	[ $kind = backend ] && g=-
	t=$(up)
	case $kind in
	reboot)
		d=$(xl domid $g)
		note "action $n: xl reboot $g (domain $d)"
		xl reboot $g > /dev/null || fail "action $n: xl reboot $g"
		d2=$(wait_domid_change $g $d) || fail "action $n: $g did not come back after xl reboot"
		note "$g: domain $d -> $d2 after $(since $t)s" ;;
	recreate)
		d=$(xl domid $g)
		note "action $n: xl destroy + xl create $g (domain $d)"
		xl destroy $g || fail "action $n: xl destroy $g"
		create_guest $g ;;
	backend)
		note "action $n: backend (pid $TESTPMD_PID) kill -9, restart"
		bank
		kill -9 $TESTPMD_PID; wait $TESTPMD_PID 2>/dev/null; TESTPMD_PID=
		ga=$(active_grants all)
		note "backend killed: grants of the guests in use: $ga"
		[ "$ga" = 0 ] || fail "action $n: the backend is gone, yet $ga grants of the guests are in use"
		backend_up ;;
	esac
	flowing_all "action $n ($kind $g)"
	maps_ok "action $n ($kind $g)"
	echo "$kind $g $(since $t)" >> $S/actions.txt
done
t_soak=$(since $t_start)
note "soak over after ${t_soak}s, $n actions"

# the end: traffic, then nothing left behind
flowing_all "end of soak"
maps_ok "end of soak"
bank
da=$(xl domid s12-a) db=$(xl domid s12-b)
released=$(grep -c 'vif removed by the toolstack' $S/testpmd.log)
for g in $guests; do xl destroy $g || fail "xl destroy $g"; done
i=0; while [ $(grep -c 'vif removed by the toolstack' $S/testpmd.log) -lt $((released + 2)) ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
[ $(grep -c 'vif removed by the toolstack' $S/testpmd.log) -ge $((released + 2)) ] || fail "the ports did not release the destroyed guests' vifs"
m=$(backend_maps)
mb=$(mbufs_in_use mb_pool_0)
note "guests destroyed (domains $da, $db): backend gntdev mappings $m, mbufs in use $mb (at most 128: 64 spares per Rx queue)"
[ "$m" = 0 ] || fail "guests destroyed, yet the backend maps $m gntdev pages"
[ "$mb" != "?" ] && [ "$mb" -le 128 ] || fail "guests destroyed, yet $mb mbufs of the pool are in use (want <= 128)"
stats_now
note "last backend's port statistics: port 0 RX $RX0 TX $TX0, port 1 RX $RX1 TX $TX1"
stop_testpmd; exec 7>&-
note "backend quit (SIGINT): rc=$TESTPMD_RC"
[ "$TESTPMD_RC" = 0 ] || fail "testpmd did not exit by itself on SIGINT (rc=$TESTPMD_RC)"
ga=$(active_grants all)
xl list > $S/xl-list-end.txt 2>&1
others=$(awk 'NR > 1 && $1 != "Domain-0"' $S/xl-list-end.txt)
i=0; while dom0_evtchns > $S/evtchn-after.txt; [ $(wc -l < $S/evtchn-after.txt) -gt $ev0 ] && [ $i -lt 20 ]; do sleep 0.5; i=$((i + 1)); done
ev1=$(wc -l < $S/evtchn-after.txt)
note "backend stopped, guests destroyed: grants of any guest in use $ga, Dom0 event channels $ev1 (before: $ev0)"
[ "$ga" = 0 ] || fail "$ga grants of destroyed guests still in use"
[ -z "$others" ] || { echo "$others"; fail "domains left after xl destroy"; }
[ "$ev1" -le "$ev0" ] || { diff $S/evtchn-before.txt $S/evtchn-after.txt; fail "Dom0 has $ev1 event channels open, $ev0 before the soak"; }

summary=$(awk 'NR > 1 { n[$1]++; s[$1] += $3; if ($3 > m[$1]) m[$1] = $3 }
	END { for (k in n) printf "%s %d (traffic back in %.1f s on average, %.1f s at most); ", k, n[k], s[k] / n[k], m[k] }' $S/actions.txt)
note "actions: $summary"
note "frames through the backend (all $nb backends): s12-a RX $rx_a TX $tx_a, s12-b RX $rx_b TX $tx_b"
pass "seed $seed, ${t_soak}s, $n actions: ${summary}$nb backends; s12-a RX $rx_a TX $tx_a, s12-b RX $rx_b TX $tx_b frames; end: 0 gntdev maps, $mb mbufs in use, 0 grants in use, event channels $ev1/$ev0"
