# SPDX-License-Identifier: BSD-3-Clause
#
# Scenario st (testbed check, no netback at all): is the emulated machine
# sound? In Dom0: 50 sha256sum runs over a 32 MiB random file on both vCPUs
# (two workers, results compared with the first) while 4 rounds of xl create
# / xl destroy of a DomU without a vif run (the DomU kernel is
# XZ-decompressed in Dom0 by libxenguest each time), then 150 short
# pipelines of cut | awk | grep (programs that segfaulted under -cpu max). Fails on any wrong
# sum, wrong pipeline output, segfault (Dom0 dmesg, guest console) or failed
# create. XDP_ST_SUMS, XDP_ST_PIPES, XDP_ST_CREATES change the counts.
. /host/scenarios/lib.sh
SUMS=${XDP_ST_SUMS:-50}; PIPES=${XDP_ST_PIPES:-150}; CREATES=${XDP_ST_CREATES:-4}
trap 'collect; cleanup' EXIT
seg0=$(dmesg | grep -c segfault)
t=$(up)
head -c 33554432 /dev/urandom > /tmp/st-big || fail "no random file"
ref=$(sha256sum /tmp/st-big | cut -d' ' -f1)
note "32 MiB file made and summed in $(since $t)s: $ref"
cat > /tmp/st-domu.cfg <<CFG
name = "st-domu"
type = "pv"
kernel = "/root/domu/vmlinux"
ramdisk = "/root/domu/initrd.gz"
extra = "console=hvc0 quiet xdp.count=0"
memory = 128
vcpus = 1
vif = [ ]
CFG
# the sums run on both Dom0 vCPUs while the DomUs come and go: Xen then
# switches vCPUs on the two physical CPUs all the time (as in scenario 1c,
# where testpmd busy-polls)
t=$(up)
rm -f /tmp/st-stop
# each worker: at least $1 sums, and on until the creates are done
worker() { i=0; bad=0; while [ $i -lt $1 ] || [ ! -f /tmp/st-stop ]; do
	s=$(sha256sum /tmp/st-big | cut -d' ' -f1); [ "$s" = "$ref" ] || { bad=$((bad + 1)); echo "sum $i: $s" >&2; }
	i=$((i + 1)); done; echo "$bad $i"; }
worker $((SUMS / 2)) > /tmp/st-w1 & p1=$!
worker $((SUMS - SUMS / 2)) > /tmp/st-w2 & p2=$!
badcreate=0; domuseg=0; n=0
while [ $n -lt $CREATES ]; do
	n=$((n + 1)); t1=$(up)
	rm -f $CONSOLE_DIR/guest-st-domu.log
	timeout 120 xl create /tmp/st-domu.cfg > $S/xl-create-$n.log 2>&1; rc=$?
	if [ $rc != 0 ]; then
		badcreate=$((badcreate + 1))
		note "create $n rc=$rc: $(grep -iE 'error|fail' $S/xl-create-$n.log | head -3 | tr '\n' ' ')"
	else
		wait_for 120 $CONSOLE_DIR/guest-st-domu.log 'DOMU-UP' || { badcreate=$((badcreate + 1)); note "create $n: no DOMU-UP in 120 s"; }
		sleep 5
		s=$(grep -c Segmentation $CONSOLE_DIR/guest-st-domu.log); domuseg=$((domuseg + s))
		cp $CONSOLE_DIR/guest-st-domu.log $S/guest-st-domu-$n.log
		note "create $n rc=0, up in $(since $t1)s, segfaults in guest: $s"
	fi
	timeout 60 xl destroy st-domu 2>/dev/null
done
touch /tmp/st-stop
wait $p1 $p2
read b1 n1 < /tmp/st-w1 || b1=99; read b2 n2 < /tmp/st-w2 || b2=99
badsum=$((b1 + b2)); SUMS=$((${n1:-0} + ${n2:-0}))
note "sha256sum: $SUMS runs (during the creates) in $(since $t)s, wrong: $badsum"
t=$(up); i=0; badpipe=0
while [ $i -lt $PIPES ]; do
	r=$(echo "a b$i c" | cut -d' ' -f2 | awk '{print $1 "x"}' | grep -c "^b${i}x\$")
	[ "$r" = 1 ] || badpipe=$((badpipe + 1))
	i=$((i + 1))
done
note "pipelines: $PIPES in $(since $t)s, wrong: $badpipe"
seg=$(( $(dmesg | grep -c segfault) - seg0 ))
dmesg | grep segfault | tail -5
res="sums wrong $badsum/$SUMS, pipelines wrong $badpipe/$PIPES, Dom0 segfaults $seg, creates failed $badcreate/$CREATES, DomU segfaults $domuseg"
[ $badsum = 0 ] && [ $badpipe = 0 ] && [ $seg = 0 ] && [ $badcreate = 0 ] && [ $domuseg = 0 ] || fail "$res"
pass "$res"
