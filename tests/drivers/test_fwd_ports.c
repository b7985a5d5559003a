/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The ports of xen-adaptive-fwd (app/xen-adaptive-fwd/ports.c) against
 * ethdev's order of events, with a netback vdev made and removed in this
 * thread:
 * - ethdev announces a port (RTE_ETH_EVENT_NEW) before it marks it
 *   attached; a loop round that comes in between must not lose the port,
 *   which is served from the next round on (the unit's guests created
 *   while it ran were left unserved when the watcher's thread announced
 *   a port just as the loop looked);
 * - a port announced and released before a round leaves the loop nothing
 *   to wait for: its sleep is not ended again and again.
 */

#include <stdio.h>

#include <rte_bus_vdev.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>

#include "ports.h"
#include "test.h"
#include "vdev_pair.h"

#define BACK "net_xen_netback0"
#define OTHER "net_xen_netback1"

static uint16_t announced_port = RTE_MAX_ETHPORTS;

/* The loop's round between ethdev's announcement and the attachment. */
static int
round_inside_probe(uint16_t port, enum rte_eth_event_type type __rte_unused,
		   void *arg __rte_unused, void *ret __rte_unused)
{
	announced_port = port;
	ports_update();
	return 0;
}

/* Whether the loop's next sleep in its epoll set would end at once. */
static bool
sleep_ends_at_once(void)
{
	struct rte_epoll_event ev;

	return rte_epoll_wait(RTE_EPOLL_PER_THREAD, &ev, 1, 0) > 0;
}

static void
backend_args(char *args, size_t size, domid_t domid)
{
	snprintf(args, size, "domid=%u,provider=sim,sim=%s", domid,
		 pair_sim_instance());
}

static void
test_port_announced_before_attached_is_served(void)
{
	char args[128];

	backend_args(args, sizeof(args), 1);
	REQUIRE(rte_eth_dev_callback_register(RTE_ETH_ALL, RTE_ETH_EVENT_NEW,
					      round_inside_probe, NULL) == 0);
	REQUIRE(rte_vdev_init(BACK, args) == 0);
	rte_eth_dev_callback_unregister(RTE_ETH_ALL, RTE_ETH_EVENT_NEW,
					round_inside_probe, NULL);
	REQUIRE(announced_port < RTE_MAX_ETHPORTS);
	/* Not attached yet when the round ran: not served then. */
	CHECK(ports_queues(announced_port) == 0);
	ports_update();
	CHECK(ports_queues(announced_port) == 1);
	CHECK(nb_queues == 1 && queues[0].port == announced_port);
	ports_update();
	CHECK(!sleep_ends_at_once());
}

static void
test_port_gone_before_a_round_is_forgotten(void)
{
	char args[128];
	uint16_t port;

	backend_args(args, sizeof(args), 2);
	REQUIRE(rte_vdev_init(OTHER, args) == 0);
	REQUIRE(rte_eth_dev_get_port_by_name(OTHER, &port) == 0);
	/* Released by another than the loop before the loop's round. */
	CHECK(rte_vdev_uninit(OTHER) == 0);
	ports_update();
	CHECK(ports_queues(port) == 0);
	CHECK(!sleep_ends_at_once());
}

static int
setup(const char *argv0)
{
	return pair_setup(argv0) != 0 ? -1 : ports_open(test_pool);
}

static void
teardown(void)
{
	ports_close();
	pair_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_port_announced_before_attached_is_served);
	RUN(test_port_gone_before_a_round_is_forgotten);
}
