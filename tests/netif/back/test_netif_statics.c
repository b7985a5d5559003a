/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Static grants and the control ring, with pages a frontend domain really
 * grants through the simulated hypervisor. netif_statics_serve() answers
 * GET/ADD/DEL_GREF_MAPPING as netif.h says: per queue pair, a size of
 * NETIF_STATICS_PER_QUEUE, an ADD mapped whole (one call per access mode)
 * or not at all, a DEL reporting each entry's status; whatever the guest
 * lists is copied once and checked (unknown or foreign grants, duplicates,
 * bad flags, too many). The data path then copies from and to the mapped
 * pages without a grant copy (a push writing those at once, around the
 * ones it grant copies, and answering all in their slots), and a guest
 * rewriting its page after the pull cannot change the packet we hold. The
 * control ring answers every request in its slot, NOT_SUPPORTED for types
 * nobody serves, and an impossible index on either side is an error.
 */

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <rte_ip.h>

#include "mixed_frames.h"
#include "ms_rss_hash.h"
#include "netif_back.h"
#include "netif_ctrl_back.h"
#include "netif_ctrl_front.h"
#include "netif_hash.h"
#include "netif_statics.h"
#include "test.h"
#include "test_eal.h"
#include "xsim/xsim_test.h"

/* The link's MTU the sending rings read (netif_ring_mtu()). */
static const uint16_t link_mtu = 1500;

#define BACKEND 0
#define FRONTEND 1
#define PAGES 1100
#define QUEUES 2

static struct xa_handle *be, *fe;
static uint8_t *pages;			/* the frontend's granted pages */
static grant_ref_t refs[PAGES];
static struct xen_netif_gref *list;	/* its list page, granted r/w */
static grant_ref_t list_ref;
static struct xen_netif_gref *ro_list;	/* a list page granted read-only */
static grant_ref_t ro_list_ref;

static struct netif_statics st;
static struct netif_statics_queue sq[QUEUES];
static unsigned int quiesced;

static void
count_quiesce(void *opaque __rte_unused, unsigned int q __rte_unused)
{
	quiesced++;
}

static void
statics_reset(void)
{
	struct netif_statics_queue *qs[QUEUES] = { &sq[0], &sq[1] };
	struct netif_statics_limits lim;

	netif_statics_release(&st);
	memset(sq, 0, sizeof(sq));
	memset(&st, 0, sizeof(st));
	st.quiesce = count_quiesce;
	netif_statics_limits_default(&lim);
	netif_statics_connect(&st, be, FRONTEND, QUEUES, qs, &lim);
	quiesced = 0;
}

static struct xen_netif_ctrl_response
request(uint16_t type, uint32_t d0, uint32_t d1, uint32_t d2)
{
	struct xen_netif_ctrl_request req = {
		.id = 1, .type = type, .data = { d0, d1, d2 },
	};
	struct xen_netif_ctrl_response rsp = { .status = 0xdead };

	CHECK(netif_statics_serve(&st, &req, &rsp));
	return rsp;
}

/* ADD pages [@first, @first + @n) to queue @q, the odd ones read-only. */
static uint32_t
add(unsigned int q, unsigned int first, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		list[i] = (struct xen_netif_gref){
			.ref = refs[first + i],
			.flags = i % 2 ? XEN_NETIF_CTRLF_GREF_readonly : 0,
		};
	return request(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, q, list_ref,
		       n).status;
}

static uint32_t
backend_maps(void)
{
	struct xsim_usage u;

	return usage_of(BACKEND, &u) == 0 ? u.maps : UINT32_MAX;
}

static void
test_mapping_size_is_per_queue_pair(void)
{
	struct xen_netif_ctrl_response rsp;

	statics_reset();
	rsp = request(XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE, 1, 0, 0);
	CHECK(rsp.status == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(rsp.data == NETIF_STATICS_PER_QUEUE);
	rsp = request(XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE, QUEUES, 0, 0);
	CHECK(rsp.status == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(add(QUEUES, 0, 4) == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(st.stats.requests == 3 && st.stats.refused == 2);
}

static void
test_add_maps_once_per_access_mode(void)
{
	const uint8_t *rw, *ro;

	statics_reset();
	CHECK(add(0, 0, 16) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(sq[0].grants == 16 && sq[0].maps == 2 && sq[1].grants == 0);
	CHECK(backend_maps() == 16);
	CHECK(quiesced == 1);
	/* Each page is the frontend's own page, with the access it gave. */
	rw = netif_gref_map_find(sq[0].map, refs[4], true);
	ro = netif_gref_map_find(sq[0].map, refs[5], false);
	REQUIRE(rw != NULL && ro != NULL);
	CHECK(memcmp(rw, pages + 4 * NETIF_PAGE_SIZE, NETIF_PAGE_SIZE) == 0);
	CHECK(memcmp(ro, pages + 5 * NETIF_PAGE_SIZE, NETIF_PAGE_SIZE) == 0);
	CHECK(netif_gref_map_find(sq[0].map, refs[5], true) == NULL);
	CHECK(netif_gref_map_find(sq[0].map, refs[16], false) == NULL);
	CHECK(netif_gref_map_find(sq[1].map, refs[4], false) == NULL);
	/* Added to: a new table with both. */
	CHECK(add(0, 16, 4) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(netif_gref_map_find(sq[0].map, refs[2], true) != NULL &&
	      netif_gref_map_find(sq[0].map, refs[18], true) != NULL);
	CHECK(sq[0].grants == 20 && quiesced == 2);
	netif_statics_release(&st);
	CHECK(backend_maps() == 0);
	CHECK(sq[0].map == NULL && sq[0].grants == 0);
}

static void
test_add_of_a_grant_not_given_maps_nothing(void)
{
	statics_reset();
	list[0] = (struct xen_netif_gref){ .ref = refs[0] };
	list[1] = (struct xen_netif_gref){ .ref = 7777 };
	CHECK(request(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 0, list_ref,
		      2).status == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(sq[0].grants == 0 && sq[0].map == NULL);
	CHECK(backend_maps() == 0);
	/* A list page that is not a grant of the frontend's. */
	CHECK(request(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 0, 7777,
		      1).status == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
}

static void
test_add_beyond_the_mapping_size_is_refused(void)
{
	statics_reset();
	CHECK(add(0, 0, 0) == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	/* More entries than the list page holds. */
	CHECK(request(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 0, list_ref,
		      NETIF_STATICS_LIST_MAX + 1).status ==
	      XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(add(0, 0, 512) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(add(0, 512, 512) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(sq[0].grants == NETIF_STATICS_PER_QUEUE);
	CHECK(add(0, 1024, 1) == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	/* The other queue pair has its own room. */
	CHECK(add(1, 1024, 1) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(backend_maps() == NETIF_STATICS_PER_QUEUE + 1);
	netif_statics_release(&st);
}

static void
test_duplicates_and_unknown_flags_are_refused(void)
{
	statics_reset();
	list[0] = (struct xen_netif_gref){ .ref = refs[0] };
	list[1] = (struct xen_netif_gref){ .ref = refs[0] };
	CHECK(request(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 0, list_ref,
		      2).status == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	list[1] = (struct xen_netif_gref){ .ref = refs[1], .flags = 2 };
	CHECK(request(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 0, list_ref,
		      2).status == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(add(0, 0, 2) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(add(0, 1, 2) == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(sq[0].grants == 2 && backend_maps() == 2);
	netif_statics_release(&st);
}

static void
test_del_reports_each_entry_and_unmaps_emptied_batches(void)
{
	struct xen_netif_ctrl_response rsp;

	statics_reset();
	CHECK(add(0, 0, 4) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	list[0] = (struct xen_netif_gref){ .ref = refs[0], .status = 9 };
	list[1] = (struct xen_netif_gref){ .ref = refs[2], .status = 9 };
	list[2] = (struct xen_netif_gref){ .ref = 9999, .status = 9 };
	list[3] = (struct xen_netif_gref){ .ref = refs[0], .status = 9 };
	rsp = request(XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING, 0, list_ref, 4);
	CHECK(rsp.status == XEN_NETIF_CTRL_STATUS_SUCCESS && rsp.data == 2);
	CHECK(list[0].status == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(list[1].status == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(list[2].status == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(list[3].status == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(netif_gref_map_find(sq[0].map, refs[0], false) == NULL);
	CHECK(netif_gref_map_find(sq[0].map, refs[1], false) != NULL);
	/* The writable batch (0, 2) is empty: unmapped, once quiesced. */
	CHECK(sq[0].grants == 2 && sq[0].unmaps == 1 && quiesced == 2);
	CHECK(backend_maps() == 2);
	/* A list we cannot write the statuses back into changes nothing. */
	ro_list[0] = (struct xen_netif_gref){ .ref = refs[1] };
	rsp = request(XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING, 0, ro_list_ref, 1);
	CHECK(rsp.status == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(netif_gref_map_find(sq[0].map, refs[1], false) != NULL);
	CHECK(sq[0].grants == 2 && backend_maps() == 2);
	netif_statics_release(&st);
	CHECK(backend_maps() == 0);
}

static void
test_other_types_are_not_ours(void)
{
	struct xen_netif_ctrl_request req = {
		.type = XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM,
	};
	struct xen_netif_ctrl_response rsp;

	statics_reset();
	CHECK(!netif_statics_serve(&st, &req, &rsp));
	CHECK(st.stats.requests == 0);
}

/*
 * Connect @rx to a fresh receive ring in @sring, seen by the frontend
 * through @front, with queue 0's static grants.
 */
static void
rx_connect(struct netif_back_rx *rx, netif_rx_sring_t *sring,
	   netif_rx_front_ring_t *front)
{
	SHARED_RING_INIT(sring);
	FRONT_RING_INIT(front, sring, NETIF_PAGE_SIZE);
	rx->mtu = &link_mtu;
	REQUIRE(netif_back_rx_connect(rx, sring, be, FRONTEND) == 0);
	rx->statics = &sq[0].map;
}

/* Guest TX and RX through mapped pages: no grant copy, and our own copy. */
static void
test_data_path_copies_mapped_pages_without_grant_copy(void)
{
	static union {
		netif_tx_sring_t sring;
		uint8_t page[NETIF_PAGE_SIZE];
	} tx_shared;
	static union {
		netif_rx_sring_t sring;
		uint8_t page[NETIF_PAGE_SIZE];
	} rx_shared;
	static struct netif_back_tx tx;
	static struct netif_back_rx rx;
	netif_tx_front_ring_t tx_front;
	netif_rx_front_ring_t rx_front;
	enum netif_doorbell bell;
	struct rte_mbuf *m = NULL, *out;
	uint8_t *frame = pages;		/* page 0: writable */
	netif_tx_request_t *req;
	netif_rx_request_t *rreq;
	unsigned int i;

	statics_reset();
	CHECK(add(0, 0, 4) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	for (i = 0; i < 100; i++)
		frame[i] = (uint8_t)(i * 3);
	SHARED_RING_INIT(&tx_shared.sring);
	FRONT_RING_INIT(&tx_front, &tx_shared.sring, NETIF_PAGE_SIZE);
	netif_back_tx_setup(&tx, test_pool, 0);
	REQUIRE(netif_back_tx_connect(&tx, &tx_shared.sring, be, FRONTEND) ==
		0);
	tx.statics = &sq[0].map;
	rx_connect(&rx, &rx_shared.sring, &rx_front);

	req = RING_GET_REQUEST(&tx_front, tx_front.req_prod_pvt++);
	*req = (netif_tx_request_t){ .gref = refs[0], .size = 100, .id = 3 };
	RING_PUSH_REQUESTS(&tx_front);
	REQUIRE(netif_back_tx_pull(&tx, &m, 1, &bell) == 1);
	CHECK(tx.copy.stats.calls == 0 && tx.stats.static_packets == 1);
	CHECK(m->pkt_len == 100 &&
	      memcmp(rte_pktmbuf_mtod(m, uint8_t *), frame, 100) == 0);
	/* The guest rewrites its page: the packet we hold does not change. */
	memset(frame, 0xee, 100);
	CHECK(rte_pktmbuf_mtod(m, uint8_t *)[10] == 30);

	/* Guest RX into the writable page 2, then the read-only page 1. */
	rreq = RING_GET_REQUEST(&rx_front, rx_front.req_prod_pvt++);
	*rreq = (netif_rx_request_t){ .id = 5, .gref = refs[2] };
	rreq = RING_GET_REQUEST(&rx_front, rx_front.req_prod_pvt++);
	*rreq = (netif_rx_request_t){ .id = 6, .gref = refs[1] };
	RING_PUSH_REQUESTS(&rx_front);
	out = rte_pktmbuf_clone(m, test_pool);
	REQUIRE(out != NULL);
	CHECK(netif_back_rx_push(&rx, &m, 1, &bell) == 1);
	CHECK(rx.copy.stats.calls == 0 && rx.stats.static_packets == 1);
	CHECK(memcmp(pages + 2 * NETIF_PAGE_SIZE,
		     rte_pktmbuf_mtod(out, uint8_t *), 100) == 0);
	CHECK(RING_GET_RESPONSE(&rx_front, 0)->status == 100);
	/*
	 * Mapped read-only (granted writable): not written through the map,
	 * grant copied instead.
	 */
	CHECK(netif_back_rx_push(&rx, &out, 1, &bell) == 1);
	CHECK(rx.copy.stats.calls == 1 && rx.stats.static_packets == 1);
	CHECK(RING_GET_RESPONSE(&rx_front, 1)->status == 100);
	CHECK(memcmp(pages + NETIF_PAGE_SIZE, pages + 2 * NETIF_PAGE_SIZE,
		     100) == 0);
	netif_back_tx_release(&tx);
	netif_statics_release(&st);
}

/* Post a @size-byte frame of the frontend's page @page as request @id. */
static void
post_tx(netif_tx_front_ring_t *front, unsigned int page, uint16_t id,
	uint16_t size)
{
	*RING_GET_REQUEST(front, front->req_prod_pvt++) = (netif_tx_request_t){
		.gref = refs[page],
		.size = size,
		.id = id,
	};
}

/*
 * Packets on static pages are handed over as they are read, until one
 * that has to be grant copied: then the rest wait for its copy, so that
 * the application gets them in ring order. A pull takes at most what it
 * is asked, a frame shorter than an Ethernet header is dropped, one
 * larger than an mbuf is chained, a checksum or the packet type the
 * application asks for is given, and one across its page's end is fatal.
 */
static void
test_data_path_keeps_ring_order_around_a_grant_copy(void)
{
	static union {
		netif_tx_sring_t sring;
		uint8_t page[NETIF_PAGE_SIZE];
	} tx_shared;
	static struct netif_back_tx tx;
	static const unsigned int page_of[] = { 0, 10, 1, 2, 0, 1, 2 };
	netif_tx_front_ring_t front;
	enum netif_doorbell bell;
	struct rte_ipv4_hdr *ip;
	struct rte_mbuf *m[8];
	unsigned int i;

	statics_reset();
	CHECK(add(0, 0, 4) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	for (i = 0; i < 11; i++)
		pages[i * NETIF_PAGE_SIZE] = (uint8_t)(i + 1);
	SHARED_RING_INIT(&tx_shared.sring);
	FRONT_RING_INIT(&front, &tx_shared.sring, NETIF_PAGE_SIZE);
	netif_back_tx_setup(&tx, test_pool, 0);
	REQUIRE(netif_back_tx_connect(&tx, &tx_shared.sring, be, FRONTEND) ==
		0);
	tx.statics = &sq[0].map;

	/* Page 10 is granted but not a static grant: copied. */
	for (i = 0; i < 4; i++)
		post_tx(&front, page_of[i], (uint16_t)(i + 1), 60);
	RING_PUSH_REQUESTS(&front);
	REQUIRE(netif_back_tx_pull(&tx, m, 8, &bell) == 4);
	for (i = 0; i < 4; i++) {
		CHECK(m[i]->pkt_len == 60);
		CHECK(rte_pktmbuf_mtod(m[i], uint8_t *)[0] == page_of[i] + 1);
		CHECK(RING_GET_RESPONSE(&front, i)->status == NETIF_RSP_OKAY);
	}
	CHECK(RING_GET_RESPONSE(&front, 0)->id == 1);
	CHECK(tx.copy.stats.calls == 1 && tx.stats.static_packets == 3);
	CHECK(tx.stats.packets == 4 && tx.stats.bytes == 240);
	rte_pktmbuf_free_bulk(m, 4);

	/* A pull of static pages alone takes at most what it is asked. */
	for (i = 4; i < 7; i++)
		post_tx(&front, page_of[i], (uint16_t)(i + 1), 60);
	RING_PUSH_REQUESTS(&front);
	REQUIRE(netif_back_tx_pull(&tx, m, 2, &bell) == 2);
	CHECK(rte_pktmbuf_mtod(m[1], uint8_t *)[0] == page_of[5] + 1);
	REQUIRE(netif_back_tx_pull(&tx, &m[2], 8, &bell) == 1);
	CHECK(rte_pktmbuf_mtod(m[2], uint8_t *)[0] == page_of[6] + 1);
	CHECK(tx.copy.stats.calls == 1 && tx.stats.static_packets == 6);
	CHECK(RING_GET_RESPONSE(&front, 6)->id == 7 &&
	      RING_GET_RESPONSE(&front, 6)->status == NETIF_RSP_OKAY);
	rte_pktmbuf_free_bulk(m, 3);

	/* Shorter than an Ethernet header: dropped, answered with an error. */
	post_tx(&front, 0, 11, RTE_ETHER_HDR_LEN - 1);
	RING_PUSH_REQUESTS(&front);
	CHECK(netif_back_tx_pull(&tx, m, 8, &bell) == 0);
	CHECK(RING_GET_RESPONSE(&front, 7)->id == 11 &&
	      RING_GET_RESPONSE(&front, 7)->status == NETIF_RSP_ERROR);
	CHECK(tx.stats.drop_bad_frame == 1 && tx.stats.static_packets == 6);

	/* More than an mbuf holds: chained, as the general path chains. */
	post_tx(&front, 0, 8, 3000);
	RING_PUSH_REQUESTS(&front);
	REQUIRE(netif_back_tx_pull(&tx, m, 8, &bell) == 1);
	CHECK(m[0]->nb_segs == 2 && m[0]->pkt_len == 3000);
	CHECK(tx.copy.stats.calls == 1 && tx.stats.static_packets == 7);
	rte_pktmbuf_free(m[0]);

	/* A checksum the application has checked is checked. */
	mf_build(pages + 3 * NETIF_PAGE_SIZE, MF_IPV4, 0);
	ip = (struct rte_ipv4_hdr *)(pages + 3 * NETIF_PAGE_SIZE +
				     RTE_ETHER_HDR_LEN);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	tx.offloads = NETIF_RX_IP_CSUM;
	post_tx(&front, 3, 9, MF_LEN);
	RING_PUSH_REQUESTS(&front);
	REQUIRE(netif_back_tx_pull(&tx, m, 8, &bell) == 1);
	CHECK((m[0]->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) ==
	      RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	CHECK(tx.stats.static_packets == 8);
	rte_pktmbuf_free(m[0]);
	/* And packet types are given when asked for. */
	tx.offloads = NETIF_RX_PTYPES;
	post_tx(&front, 3, 10, MF_LEN);
	RING_PUSH_REQUESTS(&front);
	REQUIRE(netif_back_tx_pull(&tx, m, 8, &bell) == 1);
	CHECK((m[0]->packet_type & RTE_PTYPE_L3_MASK) == RTE_PTYPE_L3_IPV4);
	CHECK(tx.stats.static_packets == 9);
	rte_pktmbuf_free(m[0]);

	/* Across its page's end: the frontend is at fault. */
	*RING_GET_REQUEST(&front, front.req_prod_pvt++) = (netif_tx_request_t){
		.gref = refs[0],
		.offset = NETIF_PAGE_SIZE - 30,
		.size = 60,
	};
	RING_PUSH_REQUESTS(&front);
	CHECK(netif_back_tx_pull(&tx, m, 8, &bell) == 0);
	CHECK(tx.error != NULL && tx.stats.malformed == 1);
	netif_back_tx_release(&tx);
	netif_statics_release(&st);
}

/* Post the frontend's page @page as RX buffer @id. */
static void
post_rx(netif_rx_front_ring_t *front, unsigned int page, uint16_t id)
{
	*RING_GET_REQUEST(front, front->req_prod_pvt++) = (netif_rx_request_t){
		.gref = refs[page],
		.id = id,
	};
}

/* A @len-byte frame in mbufs of @seg_len bytes, byte i holding @tag + i. */
static struct rte_mbuf *
rx_frame(uint16_t len, uint16_t seg_len, uint8_t tag)
{
	struct rte_mbuf *head = NULL, *m;
	uint16_t i, n;
	uint8_t *d;

	for (i = 0; i < len; i += n) {
		n = RTE_MIN(seg_len, len - i);
		m = rte_pktmbuf_alloc(test_pool);
		d = m == NULL ? NULL : (uint8_t *)rte_pktmbuf_append(m, n);
		if (d == NULL)
			return NULL;
		for (uint16_t k = 0; k < n; k++)
			d[k] = (uint8_t)(tag + i + k);
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0)
			return NULL;
	}
	return head;
}

/* Whether page @page starts with the bytes of rx_frame(@len, *, @tag). */
static bool
page_holds(unsigned int page, uint16_t at, uint16_t len, uint8_t tag)
{
	const uint8_t *d = pages + page * NETIF_PAGE_SIZE + at;

	for (uint16_t i = 0; i < len; i++)
		if (d[i] != (uint8_t)(tag + i))
			return false;
	return true;
}

/*
 * A push writes a packet of one mbuf into a static grant at once; a
 * buffer not given as a static grant, or given read-only, is grant
 * copied, and a chained packet built by the general path. Every answer
 * is in its request's slot, all are published together and counted, a
 * packet without a buffer waits, and no push writes again in the slot of
 * an answer published before. With headroom asked for, a static page
 * gets the frame past it and the XDP extra (the general path).
 */
static void
test_push_writes_static_buffers_at_once_around_copies(void)
{
	static union {
		netif_rx_sring_t sring;
		uint8_t page[NETIF_PAGE_SIZE];
	} rx_shared;
	static struct netif_back_rx rx;
	/* Pages 0, 2 and 4 static, 1 read-only, 10 not a static grant. */
	static const unsigned int page_of[] = { 0, 10, 2, 1, 4 };
	static const uint16_t len_of[] = { 60, 70, 80, 90, 100 };
	const struct netif_extra_info *extra;
	const netif_rx_response_t *rsp;
	netif_rx_front_ring_t front;
	enum netif_doorbell bell;
	struct rte_mbuf *m[6];
	uint64_t bytes = 0;
	unsigned int i;

	statics_reset();
	CHECK(add(0, 0, 6) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	rx_connect(&rx, &rx_shared.sring, &front);
	for (i = 0; i < RTE_DIM(page_of); i++) {
		post_rx(&front, page_of[i], (uint16_t)(i + 1));
		/* The third is chained: the general path takes it. */
		m[i] = rx_frame(len_of[i], i == 2 ? 50 : 2048,
				(uint8_t)(16 * i));
		REQUIRE(m[i] != NULL);
		bytes += len_of[i];
	}
	m[5] = rx_frame(60, 2048, 0xa0);
	REQUIRE(m[5] != NULL);
	RING_PUSH_REQUESTS(&front);

	CHECK(netif_back_rx_push(&rx, m, 6, &bell) == 5);
	CHECK(bell == NETIF_DOORBELL_RING && rx_shared.sring.rsp_prod == 5);
	for (i = 0; i < RTE_DIM(page_of); i++) {
		rsp = RING_GET_RESPONSE(&front, i);
		CHECK(rsp->id == i + 1 && rsp->status == len_of[i]);
		CHECK(rsp->offset == 0 && rsp->flags == 0);
		CHECK(page_holds(page_of[i], 0, len_of[i], (uint8_t)(16 * i)));
	}
	CHECK(rx.copy.stats.calls == 1 && rx.copy.stats.segs == 2);
	CHECK(rx.stats.static_packets == 3);
	CHECK(rx.stats.packets == 5 && rx.stats.bytes == bytes);
	CHECK(rx.stats.ring_full == 1 && rx.error == NULL);

	/*
	 * The frontend took the first answer and may post there again: no
	 * later push writes in that slot.
	 */
	memset(RING_GET_RESPONSE(&front, 0), 0xee, sizeof(*rsp));

	/* Headroom asked for: past it, with the XDP extra in the next slot. */
	netif_back_rx_set_xdp_headroom(&rx, 64);
	post_rx(&front, 0, 7);
	post_rx(&front, 3, 8);
	RING_PUSH_REQUESTS(&front);
	CHECK(netif_back_rx_push(&rx, &m[5], 1, &bell) == 1);
	rsp = RING_GET_RESPONSE(&front, 5);
	CHECK(rsp->id == 7 && rsp->status == 60 && rsp->offset == 64);
	CHECK(rsp->flags == NETRXF_extra_info);
	extra = (const struct netif_extra_info *)RING_GET_RESPONSE(&front, 6);
	CHECK(extra->type == XEN_NETIF_EXTRA_TYPE_XDP);
	CHECK(page_holds(0, 64, 60, 0xa0));
	CHECK(rx.stats.static_packets == 4 && rx.copy.stats.calls == 1);
	CHECK(rx_shared.sring.rsp_prod == 7);

	/* A push of static pages alone publishes its answers too. */
	netif_back_rx_set_xdp_headroom(&rx, 0);
	m[0] = rx_frame(60, 2048, 0xb0);
	REQUIRE(m[0] != NULL);
	post_rx(&front, 2, 9);
	RING_PUSH_REQUESTS(&front);
	CHECK(netif_back_rx_push(&rx, m, 1, &bell) == 1);
	CHECK(rx_shared.sring.rsp_prod == 8 && page_holds(2, 0, 60, 0xb0));
	CHECK(RING_GET_RESPONSE(&front, 7)->id == 9);
	CHECK(rx.stats.static_packets == 5 && rx.stats.packets == 7);
	CHECK(RING_GET_RESPONSE(&front, 0)->id == 0xeeee);
	netif_statics_release(&st);
}

/*
 * With the guest's hash on, a hashed frame into a static grant is
 * answered with its hash extra in the next slot, one the hash does not
 * cover with no extra, and a hashed frame into a buffer that is not a
 * static grant after the grant copy, with its extra; a hashed frame
 * waits while a single buffer is posted.
 */
static void
test_push_with_the_guests_hash_into_static_grants(void)
{
	static union {
		netif_rx_sring_t sring;
		uint8_t page[NETIF_PAGE_SIZE];
	} rx_shared;
	static struct netif_back_rx rx;
	static struct netif_hash h; /* 72 KiB of tables */
	/* The frame, then its extra's buffer, for each hashed frame. */
	static const unsigned int page_of[] = { 0, 3, 2, 10, 5, 4 };
	const struct netif_extra_info *extra;
	netif_rx_front_ring_t front;
	enum netif_doorbell bell;
	struct rte_mbuf *m[4];
	unsigned int i;

	statics_reset();
	CHECK(add(0, 0, 6) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	rx_connect(&rx, &rx_shared.sring, &front);
	ms_rss_hash_on(&h);
	rx.hash = &h;
	for (i = 0; i < 4; i++) {
		m[i] = rx_frame(54, 2048, 0);
		REQUIRE(m[i] != NULL);
		/* The second is not TCP/IPv4: not hashed. */
		if (i != 1)
			memcpy(rte_pktmbuf_mtod(m[i], void *), ms_rss_row1,
			       sizeof(ms_rss_row1));
	}
	for (i = 0; i < RTE_DIM(page_of); i++)
		post_rx(&front, page_of[i], (uint16_t)(i + 1));
	RING_PUSH_REQUESTS(&front);

	CHECK(netif_back_rx_push(&rx, m, 4, &bell) == 3);
	CHECK(rx_shared.sring.rsp_prod == 5);
	/* Static: the frame and its extra; then the unhashed one alone. */
	CHECK(RING_GET_RESPONSE(&front, 0)->id == 1 &&
	      RING_GET_RESPONSE(&front, 0)->status == 54 &&
	      RING_GET_RESPONSE(&front, 0)->flags == NETRXF_extra_info);
	extra = (const struct netif_extra_info *)RING_GET_RESPONSE(&front, 1);
	CHECK(extra->type == XEN_NETIF_EXTRA_TYPE_HASH && extra->flags == 0);
	CHECK(extra->u.hash.value[0] == 0x78 && extra->u.hash.value[3] == 0x51);
	CHECK(RING_GET_RESPONSE(&front, 2)->id == 3 &&
	      RING_GET_RESPONSE(&front, 2)->status == 54 &&
	      RING_GET_RESPONSE(&front, 2)->flags == 0);
	/* Grant copied into page 10, with its extra after it. */
	CHECK(RING_GET_RESPONSE(&front, 3)->id == 4 &&
	      RING_GET_RESPONSE(&front, 3)->status == 54 &&
	      RING_GET_RESPONSE(&front, 3)->flags == NETRXF_extra_info);
	extra = (const struct netif_extra_info *)RING_GET_RESPONSE(&front, 4);
	CHECK(extra->type == XEN_NETIF_EXTRA_TYPE_HASH &&
	      extra->u.hash.value[0] == 0x78);
	CHECK(memcmp(pages + 10 * NETIF_PAGE_SIZE, ms_rss_row1,
		     sizeof(ms_rss_row1)) == 0);
	CHECK(rx.stats.hashed_packets == 2 && rx.stats.static_packets == 2);
	CHECK(rx.copy.stats.calls == 1 && rx.stats.packets == 3);
	/* One buffer left for a frame that takes two: it waits. */
	CHECK(rx.stats.ring_full == 1 && rx.error == NULL);
	rte_pktmbuf_free(m[3]);
	netif_statics_release(&st);
}

static bool
serve_size_only(void *opaque __rte_unused,
		const struct xen_netif_ctrl_request *req,
		struct xen_netif_ctrl_response *rsp, uint32_t *ops __rte_unused)
{
	if (req->type != XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE)
		return false;
	rsp->status = XEN_NETIF_CTRL_STATUS_SUCCESS;
	rsp->data = req->data[0] + 100;
	return true;
}

static union {
	xen_netif_ctrl_sring_t sring;
	uint8_t page[NETIF_PAGE_SIZE];
} ctrl_shared;

static void
test_control_ring_answers_every_request_in_its_slot(void)
{
	struct xen_netif_ctrl_response rsp[4];
	struct netif_ctrl_front front;
	struct netif_ctrl_back back = { .requests = 0 };
	uint16_t id[3];

	memset(&ctrl_shared, 0, sizeof(ctrl_shared));
	netif_ctrl_front_attach(&front, &ctrl_shared.sring);
	REQUIRE(netif_ctrl_back_attach(&back, &ctrl_shared.sring) == 0);
	CHECK(netif_ctrl_front_free(&front) == NETIF_CTRL_RING_SIZE);
	CHECK(netif_ctrl_front_queue(&front,
		XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE, 1, 0, 0, &id[0]));
	CHECK(netif_ctrl_front_queue(&front,
		XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS, 0, 0, 0, &id[1]));
	CHECK(netif_ctrl_front_queue(&front,
		XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE, 2, 0, 0, &id[2]));
	/* Slots are taken until their answers are collected. */
	CHECK(netif_ctrl_front_free(&front) == NETIF_CTRL_RING_SIZE - 3);
	/* A fresh ring asks for the first request's notification. */
	CHECK(netif_ctrl_front_push(&front));
	/* And the frontend asked to hear of the first answer. */
	CHECK(netif_ctrl_back_serve(&back, serve_size_only, NULL,
				    NETIF_CTRL_BACK_BUDGET));
	CHECK(back.requests == 3 && back.not_supported == 1);
	CHECK(ctrl_shared.sring.req_event == 4);
	CHECK(netif_ctrl_front_responses(&front, rsp, 4) == 3);
	CHECK(rsp[0].id == id[0] && rsp[0].data == 101 &&
	      rsp[0].status == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(rsp[1].id == id[1] &&
	      rsp[1].type == XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS &&
	      rsp[1].status == XEN_NETIF_CTRL_STATUS_NOT_SUPPORTED);
	CHECK(rsp[2].id == id[2] && rsp[2].data == 102);
	CHECK(netif_ctrl_front_free(&front) == NETIF_CTRL_RING_SIZE);
	CHECK(ctrl_shared.sring.rsp_event == 4);
	/* Nothing waiting: nothing answered, nothing to notify. */
	CHECK(!netif_ctrl_back_serve(&back, serve_size_only, NULL,
				     NETIF_CTRL_BACK_BUDGET));
}

/* A frontend that posts a new request for every one answered. */
static struct netif_ctrl_front *endless_front;

static bool
serve_and_post_another(void *opaque __rte_unused,
		       const struct xen_netif_ctrl_request *req,
		       struct xen_netif_ctrl_response *rsp,
		       uint32_t *ops __rte_unused)
{
	uint16_t id;

	rsp->status = XEN_NETIF_CTRL_STATUS_SUCCESS;
	rsp->data = req->data[0];
	/* It takes this answer at once, so the ring never fills. */
	endless_front->ring.rsp_cons++;
	if (netif_ctrl_front_queue(endless_front,
				   XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE,
				   0, 0, 0, &id))
		netif_ctrl_front_push(endless_front);
	return true;
}

/* It cannot keep the backend's thread: a ring's worth, then "more". */
static void
test_control_ring_serves_a_ring_worth_at_a_time(void)
{
	struct netif_ctrl_front front;
	struct netif_ctrl_back back = { .requests = 0 };
	uint16_t id;

	memset(&ctrl_shared, 0, sizeof(ctrl_shared));
	netif_ctrl_front_attach(&front, &ctrl_shared.sring);
	REQUIRE(netif_ctrl_back_attach(&back, &ctrl_shared.sring) == 0);
	endless_front = &front;
	CHECK(netif_ctrl_front_queue(&front,
		XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE, 0, 0, 0, &id));
	netif_ctrl_front_push(&front);
	netif_ctrl_back_serve(&back, serve_and_post_another, NULL,
			      NETIF_CTRL_BACK_BUDGET);
	CHECK(back.more && back.requests >= NETIF_CTRL_RING_SIZE);
	CHECK(back.requests < 3 * NETIF_CTRL_RING_SIZE);
	netif_ctrl_back_serve(&back, serve_and_post_another, NULL,
			      NETIF_CTRL_BACK_BUDGET);
	CHECK(back.more && back.requests >= 2 * NETIF_CTRL_RING_SIZE);
	CHECK(back.error == NULL);
}

/*
 * Answers GET_GREF_MAPPING_SIZE, saying that the one for queue 0 took
 * *@opaque grant operations.
 */
static bool
serve_size_reporting(void *opaque, const struct xen_netif_ctrl_request *req,
		     struct xen_netif_ctrl_response *rsp, uint32_t *ops)
{
	if (req->data[0] == 0)
		*ops = *(const uint32_t *)opaque;
	return serve_size_only(NULL, req, rsp, NULL);
}

/*
 * A request is charged what its answer says it took when that is more
 * than its cost (a DEL of one entry that empties a batch unmaps all of
 * it): the turn ends sooner, and what is left waits for the next one.
 */
static void
test_control_ring_charges_what_an_answer_took(void)
{
	struct xen_netif_ctrl_response rsp[4];
	struct netif_ctrl_front front;
	struct netif_ctrl_back back = { .requests = 0 };
	uint32_t took = NETIF_CTRL_BACK_BUDGET - 1;
	unsigned int i;
	uint16_t id;

	memset(&ctrl_shared, 0, sizeof(ctrl_shared));
	netif_ctrl_front_attach(&front, &ctrl_shared.sring);
	REQUIRE(netif_ctrl_back_attach(&back, &ctrl_shared.sring) == 0);
	for (i = 0; i < 3; i++)
		CHECK(netif_ctrl_front_queue(
			&front, XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE, i, 0,
			0, &id));
	netif_ctrl_front_push(&front);
	/* Each costs 1; the first took the budget but one: two fit. */
	netif_ctrl_back_serve(&back, serve_size_reporting, &took,
			      NETIF_CTRL_BACK_BUDGET);
	CHECK(back.requests == 2 && back.more);
	CHECK(back.spent == NETIF_CTRL_BACK_BUDGET);
	/* Answers that say they took less are charged their cost. */
	netif_ctrl_back_serve(&back, serve_size_reporting, &took,
			      NETIF_CTRL_BACK_BUDGET);
	CHECK(back.requests == 3 && !back.more && back.spent == 1);
	CHECK(netif_ctrl_front_responses(&front, rsp, 4) == 3);
	CHECK(rsp[2].data == 102 && back.error == NULL);
}

static void
test_control_ring_indexes_beyond_the_ring_are_errors(void)
{
	struct xen_netif_ctrl_response rsp[4];
	struct netif_ctrl_front front;
	struct netif_ctrl_back back = { .requests = 0 };

	memset(&ctrl_shared, 0, sizeof(ctrl_shared));
	netif_ctrl_front_attach(&front, &ctrl_shared.sring);
	REQUIRE(netif_ctrl_back_attach(&back, &ctrl_shared.sring) == 0);
	ctrl_shared.sring.req_prod = NETIF_CTRL_RING_SIZE + 1;
	CHECK(!netif_ctrl_back_serve(&back, serve_size_only, NULL,
				     NETIF_CTRL_BACK_BUDGET));
	CHECK(back.error != NULL && back.requests == 0);
	/* Once failed, it stays failed. */
	ctrl_shared.sring.req_prod = 1;
	CHECK(!netif_ctrl_back_serve(&back, serve_size_only, NULL,
				     NETIF_CTRL_BACK_BUDGET));
	CHECK(back.requests == 0);
	/* A backend answering what was never asked. */
	ctrl_shared.sring.rsp_prod = 1;
	CHECK(netif_ctrl_front_responses(&front, rsp, 4) == -1);
	CHECK(front.error != NULL);
}

/*
 * Pages of queue pair 0 the backend holds mapped, as the simulated
 * hypervisor counts them: what the queue pair counts, within its limit.
 */
static bool
maps_within_limit(void)
{
	uint32_t maps = backend_maps();

	return maps <= st.limits.queue && maps == sq[0].pages + sq[1].pages &&
	       netif_statics_process_pages() == maps;
}

/* The table of queue pair 0 holds exactly refs [0, @n). */
static bool
table_is(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < 512; i++)
		if ((netif_gref_map_find(sq[0].map, refs[i], false) != NULL) !=
		    (i < n))
			return false;
	return sq[0].grants == n;
}

/* A list of refs [@first, @first + @n), read-only when @ro. */
static uint32_t
gref_list(uint16_t type, unsigned int first, unsigned int n, bool ro)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		list[i] = (struct xen_netif_gref){
			.ref = refs[first + i],
			.flags = ro ? XEN_NETIF_CTRLF_GREF_readonly : 0,
		};
	return request(type, 0, list_ref, n).status;
}

/*
 * ADD 512, DEL 511, ADD those 511 again, DEL 510 of them, ...: each DEL
 * leaves one grant of the batch live, so the batch stays mapped. Added
 * back with the same access, a deleted grant is taken from the mapping it
 * still has: the backend maps no page twice.
 */
static void
test_add_del_again_maps_no_page_twice(void)
{
	unsigned int k;
	bool ok = true;

	statics_reset();
	CHECK(gref_list(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 0, 512, false) ==
	      XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(backend_maps() == 512 && maps_within_limit());
	for (k = 1; ok && k < 512; k++) {
		ok = gref_list(XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING, k, 512 - k,
			       false) == XEN_NETIF_CTRL_STATUS_SUCCESS &&
		     maps_within_limit() && table_is(k);
		ok = ok &&
		     gref_list(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, k, 512 - k,
			       false) == XEN_NETIF_CTRL_STATUS_SUCCESS &&
		     maps_within_limit() && table_is(512);
		if (!ok)
			fprintf(stderr,
				"# step %u: backend maps %u pages, queue pair counts %" PRIu64
				", %" PRIu64 " live\n",
				k, backend_maps(), sq[0].pages, sq[0].grants);
	}
	CHECK(ok);
	CHECK(backend_maps() == 512 && sq[0].maps == 1 &&
	      sq[0].over_limit == 0);
	netif_statics_release(&st);
	CHECK(backend_maps() == 0 && netif_statics_process_pages() == 0);
}

/*
 * The same pattern with new grants each time, so that no mapping can be
 * taken again: the pages of batches kept for their one live grant count,
 * and the ADD that would map past the queue pair's limit is refused whole
 * (INVALID_PARAMETER, netif.h) and counted, the table left as it was.
 * Deleting the last live grants unmaps their batches and makes room.
 */
static void
test_pages_kept_for_live_grants_count_against_the_limit(void)
{
	unsigned int i;

	statics_reset();
	/* Batch A: refs [0, 512); all deleted but ref 0. */
	CHECK(gref_list(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 0, 512, false) ==
	      XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(gref_list(XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING, 1, 511, false) ==
	      XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(backend_maps() == 512 && sq[0].grants == 1 &&
	      maps_within_limit());
	/* Batch B: refs [512, 1023); all deleted but ref 512. */
	CHECK(gref_list(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 512, 511,
			false) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(gref_list(XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING, 513, 510,
			false) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(backend_maps() == 1023 && sq[0].grants == 2 &&
	      maps_within_limit());
	/* 2 live grants, but 1023 pages mapped: 2 more pages are too many. */
	CHECK(gref_list(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 1023, 2, false) ==
	      XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(sq[0].over_limit == 1 && st.stats.refused == 1);
	CHECK(backend_maps() == 1023 && maps_within_limit() &&
	      sq[0].grants == 2);
	for (i = 1023; i < 1025; i++)
		CHECK(netif_gref_map_find(sq[0].map, refs[i], false) == NULL);
	CHECK(netif_gref_map_find(sq[0].map, refs[0], true) != NULL &&
	      netif_gref_map_find(sq[0].map, refs[512], true) != NULL);
	/* One page fits. */
	CHECK(gref_list(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 1023, 1, true) ==
	      XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(backend_maps() == 1024 && maps_within_limit());
	/* Batch A's last grant deleted: its 512 pages unmapped, room again. */
	list[0] = (struct xen_netif_gref){ .ref = refs[0] };
	CHECK(request(XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING, 0, list_ref, 1)
		      .data == 1);
	CHECK(backend_maps() == 512 && maps_within_limit());
	CHECK(gref_list(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 1024, 2, false) ==
	      XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(backend_maps() == 514 && sq[0].over_limit == 1);
	netif_statics_release(&st);
	CHECK(backend_maps() == 0 && netif_statics_process_pages() == 0);
}

/*
 * The vif's and the process's ceilings: across queue pairs, refused and
 * counted on the queue pair asking; GET_GREF_MAPPING_SIZE says the least
 * of the limits.
 */
static void
test_vif_and_process_ceilings_bound_pages(void)
{
	struct netif_statics_queue *qs[QUEUES] = { &sq[0], &sq[1] };
	struct netif_statics_limits lim;
	struct xen_netif_ctrl_response rsp;

	statics_reset();
	netif_statics_release(&st);
	netif_statics_limits_default(&lim);
	lim.vif = 600;
	netif_statics_connect(&st, be, FRONTEND, QUEUES, qs, &lim);
	rsp = request(XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE, 0, 0, 0);
	CHECK(rsp.status == XEN_NETIF_CTRL_STATUS_SUCCESS && rsp.data == 600);
	CHECK(add(0, 0, 400) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(add(1, 400, 201) == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(sq[1].over_limit == 1 && sq[0].over_limit == 0);
	CHECK(sq[1].map == NULL && backend_maps() == 400);
	CHECK(add(1, 400, 200) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(backend_maps() == 600 && netif_statics_process_pages() == 600);
	netif_statics_release(&st);

	/* The process's: pages of every vif, this one's included. */
	netif_statics_limits_default(&lim);
	lim.process = 100;
	netif_statics_connect(&st, be, FRONTEND, QUEUES, qs, &lim);
	rsp = request(XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE, 1, 0, 0);
	CHECK(rsp.data == 100);
	CHECK(add(0, 0, 60) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(add(1, 60, 41) == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(sq[1].over_limit == 2 && netif_statics_process_pages() == 60);
	CHECK(add(1, 60, 40) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(backend_maps() == 100);
	/* A ceiling of 0: no static grants at all. */
	netif_statics_release(&st);
	lim.process = 0;
	netif_statics_connect(&st, be, FRONTEND, QUEUES, qs, &lim);
	CHECK(add(0, 0, 1) == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(backend_maps() == 0 && netif_statics_process_pages() == 0);
}

/*
 * A frontend rewriting every response slot's data while DELs are served:
 * each round's two DELs are two chances for it to write between the
 * backend's start on the slot and its answer.
 */
#define ROUNDS 20000
static volatile bool rewriting;

static void *
rewrite_responses(void *arg __rte_unused)
{
	/* The ring's slots through a pointer: ring[] is declared [1]. */
	union xen_netif_ctrl_sring_entry *slot = ctrl_shared.sring.ring;
	unsigned int i;

	while (__atomic_load_n(&rewriting, __ATOMIC_RELAXED))
		for (i = 0; i < NETIF_CTRL_RING_SIZE; i++)
			/* One DEL's count, added to this, reads 0. */
			__atomic_store_n(&slot[i].rsp.data, UINT32_MAX,
					 __ATOMIC_RELAXED);
	return NULL;
}

static bool
serve_statics(void *opaque __rte_unused,
	      const struct xen_netif_ctrl_request *req,
	      struct xen_netif_ctrl_response *rsp, uint32_t *ops __rte_unused)
{
	return netif_statics_serve(&st, req, rsp);
}

/* DEL @ref of queue pair 0 through the control ring; false: not answered. */
static bool
del_through_ring(struct netif_ctrl_front *front, struct netif_ctrl_back *back,
		 grant_ref_t ref, struct xen_netif_ctrl_response *rsp)
{
	uint16_t id;

	list[0] = (struct xen_netif_gref){ .ref = ref };
	if (!netif_ctrl_front_queue(front, XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING,
				    0, list_ref, 1, &id))
		return false;
	netif_ctrl_front_push(front);
	netif_ctrl_back_serve(back, serve_statics, NULL,
			      NETIF_CTRL_BACK_BUDGET);
	return netif_ctrl_front_responses(front, rsp, 1) == 1;
}

/*
 * Whether a DEL of @ref was answered as done while @ref stays in the
 * table. (The rewriting thread also hits requests, whose data[1] shares
 * the slot with the response's data: such a DEL names no list the guest
 * granted and is refused, which is right.)
 */
static bool
answered_yet_kept(const struct xen_netif_ctrl_response *rsp, grant_ref_t ref)
{
	return rsp->status == XEN_NETIF_CTRL_STATUS_SUCCESS &&
	       netif_gref_map_find(sq[0].map, ref, false) != NULL;
}

/*
 * DEL counts what it removed in our memory: a frontend rewriting the
 * response slot meanwhile cannot make the backend skip the rebuild of the
 * table, leaving a grant it answered as deleted mapped and in the table.
 */
static void
test_del_counts_in_private_memory(void)
{
	struct xen_netif_ctrl_response rsp;
	struct netif_ctrl_front front;
	struct netif_ctrl_back back = { .requests = 0 };
	unsigned int round, r, stale = 0;
	pthread_t thread;
	bool ok = true;

	statics_reset();
	memset(&ctrl_shared, 0, sizeof(ctrl_shared));
	netif_ctrl_front_attach(&front, &ctrl_shared.sring);
	REQUIRE(netif_ctrl_back_attach(&back, &ctrl_shared.sring) == 0);
	__atomic_store_n(&rewriting, true, __ATOMIC_RELAXED);
	REQUIRE(pthread_create(&thread, NULL, rewrite_responses, NULL) == 0);
	for (round = 0; ok && round < ROUNDS; round++) {
		r = 2 * (round % 256);
		/* Two grants in a batch, one deleted: the batch stays. */
		ok = add(0, r, 2) == XEN_NETIF_CTRL_STATUS_SUCCESS &&
		     del_through_ring(&front, &back, refs[r], &rsp);
		if (!ok)
			break;
		stale += answered_yet_kept(&rsp, refs[r]);
		/* The other one deleted: its batch is unmapped. */
		ok = del_through_ring(&front, &back, refs[r + 1], &rsp);
		stale += answered_yet_kept(&rsp, refs[r + 1]);
		/* What a skipped rebuild left: start afresh. */
		if (sq[0].batches != NULL)
			statics_reset();
	}
	__atomic_store_n(&rewriting, false, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	if (stale > 0)
		fprintf(stderr, "# %u of %u DELs left the grant in the table\n",
			stale, 2 * round);
	CHECK(ok && round == ROUNDS && stale == 0);
	CHECK(back.error == NULL);
	netif_statics_release(&st);
	CHECK(backend_maps() == 0);
}

static int
setup(const char *argv0)
{
	if (test_eal_pool_setup(argv0) != 0 || xsim_test_setup(argv0) != 0)
		return -1;
	be = open_dom(BACKEND);
	fe = open_dom(FRONTEND);
	if (be == NULL || fe == NULL ||
	    xa_gnt_share_set_limit(fe, 2 * PAGES) != 0)
		return -1;
	pages = xa_gnt_share(fe, BACKEND, PAGES, refs, true);
	list = xa_gnt_share(fe, BACKEND, 1, &list_ref, true);
	ro_list = xa_gnt_share(fe, BACKEND, 1, &ro_list_ref, false);
	return pages != NULL && list != NULL && ro_list != NULL ? 0 : -1;
}

static void
teardown(void)
{
	xa_gnt_unshare(fe, ro_list, 1);
	xa_gnt_unshare(fe, list, 1);
	xa_gnt_unshare(fe, pages, PAGES);
	xa_close(fe);
	xa_close(be);
	xsim_test_teardown();
	test_eal_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_mapping_size_is_per_queue_pair);
	RUN(test_add_maps_once_per_access_mode);
	RUN(test_add_of_a_grant_not_given_maps_nothing);
	RUN(test_add_beyond_the_mapping_size_is_refused);
	RUN(test_duplicates_and_unknown_flags_are_refused);
	RUN(test_del_reports_each_entry_and_unmaps_emptied_batches);
	RUN(test_other_types_are_not_ours);
	RUN(test_data_path_copies_mapped_pages_without_grant_copy);
	RUN(test_data_path_keeps_ring_order_around_a_grant_copy);
	RUN(test_push_writes_static_buffers_at_once_around_copies);
	RUN(test_push_with_the_guests_hash_into_static_grants);
	RUN(test_control_ring_answers_every_request_in_its_slot);
	RUN(test_control_ring_serves_a_ring_worth_at_a_time);
	RUN(test_control_ring_charges_what_an_answer_took);
	RUN(test_control_ring_indexes_beyond_the_ring_are_errors);
	RUN(test_add_del_again_maps_no_page_twice);
	RUN(test_pages_kept_for_live_grants_count_against_the_limit);
	RUN(test_vif_and_process_ceilings_bound_pages);
	RUN(test_del_counts_in_private_memory);
}
