#!/bin/busybox sh
# SPDX-License-Identifier: BSD-3-Clause
#
# PID 1 of the harness's DPDK DomU: dpdk-testpmd on our net_xen_netfront
# (provider=xen) instead of the kernel's xen-netfront, which this image does
# not have. What it runs comes from the kernel command line (xl's extra=):
#   xdp.run=MODE:SECS[:IDLE][,...]  testpmd forwarding modes, one after the
#                        other, each stopped with SIGINT after SECS seconds
#                        (e.g. icmpecho:300 or txonly:20,rxonly:150); with
#                        IDLE, also once it has received and its count has
#                        stayed the same for IDLE seconds (the sender is
#                        done: SECS is then only the longest wait, e.g.
#                        rxonly:80:6)
#   xdp.txpkts=64        frame length for txonly
#   xdp.queues=N         queue pairs: queues=N in the netfront's devargs and
#                        --rxq=N --txq=N for testpmd (default: 1)
#   xdp.static_grants=0  static_grants=0 in the netfront's devargs: the backend
#                        grant-copies every packet (default: the PMD's, 1)
#   xdp.mcast=MAC        promiscuous mode off and the port's multicast list
#                        MAC (testpmd's mcast_addr add, from --cmdline-file):
#                        the netfront asks the backend to filter by it
#   xdp.fwd=MODE         a driver domain instead (created with driver_domain=1):
#                        xen-adaptive-fwd --gso in MODE (icmpecho, io) on our netback's
#                        watcher vifs=*, a port for each vif the toolstack gives
#                        this domain; its lines on the console ("DOMU-FWD <line>";
#                        of its rx-pps lines, one a second, the first so and the
#                        others as "DOMU-PPS <date +%s> <line>": Xen's wall
#                        clock, which the guests' consoles share); no testpmd
#                        runs. Dom0 writing "kill" to this domain's data/fwd in
#                        xenstore kills it (SIGKILL) and starts a new one
#                        ("DOMU-FWD-KILLED")
#   xdp.knb=1            a driver domain on the kernel's netback instead: its vifs
#                        in a bridge (xenbr0), and every second "DOMU-PPS <date
#                        +%s> rx-pps N tx-pps M": the packets all vifs received
#                        from and sent to their guests per second since the
#                        last line
#   xdp.devd=1           'xl devd' first, as a driver domain needs: it runs the
#                        vifs' hotplug scripts and removes the backend directory
#                        of a vif the toolstack lets go ("DOMU-DEVD started")
#   xdp.xstats=NAME[,NAME...] testpmd shows these xstats of the port with its
#                        statistics, every 2 s instead of 10; after each run
#                        "DOMU-XSTAT <mode> <name> last=N max=M" (the last
#                        and the largest value shown, e.g. for a gauge that
#                        falls to 0 when testpmd closes the port)
# For each run it prints "DOMU-TESTPMD-UP <mode>" once forwarding started (or
# "DOMU-TESTPMD-EXITED <mode>" if testpmd did not get that far) and at the
# end the netfront's log lines ("DOMU-NETFRONT <line>"), gntalloc's limit
# ("DOMU-GNTALLOC-LIMIT after-<mode> N"; "boot N" once before the first
# run) and "DOMU-RESULT testpmd-<mode> rc=.. rx=.. tx=.. secs=.. ended=.."
# (time, idle, or exit: testpmd ended by itself), then "DOMU-DONE" after
# the last run.
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
# EAL keeps its runtime files in /var/run/dpdk
mkdir -p /proc/xen /dev/shm /var/run; mount -t tmpfs tmpfs /dev/shm
up() { cut -d' ' -f1 /proc/uptime; }
arg() { sed -n "s/.*\bxdp\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
echo "DOMU-UP uptime=$(up) run=$(arg run)"
for m in $(cat /lib/modules/order); do insmod /lib/modules/$m || echo "DOMU-INIT insmod $m failed"; done
mount -t xenfs xenfs /proc/xen
ls -l /dev/xen
# Debian's xl without its version wrapper; xen-adaptive-fwd
PATH=$PATH:/usr/lib/xen-4.17/bin:/opt/xen-dpdk-pmd
if [ "$(arg devd)" = 1 ]; then
	mkdir -p /var/run/xen /var/lib/xen /var/log/xen /var/lock
	xl devd -F >/tmp/devd.log 2>&1 &
	echo "DOMU-DEVD started"
fi
fwd=$(arg fwd)
if [ -n "$fwd" ]; then
	start_fwd() {
		xen-adaptive-fwd --no-huge -m 256 --no-pci -l 0 --file-prefix dd \
			-d /opt/xen-dpdk-pmd/librte_net_xen_netback.so --log-level=pmd.net.xen_netback:info \
			--vdev 'net_xen_netback_dd,vifs=*,provider=xen' -- --mode $fwd --gso --stats-period 1 \
			</dev/null 2>&1 | awk '/^rx-pps/ && n++ { "date +%s" | getline t; close("date +%s")
					print "DOMU-PPS " t " " $0; fflush(); next }
				{ print "DOMU-FWD " $0; fflush() }' &
	}
	start_fwd
	# "kill" written by Dom0 to this domain's data/fwd (xenstore): the
	# forwarder killed with SIGKILL, as a crash would end it, and started
	# again, which takes the vifs over (a backend restarted inside the
	# driver domain)
	while sleep 1; do
		[ "$(xenstore-read data/fwd 2>/dev/null)" = kill ] || continue
		xenstore-rm data/fwd
		kill -KILL $(pidof xen-adaptive-fwd)
		while pidof xen-adaptive-fwd >/dev/null; do sleep 0.2; done
		echo "DOMU-FWD-KILLED uptime=$(up)"
		start_fwd
	done
fi
if [ "$(arg knb)" = 1 ]; then
	for m in $(cat /lib/modules/knb/order); do
		insmod /lib/modules/knb/$m || echo "DOMU-INIT insmod $m failed"; done
	brctl addbr xenbr0; ip link set xenbr0 up
	# The kernel's netback switches a vif to Connected only once its
	# backend directory's hotplug-status reads "connected", which a
	# hotplug script writes after plugging the vif (Xen's vif-bridge,
	# run by xl devd). That script needs bash, which this image lacks,
	# and this loop reads every vif each second anyway, for the pps
	# line: it plugs each new vifD.N itself (devd runs the guests'
	# script=/bin/true, as in our driver domain).
	read t _ </proc/uptime; t=${t%.*}${t#*.} rx=0 tx=0
	while sleep 1; do
		read t1 _ </proc/uptime; t1=${t1%.*}${t1#*.} rx1=0 tx1=0
		for p in /sys/class/net/vif*; do
			[ -e $p ] || continue
			v=${p##*/}; d=${v#vif}
			if [ ! -e $p/brport ]; then
				ip link set $v up; brctl addif xenbr0 $v
				xenstore-write backend/vif/${d%.*}/${d#*.}/hotplug-status connected
				echo "DOMU-KNB $v plugged uptime=$(up)"
			fi
			read n <$p/statistics/rx_packets; rx1=$((rx1 + n))
			read n <$p/statistics/tx_packets; tx1=$((tx1 + n))
		done
		# per second over the hundredths since the last line; 0 when
		# a vif went (its counts left the sums)
		r=0 x=0
		[ $rx1 -lt $rx ] || r=$(((rx1 - rx) * 100 / (t1 - t)))
		[ $tx1 -lt $tx ] || x=$(((tx1 - tx) * 100 / (t1 - t)))
		echo "DOMU-PPS $(date +%s) rx-pps $r tx-pps $x"
		t=$t1 rx=$rx1 tx=$tx1
	done
fi
txpkts=$(arg txpkts) q=$(arg queues) sg=$(arg static_grants) xs=$(arg xstats)
mc=$(arg mcast)
[ -z "$mc" ] || printf 'set promisc all off\nmcast_addr add 0 %s\n' "$mc" > /tmp/testpmd.cmds
period=10; [ -z "$xs" ] || period=2
# every page the netfront shares counts against it (514 per queue pair)
limit() { cat /sys/module/xen_gntalloc/parameters/limit 2>/dev/null || echo none; }
echo "DOMU-GNTALLOC-LIMIT boot $(limit)"
# the sum of the "<what>-packets:" counters of testpmd's final port statistics
count() { sed -n "/Forward statistics for port/,/^ *+\{10,\}/s/.*$1-packets: *\([0-9]*\).*/\1/p" /tmp/testpmd.log | head -1; }
# what the port received so far, by testpmd's last periodic statistics
rx_now() { grep -o 'RX-packets: *[0-9]*' /tmp/testpmd.log | tail -n 1 | grep -o '[0-9]*$'; }
for run in $(arg run | tr ',' ' '); do
	mode=${run%%:*}; secs=${run#*:}; idle=
	case $secs in *:*) idle=${secs#*:}; secs=${secs%%:*} ;; esac
	# an idle end reads the statistics once a second
	p=$period; [ -z "$idle" ] || p=1
	t0=$(up)
	# --no-mlockall: as Dom0's testpmd (scenarios/lib.sh, start_backend)
	dpdk-testpmd --no-huge -m 96 --no-pci --lcores 0@0,1@0 --file-prefix domu \
		-d /opt/xen-dpdk-pmd/librte_net_xen_netfront.so --log-level=pmd.net.xen_netfront:info \
		--vdev net_xen_netfront0,handle=0,provider=xen${q:+,queues=$q}${sg:+,static_grants=$sg} \
		-- --forward-mode=$mode --txpkts=${txpkts:-64} --stats-period $p --total-num-mbufs=4096 \
		--no-mlockall \
		${q:+--rxq=$q --txq=$q} ${xs:+--display-xstats=$xs} \
		${mc:+--cmdline-file=/tmp/testpmd.cmds} \
		</dev/null >/tmp/testpmd.log 2>&1 &
	pid=$!
	i=0
	while ! grep -q 'Start automatic packet forwarding\|Checking link statuses' /tmp/testpmd.log && kill -0 $pid 2>/dev/null && [ $i -lt 240 ]; do
		sleep 0.5; i=$((i + 1)); done
	if kill -0 $pid 2>/dev/null; then
		echo "DOMU-TESTPMD-UP $mode after $(awk "BEGIN{print $(up)-$t0}")s"
	else
		echo "DOMU-TESTPMD-EXITED $mode"
	fi
	t1=$(up)
	i=0 last=0 still=0 ended=time
	while kill -0 $pid 2>/dev/null && [ $i -lt $((secs * 2)) ]; do
		sleep 0.5; i=$((i + 1))
		[ -n "$idle" ] || continue
		rx=$(rx_now)
		if [ "${rx:-0}" -gt 0 ] && [ "$rx" = "$last" ]; then
			still=$((still + 1))
			[ $still -lt $((idle * 2)) ] || { ended=idle; break; }
		else
			still=0
		fi
		last=${rx:-0}
	done
	kill -0 $pid 2>/dev/null || ended=exit
	kill -INT $pid 2>/dev/null
	i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
	kill -KILL $pid 2>/dev/null; wait $pid; rc=$?
	grep -vE '^ *(Rx|Tx)-pps|^ *$|Throughput' /tmp/testpmd.log | tail -60
	grep 'xen_netfront' /tmp/testpmd.log | head -40 | sed 's/^/DOMU-NETFRONT /'
	for x in $(echo $xs | tr ',' ' '); do
		grep -E "^ +$x +[0-9]" /tmp/testpmd.log | awk -v m=$mode -v x=$x \
			'{ l = $2; if ($2 + 0 > n + 0) n = $2 } END { print "DOMU-XSTAT " m " " x " last=" (l == "" ? "none" : l) " max=" (n == "" ? 0 : n) }'
	done
	echo "DOMU-GNTALLOC-LIMIT after-$mode $(limit)"
	echo "DOMU-RESULT testpmd-$mode rc=$rc rx=$(count RX) tx=$(count TX) secs=$(awk "BEGIN{print $(up)-$t1}") ended=$ended"
done
echo "DOMU-DONE uptime=$(up)"
while true; do sleep 3600; done
