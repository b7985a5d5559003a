#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# PID 1 of the harness's Dom0, which runs entirely from its initramfs.
# Brings up the Xen userspace without systemd (xenstored, xen-init-dom0,
# xenconsoled), mounts the host's 9p share (tag "host0") at /host, runs
# /host/run.sh there (written by tests/xen/run-scenario.sh) under a time
# limit (xdp.limit=<s> on the Dom0 command line, default 1200), copies the
# Xen logs to /host/logs and powers off. The kernel's xen-netback is not
# loaded: a scenario that wants it does "modprobe xen-netback" itself.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:/usr/lib/xen-4.17/bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm /dev/hugepages; mount -t devpts devpts /dev/pts; mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run; mount -t tmpfs tmpfs /tmp
mkdir -p /run/xen /run/xenstored /run/lock /var/log/xen/console /var/lib/xen
up() { cut -d' ' -f1 /proc/uptime; }
echo "DOM0-INIT uptime=$(up)"
for m in xenfs xen-evtchn xen-gntdev xen-gntalloc xen-privcmd 9pnet_virtio 9p virtio_pci; do
	modprobe $m || echo "DOM0-INIT modprobe $m FAILED"; done
mount -t xenfs xenfs /proc/xen
ip link set lo up
xenstored --pid-file=/run/xenstored.pid || echo "DOM0-INIT xenstored FAILED"
xen-init-dom0 || echo "DOM0-INIT xen-init-dom0 FAILED"
xenconsoled --pid-file=/run/xenconsoled.pid --log=guest --log-dir=/var/log/xen/console ||
	echo "DOM0-INIT xenconsoled FAILED"
echo "DOM0-READY uptime=$(up)"
limit=$(sed -n 's/.*\bxdp\.limit=\([0-9]*\).*/\1/p' /proc/cmdline)
mkdir -p /host
if mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 host0 /host && [ -f /host/run.sh ]; then
	( cd /root && timeout -k 5 ${limit:-1200} sh /host/run.sh; echo "DOM0-RUN-RC=$?" ) 2>&1 | tee /host/out.txt
	mkdir -p /host/logs; cp -r /var/log/xen /host/logs/ 2>/dev/null
	xl dmesg > /host/logs/xl-dmesg.txt 2>&1; dmesg > /host/logs/dom0-dmesg.txt
	echo "DOM0-DONE uptime=$(up)" | tee -a /host/out.txt
	sync; umount /host
else
	echo "DOM0-INIT no /host/run.sh: shell on hvc0"; setsid sh -c 'exec sh </dev/hvc0 >/dev/hvc0 2>&1'
fi
echo o > /proc/sysrq-trigger
sleep 30
