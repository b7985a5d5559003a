# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 9: our netback holds a guest to its vif's rate. A stock Linux
# DomU whose xl vif line carries rate=XDP_RATE (default 2MB/s@50ms; libxl
# writes the backend key rate = "bytes,usec") sends XDP_PKTGEN_SIZE-byte
# frames (default 1500) with the kernel's pktgen as fast as it can into our
# netback (testpmd rxonly), through three phases of one pktgen run, each
# measured over XDP_RATE_SECS (default 10) after XDP_RATE_WARM s (default 3)
# of settling: (a) the rate of the vif line; (b) XDP_RATE_LIVE (default
# "300000,50000", 6 MB/s) written into the backend's rate key from Dom0
# while the guest sends; (c) the key removed: unlimited. The rates are
# testpmd's per-second Rx bytes, their median per phase. Passes only if
# (a) and (b) are within 10 % of their rates with rx_q0_rate_limited
# growing (the limit bit), (c) is at least 3 times the larger rate with
# rx_q0_rate_limited standing still (the limit is gone, and the machine is
# fast enough that the limit, not TCG, held the guest in (a) and (b)).
. /host/scenarios/lib.sh
# Windows of 50 ms, libxl's default. With 20 ms one boot received 0.80 of
# a 2MB/s@20ms rate: TCG held Dom0's forwarding lcore up for more than a
# window, and the credit then added one window's bytes, as Linux's does.
# It now counts the windows missed (lib/netif/back/netif_credit.c); 20 ms has
# not been measured since.
RATE=${XDP_RATE:-2MB/s@50ms}
LIVE=${XDP_RATE_LIVE:-300000,50000}
SIZE=${XDP_PKTGEN_SIZE:-1500}
SECS=${XDP_RATE_SECS:-10}
WARM=${XDP_RATE_WARM:-3}
# the guest sends through all three phases, with room for its start
PG_SECS=$((3 * (WARM + SECS) + 15))
domu=s9-linux
con=$CONSOLE_DIR/guest-$domu.log
be=
trap 'collect; cleanup' EXIT
pmdlog=$S/testpmd.log
# mark: where testpmd's log ends now (its per-second statistics come
# whole: testpmd flushes each display)
mark() { wc -l < $pmdlog; }
# rates <from> <to>: testpmd's per-second Rx bytes between two marks
rates() { sed -n "$1,$2p" $pmdlog | awk '$1 == "Rx-pps:" && $3 == "Rx-bps:" { print int($4 / 8) }'; }
median() {
	sort -n | awk '{ v[n++] = $1 } END { if (!n) print 0; else print (n % 2 ? v[int(n / 2)] : int((v[n / 2 - 1] + v[n / 2]) / 2)) }'
}
# limited <mark>: rx_q0_rate_limited as last shown before the mark
limited() { head -n $1 $pmdlog | awk '$1 == "rx_q0_rate_limited" { n = $2 } END { print n + 0 }'; }
# key_rate <bytes,usec>: the bytes per second the key means
key_rate() { echo "$1" | awk -F, '{ printf "%.0f", $1 * 1000000 / $2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b + 0 > 0) printf "%.3f", a / b; else print "-" }'; }
within10() { awk -v a="$1" -v b="$2" 'BEGIN{ exit !(b > 0 && a >= 0.9 * b && a <= 1.1 * b) }'; }
# phase <tag>: after WARM s, SECS s of testpmd's figures: <tag>_med (median
# bytes/s), <tag>_n (samples), <tag>_lim (rx_q0_rate_limited gained)
phase() {
	sleep $WARM; m1=$(mark)
	sleep $SECS; m2=$(mark)
	rates $m1 $m2 > $S/rates-$1.txt
	eval "$1_med=$(median < $S/rates-$1.txt) $1_n=$(wc -l < $S/rates-$1.txt)" \
		"$1_lim=$(($(limited $m2) - $(limited $m1)))"
	note "phase $1: per-second Rx bytes $(tr '\n' ' ' < $S/rates-$1.txt)"
}

BACKEND_APP_ARGS="--display-xstats=rx_q0_packets,rx_q0_rate_limited"
start_backend s9 rxonly --vdev $(ours_vdev $domu)
guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line | sed "s|mac=[0-9a-f:]*|&,rate=$RATE|")" \
	"xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=0 xdp.pktgen=$PG_SECS:$SIZE"
create_guest $domu
be=/local/domain/0/backend/vif/$domid/0
key=$(xenstore-read $be/rate 2>/dev/null)
note "libxl wrote $be/rate = \"$key\" for rate=$RATE"
echo "$key" | grep -qE '^[0-9]+,[0-9]+$' || fail "no rate key \"bytes,usec\" in $be for rate=$RATE (\"$key\")"
echo "$LIVE" | grep -qE '^[0-9]+,[0-9]+$' || fail "XDP_RATE_LIVE=\"$LIVE\" is not \"bytes,usec\""
a_rate=$(key_rate $key) b_rate=$(key_rate $LIVE)
# the phases count from the guest's first frames
wait_for 120 $pmdlog 'Rx-pps: +[1-9]' $TESTPMD_PID || { tail -30 $con; fail "no frames from the guest within 120 s"; }
note "guest sending"
phase a
xenstore-write $be/rate "$LIVE" || fail "xenstore-write $be/rate $LIVE"
note "wrote $be/rate = \"$LIVE\""
phase b
xenstore-rm $be/rate || fail "xenstore-rm $be/rate"
note "removed $be/rate"
phase c
wait_guest $domu DOMU-DONE $TESTPMD_PID
grep -E 'DOMU-|pps' $con
stop_testpmd
sed -n '/Forward statistics for port 0/,/^ *+\{10,\}/p' $pmdlog
grep -E 'xen_netback' $pmdlog | grep -E 'rate|limit' | head -10
timeout 60 xl destroy $domu

echo "| phase | rate key | limit B/s | median Rx B/s (samples) | median / limit | rx_q0_rate_limited gained |"
echo "|---|---|---|---|---|---|"
echo "| a: vif line rate=$RATE | $key | $a_rate | $a_med ($a_n) | $(ratio $a_med $a_rate) | $a_lim |"
echo "| b: written live | $LIVE | $b_rate | $b_med ($b_n) | $(ratio $b_med $b_rate) | $b_lim |"
echo "| c: removed | - | - | $c_med ($c_n) | - | $c_lim |"
top=$a_rate; [ $b_rate -gt $top ] && top=$b_rate
sum="$SIZE B frames: a $a_med B/s for $a_rate ($(ratio $a_med $a_rate)), b live $b_med B/s for $b_rate ($(ratio $b_med $b_rate)), unlimited $c_med B/s (x$(ratio $c_med $a_rate) a, x$(ratio $c_med $b_rate) b); rate_limited +$a_lim, +$b_lim, +$c_lim"
# testpmd's main lcore shares Dom0's two vCPUs with the forwarding lcore,
# the guest's spinning pktgen and the scripts: its display may come late,
# and each figure is over the time since the last, but a median needs three
for t in a b c; do
	eval "n=\$${t}_n"
	[ $n -ge 3 ] || fail "$t: $n figures in $SECS s: testpmd's display stalled | $sum"
done
within10 $a_med $a_rate || fail "a: $a_med B/s not within 10 % of $a_rate | $sum"
[ $a_lim -gt 0 ] || fail "a: rx_q0_rate_limited did not grow | $sum"
within10 $b_med $b_rate || fail "b: $b_med B/s not within 10 % of $b_rate | $sum"
[ $b_lim -gt 0 ] || fail "b: rx_q0_rate_limited did not grow | $sum"
[ $c_lim = 0 ] || fail "c: rate key removed, rx_q0_rate_limited still grew by $c_lim | $sum"
[ $c_med -ge $((3 * top)) ] || fail "c: unlimited $c_med B/s, not 3 times the larger limit $top: the limits do not prove themselves | $sum"
pass "$sum"
