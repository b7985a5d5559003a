/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The buffers for large segments (netif_gso_bufs.h): an attached mbuf
 * holds a whole 64-KiB frame after the usual headroom, and stays the
 * pool's; a set gives out what it has, then none, and each buffer comes
 * back when the last mbuf attached to it (a clone too) is freed; released
 * with buffers out, the set lives on until the last comes back, then its
 * mempool is gone.
 */

#include <string.h>

#include <rte_mempool.h>

#include "netif_gso_bufs.h"
#include "netif_ring.h"
#include "test.h"
#include "test_eal.h"

static void
test_an_attached_mbuf_holds_a_whole_frame(void)
{
	struct netif_gso_bufs *b = netif_gso_bufs_create("gb_frame", 2,
							  SOCKET_ID_ANY);
	struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);

	REQUIRE(b != NULL && m != NULL);
	CHECK(netif_gso_buf_attach(b, m, 0));
	CHECK(RTE_MBUF_HAS_EXTBUF(m) && m->pool == test_pool);
	CHECK(rte_pktmbuf_headroom(m) == RTE_PKTMBUF_HEADROOM);
	CHECK(rte_pktmbuf_tailroom(m) == NETIF_GSO_BUF_ROOM);
	/* Linux's largest GSO frame: 65535 less MAX_TCP_HEADER (320). */
	CHECK(NETIF_GSO_BUF_ROOM >= XEN_NETIF_MAX_TX_SIZE - 320);
	CHECK(rte_pktmbuf_append(m, NETIF_GSO_BUF_ROOM) != NULL);
	rte_pktmbuf_free(m);
	CHECK(netif_gso_bufs_release(b) == 0);
	CHECK(rte_mempool_lookup("gb_frame") == NULL);
}

/* The frame starts where it is asked to in a page, with all its room. */
static void
test_a_frame_starts_where_asked_in_a_page(void)
{
	static const uint16_t page_offs[] = { 0, 66, 934, NETIF_PAGE_SIZE - 1 };
	struct netif_gso_bufs *b =
		netif_gso_bufs_create("gb_phase", 4, SOCKET_ID_ANY);
	struct rte_mbuf *m[RTE_DIM(page_offs)];
	unsigned int i;

	REQUIRE(b != NULL);
	for (i = 0; i < RTE_DIM(page_offs); i++) {
		m[i] = rte_pktmbuf_alloc(test_pool);
		REQUIRE(m[i] != NULL);
		CHECK(netif_gso_buf_attach(b, m[i], page_offs[i]));
		CHECK((rte_pktmbuf_mtod(m[i], uintptr_t) &
		       (NETIF_PAGE_SIZE - 1)) == page_offs[i]);
		CHECK(rte_pktmbuf_headroom(m[i]) == RTE_PKTMBUF_HEADROOM);
		CHECK(rte_pktmbuf_tailroom(m[i]) == NETIF_GSO_BUF_ROOM);
		/* The whole room is the buffer's: written end to end. */
		memset(rte_pktmbuf_append(m[i], NETIF_GSO_BUF_ROOM), 0xa5,
		       NETIF_GSO_BUF_ROOM);
	}
	rte_pktmbuf_free_bulk(m, RTE_DIM(m));
	CHECK(netif_gso_bufs_release(b) == 0);
}

static void
test_buffers_come_back_with_their_last_mbuf(void)
{
	struct netif_gso_bufs *b = netif_gso_bufs_create("gb_back", 2,
							  SOCKET_ID_ANY);
	struct rte_mbuf *m[3], *clone;

	REQUIRE(b != NULL);
	REQUIRE(rte_pktmbuf_alloc_bulk(test_pool, m, 3) == 0);
	CHECK(netif_gso_buf_attach(b, m[0], 0));
	CHECK(netif_gso_buf_attach(b, m[1], 0));
	CHECK(!netif_gso_buf_attach(b, m[2], 0)); /* none left */
	/* A clone keeps the buffer after the mbuf goes. */
	clone = rte_pktmbuf_clone(m[0], test_pool);
	REQUIRE(clone != NULL);
	rte_pktmbuf_free(m[0]);
	CHECK(!netif_gso_buf_attach(b, m[2], 0));
	rte_pktmbuf_free(clone);
	CHECK(netif_gso_buf_attach(b, m[2], 0));
	/* Released with two out: the set lives until both are back. */
	CHECK(netif_gso_bufs_release(b) == 2);
	CHECK(rte_mempool_lookup("gb_back") != NULL);
	rte_pktmbuf_free(m[1]);
	CHECK(rte_mempool_lookup("gb_back") != NULL);
	rte_pktmbuf_free(m[2]);
	CHECK(rte_mempool_lookup("gb_back") == NULL);
	/* Every mbuf went back to its own pool. */
	CHECK(rte_mempool_in_use_count(test_pool) == 0);
}

TEST_MAIN(test_eal_pool_setup, test_eal_teardown)
{
	RUN(test_an_attached_mbuf_holds_a_whole_frame);
	RUN(test_a_frame_starts_where_asked_in_a_page);
	RUN(test_buffers_come_back_with_their_last_mbuf);
}
