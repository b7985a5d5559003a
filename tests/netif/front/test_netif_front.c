/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The frontend's ring conversions against a fake backend written here with
 * ring.h's back-ring macros, on rings and pages in ordinary memory. The
 * fake backend finds a buffer page by its grant reference, as a real one
 * would; each test case states one rule of the protocol.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>

#include "netif_front.h"
#include "test.h"
#include "test_eal.h"

/* The link's MTU the sending rings read (netif_ring_mtu()). */
static const uint16_t link_mtu = 1500;

#define PAGE NETIF_PAGE_SIZE
#define GREF_BASE 1000u		/* page i is granted as GREF_BASE + i */
#define PORT 7

static struct {
	struct netif_front_tx tx;
	netif_tx_back_ring_t be;
	netif_tx_sring_t *sring;
	uint8_t *pages;
	grant_ref_t grefs[NETIF_TX_RING_SIZE];
} T;

static struct {
	struct netif_front_rx rx;
	netif_rx_back_ring_t be;
	netif_rx_sring_t *sring;
	uint8_t *pages;
	grant_ref_t grefs[NETIF_RX_RING_SIZE];
	uint32_t pos;		/* packet byte the fake backend writes next */
} R;

static uint8_t
pattern(uint32_t pos, uint8_t seed)
{
	return (uint8_t)(pos * 7 + seed);
}

/* A packet of @len pattern bytes in segments of at most @seg bytes. */
static struct rte_mbuf *
make_pkt(uint32_t len, uint16_t seg, uint8_t seed)
{
	struct rte_mbuf *head = NULL;
	uint32_t pos = 0;

	do {
		struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);
		uint16_t n = RTE_MIN(len - pos, (uint32_t)seg);
		uint8_t *p;
		uint16_t i;

		if (m == NULL)
			abort();
		p = (uint8_t *)rte_pktmbuf_append(m, n);
		for (i = 0; i < n; i++)
			p[i] = pattern(pos + i, seed);
		pos += n;
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0)
			abort();
	} while (pos < len);
	return head;
}

static bool
pkt_matches(const struct rte_mbuf *m, uint32_t len, uint8_t seed)
{
	uint32_t pos = 0;

	if (m->pkt_len != len)
		return false;
	for (; m != NULL; m = m->next) {
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
		uint16_t i;

		if (m->data_len == 0)
			return false;
		for (i = 0; i < m->data_len; i++, pos++)
			if (p[i] != pattern(pos, seed))
				return false;
	}
	return pos == len;
}

/* Ethernet, IPv4 and TCP headers of a frame of @len bytes, in @buf. */
static void
tcp_headers(uint8_t *buf, uint32_t len)
{
	struct rte_ether_hdr *eth = (void *)buf;
	struct rte_ipv4_hdr *ip = (void *)(eth + 1);
	struct rte_tcp_hdr *tcp = (void *)(ip + 1);

	memset(buf, 0, sizeof(*eth) + sizeof(*ip) + sizeof(*tcp));
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(len - sizeof(*eth));
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_TCP;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	tcp->data_off = 5 << 4;
}

#define TCP_HDRS (RTE_ETHER_HDR_LEN + 20 + 20)
/* Where tcp_headers()'s TCP checksum lies. */
#define TCP_CSUM_AT (RTE_ETHER_HDR_LEN + 20 + 16)

static void *
page_of(uint8_t *pages, grant_ref_t gref)
{
	return pages + (size_t)(gref - GREF_BASE) * PAGE;
}

/* ---- TX: fake backend ---- */

static void
tx_setup(void)
{
	memset(&T.tx, 0, sizeof(T.tx));
	netif_front_tx_attach(&T.tx, T.sring, T.pages, T.grefs);
	T.tx.mtu = &link_mtu;
	BACK_RING_INIT(&T.be, T.sring, PAGE);
}

/* The backend takes the published requests. */
static unsigned int
be_tx_take(netif_tx_request_t *reqs, unsigned int max)
{
	RING_IDX prod = T.sring->req_prod;
	unsigned int n = 0;

	while (T.be.req_cons != prod && n < max)
		RING_COPY_REQUEST(&T.be, T.be.req_cons++, &reqs[n++]);
	return n;
}

static void
be_tx_respond(uint16_t id, int16_t status)
{
	netif_tx_response_t *r = RING_GET_RESPONSE(&T.be, T.be.rsp_prod_pvt);

	r->id = id;
	r->status = status;
	T.be.rsp_prod_pvt++;
	RING_PUSH_RESPONSES(&T.be);
}

static unsigned int
tx_send(struct rte_mbuf *m)
{
	bool notify;

	if (netif_front_tx_enqueue(&T.tx, &m, 1) != 1)
		return 0;
	return netif_front_tx_push(&T.tx, &notify);
}

/* The requests of one packet carry exactly its bytes, densely. */
static bool
tx_requests_match(const netif_tx_request_t *reqs, unsigned int n,
		  uint32_t len, uint8_t seed)
{
	uint32_t pos = 0;
	unsigned int s;

	if (reqs[0].size != len)
		return false;
	for (s = 0; s < n; s++) {
		uint32_t chunk = RTE_MIN(len - pos, PAGE);
		const uint8_t *p = page_of(T.pages, reqs[s].gref);
		uint32_t i;

		if (reqs[s].offset != 0 || reqs[s].gref != T.grefs[reqs[s].id])
			return false;
		if (!!(reqs[s].flags & NETTXF_more_data) != (s + 1 < n))
			return false;
		if (s > 0 && reqs[s].size != chunk)
			return false;
		for (i = 0; i < chunk; i++)
			if (p[i] != pattern(pos + i, seed))
				return false;
		pos += chunk;
	}
	return pos == len;
}

static void
tx_check_slots(uint32_t len, uint16_t seg, unsigned int slots)
{
	netif_tx_request_t reqs[NETIF_MAX_SLOTS + 1];

	tx_setup();
	CHECK(tx_send(make_pkt(len, seg, 3)) == slots);
	CHECK(be_tx_take(reqs, RTE_DIM(reqs)) == slots);
	CHECK(tx_requests_match(reqs, slots, len, 3));
	CHECK(T.tx.stats.packets == 1 && T.tx.stats.bytes == len);
	CHECK(T.tx.nb_free == NETIF_TX_RING_SIZE - slots);
}

static void
tx_60_bytes_take_one_slot(void)
{
	tx_check_slots(60, 2048, 1);
}

static void
tx_4096_bytes_take_one_slot(void)
{
	tx_check_slots(4096, 2048, 1);
}

/* A whole segment, one request; two segments of one page, one request. */
static void
tx_one_full_segment_takes_one_slot(void)
{
	tx_check_slots(RTE_MBUF_DEFAULT_DATAROOM, RTE_MBUF_DEFAULT_DATAROOM, 1);
}

/* A checksum left to the backend is flagged on a one-request packet. */
static void
tx_checksum_offload_flags_a_one_slot_packet(void)
{
	netif_tx_request_t req;
	struct rte_mbuf *m = make_pkt(60, 2048, 3);
	const uint8_t *sent;
	uint8_t frame[60];
	uint16_t csum;

	tx_setup();
	T.tx.peer = NETIF_PEER_CSUM_IPV4;
	tcp_headers(rte_pktmbuf_mtod(m, uint8_t *), 60);
	m->ol_flags = RTE_MBUF_F_TX_TCP_CKSUM | RTE_MBUF_F_TX_IPV4;
	m->l2_len = RTE_ETHER_HDR_LEN;
	m->l3_len = 20;
	memcpy(frame, rte_pktmbuf_mtod(m, uint8_t *), sizeof(frame));
	CHECK(tx_send(m) == 1);
	REQUIRE(be_tx_take(&req, 1) == 1);
	CHECK(req.flags == (NETTXF_csum_blank | NETTXF_data_validated));
	CHECK(req.size == 60 && req.offset == 0);
	CHECK(req.gref == T.grefs[req.id]);
	/* The frame, with the pseudo-header's sum where the sum goes. */
	sent = page_of(T.pages, req.gref);
	CHECK(memcmp(sent, frame, TCP_CSUM_AT) == 0);
	memcpy(&csum, sent + TCP_CSUM_AT, sizeof(csum));
	CHECK(csum == rte_ipv4_phdr_cksum(
			      (const void *)(frame + RTE_ETHER_HDR_LEN), 0));
	CHECK(memcmp(sent + TCP_CSUM_AT + 2, frame + TCP_CSUM_AT + 2,
		     sizeof(frame) - TCP_CSUM_AT - 2) == 0);
}

static void
tx_4097_bytes_take_two_slots(void)
{
	tx_check_slots(4097, 2048, 2);
}

static void
tx_9000_bytes_from_odd_segments_take_three_slots(void)
{
	tx_check_slots(9000, 1000, 3);
}

/* The 16-bit size field caps a frame at 16 slots, under the 18 allowed. */
static void
tx_largest_frame_takes_16_slots(void)
{
	tx_check_slots(NETIF_FRONT_MAX_PKT_LEN, 2048, 16);
}

static void
tx_too_long_frame_is_refused_and_counted(void)
{
	struct rte_mbuf *pkts[2];
	unsigned int avail;
	bool notify;

	tx_setup();
	avail = rte_mempool_avail_count(test_pool);
	pkts[0] = make_pkt(NETIF_FRONT_MAX_PKT_LEN + 1, 2048, 1);
	pkts[1] = make_pkt(60, 2048, 1);
	CHECK(netif_front_tx_enqueue(&T.tx, pkts, 2) == 2);
	CHECK(T.tx.stats.too_many_slots == 1);
	CHECK(T.tx.stats.packets == 1);
	CHECK(netif_front_tx_push(&T.tx, &notify) == 1);
	CHECK(rte_mempool_avail_count(test_pool) == avail);
}

static void
tx_responses_out_of_order_return_ids(void)
{
	netif_tx_request_t reqs[4];
	int i;

	tx_setup();
	for (i = 0; i < 3; i++)
		CHECK(tx_send(make_pkt(60, 2048, i)) == 1);
	CHECK(be_tx_take(reqs, 4) == 3);
	for (i = 2; i >= 0; i--)
		be_tx_respond(reqs[i].id, NETIF_RSP_OKAY);
	CHECK(netif_front_tx_collect(&T.tx) == 3);
	CHECK(T.tx.nb_free == NETIF_TX_RING_SIZE);
	CHECK(T.tx.error == NULL && T.tx.stats.errors == 0);
}

/*
 * A send reads the backend's answers once half the ids are in flight, or
 * when its burst needs the ids they free: until then they wait in the
 * ring, and none is lost.
 */
static void
tx_send_collects_when_half_the_ids_are_out(void)
{
	const unsigned int half = NETIF_TX_RING_SIZE / 2;
	struct rte_mbuf *pkts[NETIF_TX_RING_SIZE];
	netif_tx_request_t reqs[NETIF_TX_RING_SIZE];
	enum netif_doorbell bell;
	unsigned int i;

	tx_setup();
	for (i = 0; i < 3; i++)
		pkts[i] = make_pkt(60, 2048, i);
	CHECK(netif_front_tx_send(&T.tx, pkts, 3, &bell) == 3);
	CHECK(be_tx_take(reqs, 3) == 3);
	for (i = 0; i < 3; i++)
		be_tx_respond(reqs[i].id, NETIF_RSP_OKAY);
	/* Fewer than half in flight, room for the burst: they wait. */
	for (i = 0; i < half - 3; i++)
		pkts[i] = make_pkt(60, 2048, i);
	CHECK(netif_front_tx_send(&T.tx, pkts, half - 3, &bell) == half - 3);
	CHECK(T.tx.ring.rsp_cons == 0 && T.tx.nb_free == half);
	/* Half in flight: read first. */
	pkts[0] = make_pkt(60, 2048, 0);
	CHECK(netif_front_tx_send(&T.tx, pkts, 1, &bell) == 1);
	CHECK(T.tx.ring.rsp_cons == 3 && T.tx.nb_free == half + 2);
	/* Fewer than half, but a burst larger than the room left. */
	CHECK(be_tx_take(reqs, half) == half - 2);
	be_tx_respond(reqs[0].id, NETIF_RSP_OKAY);
	for (i = 0; i < half + 3; i++)
		pkts[i] = make_pkt(60, 2048, i);
	CHECK(netif_front_tx_send(&T.tx, pkts, half + 3, &bell) == half + 3);
	CHECK(T.tx.ring.rsp_cons == 4 && T.tx.nb_free == 0);
	/* An empty burst reads every answer there is. */
	be_tx_respond(reqs[1].id, NETIF_RSP_OKAY);
	CHECK(netif_front_tx_send(&T.tx, pkts, 0, &bell) == 0);
	CHECK(T.tx.ring.rsp_cons == 5 && T.tx.nb_free == 1);
	CHECK(T.tx.error == NULL);
}

static void
tx_error_response_counts_once_per_packet(void)
{
	netif_tx_request_t reqs[3];
	int i;

	tx_setup();
	CHECK(tx_send(make_pkt(9000, 2048, 0)) == 3);
	CHECK(be_tx_take(reqs, 3) == 3);
	for (i = 0; i < 3; i++)
		be_tx_respond(reqs[i].id, NETIF_RSP_DROPPED);
	CHECK(netif_front_tx_collect(&T.tx) == 3);
	CHECK(T.tx.stats.errors == 1);
	/* A packet of one request too. */
	CHECK(tx_send(make_pkt(60, 2048, 0)) == 1);
	CHECK(be_tx_take(reqs, 1) == 1);
	be_tx_respond(reqs[0].id, NETIF_RSP_ERROR);
	CHECK(netif_front_tx_collect(&T.tx) == 1);
	CHECK(T.tx.stats.errors == 2);
}

static void
tx_null_response_is_skipped(void)
{
	netif_tx_request_t req;

	tx_setup();
	CHECK(tx_send(make_pkt(60, 2048, 0)) == 1);
	CHECK(be_tx_take(&req, 1) == 1);
	be_tx_respond(0xffff, NETIF_RSP_NULL);
	CHECK(netif_front_tx_collect(&T.tx) == 0);
	CHECK(T.tx.error == NULL);
}

static void
tx_tso_request_becomes_a_gso_extra(void)
{
	netif_tx_request_t reqs[8];
	struct netif_extra_info extra;
	struct rte_mbuf *m = make_pkt(10000, 2048, 3);

	tx_setup();
	T.tx.peer = NETIF_PEER_GSO_TCPV4 | NETIF_PEER_CSUM_IPV4;
	tcp_headers(rte_pktmbuf_mtod(m, uint8_t *), 10000);
	m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4 |
		      RTE_MBUF_F_TX_IP_CKSUM;
	m->tso_segsz = 1448;
	CHECK(tx_send(m) == 4);
	REQUIRE(be_tx_take(reqs, RTE_DIM(reqs)) == 4);
	CHECK(reqs[0].size == 10000);
	CHECK(reqs[0].flags == (NETTXF_csum_blank | NETTXF_data_validated |
				NETTXF_extra_info | NETTXF_more_data));
	memcpy(&extra, &reqs[1], sizeof(extra));
	CHECK(extra.type == XEN_NETIF_EXTRA_TYPE_GSO && extra.flags == 0);
	CHECK(extra.u.gso.type == XEN_NETIF_GSO_TYPE_TCPV4);
	CHECK(extra.u.gso.size == 1448);
	CHECK(reqs[2].flags == NETTXF_more_data && reqs[3].flags == 0);
	/* Three ids: the extra takes a ring slot, not an id. */
	CHECK(netif_front_tx_in_flight(&T.tx) == 3);
	CHECK(T.tx.stats.gso_packets == 1);
	/* The extra is answered with NETIF_RSP_NULL, the rest by id. */
	be_tx_respond(reqs[0].id, NETIF_RSP_OKAY);
	be_tx_respond(0xffff, NETIF_RSP_NULL);
	be_tx_respond(reqs[2].id, NETIF_RSP_OKAY);
	be_tx_respond(reqs[3].id, NETIF_RSP_OKAY);
	CHECK(netif_front_tx_collect(&T.tx) == 3 && T.tx.error == NULL);
}

static void
tx_tso_request_without_backend_gso_is_dropped(void)
{
	struct rte_mbuf *m = make_pkt(10000, 2048, 3);

	tx_setup();
	T.tx.peer = NETIF_PEER_CSUM_IPV4;
	tcp_headers(rte_pktmbuf_mtod(m, uint8_t *), 10000);
	m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4;
	m->tso_segsz = 1448;
	CHECK(netif_front_tx_enqueue(&T.tx, &m, 1) == 1);
	CHECK(T.tx.stats.drop_no_gso == 1 && T.tx.stats.packets == 0);
	CHECK(netif_front_tx_in_flight(&T.tx) == 0);
}

static void
tx_id_out_of_range_fails_the_queue(void)
{
	netif_tx_request_t req;
	struct rte_mbuf *m;

	tx_setup();
	CHECK(tx_send(make_pkt(60, 2048, 0)) == 1);
	CHECK(be_tx_take(&req, 1) == 1);
	be_tx_respond(NETIF_TX_RING_SIZE, NETIF_RSP_OKAY);
	netif_front_tx_collect(&T.tx);
	CHECK(T.tx.error != NULL);
	/* A failed queue takes nothing more. */
	m = make_pkt(60, 2048, 0);
	CHECK(netif_front_tx_enqueue(&T.tx, &m, 1) == 0);
	rte_pktmbuf_free(m);
}

static void
tx_id_not_in_flight_fails_the_queue(void)
{
	/* Zeroed: the ids below are read even if the take failed. */
	netif_tx_request_t req = { 0 };

	tx_setup();
	CHECK(tx_send(make_pkt(60, 2048, 0)) == 1);
	CHECK(tx_send(make_pkt(60, 2048, 0)) == 1);
	CHECK(be_tx_take(&req, 1) == 1);
	/* The same id twice: the second answers nothing in flight. */
	be_tx_respond(req.id, NETIF_RSP_OKAY);
	be_tx_respond(req.id, NETIF_RSP_OKAY);
	netif_front_tx_collect(&T.tx);
	CHECK(T.tx.error != NULL);
}

static void
tx_more_responses_than_requests_fail_the_queue(void)
{
	tx_setup();
	CHECK(tx_send(make_pkt(60, 2048, 0)) == 1);
	T.sring->rsp_prod = 2;
	CHECK(netif_front_tx_collect(&T.tx) == 0);
	CHECK(T.tx.error != NULL);
}

static void
tx_full_ring_stops_the_burst(void)
{
	struct rte_mbuf *pkts[NETIF_TX_RING_SIZE + 1];
	struct rte_mbuf *big;
	unsigned int i;

	tx_setup();
	for (i = 0; i < RTE_DIM(pkts); i++)
		pkts[i] = make_pkt(60, 2048, 0);
	CHECK(netif_front_tx_enqueue(&T.tx, pkts, RTE_DIM(pkts)) ==
	      NETIF_TX_RING_SIZE);
	CHECK(T.tx.stats.ring_full == 1);
	rte_pktmbuf_free(pkts[NETIF_TX_RING_SIZE]);

	/* A packet needing more slots than are free waits whole. */
	tx_setup();
	for (i = 0; i < NETIF_TX_RING_SIZE - 2; i++)
		pkts[i] = make_pkt(60, 2048, 0);
	CHECK(netif_front_tx_enqueue(&T.tx, pkts, i) == i);
	big = make_pkt(9000, 2048, 0);
	CHECK(netif_front_tx_enqueue(&T.tx, &big, 1) == 0);
	CHECK(T.tx.nb_free == 2);
	rte_pktmbuf_free(big);
}

/*
 * One-request packets after a larger one in the same burst get the room
 * the larger one left: a 9000-byte packet takes 3 slots, so of the
 * one-request packets behind it only NETIF_TX_RING_SIZE - 3 fit.
 */
static void
tx_room_after_a_larger_packet_in_the_burst(void)
{
	struct rte_mbuf *pkts[NETIF_TX_RING_SIZE];
	unsigned int i;

	tx_setup();
	pkts[0] = make_pkt(9000, 2048, 0);
	for (i = 1; i < RTE_DIM(pkts); i++)
		pkts[i] = make_pkt(60, 2048, 0);
	CHECK(netif_front_tx_enqueue(&T.tx, pkts, RTE_DIM(pkts)) ==
	      NETIF_TX_RING_SIZE - 2);
	CHECK(T.tx.stats.ring_full == 1);
	CHECK(T.tx.stats.packets == NETIF_TX_RING_SIZE - 2);
	CHECK(T.tx.nb_free == 0 && RING_FULL(&T.tx.ring));
	rte_pktmbuf_free_bulk(&pkts[NETIF_TX_RING_SIZE - 2], 2);
}

static void
tx_notify_only_when_the_event_index_asks(void)
{
	struct rte_mbuf *pkts[4];
	bool notify;
	int i;

	tx_setup();
	for (i = 0; i < 4; i++)
		pkts[i] = make_pkt(60, 2048, 0);
	/* Fresh ring: req_event 1, the first burst crosses it, once. */
	CHECK(netif_front_tx_enqueue(&T.tx, pkts, 2) == 2);
	CHECK(netif_front_tx_push(&T.tx, &notify) == 2 && notify);
	/* The backend is busy polling and did not move req_event. */
	CHECK(netif_front_tx_enqueue(&T.tx, &pkts[2], 1) == 1);
	CHECK(netif_front_tx_push(&T.tx, &notify) == 1 && !notify);
	/* It went idle: wake it on the next request. */
	T.sring->req_event = T.sring->req_prod + 1;
	CHECK(netif_front_tx_enqueue(&T.tx, &pkts[3], 1) == 1);
	CHECK(netif_front_tx_push(&T.tx, &notify) == 1 && notify);
	CHECK(netif_front_tx_push(&T.tx, &notify) == 0 && !notify);
}

/* ---- RX: fake backend ---- */

static void
rx_setup(void)
{
	bool notify;

	memset(&R.rx, 0, sizeof(R.rx));
	netif_front_rx_attach(&R.rx, R.sring, R.pages, R.grefs, PORT);
	BACK_RING_INIT(&R.be, R.sring, PAGE);
	netif_front_rx_push(&R.rx, &notify);
	R.pos = 0;
}

/* Answer the next request in its own slot, with data at @offset. */
static void
be_rx_respond(uint16_t offset, uint16_t flags, int16_t status, uint8_t seed)
{
	RING_IDX i = R.be.rsp_prod_pvt;
	netif_rx_response_t *r;
	netif_rx_request_t req;
	int16_t k;

	RING_COPY_REQUEST(&R.be, i, &req);
	R.be.req_cons = i + 1;
	for (k = 0; k < status && offset + k < (int)PAGE; k++)
		((uint8_t *)page_of(R.pages, req.gref))[offset + k] =
			pattern(R.pos + k, seed);
	if (status > 0)
		R.pos += status;
	if (!(flags & NETRXF_more_data))
		R.pos = 0;
	r = RING_GET_RESPONSE(&R.be, i);
	r->id = req.id;
	r->offset = offset;
	r->flags = flags;
	r->status = status;
	R.be.rsp_prod_pvt = i + 1;
}

static void
be_rx_push(void)
{
	RING_PUSH_RESPONSES(&R.be);
}

static uint16_t
rx_receive(struct rte_mbuf **pkts, uint16_t n)
{
	return netif_front_rx_receive(&R.rx, test_pool, pkts, n);
}

static void
rx_all_slots_are_posted_with_their_grants(void)
{
	netif_rx_request_t req;
	unsigned int i;
	bool ok = true;

	rx_setup();
	CHECK(R.sring->req_prod == NETIF_RX_RING_SIZE);
	for (i = 0; i < NETIF_RX_RING_SIZE; i++) {
		RING_COPY_REQUEST(&R.be, i, &req);
		ok &= req.id == i && req.gref == R.grefs[i];
	}
	CHECK(ok);
}

static void
rx_single_slot_packet(void)
{
	struct rte_mbuf *m;
	bool notify;

	rx_setup();
	be_rx_respond(100, 0, 60, 5);
	be_rx_push();
	REQUIRE(rx_receive(&m, 1) == 1);
	CHECK(pkt_matches(m, 60, 5));
	CHECK(m->nb_segs == 1 && m->port == PORT);
	rte_pktmbuf_free(m);
	CHECK(R.rx.stats.packets == 1 && R.rx.stats.bytes == 60);
	/* The consumed slot is offered again. */
	CHECK(netif_front_rx_push(&R.rx, &notify) == 1);
	CHECK(R.sring->req_prod == NETIF_RX_RING_SIZE + 1);
}

static void
rx_9000_byte_chain_becomes_a_segmented_mbuf(void)
{
	struct rte_mbuf *m;

	rx_setup();
	be_rx_respond(0, NETRXF_more_data, 4096, 9);
	be_rx_respond(0, NETRXF_more_data, 4096, 9);
	be_rx_respond(0, 0, 808, 9);
	be_rx_push();
	REQUIRE(rx_receive(&m, 4) == 1);
	CHECK(pkt_matches(m, 9000, 9));
	CHECK(m->nb_segs == 9000 / (RTE_MBUF_DEFAULT_DATAROOM) + 1);
	CHECK(rte_mbuf_check(m, 1, NULL) == 0);
	rte_pktmbuf_free(m);
}

static void
rx_zero_length_slots_add_no_segment(void)
{
	struct rte_mbuf *m;

	rx_setup();
	be_rx_respond(0, NETRXF_more_data, 60, 2);
	be_rx_respond(0, NETRXF_more_data, 0, 2);
	be_rx_respond(0, 0, 40, 2);
	be_rx_push();
	REQUIRE(rx_receive(&m, 1) == 1);
	CHECK(pkt_matches(m, 100, 2));
	CHECK(m->nb_segs == 1);
	rte_pktmbuf_free(m);
}

static void
rx_incomplete_chain_waits_for_the_next_burst(void)
{
	struct rte_mbuf *m;

	rx_setup();
	be_rx_respond(0, NETRXF_more_data, 4096, 4);
	be_rx_push();
	CHECK(rx_receive(&m, 1) == 0);
	CHECK(R.rx.ring.rsp_cons == 0 && R.rx.error == NULL);
	be_rx_respond(0, 0, 10, 4);
	be_rx_push();
	REQUIRE(rx_receive(&m, 1) == 1);
	CHECK(pkt_matches(m, 4106, 4));
	rte_pktmbuf_free(m);
}

static void
rx_burst_stops_at_nb_pkts(void)
{
	struct rte_mbuf *m[5];
	int i;

	rx_setup();
	for (i = 0; i < 5; i++)
		be_rx_respond(0, 0, 60, 0);
	be_rx_push();
	CHECK(rx_receive(m, 2) == 2);
	CHECK(rx_receive(&m[2], 5) == 3);
	rte_pktmbuf_free_bulk(m, 5);
}

static void
rx_slot_past_its_page_is_dropped_and_counted(void)
{
	struct rte_mbuf *m;

	rx_setup();
	be_rx_respond(4000, 0, PAGE - 3999, 0); /* a byte past its page */
	be_rx_respond(0, 0, 60, 1);
	be_rx_push();
	REQUIRE(rx_receive(&m, 2) == 1);
	CHECK(pkt_matches(m, 60, 1));
	CHECK(R.rx.stats.malformed == 1 && R.rx.error == NULL);
	rte_pktmbuf_free(m);
}

static void
rx_error_status_drops_the_packet(void)
{
	struct rte_mbuf *m;

	rx_setup();
	be_rx_respond(0, NETRXF_more_data, 100, 0);
	be_rx_respond(0, 0, NETIF_RSP_ERROR, 0);
	be_rx_push();
	CHECK(rx_receive(&m, 1) == 0);
	CHECK(R.rx.stats.errors == 1 && R.rx.error == NULL);
	CHECK(R.rx.ring.rsp_cons == 2);
}

static void
rx_18_slot_chain_is_accepted(void)
{
	struct rte_mbuf *m;
	int i;

	rx_setup();
	for (i = 0; i < NETIF_MAX_SLOTS - 1; i++)
		be_rx_respond(0, NETRXF_more_data, 100, 6);
	be_rx_respond(0, 0, 100, 6);
	be_rx_push();
	REQUIRE(rx_receive(&m, 1) == 1);
	CHECK(pkt_matches(m, 1800, 6));
	rte_pktmbuf_free(m);
}

static void
rx_19_slot_chain_fails_the_queue(void)
{
	struct rte_mbuf *m;
	int i;

	rx_setup();
	for (i = 0; i < NETIF_MAX_SLOTS; i++)
		be_rx_respond(0, NETRXF_more_data, 100, 6);
	be_rx_respond(0, 0, 100, 6);
	be_rx_push();
	CHECK(rx_receive(&m, 1) == 0);
	CHECK(R.rx.error != NULL);
}

/* An extra in the next request's slot: its page gets nothing. */
static void
be_rx_extra(uint8_t type, uint8_t flags, uint16_t gso_size, uint8_t gso_type)
{
	RING_IDX i = R.be.rsp_prod_pvt;
	struct netif_extra_info *x;

	R.be.req_cons = i + 1;
	x = (struct netif_extra_info *)RING_GET_RESPONSE(&R.be, i);
	memset(x, 0, sizeof(*x));
	x->type = type;
	x->flags = flags;
	if (type == XEN_NETIF_EXTRA_TYPE_GSO) {
		x->u.gso.size = gso_size;
		x->u.gso.type = gso_type;
	}
	R.be.rsp_prod_pvt = i + 1;
}

static void
rx_gso_extra_sits_after_the_first_slot(void)
{
	struct rte_mbuf *m;

	rx_setup();
	R.rx.offloads = NETIF_RX_GSO;
	R.rx.gso_asked = NETIF_PEER_GSO_TCPV4;
	be_rx_respond(0, NETRXF_csum_blank | NETRXF_data_validated |
			 NETRXF_extra_info | NETRXF_more_data, PAGE, 1);
	be_rx_extra(XEN_NETIF_EXTRA_TYPE_GSO, 0, 1448,
		    XEN_NETIF_GSO_TYPE_TCPV4);
	be_rx_respond(0, 0, 3000, 1);
	/* Headers over the pattern the first slot got. */
	tcp_headers(page_of(R.pages, R.grefs[0]), PAGE + 3000);
	be_rx_push();
	REQUIRE(rx_receive(&m, 1) == 1);
	CHECK(m->pkt_len == PAGE + 3000);
	CHECK(m->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
	CHECK(m->tso_segsz == 1448);
	/* The data after the extra comes from the third slot's page. */
	CHECK(*rte_pktmbuf_mtod_offset(m, uint8_t *, PAGE + 5) ==
	      pattern(PAGE + 5, 1));
	CHECK(R.rx.ring.rsp_cons == 3 && R.rx.stats.gso_packets == 1);
	rte_pktmbuf_free(m);
}

/* The backend's hash extra (its value least significant byte first). */
static void
rx_hash_extra_becomes_the_rss_hash(void)
{
	struct netif_extra_info *x;
	struct rte_mbuf *m[2];

	rx_setup();
	be_rx_respond(0, NETRXF_extra_info, 60, 1);
	be_rx_extra(XEN_NETIF_EXTRA_TYPE_HASH, 0, 0, 0);
	x = (struct netif_extra_info *)RING_GET_RESPONSE(&R.be,
							 R.be.rsp_prod_pvt - 1);
	x->u.hash.type = _XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP;
	x->u.hash.algorithm = XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ;
	memcpy(x->u.hash.value, (uint8_t[]){ 0x78, 0x56, 0x34, 0x12 }, 4);
	be_rx_respond(0, 0, 60, 2);
	be_rx_push();
	REQUIRE(rx_receive(m, 2) == 2);
	CHECK(pkt_matches(m[0], 60, 1) && pkt_matches(m[1], 60, 2));
	CHECK(m[0]->ol_flags & RTE_MBUF_F_RX_RSS_HASH);
	CHECK(m[0]->hash.rss == 0x12345678);
	/* A packet without the extra has no hash. */
	CHECK(!(m[1]->ol_flags & RTE_MBUF_F_RX_RSS_HASH));
	CHECK(R.rx.stats.hashed_packets == 1 && R.rx.stats.malformed == 0);
	rte_pktmbuf_free(m[0]);
	rte_pktmbuf_free(m[1]);
}

/* Each extra a backend has no business sending drops its packet only. */
static void
rx_bad_extras_drop_the_packet(void)
{
	static const struct {
		uint8_t type;
		uint16_t gso_size;
		uint8_t gso_type;
	} bad[] = {
		{ XEN_NETIF_EXTRA_TYPE_GSO, 1448, XEN_NETIF_GSO_TYPE_TCPV6 },
		{ XEN_NETIF_EXTRA_TYPE_GSO, 0, XEN_NETIF_GSO_TYPE_TCPV4 },
		{ XEN_NETIF_EXTRA_TYPE_GSO, 1448, XEN_NETIF_GSO_TYPE_NONE },
		{ XEN_NETIF_EXTRA_TYPE_NONE, 0, 0 },
		{ XEN_NETIF_EXTRA_TYPE_MAX, 0, 0 },
	};
	struct rte_mbuf *m;
	unsigned int i;

	rx_setup();
	R.rx.offloads = NETIF_RX_GSO;
	R.rx.gso_asked = NETIF_PEER_GSO_TCPV4;
	for (i = 0; i < RTE_DIM(bad); i++) {
		be_rx_respond(0, NETRXF_extra_info, 200, 0);
		be_rx_extra(bad[i].type, 0, bad[i].gso_size, bad[i].gso_type);
	}
	be_rx_respond(0, 0, 60, 2);
	be_rx_push();
	REQUIRE(rx_receive(&m, 1) == 1);
	CHECK(pkt_matches(m, 60, 2));
	CHECK(R.rx.stats.malformed == RTE_DIM(bad));
	CHECK(R.rx.error == NULL);
	rte_pktmbuf_free(m);
}

static void
rx_gso_on_a_frame_without_tcp_is_dropped(void)
{
	struct rte_mbuf *m;

	rx_setup();
	R.rx.offloads = NETIF_RX_GSO;
	R.rx.gso_asked = NETIF_PEER_GSO_TCPV4;
	be_rx_respond(0, NETRXF_extra_info, 200, 0);
	be_rx_extra(XEN_NETIF_EXTRA_TYPE_GSO, 0, 1448,
		    XEN_NETIF_GSO_TYPE_TCPV4);
	be_rx_push();
	CHECK(rx_receive(&m, 1) == 0);
	CHECK(R.rx.stats.drop_bad_offload == 1 && R.rx.error == NULL);
}

static void
rx_endless_extra_chain_fails_the_queue(void)
{
	struct rte_mbuf *m;
	int i;

	rx_setup();
	be_rx_respond(0, NETRXF_extra_info, 60, 0);
	for (i = 0; i < XEN_NETIF_EXTRA_TYPE_MAX; i++)
		be_rx_extra(XEN_NETIF_EXTRA_TYPE_HASH,
			    XEN_NETIF_EXTRA_FLAG_MORE, 0, 0);
	be_rx_push();
	CHECK(rx_receive(&m, 1) == 0);
	CHECK(R.rx.error != NULL);
}

static void
rx_more_responses_than_requests_fail_the_queue(void)
{
	struct rte_mbuf *m;

	rx_setup();
	R.sring->rsp_prod = NETIF_RX_RING_SIZE + 1;
	CHECK(rx_receive(&m, 1) == 0);
	CHECK(R.rx.error != NULL);
}

static void
rx_mbuf_shortage_drops_and_counts(void)
{
	struct rte_mempool *tiny;
	struct rte_mbuf *m;

	rx_setup();
	tiny = rte_pktmbuf_pool_create("nf_tiny", 2, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       rte_socket_id());
	REQUIRE(tiny != NULL);
	be_rx_respond(0, NETRXF_more_data, 4096, 0);
	be_rx_respond(0, 0, 4096, 0);
	be_rx_push();
	CHECK(netif_front_rx_receive(&R.rx, tiny, &m, 1) == 0);
	CHECK(R.rx.stats.mbuf_alloc_failed == 1);
	CHECK(R.rx.ring.rsp_cons == 2);
	CHECK(rte_mempool_avail_count(tiny) == 2);
	rte_mempool_free(tiny);
}

static void
rx_notify_only_when_the_event_index_asks(void)
{
	struct rte_mbuf *m[2];
	bool notify;

	rx_setup();
	/* The backend ran out of requests and waits for the next one. */
	be_rx_respond(0, 0, 60, 0);
	be_rx_respond(0, 0, 60, 0);
	be_rx_push();
	R.sring->req_event = R.sring->req_prod + 1;
	CHECK(rx_receive(m, 2) == 2);
	CHECK(netif_front_rx_push(&R.rx, &notify) == 2 && notify);
	CHECK(netif_front_rx_push(&R.rx, &notify) == 0 && !notify);
	rte_pktmbuf_free_bulk(m, 2);
	/* While it polls, it is not woken. */
	be_rx_respond(0, 0, 60, 0);
	be_rx_push();
	CHECK(rx_receive(m, 1) == 1);
	CHECK(netif_front_rx_push(&R.rx, &notify) == 1 && !notify);
	rte_pktmbuf_free(m[0]);
}

/*
 * Arming before a sleep: with nothing answered it arms, and the backend's
 * next answer notifies; an answer published meanwhile makes it poll.
 */
static void
rx_arming_asks_for_one_notification(void)
{
	struct rte_mbuf *m[1];
	bool notify;

	rx_setup();
	R.sring->rsp_event = 1000;	/* as a polling frontend left it */
	CHECK(!netif_front_rx_arm(&R.rx));
	be_rx_respond(0, 0, 60, 0);
	RING_PUSH_RESPONSES_AND_CHECK_NOTIFY(&R.be, notify);
	CHECK(notify);
	CHECK(netif_front_rx_arm(&R.rx));
	CHECK(rx_receive(m, 1) == 1);
	rte_pktmbuf_free(m[0]);
	CHECK(!netif_front_rx_arm(&R.rx));
	be_rx_respond(0, 0, 60, 0);
	RING_PUSH_RESPONSES_AND_CHECK_NOTIFY(&R.be, notify);
	CHECK(notify);
	CHECK(rx_receive(m, 1) == 1);
	rte_pktmbuf_free(m[0]);
	/* Polling again: the backend's answers notify nothing. */
	be_rx_respond(0, 0, 60, 0);
	RING_PUSH_RESPONSES_AND_CHECK_NOTIFY(&R.be, notify);
	CHECK(!notify);
	CHECK(rx_receive(m, 1) == 1);
	rte_pktmbuf_free(m[0]);
}

static void *
alloc_pages(unsigned int n)
{
	void *p = aligned_alloc(PAGE, (size_t)n * PAGE);

	if (p == NULL)
		abort();
	memset(p, 0, (size_t)n * PAGE);
	return p;
}

/* The pool and the ring pages every case starts from (tx_setup, rx_setup). */
static int
setup(const char *argv0)
{
	unsigned int i;

	if (test_eal_setup(argv0) != 0) {
		fprintf(stderr, "rte_eal_init failed\n");
		return -1;
	}
	test_pool = rte_pktmbuf_pool_create("nf_test", 2047, 0, 0,
					    RTE_MBUF_DEFAULT_BUF_SIZE,
					    rte_socket_id());
	if (test_pool == NULL) {
		fprintf(stderr, "no mbuf pool\n");
		return -1;
	}
	T.sring = alloc_pages(1);
	T.pages = alloc_pages(NETIF_TX_RING_SIZE);
	R.sring = alloc_pages(1);
	R.pages = alloc_pages(NETIF_RX_RING_SIZE);
	for (i = 0; i < NETIF_TX_RING_SIZE; i++)
		T.grefs[i] = GREF_BASE + i;
	for (i = 0; i < NETIF_RX_RING_SIZE; i++)
		R.grefs[i] = GREF_BASE + i;
	return 0;
}

static void
teardown(void)
{
	free(T.sring);
	free(T.pages);
	free(R.sring);
	free(R.pages);
	test_eal_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(tx_60_bytes_take_one_slot);
	RUN(tx_4096_bytes_take_one_slot);
	RUN(tx_one_full_segment_takes_one_slot);
	RUN(tx_checksum_offload_flags_a_one_slot_packet);
	RUN(tx_4097_bytes_take_two_slots);
	RUN(tx_9000_bytes_from_odd_segments_take_three_slots);
	RUN(tx_largest_frame_takes_16_slots);
	RUN(tx_too_long_frame_is_refused_and_counted);
	RUN(tx_responses_out_of_order_return_ids);
	RUN(tx_send_collects_when_half_the_ids_are_out);
	RUN(tx_error_response_counts_once_per_packet);
	RUN(tx_null_response_is_skipped);
	RUN(tx_tso_request_becomes_a_gso_extra);
	RUN(tx_tso_request_without_backend_gso_is_dropped);
	RUN(tx_id_out_of_range_fails_the_queue);
	RUN(tx_id_not_in_flight_fails_the_queue);
	RUN(tx_more_responses_than_requests_fail_the_queue);
	RUN(tx_full_ring_stops_the_burst);
	RUN(tx_room_after_a_larger_packet_in_the_burst);
	RUN(tx_notify_only_when_the_event_index_asks);

	RUN(rx_all_slots_are_posted_with_their_grants);
	RUN(rx_single_slot_packet);
	RUN(rx_9000_byte_chain_becomes_a_segmented_mbuf);
	RUN(rx_zero_length_slots_add_no_segment);
	RUN(rx_incomplete_chain_waits_for_the_next_burst);
	RUN(rx_burst_stops_at_nb_pkts);
	RUN(rx_slot_past_its_page_is_dropped_and_counted);
	RUN(rx_error_status_drops_the_packet);
	RUN(rx_18_slot_chain_is_accepted);
	RUN(rx_19_slot_chain_fails_the_queue);
	RUN(rx_gso_extra_sits_after_the_first_slot);
	RUN(rx_hash_extra_becomes_the_rss_hash);
	RUN(rx_bad_extras_drop_the_packet);
	RUN(rx_gso_on_a_frame_without_tcp_is_dropped);
	RUN(rx_endless_extra_chain_fails_the_queue);
	RUN(rx_more_responses_than_requests_fail_the_queue);
	RUN(rx_mbuf_shortage_drops_and_counts);
	RUN(rx_notify_only_when_the_event_index_asks);
	RUN(rx_arming_asks_for_one_notification);
}
