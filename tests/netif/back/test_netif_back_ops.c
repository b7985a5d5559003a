/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The backend's two whole operations, specified on rings in ordinary
 * memory with data pages a frontend domain really grants through the
 * simulated hypervisor: netif_back_tx_pull() turns the guest's TX
 * requests into mbufs holding exactly the bytes the guest wrote, answers
 * every request and publishes once; netif_back_rx_push() writes packets
 * into the buffers the guest posted and answers each in its own slot.
 * Both say whether the frontend's event index asks for a notification,
 * and a frontend that breaks the protocol sets @error and stops them.
 * Dummy requests with multicast extras amend the vif's filter (at most
 * 64 groups, multicast ones) and are answered at once; guest RX obeys the
 * filter once it is on, broadcast and unicast always passing. With the
 * guest's hash configured, each frame to it carries a hash extra, and a
 * hash extra of the guest's becomes the mbuf's RSS hash.
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "ms_rss_hash.h"
#include "netif_back.h"
#include "netif_hash.h"
#include "netif_mcast.h"
#include "test.h"
#include "test_eal.h"
#include "xsim/xsim_test.h"

/* The link's MTU the sending rings read (netif_ring_mtu()). */
static const uint16_t link_mtu = 1500;

#define BACKEND 0
#define FRONTEND 1
#define PAGES 32
#define PORT_ID 7

static struct xa_handle *be, *fe;
static uint8_t *pages;			/* the frontend's granted pages */
static grant_ref_t refs[PAGES];

static union {
	netif_tx_sring_t sring;
	uint8_t page[NETIF_PAGE_SIZE];
} tx_shared;
static union {
	netif_rx_sring_t sring;
	uint8_t page[NETIF_PAGE_SIZE];
} rx_shared;
static netif_tx_front_ring_t tx_front;
static netif_rx_front_ring_t rx_front;
static struct netif_back_tx tx;
static struct netif_back_rx rx;

static uint8_t
pattern(unsigned int page, unsigned int off)
{
	return (uint8_t)(page * 31 + off * 7 + (off >> 8));
}

/* Fresh rings, the pages refilled with their pattern. */
static void
rings_reset(void)
{
	unsigned int p, o;

	for (p = 0; p < PAGES; p++)
		for (o = 0; o < NETIF_PAGE_SIZE; o++)
			pages[p * NETIF_PAGE_SIZE + o] = pattern(p, o);
	memset(&tx_shared, 0, sizeof(tx_shared));
	SHARED_RING_INIT(&tx_shared.sring);
	FRONT_RING_INIT(&tx_front, &tx_shared.sring, NETIF_PAGE_SIZE);
	memset(&rx_shared, 0, sizeof(rx_shared));
	SHARED_RING_INIT(&rx_shared.sring);
	FRONT_RING_INIT(&rx_front, &rx_shared.sring, NETIF_PAGE_SIZE);
	netif_back_tx_setup(&tx, test_pool, PORT_ID);
	CHECK(netif_back_tx_connect(&tx, &tx_shared.sring, be, FRONTEND) == 0);
	CHECK(netif_back_rx_connect(&rx, &rx_shared.sring, be, FRONTEND) == 0);
	rx.mtu = &link_mtu;
	memset(&tx.stats, 0, sizeof(tx.stats));
	memset(&rx.stats, 0, sizeof(rx.stats));
	netif_back_rx_set_xdp_headroom(&rx, 0);
	memset(&tx.copy.stats, 0, sizeof(tx.copy.stats));
	memset(&rx.copy.stats, 0, sizeof(rx.copy.stats));
}

/* A TX request of the frontend, published at once. */
static void
post_tx(uint16_t id, grant_ref_t gref, uint16_t offset, uint16_t size,
	uint16_t flags)
{
	netif_tx_request_t *req =
		RING_GET_REQUEST(&tx_front, tx_front.req_prod_pvt++);

	*req = (netif_tx_request_t){
		.gref = gref, .offset = offset, .flags = flags, .id = id,
		.size = size,
	};
	RING_PUSH_REQUESTS(&tx_front);
}

/* A one-slot packet of @len bytes from the start of page @page. */
static void
post_packet(uint16_t id, unsigned int page, uint16_t len)
{
	post_tx(id, refs[page], 0, len, 0);
}

static bool
holds_page_bytes(const struct rte_mbuf *m, unsigned int page,
		 uint32_t first, uint32_t len)
{
	uint32_t off = 0;

	for (; m != NULL; m = m->next)
		for (uint16_t i = 0; i < m->data_len; i++, off++)
			if (off >= len || *rte_pktmbuf_mtod_offset(m,
				const uint8_t *, i) !=
			    pattern(page + (first + off) / NETIF_PAGE_SIZE,
				    (first + off) % NETIF_PAGE_SIZE))
				return false;
	return off == len;
}

static const netif_tx_response_t *
tx_response(RING_IDX i)
{
	return RING_GET_RESPONSE(&tx_front, i);
}

static void
test_pull_copies_each_packet_and_answers_it(void)
{
	struct rte_mbuf *pkts[8];
	enum netif_doorbell db;

	rings_reset();
	post_packet(1, 0, 60);
	post_packet(2, 1, 1514);
	/* 9000 bytes over three pages: the first slot says the total. */
	post_tx(3, refs[2], 0, 9000, NETTXF_more_data);
	post_tx(4, refs[3], 0, 4096, NETTXF_more_data);
	post_tx(5, refs[4], 0, 808, 0);
	REQUIRE(netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db) == 3);
	CHECK(holds_page_bytes(pkts[0], 0, 0, 60));
	CHECK(holds_page_bytes(pkts[1], 1, 0, 1514));
	CHECK(holds_page_bytes(pkts[2], 2, 0, 9000));
	CHECK(pkts[2]->pkt_len == 9000 && pkts[0]->port == PORT_ID);
	/* Every slot answered OKAY, published once; the event index asks. */
	CHECK(tx_shared.sring.rsp_prod == 5);
	for (RING_IDX i = 0; i < 5; i++)
		CHECK(tx_response(i)->id == i + 1 &&
		      tx_response(i)->status == NETIF_RSP_OKAY);
	CHECK(db == NETIF_DOORBELL_RING);
	CHECK(tx.stats.packets == 3 && tx.stats.bytes == 60 + 1514 + 9000);
	CHECK(tx.copy.stats.calls == 1 && tx.copy.stats.failed == 0);
	CHECK(tx.error == NULL);
	rte_pktmbuf_free_bulk(pkts, 3);
}

static void
test_doorbell_follows_the_frontends_event_index(void)
{
	struct rte_mbuf *pkts[4];
	enum netif_doorbell db;

	rings_reset();
	CHECK(netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db) == 0);
	CHECK(db == NETIF_DOORBELL_NONE);
	/* The frontend wants a kick only after 10 more responses. */
	tx_shared.sring.rsp_event = 10;
	post_packet(1, 0, 60);
	REQUIRE(netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db) == 1);
	CHECK(db == NETIF_DOORBELL_QUIET);
	rte_pktmbuf_free(pkts[0]);
	rx_shared.sring.rsp_event = 10;
	REQUIRE(rx_front.req_prod_pvt == 0);
	CHECK(netif_back_rx_push(&rx, pkts, 0, &db) == 0);
	CHECK(db == NETIF_DOORBELL_NONE);
}

static void
test_pull_takes_at_most_max_and_leaves_the_rest(void)
{
	struct rte_mbuf *pkts[8];
	enum netif_doorbell db;

	rings_reset();
	for (uint16_t i = 0; i < 5; i++)
		post_packet(i, i, 100 + i);
	REQUIRE(netif_back_tx_pull(&tx, pkts, 2, &db) == 2);
	CHECK(tx_shared.sring.rsp_prod == 2);
	REQUIRE(netif_back_tx_pull(&tx, pkts + 2, 6, &db) == 3);
	for (unsigned int i = 0; i < 5; i++)
		CHECK(holds_page_bytes(pkts[i], i, 0, 100 + i));
	rte_pktmbuf_free_bulk(pkts, 5);
}

/* As Linux: answered with an error and dropped; the frontend stays. */
static void
test_bad_grant_is_answered_with_an_error(void)
{
	struct rte_mbuf *pkts[4];
	enum netif_doorbell db;

	rings_reset();
	post_packet(1, 0, 60);
	post_tx(2, 4000, 0, 60, 0);	/* never granted */
	REQUIRE(netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db) == 1);
	rte_pktmbuf_free(pkts[0]);
	CHECK(tx.error == NULL && tx.stats.malformed == 0);
	CHECK(tx.stats.drop_copy_failed == 1);
	CHECK(tx_response(1)->id == 2 &&
	      tx_response(1)->status == NETIF_RSP_ERROR);
	post_packet(3, 1, 60);
	REQUIRE(netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db) == 1);
	CHECK(holds_page_bytes(pkts[0], 1, 0, 60));
	CHECK(tx_response(2)->id == 3 &&
	      tx_response(2)->status == NETIF_RSP_OKAY);
	rte_pktmbuf_free(pkts[0]);
}

/*
 * A packet of more than 18 slots is answered with an error in each of
 * them and dropped, as Linux does up to its fatal bound.
 */
static void
test_twenty_slots_are_answered_with_errors(void)
{
	struct rte_mbuf *pkts[4];
	enum netif_doorbell db;
	uint16_t i;

	rings_reset();
	post_tx(0, refs[0], 0, 20 * 10, NETTXF_more_data);
	for (i = 1; i < 20; i++)
		post_tx(i, refs[i % PAGES], 0, 10,
			i < 19 ? NETTXF_more_data : 0);
	post_packet(20, 1, 60);
	REQUIRE(netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db) == 1);
	CHECK(holds_page_bytes(pkts[0], 1, 0, 60));
	rte_pktmbuf_free(pkts[0]);
	for (i = 0; i < 20; i++)
		CHECK(tx_response(i)->id == i &&
		      tx_response(i)->status == NETIF_RSP_ERROR);
	CHECK(tx_response(20)->status == NETIF_RSP_OKAY);
	CHECK(tx.stats.drop_bad_frame == 1 && tx.error == NULL);
}

static void
test_producer_beyond_the_ring_disconnects(void)
{
	struct rte_mbuf *pkts[4];
	enum netif_doorbell db;

	rings_reset();
	tx_shared.sring.req_prod = NETIF_TX_RING_SIZE + 1;
	CHECK(netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db) == 0);
	CHECK(tx.error != NULL && tx.stats.malformed == 1);
	rx_shared.sring.req_prod = NETIF_RX_RING_SIZE + 1;
	CHECK(netif_back_rx_push(&rx, pkts, 0, &db) == 0);
	CHECK(rx.error != NULL && rx.stats.malformed == 1);
}

/* An IPv4/UDP frame at the start of page @page, its checksum left blank. */
static uint16_t
write_udp_frame(unsigned int page, uint16_t payload)
{
	uint8_t *f = pages + page * NETIF_PAGE_SIZE;
	struct rte_ipv4_hdr *ip = (void *)(f + RTE_ETHER_HDR_LEN);
	struct rte_udp_hdr *udp = (void *)(ip + 1);
	uint16_t len = RTE_ETHER_HDR_LEN + sizeof(*ip) + sizeof(*udp) + payload;

	memset(f, 0x02, 12);
	f[12] = 0x08;
	f[13] = 0x00;
	*ip = (struct rte_ipv4_hdr){
		.version_ihl = RTE_IPV4_VHL_DEF,
		.total_length = rte_cpu_to_be_16(len - RTE_ETHER_HDR_LEN),
		.time_to_live = 64,
		.next_proto_id = IPPROTO_UDP,
		.src_addr = rte_cpu_to_be_32(0x0a000001),
		.dst_addr = rte_cpu_to_be_32(0x0a000002),
	};
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	*udp = (struct rte_udp_hdr){
		.src_port = rte_cpu_to_be_16(1000),
		.dst_port = rte_cpu_to_be_16(2000),
		.dgram_len = rte_cpu_to_be_16(sizeof(*udp) + payload),
	};
	return len;
}

static void
test_blank_checksums_are_completed_or_the_frame_dropped(void)
{
	struct rte_mbuf *pkts[4];
	enum netif_doorbell db;
	const struct rte_ipv4_hdr *ip;

	rings_reset();
	post_tx(1, refs[0], 0, write_udp_frame(0, 100), NETTXF_csum_blank);
	/* A blank checksum on a frame that has none (an ARP-sized runt). */
	post_tx(2, refs[1], 0, 60, NETTXF_csum_blank);
	REQUIRE(netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db) == 1);
	ip = rte_pktmbuf_mtod_offset(pkts[0], const struct rte_ipv4_hdr *,
				     RTE_ETHER_HDR_LEN);
	CHECK(rte_ipv4_udptcp_cksum_verify(ip, ip + 1) == 0);
	CHECK(tx.stats.drop_bad_csum == 1);
	/* As Linux: the copy went through, so OKAY, and the frame dropped. */
	CHECK(tx_response(1)->status == NETIF_RSP_OKAY);
	CHECK(tx.error == NULL);
	rte_pktmbuf_free(pkts[0]);
}

static void
test_mbuf_shortage_leaves_requests_for_later(void)
{
	struct rte_mempool *tiny;
	struct rte_mbuf *pkts[4], *held[2 * NETIF_BACK_SPARE_MBUFS];
	enum netif_doorbell db;
	unsigned int n = 0;

	tiny = rte_pktmbuf_pool_create("tiny", RTE_DIM(held), 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	REQUIRE(tiny != NULL);
	rings_reset();
	netif_back_tx_setup(&tx, tiny, PORT_ID);
	while (n < RTE_DIM(held) && (held[n] = rte_pktmbuf_alloc(tiny)) != NULL)
		n++;
	post_packet(1, 0, 60);
	CHECK(netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db) == 0);
	CHECK(tx.stats.mbuf_alloc_failed == 1 && db == NETIF_DOORBELL_NONE);
	CHECK(tx.ring.req_cons == 0 && tx.error == NULL);
	rte_pktmbuf_free_bulk(held, n);
	REQUIRE(netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db) == 1);
	CHECK(holds_page_bytes(pkts[0], 0, 0, 60));
	rte_pktmbuf_free(pkts[0]);
	netif_back_tx_release(&tx);
	rte_mempool_free(tiny);
}

/*
 * A pool with fewer free mbufs than a refill of the spares asks for: the
 * queue takes what there is and progresses, counting the short refill,
 * instead of waiting for a whole refill that may never come.
 */
static void
test_a_short_pool_still_feeds_the_packets_it_can(void)
{
	struct rte_mempool *small;
	struct rte_mbuf *pkts[8];
	enum netif_doorbell db;
	unsigned int i;
	uint16_t n;

	small = rte_pktmbuf_pool_create("small", NETIF_BACK_SPARE_MBUFS / 2,
					0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
					SOCKET_ID_ANY);
	REQUIRE(small != NULL);
	rings_reset();
	netif_back_tx_setup(&tx, small, PORT_ID);
	for (i = 0; i < RTE_DIM(pkts); i++)
		post_packet(i, i % PAGES, 60);
	n = netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db);
	CHECK(n == RTE_DIM(pkts));
	CHECK(tx.stats.mbuf_refill_short >= 1);
	CHECK(tx.stats.mbuf_alloc_failed == 0 && tx.error == NULL);
	for (i = 0; i < n; i++)
		CHECK(holds_page_bytes(pkts[i], i % PAGES, 0, 60));
	rte_pktmbuf_free_bulk(pkts, n);
	netif_back_tx_release(&tx);
	rte_mempool_free(small);
}

/* An RX buffer of the frontend: page @page, request id @id. */
static void
post_rx(uint16_t id, unsigned int page)
{
	netif_rx_request_t *req =
		RING_GET_REQUEST(&rx_front, rx_front.req_prod_pvt++);

	req->id = id;
	req->gref = refs[page];
	RING_PUSH_REQUESTS(&rx_front);
}

/* A packet of @len bytes, byte i = i * 3, in mbufs of test_pool. */
static struct rte_mbuf *
packet(uint32_t len)
{
	struct rte_mbuf *head = NULL, *m;
	uint32_t off = 0;

	while (off < len) {
		uint16_t n;
		uint8_t *d;

		m = rte_pktmbuf_alloc(test_pool);
		if (m == NULL)
			return NULL;
		n = RTE_MIN(len - off, (uint32_t)rte_pktmbuf_tailroom(m));
		d = (uint8_t *)rte_pktmbuf_append(m, n);
		for (uint16_t i = 0; i < n; i++)
			d[i] = (uint8_t)((off + i) * 3);
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0)
			return NULL;
		off += n;
	}
	return head;
}

/* Whether bytes @first.. of packet() are at offset @at of page @page. */
static bool
page_holds_packet_bytes_at(unsigned int page, unsigned int at,
			   uint32_t first, uint32_t len)
{
	const uint8_t *d = pages + page * NETIF_PAGE_SIZE + at;

	for (uint32_t i = 0; i < len; i++)
		if (d[i] != (uint8_t)((first + i) * 3))
			return false;
	return true;
}

static bool
page_holds_packet_bytes(unsigned int page, uint32_t first, uint32_t len)
{
	const uint8_t *d = pages + page * NETIF_PAGE_SIZE;

	for (uint32_t i = 0; i < len; i++)
		if (d[i] != (uint8_t)((first + i) * 3))
			return false;
	return true;
}

static void
test_push_fills_posted_buffers_and_answers_in_their_slots(void)
{
	struct rte_mbuf *pkts[2] = { packet(100), packet(5000) };
	const netif_rx_response_t *rsp;
	enum netif_doorbell db;

	rings_reset();
	REQUIRE(pkts[0] != NULL && pkts[1] != NULL);
	for (uint16_t i = 0; i < 4; i++)
		post_rx(40 + i, i);
	CHECK(netif_back_rx_push(&rx, pkts, 2, &db) == 2);
	CHECK(db == NETIF_DOORBELL_RING && rx_shared.sring.rsp_prod == 3);
	rsp = RING_GET_RESPONSE(&rx_front, 0);
	CHECK(rsp->id == 40 && rsp->status == 100 && rsp->flags == 0);
	rsp = RING_GET_RESPONSE(&rx_front, 1);
	CHECK(rsp->id == 41 && rsp->status == 4096 &&
	      rsp->flags == NETRXF_more_data);
	rsp = RING_GET_RESPONSE(&rx_front, 2);
	CHECK(rsp->id == 42 && rsp->status == 904 && rsp->flags == 0);
	CHECK(page_holds_packet_bytes(0, 0, 100));
	CHECK(page_holds_packet_bytes(1, 0, 4096));
	CHECK(page_holds_packet_bytes(2, 4096, 904));
	CHECK(rx.stats.packets == 2 && rx.stats.bytes == 5100);
	CHECK(rx.copy.stats.calls == 1 && rx.error == NULL);
}

/* contiguous_packet()'s buffer is static: nothing to give back. */
static void
ext_buf_free(void *addr __rte_unused, void *opaque __rte_unused)
{
}

/*
 * A packet of @len bytes, byte i = i * 3, in one mbuf on an external
 * buffer of ours whose data starts @page_off bytes into a page (a large
 * segment on a contiguous buffer).
 */
static struct rte_mbuf *
contiguous_packet(uint32_t len, uint16_t page_off)
{
	static uint8_t buf[5 * NETIF_PAGE_SIZE] __rte_aligned(NETIF_PAGE_SIZE);
	static struct rte_mbuf_ext_shared_info shinfo;
	struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);

	if (m == NULL)
		return NULL;
	shinfo.free_cb = ext_buf_free;
	rte_mbuf_ext_refcnt_set(&shinfo, 1);
	rte_pktmbuf_attach_extbuf(m, buf, 0, sizeof(buf), &shinfo);
	m->data_off = page_off;
	m->data_len = m->pkt_len = len;
	for (uint32_t i = 0; i < len; i++)
		buf[page_off + i] = (uint8_t)(i * 3);
	return m;
}

/*
 * One mbuf spanning pages of ours: the first slot ends where our first
 * page does, so that every copy reads one page of ours (no page split);
 * unless that leaves the first slot fewer bytes than NETIF_RX_FIRST_MIN,
 * when the slots are filled whole and the copies straddle our pages.
 */
static void
test_push_follows_our_pages_in_one_segment(void)
{
	static const struct {
		uint16_t page_off;
		uint16_t sizes[3];
		uint64_t splits;
	} cases[] = {
		{ NETIF_PAGE_SIZE - 1000, { 1000, 4096, 3904 }, 0 },
		{ NETIF_PAGE_SIZE - 100, { 4096, 4096, 808 }, 3 },
		{ 0, { 4096, 4096, 808 }, 0 },
	};
	unsigned int c, i;

	for (c = 0; c < RTE_DIM(cases); c++) {
		struct rte_mbuf *m = contiguous_packet(9000, cases[c].page_off);
		const netif_rx_response_t *rsp;
		enum netif_doorbell db;
		uint32_t first = 0;

		rings_reset();
		REQUIRE(m != NULL);
		for (i = 0; i < 3; i++)
			post_rx(40 + i, i);
		CHECK(netif_back_rx_push(&rx, &m, 1, &db) == 1);
		CHECK(rx_shared.sring.rsp_prod == 3 && rx.error == NULL);
		for (i = 0; i < 3; i++) {
			rsp = RING_GET_RESPONSE(&rx_front, i);
			CHECK(rsp->id == 40 + i && rsp->offset == 0);
			CHECK(rsp->status == cases[c].sizes[i]);
			CHECK(page_holds_packet_bytes(i, first,
						      cases[c].sizes[i]));
			first += cases[c].sizes[i];
		}
		CHECK(rx.copy.stats.segs == 3);
		CHECK(rx.copy.stats.page_splits == cases[c].splits);
	}
}

/*
 * The frontend's XDP headroom from the next push on: each frame starts
 * that far into its first page, whose XDP extra takes a request; a frame
 * waits while its data and extra slots are not all posted.
 */
static void
test_push_leaves_the_xdp_headroom_asked_for(void)
{
	struct rte_mbuf *pkts[2] = { packet(100), packet(5000) };
	const struct netif_extra_info *extra;
	const netif_rx_response_t *rsp;
	enum netif_doorbell db;

	rings_reset();
	REQUIRE(pkts[0] != NULL && pkts[1] != NULL);
	netif_back_rx_set_xdp_headroom(&rx, 256);
	post_rx(40, 0);
	/* One buffer: the extra's request is missing. */
	CHECK(netif_back_rx_push(&rx, pkts, 2, &db) == 0);
	CHECK(rx.stats.ring_full == 1 && rx_shared.sring.rsp_prod == 0);
	for (uint16_t i = 1; i < 5; i++)
		post_rx(40 + i, i);
	CHECK(netif_back_rx_push(&rx, pkts, 2, &db) == 2);
	CHECK(rx_shared.sring.rsp_prod == 5);
	rsp = RING_GET_RESPONSE(&rx_front, 0);
	CHECK(rsp->id == 40 && rsp->offset == 256 && rsp->status == 100);
	CHECK(rsp->flags == NETRXF_extra_info);
	extra = (const struct netif_extra_info *)RING_GET_RESPONSE(&rx_front, 1);
	CHECK(extra->type == XEN_NETIF_EXTRA_TYPE_XDP && extra->u.pad[0] == 256);
	rsp = RING_GET_RESPONSE(&rx_front, 2);
	CHECK(rsp->id == 42 && rsp->offset == 256 && rsp->status == 4096 - 256);
	CHECK(rsp->flags == (NETRXF_extra_info | NETRXF_more_data));
	rsp = RING_GET_RESPONSE(&rx_front, 4);
	CHECK(rsp->id == 44 && rsp->offset == 0 && rsp->status == 5000 - 3840);
	CHECK(page_holds_packet_bytes_at(0, 256, 0, 100));
	CHECK(page_holds_packet_bytes_at(2, 256, 0, 3840));
	CHECK(page_holds_packet_bytes_at(4, 0, 3840, 5000 - 3840));
	CHECK(rx.stats.packets == 2 && rx.stats.bytes == 5100);

	/* Back to none: no extra, the page's start. */
	netif_back_rx_set_xdp_headroom(&rx, 0);
	pkts[0] = packet(100);
	REQUIRE(pkts[0] != NULL);
	post_rx(50, 5);
	CHECK(netif_back_rx_push(&rx, pkts, 1, &db) == 1);
	rsp = RING_GET_RESPONSE(&rx_front, 5);
	CHECK(rsp->id == 50 && rsp->offset == 0 && rsp->status == 100);
	CHECK(rsp->flags == 0 && page_holds_packet_bytes(5, 0, 100));
}

static void
test_push_stops_when_no_buffer_is_posted(void)
{
	struct rte_mbuf *pkts[2] = { packet(100), packet(100) };
	enum netif_doorbell db;

	rings_reset();
	REQUIRE(pkts[0] != NULL && pkts[1] != NULL);
	post_rx(1, 0);
	/* The first is sent and freed; the second stays the caller's. */
	CHECK(netif_back_rx_push(&rx, pkts, 2, &db) == 1);
	CHECK(rx.stats.ring_full == 1 && rx.stats.packets == 1);
	CHECK(rte_mbuf_refcnt_read(pkts[1]) == 1);
	rte_pktmbuf_free(pkts[1]);
}

static void
test_packet_no_frontend_can_take_is_dropped_not_waited_for(void)
{
	struct rte_mbuf *pkts[2] = { packet(XEN_NETIF_MAX_TX_SIZE + 1),
				     packet(60) };
	enum netif_doorbell db;

	rings_reset();
	REQUIRE(pkts[0] != NULL && pkts[1] != NULL);
	post_rx(1, 0);
	CHECK(netif_back_rx_push(&rx, pkts, 2, &db) == 2);
	CHECK(rx.stats.drop_too_long == 1 && rx.stats.packets == 1);
	CHECK(RING_GET_RESPONSE(&rx_front, 0)->status == 60);
}

/* As Linux: the buffer is answered with an error; the frontend stays. */
static void
test_bad_posted_grant_is_answered_with_an_error(void)
{
	struct rte_mbuf *pkts[1] = { packet(100) };
	netif_rx_request_t *req;
	enum netif_doorbell db;

	rings_reset();
	REQUIRE(pkts[0] != NULL);
	req = RING_GET_REQUEST(&rx_front, rx_front.req_prod_pvt++);
	req->id = 9;
	req->gref = 4000;	/* never granted */
	post_rx(10, 2);
	RING_PUSH_REQUESTS(&rx_front);
	CHECK(netif_back_rx_push(&rx, pkts, 1, &db) == 1);
	CHECK(rx.error == NULL && rx.stats.malformed == 0);
	CHECK(rx.stats.drop_copy_failed == 1);
	CHECK(RING_GET_RESPONSE(&rx_front, 0)->status == NETIF_RSP_ERROR);
	pkts[0] = packet(100);
	REQUIRE(pkts[0] != NULL);
	CHECK(netif_back_rx_push(&rx, pkts, 1, &db) == 1);
	CHECK(RING_GET_RESPONSE(&rx_front, 1)->id == 10 &&
	      RING_GET_RESPONSE(&rx_front, 1)->status == 100);
	CHECK(page_holds_packet_bytes(2, 0, 100));
}

/* A dummy TX request amending the multicast filter with @group. */
static void
post_mcast(uint16_t id, uint8_t op, const struct rte_ether_addr *group)
{
	struct netif_extra_info *extra;

	post_tx(id, refs[0], 0, 0, NETTXF_extra_info);
	extra = (void *)RING_GET_REQUEST(&tx_front, tx_front.req_prod_pvt++);
	memset(extra, 0, sizeof(*extra));
	extra->type = op;
	memcpy(extra->u.mcast.addr, group, RTE_ETHER_ADDR_LEN);
	RING_PUSH_REQUESTS(&tx_front);
}

/* A 60-byte frame to @dst. */
static struct rte_mbuf *
frame_to(const struct rte_ether_addr *dst)
{
	struct rte_mbuf *m = packet(60);

	if (m != NULL)
		rte_ether_addr_copy(dst, rte_pktmbuf_mtod(m,
							  struct rte_ether_addr *));
	return m;
}

static struct netif_mcast filter;

static const struct rte_ether_addr group_a = {{ 0x01, 0, 0x5e, 0, 0, 1 }};
static const struct rte_ether_addr group_b = {{ 0x01, 0, 0x5e, 0, 0, 2 }};
static const struct rte_ether_addr unicast = {{ 0x02, 0, 0, 0, 0, 7 }};

/* Push one frame to each of @dst[@n] into as many posted buffers. */
static uint64_t
push_frames_to(const struct rte_ether_addr *const *dst, unsigned int n)
{
	struct rte_mbuf *pkts[8];
	enum netif_doorbell db;
	unsigned int i;

	for (i = 0; i < n; i++) {
		pkts[i] = frame_to(dst[i]);
		post_rx(i, i);
	}
	rx.stats.drop_multicast = 0;
	CHECK(netif_back_rx_push(&rx, pkts, n, &db) == n);
	return rx.stats.drop_multicast;
}

static void
test_multicast_dummies_amend_the_filter_that_guest_rx_obeys(void)
{
	const struct rte_ether_addr bcast = {{ 0xff, 0xff, 0xff, 0xff, 0xff,
					       0xff }};
	const struct rte_ether_addr *const to[] = { &group_a, &group_b,
						    &bcast, &unicast };
	struct rte_mbuf *pkts[4];
	enum netif_doorbell db;

	rings_reset();
	netif_mcast_reset(&filter);
	tx.mcast = &filter;
	rx.mcast = &filter;
	post_mcast(1, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, &group_a);
	post_mcast(2, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, &group_b);
	post_mcast(3, XEN_NETIF_EXTRA_TYPE_MCAST_DEL, &group_b);
	post_mcast(4, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, &unicast);
	/* No packet comes of them; each is answered, its extra NULL. */
	CHECK(netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db) == 0);
	CHECK(tx_shared.sring.rsp_prod == 8);
	CHECK(tx_response(0)->id == 1 &&
	      tx_response(0)->status == NETIF_RSP_OKAY);
	CHECK(tx_response(1)->status == NETIF_RSP_NULL);
	CHECK(tx_response(4)->id == 3 &&
	      tx_response(4)->status == NETIF_RSP_OKAY);
	/* Not a group: refused. */
	CHECK(tx_response(6)->id == 4 &&
	      tx_response(6)->status == NETIF_RSP_ERROR);
	CHECK(tx.stats.multicast_requests == 4 &&
	      tx.stats.multicast_refused == 1 && tx.stats.packets == 0);
	CHECK(tx.error == NULL);
	/* Until the guest asks for filtering, every frame goes. */
	CHECK(push_frames_to(to, 4) == 0);
	netif_mcast_enable(&filter, true);
	rings_reset();
	/* Then only its group, broadcast and unicast. */
	CHECK(push_frames_to(to, 4) == 1);
	CHECK(rx.stats.packets == 3);
	tx.mcast = NULL;
	rx.mcast = NULL;
}

static void
test_a_full_multicast_list_refuses_one_more(void)
{
	struct rte_ether_addr g = group_a;
	struct rte_mbuf *pkts[4];
	enum netif_doorbell db;
	unsigned int i;

	rings_reset();
	netif_mcast_reset(&filter);
	tx.mcast = &filter;
	for (i = 0; i <= NETIF_MCAST_MAX; i++) {
		g.addr_bytes[5] = i;
		post_mcast(i, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, &g);
	}
	while (netif_back_tx_pull(&tx, pkts, RTE_DIM(pkts), &db) == 0 &&
	       tx.stats.multicast_requests < NETIF_MCAST_MAX + 1)
		;
	CHECK(tx.stats.multicast_requests == NETIF_MCAST_MAX + 1);
	CHECK(tx.stats.multicast_refused == 1);
	CHECK(tx_response(2 * NETIF_MCAST_MAX)->status == NETIF_RSP_ERROR);
	/* The same group twice takes one place. */
	g.addr_bytes[5] = 0;
	CHECK(netif_mcast_add(&filter, &g) == 0);
	g.addr_bytes[5] = 1;
	netif_mcast_del(&filter, &g);
	g.addr_bytes[5] = 200;
	CHECK(netif_mcast_add(&filter, &g) == 0);
	CHECK(netif_mcast_add(&filter, &(struct rte_ether_addr){{ 0x01, 0, 0x5e,
								   0, 1, 0 }}) ==
	      -ENOSPC);
	tx.mcast = NULL;
}

/* An IPv4/TCP frame of Microsoft's first RSS verification row. */
static struct rte_mbuf *
ms_tcp_frame(void)
{
	struct rte_mbuf *m = packet(14 + 20 + 20);

	if (m != NULL)
		memcpy(rte_pktmbuf_mtod(m, void *), ms_rss_row1,
		       sizeof(ms_rss_row1));
	return m;
}

static void
test_guest_rx_carries_the_guests_hash_and_guest_tx_brings_one(void)
{
	static struct netif_hash h; /* 72 KiB of tables */
	struct rte_mbuf *pkts[2] = { ms_tcp_frame(), NULL };
	const struct netif_extra_info *extra;
	const netif_rx_response_t *rsp;
	struct netif_extra_info *tx_extra;
	enum netif_doorbell db;

	rings_reset();
	REQUIRE(pkts[0] != NULL);
	ms_rss_hash_on(&h);
	rx.hash = &h;
	post_rx(1, 0);
	post_rx(2, 1);
	CHECK(netif_back_rx_push(&rx, pkts, 1, &db) == 1);
	/* The frame, then its hash in the next slot, least byte first. */
	CHECK(rx_shared.sring.rsp_prod == 2);
	rsp = RING_GET_RESPONSE(&rx_front, 0);
	CHECK(rsp->status == 54 && (rsp->flags & NETRXF_extra_info));
	extra = (const void *)RING_GET_RESPONSE(&rx_front, 1);
	CHECK(extra->type == XEN_NETIF_EXTRA_TYPE_HASH && extra->flags == 0);
	CHECK(extra->u.hash.type == _XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP &&
	      extra->u.hash.algorithm == XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ);
	CHECK(extra->u.hash.value[0] == 0x78 && extra->u.hash.value[3] == 0x51);
	CHECK(rx.stats.hashed_packets == 1);
	rx.hash = NULL;
	/* The guest's hash of what it sends: the mbuf's RSS hash. */
	post_tx(1, refs[0], 0, 60, NETTXF_extra_info);
	tx_extra = (void *)RING_GET_REQUEST(&tx_front,
					    tx_front.req_prod_pvt++);
	memset(tx_extra, 0, sizeof(*tx_extra));
	tx_extra->type = XEN_NETIF_EXTRA_TYPE_HASH;
	tx_extra->u.hash.type = _XEN_NETIF_CTRL_HASH_TYPE_IPV4;
	tx_extra->u.hash.value[0] = 0xc2;
	tx_extra->u.hash.value[3] = 0x32;
	RING_PUSH_REQUESTS(&tx_front);
	REQUIRE(netif_back_tx_pull(&tx, pkts, 2, &db) == 1);
	CHECK((pkts[0]->ol_flags & RTE_MBUF_F_RX_RSS_HASH) &&
	      pkts[0]->hash.rss == 0x320000c2);
	CHECK(tx.stats.hashed_packets == 1);
	rte_pktmbuf_free(pkts[0]);
}

/* EAL, the two domains, and the pages the frontend grants. */
static int
setup(const char *argv0)
{
	if (test_eal_pool_setup(argv0) != 0 || xsim_test_setup(argv0) != 0)
		return -1;
	be = open_dom(BACKEND);
	fe = open_dom(FRONTEND);
	if (be == NULL || fe == NULL)
		return -1;
	pages = xa_gnt_share(fe, BACKEND, PAGES, refs, true);
	return pages != NULL ? 0 : -1;
}

static void
teardown(void)
{
	netif_back_tx_release(&tx);
	xa_gnt_unshare(fe, pages, PAGES);
	xa_close(fe);
	xa_close(be);
	xsim_test_teardown();
	test_eal_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_pull_copies_each_packet_and_answers_it);
	RUN(test_multicast_dummies_amend_the_filter_that_guest_rx_obeys);
	RUN(test_a_full_multicast_list_refuses_one_more);
	RUN(test_guest_rx_carries_the_guests_hash_and_guest_tx_brings_one);
	RUN(test_doorbell_follows_the_frontends_event_index);
	RUN(test_pull_takes_at_most_max_and_leaves_the_rest);
	RUN(test_bad_grant_is_answered_with_an_error);
	RUN(test_twenty_slots_are_answered_with_errors);
	RUN(test_producer_beyond_the_ring_disconnects);
	RUN(test_blank_checksums_are_completed_or_the_frame_dropped);
	RUN(test_mbuf_shortage_leaves_requests_for_later);
	RUN(test_a_short_pool_still_feeds_the_packets_it_can);
	RUN(test_push_fills_posted_buffers_and_answers_in_their_slots);
	RUN(test_push_follows_our_pages_in_one_segment);
	RUN(test_push_leaves_the_xdp_headroom_asked_for);
	RUN(test_push_stops_when_no_buffer_is_posted);
	RUN(test_packet_no_frontend_can_take_is_dropped_not_waited_for);
	RUN(test_bad_posted_grant_is_answered_with_an_error);
}
