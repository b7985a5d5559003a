#!/bin/busybox sh
# SPDX-License-Identifier: BSD-3-Clause
#
# PID 1 of the harness's stock-Linux DomU (busybox + the kernel's
# xen-netfront). What it does comes from the kernel command line (xl's
# extra=), so one image serves every scenario:
#   xdp.ip=10.0.0.2/24   address of eth0
#   xdp.peer=10.0.0.1    address to resolve (arping) and ping
#   xdp.count=1000       echo requests
#   xdp.interval=0.01    seconds between requests
#   xdp.rtt=1            those requests from iputils ping, which prints every
#                        reply's time= and arrival time (-D) to the console
#                        and waits for every reply (busybox's, quiet, only a
#                        summary, and only two rtts past the last request;
#                        iputils' -w bounds the whole run at ten times
#                        count * interval plus a minute),
#                        with "DOMU-STEAL" lines (the vCPU's steal time) and
#                        "DOMU-ETH0" lines (eth0's counters) before and after
#   xdp.sizes=1000,1472  then 50 requests of each payload size
#   xdp.reload=N         then N times: unbind/bind vif-0 from xen-netfront, 20 requests
#   xdp.tcp=recv:PORT:BYTES | send:IP:PORT:BYTES   then a TCP transfer (busybox nc)
#   xdp.iperf=IP:SECS[:DIR] then iperf3 to IP for SECS, guest sending, then
#                        receiving (-R); only that way with DIR send or recv;
#                        each run's wall-clock start and end (date +%s: Xen's
#                        wall clock, the same in every domain) in a line
#                        "DOMU-IPERF-TIME <dir> start=S end=E"
#   xdp.iperfd=SECS[:N]  then serves N iperf3 tests (default 1), one at a
#                        time (iperf3 -s -1), waiting at most SECS for each
#   xdp.pktgen=SECS:SIZE[:QUEUES] then the kernel's pktgen sends SIZE-byte UDP
#                        frames to xdp.peer as fast as it can for SECS (spread
#                        over TX queues 0..QUEUES-1 when given); SIZE may be
#                        a list, 64/512/1500: each size in turn, 5 s apart
#   xdp.rxrate=SECS[:WAIT] then counts what eth0 receives: waits (at most WAIT
#                        s, default 120) for a flood to begin, then samples
#                        rx_packets every second for SECS
#   xdp.mtu=9000         eth0's MTU, set before it comes up (Linux 6.1's
#                        netfront does not read the vif's mtu key)
#   xdp.dfsizes=8000     then 20 requests of each payload size, sent whole
#                        (iputils ping -M do: no fragment, refused above the MTU)
#   xdp.carrier=BUSY:DOWN[:WAIT] then stops taking packets: waits (at most WAIT
#                        s, default 120) for a flood, takes it BUSY s, then
#                        eth0 down for DOWN s (netfront takes nothing from its
#                        RX ring) and up again
#   xdp.xdp=N            then XDP on eth0 (native, through the netfront,
#                        iproute2's ip): a program passing every frame,
#                        N requests of 56 and of 1400 bytes; one dropping
#                        ICMP, N requests (none may come back) and an
#                        arping (ARP passes); none, N requests
#   xdp.count=0          skips the arping and ping
#   xdp.reattach=N       after DOMU-DONE, each time eth0 goes and comes back
#                        (xl network-detach, then network-attach: a new vif
#                        0), its address again and N pings to xdp.peer (0:
#                        the address alone), "DOMU-REATTACH" lines
# Every line it prints goes to hvc0, which xenconsoled logs in Dom0; the
# harness waits for "DOMU-DONE" and reads the "DOMU-RESULT" lines.
/bin/busybox --install -s /bin
mkdir -p /tmp; mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
up() { cut -d' ' -f1 /proc/uptime; }
arg() { sed -n "s/.*\bxdp\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
ip=$(arg ip); peer=$(arg peer); count=$(arg count); interval=$(arg interval)
: ${ip:=10.0.0.2/24} ${peer:=10.0.0.1} ${count:=1000} ${interval:=0.01}
echo "DOMU-UP uptime=$(up) ip=$ip peer=$peer count=$count interval=$interval"
for m in $(cat /lib/modules/order); do insmod /lib/modules/$m || echo "DOMU-INIT insmod $m failed"; done
i=0; while [ ! -e /sys/class/net/eth0 ] && [ $i -lt 30 ]; do sleep 1; i=$((i+1)); done
if [ ! -e /sys/class/net/eth0 ]; then
	echo "DOMU-RESULT eth0=missing"; echo "DOMU-DONE uptime=$(up)"
	while true; do sleep 3600; done
fi
ip link set lo up; ip addr add $ip dev eth0
# xdp.mtu=N: what the toolstack's mtu= asks, applied as an administrator
# would (the netfront leaves eth0 at 1500 whatever the key says)
mtu=$(arg mtu)
if [ -n "$mtu" ]; then
	was=$(cat /sys/class/net/eth0/mtu)
	ip link set eth0 mtu $mtu; rc=$?
	echo "DOMU-MTU netfront=$was set=$mtu rc=$rc now=$(cat /sys/class/net/eth0/mtu)"
fi
ip link set eth0 up
tcp=$(arg tcp)
case $tcp in recv:*) port=$(echo $tcp | cut -d: -f2); nc -l -p $port > /tmp/rx & ;; esac
i=0; while [ "$(cat /sys/class/net/eth0/carrier 2>/dev/null)" != 1 ] && [ $i -lt 20 ]; do sleep 1; i=$((i+1)); done
echo "DOMU-LINK uptime=$(up) carrier=$(cat /sys/class/net/eth0/carrier 2>/dev/null) after=${i}s mac=$(cat /sys/class/net/eth0/address)"
# resolve: the peer's address resolved (arping, 3 requests within 10 s):
# $arp ok or fail, arping's lines in /tmp/arping
resolve() {
	if arping -c 3 -w 10 -I eth0 $peer > /tmp/arping 2>&1; then arp=ok; else arp=fail; fi
}
# eth0_counts <tag>: what eth0 received and dropped, as the netfront counts
eth0_counts() {
	echo "DOMU-ETH0 $1 rx_packets=$(cat /sys/class/net/eth0/statistics/rx_packets) rx_dropped=$(cat /sys/class/net/eth0/statistics/rx_dropped) tx_packets=$(cat /sys/class/net/eth0/statistics/tx_packets) uptime=$(up)"
}
if [ "$count" != 0 ]; then
	resolve
	cat /tmp/arping
	echo "DOMU-RESULT arp=$arp"
	t0=$(up)
	if [ "$(arg rtt)" = 1 ]; then
		# steal: the time this vCPU was runnable but Xen ran another
		# (USER_HZ ticks, /proc/stat's 8th field), i.e. waited for a pCPU
		echo "DOMU-STEAL before $(awk '$1 == "cpu" {print $9}' /proc/stat) uptime=$(up)"
		eth0_counts before
		# -w: wait for every reply instead of iputils' two longest
		# rtts past the last request. It bounds the whole run, and under
		# TCG requests go out far slower than -i asks (a second per
		# ten requests seen): ten times the nominal time, and a minute.
		# -D: each reply's arrival time
		/usr/bin/ping -D -c $count -i $interval -w $(awk "BEGIN{print int($count * $interval * 10) + 60}") $peer > /tmp/ping 2>&1
		rc=$?
		eth0_counts after
		echo "DOMU-STEAL after $(awk '$1 == "cpu" {print $9}' /proc/stat) uptime=$(up)"
	else
		ping -q -c $count -i $interval -W 5 $peer > /tmp/ping 2>&1
		rc=$?
	fi
	t1=$(up)
	cat /tmp/ping
	tx=$(sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p' /tmp/ping)
	# busybox: "N packets received", iputils: "N received"
	rx=$(sed -n 's/.* \([0-9]*\) \(packets \)\{0,1\}received.*/\1/p' /tmp/ping)
	echo "DOMU-RESULT ping rc=$rc transmitted=${tx:-0} received=${rx:-0} start=$t0 end=$t1"
fi
echo "DOMU-RESULT neigh=$(ip neigh show $peer | tr ' ' '_')"
# pingrun <tag> <ping args...>: one "DOMU-RESULT <tag> ..." line, of
# busybox's ping or $PING_BIN's; with $PING_SHOW, before it ping's own
# lines, each after that word
pingrun() {
	tag=$1; shift
	${PING_BIN:-ping} $([ -n "${PING_SHOW:-}" ] || echo -q) "$@" $peer > /tmp/ping 2>&1; rc=$?
	[ -z "${PING_SHOW:-}" ] || sed "s/^/$PING_SHOW /" /tmp/ping
	tx=$(sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p' /tmp/ping)
	# busybox: "N packets received", iputils: "N received"
	rx=$(sed -n 's/.* \([0-9]*\) \(packets \)\{0,1\}received.*/\1/p' /tmp/ping)
	echo "DOMU-RESULT $tag rc=$rc transmitted=${tx:-0} received=${rx:-0} $(grep -E '^(round-trip|rtt) ' /tmp/ping | tr ' ' '_')"
}
# xdp.sizes=1000,1472: 50 echo requests of each payload size (1472: full 1514-byte frames)
for sz in $(arg sizes | tr ',' ' '); do pingrun size-$sz -c 50 -i 0.02 -W 5 -s $sz; done
# xdp.reload=N: N times unbind and rebind the vif (close + reconnect), 20 pings after each
n=$(arg reload); r=0
while [ $r -lt ${n:-0} ]; do
	r=$((r + 1)); t=$(up)
	# unbind = xennet_remove (Closing, Closed), bind = a new probe (Initialising)
	echo vif-0 > /sys/bus/xen/drivers/vif/unbind; rc=$?
	echo "DOMU-RELOAD $r unbind rc=$rc eth0=$([ -e /sys/class/net/eth0 ] && echo present || echo gone) took=$(awk "BEGIN{print $(up)-$t}")"
	echo vif-0 > /sys/bus/xen/drivers/vif/bind
	i=0; while [ ! -e /sys/class/net/eth0 ] && [ $i -lt 30 ]; do sleep 1; i=$((i+1)); done
	ip addr add $ip dev eth0 2>/dev/null; ip link set eth0 up
	i=0; while [ "$(cat /sys/class/net/eth0/carrier 2>/dev/null)" != 1 ] && [ $i -lt 20 ]; do sleep 1; i=$((i+1)); done
	echo "DOMU-RELOAD $r up carrier=$(cat /sys/class/net/eth0/carrier 2>/dev/null) took=$(awk "BEGIN{print $(up)-$t}")"
	pingrun reload-$r -c 20 -i 0.05 -W 5
done
# xdp.xdp=N: each attach and detach goes through Reconfiguring, for the
# backend to set where frames start ("DOMU-XDP <step> rc=" lines)
n=$(arg xdp)
if [ -n "$n" ]; then
	xip=/opt/xdp/ip
	$xip link set dev eth0 xdpdrv obj /opt/xdp/pass.o sec xdp > /tmp/xdp 2>&1
	echo "DOMU-XDP attach-pass rc=$? $(tr '\n' ' ' < /tmp/xdp)"
	echo "DOMU-XDP link $($xip -d link show eth0 | grep -o 'xdp.*' | head -1 | tr ' ' '_')"
	pingrun xdp-pass -c $n -i 0.05 -W 2
	pingrun xdp-pass-1400 -c $n -i 0.05 -W 2 -s 1400
	$xip -force link set dev eth0 xdpdrv obj /opt/xdp/drop-icmp.o sec xdp > /tmp/xdp 2>&1
	echo "DOMU-XDP attach-drop-icmp rc=$? $(tr '\n' ' ' < /tmp/xdp)"
	pingrun xdp-drop-icmp -c $n -i 0.05 -W 1
	ip neigh flush dev eth0
	resolve
	echo "DOMU-RESULT xdp-arp=$arp"
	$xip link set dev eth0 xdpdrv off > /tmp/xdp 2>&1
	echo "DOMU-XDP detach rc=$? $(tr '\n' ' ' < /tmp/xdp)"
	pingrun xdp-off -c $n -i 0.05 -W 2
fi
# xdp.tcp=recv:PORT:BYTES waits (<= 180 s) until BYTES arrived on a TCP connection;
# xdp.tcp=send:IP:PORT:BYTES sends BYTES of zeros there (busybox nc)
case $tcp in
recv:*)
	want=$(echo $tcp | cut -d: -f3); t=$(up); i=0; got=0
	while [ $i -lt 360 ]; do
		got=$(wc -c < /tmp/rx); [ "$got" -ge "$want" ] && break; sleep 0.5; i=$((i + 1)); done
	echo "DOMU-RESULT tcp-recv bytes=$got want=$want took=$(awk "BEGIN{print $(up)-$t}")" ;;
send:*)
	dst=$(echo $tcp | cut -d: -f2); port=$(echo $tcp | cut -d: -f3); want=$(echo $tcp | cut -d: -f4)
	t=$(up)
	dd if=/dev/zero bs=65536 count=$((want / 65536)) 2>/dev/null | nc $dst $port & pid=$!
	i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 360 ]; do sleep 0.5; i=$((i + 1)); done
	echo "DOMU-RESULT tcp-send done=$(kill -0 $pid 2>/dev/null && echo no || echo yes) took=$(awk "BEGIN{print $(up)-$t}")"
	kill $pid 2>/dev/null ;;
esac
# eth0's counters: "tx_bytes tx_packets rx_bytes rx_packets"
counters() {
	for c in tx_bytes tx_packets rx_bytes rx_packets; do cat /sys/class/net/eth0/statistics/$c; done
}
# frames <counters before>: "tx_avg=B rx_avg=B", the bytes per packet eth0
# sent and received since; a GSO packet counts once, so above 1514 bytes
# means GSO carried the transfer
frames() {
	set -- $1 $(counters)
	echo "tx_avg=$((($5 - $1) / ($6 - $2 + ($6 == $2)))) rx_avg=$((($7 - $3) / ($8 - $4 + ($8 == $4))))"
}
rxp() { cat /sys/class/net/eth0/statistics/rx_packets; }
# xdp.dfsizes=8000: "DOMU-RESULT dfsize-<size> rc=.. transmitted=.. received=..
# <frames>": iputils ping, since busybox's cannot forbid fragmenting (-M do)
for sz in $(arg dfsizes | tr ',' ' '); do
	c=$(counters)
	/usr/bin/ping -q -c 20 -i 0.05 -W 5 -M do -s $sz $peer > /tmp/ping 2>&1; rc=$?
	cat /tmp/ping
	tx=$(sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p' /tmp/ping)
	rx=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' /tmp/ping)
	echo "DOMU-RESULT dfsize-$sz rc=$rc transmitted=${tx:-0} received=${rx:-0} $(frames "$c")"
done
# xdp.carrier=BUSY:DOWN[:WAIT]: for the backend's carrier. "DOMU-CARRIER
# waiting"; once a flood arrives (100 packets beyond the count then, as
# xdp.rxrate), BUSY s of taking it, then "DOMU-CARRIER down" just before
# eth0 goes down (NAPI off: the RX ring is neither read nor refilled) and
# "DOMU-CARRIER up" just before it comes up after DOWN s; then "DOMU-RESULT
# carrier rx_down=N rx_after=M": packets taken while down (none, if the
# stall was real) and within 30 s after up.
carrier=$(arg carrier)
if [ -n "$carrier" ]; then
	cr_busy=${carrier%%:*}; rest=${carrier#*:}; cr_down=${rest%%:*}
	cr_wait=120; [ "$rest" = "$cr_down" ] || cr_wait=${rest#*:}
	b=$(rxp); echo "DOMU-CARRIER waiting uptime=$(up) rx_packets=$b"
	end=$(awk "BEGIN{print $(up) + $cr_wait}")
	while [ $(rxp) -le $((b + 100)) ] && awk "BEGIN{exit !($(up) < $end)}"; do sleep 0.2; done
	if [ $(rxp) -le $((b + 100)) ]; then
		echo "DOMU-RESULT carrier flood=none within ${cr_wait}s"
	else
		echo "DOMU-CARRIER flood uptime=$(up) rx_packets=$(rxp)"
		sleep $cr_busy
		echo "DOMU-CARRIER down uptime=$(up) rx_packets=$(rxp)"
		ip link set eth0 down; r1=$(rxp)
		sleep $cr_down
		r2=$(rxp)
		echo "DOMU-CARRIER up uptime=$(up) rx_packets=$r2"
		ip link set eth0 up
		end=$(awk "BEGIN{print $(up) + 30}")
		while [ $(rxp) -le $((r2 + 100)) ] && awk "BEGIN{exit !($(up) < $end)}"; do sleep 0.2; done
		echo "DOMU-RESULT carrier rx_down=$((r2 - r1)) rx_after=$(($(rxp) - r2)) uptime=$(up)"
	fi
fi
# xdp.iperf=IP:SECS[:DIR]: one "DOMU-RESULT iperf-<dir> rc=.. <frames> <receiver summary>" per direction
iperf=$(arg iperf)
if [ -n "$iperf" ]; then
	dst=${iperf%%:*}; secs=${iperf#*:}; dirs="send recv"
	case $secs in *:*) dirs=${secs#*:}; secs=${secs%%:*} ;; esac
	for dir in $dirs; do
		r=; [ $dir = recv ] && r=-R
		c=$(counters) t=$(date +%s)
		# bounded: a lost final exchange must not hang the guest; a
		# server serving one test at a time may not listen yet
		for try in 1 2 3 4 5; do
			timeout $((secs + 60)) iperf3 -c $dst -t $secs -f m $r > /tmp/iperf 2>&1; rc=$?
			grep -q 'unable to connect' /tmp/iperf || break
			sleep 1
		done
		cat /tmp/iperf
		echo "DOMU-IPERF-TIME $dir start=$t end=$(date +%s)"
		echo "DOMU-RESULT iperf-$dir rc=$rc $(frames "$c") $(grep -E 'receiver$' /tmp/iperf | tr -s ' ' | tr ' ' '_')"
	done
fi
# xdp.iperfd=SECS[:N]: "DOMU-IPERFD listening", then after each test
# "DOMU-RESULT iperfd rc=.. <frames> <receiver summary>"
iperfd=$(arg iperfd)
if [ -n "$iperfd" ]; then
	n=1; case $iperfd in *:*) n=${iperfd#*:}; iperfd=${iperfd%%:*} ;; esac
	echo "DOMU-IPERFD listening uptime=$(up)"
	served=0
	while [ $served -lt $n ]; do
		served=$((served + 1)); c=$(counters)
		timeout $iperfd iperf3 -s -1 -f m > /tmp/iperf 2>&1; rc=$?
		cat /tmp/iperf
		echo "DOMU-RESULT iperfd rc=$rc $(frames "$c") $(grep -E 'receiver$' /tmp/iperf | tr -s ' ' | tr ' ' '_')"
	done
fi
# xdp.pktgen=SECS:SIZE[:QUEUES]: "DOMU-RESULT pktgen size=S sent=N usec=T
# pps=P" for each size (the pause between sizes lets Dom0 read the
# backend's counters per size)
pktgen=$(arg pktgen)
# pktgen_set <command>...: each into pktgen's file of eth0
pktgen_set() {
	for c in "$@"; do echo "$c" > /proc/net/pktgen/eth0 || echo "DOMU-INIT pktgen '$c' failed"; done
}
if [ -n "$pktgen" ]; then
	pg=/proc/net/pktgen
	pg_secs=${pktgen%%:*}; rest=${pktgen#*:}; pg_size=${rest%%:*}
	pg_queues=; [ "$rest" = "$pg_size" ] || pg_queues=${rest#*:}
	echo "add_device eth0" > $pg/kpktgend_0
	pktgen_set "count 0" "delay 0" "dst ${peer}" "dst_mac 02:00:00:00:00:01"
	[ -z "$pg_queues" ] || pktgen_set "queue_map_min 0" "queue_map_max $((pg_queues - 1))"
	first=1
	for s in $(echo $pg_size | tr / ' '); do
		[ $first = 1 ] || sleep 5
		first=0
		pktgen_set "pkt_size $s"
		echo start > $pg/pgctrl &
		sleep $pg_secs
		echo stop > $pg/pgctrl; wait
		cat $pg/eth0
		sent=$(sed -n 's/.*pkts-sofar: *\([0-9]*\).*/\1/p' $pg/eth0)
		usec=$(sed -n 's/.*Result: OK: *\([0-9]*\)(.*/\1/p' $pg/eth0)
		pps=$(sed -n 's/.* \([0-9]*\)pps .*/\1/p' $pg/eth0)
		echo "DOMU-RESULT pktgen size=$s sent=${sent:-0} usec=${usec:-0} pps=${pps:-0}"
	done
fi
# xdp.rxrate=SECS[:WAIT]: what this guest receives from a sender elsewhere
# (Dom0's pktgen), counted here because the sender's own count includes what
# the backend dropped for a full ring. "DOMU-RXRATE waiting", then one
# "DOMU-RXSAMPLE <uptime> <rx_packets>" a second over the window (uptime:
# under TCG a sleep is no clock), then "DOMU-RESULT rxrate rx=N secs=S"
# (rx_packets gained over the window). The window opens only once 100
# packets beyond the count at "waiting" have arrived, so a stray ARP or IPv6
# packet does not start it before the flood.
rxrate=$(arg rxrate)
if [ -n "$rxrate" ]; then
	rr_secs=${rxrate%%:*}; rr_wait=120; [ "$rxrate" = "$rr_secs" ] || rr_wait=${rxrate#*:}
	b=$(rxp); echo "DOMU-RXRATE waiting uptime=$(up) rx_packets=$b"
	end=$(awk "BEGIN{print $(up) + $rr_wait}")
	while [ $(rxp) -le $((b + 100)) ] && awk "BEGIN{exit !($(up) < $end)}"; do sleep 0.2; done
	t0=$(up); c0=$(rxp); echo "DOMU-RXSAMPLE $t0 $c0"
	t=$t0; c=$c0; end=$(awk "BEGIN{print $t0 + $rr_secs}")
	while awk "BEGIN{exit !($t < $end)}"; do sleep 1; t=$(up); c=$(rxp); echo "DOMU-RXSAMPLE $t $c"; done
	echo "DOMU-RESULT rxrate rx=$((c - c0)) secs=$(awk "BEGIN{print $t - $t0}")"
fi
for f in rx_packets tx_packets rx_dropped tx_dropped rx_errors tx_errors; do
	echo "DOMU-STAT $f=$(cat /sys/class/net/eth0/statistics/$f)"; done
# packets IP, ICMP, TCP and UDP dropped for a bad checksum (InCsumErrors)
echo "DOMU-STAT csum_errors=$(cat /proc/net/snmp /proc/net/netstat | awk '
	$1 == p { if (i) n += $i; p = ""; next }
	{ p = $1; i = 0; for (f = 2; f <= NF; f++) if ($f == "InCsumErrors") i = f }
	END { print n + 0 }')"
echo "DOMU-DONE uptime=$(up)"
# xdp.reattach=N: a vif given again after its backend went (scenario 15)
ra=$(arg reattach)
while [ -n "$ra" ]; do
	while [ -e /sys/class/net/eth0 ]; do sleep 0.5; done
	echo "DOMU-REATTACH eth0 gone uptime=$(up)"
	while [ ! -e /sys/class/net/eth0 ]; do sleep 0.5; done
	ip addr add $ip dev eth0; ip link set eth0 up
	i=0; while [ "$(cat /sys/class/net/eth0/carrier 2>/dev/null)" != 1 ] && [ $i -lt 20 ]; do sleep 1; i=$((i+1)); done
	echo "DOMU-REATTACH eth0 back uptime=$(up) carrier=$(cat /sys/class/net/eth0/carrier 2>/dev/null) mac=$(cat /sys/class/net/eth0/address)"
	[ "$ra" = 0 ] && continue
	# As the first run: the peer's address resolved, then iputils' ping
	# waiting for every reply (-w). Busybox's stops waiting two rtts after
	# its last request: a run of scenario 15 counted 2 of 10 unanswered
	# with a longest rtt of 1.07 s, and its quiet output could not say
	# whether they were late or lost. Each reply's line is shown.
	resolve
	echo "DOMU-REATTACH arp=$arp uptime=$(up)"
	PING_BIN=/usr/bin/ping PING_SHOW=DOMU-REATTACH-PING pingrun reattach -c $ra -i 0.2 -w $((ra + 60))
done
while true; do sleep 3600; done
