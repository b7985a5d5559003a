/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest TX on the backend side, specified on a ring in ordinary memory:
 * which request chains are packets, which are answered with an error,
 * which disconnect the frontend, and what grant copies and responses a
 * packet turns into.
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_mempool.h>

#include "netif_back.h"
#include "test.h"
#include "test_eal.h"

#define FRONTEND 7

static union {
	netif_tx_sring_t sring;
	uint8_t page[NETIF_PAGE_SIZE];
} shared;
static netif_tx_front_ring_t front;
static netif_tx_back_ring_t back;

static void
ring_reset(void)
{
	memset(&shared, 0, sizeof(shared));
	SHARED_RING_INIT(&shared.sring);
	FRONT_RING_INIT(&front, &shared.sring, NETIF_PAGE_SIZE);
	CHECK(netif_back_tx_attach(&back, &shared.sring) == 0);
}

static void
post(uint16_t id, grant_ref_t gref, uint16_t offset, uint16_t size,
     uint16_t flags)
{
	netif_tx_request_t *req = RING_GET_REQUEST(&front, front.req_prod_pvt++);

	req->id = id;
	req->gref = gref;
	req->offset = offset;
	req->size = size;
	req->flags = flags;
}

/* The GSO types offered to the frontend (NETIF_PEER_GSO_*). */
static uint32_t offered;

static void
post_extra(uint8_t type, uint8_t flags)
{
	struct netif_extra_info *extra;

	extra = (void *)RING_GET_REQUEST(&front, front.req_prod_pvt++);
	memset(extra, 0, sizeof(*extra));
	extra->type = type;
	extra->flags = flags;
	if (type == XEN_NETIF_EXTRA_TYPE_GSO) {
		extra->u.gso.size = 1448;
		extra->u.gso.type = XEN_NETIF_GSO_TYPE_TCPV4;
	}
}

static enum netif_tx_verdict
parse(struct netif_tx_packet *pkt, const char **why)
{
	int avail;

	RING_PUSH_REQUESTS(&front);
	avail = netif_back_tx_requests(&back);
	if (avail < 0)
		return NETIF_TX_FATAL;
	return netif_back_tx_parse(&back, avail, offered,
				   NETIF_TX_FATAL_SLOTS_DEFAULT, pkt, why);
}

static void
test_single_slot_packet_is_parsed(void)
{
	struct netif_tx_packet pkt;
	const char *why;

	ring_reset();
	post(3, 100, 64, 60, 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_OK);
	CHECK(pkt.len == 60);
	CHECK(pkt.nr_slots == 1 && pkt.nr_extras == 0);
	CHECK(pkt.slots[0].id == 3 && pkt.slots[0].gref == 100);
	CHECK(pkt.slots[0].offset == 64 && pkt.slots[0].size == 60);
	CHECK(back.req_cons == 0);	/* parsing consumes nothing */
}

static void
test_first_slot_holds_what_later_slots_leave(void)
{
	struct netif_tx_packet pkt;
	const char *why;

	ring_reset();
	post(0, 10, 0, 9000, NETTXF_more_data);
	post(1, 11, 0, 4096, NETTXF_more_data);
	post(2, 12, 0, 808, 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_OK);
	CHECK(pkt.nr_slots == 3);
	CHECK(pkt.slots[0].size == 4096);
	CHECK(pkt.slots[1].size == 4096);
	CHECK(pkt.slots[2].size == 808);
	CHECK(netif_tx_packet_ring_slots(&pkt) == 3);
}

static void
test_eighteen_slots_are_accepted(void)
{
	struct netif_tx_packet pkt;
	const char *why;
	int i;

	ring_reset();
	post(0, 0, 0, 18 * 10, NETTXF_more_data);
	for (i = 1; i < 18; i++)
		post(i, i, 0, 10, i < 17 ? NETTXF_more_data : 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_OK);
	CHECK(pkt.nr_slots == 18);
	CHECK(pkt.slots[0].size == 10);
}

/* A chain of @n 10-byte slots, parsed with the fatal bound @fatal. */
static enum netif_tx_verdict
parse_chain(int n, unsigned int fatal, struct netif_tx_packet *pkt,
	    const char **why)
{
	int i;

	ring_reset();
	post(0, 0, 0, n * 10, NETTXF_more_data);
	for (i = 1; i < n; i++)
		post(i, i, 0, 10, i < n - 1 ? NETTXF_more_data : 0);
	RING_PUSH_REQUESTS(&front);
	return netif_back_tx_parse(&back, netif_back_tx_requests(&back),
				   offered, fatal, pkt, why);
}

/*
 * As Linux (fatal_skb_slots): past 18 slots a packet is dropped, every one
 * of its slots answered; past 1 + the fatal bound (20 by default) the
 * frontend is disconnected.
 */
static void
test_more_than_eighteen_slots_drop_until_the_fatal_bound(void)
{
	static const struct {
		int slots;
		unsigned int fatal;
		enum netif_tx_verdict verdict;
	} cases[] = {
		{ 19, NETIF_TX_FATAL_SLOTS_DEFAULT, NETIF_TX_DROP },
		{ 21, NETIF_TX_FATAL_SLOTS_DEFAULT, NETIF_TX_DROP },
		{ 22, NETIF_TX_FATAL_SLOTS_DEFAULT, NETIF_TX_FATAL },
		{ 19, 17, NETIF_TX_FATAL },
		{ 31, NETIF_TX_FATAL_SLOTS_MAX, NETIF_TX_DROP },
		{ 32, NETIF_TX_FATAL_SLOTS_MAX, NETIF_TX_FATAL },
		{ 32, 255, NETIF_TX_FATAL },	/* never past the most */
	};
	struct netif_tx_packet pkt;

	for (size_t c = 0; c < RTE_DIM(cases); c++) {
		const char *why = NULL;
		enum netif_tx_verdict v = parse_chain(cases[c].slots,
						      cases[c].fatal, &pkt,
						      &why);

		CHECK(v == cases[c].verdict);
		CHECK(why != NULL && strstr(why, "slots") != NULL);
		if (v == NETIF_TX_DROP)
			CHECK(netif_tx_packet_ring_slots(&pkt) ==
			      (unsigned int)cases[c].slots);
	}
}

static void
test_slot_crossing_a_page_is_fatal(void)
{
	struct netif_tx_packet pkt;
	const char *why = NULL;

	ring_reset();
	/* The first slot fills its page; the second crosses by a byte. */
	post(0, 1, 0, NETIF_PAGE_SIZE + 97, NETTXF_more_data);
	post(1, 2, NETIF_PAGE_SIZE - 96, 97, 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_FATAL);
	CHECK(why != NULL && strstr(why, "page") != NULL);
}

static void
test_first_slot_crossing_a_page_is_fatal(void)
{
	struct netif_tx_packet pkt;
	const char *why;

	ring_reset();
	post(0, 1, 100, NETIF_PAGE_SIZE - 99, 0); /* a byte beyond */
	CHECK(parse(&pkt, &why) == NETIF_TX_FATAL);
}

/* Slots that end where their pages end are whole packets. */
static void
test_slots_ending_at_their_page_end_are_accepted(void)
{
	struct netif_tx_packet pkt;
	const char *why = NULL;

	ring_reset();
	post(0, 1, 100, NETIF_PAGE_SIZE - 100, 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_OK);
	CHECK(pkt.len == NETIF_PAGE_SIZE - 100);
	post(1, 2, 100, NETIF_PAGE_SIZE - 100 + 1000, NETTXF_more_data);
	post(2, 3, NETIF_PAGE_SIZE - 1000, 1000, 0);
	back.req_cons = 1;
	CHECK(parse(&pkt, &why) == NETIF_TX_OK);
	CHECK(pkt.nr_slots == 2 && pkt.slots[0].size == NETIF_PAGE_SIZE - 100);
}

/* The same rule when later slots tell the first one's size. */
static void
test_first_slot_of_a_chain_crossing_a_page_is_fatal(void)
{
	struct netif_tx_packet pkt;
	const char *why = NULL;

	ring_reset();
	post(0, 1, 100, NETIF_PAGE_SIZE - 99 + 1000, NETTXF_more_data);
	post(1, 2, 0, 1000, 0); /* leaves the first a byte beyond its page */
	CHECK(parse(&pkt, &why) == NETIF_TX_FATAL);
	CHECK(why != NULL && strstr(why, "first slot") != NULL);
}

static void
test_chain_beyond_posted_requests_is_fatal(void)
{
	struct netif_tx_packet pkt;
	const char *why = NULL;

	ring_reset();
	post(0, 1, 0, 3000, NETTXF_more_data);
	CHECK(parse(&pkt, &why) == NETIF_TX_FATAL);
	CHECK(why != NULL && strstr(why, "posted") != NULL);
}

static void
test_unknown_extra_type_is_fatal(void)
{
	struct netif_tx_packet pkt;
	const char *why = NULL;

	ring_reset();
	post(0, 1, 0, 60, NETTXF_extra_info);
	post_extra(XEN_NETIF_EXTRA_TYPE_MAX, 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_FATAL);
	CHECK(why != NULL && strstr(why, "extra") != NULL);

	ring_reset();
	post(0, 1, 0, 60, NETTXF_extra_info);
	post_extra(XEN_NETIF_EXTRA_TYPE_NONE, 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_FATAL);
}

static void
test_extra_for_unnegotiated_feature_drops_packet(void)
{
	struct netif_tx_packet pkt;
	const char *why;

	ring_reset();
	post(5, 1, 0, 3000, NETTXF_extra_info | NETTXF_more_data);
	post_extra(XEN_NETIF_EXTRA_TYPE_GSO, 0);
	post(6, 2, 0, 1000, 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_DROP);
	CHECK(pkt.nr_extras == 1 && pkt.nr_slots == 2);
	CHECK(netif_tx_packet_ring_slots(&pkt) == 3);
}

/* A frame of 3000 bytes in two slots behind one GSO extra. */
static void
post_gso(uint16_t size, uint8_t type)
{
	struct netif_extra_info *extra;

	post(5, 1, 0, 3000, NETTXF_csum_blank | NETTXF_data_validated |
			    NETTXF_extra_info | NETTXF_more_data);
	extra = (void *)RING_GET_REQUEST(&front, front.req_prod_pvt++);
	memset(extra, 0, sizeof(*extra));
	extra->type = XEN_NETIF_EXTRA_TYPE_GSO;
	extra->u.gso.size = size;
	extra->u.gso.type = type;
	post(6, 2, 0, 1000, 0);
}

static void
test_offered_gso_extra_is_parsed(void)
{
	struct netif_tx_packet pkt;
	const char *why;

	ring_reset();
	offered = NETIF_PEER_GSO_TCPV4 | NETIF_PEER_GSO_TCPV6;
	post_gso(1448, XEN_NETIF_GSO_TYPE_TCPV6);
	CHECK(parse(&pkt, &why) == NETIF_TX_OK);
	CHECK(pkt.off.gso_type == XEN_NETIF_GSO_TYPE_TCPV6);
	CHECK(pkt.off.gso_size == 1448);
	CHECK(pkt.off.csum_blank && pkt.off.data_validated);
	CHECK(pkt.nr_extras == 1 && pkt.nr_slots == 2);
	CHECK(pkt.slots[0].size == 2000 && pkt.slots[1].size == 1000);
	offered = 0;
}

static void
test_gso_type_not_offered_drops_packet(void)
{
	struct netif_tx_packet pkt;
	const char *why;

	ring_reset();
	offered = NETIF_PEER_GSO_TCPV4;
	post_gso(1448, XEN_NETIF_GSO_TYPE_TCPV6);
	CHECK(parse(&pkt, &why) == NETIF_TX_DROP);
	CHECK(why != NULL && strstr(why, "not offered") != NULL);
	CHECK(netif_tx_packet_ring_slots(&pkt) == 3);
	offered = 0;
}

static void
test_gso_size_zero_or_unknown_type_is_fatal(void)
{
	struct netif_tx_packet pkt;
	const char *why;

	offered = NETIF_PEER_GSO_TCPV4 | NETIF_PEER_GSO_TCPV6;
	ring_reset();
	post_gso(0, XEN_NETIF_GSO_TYPE_TCPV4);
	CHECK(parse(&pkt, &why) == NETIF_TX_FATAL);
	CHECK(why != NULL && strstr(why, "size 0") != NULL);
	ring_reset();
	post_gso(1448, XEN_NETIF_GSO_TYPE_NONE);
	CHECK(parse(&pkt, &why) == NETIF_TX_FATAL);
	CHECK(why != NULL && strstr(why, "GSO type") != NULL);
	ring_reset();
	post_gso(1448, XEN_NETIF_GSO_TYPE_TCPV6 + 1);
	CHECK(parse(&pkt, &why) == NETIF_TX_FATAL);
	offered = 0;
}

static void
test_checksum_flags_are_recorded(void)
{
	struct netif_tx_packet pkt;
	const char *why;

	ring_reset();
	post(1, 1, 0, 60, NETTXF_data_validated);
	CHECK(parse(&pkt, &why) == NETIF_TX_OK);
	CHECK(!pkt.off.csum_blank && pkt.off.data_validated);
	CHECK(pkt.off.gso_type == XEN_NETIF_GSO_TYPE_NONE);
}

static void
test_endless_extra_chain_is_fatal(void)
{
	struct netif_tx_packet pkt;
	const char *why;
	int i;

	ring_reset();
	post(0, 1, 0, 60, NETTXF_extra_info);
	for (i = 0; i < 8; i++)
		post_extra(XEN_NETIF_EXTRA_TYPE_GSO, XEN_NETIF_EXTRA_FLAG_MORE);
	post(1, 1, 0, 60, 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_FATAL);
}

static void
test_runt_frame_is_dropped(void)
{
	struct netif_tx_packet pkt;
	const char *why;

	ring_reset();
	post(0, 1, 0, 13, 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_DROP);
	CHECK(netif_tx_packet_ring_slots(&pkt) == 1);
}

static void
test_runt_chain_is_dropped(void)
{
	struct netif_tx_packet pkt;
	const char *why = NULL;

	ring_reset();
	post(0, 1, 0, 13, NETTXF_more_data);
	post(1, 2, 0, 6, 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_DROP);
	CHECK(why != NULL && strstr(why, "shorter") != NULL);
	CHECK(netif_tx_packet_ring_slots(&pkt) == 2);
}

static void
test_fragments_larger_than_frame_are_dropped(void)
{
	struct netif_tx_packet pkt;
	const char *why;

	ring_reset();
	post(0, 1, 0, 100, NETTXF_more_data);
	post(1, 2, 0, 200, 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_DROP);
	CHECK(netif_tx_packet_ring_slots(&pkt) == 2);
}

static void
test_producer_beyond_a_ring_is_detected(void)
{
	ring_reset();
	shared.sring.req_prod = NETIF_TX_RING_SIZE + 1;
	CHECK(netif_back_tx_requests(&back) < 0);
	shared.sring.req_prod = NETIF_TX_RING_SIZE;
	CHECK(netif_back_tx_requests(&back) == (int)NETIF_TX_RING_SIZE);
}

static void
test_attach_refuses_impossible_indexes(void)
{
	netif_tx_back_ring_t b;

	ring_reset();
	shared.sring.rsp_prod = 10;
	shared.sring.req_prod = 10 + NETIF_TX_RING_SIZE + 5;
	CHECK(netif_back_tx_attach(&b, &shared.sring) != 0);
	shared.sring.req_prod = 12;
	CHECK(netif_back_tx_attach(&b, &shared.sring) == 0);
	CHECK(b.req_cons == 10 && b.rsp_prod_pvt == 10);
}

/*
 * Arming before a sleep: an empty ring arms and says so, the frontend's
 * next push then notifies exactly once; requests already posted make the
 * queue poll instead; while it polls, the frontend's pushes notify nothing.
 */
static void
test_arming_asks_for_one_notification(void)
{
	bool notify;

	ring_reset();
	shared.sring.req_event = 1000;	/* as a polling backend left it */
	CHECK(!netif_back_tx_arm(&back));
	CHECK(shared.sring.req_event == back.req_cons + 1);
	post(0, 1, 0, 60, 0);
	RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&front, notify);
	CHECK(notify);
	post(1, 1, 0, 60, 0);
	RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&front, notify);
	CHECK(!notify);
	/* Posted while it decided to sleep: it must not. */
	CHECK(netif_back_tx_arm(&back));
	back.req_cons += 2;
	post(2, 1, 0, 60, 0);
	RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&front, notify);
	CHECK(!notify);
	CHECK(netif_back_tx_arm(&back));
	back.req_cons++;
	CHECK(!netif_back_tx_arm(&back));
	post(3, 1, 0, 60, 0);
	RING_PUSH_REQUESTS_AND_CHECK_NOTIFY(&front, notify);
	CHECK(notify);
}

/* The guest side of XSA-155: rewrites slot 0 while the backend reads it. */
struct rewriter {
	bool stop;
	uint64_t flips;
};

static void *
rewrite_request(void *arg)
{
	struct rewriter *w = arg;
	volatile netif_tx_request_t *req = &shared.sring.ring[0].req;

	/* Field by field, so the backend may meet any mix of the two. */
	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
		req->offset = 0;
		req->size = 4000;
		req->offset = 4000;
		req->size = 60;
		__atomic_fetch_add(&w->flips, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

/*
 * XSA-155: a guest rewrites a request between its publish and the
 * backend's read (here from another CPU, without pause: offset 0 or 4000,
 * size 4000 or 60, written one field at a time). The backend acts on one
 * copy: a packet it accepts has the size and offset of that one copy, and
 * never the offset 4000 with the size 4000 that crosses its page, which
 * it finds fatal instead.
 *
 * The reads start once the writer runs and go on until they have raced
 * enough rewrites and accepted some packets. A loaded host may park the
 * writer in its fatal state for a whole time slice, so a long run of
 * fatal reads sleeps to let it move on.
 */
#define RACE_READS_MIN 200000u
#define RACE_READS_MAX 50000000u
#define RACE_REWRITES_MIN 100000u
#define RACE_FATAL_RUN 4096u

static void
test_a_request_rewritten_while_read_is_judged_on_one_copy(void)
{
	struct rewriter w = { .stop = false };
	unsigned int i, ok = 0, fatal = 0, fatal_run = 0;
	uint64_t first, raced = 0;
	pthread_t thread;

	ring_reset();
	post(1, 1, 0, 60, 0);
	RING_PUSH_REQUESTS(&front);
	REQUIRE(pthread_create(&thread, NULL, rewrite_request, &w) == 0);
	while ((first = __atomic_load_n(&w.flips, __ATOMIC_RELAXED)) == 0)
		usleep(100);
	for (i = 0; i < RACE_READS_MAX; i++) {
		struct netif_tx_packet pkt;
		const char *why = NULL;
		enum netif_tx_verdict v;

		if (i >= RACE_READS_MIN && ok > 0 &&
		    raced >= RACE_REWRITES_MIN)
			break;
		v = netif_back_tx_parse(&back, 1, offered,
					NETIF_TX_FATAL_SLOTS_DEFAULT, &pkt, &why);
		raced = __atomic_load_n(&w.flips, __ATOMIC_RELAXED) - first;
		if (v == NETIF_TX_FATAL) {
			fatal++;
			if (++fatal_run % RACE_FATAL_RUN == 0)
				usleep(100);
			continue;
		}
		fatal_run = 0;
		ok++;
		if (v != NETIF_TX_OK || pkt.nr_slots != 1 ||
		    pkt.len != pkt.slots[0].size ||
		    pkt.slots[0].offset + pkt.slots[0].size > NETIF_PAGE_SIZE) {
			CHECK(false);
			break;
		}
	}
	__atomic_store_n(&w.stop, true, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	printf("# %u reads accepted, %u fatal, %lu rewrites raced\n", ok,
	       fatal, (unsigned long)raced);
	CHECK(ok > 0);
	CHECK(raced >= RACE_REWRITES_MIN);
}

static void
test_responses_answer_every_slot_in_order(void)
{
	struct netif_tx_packet pkt;
	netif_tx_response_t *rsp;
	const char *why;

	ring_reset();
	post(7, 1, 0, 3000, NETTXF_extra_info | NETTXF_more_data);
	post_extra(XEN_NETIF_EXTRA_TYPE_GSO, 0);
	post(8, 2, 0, 1000, 0);
	CHECK(parse(&pkt, &why) == NETIF_TX_DROP);
	back.req_cons += netif_tx_packet_ring_slots(&pkt);
	netif_back_tx_respond(&back, &pkt, NETIF_RSP_ERROR);
	CHECK(back.rsp_prod_pvt == 3);
	rsp = RING_GET_RESPONSE(&back, 0);
	CHECK(rsp->id == 7 && rsp->status == NETIF_RSP_ERROR);
	CHECK(RING_GET_RESPONSE(&back, 1)->status == NETIF_RSP_NULL);
	rsp = RING_GET_RESPONSE(&back, 2);
	CHECK(rsp->id == 8 && rsp->status == NETIF_RSP_ERROR);
}

static void
test_one_slot_is_answered_once(void)
{
	struct netif_tx_packet pkt;
	netif_tx_response_t *rsp;
	const char *why;

	ring_reset();
	post(9, 1, 0, 60, 0);
	REQUIRE(parse(&pkt, &why) == NETIF_TX_OK);
	netif_back_tx_respond(&back, &pkt, NETIF_RSP_OKAY);
	CHECK(back.rsp_prod_pvt == 1);
	rsp = RING_GET_RESPONSE(&back, 0);
	CHECK(rsp->id == 9 && rsp->status == NETIF_RSP_OKAY);
}

/* A packet of one slot that fits one mbuf, as most are. */
static void
test_one_slot_lands_in_one_mbuf(void)
{
	xengnttab_grant_copy_segment_t segs[4];
	static uint8_t page[NETIF_PAGE_SIZE];
	struct netif_gref_map *statics;
	struct netif_tx_packet pkt;
	struct rte_mbuf *m;
	const char *why;
	unsigned int i;

	ring_reset();
	post(0, 21, 100, 60, 0);
	REQUIRE(parse(&pkt, &why) == NETIF_TX_OK);
	/* Not a static grant: one grant copy into the mbuf's data. */
	REQUIRE((m = rte_pktmbuf_alloc(test_pool)) != NULL);
	CHECK(netif_back_tx_build_copy(&pkt, &m, 1, FRONTEND, NULL, segs,
				       RTE_DIM(segs)) == 1);
	CHECK(segs[0].flags == GNTCOPY_source_gref);
	CHECK(segs[0].source.foreign.ref == 21);
	CHECK(segs[0].source.foreign.offset == 100);
	CHECK(segs[0].source.foreign.domid == FRONTEND);
	CHECK(segs[0].dest.virt == rte_pktmbuf_mtod(m, void *));
	CHECK(segs[0].len == 60 && segs[0].status != GNTST_okay);
	CHECK(m->pkt_len == 60 && m->data_len == 60 && m->nb_segs == 1);
	/* No room for its segment. */
	rte_pktmbuf_reset(m);
	CHECK(netif_back_tx_build_copy(&pkt, &m, 1, FRONTEND, NULL, segs, 0) <
	      0);
	/* A static grant: copied at once, no segment. */
	for (i = 0; i < sizeof(page); i++)
		page[i] = (uint8_t)i;
	REQUIRE((statics = netif_gref_map_create(1)) != NULL);
	netif_gref_map_add(statics, 21, page, false);
	rte_pktmbuf_reset(m);
	CHECK(netif_back_tx_build_copy(&pkt, &m, 1, FRONTEND, statics, segs,
				       0) == 0);
	CHECK(m->pkt_len == 60 && m->data_len == 60);
	CHECK(memcmp(rte_pktmbuf_mtod(m, void *), page + 100, 60) == 0);
	free(statics);
	rte_pktmbuf_free(m);
}

/* One slot larger than an mbuf's room is chained, each part copied. */
static void
test_one_slot_larger_than_an_mbuf_is_chained(void)
{
	uint16_t room =
		rte_pktmbuf_data_room_size(test_pool) - RTE_PKTMBUF_HEADROOM;
	xengnttab_grant_copy_segment_t segs[4];
	struct netif_tx_packet pkt;
	struct rte_mbuf *m[2];
	const char *why;

	ring_reset();
	post(0, 5, 0, room + 10, 0);
	REQUIRE(parse(&pkt, &why) == NETIF_TX_OK);
	REQUIRE(netif_mbufs_for(pkt.len, room) == 2);
	REQUIRE(rte_pktmbuf_alloc_bulk(test_pool, m, 2) == 0);
	CHECK(netif_back_tx_build_copy(&pkt, m, 2, FRONTEND, NULL, segs,
				       RTE_DIM(segs)) == 2);
	CHECK(segs[0].len == room && segs[1].len == 10);
	CHECK(segs[1].source.foreign.offset == room);
	CHECK(m[0]->pkt_len == room + 10u && m[0]->nb_segs == 2);
	rte_pktmbuf_free(m[0]);
}

static void
test_copies_stay_inside_slots_and_mbufs(void)
{
	xengnttab_grant_copy_segment_t segs[64];
	struct netif_tx_packet pkt;
	struct rte_mbuf *m[8], *cur;
	uint16_t room =
		rte_pktmbuf_data_room_size(test_pool) - RTE_PKTMBUF_HEADROOM;
	unsigned int n, i, total = 0;
	const char *why;
	int nsegs;

	ring_reset();
	post(0, 10, 0, 9000, NETTXF_more_data);
	post(1, 11, 0, 0, NETTXF_more_data);	/* zero-size: XSA-448 */
	post(2, 12, 0, 4096, NETTXF_more_data);
	post(3, 13, 96, 808, 0);
	REQUIRE(parse(&pkt, &why) == NETIF_TX_OK);
	n = netif_mbufs_for(pkt.len, room);
	REQUIRE(n <= RTE_DIM(m));
	REQUIRE(rte_pktmbuf_alloc_bulk(test_pool, m, n) == 0);
	nsegs = netif_back_tx_build_copy(&pkt, m, n, FRONTEND, NULL, segs,
					 RTE_DIM(segs));
	REQUIRE(nsegs > 0);
	for (i = 0; i < (unsigned int)nsegs; i++) {
		CHECK(segs[i].flags == GNTCOPY_source_gref);
		CHECK(segs[i].source.foreign.domid == FRONTEND);
		CHECK(segs[i].len > 0);
		CHECK(segs[i].source.foreign.offset + segs[i].len <=
		      NETIF_PAGE_SIZE);
		CHECK(segs[i].source.foreign.ref != 11);
		CHECK(segs[i].status != GNTST_okay);
		total += segs[i].len;
	}
	CHECK(total == 9000);
	CHECK(m[0]->pkt_len == 9000 && m[0]->nb_segs == n);
	for (cur = m[0], total = 0; cur != NULL; cur = cur->next) {
		CHECK(cur->data_len <= room);
		total += cur->data_len;
	}
	CHECK(total == 9000);
	CHECK(netif_back_tx_build_copy(&pkt, m, n, FRONTEND, NULL, segs, 2) < 0);
	rte_pktmbuf_free(m[0]);
}

/*
 * A large segment as Linux's netfront sends it: the headers alone in the
 * first slot (the skb's head), then a fragment from 1000 bytes into a
 * page, page after page: its pages land on ours when the packet starts
 * 934 bytes into a page (1000 - 66), and the headers' slot is outvoted.
 * Our netfront's whole pages from offset 0: 0. Nothing to go by: 0.
 */
static void
test_page_phase_puts_most_bytes_on_our_pages(void)
{
	struct netif_tx_packet pkt = { .nr_slots = 17 };
	unsigned int i;

	pkt.slots[0] = (struct netif_tx_slot){ .offset = 3000, .size = 66 };
	pkt.slots[1] = (struct netif_tx_slot){ .offset = 1000, .size = 3096 };
	for (i = 2; i < 16; i++)
		pkt.slots[i] =
			(struct netif_tx_slot){ .size = NETIF_PAGE_SIZE };
	pkt.slots[16] = (struct netif_tx_slot){ .size = 500 };
	CHECK(netif_back_tx_page_phase(&pkt) == 934);
	/* Whole pages from their start, the first one included. */
	pkt.slots[0] = (struct netif_tx_slot){ .size = NETIF_PAGE_SIZE };
	pkt.slots[1] = (struct netif_tx_slot){ .size = NETIF_PAGE_SIZE };
	CHECK(netif_back_tx_page_phase(&pkt) == 0);
	/* A short first slot deep in its page leads when it is all there is. */
	pkt = (struct netif_tx_packet){ .nr_slots = 1 };
	pkt.slots[0] = (struct netif_tx_slot){ .offset = 3000, .size = 66 };
	CHECK(netif_back_tx_page_phase(&pkt) == 3000);
	pkt.slots[0].size = 0;
	CHECK(netif_back_tx_page_phase(&pkt) == 0);
}

TEST_MAIN(test_eal_pool_setup, test_eal_teardown)
{
	RUN(test_single_slot_packet_is_parsed);
	RUN(test_page_phase_puts_most_bytes_on_our_pages);
	RUN(test_first_slot_holds_what_later_slots_leave);
	RUN(test_eighteen_slots_are_accepted);
	RUN(test_more_than_eighteen_slots_drop_until_the_fatal_bound);
	RUN(test_slot_crossing_a_page_is_fatal);
	RUN(test_first_slot_crossing_a_page_is_fatal);
	RUN(test_slots_ending_at_their_page_end_are_accepted);
	RUN(test_first_slot_of_a_chain_crossing_a_page_is_fatal);
	RUN(test_chain_beyond_posted_requests_is_fatal);
	RUN(test_unknown_extra_type_is_fatal);
	RUN(test_extra_for_unnegotiated_feature_drops_packet);
	RUN(test_endless_extra_chain_is_fatal);
	RUN(test_offered_gso_extra_is_parsed);
	RUN(test_gso_type_not_offered_drops_packet);
	RUN(test_gso_size_zero_or_unknown_type_is_fatal);
	RUN(test_checksum_flags_are_recorded);
	RUN(test_runt_frame_is_dropped);
	RUN(test_runt_chain_is_dropped);
	RUN(test_fragments_larger_than_frame_are_dropped);
	RUN(test_producer_beyond_a_ring_is_detected);
	RUN(test_attach_refuses_impossible_indexes);
	RUN(test_arming_asks_for_one_notification);
	RUN(test_a_request_rewritten_while_read_is_judged_on_one_copy);
	RUN(test_responses_answer_every_slot_in_order);
	RUN(test_one_slot_is_answered_once);
	RUN(test_one_slot_lands_in_one_mbuf);
	RUN(test_one_slot_larger_than_an_mbuf_is_chained);
	RUN(test_copies_stay_inside_slots_and_mbufs);
}
