/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest TX lent to the application (netif_lend.h), with pages a frontend
 * domain really grants through the simulated hypervisor and the backend
 * maps as static grants. A packet whose slots are all mapped comes out as
 * a copied head and external segments on the mapped pages, answered only
 * when the application frees it; short frames and unmapped grants are
 * copied as before, offloads completed in the head; a pull lends in ring
 * order, and the application never holds more than half of the ring's
 * slots; a lent page is neither deleted (DEL answers that entry
 * INVALID_PARAMETER) nor unmapped by a disconnect until it is given back;
 * a reconnect never answers the old connection's loans on the new ring,
 * and a lender destroyed under held mbufs lives until the last one is
 * freed; loans freed on another thread, or marked given back before they
 * are counted, are each answered once.
 */

#include <pthread.h>
#include <string.h>

#include "netif_back.h"
#include "netif_lend.h"
#include "netif_statics.h"
#include "test.h"
#include "test_eal.h"
#include "tx_guest.h"
#include "xsim/xsim_test.h"

#define BACKEND 0
#define FRONTEND 1
#define PAGES 8

static struct xa_handle *be, *fe;
static grant_ref_t refs[PAGES];
static grant_ref_t unmapped_ref;	/* granted, never ADDed */
static uint8_t *unmapped;
static struct xen_netif_gref *list;	/* its list page */
static grant_ref_t list_ref;

static struct netif_statics st;
static struct netif_statics_queue sq;

static void
no_quiesce(void *opaque __rte_unused, unsigned int q __rte_unused)
{
}

static uint32_t
gref_op(uint16_t type, unsigned int first, unsigned int n, uint32_t *status)
{
	struct xen_netif_ctrl_request req = {
		.type = type, .data = { 0, list_ref, n },
	};
	struct xen_netif_ctrl_response rsp;
	unsigned int i;

	for (i = 0; i < n; i++)
		list[i] = (struct xen_netif_gref){ .ref = refs[first + i] };
	CHECK(netif_statics_serve(&st, &req, &rsp));
	if (status != NULL)
		*status = list[0].status;
	return rsp.status;
}

/* Static grants on every page, a fresh lender @l, a fresh ring. */
static struct netif_lend *l;

static void
start(void)
{
	struct netif_statics_queue *qs[1] = { &sq };
	struct netif_statics_limits lim;

	l = netif_lend_create("test_lend", SOCKET_ID_ANY);
	REQUIRE(l != NULL);
	memset(&sq, 0, sizeof(sq));
	memset(&st, 0, sizeof(st));
	st.quiesce = no_quiesce;
	sq.lend = l;
	netif_statics_limits_default(&lim);
	netif_statics_connect(&st, be, FRONTEND, 1, qs, &lim);
	REQUIRE(gref_op(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 0, PAGES,
			NULL) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	tx_guest_ring_reset();
	memset(&tx, 0, sizeof(tx));
	netif_back_tx_setup(&tx, test_pool, 0);
	tx.lend = l;
	REQUIRE(netif_back_tx_connect(&tx, &shared.sring, be, FRONTEND) == 0);
	tx.statics = &sq.map;
}

static void
stop(void)
{
	netif_back_tx_release(&tx);
	netif_statics_release(&st);
	CHECK(netif_statics_reap(&st) == 0);
	CHECK(netif_lend_destroy(l) == 0);
}

static void
test_a_mapped_packet_is_lent_and_answered_when_freed(void)
{
	start();
	enum netif_doorbell bell;
	struct rte_mbuf *m, *none[1];
	uint8_t copy[1000];

	fill(0, 1);
	send_frame(refs[0], 1000, 7, 0);
	m = pull_one();
	REQUIRE(m != NULL);
	CHECK(tx.stats.zero_copy_packets == 1 && tx.stats.zero_copy_slots == 1);
	CHECK(tx.copy.stats.calls == 0);
	/* The head is ours, the rest is the guest's page itself. */
	CHECK(m->nb_segs == 2 && m->data_len == NETIF_LEND_HEAD &&
	      m->pkt_len == 1000);
	CHECK(RTE_MBUF_HAS_EXTBUF(m->next) &&
	      rte_pktmbuf_mtod(m->next, uint8_t *) ==
	      netif_gref_map_find(sq.map, refs[0], false) + NETIF_LEND_HEAD);
	CHECK(memcmp(rte_pktmbuf_read(m, 0, 1000, copy), pages, 1000) == 0);
	/* Headers cannot be changed under us; unanswered while held. */
	pages[12] ^= 0xff;
	CHECK(rte_pktmbuf_mtod(m, uint8_t *)[12] == (uint8_t)(12 * 7 + 1));
	CHECK(answered() == 0);
	CHECK(netif_back_tx_pull(&tx, none, 1, &bell) == 0 && answered() == 0);
	rte_pktmbuf_free(m);
	CHECK(netif_back_tx_pull(&tx, none, 1, &bell) == 0);
	CHECK(answered() == 1);
	CHECK(RING_GET_RESPONSE(&front, 0)->id == 7 &&
	      RING_GET_RESPONSE(&front, 0)->status == NETIF_RSP_OKAY);
	CHECK(tx.stats.zero_copy_slots == 0);
	stop();
}

static void
test_a_packet_over_three_pages_is_lent_in_four_segments(void)
{
	start();
	netif_tx_request_t *req;
	struct rte_mbuf *m;
	static uint8_t copy[9000], want[9000];
	unsigned int s;

	for (s = 0; s < 3; s++)
		fill(s, (uint8_t)s);
	memcpy(want, pages, 4000);
	memcpy(want + 4000, pages + NETIF_PAGE_SIZE, 4000);
	memcpy(want + 8000, pages + 2 * NETIF_PAGE_SIZE, 1000);
	for (s = 0; s < 3; s++) {
		req = RING_GET_REQUEST(&front, front.req_prod_pvt++);
		*req = (netif_tx_request_t){
			.gref = refs[s], .id = s,
			.size = s == 0 ? 9000 : s == 1 ? 4000 : 1000,
			.flags = s < 2 ? NETTXF_more_data : 0,
		};
	}
	RING_PUSH_REQUESTS(&front);
	m = pull_one();
	REQUIRE(m != NULL);
	CHECK(m->nb_segs == 4 && m->pkt_len == 9000);
	CHECK(memcmp(rte_pktmbuf_read(m, 0, 9000, copy), want, 9000) == 0);
	CHECK(tx.stats.zero_copy_slots == 3);
	rte_pktmbuf_free(m);
	CHECK(netif_lend_answer(l, &tx.ring) == 1);
	RING_PUSH_RESPONSES(&tx.ring);
	CHECK(answered() == 3);
	stop();
}

/* An empty slot (XSA-448) is no segment, and takes no mbuf. */
static void
test_an_empty_slot_is_lent_as_nothing(void)
{
	unsigned int in_use = rte_mempool_in_use_count(test_pool);
	netif_tx_request_t *req;
	static uint8_t copy[1000], want[1000];
	struct rte_mbuf *m;

	start();
	fill(0, 5);
	fill(2, 6);
	memcpy(want, pages, 600);
	memcpy(want + 600, pages + 2 * NETIF_PAGE_SIZE, 400);
	req = RING_GET_REQUEST(&front, front.req_prod_pvt++);
	*req = (netif_tx_request_t){ .gref = refs[0], .size = 1000, .id = 0,
				     .flags = NETTXF_more_data };
	req = RING_GET_REQUEST(&front, front.req_prod_pvt++);
	*req = (netif_tx_request_t){ .gref = refs[1], .size = 0, .id = 1,
				     .flags = NETTXF_more_data };
	req = RING_GET_REQUEST(&front, front.req_prod_pvt++);
	*req = (netif_tx_request_t){ .gref = refs[2], .size = 400, .id = 2 };
	RING_PUSH_REQUESTS(&front);
	m = pull_one();
	REQUIRE(m != NULL);
	CHECK(m->nb_segs == 3 && m->pkt_len == 1000);
	CHECK(memcmp(rte_pktmbuf_read(m, 0, 1000, copy), want, 1000) == 0);
	rte_pktmbuf_free(m);
	CHECK(netif_lend_answer(l, &tx.ring) == 1);
	stop();
	CHECK(rte_mempool_in_use_count(test_pool) == in_use);
}

static void
test_short_or_unmapped_packets_are_copied(void)
{
	start();
	struct rte_mbuf *m;

	fill(0, 0);
	send_frame(refs[0], NETIF_LEND_STATIC_MIN_LEN - 1, 1, 0);
	send_frame(unmapped_ref, 1000, 3, 0);
	m = pull_one();
	CHECK(m != NULL && m->nb_segs == 1 && !RTE_MBUF_HAS_EXTBUF(m));
	rte_pktmbuf_free(m);
	m = pull_one();
	/* The short one was read from its static grant, without a call. */
	CHECK(m != NULL && !RTE_MBUF_HAS_EXTBUF(m) && tx.copy.stats.calls == 1);
	rte_pktmbuf_free(m);
	CHECK(tx.stats.zero_copy_packets == 0 && answered() == 2);
	/*
	 * As short in two slots (the general path), with mapping on: copied
	 * from the static grants, never mapped.
	 */
	tx.map_min = 1;
	send_frame(refs[1], NETIF_LEND_STATIC_MIN_LEN - 1, 4, NETTXF_more_data);
	send_frame(refs[2], 211, 5, 0);
	m = pull_one();
	CHECK(m != NULL && m->nb_segs == 1 && tx.stats.zero_copy_packets == 0);
	CHECK(tx.stats.map_calls == 0);
	rte_pktmbuf_free(m);
	/* From that length on, lent. */
	send_frame(refs[0], NETIF_LEND_STATIC_MIN_LEN, 2, 0);
	m = pull_one();
	CHECK(m != NULL && m->nb_segs == 2 && tx.stats.zero_copy_packets == 1);
	rte_pktmbuf_free(m);
	stop();
}

/*
 * An offload is completed in the copied head: lent like any packet, and
 * dropped as a copy would be when it cannot take it (a blank checksum on
 * a frame without TCP or UDP), its answer OKAY once freed.
 */
static void
test_an_offloaded_packet_is_lent_and_dropped_as_a_copy(void)
{
	start();
	enum netif_doorbell bell;
	struct rte_mbuf *m;

	fill(0, 0);
	send_frame(refs[0], 1000, 2, NETTXF_csum_blank);
	CHECK(netif_back_tx_pull(&tx, &m, 1, &bell) == 0);
	CHECK(tx.stats.zero_copy_packets == 1 && tx.stats.drop_bad_csum == 1);
	CHECK(tx.copy.stats.calls == 0);
	CHECK(netif_back_tx_pull(&tx, &m, 1, &bell) == 0);
	CHECK(answered() == 1 &&
	      RING_GET_RESPONSE(&front, 0)->status == NETIF_RSP_OKAY);
	stop();
}

static void
test_the_application_holds_at_most_half_the_ring(void)
{
	start();
	static struct rte_mbuf *held[NETIF_TX_RING_SIZE];
	enum netif_doorbell bell;
	unsigned int i, n = 0;
	uint16_t got;

	fill(0, 0);
	for (i = 0; i < NETIF_TX_RING_SIZE - 1; i++)
		send_frame(refs[i % PAGES], 1000, i, 0);
	while ((got = netif_back_tx_pull(&tx, &held[n], 32, &bell)) > 0)
		n += got;
	CHECK(n == NETIF_TX_RING_SIZE - 1);
	CHECK(tx.stats.zero_copy_packets == NETIF_LEND_SLOTS);
	CHECK(tx.stats.zero_copy_slots == NETIF_LEND_SLOTS);
	/* What was copied is answered: the guest keeps half its ring. */
	CHECK(answered() == NETIF_TX_RING_SIZE - 1 - NETIF_LEND_SLOTS);
	rte_pktmbuf_free_bulk(held, n);
	CHECK(netif_back_tx_pull(&tx, held, 1, &bell) == 0);
	CHECK(answered() == NETIF_TX_RING_SIZE - 1);
	stop();
}

/*
 * A pull lends in ring order whichever way a packet goes: one request
 * (taken in the pull's first pass), one with a hash extra (answered
 * NETIF_RSP_NULL in the extra's slot), packets of two slots, then one
 * request again. The bound counts ring slots, not packets: once the loans
 * hold NETIF_LEND_SLOTS of them, a packet of one request is copied.
 */
static void
test_a_pull_lends_in_ring_order_within_the_bound(void)
{
	start();
	/* 1 + 1 + 2 x 62 slots lent, then 2 of one request fill the bound. */
	const unsigned int pairs = (NETIF_LEND_SLOTS - 4) / 2;
	const unsigned int total = 2 + pairs + 3;
	static struct rte_mbuf *m[NETIF_LEND_SLOTS];
	static bool seen[NETIF_TX_RING_SIZE];
	union xengnttab_copy_ptr src;
	struct netif_extra_info *extra;
	unsigned int i, n = 0, nulls = 0;
	enum netif_doorbell bell;
	uint16_t got, id = 0;

	tx.port = 5;
	fill(0, 1);
	send_frame(refs[0], 1000, id++, 0);
	send_frame(refs[1], 1001, id++, NETTXF_extra_info);
	extra = (void *)RING_GET_REQUEST(&front, front.req_prod_pvt++);
	memset(extra, 0, sizeof(*extra));
	extra->type = XEN_NETIF_EXTRA_TYPE_HASH;
	extra->u.hash.type = _XEN_NETIF_CTRL_HASH_TYPE_IPV4;
	for (i = 0; i < pairs; i++) {
		send_frame(refs[2], 2000 + i, id++, NETTXF_more_data);
		send_frame(refs[3], 1000, id++, 0);
	}
	for (i = 0; i < 3; i++)
		send_frame(refs[4], 1100 + i, id++, 0);
	while ((got = netif_back_tx_pull(&tx, &m[n], 32, &bell)) > 0)
		n += got;
	REQUIRE(n == total);
	CHECK(m[0]->pkt_len == 1000 && m[1]->pkt_len == 1001);
	for (i = 0; i < pairs; i++)
		CHECK(m[2 + i]->pkt_len == 2000 + i && m[2 + i]->nb_segs == 3);
	for (i = 0; i < 3; i++)
		CHECK(m[2 + pairs + i]->pkt_len == 1100 + i);
	for (i = 0; i < total; i++)
		CHECK(m[i]->port == 5);
	CHECK(memcmp(rte_pktmbuf_mtod(m[0], uint8_t *), pages,
		     NETIF_LEND_HEAD) == 0);
	/* Sent on to a guest, its lent part is copied by grant. */
	CHECK(netif_lend_source(m[0]->next, 0, &src) &&
	      src.foreign.ref == refs[0] &&
	      src.foreign.offset == NETIF_LEND_HEAD &&
	      src.foreign.domid == FRONTEND);
	CHECK(tx.stats.zero_copy_packets == total - 1);
	CHECK(tx.stats.zero_copy_slots == NETIF_LEND_SLOTS);
	CHECK(RTE_MBUF_HAS_EXTBUF(m[total - 2]->next));
	CHECK(m[total - 1]->nb_segs == 1 && !RTE_MBUF_HAS_EXTBUF(m[total - 1]));
	/* The copy is answered at once, the loans once freed. */
	CHECK(answered() == 1 && RING_GET_RESPONSE(&front, 0)->id == id - 1);
	rte_pktmbuf_free_bulk(m, n);
	CHECK(netif_back_tx_pull(&tx, m, 1, &bell) == 0);
	CHECK(answered() == front.req_prod_pvt);
	for (i = 0; i < answered(); i++) {
		const netif_tx_response_t *rsp = RING_GET_RESPONSE(&front, i);

		if (rsp->status == NETIF_RSP_NULL) {
			nulls++;
			continue;
		}
		CHECK(rsp->status == NETIF_RSP_OKAY && rsp->id < id &&
		      !seen[rsp->id]);
		seen[rsp->id % NETIF_TX_RING_SIZE] = true;
	}
	CHECK(nulls == 1 && tx.stats.zero_copy_slots == 0);
	stop();
}

static void
test_a_lent_page_is_not_deleted_nor_unmapped(void)
{
	start();
	struct rte_mbuf *m;
	uint32_t status;
	uint64_t unmaps;

	fill(0, 3);
	send_frame(refs[0], 1000, 1, 0);
	m = pull_one();
	REQUIRE(m != NULL && RTE_MBUF_HAS_EXTBUF(m->next));
	CHECK(gref_op(XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING, 0, 1, &status) ==
	      XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(status == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(st.stats.in_use == 1 && sq.grants == PAGES);
	/* The guest goes: the batch stays mapped for the held packet. */
	unmaps = sq.unmaps;
	netif_statics_release(&st);
	CHECK(sq.unmaps == unmaps && netif_statics_reap(&st) == 1);
	CHECK(rte_pktmbuf_mtod(m->next, uint8_t *)[0] ==
	      (uint8_t)(NETIF_LEND_HEAD * 7 + 3));
	rte_pktmbuf_free(m);
	CHECK(netif_statics_reap(&st) == 0 && sq.unmaps == unmaps + 1);
	stop();
}

static void
test_a_reconnect_answers_no_old_loan(void)
{
	start();
	enum netif_doorbell bell;
	struct rte_mbuf *m, *none[1];

	send_frame(refs[0], 1000, 1, 0);
	m = pull_one();
	REQUIRE(m != NULL);
	tx_guest_ring_reset();
	REQUIRE(netif_back_tx_connect(&tx, &shared.sring, be, FRONTEND) == 0);
	rte_pktmbuf_free(m);
	CHECK(netif_back_tx_pull(&tx, none, 1, &bell) == 0);
	CHECK(answered() == 0 && l->nb_free == NETIF_LEND_SLOTS);
	stop();
}

static void
test_a_lender_destroyed_under_held_mbufs_waits_for_them(void)
{
	start();
	struct rte_mbuf *m;

	send_frame(refs[0], 1000, 1, 0);
	m = pull_one();
	REQUIRE(m != NULL);
	netif_back_tx_release(&tx);
	netif_statics_release(&st);
	CHECK(netif_lend_destroy(l) == 1);
	/* The last free frees the lender (the sanitizer build sees it). */
	rte_pktmbuf_free(m);
	CHECK(netif_statics_reap(&st) == 0);
}

struct frees {
	struct rte_mbuf **m;
	unsigned int n;
};

static void *
free_all(void *arg)
{
	struct frees *f = arg;
	unsigned int i;

	/* Every other one first: loans come back out of their order. */
	for (i = 0; i < f->n; i += 2)
		rte_pktmbuf_free(f->m[i]);
	for (i = 1; i < f->n; i += 2)
		rte_pktmbuf_free(f->m[i]);
	return NULL;
}

/*
 * Loans freed on a thread that is not the queue's are answered by its next
 * pull, every one once, round after round.
 */
static void
test_loans_freed_on_another_thread_are_answered(void)
{
	start();
	static struct rte_mbuf *m[32];
	struct frees f = { m, RTE_DIM(m) };
	enum netif_doorbell bell;
	unsigned int round, i, n;
	pthread_t t;

	for (round = 0; round < 5; round++) {
		for (i = 0; i < RTE_DIM(m); i++)
			send_frame(refs[i % PAGES], 1000, i, 0);
		for (n = 0; n < RTE_DIM(m);)
			n += netif_back_tx_pull(&tx, &m[n], RTE_DIM(m) - n,
						&bell);
		CHECK(netif_lend_held(l) == RTE_DIM(m));
		REQUIRE(pthread_create(&t, NULL, free_all, &f) == 0);
		REQUIRE(pthread_join(t, NULL) == 0);
		CHECK(netif_lend_held(l) == 0);
		CHECK(netif_back_tx_pull(&tx, m, 1, &bell) == 0);
		CHECK(answered() == (round + 1) * RTE_DIM(m));
	}
	CHECK(tx.stats.zero_copy_slots == 0);
	stop();
}

/*
 * A free marks its loan given back, then counts it: a pull between the two
 * sees the mark before the count. It takes that loan too, answers it once,
 * and is not misled when the count comes (the count is held back here by
 * hand, as a thread stopped between the two would).
 */
static void
test_a_loan_marked_before_it_is_counted_is_answered_once(void)
{
	start();
	struct rte_mbuf *a, *b, *c;
	enum netif_doorbell bell;

	send_frame(refs[0], 1000, 1, 0);
	send_frame(refs[1], 1000, 2, 0);
	a = pull_one();
	b = pull_one();
	REQUIRE(a != NULL && b != NULL);
	__atomic_add_fetch(&l->refs, 1, __ATOMIC_ACQ_REL);
	rte_pktmbuf_free(a);	/* marked, its count held back */
	CHECK(netif_back_tx_pull(&tx, &c, 1, &bell) == 0 && answered() == 0);
	rte_pktmbuf_free(b);
	CHECK(netif_back_tx_pull(&tx, &c, 1, &bell) == 0 && answered() == 2);
	__atomic_sub_fetch(&l->refs, 1, __ATOMIC_ACQ_REL);	/* a's count */
	CHECK(netif_back_tx_pull(&tx, &c, 1, &bell) == 0 && answered() == 2);
	send_frame(refs[2], 1000, 3, 0);
	c = pull_one();
	REQUIRE(c != NULL);
	rte_pktmbuf_free(c);
	CHECK(netif_back_tx_pull(&tx, &c, 1, &bell) == 0 && answered() == 3);
	CHECK(netif_lend_held(l) == 0 && l->nb_free == NETIF_LEND_SLOTS);
	stop();
}

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
	unmapped = xa_gnt_share(fe, BACKEND, 1, &unmapped_ref, true);
	list = xa_gnt_share(fe, BACKEND, 1, &list_ref, true);
	return pages != NULL && list != NULL && unmapped != NULL ? 0 : -1;
}

static void
teardown(void)
{
	xa_gnt_unshare(fe, list, 1);
	xa_gnt_unshare(fe, unmapped, 1);
	xa_gnt_unshare(fe, pages, PAGES);
	xa_close(fe);
	xa_close(be);
	xsim_test_teardown();
	test_eal_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_a_mapped_packet_is_lent_and_answered_when_freed);
	RUN(test_a_packet_over_three_pages_is_lent_in_four_segments);
	RUN(test_an_empty_slot_is_lent_as_nothing);
	RUN(test_short_or_unmapped_packets_are_copied);
	RUN(test_an_offloaded_packet_is_lent_and_dropped_as_a_copy);
	RUN(test_the_application_holds_at_most_half_the_ring);
	RUN(test_a_pull_lends_in_ring_order_within_the_bound);
	RUN(test_a_lent_page_is_not_deleted_nor_unmapped);
	RUN(test_a_reconnect_answers_no_old_loan);
	RUN(test_a_lender_destroyed_under_held_mbufs_waits_for_them);
	RUN(test_loans_freed_on_another_thread_are_answered);
	RUN(test_a_loan_marked_before_it_is_counted_is_answered_once);
}
