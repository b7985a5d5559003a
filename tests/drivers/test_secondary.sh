#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# DPDK's own tools attach to a running backend as secondary processes:
# one stock dpdk-testpmd (the primary) holds a netback port (0) and the
# netfront port (1) that is its guest, over a simulator instance,
# forwarding between the two (io, --tx-first), and a watcher (vifs=) that
# finds no guest. dpdk-proc-info reads both
# ports' statistics and the PMDs' extended counters, and names a port it
# asks for that the primary lacks; dpdk-pdump captures what the netback
# port receives and sends; the primary forwards on after them, and
# quits cleanly. Secondary
# processes share the primary's memory, so this test reserves 2 MiB
# hugepages (as root) and gives them back at exit. Prints TAP.
#
# usage: test_secondary.sh <dpdk-testpmd> <dpdk-proc-info> <dpdk-pdump>
#        <build dir>
set -u
testpmd="$1"
proc_info="$2"
pdump="$3"
build="$4"
here=$(dirname "$(realpath "$0")")
. "$here/../common/sim_processes.sh" secondary "$build"
prefix="secondary-$$"
pmd_args="provider=sim,sim=$inst,domid=1"
pages=256

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP reserving hugepages needs root"
	exit 0
fi
before=$(cat /proc/sys/vm/nr_hugepages)
echo $((before + pages)) >/proc/sys/vm/nr_hugepages
added=$(($(cat /proc/sys/vm/nr_hugepages) - before))
mkdir "$work/huge"
mount -t hugetlbfs -o pagesize=2M nodev "$work/huge"
cleanup() {
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
	umount "$work/huge"
	echo $(($(cat /proc/sys/vm/nr_hugepages) - added)) \
		>/proc/sys/vm/nr_hugepages
	sim_processes_cleanup
}
trap cleanup EXIT

eal="--no-pci --file-prefix $prefix --huge-dir $work/huge -d $plugins"
"$testpmd" --lcores 0@0,1@1 $eal --vdev "net_xen_netback0,$pmd_args" \
	--vdev "net_xen_netfront0,$pmd_args" \
	--vdev "net_xen_netback_all,vifs=no-such-guest-*,provider=sim,sim=$inst" -- \
	--forward-mode=io --tx-first --stats-period=1 --nb-cores=1 \
	--total-num-mbufs=8192 >"$work/testpmd.log" 2>&1 &
primary=$!
pids+=("$primary")
for _ in $(seq 100); do
	grep -q 'RX-pps' "$work/testpmd.log" && break
	sleep 0.2
done

# Packets the primary's port @1 has received, from its last statistics.
rx_packets() {
	grep -A2 "NIC statistics for port $1 " "$work/testpmd.log" |
		grep -o 'RX-packets: *[0-9]*' | tail -n 1 | grep -o '[0-9]*$'
}

echo "1..5"
"$proc_info" $eal -- --stats >"$work/proc-info.log" 2>&1
python3 - "$work/proc-info.log" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
# ######## NIC statistics for port 0 ######## ... RX-packets: N
stats = re.findall(r'NIC statistics for port (\d+)\s*#+\s*'
                   r'RX-packets:\s*(\d+)', text)
ok = {p for p, n in stats if int(n) > 0} == {'0', '1'}
# The primary's watcher (vifs=) is no port: nothing to refuse.
ok = ok and 'no such port' not in text
sys.exit(0 if ok else 1)
EOF
tap_result $? 1 "dpdk-proc-info --stats: both ports, packets received, a watcher ignored" \
	"$work/proc-info.log"

"$proc_info" $eal -- --xstats >"$work/xstats.log" 2>&1
python3 - "$work/xstats.log" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
ports = {}
for port, body in re.findall(r'NIC extended statistics for port (\d+)'
                             r'(.*?)(?=NIC extended statistics|\Z)', text, re.S):
    ports[port] = {k: int(v) for k, v in
                   re.findall(r'^\s*(\w+):\s*(\d+)\s*$', body, re.M)}
back, front = ports.get('0', {}), ports.get('1', {})
print('# port 0: rx_q0_packets %s, rx_q0_grant_maps %s; port 1: '
      'rx_q0_packets %s' % (back.get('rx_q0_packets'),
                            back.get('rx_q0_grant_maps'),
                            front.get('rx_q0_packets')))
# The netback mapped its guest's ring; both ends count their packets.
ok = (back.get('rx_q0_packets', 0) > 0 and
      back.get('rx_q0_grant_maps', 0) >= 1 and 'ctrl_events' in back and
      front.get('rx_q0_packets', 0) > 0)
sys.exit(0 if ok else 1)
EOF
tap_result $? 2 "dpdk-proc-info --xstats: the PMDs' counters" "$work/xstats.log"

# A port the primary does not have: refused, by name.
"$proc_info" $eal --vdev "net_xen_netback7,$pmd_args" -- --stats \
	>"$work/unknown.log" 2>&1
grep -q 'net_xen_netback7: no such port in the primary process' \
	"$work/unknown.log"
tap_result $? 3 "a --vdev the primary does not have: refused by name" \
	"$work/unknown.log"

# The primary copies what port 0 receives and sends into dpdk-pdump's
# mempool with dpdk-pdump's mempool ops, which it knows only by their
# index in its own table. Debian's dpdk-testpmd links a mempool driver
# (librte_mempool_dpaa) that dpdk-pdump does not, so their tables differ
# and the primary would use another driver's ops on that pool (logging
# "mempool/dpaa2: Failed to allocate IO portal"), capturing nothing:
# dpdk-pdump loads the same drivers first.
preload=$(readelf -d "$testpmd" | grep -o 'librte_mempool_[a-z0-9_]*\.so\.[0-9]*')
LD_PRELOAD="$preload" timeout -s INT 2 "$pdump" $eal -- \
	--pdump "port=0,queue=*,rx-dev=$work/rx.pcap,tx-dev=$work/tx.pcap" \
	>"$work/pdump.log" 2>&1
python3 - "$work/rx.pcap" "$work/tx.pcap" >>"$work/pdump.log" 2>&1 <<'EOF'
import struct, sys
# testpmd's --tx-first frames: IPv4 UDP, 64 bytes.
for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    magic = struct.unpack_from('<I', data)[0]
    assert magic in (0xa1b2c3d4, 0xa1b23c4d), hex(magic)
    off, frames = 24, 0
    # The first thousand frames, each whole: enough to know the copies.
    while off + 16 <= len(data) and frames < 1000:
        caplen, length = struct.unpack_from('<II', data, off + 8)
        frame = data[off + 16:off + 16 + caplen]
        off += 16 + caplen
        assert caplen == length == 64, (caplen, length)
        assert frame[12:14] == b'\x08\x00' and frame[23] == 17, frame.hex()
        frames += 1
    print('# %s: %d bytes, %d frames checked' % (path, len(data), frames))
    assert frames > 0
EOF
tap_result $? 4 "dpdk-pdump: the netback port's Rx and Tx frames, whole" \
	"$work/pdump.log"

first=$(rx_packets 0)
sleep 2
last=$(rx_packets 0)
kill -INT "$primary"
wait "$primary"
rc=$?
[ "$rc" = 0 ] && [ -n "$first" ] && [ -n "$last" ] && [ "$last" -gt "$first" ]
tap_result $? 5 "the primary forwards on after the tools, then quits (rc $rc)" \
	"$work/testpmd.log"
exit $fail
