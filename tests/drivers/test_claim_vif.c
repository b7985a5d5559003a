/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * How a netback port finds its vif when the toolstack (played here by the
 * simulator's xsim_* calls, as xl does on Xen) adds and removes vifs:
 * - domain=<name>: the port claims the vif of the guest of that name, leaves
 *   other guests' vifs alone, and follows the guest through a reboot, which
 *   brings it back under a new domain id;
 * - domid=<id>: after "xl network-detach" the port lets the vif go and
 *   serves it again after "xl network-attach";
 * - on_removal=remove: the port serves the vif there and, once the vif is
 *   gone, tells the application to remove it (RTE_ETH_EVENT_INTR_RMV), at
 *   once if the vif is not there.
 * Each time, traffic is verified and the old vif leaves nothing mapped.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <xen/io/xenbus.h>

#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "xa.h"
#include "xsim.h"

#define BACK "net_xen_netback0"
#define FRONT "net_xen_netfront0"
#define PACKETS 5000

static struct xa_handle *dom0;	/* the toolstack's view of xenstore */
static int back = -1;
static uint64_t seq;

/* The guest shuts down: its netfront closes, then xl removes the vif. */
static void
destroy_guest(domid_t domid, int front)
{
	pair_destroy(FRONT, front);
	CHECK(pair_guest_destroy(domid));
}

static bool
traffic_flows(int front)
{
	return pair_traffic_both_ways(back, front, test_pool, &seq, PACKETS);
}

/* The backend state of vif <domid>/0 as xenstore has it, or -1. */
static long
backend_state(domid_t domid)
{
	char path[64];
	unsigned long v;

	snprintf(path, sizeof(path), "/local/domain/0/backend/vif/%u/0/state",
		 domid);
	return xa_xs_read_uint(dom0, XBT_NULL, path, &v) ? (long)v : -1;
}

static bool
nothing_held_for(domid_t domid)
{
	struct xsim_usage be, fe;

	return xsim_domain_usage(pair_sim_instance(), 0, &be) == 0 &&
	       xsim_domain_usage(pair_sim_instance(), domid, &fe) == 0 &&
	       be.maps == 0 && fe.grants == 0 && fe.ports == 0 &&
	       fe.watches == 0;
}

static void
test_other_guests_vif_is_left_alone(void)
{
	REQUIRE(pair_guest_create(5, "other-guest"));
	/* Long enough for the control thread to have seen the vif. */
	rte_delay_ms(300);
	CHECK(backend_state(5) == XenbusStateInitialising);
	CHECK(!pair_wait_link(back, true, 100));
}

static void
test_named_guest_is_served(void)
{
	int front;

	REQUIRE(pair_guest_create(7, "guest-a"));
	front = pair_guest_frontend(7, test_pool);
	REQUIRE(front >= 0);
	CHECK(traffic_flows(front));
	CHECK(backend_state(5) == XenbusStateInitialising);
	destroy_guest(7, front);
	CHECK(pair_wait_link(back, false, 10000));
}

static void
test_rebooted_guest_is_followed(void)
{
	int front;

	CHECK(nothing_held_for(7));
	/* A reboot is a new domain with the same name. */
	REQUIRE(pair_guest_create(8, "guest-a"));
	front = pair_guest_frontend(8, test_pool);
	REQUIRE(front >= 0);
	CHECK(traffic_flows(front));
	destroy_guest(8, front);
	CHECK(pair_wait_link(back, false, 10000));
	CHECK(nothing_held_for(8));
}

static void
test_detached_vif_is_served_again_by_domid(void)
{
	char args[128];
	int front;

	pair_destroy(BACK, back);
	snprintf(args, sizeof(args), "domid=9,provider=sim,sim=%s",
		 pair_sim_instance());
	/* The netback plugs vif 9/0 itself. */
	back = pair_create(BACK, args, test_pool);
	REQUIRE(back >= 0);
	front = pair_guest_frontend(9, test_pool);
	REQUIRE(front >= 0);
	CHECK(traffic_flows(front));
	/* xl network-detach, then network-attach of the same vif */
	pair_destroy(FRONT, front);
	CHECK(xsim_vif_unplug(pair_sim_instance(), 0, 9, 0) == 0);
	CHECK(pair_wait_link(back, false, 10000));
	CHECK(nothing_held_for(9));
	REQUIRE(pair_guest_create(9, "guest-b"));
	front = pair_guest_frontend(9, test_pool);
	REQUIRE(front >= 0);
	CHECK(traffic_flows(front));
	pair_destroy(FRONT, front);
}

static uint32_t removals[RTE_MAX_ETHPORTS];

static int
on_removal(uint16_t port, enum rte_eth_event_type type, void *arg,
	   void *ret_param)
{
	(void)type;
	(void)arg;
	(void)ret_param;
	__atomic_fetch_add(&removals[port], 1, __ATOMIC_RELAXED);
	return 0;
}

/* Port @port was told to go within @ms, exactly once. */
static bool
told_removed(uint16_t port, unsigned int ms)
{
	while (__atomic_load_n(&removals[port], __ATOMIC_RELAXED) == 0 &&
	       ms > 0) {
		rte_delay_ms(10);
		ms = ms > 10 ? ms - 10 : 0;
	}
	rte_delay_ms(100);
	return __atomic_load_n(&removals[port], __ATOMIC_RELAXED) == 1;
}

static void
test_port_going_with_its_vif_is_removed(void)
{
	struct rte_eth_dev_info info;
	char args[128];
	int port, front;
	uint16_t id;

	/* The vif is the toolstack's: a port that goes with it plugs none. */
	REQUIRE(pair_guest_create(10, "guest-c"));
	snprintf(args, sizeof(args), "domid=10,on_removal=remove,provider=sim,sim=%s",
		 pair_sim_instance());
	port = pair_create("net_xen_netback_r", args, test_pool);
	REQUIRE(port >= 0);
	/* It says so: applications then ask for removal events. */
	CHECK(rte_eth_dev_info_get(port, &info) == 0 &&
	      (*info.dev_flags & RTE_ETH_DEV_INTR_RMV));
	front = pair_guest_frontend(10, test_pool);
	REQUIRE(front >= 0);
	CHECK(pair_traffic_both_ways(port, front, test_pool, &seq, PACKETS));
	CHECK(__atomic_load_n(&removals[port], __ATOMIC_RELAXED) == 0);
	destroy_guest(10, front);
	CHECK(pair_wait_link(port, false, 10000));
	CHECK(told_removed(port, 10000));
	CHECK(nothing_held_for(10));
	/* The guest comes back under the same id: the port stays gone. */
	REQUIRE(pair_guest_create(10, "guest-c"));
	rte_delay_ms(300);
	CHECK(backend_state(10) == XenbusStateInitialising);
	pair_destroy("net_xen_netback_r", port);
	CHECK(pair_guest_destroy(10));
	__atomic_store_n(&removals[port], 0, __ATOMIC_RELAXED);

	/* Named by domain id and not there: removed at once. */
	snprintf(args, sizeof(args), "domid=11,on_removal=remove,provider=sim,sim=%s",
		 pair_sim_instance());
	REQUIRE(rte_vdev_init("net_xen_netback_r", args) == 0);
	REQUIRE(rte_eth_dev_get_port_by_name("net_xen_netback_r", &id) == 0);
	CHECK(told_removed(id, 5000));
	CHECK(backend_state(11) == -1);
	rte_eth_dev_close(id);
	rte_vdev_uninit("net_xen_netback_r");
	__atomic_store_n(&removals[id], 0, __ATOMIC_RELAXED);
}

/* The toolstack's view of xenstore, and a port claiming guest-a. */
static int
setup(const char *argv0)
{
	struct xa_open_args xa_args = { .provider = XA_PROVIDER_SIM };
	char args[128];

	if (pair_setup(argv0) != 0)
		return -1;
	xa_args.sim_instance = pair_sim_instance();
	dom0 = xa_open(&xa_args);
	if (rte_eth_dev_callback_register(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_RMV,
					  on_removal, NULL) != 0)
		return -1;
	snprintf(args, sizeof(args), "domain=guest-a,provider=sim,sim=%s",
		 pair_sim_instance());
	back = pair_create(BACK, args, test_pool);
	return dom0 == NULL || back < 0 ? -1 : 0;
}

static void
teardown(void)
{
	pair_destroy(BACK, back);
	xa_close(dom0);
	pair_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_other_guests_vif_is_left_alone);
	RUN(test_named_guest_is_served);
	RUN(test_rebooted_guest_is_followed);
	RUN(test_detached_vif_is_served_again_by_domid);
	RUN(test_port_going_with_its_vif_is_removed);
}
