/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The receive stash returns runs of one EtherType from its front, each
 * packet of a run flagged single-EtherType; a frame without an EtherType
 * leaves alone and unflagged; a run stops at the caller's burst size and
 * goes on in the next call; order is kept and nothing is lost; a flush
 * frees what is held.
 */

#include <string.h>

#include <rte_mbuf.h>

#include "mixed_frames.h"
#include "netif_l2.h"
#include "netif_rx_group.h"
#include "test.h"
#include "test_eal.h"

#define FLAG RTE_BIT64(60)

static struct netif_rx_stash stash;

static void
fill(const enum mf_kind *kinds, uint16_t n)
{
	for (uint16_t i = 0; i < n; i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);

		mf_build((uint8_t *)rte_pktmbuf_append(m, MF_LEN), kinds[i], i);
		netif_l2_classify(m);	/* as a pull leaves it */
		stash.pkts[i] = m;
	}
	netif_rx_stash_fill(&stash, n);
}

/* Take one burst; check it holds seqs [*next, *next + want), flagged. */
static void
take(uint16_t nb_pkts, uint16_t want, bool flagged, uint64_t *next)
{
	struct rte_mbuf *out[NETIF_BATCH_MAX];
	uint16_t n = netif_rx_stash_take_run(&stash, out, nb_pkts, FLAG);

	CHECK(n == want);
	for (uint16_t i = 0; i < n; i++) {
		CHECK(mf_seq(rte_pktmbuf_mtod(out[i], uint8_t *)) == (*next)++);
		CHECK(!!(out[i]->ol_flags & FLAG) == flagged);
		CHECK(out[i]->packet_type != 0);
	}
	rte_pktmbuf_free_bulk(out, n);
}

static void
test_runs_end_at_ethertype_boundaries(void)
{
	static const enum mf_kind kinds[] = {
		MF_IPV4, MF_IPV4_OPTS, MF_VLAN_IPV4, MF_QINQ_IPV4,	/* 0x0800 */
		MF_IPV6, MF_IPV6_EXT, MF_VLAN_VLAN_IPV6,		/* 0x86dd */
		MF_ARP,
		MF_IPV4,
	};
	uint64_t next = 0;

	fill(kinds, RTE_DIM(kinds));
	take(32, 4, true, &next);
	take(32, 3, true, &next);
	take(32, 1, true, &next);
	take(32, 1, true, &next);
	CHECK(netif_rx_stash_empty(&stash));
	take(32, 0, false, &next);
}

static void
test_frames_without_ethertype_leave_alone_unflagged(void)
{
	static const enum mf_kind kinds[] = {
		MF_LLC_SNAP, MF_LLC_SNAP, MF_LEN_1501, MF_LEN_1535,
		MF_VLAN_LLC, MF_IPV4, MF_IPV4, MF_LLC_SNAP, MF_IPV4,
	};
	uint64_t next = 0;

	fill(kinds, RTE_DIM(kinds));
	for (int i = 0; i < 5; i++)
		take(32, 1, false, &next);
	take(32, 2, true, &next);
	take(32, 1, false, &next);
	take(32, 1, true, &next);
	CHECK(netif_rx_stash_empty(&stash));
}

static void
test_a_run_longer_than_the_burst_goes_on_next_call(void)
{
	enum mf_kind kinds[NETIF_BATCH_MAX];
	uint64_t next = 0;

	for (int i = 0; i < NETIF_BATCH_MAX; i++)
		kinds[i] = i < 40 ? MF_IPV6 : MF_ARP;
	fill(kinds, NETIF_BATCH_MAX);
	take(16, 16, true, &next);
	take(16, 16, true, &next);
	take(16, 8, true, &next);
	take(1, 1, true, &next);
	take(64, 23, true, &next);
	CHECK(netif_rx_stash_empty(&stash));
}

static void
test_flush_frees_what_is_held(void)
{
	static const enum mf_kind kinds[] = { MF_ARP, MF_IPV4, MF_IPV4 };
	unsigned int before = rte_mempool_avail_count(test_pool);
	uint64_t next = 0;

	fill(kinds, RTE_DIM(kinds));
	take(32, 1, true, &next);
	netif_rx_stash_flush(&stash);
	CHECK(netif_rx_stash_empty(&stash));
	CHECK(rte_mempool_avail_count(test_pool) == before);
}

TEST_MAIN(test_eal_pool_setup, test_eal_teardown)
{
	RUN(test_runs_end_at_ethertype_boundaries);
	RUN(test_frames_without_ethertype_leave_alone_unflagged);
	RUN(test_a_run_longer_than_the_burst_goes_on_next_call);
	RUN(test_flush_frees_what_is_held);
}
