/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest RX on the backend side, specified on a ring in ordinary memory:
 * how a packet is packed into the pages a frontend posted, and where and
 * what its responses are.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_mempool.h>

#include "netif_back.h"
#include "test.h"
#include "test_eal.h"

#define FRONTEND 9

static const struct netif_offload plain = {
	.gso_type = XEN_NETIF_GSO_TYPE_NONE,
};

static union {
	netif_rx_sring_t sring;
	uint8_t page[NETIF_PAGE_SIZE];
} shared;
static netif_rx_front_ring_t front;
static netif_rx_back_ring_t back;

static void
ring_reset(unsigned int posted)
{
	unsigned int i;

	memset(&shared, 0, sizeof(shared));
	SHARED_RING_INIT(&shared.sring);
	FRONT_RING_INIT(&front, &shared.sring, NETIF_PAGE_SIZE);
	for (i = 0; i < posted; i++) {
		netif_rx_request_t *req;

		req = RING_GET_REQUEST(&front, front.req_prod_pvt++);
		req->id = 100 + i;
		req->gref = 500 + i;
	}
	RING_PUSH_REQUESTS(&front);
	CHECK(netif_back_rx_attach(&back, &shared.sring) == 0);
}

/* A packet of @len bytes in mbufs of at most @seg_len bytes each. */
static struct rte_mbuf *
packet(uint32_t len, uint16_t seg_len)
{
	struct rte_mbuf *head = NULL, *m;

	while (len > 0) {
		uint16_t n = RTE_MIN(len, seg_len);

		m = rte_pktmbuf_alloc(test_pool);
		if (m == NULL || rte_pktmbuf_append(m, n) == NULL)
			return NULL;
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0)
			return NULL;
		len -= n;
	}
	return head;
}

static void
test_small_packet_takes_one_slot(void)
{
	xengnttab_grant_copy_segment_t segs[8];
	struct netif_rx_slot slots[NETIF_MAX_SLOTS];
	struct rte_mbuf *m = packet(60, 2048);
	unsigned int nb_segs = 0;

	ring_reset(4);
	REQUIRE(m != NULL);
	CHECK(netif_back_rx_requests(&back) == 4);
	CHECK(netif_back_rx_build_copy(&back, m, &plain, FRONTEND, NULL, segs, &nb_segs,
				       RTE_DIM(segs), slots) == 1);
	CHECK(nb_segs == 1);
	CHECK(segs[0].flags == GNTCOPY_dest_gref);
	CHECK(segs[0].dest.foreign.ref == 500);
	CHECK(segs[0].dest.foreign.domid == FRONTEND);
	CHECK(segs[0].dest.foreign.offset == 0 && segs[0].len == 60);
	CHECK(segs[0].source.virt == rte_pktmbuf_mtod(m, void *));
	CHECK(segs[0].status != GNTST_okay);
	CHECK(slots[0].id == 100 && slots[0].size == 60);
	CHECK(slots[0].flags == 0 && slots[0].offset == 0);
	CHECK(slots[0].first_seg == 0 && slots[0].nr_segs == 1);
	CHECK(back.req_cons == 1);
	netif_back_rx_respond(&back, &slots[0], true);
	back.rsp_prod_pvt = back.req_cons;
	RING_PUSH_RESPONSES(&back);
	CHECK(shared.sring.rsp_prod == 1);
	CHECK(RING_GET_RESPONSE(&front, 0)->id == 100);
	CHECK(RING_GET_RESPONSE(&front, 0)->status == 60);
	CHECK(RING_GET_RESPONSE(&front, 0)->flags == 0);
	/* Its segment and one for each mbuf it could span, or none. */
	CHECK(netif_back_rx_build_copy(&back, m, &plain, FRONTEND, NULL, segs,
				       &nb_segs, nb_segs + 1, slots) < 0);
	CHECK(back.req_cons == 1 && nb_segs == 1);
	rte_pktmbuf_free(m);
}

/* A posted page that is a static grant is written at once. */
static void
test_small_packet_into_a_static_grant_is_copied_at_once(void)
{
	xengnttab_grant_copy_segment_t segs[8];
	struct netif_rx_slot slots[NETIF_MAX_SLOTS];
	static uint8_t page[NETIF_PAGE_SIZE];
	struct rte_mbuf *m = packet(60, 2048);
	struct netif_gref_map *statics;
	unsigned int nb_segs = 0, i;

	ring_reset(2);
	REQUIRE(m != NULL);
	for (i = 0; i < 60; i++)
		rte_pktmbuf_mtod(m, uint8_t *)[i] = (uint8_t)(i + 1);
	REQUIRE((statics = netif_gref_map_create(2)) != NULL);
	netif_gref_map_add(statics, 500, page, true);
	netif_gref_map_add(statics, 501, page, false);
	CHECK(netif_back_rx_build_copy(&back, m, &plain, FRONTEND, statics,
				       segs, &nb_segs, RTE_DIM(segs),
				       slots) == 1);
	CHECK(nb_segs == 0 && slots[0].nr_segs == 0);
	CHECK(slots[0].id == 100 && slots[0].size == 60);
	CHECK(memcmp(page, rte_pktmbuf_mtod(m, void *), 60) == 0);
	/* Read-only, it is not written: a grant copy does it (and fails). */
	memset(page, 0, sizeof(page));
	CHECK(netif_back_rx_build_copy(&back, m, &plain, FRONTEND, statics,
				       segs, &nb_segs, RTE_DIM(segs),
				       &slots[1]) == 1);
	CHECK(nb_segs == 1 && segs[0].dest.foreign.ref == 501);
	CHECK(page[0] == 0);
	free(statics);
	rte_pktmbuf_free(m);
}

/* An empty packet takes its slot, and no segment (XSA-448). */
static void
test_empty_packet_takes_a_slot_and_no_segment(void)
{
	xengnttab_grant_copy_segment_t segs[8];
	struct netif_rx_slot slots[NETIF_MAX_SLOTS];
	struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);
	unsigned int nb_segs = 0;

	ring_reset(2);
	REQUIRE(m != NULL);
	CHECK(netif_back_rx_build_copy(&back, m, &plain, FRONTEND, NULL, segs,
				       &nb_segs, RTE_DIM(segs), slots) == 1);
	CHECK(nb_segs == 0 && slots[0].size == 0 && back.req_cons == 1);
	rte_pktmbuf_free(m);
}

static void
test_jumbo_packet_is_packed_densely(void)
{
	xengnttab_grant_copy_segment_t segs[32];
	struct netif_rx_slot slots[NETIF_MAX_SLOTS];
	struct rte_mbuf *m = packet(9000, 2000);
	unsigned int nb_segs = 0, i, bytes[3] = { 0 };

	ring_reset(8);
	REQUIRE(m != NULL);
	REQUIRE(netif_back_rx_build_copy(&back, m, &plain, FRONTEND, NULL, segs, &nb_segs,
					 RTE_DIM(segs), slots) == 3);
	CHECK(slots[0].size == 4096 && slots[1].size == 4096);
	CHECK(slots[2].size == 808);
	CHECK(slots[0].flags == NETRXF_more_data);
	CHECK(slots[1].flags == NETRXF_more_data);
	CHECK(slots[2].flags == 0);
	for (i = 0; i < nb_segs; i++) {
		unsigned int s = segs[i].dest.foreign.ref - 500;

		REQUIRE(s < 3);
		CHECK(segs[i].dest.foreign.offset + segs[i].len <=
		      NETIF_PAGE_SIZE);
		bytes[s] += segs[i].len;
	}
	CHECK(bytes[0] == 4096 && bytes[1] == 4096 && bytes[2] == 808);
	rte_pktmbuf_free(m);
}

static void
test_responses_sit_in_the_slot_of_their_request(void)
{
	xengnttab_grant_copy_segment_t segs[32];
	struct netif_rx_slot slots[NETIF_MAX_SLOTS];
	struct rte_mbuf *m = packet(5000, 2048);
	netif_rx_response_t *rsp;
	unsigned int nb_segs = 0;

	ring_reset(3);
	/* Start mid-ring so the slot index is not trivially zero. */
	REQUIRE(m != NULL);
	REQUIRE(netif_back_rx_build_copy(&back, m, &plain, FRONTEND, NULL, segs, &nb_segs,
					 RTE_DIM(segs), slots) == 2);
	netif_back_rx_respond(&back, &slots[1], true);
	netif_back_rx_respond(&back, &slots[0], false);
	back.rsp_prod_pvt = back.req_cons;
	RING_PUSH_RESPONSES(&back);
	rsp = RING_GET_RESPONSE(&front, 0);
	CHECK(rsp->id == 100 && rsp->status == NETIF_RSP_ERROR);
	CHECK(rsp->flags == NETRXF_more_data);
	rsp = RING_GET_RESPONSE(&front, 1);
	CHECK(rsp->id == 101 && rsp->status == 5000 - 4096);
	CHECK(rsp->offset == 0 && rsp->flags == 0);
	CHECK(shared.sring.rsp_prod == 2);
	rte_pktmbuf_free(m);
}

static void
test_gso_extra_follows_the_first_slot(void)
{
	const struct netif_offload gso = {
		.csum_blank = true, .data_validated = true,
		.gso_type = XEN_NETIF_GSO_TYPE_TCPV4, .gso_size = 1448,
	};
	xengnttab_grant_copy_segment_t segs[32];
	struct netif_rx_slot slots[NETIF_MAX_SLOTS];
	struct rte_mbuf *m = packet(5000, 2048);
	struct netif_extra_info *extra;
	netif_rx_response_t *rsp;
	unsigned int nb_segs = 0, i;

	ring_reset(4);
	REQUIRE(m != NULL);
	CHECK(netif_rx_requests_for(5000, netif_rx_first_room(m, &gso), &gso) ==
	      3);
	REQUIRE(netif_back_rx_build_copy(&back, m, &gso, FRONTEND, NULL, segs,
					 &nb_segs, RTE_DIM(segs), slots) == 2);
	CHECK(back.req_cons == 3);
	/* The extra's request (gref 501) gets no data. */
	for (i = 0; i < nb_segs; i++)
		CHECK(segs[i].dest.foreign.ref != 501);
	CHECK(slots[0].idx == 0 && slots[1].idx == 2 && slots[1].id == 102);
	netif_back_rx_respond(&back, &slots[0], true);
	netif_back_rx_respond(&back, &slots[1], true);
	back.rsp_prod_pvt = back.req_cons;
	RING_PUSH_RESPONSES(&back);
	rsp = RING_GET_RESPONSE(&front, 0);
	CHECK(rsp->flags == (NETRXF_csum_blank | NETRXF_data_validated |
			     NETRXF_extra_info | NETRXF_more_data));
	CHECK(rsp->status == 4096);
	extra = (struct netif_extra_info *)RING_GET_RESPONSE(&front, 1);
	CHECK(extra->type == XEN_NETIF_EXTRA_TYPE_GSO && extra->flags == 0);
	CHECK(extra->u.gso.size == 1448);
	CHECK(extra->u.gso.type == XEN_NETIF_GSO_TYPE_TCPV4);
	rsp = RING_GET_RESPONSE(&front, 2);
	CHECK(rsp->id == 102 && rsp->status == 5000 - 4096);
	CHECK(rsp->flags == 0);
	rte_pktmbuf_free(m);
}

/*
 * A fresh ring with @posted buffers: @m packed with @off (its copies in
 * @segs, *@nb_segs of them), every data slot (@slots) answered and the
 * answers pushed. Returns the data slots, or -1.
 */
static int
pack_and_answer(struct rte_mbuf *m, const struct netif_offload *off,
		unsigned int posted, xengnttab_grant_copy_segment_t segs[8],
		unsigned int *nb_segs, struct netif_rx_slot *slots)
{
	int n;

	ring_reset(posted);
	*nb_segs = 0;
	if (m == NULL)
		return -1;
	n = netif_back_rx_build_copy(&back, m, off, FRONTEND, NULL, segs,
				     nb_segs, 8, slots);
	for (int i = 0; i < n; i++)
		netif_back_rx_respond(&back, &slots[i], true);
	back.rsp_prod_pvt = back.req_cons;
	RING_PUSH_RESPONSES(&back);
	return n;
}

/*
 * With the frontend's XDP headroom the frame starts that far into its
 * first page: the response's offset says where, its status counts the
 * frame's bytes alone, an XDP extra after the first slot repeats the
 * headroom (Linux netfront takes the offset from it), and the first page
 * holding less, a frame may take one more slot.
 */
static void
test_xdp_headroom_offsets_the_first_slot(void)
{
	const struct netif_offload xdp = {
		.gso_type = XEN_NETIF_GSO_TYPE_NONE, .xdp_headroom = 256,
	};
	xengnttab_grant_copy_segment_t segs[8];
	struct netif_rx_slot slots[NETIF_MAX_SLOTS];
	struct rte_mbuf *m = packet(60, 2048);
	struct netif_extra_info *extra;
	netif_rx_response_t *rsp;
	unsigned int nb_segs;

	CHECK(netif_rx_requests_for(60, netif_rx_first_room(m, &xdp), &xdp) ==
	      2);
	REQUIRE(pack_and_answer(m, &xdp, 4, segs, &nb_segs, slots) == 1);
	CHECK(back.req_cons == 2);
	CHECK(nb_segs == 1 && segs[0].dest.foreign.ref == 500);
	CHECK(segs[0].dest.foreign.offset == 256 && segs[0].len == 60);
	rsp = RING_GET_RESPONSE(&front, 0);
	CHECK(rsp->id == 100 && rsp->offset == 256 && rsp->status == 60);
	CHECK(rsp->flags == NETRXF_extra_info);
	extra = (struct netif_extra_info *)RING_GET_RESPONSE(&front, 1);
	CHECK(extra->type == XEN_NETIF_EXTRA_TYPE_XDP && extra->flags == 0);
	CHECK(extra->u.pad[0] == 256);
	rte_pktmbuf_free(m);

	/* 3900 bytes fit a page, not a page less 256 bytes: two slots. */
	m = packet(3900, 2048);
	CHECK(netif_rx_requests_for(3900, netif_rx_first_room(m, &xdp), &xdp) ==
	      3);
	CHECK(netif_rx_requests_for(3900, netif_rx_first_room(m, &plain),
				    &plain) == 1);
	REQUIRE(pack_and_answer(m, &xdp, 4, segs, &nb_segs, slots) == 2);
	CHECK(slots[0].idx == 0 && slots[0].offset == 256);
	CHECK(slots[0].size == NETIF_PAGE_SIZE - 256);
	CHECK(slots[1].idx == 2 && slots[1].offset == 0);
	CHECK(slots[1].size == 3900 - (NETIF_PAGE_SIZE - 256));
	rsp = RING_GET_RESPONSE(&front, 2);
	CHECK(rsp->offset == 0 && rsp->flags == 0);
	CHECK(rsp->status == 3900 - (NETIF_PAGE_SIZE - 256));
	rte_pktmbuf_free(m);
}

/* All three extras: GSO, hash, XDP, each but the last with FLAG_MORE. */
static void
test_extras_chain_gso_hash_xdp(void)
{
	const struct netif_offload all = {
		.csum_blank = true, .data_validated = true,
		.gso_type = XEN_NETIF_GSO_TYPE_TCPV6, .gso_size = 1440,
		.hashed = true, .hash_type = _XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP,
		.hash = 0x11223344, .xdp_headroom = 128,
	};
	xengnttab_grant_copy_segment_t segs[8];
	struct netif_rx_slot slots[NETIF_MAX_SLOTS];
	struct rte_mbuf *m = packet(3000, 2048);
	struct netif_extra_info *extra;
	netif_rx_response_t *rsp;
	unsigned int nb_segs;

	CHECK(netif_rx_requests_for(3000, netif_rx_first_room(m, &all), &all) ==
	      4);
	REQUIRE(pack_and_answer(m, &all, 8, segs, &nb_segs, slots) == 1);
	CHECK(back.req_cons == 4);
	rsp = RING_GET_RESPONSE(&front, 0);
	CHECK(rsp->offset == 128 && rsp->status == 3000);
	extra = (struct netif_extra_info *)RING_GET_RESPONSE(&front, 1);
	CHECK(extra->type == XEN_NETIF_EXTRA_TYPE_GSO);
	CHECK(extra->flags == XEN_NETIF_EXTRA_FLAG_MORE);
	extra = (struct netif_extra_info *)RING_GET_RESPONSE(&front, 2);
	CHECK(extra->type == XEN_NETIF_EXTRA_TYPE_HASH);
	CHECK(extra->flags == XEN_NETIF_EXTRA_FLAG_MORE);
	CHECK(extra->u.hash.value[0] == 0x44 && extra->u.hash.value[3] == 0x11);
	extra = (struct netif_extra_info *)RING_GET_RESPONSE(&front, 3);
	CHECK(extra->type == XEN_NETIF_EXTRA_TYPE_XDP && extra->flags == 0);
	CHECK(extra->u.pad[0] == 128);
	rte_pktmbuf_free(m);
}

/*
 * A hash is the one extra of most packets when the guest asked for it: it
 * takes the request after the packet's, whose buffer gets no data, and its
 * response follows the packet's, alone (no FLAG_MORE), the value least
 * significant byte first; the first slot's flags are kept.
 */
static void
check_hash_extra_follows(const struct netif_offload *off, uint16_t flags)
{
	xengnttab_grant_copy_segment_t segs[8];
	struct netif_rx_slot slots[NETIF_MAX_SLOTS];
	struct rte_mbuf *m = packet(60, 2048);
	struct netif_extra_info *extra;
	netif_rx_response_t *rsp;
	unsigned int nb_segs;

	CHECK(netif_rx_requests_for(60, netif_rx_first_room(m, off), off) == 2);
	REQUIRE(pack_and_answer(m, off, 4, segs, &nb_segs, slots) == 1);
	CHECK(back.req_cons == 2 && shared.sring.rsp_prod == 2);
	CHECK(nb_segs == 1 && segs[0].dest.foreign.ref == 500);
	CHECK(segs[0].len == 60);
	rsp = RING_GET_RESPONSE(&front, 0);
	CHECK(rsp->id == 100 && rsp->status == 60 && rsp->offset == 0);
	CHECK(rsp->flags == (flags | NETRXF_extra_info));
	extra = (struct netif_extra_info *)RING_GET_RESPONSE(&front, 1);
	CHECK(extra->type == XEN_NETIF_EXTRA_TYPE_HASH && extra->flags == 0);
	CHECK(extra->u.hash.type == _XEN_NETIF_CTRL_HASH_TYPE_IPV4);
	CHECK(extra->u.hash.algorithm ==
	      XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ);
	CHECK(extra->u.hash.value[0] == 0xd4 && extra->u.hash.value[1] == 0xc3);
	CHECK(extra->u.hash.value[2] == 0xb2 && extra->u.hash.value[3] == 0xa1);
	rte_pktmbuf_free(m);
}

static void
test_hash_extra_follows_a_small_packet(void)
{
	const struct netif_offload hashed = {
		.gso_type = XEN_NETIF_GSO_TYPE_NONE,
		.hashed = true,
		.hash_type = _XEN_NETIF_CTRL_HASH_TYPE_IPV4,
		.hash = 0xa1b2c3d4,
	};
	const struct netif_offload flagged = {
		.csum_blank = true,
		.data_validated = true,
		.gso_type = XEN_NETIF_GSO_TYPE_NONE,
		.hashed = true,
		.hash_type = _XEN_NETIF_CTRL_HASH_TYPE_IPV4,
		.hash = 0xa1b2c3d4,
	};

	check_hash_extra_follows(&hashed, 0);
	check_hash_extra_follows(&flagged,
				 NETRXF_csum_blank | NETRXF_data_validated);
}

static void
test_too_few_segments_consume_nothing(void)
{
	xengnttab_grant_copy_segment_t segs[2];
	struct netif_rx_slot slots[NETIF_MAX_SLOTS];
	struct rte_mbuf *m = packet(9000, 1000);
	unsigned int nb_segs = 0;

	ring_reset(8);
	REQUIRE(m != NULL);
	CHECK(netif_back_rx_build_copy(&back, m, &plain, FRONTEND, NULL, segs, &nb_segs,
				       RTE_DIM(segs), slots) < 0);
	CHECK(back.req_cons == 0 && nb_segs == 0);
	rte_pktmbuf_free(m);
}

static void
test_producer_beyond_a_ring_is_detected(void)
{
	ring_reset(0);
	shared.sring.req_prod = NETIF_RX_RING_SIZE + 1;
	CHECK(netif_back_rx_requests(&back) < 0);
}

TEST_MAIN(test_eal_pool_setup, test_eal_teardown)
{
	RUN(test_small_packet_takes_one_slot);
	RUN(test_small_packet_into_a_static_grant_is_copied_at_once);
	RUN(test_empty_packet_takes_a_slot_and_no_segment);
	RUN(test_jumbo_packet_is_packed_densely);
	RUN(test_responses_sit_in_the_slot_of_their_request);
	RUN(test_gso_extra_follows_the_first_slot);
	RUN(test_xdp_headroom_offsets_the_first_slot);
	RUN(test_extras_chain_gso_hash_xdp);
	RUN(test_hash_extra_follows_a_small_packet);
	RUN(test_too_few_segments_consume_nothing);
	RUN(test_producer_beyond_a_ring_is_detected);
}
