/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The netback's carrier, as Linux netback's: a guest that takes no packet
 * (its RX ring keeps no buffer for the one that waits) for the devarg
 * stall_timeout_ms loses the link of its port, counted in
 * tx_q0_guest_stalls, and regains it once it posts buffers again, after
 * which packets flow as before; with a timeout of 0 the link never goes
 * down.
 */

#include <rte_cycles.h>

#include "test.h"
#include "vdev_pair.h"

#define FRAME 100

/* Send from the backend until the guest's ring has no buffer left. */
static bool
fill_guest_ring(const struct pair *pr)
{
	static const uint8_t data[FRAME] = { 0x02, 0, 0, 0, 0, 1 };
	unsigned int i;

	for (i = 0; i < 4 * NETIF_RX_RING_SIZE; i++) {
		struct rte_mbuf *m = pair_frame(test_pool, data, FRAME);

		if (m == NULL)
			return false;
		if (rte_eth_tx_burst(pr->back, 0, &m, 1) == 0) {
			rte_pktmbuf_free(m);
			return pair_xstat(pr->back, "tx_q0_ring_full") > 0;
		}
	}
	return false;	/* the guest took everything: no stall */
}

/* The guest's application takes what waits (and its PMD reposts buffers). */
static unsigned int
guest_drains(const struct pair *pr)
{
	struct rte_mbuf *pkts[32];
	unsigned int got = 0;
	uint16_t n;

	do {
		n = rte_eth_rx_burst(pr->front, 0, pkts, RTE_DIM(pkts));
		rte_pktmbuf_free_bulk(pkts, n);
		got += n;
	} while (n > 0);
	return got;
}

static void
test_a_guest_that_takes_nothing_loses_carrier_and_regains_it(void)
{
	struct pair pr;

	REQUIRE(pair_open(&pr, "stall", "stall_timeout_ms=200", "",
			  test_pool));
	REQUIRE(fill_guest_ring(&pr));
	CHECK(pair_wait_link(pr.back, false, 5000));
	CHECK(pair_xstat(pr.back, "tx_q0_guest_stalls") == 1);
	/* The guest's own link is its backend's business, not ours. */
	CHECK(pair_wait_link(pr.front, true, 0));
	CHECK(guest_drains(&pr) >= NETIF_RX_RING_SIZE / 2);
	CHECK(pair_wait_link(pr.back, true, 5000));
	CHECK(pair_transfer(pr.back, pr.front, test_pool, 0, 300, 64) == 300);
	CHECK(pair_xstat(pr.back, "tx_q0_guest_stalls") == 1);
	pair_close(&pr);
}

static void
test_with_a_timeout_of_0_the_link_stays_up(void)
{
	struct pair pr;

	REQUIRE(pair_open(&pr, "nostall", "stall_timeout_ms=0", "",
			  test_pool));
	REQUIRE(fill_guest_ring(&pr));
	CHECK(!pair_wait_link(pr.back, false, 500));
	CHECK(pair_xstat(pr.back, "tx_q0_guest_stalls") == 0);
	guest_drains(&pr);
	pair_close(&pr);
}

TEST_MAIN(pair_setup, pair_teardown)
{
	RUN(test_a_guest_that_takes_nothing_loses_carrier_and_regains_it);
	RUN(test_with_a_timeout_of_0_the_link_stays_up);
}
