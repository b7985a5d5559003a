/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The vif's rate (the toolstack's `rate` key in the backend's directory)
 * limits what the netback takes from the guest: a window's bytes pass at
 * once and the rest wait in the guest's TX ring, counted in
 * rx_q0_rate_limited, until the toolstack raises the rate or removes it,
 * which applies while connected; a rate that is not one (0 bytes, a window
 * of 0, junk) leaves the vif unlimited; and one limit serves all the
 * vif's queues.
 */

#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "test.h"
#include "vdev_pair.h"

#define BE_DIR "/local/domain/0/backend/vif/1/0"
#define FRAME 500
/* Two thousand bytes per 16 s: four frames, then nothing for 16 s. */
#define SLOW "2000,16000000"

static struct pair pr;
static int back = -1, front = -1;

/* A netback with @rate in its directory before the guest connects. */
static bool
open_pair(const char *tag, const char *rate, uint16_t queues)
{
	bool ok = pair_open_keyed(&pr, tag, queues, BE_DIR "/rate", rate,
				  test_pool);

	back = pr.back;
	front = pr.front;
	return ok;
}

static void
close_pair(void)
{
	pair_close(&pr);
	back = front = -1;
}

/* @n frames of FRAME bytes from the guest on queue @q; false if refused. */
static bool
guest_sends(uint16_t q, unsigned int n)
{
	static const uint8_t data[FRAME] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pair_frame(test_pool, data, FRAME);

		if (m == NULL || rte_eth_tx_burst(front, q, &m, 1) != 1) {
			rte_pktmbuf_free(m);
			return false;
		}
	}
	return true;
}

/* What the netback receives on queue @q within @ms (all of it is freed). */
static unsigned int
backend_receives(uint16_t q, unsigned int ms)
{
	uint64_t end = rte_get_timer_cycles() + ms * rte_get_timer_hz() / 1000;
	struct rte_mbuf *pkts[32];
	unsigned int got = 0;

	while (rte_get_timer_cycles() < end) {
		uint16_t i, n = rte_eth_rx_burst(back, q, pkts, RTE_DIM(pkts));

		for (i = 0; i < n; i++)
			rte_pktmbuf_free(pkts[i]);
		got += n;
		/* The netfront reclaims its answered requests as it sends. */
		rte_eth_tx_burst(front, q, NULL, 0);
		if (n == 0)
			rte_delay_us_sleep(1000);
	}
	return got;
}

static bool
set_rate(const char *rate)
{
	return xa_xs_write(pr.toolstack, XBT_NULL, BE_DIR "/rate", rate,
			   strlen(rate));
}

static void
test_a_window_passes_and_the_rest_waits_until_the_rate_is_raised(void)
{
	REQUIRE(open_pair("raised", SLOW, 1));
	REQUIRE(guest_sends(0, 10));
	CHECK(backend_receives(0, 300) == 4);
	CHECK(pair_xstat(back, "rx_q0_rate_limited") > 0);
	/* Raised while connected: the six waiting come through. */
	REQUIRE(set_rate("1000000,1000"));
	CHECK(backend_receives(0, 1000) == 6);
	close_pair();
}

static void
test_a_rate_lifted_while_connected_lets_everything_through(void)
{
	REQUIRE(open_pair("lifted", SLOW, 1));
	REQUIRE(guest_sends(0, 10));
	CHECK(backend_receives(0, 300) == 4);
	REQUIRE(xa_xs_rm(pr.toolstack, XBT_NULL, BE_DIR "/rate"));
	CHECK(backend_receives(0, 1000) == 6);
	REQUIRE(guest_sends(0, 100));
	CHECK(backend_receives(0, 1000) == 100);
	close_pair();
}

static void
test_a_rate_that_is_not_one_leaves_the_vif_unlimited(void)
{
	static const char *const bad[] = {
		"0,20000", "2000,0", "2000", "2000,20000junk", "lots",
		"2000,99999999",
	};
	unsigned int i;

	REQUIRE(open_pair("bad", bad[0], 1));
	for (i = 0; i < RTE_DIM(bad); i++) {
		REQUIRE(set_rate(bad[i]));
		rte_delay_us_sleep(50 * 1000);
		REQUIRE(guest_sends(0, 20));
		CHECK(backend_receives(0, 300) == 20);
	}
	CHECK(pair_xstat(back, "rx_q0_rate_limited") == 0);
	close_pair();
}

static void
test_one_rate_serves_every_queue_of_the_vif(void)
{
	REQUIRE(open_pair("queues", SLOW, 2));
	REQUIRE(guest_sends(0, 3));
	REQUIRE(guest_sends(1, 3));
	/* Four frames' worth for the vif, not for each queue. */
	CHECK(backend_receives(0, 200) + backend_receives(1, 200) == 4);
	CHECK(pair_xstat(back, "rx_q0_rate_limited") +
	      pair_xstat(back, "rx_q1_rate_limited") > 0);
	close_pair();
}

TEST_MAIN(pair_setup, pair_teardown)
{
	RUN(test_a_window_passes_and_the_rest_waits_until_the_rate_is_raised);
	RUN(test_a_rate_lifted_while_connected_lets_everything_through);
	RUN(test_a_rate_that_is_not_one_leaves_the_vif_unlimited);
	RUN(test_one_rate_serves_every_queue_of_the_vif);
}
