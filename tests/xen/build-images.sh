#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Builds the boot images of the real-Xen harness from Debian packages:
#   xen          Xen 4.17 hypervisor (gunzipped: QEMU's multiboot loader takes it as -kernel)
#   vmlinuz      Debian 12 kernel, Dom0's
#   vmlinux      the same kernel as the ELF file inside it, the DomUs'
#   dom0.cpio    Dom0 root, run entirely from an initramfs: Debian minbase + Xen tools +
#                dpdk-testpmd (Debian's dpdk-dev) + OVS-DPDK (openvswitch-switch-dpdk) +
#                our PMDs + app/xen-adaptive-fwd, app/xen-gnt-cost + config/xen's hotplug scripts + the
#                DomU images
#   domu.cpio.gz busybox DomU with the kernel's xen-netfront, iperf3, pktgen
#                and iputils ping, iproute2 ip with two XDP programs (guest/xdp_icmp.c)
#                (tests/xen/guest/domu-init.sh)
#   domu-dpdk.cpio.gz busybox DomU with dpdk-testpmd and our netfront PMD instead
#                (or a driver domain: our netback under xen-adaptive-fwd, or the
#                kernel's netback and a bridge; xl devd)
#                (tests/xen/guest/domu-dpdk-init.sh)
#
# Two cache levels under $XEN_DPDK_CACHE (default /var/cache/xen-dpdk-pmd), each keyed by a
# hash of its inputs so that changing an input rebuilds exactly what depends on it:
#   rootfs-<key>/  debootstrap result (slow, ~2 min): key = suite, mirror, package list
#   images-<key>/  boot images (seconds): key = rootfs key + guest scripts + config/xen +
#                  this script + the PMD .so files + xen-adaptive-fwd + xen-gnt-cost
# Prints the images directory on its last line (stdout). Needs root.
#
# usage: tests/xen/build-images.sh [build dir]    (default: <repo>/build; it is not (re)configured)
#        tests/xen/build-images.sh --packages     only the host's Debian packages it needs
#        tests/xen/build-images.sh --rootfs       only those and stage 1 (no build needed):
#                                                 tests/run-all starts it early, in the background
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/xen
only=
case ${1:-} in --packages|--rootfs) only=$1; shift ;; esac
build=${1:-$top/build}
CACHE=${XEN_DPDK_CACHE:-/var/cache/xen-dpdk-pmd}
SUITE=bookworm
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
PKGS=xen-hypervisor-4.17-amd64,xen-utils-4.17,xen-utils-common,xenstore-utils,linux-image-amd64,busybox-static,iproute2,kmod,iputils-ping,procps,iperf3,dpdk-dev,openvswitch-switch-dpdk
log() { echo "build-images: $*" >&2; }
step() { # step <timeout s> <what> cmd...: every step is bounded
	local t=$1 what=$2; shift 2
	local s=$SECONDS
	if ! timeout "$t" "$@"; then log "FAILED ($((SECONDS-s))s, limit ${t}s): $what"; exit 1; fi
	log "$what: $((SECONDS-s))s"
}
[ "$(id -u)" = 0 ] || { log "needs root"; exit 1; }

need=""
for c in debootstrap:debootstrap qemu-system-x86_64:qemu-system-x86 cpio:cpio clang:clang; do
	command -v "${c%%:*}" >/dev/null || need="$need ${c#*:}"
done
if [ -n "$need" ]; then
	step 600 "apt-get install$need" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null"
fi

[ "$only" != --packages ] || exit 0

nb=$build/drivers/net/xen_netback/librte_net_xen_netback.so
nf=$build/drivers/net/xen_netfront/librte_net_xen_netfront.so
# the adaptive backend (scenario 11): linked against Debian's DPDK, whose
# libraries Dom0's dpdk-dev already carries
fwd=$build/app/xen-adaptive-fwd
# what a grant map costs against a copy (scenario gm)
cost=$build/app/xen-gnt-cost
if [ -z "$only" ] && { [ ! -f "$nb" ] || [ ! -f "$nf" ] || [ ! -f "$fwd" ] || [ ! -f "$cost" ]; }; then
	step 900 "ninja -C $build" ninja -C "$build"
fi

mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock -w 1800 9 || { log "cache $CACHE locked for 30 min"; exit 1; }

# ---- stage 1: Debian root (cached)
rkey=$(printf '%s\n' v1 "$SUITE" "$MIRROR" "$PKGS" | sha256sum | cut -c1-16)
R=$CACHE/rootfs-$rkey
if [ ! -x "$R/usr/lib/xen-4.17/bin/xl" ]; then
	rm -rf "$R.tmp"
	step 1500 "debootstrap $SUITE (once per package list)" \
		debootstrap --variant=minbase --include="$PKGS" "$SUITE" "$R.tmp" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 \
		|| { tail -20 "$CACHE/debootstrap.log" >&2; exit 1; }
	rm -rf "$R.tmp/var/cache/apt/archives/"*.deb
	mv "$R.tmp" "$R"
	for o in "$CACHE"/rootfs-*; do [ "$o" = "$R" ] || rm -rf "$o"; done
fi

[ "$only" != --rootfs ] || { log "Debian root ready: $R"; exit 0; }

# ---- stage 2: boot images (cached by content of all inputs)
ikey=$( { echo "$rkey"; cat "$0"; find "$here/guest" "$top/config/xen" -type f | sort | xargs cat; cat "$nb" "$nf" "$fwd" "$cost"; } | sha256sum | cut -c1-16)
I=$CACHE/images-$ikey
if [ -f "$I/done" ]; then
	log "images cached: $I"
	echo "$I"; exit 0
fi
rm -rf "$I.tmp"; mkdir -p "$I.tmp"; W=$I.tmp/work; mkdir -p "$W"
KV=$(ls "$R/lib/modules" | head -1)
zcat "$R/boot/xen-4.17-amd64.gz" >"$I.tmp/xen"
cp "$R/boot/vmlinuz-$KV" "$I.tmp/vmlinuz"
# The DomUs get the kernel's ELF file: libxenguest unpacks a PV guest's
# bzImage (xz, 8 -> 66 MB) in Dom0 at each xl create, at emulation speed
# (an xl create without a vif took 11.0-12.3 s with the bzImage, 5.1-8.2
# s with the ELF, in one boot; CI's boot has 45 of them)
python3 - "$I.tmp/vmlinuz" "$I.tmp/vmlinux" <<'PY'
import lzma, struct, sys
b = open(sys.argv[1], "rb").read()
# x86 boot protocol: the protected-mode code follows the setup sectors,
# and the compressed vmlinux lies at payload_offset within it
setup = ((b[0x1f1] or 4) + 1) * 512
offset, length = struct.unpack_from("<II", b, 0x248)
payload = b[setup + offset:setup + offset + length]
if not payload.startswith(b"\xfd7zXZ\x00"):
    sys.exit(f"{sys.argv[1]}: the payload is not xz ({payload[:6].hex()})")
elf = lzma.decompress(payload)
if not elf.startswith(b"\x7fELF"):
    sys.exit(f"{sys.argv[1]}: the xz payload is not an ELF file")
open(sys.argv[2], "wb").write(elf)
PY
mods() { for m in "$@"; do chroot "$R" modprobe -S "$KV" --show-depends "$m" | awk '$1=="insmod"{print $2}'; done | sort -u; }
# module_files <dir> <module>...: the modules' files and those they depend
# on into <dir>, their names in load order in <dir>/order
module_files() {
	local d=$1 f; shift
	mkdir -p "$d"
	for f in $(for m in "$@"; do chroot "$R" modprobe -S "$KV" --show-depends "$m"; done |
		awk '$1=="insmod" && !seen[$2]++ {print $2}'); do
		cp "$R$f" "$d/"; echo "${f##*/}" >>"$d/order"
	done
}
# busybox_root <dir> <init script> <module>...: a busybox root whose /init
# insmods the given modules' files (in dependency order) from /lib/modules
busybox_root() {
	local d=$1 init=$2; shift 2
	mkdir -p "$d"/{bin,proc,sys,dev,tmp,etc}
	cp "$R/bin/busybox" "$d/bin/"
	module_files "$d/lib/modules" "$@"
	install -m 755 "$init" "$d/init"
}
# with_libs <dir> <file>...: copies the files and every library they load
# (as resolved in the Debian root) into the same paths under <dir>
with_libs() {
	local d=$1 f; shift
	for f in "$@" $(for f in "$@"; do chroot "$R" ldd "$f" | awk '/=> \//{print $3} /^\t\//{print $1}'; done | sort -u); do
		mkdir -p "$d$(dirname "$f")"; cp -L "$R$f" "$d$f"
	done
}
cpio_gz() { (cd "$1" && find . | cpio -o -H newc 2>/dev/null | gzip -1); }

# DomU with the kernel's netfront, iperf3 (scenarios 2 and 8), pktgen
# (scenarios 3m and 11) and iputils ping, whose -M do busybox's lacks (scenario 10)
D=$W/domu
busybox_root "$D" "$here/guest/domu-init.sh" xen-netfront pktgen
with_libs "$D" /usr/bin/iperf3 /usr/bin/ping /bin/ip
# iproute2's ip loads XDP programs (scenario 13); away from /bin, where
# busybox's ip stays the one the init uses
mkdir -p "$D/opt/xdp"; mv "$D/bin/ip" "$D/opt/xdp/ip"
clang -O2 -g -target bpf -c "$here/guest/xdp_icmp.c" -o "$D/opt/xdp/pass.o"
clang -O2 -g -target bpf -DDROP_ICMP -c "$here/guest/xdp_icmp.c" -o "$D/opt/xdp/drop-icmp.o"
cpio_gz "$D" >"$I.tmp/domu.cpio.gz"

# DomU with dpdk-testpmd and our netfront PMD (scenarios 4 and 5): only the
# ring mempool driver in EAL's plugin directory, the PMD loaded with -d
E=$W/domu-dpdk
busybox_root "$E" "$here/guest/domu-dpdk-init.sh" xen-evtchn xen-gntdev xen-gntalloc xenfs
pmds=/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0
ring=$(readlink -f "$R$pmds/librte_mempool_ring.so"); ring=${ring#"$R"}
# glibc loads libgcc_s at run time (pthread_cancel, at testpmd's exit)
with_libs "$E" /usr/bin/dpdk-testpmd "$ring" /usr/lib/x86_64-linux-gnu/libgcc_s.so.1
mkdir -p "$E$pmds"; cp -L "$R$pmds/librte_mempool_ring.so" "$E$pmds/"
install -d -m 755 "$E/opt/xen-dpdk-pmd"
cp "$nf" "$E/opt/xen-dpdk-pmd/"; chmod 755 "$E/opt/xen-dpdk-pmd/${nf##*/}"
with_libs "$E" $(ldd "$nf" | awk '$3 ~ /libxen/ {print $3}')
# a driver domain (scenario 15): our netback under xen-adaptive-fwd, xl
# for 'xl devd', and xenstore-read/-rm for the init's restart request;
# or the kernel's netback and a bridge (xdp.knb=1), whose modules only
# that init loads (loaded in ours, the kernel's netback would take the
# vifs too), and xenstore-write for the vifs' hotplug-status
cp "$nb" "$fwd" "$E/opt/xen-dpdk-pmd/"
chmod 755 "$E/opt/xen-dpdk-pmd/${nb##*/}" "$E/opt/xen-dpdk-pmd/${fwd##*/}"
with_libs "$E" $(ldd "$nb" "$fwd" | awk '$3 ~ /librte|libxen/ {print $3}' | sort -u) \
	/usr/lib/xen-4.17/bin/xl /usr/bin/xenstore-read /usr/bin/xenstore-rm /usr/bin/xenstore-write
module_files "$E/lib/modules/knb" xen-netback bridge
cp -r "$R/etc/ld.so.conf" "$R/etc/ld.so.conf.d" "$E/etc/"; ldconfig -r "$E"
cpio_gz "$E" >"$I.tmp/domu-dpdk.cpio.gz"

# Dom0: trimmed root (nothing is compiled there: without headers and static
# libraries the initramfs Dom0 unpacks at emulation speed at every boot is
# about 115 MB smaller) + modules + our PMDs and xen-adaptive-fwd + config/xen; pktgen for Dom0 ->
# guest floods through the kernel's xen-netback (scenario 5s)
Z=$W/dom0; mkdir -p "$Z"
tar -C "$R" --exclude=./usr/share/doc --exclude=./usr/share/man --exclude=./usr/share/locale \
	--exclude=./usr/share/info --exclude=./var/cache/apt --exclude=./var/lib/apt/lists \
	--exclude=./boot --exclude=./usr/lib/modules --exclude=./usr/share/zoneinfo \
	--exclude=./usr/include --exclude='*.a' -cf - . | tar -C "$Z" -xf -
mkdir -p "$Z/lib/modules/$KV"
for f in $(mods xenfs xen-evtchn xen-gntdev xen-gntalloc xen-privcmd xen-netback pktgen bridge tun vhost_net 9pnet_virtio 9p virtio_pci); do
	mkdir -p "$Z$(dirname "$f")"; cp "$R$f" "$Z$f"
done
cp "$R/lib/modules/$KV"/modules.{order,builtin,builtin.modinfo} "$Z/lib/modules/$KV/" 2>/dev/null || true
chroot "$Z" depmod "$KV"
# EAL refuses plugins in a world-writable directory: root-owned 0755 dir
install -d -m 755 "$Z/opt/xen-dpdk-pmd"
install -m 755 "$nb" "$nf" "$fwd" "$cost" "$Z/opt/xen-dpdk-pmd/"
install -m 755 "$top/config/xen/vif-dpdk" "$Z/etc/xen/scripts/vif-dpdk"
install -m 755 "$top/config/xen/vif-ovs-dpdk" "$Z/etc/xen/scripts/vif-ovs-dpdk"
install -m 644 "$top/config/xen/vif-dpdk.cfg.example" "$Z/etc/xen/vif-dpdk.cfg.example"
mkdir -p "$Z/root/domu"
cp "$I.tmp/vmlinux" "$Z/root/domu/vmlinux"; cp "$I.tmp/domu.cpio.gz" "$Z/root/domu/initrd.gz"
cp "$I.tmp/domu-dpdk.cpio.gz" "$Z/root/domu/initrd-dpdk.gz"
install -m 755 "$here/guest/dom0-init.sh" "$Z/init"
(cd "$Z" && find . | cpio -o -H newc 2>/dev/null) >"$I.tmp/dom0.cpio"
rm -rf "$W"
echo "$KV" >"$I.tmp/kernel-version"
touch "$I.tmp/done"
mv "$I.tmp" "$I"
for o in "$CACHE"/images-*; do [ "$o" = "$I" ] || rm -rf "$o"; done
log "images built: $I ($(du -sh "$I" | cut -f1))"
echo "$I"
