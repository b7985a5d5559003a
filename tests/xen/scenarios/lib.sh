# SPDX-License-Identifier: BSD-3-Clause
#
# Sourced by every scenario. Runs in Dom0 (from the 9p share /host), as root.
# Conventions: a scenario writes its files under $S (/host/<name>/), reports
# with pass/fail (one "SCENARIO-RESULT <name> PASS|FAIL <reason>" line), and
# bounds every wait. The DomU console is $CONSOLE_DIR/guest-<domu name>.log.
PMD_DIR=/opt/xen-dpdk-pmd
NETBACK_SO=$PMD_DIR/librte_net_xen_netback.so
NETFRONT_SO=$PMD_DIR/librte_net_xen_netfront.so
CONSOLE_DIR=/var/log/xen/console
VIF_EXAMPLE=/etc/xen/vif-dpdk.cfg.example
: ${NAME:?} ${S:?}
up() { cut -d' ' -f1 /proc/uptime; }
since() { awk "BEGIN{printf \"%.1f\", $(up)-$1}"; }
note() { echo "[$(up)] $NAME: $*"; }
pass() { echo "SCENARIO-RESULT $NAME PASS $*"; exit 0; }
fail() { echo "SCENARIO-RESULT $NAME FAIL $*"; exit 1; }

# The vif line an operator would use (config/xen/vif-dpdk.cfg.example).
dpdk_vif_line() { grep '^vif *=' "$VIF_EXAMPLE"; }

# Domain ids are handed out in sequence; the DPDK backend must be told the
# guest's domid before xl create runs. /run/xdp-last-domid tracks it.
next_domid() {
	last=$(cat /run/xdp-last-domid 2>/dev/null || echo 0)
	for d in $(xl list | awk 'NR>1{print $2}'); do [ "$d" -gt "$last" ] && last=$d; done
	echo $((last + 1))
}
domu_created() { xl domid "$1" > /run/xdp-last-domid 2>/dev/null; }

# wait_for <seconds> <file> <extended regex> [pid]: 0 when a line matches;
# 1 on timeout (measured in Dom0 uptime: under TCG a loop count is no clock)
# or when the process [pid] has exited.
wait_for() {
	end=$(awk "BEGIN{print $(up)+$1}"); f=$2; re=$3; pid=${4:-}
	while :; do
		grep -qE "$re" "$f" 2>/dev/null && return 0
		[ -n "$pid" ] && ! kill -0 $pid 2>/dev/null && { grep -qE "$re" "$f" 2>/dev/null; return $?; }
		now=$(up)
		[ -n "$now" ] && awk "BEGIN{exit !($now >= $end)}" && return 1
		sleep 0.5
	done
}

# start_testpmd <log> <eal/vdev args> -- <testpmd args>: background, pid in $TESTPMD_PID.
start_testpmd() {
	log=$1; shift
	note "dpdk-testpmd $*"
	dpdk-testpmd "$@" </dev/null >"$log" 2>&1 &
	TESTPMD_PID=$!
}
# SIGINT makes testpmd print its final statistics and exit.
stop_testpmd() {
	[ -n "${TESTPMD_PID:-}" ] || return 0
	kill -INT $TESTPMD_PID 2>/dev/null
	i=0; while kill -0 $TESTPMD_PID 2>/dev/null && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
	if kill -0 $TESTPMD_PID 2>/dev/null; then note "testpmd did not exit on SIGINT within 20 s: SIGKILL"; kill -9 $TESTPMD_PID; fi
	wait $TESTPMD_PID 2>/dev/null; TESTPMD_PID=
}

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
	for d in $(xl list | awk 'NR>2{print $1}'); do timeout 60 xl destroy "$d" || note "xl destroy $d failed"; done
}
