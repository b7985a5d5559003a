/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Static grants and the control ring, with pages a frontend domain really
 * grants through the simulated hypervisor. netif_statics_serve() answers
 * GET/ADD/DEL_GREF_MAPPING as netif.h says: per queue pair, a size of
 * NETIF_STATICS_PER_QUEUE, an ADD mapped whole (one call per access mode)
 * or not at all, a DEL reporting each entry's status; whatever the guest
 * lists is copied once and checked (unknown or foreign grants, duplicates,
 * bad flags, too many). The data path then copies from and to the mapped
 * pages without a grant copy, and a guest rewriting its page after the
 * pull cannot change the packet we hold. The control ring answers every
 * request in its slot, NOT_SUPPORTED for types nobody serves, and an
 * impossible index on either side is an error.
 */

#include <string.h>

#include "netif_back.h"
#include "netif_ctrl.h"
#include "netif_statics.h"
#include "test.h"
#include "test_eal.h"
#include "xsim/xsim_test.h"

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

	netif_statics_release(&st);
	memset(sq, 0, sizeof(sq));
	memset(&st, 0, sizeof(st));
	st.quiesce = count_quiesce;
	netif_statics_connect(&st, be, FRONTEND, QUEUES, qs);
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
	SHARED_RING_INIT(&rx_shared.sring);
	FRONT_RING_INIT(&rx_front, &rx_shared.sring, NETIF_PAGE_SIZE);
	netif_back_tx_setup(&tx, test_pool, 0);
	REQUIRE(netif_back_tx_connect(&tx, &tx_shared.sring, be, FRONTEND) ==
		0);
	REQUIRE(netif_back_rx_connect(&rx, &rx_shared.sring, be, FRONTEND) ==
		0);
	tx.statics = rx.statics = &sq[0].map;

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

static bool
serve_size_only(void *opaque __rte_unused,
		const struct xen_netif_ctrl_request *req,
		struct xen_netif_ctrl_response *rsp)
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
		       struct xen_netif_ctrl_response *rsp)
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
	RUN(test_control_ring_answers_every_request_in_its_slot);
	RUN(test_control_ring_serves_a_ring_worth_at_a_time);
	RUN(test_control_ring_indexes_beyond_the_ring_are_errors);
}
