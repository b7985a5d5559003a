# SPDX-License-Identifier: BSD-3-Clause
#
# Sourced by the tests that run Debian's OVS-DPDK on the simulator
# (test_ovs_dpdk, test_ovs_tso): a private instance, with its own database,
# run directory and EAL file prefix ($prefix), whose netback watcher serves
# the guests xsim-xl creates, and config/xen/vif-ovs-dpdk run as libxl runs
# it, reaching the simulator's xenstore through xsim-xl ($xl). Skips the
# test (TAP plan 1..0) where the package is not installed; sources
# sim_processes.sh; on exit OVS is stopped before the processes go.
#
# usage: . tests/common/ovs_sim.sh <tag> <build dir>   ($xl set before)
vswitchd=/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk
if [ ! -x "$vswitchd" ]; then
	echo "1..0 # SKIP no $vswitchd (Debian's openvswitch-switch-dpdk)"
	exit 0
fi
. "$(dirname "${BASH_SOURCE[0]}")/sim_processes.sh" "$1" "$2"
script="$(dirname "${BASH_SOURCE[0]}")/../../config/xen/vif-ovs-dpdk"
prefix="$1-$$"
export OVS_RUNDIR="$work/ovs" OVS_LOGDIR="$work/ovs" OVS_DBDIR="$work/ovs"
export XENSTORE_READ="$xl $inst read" XENSTORE_WRITE="$xl $inst write"
export XENSTORE_RM="$xl $inst rm" VIF_OVS_DPDK_LOG="$work/vif-ovs-dpdk.log"
mkdir "$OVS_RUNDIR"

ovs_cleanup() {
	ovs-appctl -t ovs-vswitchd exit >/dev/null 2>&1
	ovs-appctl -t ovsdb-server exit >/dev/null 2>&1
	sim_processes_cleanup
}
trap ovs_cleanup EXIT

# ovs_start <watcher devargs> [other_config:key=value...]: OVS-DPDK up with
# bridge br0 (netdev datapath), its DPDK loading the plugins with the
# watcher net_xen_netback_vifs,<watcher devargs> on the simulator instance
ovs_start() {
	local vdev="net_xen_netback_vifs,$1,provider=sim,sim=$inst"
	shift
	ovsdb-tool create "$OVS_DBDIR/conf.db" /usr/share/openvswitch/vswitch.ovsschema
	ovsdb-server --remote="punix:$OVS_RUNDIR/db.sock" --detach --no-chdir \
		--pidfile --log-file "$OVS_DBDIR/conf.db" >"$work/ovsdb.out" 2>&1
	ovs-vsctl --no-wait init
	ovs-vsctl --no-wait set Open_vSwitch . other_config:dpdk-init=true \
		other_config:dpdk-lcore-mask=0x1 other_config:pmd-cpu-mask=0x2 \
		other_config:per-port-memory=true "$@" \
		"other_config:dpdk-extra=--no-huge -m 1024 --legacy-mem --no-pci --file-prefix $prefix -d $plugins --vdev $vdev"
	# Named ovs-vswitchd, so that ovs-appctl -t ovs-vswitchd finds it.
	ln -s "$vswitchd" "$work/ovs-vswitchd"
	"$work/ovs-vswitchd" --detach --no-chdir --pidfile --log-file \
		>"$work/vswitchd.out" 2>&1
	# Bounded: it waits for OVS, which may fail to make the bridge.
	ovs-vsctl --timeout=30 add-br br0 -- set bridge br0 datapath_type=netdev
}

# hotplug <online|offline> <domid>: the script as libxl runs it, online
# once the backend says InitWait (libxl waits 10 s for it).
hotplug() {
	if [ "$1" = online ]; then
		for _ in $(seq 100); do
			[ "$($xl "$inst" read "backend/vif/$2/0/state")" = 2 ] &&
				break
			sleep 0.1
		done
	fi
	XENBUS_PATH="backend/vif/$2/0" vif="vif$2.0" "$script" "$1" \
		>>"$work/hotplug.out" 2>&1
}
