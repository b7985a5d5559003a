# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario 10: our netback's link settings against a stock Linux guest.
#   MTU: the guest's vif has mtu=9000 (xl); libxl writes the mtu key in the
#   frontend's directory, our port reports MTU 9000 to testpmd (show port
#   info), and 8000-byte pings that may not be fragmented (-M do) from the
#   guest, its eth0 at 9000, are all answered (testpmd icmpecho).
#   Carrier (stall_timeout_ms=2000): under a txonly flood the port keeps its
#   link while the guest takes packets; when the guest takes eth0 down (its
#   netfront stops reading and refilling its RX ring) the link goes down
#   after the timeout (LSC event, tx_q0_guest_stalls 1), and comes back up
#   once eth0 is up again.
# Linux 6.1's netfront does not read the mtu key: the guest sets 9000 itself
# (xdp.mtu), as an administrator would. testpmd runs interactive, fed
# through a FIFO, to switch from icmpecho to txonly and to show the port.
# Runs in Dom0; sourced by run.sh with NAME and S set.
. /host/scenarios/lib.sh
domu=s10-linux
TIMEOUT=${XDP_STALL_TIMEOUT_MS:-2000}
MTU=${XDP_MTU:-9000}; BIG=${XDP_BIG_SIZE:-8000}
# the guest takes the flood BUSY s (link must stay up), then is down DOWN s
BUSY=6 DOWN=10
fifo=/tmp/s10-testpmd.in
# a testpmd that died must fail the scenario, not kill it with SIGPIPE
trap '' PIPE
trap 'exec 3>&-; collect; cleanup' EXIT

# pmd <regex> <command>: one command to testpmd; its output in $OUT once a
# line of it matches regex (within 30 s: else the scenario fails)
pmd() {
	n=$(wc -l < $S/testpmd.log)
	echo "$2" >&3 || fail "testpmd gone before '$2'"
	end=$(awk "BEGIN{print $(up)+30}")
	until tail -n +$((n + 1)) $S/testpmd.log | grep -qE "$1"; do
		awk "BEGIN{exit !($(up) < $end)}" && kill -0 $TESTPMD_PID 2>/dev/null ||
			{ tail -30 $S/testpmd.log; fail "testpmd: no '$1' after '$2'"; }
		sleep 0.3
	done
	sleep 0.3 # the rest of the output
	OUT=$(tail -n +$((n + 1)) $S/testpmd.log)
}
# key <name>: the value of "name: value" in $OUT
key() { echo "$OUT" | sed -n "s/^ *$1: *\([^ ]*\).*/\1/p" | head -1; }
# seen <file> <regex>: $T is Dom0's uptime once a line matches (within 60 s:
# else the scenario fails); polled every 0.5 s
seen() {
	wait_for 60 $1 "$2" $TESTPMD_PID || { tail -20 $1; fail "no '$2' within 60 s"; }
	T=$(up)
}
lsc() { grep -c 'Port 0: link state change event' $S/testpmd.log; }

rm -f $fifo; mkfifo $fifo || fail "mkfifo $fifo"
# as start_testpmd, but reading its commands from the FIFO, held open for
# writing from here on (testpmd quits at its end of file), and with its
# stdout line-buffered: its answers to commands are not flushed otherwise
set -- --no-huge -m 512 --no-pci -l 0,1 --file-prefix s10 \
	-d $NETBACK_SO --log-level=pmd.net.xen_netback:info --log-level=lib.netif:info \
	--vdev "$(ours_vdev $domu),stall_timeout_ms=$TIMEOUT" \
	-- -i --forward-mode=icmpecho --total-num-mbufs=8192 --no-mlockall
note "stdbuf -oL dpdk-testpmd $*"
stdbuf -oL dpdk-testpmd "$@" <$fifo >$S/testpmd.log 2>&1 &
TESTPMD_PID=$!
exec 3>$fifo
wait_for 120 $S/testpmd.log 'testpmd> ' $TESTPMD_PID || { tail -30 $S/testpmd.log; fail "testpmd: no prompt within 120 s"; }
pmd 'packet forwarding - ports' start

guest_cfg $domu initrd.gz 128 "$(dpdk_vif_line | sed "s/' *\]/,mtu=$MTU&/")" \
	"xdp.ip=10.0.0.2/24 xdp.peer=10.0.0.1 xdp.count=20 xdp.interval=0.05 xdp.mtu=$MTU xdp.dfsizes=$BIG xdp.carrier=$BUSY:$DOWN"
create_guest $domu
con=$CONSOLE_DIR/guest-$domu.log
wait_guest $domu 'DOMU-CARRIER waiting|DOMU-DONE' $TESTPMD_PID
grep -E 'DOMU-|packets transmitted|round-trip|rtt' $con

# MTU
key_mtu=$(xenstore-read /local/domain/$domid/device/vif/0/mtu 2>/dev/null)
note "vif mtu key: /local/domain/$domid/device/vif/0/mtu = ${key_mtu:-absent}" \
	"(backend directory: $(xenstore-read /local/domain/0/backend/vif/$domid/0/mtu 2>/dev/null || echo absent))"
pmd '^MTU: ' 'show port info 0'
echo "$OUT" | grep -E 'Link status|MTU'
port_mtu=$(key MTU); link0=$(key 'Link status')
guest_mtu=$(sed -n 's/.*DOMU-MTU .*now=\([0-9]*\).*/\1/p' $con)
netfront_mtu=$(sed -n 's/.*DOMU-MTU netfront=\([0-9]*\).*/\1/p' $con)
big=$(grep "DOMU-RESULT dfsize-$BIG " $con)
big_rx=$(echo "$big" | sed -n 's/.* received=\([0-9]*\).*/\1/p')
frames=$(echo "$big" | sed -n 's/.*\(tx_avg=[0-9]* rx_avg=[0-9]*\).*/\1/p')
note "MTU: key ${key_mtu:-absent}, port $port_mtu, guest eth0 $guest_mtu (netfront left ${netfront_mtu:-?});" \
	"$BIG-byte pings with -M do: ${big_rx:-0}/20 answered ($frames bytes per frame)"
[ "$key_mtu" = $MTU ] || fail "xl's mtu=$MTU: the frontend's mtu key is '${key_mtu:-absent}'"
[ "$port_mtu" = $MTU ] || fail "port MTU $port_mtu, the vif's is $MTU"
[ "$guest_mtu" = $MTU ] || fail "guest eth0 MTU '$guest_mtu', not $MTU"
grep -q 'DOMU-RESULT arp=ok' $con || fail "ARP for 10.0.0.1 not resolved"
grep -q 'DOMU-RESULT ping rc=0 transmitted=20 received=20 ' $con || fail "small pings: $(grep 'DOMU-RESULT ping' $con)"
echo "$big" | grep -q 'rc=0 transmitted=20 received=20 ' || fail "$BIG-byte pings: ${big:-no result}"

# Carrier
pmd 'tx_q0_guest_stalls: ' 'show port xstats 0'
stalls0=$(key tx_q0_guest_stalls)
[ "$stalls0" = 0 ] || fail "tx_q0_guest_stalls $stalls0 before any stall"
[ "$link0" = up ] || fail "link $link0 before the flood"
pmd 'Done\.' stop
pmd 'Set txonly packet forwarding mode' 'set fwd txonly'
lsc0=$(lsc)
pmd 'packet forwarding - ports' start
note "txonly flood into the guest from $(up)"
seen $con 'DOMU-CARRIER flood'; t_busy=$T
seen $con 'DOMU-CARRIER down'; t_gdown=$T
# the guest took the flood, eth0 up, for longer than the timeout
grep -q 'guest RX stalled' $S/testpmd.log &&
	fail "link down while the guest took packets ($(grep 'guest RX stalled' $S/testpmd.log))"
seen $S/testpmd.log 'guest RX stalled: link down'; t_ldown=$T
d_down=$(awk "BEGIN{printf \"%.1f\", $t_ldown - $t_gdown}")
note "eth0 down at $t_gdown (flood taken from $t_busy), link down at $t_ldown: after ${d_down}s"
pmd '^MTU: ' 'show port info 0'
link_down=$(key 'Link status')
pmd 'tx_q0_guest_stalls: ' 'show port xstats 0'
stalls=$(key tx_q0_guest_stalls)
note "while down: link $link_down, tx_q0_guest_stalls $stalls"
seen $con 'DOMU-CARRIER up'; t_gup=$T
seen $S/testpmd.log 'guest RX ready: link up'; t_lup=$T
d_up=$(awk "BEGIN{printf \"%.1f\", $t_lup - $t_gup}")
note "eth0 up at $t_gup, link up at $t_lup: after ${d_up}s"
pmd '^MTU: ' 'show port info 0'
link_up=$(key 'Link status')
wait_guest $domu DOMU-DONE $TESTPMD_PID
lsc1=$(lsc)
pmd 'Done\.' stop
echo "$OUT" | sed -n '/Forward statistics for port 0/,/^ *-\{10,\}/p'
pmd 'tx_q0_guest_stalls: ' 'show port xstats 0'
stalls1=$(key tx_q0_guest_stalls)
grep -E 'DOMU-CARRIER|DOMU-RESULT carrier|DOMU-STAT' $con
grep -E 'guest RX|link state change' $S/testpmd.log
pmd 'Bye' quit
stop_testpmd

res=$(grep 'DOMU-RESULT carrier' $con)
rx_down=$(echo "$res" | sed -n 's/.*rx_down=\([0-9]*\).*/\1/p')
rx_after=$(echo "$res" | sed -n 's/.*rx_after=\([0-9]*\).*/\1/p')
note "guest: took $rx_down packets while down, $rx_after after up; LSC events in the flood $((lsc1 - lsc0));" \
	"tx_q0_guest_stalls $stalls0 -> $stalls -> $stalls1"
[ "$rx_down" = 0 ] || fail "the guest took ${rx_down:-?} packets with eth0 down: no stall ($res)"
# the link goes down a timeout after the guest stopped taking packets, not
# sooner (less the 0.5 s of each wait's polling), and not much later (the
# alarm looks four times per timeout: TCG's slowness gets 5 s)
awk "BEGIN{exit !($d_down >= $TIMEOUT / 1000 - 1 && $d_down <= $TIMEOUT / 1000 + 5)}" ||
	fail "link down ${d_down}s after eth0 down, stall_timeout_ms=$TIMEOUT"
[ "$link_down" = down ] || fail "show port info: link $link_down while the guest stalled"
[ "${stalls:-0}" -ge 1 ] || fail "tx_q0_guest_stalls ${stalls:-?} while the guest stalled"
# not up before eth0 is (the guest was down DOWN s), and soon after
awk "BEGIN{exit !($d_up >= -1 && $d_up <= 5)}" || fail "link up ${d_up}s after eth0 up"
[ "$link_up" = up ] || fail "show port info: link $link_up after eth0 up"
[ "${rx_after:-0}" -gt 100 ] || fail "the guest took ${rx_after:-?} packets after eth0 up"
# one down, one up: no stall while the guest took the flood
[ $((lsc1 - lsc0)) = 2 ] && [ "$stalls1" = 1 ] ||
	fail "$((lsc1 - lsc0)) LSC events and $stalls1 stalls for one eth0 down and up"
pass "MTU $MTU (key, port, guest), $big_rx/20 $BIG-byte pings;" \
	"link down ${d_down}s after eth0 down (timeout ${TIMEOUT} ms), up ${d_up}s after eth0 up, tx_q0_guest_stalls $stalls1"
