# SPDX-License-Identifier: BSD-3-Clause
#
# Sourced by every scenario. Runs in Dom0 (from the 9p share /host), as root.
# Conventions: a scenario writes its files under $S (/host/<name>/), reports
# with pass/fail (one "SCENARIO-RESULT <name> PASS|FAIL <reason>" line), and
# bounds every wait. The DomU console is $CONSOLE_DIR/guest-<domu name>.log.
PMD_DIR=/opt/xen-dpdk-pmd
NETBACK_SO=$PMD_DIR/librte_net_xen_netback.so
NETFRONT_SO=$PMD_DIR/librte_net_xen_netfront.so
ADAPTIVE_FWD=$PMD_DIR/xen-adaptive-fwd
CONSOLE_DIR=/var/log/xen/console
VIF_EXAMPLE=/etc/xen/vif-dpdk.cfg.example
: ${NAME:?} ${S:?}
up() { cut -d' ' -f1 /proc/uptime; }
since() { awk "BEGIN{printf \"%.1f\", $(up)-$1}"; }
note() { echo "[$(up)] $NAME: $*"; }
pass() { echo "SCENARIO-RESULT $NAME PASS $*"; exit 0; }
fail() { echo "SCENARIO-RESULT $NAME FAIL $*"; exit 1; }
# problem <text>: a failed check the scenario goes on past, to report the
# rest of its figures; it fails at the end with $problems, all of them.
problems=
problem() { note "PROBLEM: $*"; problems="$problems${problems:+; }$*"; }
# comparing: true with XDP_COMPARE=1. The runs a scenario makes only to put
# figures beside ours (the kernel's xen-netback, our other settings) cost
# a guest boot or more each, and at TCG speed their figures are reported,
# never judged; CI's boot leaves them out. No check depends on them.
comparing() { [ "${XDP_COMPARE:-0}" = 1 ]; }
# NOT_COMPARED: what a summary says of a comparison left out
NOT_COMPARED="not run (XDP_COMPARE=1 runs it)"

# The vif line an operator would use (config/xen/vif-dpdk.cfg.example), with
# the MAC address $1 instead of the example's when given (guests that talk
# to each other need their own).
dpdk_vif_line() { grep '^vif *=' "$VIF_EXAMPLE" | sed "${1:+s/mac=[0-9a-f:]*/mac=$1/}"; }

# Our backend claims a guest's vif by the guest's name (domain=<name>):
# xl hands out domain ids in sequence, a new one at every reboot.
ours_vdev() { echo "net_xen_netback${2:-0},domain=$1,handle=0,provider=xen"; }

# wait_for <seconds> <file> <extended regex> [pid]: 0 when a line matches
# (at byte $WAIT_FROM or after, default 1: a console xenconsoled appends to
# across a reboot); 1 on timeout (measured in Dom0 uptime: under TCG a loop
# count is no clock) or when the process [pid] has exited.
wait_for() {
	end=$(awk "BEGIN{print $(up)+$1}"); f=$2; re=$3; pid=${4:-}
	while :; do
		tail -c +${WAIT_FROM:-1} "$f" 2>/dev/null | grep -qE "$re" && return 0
		[ -n "$pid" ] && ! kill -0 $pid 2>/dev/null && { tail -c +${WAIT_FROM:-1} "$f" 2>/dev/null | grep -qE "$re"; return $?; }
		now=$(up)
		[ -n "$now" ] && awk "BEGIN{exit !($now >= $end)}" && return 1
		sleep 0.5
	done
}

# start_testpmd <log> <eal/vdev args> -- <testpmd args>: background, pid in
# $TESTPMD_PID; its input is $TESTPMD_INPUT (default /dev/null), and
# $TESTPMD_WRAP (e.g. stdbuf -oL) runs it.
start_testpmd() {
	log=$1; shift
	note "dpdk-testpmd $*"
	${TESTPMD_WRAP:-} dpdk-testpmd "$@" <"${TESTPMD_INPUT:-/dev/null}" >"$log" 2>&1 &
	TESTPMD_PID=$!
}
# interrupt <pid> <name>: SIGINT, and SIGKILL if the process is still
# there 20 s later; returns its exit status (137 when it had to be killed).
interrupt() {
	kill -INT $1 2>/dev/null
	i=0; while kill -0 $1 2>/dev/null && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
	if kill -0 $1 2>/dev/null; then note "$2 did not exit on SIGINT within 20 s: SIGKILL"; kill -9 $1; fi
	wait $1 2>/dev/null
}
# wait_up <log> <extended regex> <pid> <what> <start uptime>: the scenario
# fails unless the process prints the line within 120 s and is still up.
wait_up() {
	wait_for 120 "$1" "$2" $3 && kill -0 $3 2>/dev/null ||
		{ tail -30 "$1"; fail "$4 did not start within 120 s"; }
	note "$4 up after $(since $5)s (pid $3)"
}
# SIGINT makes testpmd print its final statistics and exit. Its exit
# status is left in $TESTPMD_RC, for the scenarios that check it went down
# cleanly.
stop_testpmd() {
	TESTPMD_RC=
	[ -n "${TESTPMD_PID:-}" ] || return 0
	interrupt $TESTPMD_PID testpmd; TESTPMD_RC=$?; TESTPMD_PID=
}

# start_adaptive <log> <tag> <mode> <EAL args...> [-- <app args>]:
# app/xen-adaptive-fwd (polls while packets come, sleeps on the Rx event
# channels after an idle spell) with our netback plugin, in the background
# on Dom0's CPU 1 like testpmd's forwarding lcore, so the two compare on
# the same vCPU; up once it prints its first stats line (one a second).
# Pid in $ADAPTIVE_PID.
start_adaptive() {
	alog=$1 tag=$2 amode=$3; shift 3
	t0=$(up)
	note "xen-adaptive-fwd --mode $amode $*"
	case " $* " in *" -- "*) ;; *) set -- "$@" -- ;; esac
	$ADAPTIVE_FWD --no-huge -m 512 --no-pci -l 1 --file-prefix $tag -d $NETBACK_SO \
		--log-level=pmd.net.xen_netback:info "$@" --mode $amode --stats-period 1 \
		</dev/null >"$alog" 2>&1 &
	ADAPTIVE_PID=$!
	wait_up "$alog" '^rx-pps ' $ADAPTIVE_PID "xen-adaptive-fwd $amode" $t0
}
# stop_adaptive: SIGINT, after which the app prints its summary, a line of
# JSON (rx, tx, dropped, sleeps, wakeups, wall_s, cpu_s), left in
# $ADAPTIVE_JSON; adaptive_field <key> reads one number from it.
stop_adaptive() {
	ADAPTIVE_JSON=
	[ -n "${ADAPTIVE_PID:-}" ] || return 0
	interrupt $ADAPTIVE_PID xen-adaptive-fwd; ADAPTIVE_PID=
	ADAPTIVE_JSON=$(grep '^{' "$alog" | tail -1)
}
adaptive_field() { echo "$ADAPTIVE_JSON" | sed -n "s/.*\"$1\": *\([0-9.]*\).*/\1/p"; }
# iperf_mbits <DOMU-RESULT iperf line>: the receiver's Mbit/s of a
# completed run (rc=0), nothing otherwise
iperf_mbits() { echo "$1" | sed -n 's/.* rc=0 .*_\([0-9.]*\)_Mbits\/sec.*/\1/p'; }
# cpu_ticks <pid>: user + system time the process has used, in clock ticks
# (all its threads: /proc/<pid>/stat of the leader counts the group)
cpu_ticks() { awk '{print $14 + $15}' /proc/$1/stat 2>/dev/null || echo 0; }

# Everything a failure report needs, into the scenario's directory.
collect() {
	xl list > $S/xl-list.txt 2>&1
	xenstore-ls -f /local/domain > $S/xenstore.txt 2>&1
	cp $CONSOLE_DIR/guest-*.log $S/ 2>/dev/null
	cp /var/log/xen/vif-dpdk.log $S/ 2>/dev/null
	dmesg > $S/dom0-dmesg.txt
}

# Leave Dom0 as found: no guests, no backend process.
cleanup() {
	stop_testpmd
	stop_adaptive
	for d in $(xl list | awk 'NR>2{print $1}'); do timeout 60 xl destroy "$d" || note "xl destroy $d failed"; done
}

# guest_cfg <name> <ramdisk> <MiB> <vif line> <kernel args>: /tmp/<name>.cfg
# for a PV DomU of the harness's kernel (ramdisk: initrd.gz, the stock
# Linux guest, or initrd-dpdk.gz, the DPDK guest) with $GUEST_VCPUS vCPUs
# (default 1).
guest_cfg() {
	cat > /tmp/$1.cfg <<-CFG
	name = "$1"
	type = "pv"
	kernel = "/root/domu/vmlinux"
	ramdisk = "/root/domu/$2"
	extra = "console=hvc0 quiet $5"
	memory = $3
	vcpus = ${GUEST_VCPUS:-1}
	$4
	CFG
	note "config of $1:"; cat /tmp/$1.cfg
}

# create_guest <name>: xl create /tmp/<name>.cfg, bounded; fails the scenario
# with xl's errors and the backend log ($S/testpmd.log) when it does not work.
# Sets $domid to the guest's domain id.
create_guest() {
	t1=$(up)
	timeout 120 xl -vvv create /tmp/$1.cfg > $S/xl-create-$1.log 2>&1
	rc=$?
	domid=$(xl domid $1 2>/dev/null)
	note "xl create $1 rc=$rc took $(since $t1)s domid=$domid"
	if [ $rc != 0 ]; then
		grep -E 'error|ERROR|fail|timed out|unable' $S/xl-create-$1.log | grep -v 'libxl_event.c.*debug' | tail -15
		tail -30 $S/testpmd.log 2>/dev/null
		fail "xl create $1 rc=$rc"
	fi
}

# wait_guest <name> <regex> [pid]: waits (XDP_DOMU_LIMIT s, default 400) for
# a console line of the guest; fails with the console and backend tails.
wait_guest() {
	con=$CONSOLE_DIR/guest-$1.log
	if ! wait_for ${XDP_DOMU_LIMIT:-400} $con "$2" ${3:-}; then
		tail -30 $con; tail -40 $S/testpmd.log 2>/dev/null
		xenstore-ls -f /local/domain/0/backend/vif
		fail "$1: no '$2' within ${XDP_DOMU_LIMIT:-400} s"
	fi
	note "$1: '$2' after $(since $t1)s since xl create"
}

# dpdk_guest_up <name> [<mode> [<backend pid>]]: waits (wait_guest) for the
# DPDK guest's testpmd to forward (in <mode>); fails with the console's
# tail if it exited instead
dpdk_guest_up() {
	wait_guest $1 "DOMU-TESTPMD-(UP|EXITED)${2:+ $2}" ${3:-}
	grep -q DOMU-TESTPMD-EXITED $con && { tail -60 $con; fail "testpmd in the guest exited"; }
}

# start_backend <tag> <testpmd mode> <EAL args...>: dpdk-testpmd with our
# netback plugin (the --vdev arguments are the caller's), up and forwarding;
# --no-mlockall: locking (and so faulting in) EAL's 512 MB made a start
# take 8.6-10.5 s in Dom0, against 3.8-4.4 s without, in one boot;
# $BACKEND_APP_ARGS are added to testpmd's own arguments, and the lines of
# $BACKEND_CMDS run as testpmd commands before it starts forwarding.
start_backend() {
	tag=$1 mode=$2; shift 2
	# XDP_VERBOSE=1: testpmd prints every packet it receives and sends
	{ echo "set verbose ${XDP_VERBOSE:-0}"; [ -z "${BACKEND_CMDS:-}" ] || echo "$BACKEND_CMDS"; } > /tmp/$tag-testpmd.cmd
	t0=$(up)
	start_testpmd $S/testpmd.log --no-huge -m 512 --no-pci -l 0,1 --file-prefix $tag \
		-d $NETBACK_SO --log-level=pmd.net.xen_netback:info --log-level=lib.netif:info "$@" \
		-- --forward-mode=$mode --stats-period 1 --total-num-mbufs=8192 --cmdline-file=/tmp/$tag-testpmd.cmd \
		--no-mlockall ${BACKEND_APP_ARGS:-}
	wait_up $S/testpmd.log 'Start automatic packet forwarding|Checking link statuses' $TESTPMD_PID \
		"testpmd $mode" $t0
}
# start_backend_cli <tag> <testpmd mode> <EAL args...>: start_backend with
# testpmd interactive (-i --auto-start: forwarding, no periodic
# statistics), its commands coming from a FIFO this shell holds open on fd 7
# for backend_cmd. Opened for reading and writing, the FIFO neither blocks
# the open nor kills this shell on a write once testpmd is gone (kill -9).
# Its output line-buffered: answers reach the log at once, not at exit.
start_backend_cli() {
	exec 7>&-; rm -f /tmp/$1.fifo; mkfifo /tmp/$1.fifo; exec 7<>/tmp/$1.fifo
	cli_args=${BACKEND_APP_ARGS:-}
	TESTPMD_INPUT=/tmp/$1.fifo TESTPMD_WRAP="stdbuf -oL"
	BACKEND_APP_ARGS="-i --auto-start $cli_args"
	start_backend "$@"
	TESTPMD_INPUT= TESTPMD_WRAP= BACKEND_APP_ARGS=$cli_args
}
# backend_cmd <testpmd command>: runs it in the interactive backend; what it
# prints lands in $S/testpmd.log
backend_cmd() { echo "$*" >&7; }
# port_pkts <port> RX|TX: a port's packets as testpmd last printed them (its
# periodic statistics, or "show port stats" asked with backend_cmd)
port_pkts() {
	sed -n "/NIC statistics for port $1 /,/####\$/s/.*$2-packets: *\([0-9]*\).*/\1/p" $S/testpmd.log | tail -1
}
# mbufs_in_use <pool>: mbufs of testpmd's pool <pool> that are neither in
# the pool nor in a per-lcore cache (held by the application or a PMD),
# from the interactive backend's dump_mempool; "?" if it did not answer
# within 30 s
mbufs_in_use() {
	n0=$(grep -c 'common_pool_count=' $S/testpmd.log)
	backend_cmd "dump_mempool $1"
	i=0; while [ $(grep -c 'common_pool_count=' $S/testpmd.log) = $n0 ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
	sed -n "/mempool <$1>/,\$p" $S/testpmd.log | awk '
		/(^|[ >])size=[0-9]/ { sub(/.*size=/, ""); size = $0 + 0 }
		/total_cache_count=/ { sub(/.*total_cache_count=/, ""); cache = $0 + 0 }
		/common_pool_count=/ { sub(/.*common_pool_count=/, ""); common = $0 + 0; done = 1 }
		END { if (!done) print "?"; else print size - cache - common }'
}

# tcp_offloads <Tx offloads> <port>...: sets $BACKEND_APP_ARGS and
# $BACKEND_CMDS for TCP with offloads end to end. On the given ports, LRO
# (our netback offers the guest GSO only under it) and the TCP and UDP
# checksum Rx offloads (a blank checksum stays blank, for the next hop to
# finish); testpmd's --enable-lro would ask LRO of every port, and net_tap
# has none. Then all ports start, each with the Tx offloads (a mask of
# RTE_ETH_TX_OFFLOAD_*), so that whichever port sends a packet carries out
# its requests. No --max-lro-pkt-size: virtio-user refuses any size but
# its MTU's frame with LRO on, and our netback takes 64 KiB whatever it is.
tcp_offloads() {
	BACKEND_APP_ARGS="--disable-device-start --tx-offloads=$1"; shift
	BACKEND_CMDS=$(for p in "$@"; do
		for o in tcp_lro tcp_cksum udp_cksum; do echo "port config $p rx_offload $o on"; done
	done; echo "port start all")
}
# port_count <log> <port> RX|TX: a port's packets in testpmd's final statistics
port_count() {
	sed -n "/Forward statistics for port $2 /,/^ *+\{10,\}/s/.*$3-packets: *\([0-9]*\).*/\1/p" $1 | head -1
}

# kernel_netback: loads the kernel's xen-netback, to be unloaded at exit
# (after the guests are gone) so later scenarios get their vifs to themselves.
kernel_netback() {
	modprobe xen-netback || fail "modprobe xen-netback"
	trap 'collect; cleanup; rmmod xen-netback 2>/dev/null' EXIT
}
# kernel_vif_up <domid> <address/prefix>: the Dom0 end of a kernel-netback
# vif, addressed and up (vif-dpdk, the hotplug script, leaves it alone).
kernel_vif_up() {
	i=0; while [ ! -e /sys/class/net/vif$1.0 ] && [ $i -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
	ip addr add $2 dev vif$1.0 && ip link set vif$1.0 up || fail "vif$1.0 setup"
}

# pktgen_result <guest>: "sent usec" from the guest's pktgen line (the
# stock Linux guest's xdp.pktgen=SECS:SIZE)
pktgen_result() {
	r=$(grep 'DOMU-RESULT pktgen' $CONSOLE_DIR/guest-$1.log)
	echo "$r" | sed -n 's/.*sent=\([0-9]*\) usec=\([0-9]*\).*/\1 \2/p'
}

# guest_pktgen <guest> <kernel args> [backend pid]: a stock Linux guest
# whose kernel pktgen (xdp.pktgen in <kernel args>) sends into its vif,
# up until pktgen is done (bounded by the backend process when given).
# With $KERNEL_VIF=1, Dom0's end of the kernel netback's vif is addressed
# first. Leaves the guest up and "sent usec" in $PG_SENT and $PG_USEC.
guest_pktgen() {
	guest_cfg $1 initrd.gz 128 "$(dpdk_vif_line)" "$2"
	create_guest $1
	[ "${KERNEL_VIF:-0}" = 1 ] && kernel_vif_up $domid 10.0.0.1/24
	wait_guest $1 DOMU-DONE ${3:-}
	grep -E 'DOMU-|pps' $con
	set -- $(pktgen_result $1); PG_SENT=${1:-0} PG_USEC=${2:-0}
}
# pps <packets> <usec>: packets per second
pps() { awk "BEGIN{printf \"%.0f\", $1 * 1000000 / $2}"; }
# pktgen_row <backend> <sent> <usec> <received>: a row of the table
# "| backend | guest sent | guest pps | backend received | received pps |
# received/sent |"; none when the guest sent nothing
pktgen_row() {
	[ "${2:-0}" -gt 0 ] && [ "${3:-0}" -gt 0 ] || return 0
	echo "| $1 | $2 | $(pps $2 $3) | $4 | $(pps $4 $3) | $(awk "BEGIN{printf \"%.3f\", $4 / $2}") |"
}
# vif_rx <domid>: what Dom0's end of a kernel-netback vif received
vif_rx() { cat /sys/class/net/vif$1.0/statistics/rx_packets 2>/dev/null || echo 0; }

# median_rate: the median of the rates read (one a line) while traffic
# flowed: those of at least a tenth of the largest, without the first and
# the last of them (partial seconds) when there are 3 or more
median_rate() {
	awk '{ r[k++] = int($1); if (int($1) > top) top = int($1) } END {
		for (i = 0; i < k; i++) if (top > 0 && r[i] * 10 >= top) v[n++] = r[i]
		s = 0; e = n; if (n >= 3) { s = 1; e = n - 1 }
		m = e - s; if (m <= 0) { print 0; exit }
		for (i = s; i < e; i++) w[i - s] = v[i]
		for (i = 1; i < m; i++) { x = w[i]; for (j = i - 1; j >= 0 && w[j] > x; j--) w[j + 1] = w[j]; w[j + 1] = x }
		print (m % 2 ? w[int(m / 2)] : int((w[m / 2 - 1] + w[m / 2]) / 2)) }'
}
# sample_vif <domid> <file>: "uptime rx_packets" of vif<domid>.0 (what Dom0
# received from the guest) about every second, in the background
# ($SAMPLER, stopped by stop_sampler)
sample_vif() {
	: > $2
	(while :; do echo "$(up) $(vif_rx $1)"; sleep 1; done) > $2 &
	SAMPLER=$!
}
stop_sampler() { kill $SAMPLER 2>/dev/null; wait $SAMPLER 2>/dev/null; SAMPLER=; }
# vif_count <file>: the largest count sample_vif saw (the vif goes away
# when our netfront closes)
vif_count() { awk '$2 + 0 > n + 0 { n = $2 } END { print n + 0 }' $1; }
# vif_rate <file>: median per-second rate of sample_vif's counts
vif_rate() { awk 'NR > 1 && $1 > t { print int(($2 - c) / ($1 - t)) } { t = $1; c = $2 }' $1 | median_rate; }
# ratio <a> <b>: a/b to two places ("-" when b is 0)
ratio() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN{ if (b + 0 > 0) printf "%.2f", a / b; else print "-" }'; }

# txonly_field tx|secs: what the DPDK guest's testpmd txonly reported
# (packets sent, seconds it ran) on its console $con
txonly_field() { sed -n "s/.*DOMU-RESULT testpmd-txonly .*$1=\([0-9.]*\).*/\1/p" $con | head -1; }
# kernel_txonly <guest> <kernel args>: a DPDK guest (initrd-dpdk.gz) whose
# testpmd txonly (xdp.run=txonly:SECS in <kernel args>) sends through our
# netfront into the kernel's xen-netback (loaded by the caller), Dom0's
# end of the vif sampled every second. Returns when the guest is done,
# leaving it up, with the guest's count and seconds in $TXONLY_SENT and
# $TXONLY_SECS, and Dom0's count and median per-second rate in
# $TXONLY_GOT and $TXONLY_PPS.
kernel_txonly() {
	guest_cfg $1 initrd-dpdk.gz 256 "$(dpdk_vif_line)" "$2"
	create_guest $1
	kernel_vif_up $domid 10.0.0.1/24
	sample_vif $domid $S/vif-$1.txt
	wait_guest $1 DOMU-DONE
	sleep 1
	stop_sampler
	grep -E 'DOMU-(RESULT|XSTAT|NETFRONT|TESTPMD|GNTALLOC)' $con
	TXONLY_SENT=$(txonly_field tx) TXONLY_SECS=$(txonly_field secs)
	TXONLY_GOT=$(vif_count $S/vif-$1.txt) TXONLY_PPS=$(vif_rate $S/vif-$1.txt)
}

# dom0_pktgen_start <dev> <size> <dst ip> <dst mac>: the kernel's pktgen in
# Dom0 sends <size>-byte UDP frames out of <dev> (a kernel-netback vif: to
# its guest) as fast as it can, in the background until dom0_pktgen_stop:
# the Dom0 -> guest counterpart of the stock guest's xdp.pktgen. The Dom0
# image carries the pktgen module; unload it at exit (rmmod pktgen).
dom0_pktgen_start() {
	pg=/proc/net/pktgen
	[ -e $pg/pgctrl ] || modprobe pktgen || fail "modprobe pktgen"
	echo "rem_device_all" > $pg/kpktgend_0
	echo "add_device $1" > $pg/kpktgend_0 || fail "pktgen: add_device $1"
	for c in "count 0" "pkt_size $2" "delay 0" "dst $3" "dst_mac $4"; do
		echo "$c" > $pg/$1 || fail "pktgen $1: '$c' refused"
	done
	note "Dom0 pktgen: $2-byte frames out of $1 to $3 ($4)"
	# the write returns when pktgen stops
	echo start > $pg/pgctrl &
	PKTGEN_PID=$!
}
# dom0_pktgen_stop <dev>: stops Dom0's pktgen; its report in
# $S/pktgen-<dev>.txt; prints "sent usec" like pktgen_result
dom0_pktgen_stop() {
	echo stop > /proc/net/pktgen/pgctrl
	# called as $(...), a subshell, which cannot wait for the start writer:
	# pktgen has stopped when its report has a result
	wait_for 20 /proc/net/pktgen/$1 'Result: OK' || note "Dom0 pktgen on $1: no result 20 s after stop"
	cat /proc/net/pktgen/$1 > $S/pktgen-$1.txt 2>&1
	echo "$(sed -n 's/.*pkts-sofar: *\([0-9]*\).*/\1/p' $S/pktgen-$1.txt)" \
		"$(sed -n 's/.*Result: OK: *\([0-9]*\)(.*/\1/p' $S/pktgen-$1.txt)"
}

# gntdev mappings of the backend process: 2 per connected ring pair
backend_maps() { grep -c /dev/xen/gntdev /proc/$TESTPMD_PID/maps; }
# gkey_dump: Xen's grant-table dump (the 'g' debug key) alone, the console
# ring cleared before and after
gkey_dump() { xl dmesg -c > /dev/null; xl debug-keys g; sleep 1; xl dmesg -c; }
# active_grants <domid|all>: grant entries of domain <domid> (of any guest
# with "all") that Xen reports as in use by another domain, leaving out the
# reserved ones (0-7: xenconsoled and xenstored map 0 and 1). Xen's dump is
# left in $S/grants-d<domid>.txt.
active_grants() {
	gkey_dump | tee $S/grants-d$1.txt | awk -v d="grant-table for remote d$1 " -v all=$([ "$1" = all ] && echo 1) '
		index($0, "grant-table for remote") { on = all ? !index($0, "remote d0 ") : index($0, d) > 0; next }
		index($0, "gnttab_usage_print_all") { on = 0 }
		on && /\[0x[0-9a-f]+\]/ && !/\[0x0*[0-7]\]/ { n++ } END { print n + 0 }'
}
# wait_domid_change <name> <old domid>: the guest's new domain id after a
# reboot (bounded: 120 s)
wait_domid_change() {
	i=0
	while [ $i -lt 240 ]; do
		d=$(xl domid $1 2>/dev/null)
		[ -n "$d" ] && [ "$d" != "$2" ] && { echo $d; return 0; }
		sleep 0.5; i=$((i + 1))
	done
	return 1
}
# dom0_evtchns: Dom0's event channels that are not closed, one line each
# (lsevtchn 0); a backend that leaks leaves some behind
dom0_evtchns() { lsevtchn 0 2>&1; }

# vif_offloads <domid>: the offload keys both ends of the guest's vif 0
# wrote, one table row "| key | backend | frontend |" each ("-": none)
vif_offloads() {
	for k in feature-gso-tcpv4 feature-gso-tcpv6 feature-no-csum-offload feature-ipv6-csum-offload feature-sg; do
		echo "| $k | $(xenstore-read /local/domain/0/backend/vif/$1/0/$k 2>/dev/null || echo -)" \
			"| $(xenstore-read /local/domain/$1/device/vif/0/$k 2>/dev/null || echo -) |"
	done
}
# gso_negotiated <domid>: true when GSO over TCPv4 is on between the ends of
# the guest's vif 0: the backend offers it and the frontend wrote it too
gso_negotiated() {
	[ "$(xenstore-read /local/domain/0/backend/vif/$1/0/feature-gso-tcpv4 2>/dev/null)" = 1 ] &&
		[ "$(xenstore-read /local/domain/$1/device/vif/0/feature-gso-tcpv4 2>/dev/null)" = 1 ]
}

# csum_errors: packets Dom0's IP, ICMP, TCP and UDP dropped for a bad
# checksum (InCsumErrors of /proc/net/snmp and /proc/net/netstat)
csum_errors() {
	cat /proc/net/snmp /proc/net/netstat | awk '
		$1 == p { if (i) n += $i; p = ""; next }
		{ p = $1; i = 0; for (f = 2; f <= NF; f++) if ($f == "InCsumErrors") i = f }
		END { print n + 0 }'
}

# rtt_summary <console> <count>: what iputils ping (xdp.rtt=1) printed per
# reply, judged by sequence number, not by its closing count: $ANSWERED
# distinct requests of 1..<count> answered, $DUPS duplicate replies, $MISSING
# the unanswered sequence numbers (at most 20), and $RTT_LINE the round trip
# distribution in ms (min, median, p90, p99 by nearest rank, max, and how
# many replies took more than 10, 100 and 1000 ms).
rtt_summary() {
	rtt_con=$1
	set -- $(awk -v n=$2 '
		match($0, /icmp_seq=[0-9]+/) && / time=/ {
			q = substr($0, RSTART + 9, RLENGTH - 9) + 0
			if (seen[q]++) { dups++; next }
			if (q >= 1 && q <= n) ok++
		}
		END {
			m = ""; k = 0
			for (q = 1; q <= n && k < 20; q++) if (!(q in seen)) { m = m (k++ ? "," : "") q }
			printf "%d %d %s\n", ok, dups, m == "" ? "-" : m
		}' $1)
	ANSWERED=$1 DUPS=$2 MISSING=$3
	RTT_LINE=$(grep -v DUP $rtt_con | sed -n 's/.*icmp_seq=[0-9]* .*time=\([0-9.]*\) ms.*/\1/p' | sort -n | awk '
		{ v[NR] = $1; if ($1 > 10) a++; if ($1 > 100) b++; if ($1 > 1000) c++ }
		function rank(p,  r) { r = int(NR * p); if (r < NR * p) r++; return v[r < 1 ? 1 : r] }
		END {
			if (NR == 0) { print "no replies"; exit }
			printf "min %s median %s p90 %s p99 %s max %s ms; >10 ms %d, >100 ms %d, >1 s %d of %d\n",
				v[1], rank(0.5), rank(0.9), rank(0.99), v[NR], a, b, c, NR
		}')
	# The guest's steal time over its ping (domu-init.sh's DOMU-STEAL
	# lines, in USER_HZ = 100 ticks a second): the share of the time its
	# vCPU was ready to run and waited for a CPU, which delays replies as
	# much as any backend can.
	STEAL=$(sed -n 's/.*DOMU-STEAL \(before\|after\) \([0-9]*\) uptime=\([0-9.]*\).*/\2 \3/p' $rtt_con |
		awk 'NR == 1 { s = $1; t = $2 } NR == 2 && $2 > t { printf "%.0f", ($1 - s) / ($2 - t) }')
	[ -z "$STEAL" ] || RTT_LINE="$RTT_LINE; the guest's vCPU waited for a CPU $STEAL% of the time"
}

# ping_judged <label>: the guest's ping (xdp.rtt=1) in $con judged by
# rtt_summary: every one of $COUNT requests answered exactly once. A reply
# counts however late it comes while ping waits (-w: see domu-init.sh):
# lateness is reported (the distribution), loss and duplicates fail. Prints the eth0 counters the guest read after ping, so a reply
# the netfront received but ping never saw stands out.
ping_judged() {
	grep -q 'DOMU-RESULT arp=ok' $con || fail "$1: ARP for 10.0.0.1 not resolved"
	rtt_summary $con $COUNT
	note "$1: $ANSWERED/$COUNT answered, $DUPS duplicates, unanswered: $MISSING"
	note "$1: rtt $RTT_LINE"
	grep -E 'DOMU-(STEAL|ETH0)' $con
	[ "$ANSWERED" = "$COUNT" ] && [ "$DUPS" = 0 ] ||
		fail "$1: $ANSWERED of $COUNT requests answered, $DUPS duplicates (unanswered: $MISSING)"
}

# netback_ping_guest <tag> <extra kernel args>: our netback under testpmd
# icmpecho claims the vif of a new Linux DomU <tag>-linux, which resolves
# 10.0.0.1 by ARP and sends $COUNT echo requests with iputils ping (each
# reply's rtt printed) and does whatever the extra xdp.* arguments ask;
# fails unless every request is answered once (ping_judged). Leaves the
# console in $con, the testpmd log in $S/testpmd.log.
netback_ping_guest() {
	domu=$1-linux
	trap 'collect; cleanup' EXIT
	start_backend $1 icmpecho --vdev $(ours_vdev $domu)
	guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line)" \
		"xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=$COUNT xdp.interval=0.01 xdp.rtt=1 $2"
	create_guest $domu
	wait_guest $domu DOMU-DONE $TESTPMD_PID
	grep -E 'DOMU-RESULT|packets transmitted|rtt ' $con
	stop_testpmd
	sed -n '/Forward statistics for port 0/,/^ *+\{10,\}/p' $S/testpmd.log | tail -12
	grep -E 'xen_netback|NETBACK|netif' $S/testpmd.log | head -30
	ping_judged "ours"
}
