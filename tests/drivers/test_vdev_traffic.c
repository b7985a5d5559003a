/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * End to end in one process: a netback port and a netfront port over one
 * simulator instance pass at least a million packets each way, of every
 * length from 60 to 9000 bytes (up to three slots), with every byte and
 * the order checked and nothing lost, and the counters agree.
 * XEN_TEST_PACKETS overrides the count (for slow sanitizer builds).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_ethdev.h>

#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "xsim.h"

static int back, front;
static uint64_t packets = 1000000;

/*
 * One grant-copy call per burst: fewer calls than packets, at least one
 * segment per packet; at most one notification per burst, and a polling
 * frontend never asks for more than the first one.
 */
static void
check_batching(const char *q)
{
	char name[64];
	uint64_t calls, ops, sent;

	snprintf(name, sizeof(name), "%s_grant_copy_calls", q);
	calls = pair_xstat(back, name);
	snprintf(name, sizeof(name), "%s_grant_copy_ops", q);
	ops = pair_xstat(back, name);
	snprintf(name, sizeof(name), "%s_notifications_sent", q);
	sent = pair_xstat(back, name);
	snprintf(name, sizeof(name), "%s_malformed_requests", q);
	CHECK(pair_xstat(back, name) == 0);
	CHECK(calls != UINT64_MAX && calls > 0 && calls < packets);
	CHECK(ops >= packets);
	CHECK(sent <= calls);
}

static void
test_link_comes_up_on_both_ends(void)
{
	CHECK(pair_wait_link(back, true, 10000));
	CHECK(pair_wait_link(front, true, 10000));
}

static void
test_frontend_to_backend_loses_nothing(void)
{
	struct rte_eth_stats fs, bs;

	rte_eth_stats_reset(front);
	rte_eth_stats_reset(back);
	CHECK(pair_transfer(front, back, test_pool, 0, packets, 128) ==
	      packets);
	REQUIRE(rte_eth_stats_get(front, &fs) == 0);
	REQUIRE(rte_eth_stats_get(back, &bs) == 0);
	CHECK(fs.opackets == packets && bs.ipackets == packets);
	CHECK(fs.obytes == bs.ibytes);
	CHECK(bs.ierrors == 0 && fs.oerrors == 0);
	check_batching("rx_q0");
}

static void
test_backend_to_frontend_loses_nothing(void)
{
	struct rte_eth_stats fs, bs;

	rte_eth_stats_reset(front);
	rte_eth_stats_reset(back);
	CHECK(pair_transfer(back, front, test_pool, 0, packets, 128) ==
	      packets);
	REQUIRE(rte_eth_stats_get(front, &fs) == 0);
	REQUIRE(rte_eth_stats_get(back, &bs) == 0);
	CHECK(bs.opackets == packets && fs.ipackets == packets);
	CHECK(bs.obytes == fs.ibytes);
	check_batching("tx_q0");
}

/* Both ends connected; XEN_TEST_PACKETS packets a direction if set. */
static int
setup(const char *argv0)
{
	const char *env = getenv("XEN_TEST_PACKETS");
	char args[128];

	if (env != NULL)
		packets = strtoull(env, NULL, 0);
	if (pair_setup(argv0) != 0)
		return -1;
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s",
		 pair_sim_instance());
	back = pair_create("net_xen_netback0", args, test_pool);
	front = pair_create("net_xen_netfront0", args, test_pool);
	return back < 0 || front < 0 ? -1 : 0;
}

static void
teardown(void)
{
	pair_destroy("net_xen_netfront0", front);
	pair_destroy("net_xen_netback0", back);
	pair_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_link_comes_up_on_both_ends);
	RUN(test_frontend_to_backend_loses_nothing);
	RUN(test_backend_to_frontend_loses_nothing);
}
