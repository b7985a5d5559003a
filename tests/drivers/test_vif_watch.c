/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Every vif in one process: a netback vdev given vifs=<pattern> makes a
 * port of each vif of the guests whose names match, as the toolstack (the
 * simulator's xsim_* calls here, xl on Xen) creates and destroys them:
 * - the vifs there at probe and the ones that come later become ports
 *   named net_xen_netback_vif<domid>.<handle>, each announced with
 *   RTE_ETH_EVENT_NEW, each passing verified traffic with its guest;
 * - other guests' vifs are left alone;
 * - a destroyed guest's port announces its removal (RTE_ETH_EVENT_INTR_RMV);
 *   the application removes it (RTE_ETH_EVENT_DESTROY), the vif leaves
 *   nothing mapped, and the other guests' traffic goes on;
 * - a guest rebooted (a new domain id) gets a new port;
 * - devargs that cannot make ports are refused at probe;
 * - removing the watcher leaves its ports serving;
 * - vifs=* serves a vif whose guest's name it cannot read.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_ethdev.h>

#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "watched_guests.h"
#include "xa.h"
#include "xsim.h"

#define WATCHER "net_xen_netback_watch"
#define PACKETS 2000

static uint64_t seq;

static bool
no_port_for(domid_t domid)
{
	char name[RTE_DEV_NAME_MAX_LEN];
	uint16_t port;

	snprintf(name, sizeof(name), "net_xen_netback_vif%u.0", domid);
	return rte_eth_dev_get_port_by_name(name, &port) != 0;
}

static bool
guest_served(domid_t domid, int *back, int *front)
{
	return watched_guest_served(domid, test_pool, back, front, &seq,
				    PACKETS);
}

static bool
nothing_held_for(domid_t domid)
{
	struct xsim_usage be, fe;

	return xsim_domain_usage(pair_sim_instance(), 0, &be) == 0 &&
	       xsim_domain_usage(pair_sim_instance(), domid, &fe) == 0 &&
	       fe.grants == 0 && fe.ports == 0 && fe.watches == 0;
}

static int back3 = -1, front3 = -1, back5 = -1, front5 = -1;

static void
test_vifs_present_at_probe_become_ports(void)
{
	char args[160];

	REQUIRE(pair_guest_create(3, "web-1"));
	REQUIRE(pair_guest_create(4, "db-1"));
	snprintf(args, sizeof(args), "vifs=web-*,provider=sim,sim=%s",
		 pair_sim_instance());
	REQUIRE(rte_vdev_init(WATCHER, args) == 0);
	/* A watcher is no port itself. */
	CHECK(rte_eth_dev_count_avail() == 1);
	CHECK(guest_served(3, &back3, &front3));
	CHECK(no_port_for(4));
}

static void
test_new_vifs_of_matching_guests_become_ports(void)
{
	int back6, front6;

	REQUIRE(pair_guest_create(5, "web-2"));
	REQUIRE(pair_guest_create(6, "web-3"));
	REQUIRE(pair_guest_create(7, "mail"));
	CHECK(guest_served(5, &back5, &front5));
	CHECK(guest_served(6, &back6, &front6));
	CHECK(no_port_for(7));
	CHECK(no_port_for(4));
	/* Three guests at once, each its own traffic. */
	CHECK(pair_traffic_both_ways(back3, front3, test_pool, &seq, PACKETS));
	CHECK(pair_traffic_both_ways(back5, front5, test_pool, &seq, PACKETS));
	CHECK(pair_traffic_both_ways(back6, front6, test_pool, &seq, PACKETS));
	/* web-3 shuts down: the application removes its port. */
	watched_frontend_close(6, front6);
	REQUIRE(pair_guest_destroy(6));
	CHECK(watched_removal_handled(back6));
	CHECK(no_port_for(6));
	CHECK(nothing_held_for(6));
}

static void
test_destroyed_guest_port_is_removed_others_go_on(void)
{
	/* web-2 is destroyed with its netfront still connected. */
	REQUIRE(pair_guest_destroy(5));
	CHECK(watched_removal_handled(back5));
	CHECK(no_port_for(5));
	CHECK(watched_events(back3, RTE_ETH_EVENT_INTR_RMV) == 0);
	CHECK(pair_traffic_both_ways(back3, front3, test_pool, &seq, PACKETS));
	watched_frontend_close(5, front5);
	CHECK(nothing_held_for(5));
}

static void
test_rebooted_guest_gets_a_new_port(void)
{
	int back, front;

	/* A reboot is a new domain with the same name. */
	REQUIRE(pair_guest_create(8, "web-2"));
	CHECK(guest_served(8, &back, &front));
	watched_frontend_close(8, front);
	REQUIRE(pair_guest_destroy(8));
	CHECK(watched_removal_handled(back));
}

static void
test_watcher_devargs_are_checked_at_probe(void)
{
	static const char *const bad[] = {
		"vifs=web-*,domid=3",
		"vifs=web-*,domain=web-1",
		"vifs=web-*,handle=1",
		"vifs=web-*,on_removal=wait",
		"vifs=",
		"vifs=web/1",
		"vifs=web-*,vifs=db-*",
		"vifs=web-*,batch=0",
		"vifs=web-*,no_such_key=1",
	};
	char args[200];
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		snprintf(args, sizeof(args), "%s,provider=sim,sim=%s", bad[i],
			 pair_sim_instance());
		if (rte_vdev_init("net_xen_netback_bad", args) == 0) {
			fprintf(stderr, "# accepted: %s\n", bad[i]);
			CHECK(false);
			rte_vdev_uninit("net_xen_netback_bad");
		}
	}
	/* A port's own devargs pass on to every port. */
	snprintf(args, sizeof(args), "vifs=db-*,batch=16,provider=sim,sim=%s",
		 pair_sim_instance());
	CHECK(rte_vdev_init("net_xen_netback_db", args) == 0);
	CHECK(watched_vif_port(4, 5000) >= 0);
	CHECK(rte_vdev_uninit("net_xen_netback_db") == 0);
	CHECK(watched_vif_port(4, 5000) >= 0);
}

static void
test_removed_watcher_leaves_its_ports_serving(void)
{
	CHECK(rte_vdev_uninit(WATCHER) == 0);
	CHECK(pair_traffic_both_ways(back3, front3, test_pool, &seq, PACKETS));
	REQUIRE(pair_guest_create(9, "web-4"));
	rte_delay_ms(300);
	CHECK(no_port_for(9));
}

/*
 * vifs=* serves every vif of the backend directory without the guest's
 * name, which a driver domain cannot read: here a guest that has none.
 */
static void
test_every_vif_watcher_reads_no_name(void)
{
	char args[160];
	int back, front;

	/* The simulated toolstack names a guest: its name taken away. */
	REQUIRE(xsim_vif_plug(pair_sim_instance(), 0, 10, 0,
			      "00:16:3e:00:01:0a") == 0);
	REQUIRE(xsim_domain_name(pair_sim_instance(), 10, NULL) == 0);
	snprintf(args, sizeof(args), "vifs=*,provider=sim,sim=%s",
		 pair_sim_instance());
	REQUIRE(rte_vdev_init("net_xen_netback_every", args) == 0);
	REQUIRE(guest_served(10, &back, &front));
	CHECK(watched_vif_port(9, 5000) >= 0);
	watched_frontend_close(10, front);
	REQUIRE(xsim_vif_unplug(pair_sim_instance(), 0, 10, 0) == 0);
	CHECK(watched_removal_handled(back));
	CHECK(rte_vdev_uninit("net_xen_netback_every") == 0);
}

static int
setup(const char *argv0)
{
	return pair_setup(argv0) != 0 ? -1 : watched_setup();
}

static void
teardown(void)
{
	uint16_t port;

	RTE_ETH_FOREACH_DEV(port) {
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
	pair_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_vifs_present_at_probe_become_ports);
	RUN(test_new_vifs_of_matching_guests_become_ports);
	RUN(test_destroyed_guest_port_is_removed_others_go_on);
	RUN(test_rebooted_guest_gets_a_new_port);
	RUN(test_watcher_devargs_are_checked_at_probe);
	RUN(test_removed_watcher_leaves_its_ports_serving);
	RUN(test_every_vif_watcher_reads_no_name);
}
