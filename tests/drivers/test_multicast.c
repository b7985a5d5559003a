/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Multicast control between our two PMDs: the netfront application's
 * multicast list becomes the groups the netback's guest joined, so that
 * only their frames (and broadcast and unicast ones) reach it while the
 * list is set and neither all-multicast nor promiscuous mode is on; the
 * modes and a new list apply while connected; a list the filter cannot
 * hold, or an address that is not a group, is refused; the netback, whose
 * application receives whatever its guest sends, takes no list.
 */

#include <errno.h>

#include <rte_cycles.h>

#include "test.h"
#include "vdev_pair.h"

static const struct rte_ether_addr group_a = {{ 0x01, 0, 0x5e, 0, 0, 0xa }};
static const struct rte_ether_addr group_b = {{ 0x01, 0, 0x5e, 0, 0, 0xb }};
static const struct rte_ether_addr bcast = {{ 0xff, 0xff, 0xff, 0xff, 0xff,
					      0xff }};
static const struct rte_ether_addr unicast = {{ 0x02, 0, 0, 0, 0, 1 }};

static struct pair pr;

/* Poll the netback until it has handled @n group changes in all. */
static bool
backend_handled(uint64_t n)
{
	struct rte_mbuf *pkts[8];
	unsigned int ms;

	for (ms = 0; ms < 5000; ms++) {
		uint16_t got = rte_eth_rx_burst(pr.back, 0, pkts, RTE_DIM(pkts));

		rte_pktmbuf_free_bulk(pkts, got);
		if (pair_xstat(pr.back, "rx_q0_multicast_requests") >= n)
			return true;
		rte_delay_us_sleep(1000);
	}
	return false;
}

/*
 * The netback's application sends a frame to each of @dst; returns a bit
 * per frame that reached the netfront's application.
 */
static unsigned int
reaches_guest(const struct rte_ether_addr *const *dst, unsigned int n)
{
	struct rte_mbuf *pkts[8];
	unsigned int i, got = 0, ms;

	for (i = 0; i < n; i++) {
		uint8_t data[60] = { 0 };
		struct rte_mbuf *m;

		rte_ether_addr_copy(dst[i], (struct rte_ether_addr *)data);
		data[59] = i;
		m = pair_frame(test_pool, data, sizeof(data));
		if (m == NULL || rte_eth_tx_burst(pr.back, 0, &m, 1) != 1)
			rte_pktmbuf_free(m);
	}
	for (ms = 0; ms < 200; ms++) {
		uint16_t k = rte_eth_rx_burst(pr.front, 0, pkts, RTE_DIM(pkts));

		for (i = 0; i < k; i++) {
			got |= 1u << *rte_pktmbuf_mtod_offset(pkts[i],
							      uint8_t *, 59);
			rte_pktmbuf_free(pkts[i]);
		}
		rte_delay_us_sleep(1000);
	}
	return got;
}

static const struct rte_ether_addr *const all4[] = {
	&group_a, &group_b, &bcast, &unicast,
};
#define A (1u << 0)
#define B (1u << 1)
#define OTHERS (1u << 2 | 1u << 3)

/* Wait for the netback to follow a change of request-multicast-control. */
static bool
settles_to(unsigned int want)
{
	unsigned int tries;

	for (tries = 0; tries < 25; tries++)
		if (reaches_guest(all4, 4) == want)
			return true;
	return false;
}

static void
test_only_the_listed_groups_reach_the_guest(void)
{
	struct rte_ether_addr list[2] = { group_a };

	REQUIRE(pair_open(&pr, "mc", "", "", test_pool));
	REQUIRE(rte_eth_promiscuous_disable(pr.front) == 0);
	/* No list: everything, as before. */
	CHECK(reaches_guest(all4, 4) == (A | B | OTHERS));
	REQUIRE(rte_eth_dev_set_mc_addr_list(pr.front, list, 1) == 0);
	CHECK(backend_handled(1));
	CHECK(settles_to(A | OTHERS));
	CHECK(pair_xstat(pr.back, "tx_q0_drop_multicast") >= 1);
	/* All-multicast: every group, while connected. */
	REQUIRE(rte_eth_allmulticast_enable(pr.front) == 0);
	CHECK(settles_to(A | B | OTHERS));
	REQUIRE(rte_eth_allmulticast_disable(pr.front) == 0);
	CHECK(settles_to(A | OTHERS));
	/* A new list: A left, B joined. */
	list[0] = group_b;
	REQUIRE(rte_eth_dev_set_mc_addr_list(pr.front, list, 1) == 0);
	CHECK(backend_handled(3));
	CHECK(settles_to(B | OTHERS));
	CHECK(pair_xstat(pr.front, "tx_q0_multicast_requests") == 3);
	CHECK(pair_xstat(pr.front, "tx_q0_multicast_refused") == 0);
	/* No list again: no filter. */
	REQUIRE(rte_eth_dev_set_mc_addr_list(pr.front, NULL, 0) == 0);
	CHECK(backend_handled(4));
	CHECK(settles_to(A | B | OTHERS));
	pair_close(&pr);
}

static void
test_lists_no_filter_can_hold_are_refused(void)
{
	struct rte_ether_addr list[65];
	unsigned int i;

	REQUIRE(pair_open(&pr, "mcbad", "", "", test_pool));
	for (i = 0; i < RTE_DIM(list); i++) {
		list[i] = group_a;
		list[i].addr_bytes[4] = i;
	}
	CHECK(rte_eth_dev_set_mc_addr_list(pr.front, list, 65) == -ENOSPC);
	CHECK(rte_eth_dev_set_mc_addr_list(pr.front, list, 64) == 0);
	list[0] = unicast;
	CHECK(rte_eth_dev_set_mc_addr_list(pr.front, list, 1) == -EINVAL);
	list[0] = bcast;
	CHECK(rte_eth_dev_set_mc_addr_list(pr.front, list, 1) == -EINVAL);
	CHECK(backend_handled(64));
	CHECK(pair_xstat(pr.front, "tx_q0_multicast_refused") == 0);
	/* The netback's application takes what its guest sends: no list. */
	CHECK(rte_eth_dev_set_mc_addr_list(pr.back, list + 1, 1) == -ENOTSUP);
	pair_close(&pr);
}

TEST_MAIN(pair_setup, pair_teardown)
{
	RUN(test_only_the_listed_groups_reach_the_guest);
	RUN(test_lists_no_filter_can_hold_are_refused);
}
