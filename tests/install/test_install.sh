#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# What `meson install` gives a user, staged in a private directory
# (--destdir): both PMDs in the installed DPDK's plugin directory (the
# pmddir variable of the pkg-config file), the public header, and a
# pkg-config file with which an application builds, and the systemd unit
# of the standalone backend naming the xen-adaptive-fwd installed with it.
# The application
# (installed_app.c) is then built with it and run with the staged plugin
# directory, which EAL loads as it loads its own (-d <dir> takes the same
# path), once per PMD. Prints TAP.
#
# usage: test_install.sh <build dir> <source dir>
set -u
build="$1"
src="$2"
if [ "$(id -u)" = 0 ]; then
	stage=$(mktemp -d /run/xen-dpdk-pmd-install.XXXXXX)
else
	stage=$(mktemp -d "$HOME/.xen-dpdk-pmd-install.XXXXXX")
fi
inst="install-$$-$(date +%s%N)"	# never a killed run's (sim_processes.sh)
trap 'rm -rf "$stage" "/dev/shm/xsim-$inst"' EXIT
chmod 700 "$stage"

. "$(dirname "$0")/../common/tap.sh"

meson install -C "$build" --no-rebuild --quiet --destdir "$stage" >"$stage/install.log" 2>&1
tap $? "meson install --destdir"
pc=$(find "$stage" -name xen-dpdk-pmd.pc | head -n 1)
[ -n "$pc" ]
tap $? "the pkg-config file is installed"
export PKG_CONFIG_PATH="$(dirname "$pc")"
pmddir=$(pkg-config --variable=pmddir xen-dpdk-pmd)
want=$(cc -E -dM -include rte_build_config.h $(pkg-config --cflags libdpdk) \
	-x c /dev/null | sed -n 's/^#define RTE_EAL_PMD_PATH "\(.*\)"$/\1/p')
echo "# pmddir $pmddir, EAL's plugin directory ${want:-?}"
[ -n "$pmddir" ] && [ "$pmddir" = "$want" ] &&
	[ -f "$stage$pmddir/librte_net_xen_netback.so" ] &&
	[ -f "$stage$pmddir/librte_net_xen_netfront.so" ]
tap $? "both PMDs are installed where EAL loads plugins by itself"
# Its flags: our include directory (staged here) and DPDK's, which it
# requires.
includedir=$(pkg-config --variable=includedir xen-dpdk-pmd)
cflags=$(pkg-config --cflags xen-dpdk-pmd)
case " $cflags " in
*" -I$includedir "*" -include rte_config.h "*) true ;;
*) false ;;
esac
tap $? "pkg-config xen-dpdk-pmd gives its include directory and DPDK's flags"
cc $(echo "$cflags" | sed "s|-I$includedir|-I$stage$includedir|") \
	-o "$stage/app" "$src/tests/install/installed_app.c" \
	$(pkg-config --libs xen-dpdk-pmd) >"$stage/cc.log" 2>&1
tap $? "an application builds with pkg-config xen-dpdk-pmd"
# The standalone backend's unit starts the program installed with it.
unit=$(find "$stage" -path '*/lib/systemd/system/xen-netback-dpdk.service')
prog=$(sed -n 's/^ExecStart=\([^ ]*\) .*/\1/p' "${unit:-/dev/null}")
echo "# unit ${unit#"$stage"}: ExecStart ${prog:-?}"
[ -n "$prog" ] && [ -x "$stage$prog" ] &&
	[ "$(basename "$prog")" = xen-adaptive-fwd ]
tap $? "the systemd unit runs the xen-adaptive-fwd installed with it"
[ $fail = 0 ] || { sed 's/^/# /' "$stage"/*.log; tap_done; }

eal="--no-huge -m 256 --no-pci --no-shconf --log-level=*:warning -d $stage$pmddir"
for vdev in "net_xen_netback0,domid=1,provider=sim,sim=$inst,group_ethertype=1 -- net_xen_netback0 netback" \
	    "net_xen_netfront0,provider=sim,sim=$inst,group_ethertype=1 -- net_xen_netfront0"; do
	set -- $vdev
	"$stage/app" $eal --file-prefix "inst-$$" --vdev "$1" "$2" "$3" ${4:-} \
		>"$stage/app.log" 2>&1
	status=$?
	sed -n 's/^\(not \)\{0,1\}ok [0-9]* - /&/p' "$stage/app.log" |
		sed "s/^/# $3: /"
	tap $status "$3 runs from the installed plugin with the header's names"
	[ $status = 0 ] || sed 's/^/# /' "$stage/app.log" | tail -n 20
done
tap_done
