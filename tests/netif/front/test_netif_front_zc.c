/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The frontend's zero-copy receive: its RX buffers are mbufs of a pool on
 * pages a guest domain really grants through the simulated hypervisor, and
 * a fake backend written here with ring.h's back-ring macros writes into
 * the page a request's grant names. A packet is handed over in the very
 * mbufs posted, in ring order, with what the application asked for, a
 * slot is posted again from the pool (an mbuf freed with fields set
 * comes back as a new one), a hash extra gives its packet the hash, and
 * whatever goes wrong (bad bounds, an empty or failed response,
 * an extra taking a slot, a dry pool) loses no mbuf.
 */

#include <string.h>

#include <rte_ip.h>

#include "mixed_frames.h"
#include "netif_front.h"
#include "test.h"
#include "test_eal.h"
#include "xsim/xsim_test.h"

#define PAGE NETIF_PAGE_SIZE
#define POOL_PAGES (2 * NETIF_RX_RING_SIZE)

static struct xa_handle *guest;
static struct netif_front_pool *pool;
static struct netif_front_rx rx;
static netif_rx_back_ring_t be;
static union {
	netif_rx_sring_t sring;
	uint8_t page[PAGE];
} shared;

/* The page the backend writes for the request in ring slot @idx. */
static uint8_t *
page_of_request(RING_IDX idx)
{
	grant_ref_t gref = RING_GET_REQUEST(&be, idx)->gref;
	uint32_t i;

	for (i = 0; i < pool->nb_pages; i++)
		if (pool->refs[i] == gref)
			return pool->base + (size_t)i * PAGE;
	return NULL;
}

static void
rx_setup(void)
{
	bool notify;

	netif_front_rx_detach(&rx);
	memset(&rx.stats, 0, sizeof(rx.stats));
	netif_front_rx_attach_zc(&rx, &shared.sring, pool, 3);
	BACK_RING_INIT(&be, &shared.sring, PAGE);
	netif_front_rx_push(&rx, &notify);
}

/* The backend answers the next request: @len bytes of @fill at @off. */
static void
respond(uint16_t off, int16_t len, uint16_t flags, uint8_t fill)
{
	RING_IDX idx = be.rsp_prod_pvt++;
	uint16_t id = RING_GET_REQUEST(&be, idx)->id;
	uint8_t *page = page_of_request(idx);
	netif_rx_response_t *rsp = RING_GET_RESPONSE(&be, idx);

	REQUIRE(page != NULL);
	if (len > 0 && off + len <= (int)PAGE)
		memset(page + off, fill, len);
	*rsp = (netif_rx_response_t){
		.id = id, .offset = off, .flags = flags, .status = len,
	};
}

/* The backend's next response slot: an extra of @type with @flags. */
static struct netif_extra_info *
respond_extra(uint8_t type, uint8_t flags)
{
	struct netif_extra_info *extra;

	extra = (void *)RING_GET_RESPONSE(&be, be.rsp_prod_pvt++);
	*extra = (struct netif_extra_info){ .type = type, .flags = flags };
	return extra;
}

/* A hash extra saying @hash, with @flags. */
static void
respond_hash(uint32_t hash, uint8_t flags)
{
	struct netif_extra_info *extra;

	extra = respond_extra(XEN_NETIF_EXTRA_TYPE_HASH, flags);
	extra->u.hash.type = _XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP;
	extra->u.hash.algorithm = XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ;
	/* Least significant byte first. */
	extra->u.hash.value[0] = hash & 0xff;
	extra->u.hash.value[1] = hash >> 8 & 0xff;
	extra->u.hash.value[2] = hash >> 16 & 0xff;
	extra->u.hash.value[3] = hash >> 24;
}

static void
publish(void)
{
	RING_PUSH_RESPONSES(&be);
}

static unsigned int
in_use(void)
{
	return rte_mempool_in_use_count(pool->mp);
}

static void
every_request_names_a_page_of_the_pool(void)
{
	RING_IDX i;

	rx_setup();
	CHECK(shared.sring.req_prod == NETIF_RX_RING_SIZE);
	for (i = 0; i < NETIF_RX_RING_SIZE; i++)
		CHECK(page_of_request(i) != NULL);
	CHECK(in_use() == NETIF_RX_RING_SIZE);
}

static void
packet_is_the_mbuf_written_into(void)
{
	struct rte_mbuf *m;
	uint8_t *page;
	bool notify;

	rx_setup();
	page = page_of_request(0);
	respond(0, 100, 0, 0x5a);
	publish();
	REQUIRE(netif_front_rx_receive(&rx, NULL, &m, 1) == 1);
	CHECK(m->buf_addr == page && m->data_off == 0);
	CHECK(m->pkt_len == 100 && m->data_len == 100 && m->port == 3);
	CHECK(rte_pktmbuf_mtod(m, uint8_t *)[99] == 0x5a);
	CHECK(rx.stats.zero_copy_packets == 1 && rx.stats.packets == 1);
	/* The slot is posted again with another mbuf of the pool. */
	CHECK(netif_front_rx_push(&rx, &notify) == 1);
	CHECK(page_of_request(NETIF_RX_RING_SIZE) != NULL);
	CHECK(page_of_request(NETIF_RX_RING_SIZE) != page);
	CHECK(in_use() == NETIF_RX_RING_SIZE + 1);
	rte_pktmbuf_free(m);
	CHECK(in_use() == NETIF_RX_RING_SIZE);
}

static void
chain_of_slots_is_a_chain_of_the_posted_mbufs(void)
{
	struct rte_mbuf *m;

	rx_setup();
	respond(0, PAGE, NETRXF_more_data, 1);
	respond(0, PAGE, NETRXF_more_data, 2);
	respond(16, 808, 0, 3);
	publish();
	REQUIRE(netif_front_rx_receive(&rx, NULL, &m, 1) == 1);
	CHECK(m->nb_segs == 3 && m->pkt_len == 2 * PAGE + 808);
	CHECK(m->next->next->data_off == 16 &&
	      rte_pktmbuf_mtod(m->next->next, uint8_t *)[0] == 3);
	rte_pktmbuf_free(m);
	CHECK(in_use() == NETIF_RX_RING_SIZE - 3);
}

/*
 * One burst of one-slot packets, a chain and an empty response: every
 * packet in ring order, the empty one dropped, each counted once.
 */
static void
a_burst_keeps_ring_order_and_counts(void)
{
	struct rte_mbuf *m[8];
	bool notify;

	rx_setup();
	respond(0, 60, 0, 1);
	respond(0, PAGE, NETRXF_more_data, 2);
	respond(0, 100, 0, 2);
	respond(0, 0, 0, 3); /* empty: malformed */
	respond(10, 70, NETRXF_data_validated, 4);
	publish();
	REQUIRE(netif_front_rx_receive(&rx, NULL, m, 8) == 3);
	CHECK(m[0]->pkt_len == 60 && rte_pktmbuf_mtod(m[0], uint8_t *)[0] == 1);
	CHECK(m[1]->nb_segs == 2 && m[1]->pkt_len == PAGE + 100);
	CHECK(m[2]->pkt_len == 70 && m[2]->data_off == 10 &&
	      rte_pktmbuf_mtod(m[2], uint8_t *)[0] == 4);
	CHECK(rx.stats.packets == 3 && rx.stats.zero_copy_packets == 3);
	CHECK(rx.stats.bytes == 60 + PAGE + 100 + 70);
	CHECK(rx.stats.malformed == 1);
	rte_pktmbuf_free_bulk(m, 3);
	CHECK(netif_front_rx_push(&rx, &notify) == 5);
	CHECK(in_use() == NETIF_RX_RING_SIZE);
}

/* Checksums the application has checked, and packet types it asks for. */
static void
what_the_application_asks_for_is_given(void)
{
	struct rte_ipv4_hdr *ip;
	struct rte_mbuf *m[2];
	RING_IDX i;

	rx_setup();
	for (i = 0; i < 2; i++) {
		uint8_t *page = page_of_request(i);

		REQUIRE(page != NULL);
		respond(0, MF_LEN, 0, 0);
		mf_build(page, MF_IPV4, i);
		ip = (struct rte_ipv4_hdr *)(page + RTE_ETHER_HDR_LEN);
		ip->hdr_checksum = rte_ipv4_cksum(ip);
	}
	publish();
	rx.offloads = NETIF_RX_IP_CSUM;
	REQUIRE(netif_front_rx_receive(&rx, NULL, &m[0], 1) == 1);
	CHECK((m[0]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) ==
	      RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	rx.offloads = NETIF_RX_PTYPES;
	REQUIRE(netif_front_rx_receive(&rx, NULL, &m[1], 1) == 1);
	CHECK((m[1]->packet_type & RTE_PTYPE_L3_MASK) == RTE_PTYPE_L3_IPV4);
	rx.offloads = 0;
	rte_pktmbuf_free_bulk(m, 2);
}

/* Bad bounds or an error status: the packet's mbufs go back to the pool. */
static void
dropped_packets_give_their_mbufs_back(void)
{
	struct rte_mbuf *m;
	bool notify;

	rx_setup();
	respond(4000, PAGE - 3999, 0, 1); /* a byte past its page */
	respond(0, NETIF_RSP_ERROR, 0, 1);
	respond(0, 60, NETRXF_more_data, 1); /* then a byte past it */
	respond(4090, PAGE - 4089, 0, 1);
	publish();
	CHECK(netif_front_rx_receive(&rx, NULL, &m, 1) == 0);
	CHECK(rx.stats.malformed == 2 && rx.stats.errors == 1);
	CHECK(in_use() == NETIF_RX_RING_SIZE - 4);
	CHECK(netif_front_rx_push(&rx, &notify) == 4);
	CHECK(in_use() == NETIF_RX_RING_SIZE);
}

/* Responses that end where their pages end are received, alone or chained. */
static void
responses_ending_at_their_page_end_are_received(void)
{
	struct rte_mbuf *m[2];

	rx_setup();
	respond(PAGE - 60, 60, 0, 1);
	respond(PAGE - 60, 60, NETRXF_more_data, 2);
	respond(PAGE - 40, 40, 0, 3);
	publish();
	REQUIRE(netif_front_rx_receive(&rx, NULL, m, 2) == 2);
	CHECK(m[0]->pkt_len == 60 && m[0]->data_off == PAGE - 60);
	CHECK(m[1]->pkt_len == 100 && m[1]->nb_segs == 2);
	CHECK(rx.stats.malformed == 0 && rx.stats.packets == 2);
	rte_pktmbuf_free_bulk(m, 2);
}

/* A GSO extra takes a slot and its request: that mbuf is posted again. */
static void
an_extras_slot_keeps_its_mbuf(void)
{
	struct netif_extra_info *extra;
	struct rte_mbuf *m;
	bool notify;

	rx_setup();
	rx.gso_asked = 0;	/* not asked: the packet is dropped */
	respond(0, 60, NETRXF_extra_info, 1);
	extra = respond_extra(XEN_NETIF_EXTRA_TYPE_GSO, 0);
	extra->u.gso.size = 1448;
	extra->u.gso.type = XEN_NETIF_GSO_TYPE_TCPV4;
	publish();
	CHECK(netif_front_rx_receive(&rx, NULL, &m, 1) == 0);
	CHECK(rx.stats.malformed == 1);
	CHECK(netif_front_rx_push(&rx, &notify) == 2);
	CHECK(in_use() == NETIF_RX_RING_SIZE);
}

/*
 * A backend hashing for us (multi-queue) sends a hash extra with every
 * packet: alone, or before other extras, it gives the packet its hash,
 * and the extras' slots are posted again.
 */
static void
a_hash_extra_gives_its_packet_a_hash(void)
{
	struct rte_mbuf *m[3];
	bool notify;

	rx_setup();
	respond(0, 60, NETRXF_extra_info, 1);
	respond_hash(0x12345678, 0);
	respond(0, 70, NETRXF_extra_info, 2);
	respond_hash(0x9abcdef0, XEN_NETIF_EXTRA_FLAG_MORE);
	respond_extra(XEN_NETIF_EXTRA_TYPE_MCAST_ADD, 0);
	respond(0, 80, 0, 3);
	publish();
	REQUIRE(netif_front_rx_receive(&rx, NULL, m, 3) == 3);
	CHECK(m[0]->pkt_len == 60 && rte_pktmbuf_mtod(m[0], uint8_t *)[0] == 1);
	CHECK((m[0]->ol_flags & RTE_MBUF_F_RX_RSS_HASH) &&
	      m[0]->hash.rss == 0x12345678);
	CHECK(m[1]->pkt_len == 70 && rte_pktmbuf_mtod(m[1], uint8_t *)[0] == 2);
	CHECK((m[1]->ol_flags & RTE_MBUF_F_RX_RSS_HASH) &&
	      m[1]->hash.rss == 0x9abcdef0);
	CHECK(m[2]->pkt_len == 80 &&
	      !(m[2]->ol_flags & RTE_MBUF_F_RX_RSS_HASH));
	CHECK(rx.stats.hashed_packets == 2 && rx.stats.zero_copy_packets == 3);
	CHECK(rx.stats.packets == 3 && rx.stats.malformed == 0);
	CHECK(rx.ring.rsp_cons == 6);
	rte_pktmbuf_free_bulk(m, 3);
	CHECK(netif_front_rx_push(&rx, &notify) == 6);
	CHECK(in_use() == NETIF_RX_RING_SIZE);
}

/* A packet whose hash extra is not produced yet waits for it. */
static void
a_packet_waits_for_its_extra(void)
{
	struct rte_mbuf *m;

	rx_setup();
	respond(0, 60, NETRXF_extra_info, 1);
	publish();
	CHECK(netif_front_rx_receive(&rx, NULL, &m, 1) == 0);
	CHECK(rx.ring.rsp_cons == 0 && rx.stats.malformed == 0);
	respond_hash(0xcafe, 0);
	publish();
	REQUIRE(netif_front_rx_receive(&rx, NULL, &m, 1) == 1);
	CHECK(m->pkt_len == 60 && m->hash.rss == 0xcafe);
	CHECK(rx.ring.rsp_cons == 2);
	rte_pktmbuf_free(m);
}

/* Receive and free what the backend answered, in bursts. */
static void
drain(unsigned int n)
{
	struct rte_mbuf *m[32];
	unsigned int got;

	while (n > 0) {
		got = netif_front_rx_receive(&rx, NULL, m, RTE_MIN(n, 32u));
		REQUIRE(got > 0);
		rte_pktmbuf_free_bulk(m, got);
		n -= got;
	}
}

/*
 * The refill takes mbufs without resetting them (rx_post_zc()): mbufs an
 * application freed with offload flags, a packet type, VLAN tags and Tx
 * lengths still set come back as new ones, alone or in a chain.
 */
static void
a_reposted_mbuf_is_received_as_new(void)
{
	struct rte_mbuf *m[3], *seg;
	void *bufs[3];
	unsigned int i;
	bool notify;

	rx_setup();
	for (i = 0; i < 3; i++)
		respond(0, 60, 0, 1);
	publish();
	REQUIRE(netif_front_rx_receive(&rx, NULL, m, 3) == 3);
	for (i = 0; i < 3; i++) {
		bufs[i] = m[i]->buf_addr;
		m[i]->ol_flags |= RTE_MBUF_F_RX_RSS_HASH | RTE_MBUF_F_RX_VLAN |
				  RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
		m[i]->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4;
		m[i]->vlan_tci = 7;
		m[i]->vlan_tci_outer = 8;
		m[i]->l2_len = RTE_ETHER_HDR_LEN;
		m[i]->l3_len = 20;
		m[i]->port = 9;
	}
	rte_pktmbuf_free_bulk(m, 3);
	REQUIRE(netif_front_rx_push(&rx, &notify) == 3);
	for (i = 0; i < 3; i++) {
		uint8_t *page = page_of_request(NETIF_RX_RING_SIZE + i);

		CHECK(page == bufs[0] || page == bufs[1] || page == bufs[2]);
	}
	/* The requests before theirs, then one alone and a chain of two. */
	for (i = 3; i < NETIF_RX_RING_SIZE; i++)
		respond(0, 60, 0, 2);
	publish();
	drain(NETIF_RX_RING_SIZE - 3);
	respond(0, 80, 0, 3);
	respond(0, PAGE, NETRXF_more_data, 4);
	respond(8, 100, 0, 5);
	publish();
	REQUIRE(netif_front_rx_receive(&rx, NULL, m, 2) == 2);
	CHECK(m[0]->pkt_len == 80 && m[0]->nb_segs == 1);
	CHECK(m[1]->pkt_len == PAGE + 100 && m[1]->nb_segs == 2);
	CHECK(m[1]->next->data_off == 8 && m[1]->next->next == NULL);
	for (i = 0; i < 2; i++) {
		CHECK(m[i]->packet_type == 0 && m[i]->port == 3);
		for (seg = m[i]; seg != NULL; seg = seg->next) {
			CHECK(seg->ol_flags == RTE_MBUF_F_EXTERNAL);
			CHECK(seg->vlan_tci == 0 && seg->vlan_tci_outer == 0);
			CHECK(seg->tx_offload == 0);
		}
	}
	rte_pktmbuf_free_bulk(m, 2);
	CHECK(netif_front_rx_push(&rx, &notify) == NETIF_RX_RING_SIZE);
	CHECK(in_use() == NETIF_RX_RING_SIZE);
}

/* An application holding every mbuf: fewer posted, counted, then more. */
static void
dry_pool_posts_what_it_can(void)
{
	struct rte_mbuf *held[POOL_PAGES];
	unsigned int n = POOL_PAGES - NETIF_RX_RING_SIZE, i;
	bool notify;

	rx_setup();
	REQUIRE(rte_pktmbuf_alloc_bulk(pool->mp, held, n - 2) == 0);
	for (i = 0; i < 10; i++)
		respond(0, 60, 0, 1);
	publish();
	REQUIRE(netif_front_rx_receive(&rx, NULL, &held[n - 2], 10) == 10);
	/* Two left in the pool for ten slots. */
	CHECK(netif_front_rx_push(&rx, &notify) == 2);
	CHECK(rx.stats.post_short == 1);
	CHECK(netif_front_rx_push(&rx, &notify) == 0);
	rte_pktmbuf_free_bulk(held, n + 8);
	CHECK(netif_front_rx_push(&rx, &notify) == 8);
	CHECK(in_use() == NETIF_RX_RING_SIZE);
}

static int
setup(const char *argv0)
{
	if (test_eal_pool_setup(argv0) != 0 || xsim_test_setup(argv0) != 0)
		return -1;
	guest = open_dom(1);
	if (guest == NULL)
		return -1;
	pool = netif_front_pool_create("test_zc", guest, 0, POOL_PAGES,
				       SOCKET_ID_ANY);
	return pool != NULL ? 0 : -1;
}

static void
teardown(void)
{
	netif_front_rx_detach(&rx);
	netif_front_pool_free(pool);
	xa_close(guest);
	xsim_test_teardown();
	test_eal_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(every_request_names_a_page_of_the_pool);
	RUN(packet_is_the_mbuf_written_into);
	RUN(chain_of_slots_is_a_chain_of_the_posted_mbufs);
	RUN(a_burst_keeps_ring_order_and_counts);
	RUN(what_the_application_asks_for_is_given);
	RUN(dropped_packets_give_their_mbufs_back);
	RUN(responses_ending_at_their_page_end_are_received);
	RUN(an_extras_slot_keeps_its_mbuf);
	RUN(a_hash_extra_gives_its_packet_a_hash);
	RUN(a_packet_waits_for_its_extra);
	RUN(a_reposted_mbuf_is_received_as_new);
	RUN(dry_pool_posts_what_it_can);
}
