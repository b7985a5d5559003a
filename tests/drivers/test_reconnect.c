/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Reconnection: the frontend port is stopped, closed and created again
 * while the backend keeps running, and the backend is restarted while the
 * frontend keeps running; each time the link follows, traffic resumes
 * intact, and nothing stays mapped, granted or bound in the simulator.
 * Ports removed before they were ever configured go away cleanly too.
 * The backend counts each ring map and unmap on the queue it serves, and
 * keeps the static grants the frontend asks each backend it meets for.
 */

#include <stdio.h>

#include <rte_bus_vdev.h>

#include <rte_ethdev.h>

#include "netif_ring.h"
#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "xa.h"
#include "xenbus.h"
#include "xsim.h"

#define BACK "net_xen_netback0"
#define FRONT "net_xen_netfront0"
#define PACKETS 20000

static char args[128];
static int back, front;
static uint64_t seq;
static unsigned int back_lsc;

static int
count_lsc(uint16_t port __rte_unused, enum rte_eth_event_type ev __rte_unused,
	  void *arg, void *ret __rte_unused)
{
	__atomic_fetch_add((unsigned int *)arg, 1, __ATOMIC_RELAXED);
	return 0;
}

static bool
traffic_flows(void)
{
	bool ok = pair_transfer(front, back, test_pool, seq, PACKETS,
				128) == PACKETS &&
		  pair_transfer(back, front, test_pool, seq, PACKETS,
				128) == PACKETS;

	seq += PACKETS;
	return ok;
}

/* Grant map and unmap calls of @port's queue 0 in both directions. */
static bool
ring_maps_are(int port, uint64_t maps, uint64_t unmaps)
{
	return pair_xstat(port, "rx_q0_grant_maps") == maps &&
	       pair_xstat(port, "tx_q0_grant_maps") == maps &&
	       pair_xstat(port, "rx_q0_grant_unmaps") == unmaps &&
	       pair_xstat(port, "tx_q0_grant_unmaps") == unmaps;
}

static void
test_traffic_flows_after_first_connect(void)
{
	REQUIRE(pair_wait_link(back, true, 10000));
	REQUIRE(pair_wait_link(front, true, 10000));
	CHECK(traffic_flows());
	CHECK(ring_maps_are(back, 1, 0));
	CHECK(ring_maps_are(front, 0, 0));
}

static void
test_closing_frontend_releases_everything(void)
{
	struct xsim_usage be, fe;
	unsigned int lsc = __atomic_load_n(&back_lsc, __ATOMIC_RELAXED);

	pair_destroy(FRONT, front);
	CHECK(pair_wait_link(back, false, 10000));
	CHECK(__atomic_load_n(&back_lsc, __ATOMIC_RELAXED) > lsc);
	REQUIRE(xsim_domain_usage(pair_sim_instance(), 0, &be) == 0);
	REQUIRE(xsim_domain_usage(pair_sim_instance(), 1, &fe) == 0);
	CHECK(be.maps == 0);
	CHECK(fe.grants == 0 && fe.ports == 0 && fe.watches == 0);
	CHECK(ring_maps_are(back, 1, 1));
}

static void
test_recreated_frontend_reconnects(void)
{
	front = pair_create(FRONT, args, test_pool);
	REQUIRE(front >= 0);
	CHECK(pair_wait_link(back, true, 10000));
	CHECK(pair_wait_link(front, true, 10000));
	CHECK(traffic_flows());
	CHECK(ring_maps_are(back, 2, 1));
}

static void
test_restarted_backend_reconnects(void)
{
	struct xsim_usage be;

	pair_destroy(BACK, back);
	REQUIRE(xsim_domain_usage(pair_sim_instance(), 0, &be) == 0);
	CHECK(be.maps == 0 && be.ports == 0 && be.watches == 0);
	CHECK(pair_wait_link(front, false, 10000));
	back = pair_create(BACK, args, test_pool);
	REQUIRE(back >= 0);
	CHECK(pair_wait_link(back, true, 10000));
	CHECK(pair_wait_link(front, true, 10000));
	CHECK(traffic_flows());
	/* The frontend asked the new backend for its static grants too. */
	CHECK(pair_xstat(back, "rx_q0_static_grants") == PAIR_STATIC_GRANTS);
	CHECK(pair_xstat(back, "rx_q0_static_packets") > 0);
}

/* A vif end's xenbus state as the toolstack reads it. */
static enum xenbus_state
state_of(const char *dir)
{
	struct xa_open_args a = { .provider = XA_PROVIDER_SIM,
				  .sim_instance = pair_sim_instance() };
	struct xa_handle *dom0 = xa_open(&a);
	enum xenbus_state st;

	if (dom0 == NULL)
		return XenbusStateUnknown;
	st = xenbus_read_state(dom0, dir);
	xa_close(dom0);
	return st;
}

#define FE_DIR "/local/domain/1/device/vif/0"
#define BE_DIR "/local/domain/0/backend/vif/1/0"

/*
 * on_close=detach, how an application restarts without dropping its
 * guests: its backend port closes and leaves the frontend connected; the
 * next port for the vif attaches to the rings where they stand. Neither
 * end's xenbus state moves, the frontend's link never goes down, and
 * traffic resumes intact after the pause.
 */
static void
test_detached_backend_restarts_unnoticed(void)
{
	unsigned int front_lsc = 0;
	char detach[160];

	snprintf(detach, sizeof(detach), "%s,on_close=detach", args);
	pair_destroy(BACK, back);
	back = pair_create(BACK, detach, test_pool);
	REQUIRE(back >= 0);
	REQUIRE(pair_wait_link(back, true, 10000));
	REQUIRE(pair_wait_link(front, true, 10000));
	CHECK(traffic_flows());
	REQUIRE(rte_eth_dev_callback_register(front, RTE_ETH_EVENT_INTR_LSC,
					      count_lsc, &front_lsc) == 0);
	pair_destroy(BACK, back);
	CHECK(state_of(BE_DIR) == XenbusStateConnected);
	CHECK(state_of(FE_DIR) == XenbusStateConnected);
	rte_delay_us_sleep(200 * 1000);
	CHECK(pair_wait_link(front, true, 0));
	back = pair_create(BACK, detach, test_pool);
	REQUIRE(back >= 0);
	CHECK(pair_wait_link(back, true, 10000));
	CHECK(traffic_flows());
	CHECK(state_of(FE_DIR) == XenbusStateConnected);
	CHECK(front_lsc == 0);
	rte_eth_dev_callback_unregister(front, RTE_ETH_EVENT_INTR_LSC,
					count_lsc, &front_lsc);
}

static void
test_port_removed_before_configure_is_released(void)
{
	char a[128], inst[XA_SIM_INSTANCE_MAX + 1];

	snprintf(a, sizeof(a), "domid=3,provider=sim,sim=%s",
		 pair_sim_instance());
	REQUIRE(rte_vdev_init("net_xen_netback9", a) == 0);
	CHECK(rte_vdev_uninit("net_xen_netback9") == 0);
	snprintf(inst, sizeof(inst), "%s-unconfigured", pair_sim_instance());
	snprintf(a, sizeof(a), "domid=3,handle=0,provider=sim,sim=%s", inst);
	REQUIRE(rte_vdev_init("net_xen_netfront9", a) == 0);
	CHECK(rte_vdev_uninit("net_xen_netfront9") == 0);
	xsim_instance_destroy(inst);
}

/* Both ends connected, the backend's link changes counted. */
static int
setup(const char *argv0)
{
	if (pair_setup(argv0) != 0)
		return -1;
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s",
		 pair_sim_instance());
	back = pair_create(BACK, args, test_pool);
	front = pair_create(FRONT, args, test_pool);
	if (back < 0 || front < 0)
		return -1;
	return rte_eth_dev_callback_register(back, RTE_ETH_EVENT_INTR_LSC,
					     count_lsc, &back_lsc);
}

static void
teardown(void)
{
	pair_destroy(FRONT, front);
	pair_destroy(BACK, back);
	pair_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_traffic_flows_after_first_connect);
	RUN(test_closing_frontend_releases_everything);
	RUN(test_recreated_frontend_reconnects);
	RUN(test_restarted_backend_reconnects);
	RUN(test_detached_backend_restarts_unnoticed);
	RUN(test_port_removed_before_configure_is_released);
}
