/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The netback in a driver domain (sim_domid=: the backend acts as that
 * domain instead of Dom0), under the xenstore permissions libxl gives one
 * (the simulator's toolstack sets them as libxl does): everything the
 * netback reads and writes to serve a vif must be a path a driver domain
 * may use, which verified traffic proves:
 * - a guest's name is not readable there (only Dom0 and the guest may), so
 *   domain=<name> and a name pattern claim nothing, and the log says why
 *   and what works instead;
 * - vifs=* serves the guest's vif without its name, and domid=<id> serves
 *   one by id; each vif leaves nothing held once its guest is gone.
 */

#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <xen/io/xenbus.h>

#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "watched_guests.h"
#include "xa.h"
#include "xsim.h"

#define DD 11	 /* the driver domain */
#define GUEST 12 /* a guest whose vif names DD as backend */
#define PACKETS 2000

static struct xa_handle *dom0; /* the toolstack's view of xenstore */
static uint64_t seq;

/* The backend state of vif <domid>/0 in the driver domain, or -1. */
static long
backend_state(domid_t domid)
{
	char path[64];
	unsigned long v;

	snprintf(path, sizeof(path), "/local/domain/%u/backend/vif/%u/0/state",
		 DD, domid);
	return xa_xs_read_uint(dom0, XBT_NULL, path, &v) ? (long)v : -1;
}

/* The vif of @domid gone from the driver domain: nothing held for it. */
static bool
nothing_held_for(domid_t domid)
{
	struct xsim_usage be, fe;

	return xsim_domain_usage(pair_sim_instance(), DD, &be) == 0 &&
	       xsim_domain_usage(pair_sim_instance(), domid, &fe) == 0 &&
	       be.maps == 0 && fe.grants == 0 && fe.ports == 0 &&
	       fe.watches == 0;
}

static void
test_claims_by_name_are_refused_and_said(void)
{
	char args[160];
	const char *log;
	size_t mark;
	uint16_t port;
	int back;

	REQUIRE(xsim_domain_name(pair_sim_instance(), GUEST, "web-dd") == 0);
	REQUIRE(xsim_vif_plug(pair_sim_instance(), DD, GUEST, 0,
			      "00:16:3e:00:00:0c") == 0);
	mark = test_log_mark();
	snprintf(args, sizeof(args),
		 "domain=web-dd,provider=sim,sim=%s,sim_domid=%u",
		 pair_sim_instance(), DD);
	back = pair_create("net_xen_netback_byname", args, test_pool);
	REQUIRE(back >= 0);
	snprintf(args, sizeof(args),
		 "vifs=web-*,provider=sim,sim=%s,sim_domid=%u",
		 pair_sim_instance(), DD);
	REQUIRE(rte_vdev_init("net_xen_netback_pattern", args) == 0);
	/* Long enough for both to have seen the vif. */
	rte_delay_ms(300);
	log = test_log_since(mark);
	CHECK(strstr(log,
		     "/local/domain/12/name: not readable from domain 11") !=
	      NULL);
	CHECK(strstr(log, "claim by domid=, watch with vifs=*") != NULL);
	CHECK(backend_state(GUEST) == XenbusStateInitialising);
	CHECK(!pair_wait_link(back, true, 100));
	CHECK(rte_eth_dev_get_port_by_name("net_xen_netback_vif12.0", &port) !=
	      0);
	CHECK(rte_vdev_uninit("net_xen_netback_pattern") == 0);
	pair_destroy("net_xen_netback_byname", back);
	watched_forget(back);
}

static void
test_every_vif_watcher_serves_without_names(void)
{
	char args[160];
	int back, front;

	snprintf(args, sizeof(args), "vifs=*,provider=sim,sim=%s,sim_domid=%u",
		 pair_sim_instance(), DD);
	REQUIRE(rte_vdev_init("net_xen_netback_every", args) == 0);
	REQUIRE(watched_guest_served(GUEST, test_pool, &back, &front, &seq,
				     PACKETS));
	CHECK(backend_state(GUEST) == XenbusStateConnected);
	watched_frontend_close(GUEST, front);
	REQUIRE(xsim_vif_unplug(pair_sim_instance(), DD, GUEST, 0) == 0);
	CHECK(watched_removal_handled(back));
	CHECK(nothing_held_for(GUEST));
	CHECK(rte_vdev_uninit("net_xen_netback_every") == 0);
}

static void
test_vif_by_domid_is_served(void)
{
	char args[160];
	int back, front;

	snprintf(args, sizeof(args),
		 "domid=13,provider=sim,sim=%s,sim_domid=%u",
		 pair_sim_instance(), DD);
	back = pair_create("net_xen_netback_byid", args, test_pool);
	REQUIRE(back >= 0);
	front = pair_guest_frontend(13, test_pool);
	REQUIRE(front >= 0);
	CHECK(pair_traffic_both_ways(back, front, test_pool, &seq, PACKETS));
	CHECK(backend_state(13) == XenbusStateConnected);
	pair_destroy("net_xen_netfront0", front);
	pair_destroy("net_xen_netback_byid", back);
	watched_forget(back);
	CHECK(nothing_held_for(13));
}

static int
setup(const char *argv0)
{
	struct xa_open_args xa_args = { .provider = XA_PROVIDER_SIM };

	if (pair_setup(argv0) != 0 || watched_setup() != 0 ||
	    test_log_capture() != 0)
		return -1;
	xa_args.sim_instance = pair_sim_instance();
	dom0 = xa_open(&xa_args);
	return dom0 == NULL ? -1 : 0;
}

static void
teardown(void)
{
	xa_close(dom0);
	test_log_release();
	pair_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_claims_by_name_are_refused_and_said);
	RUN(test_every_vif_watcher_serves_without_names);
	RUN(test_vif_by_domid_is_served);
}
