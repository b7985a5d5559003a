/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest TX lent to the application (see netif_lend.h): the loans, their
 * chains, and their answers.
 */

#include <string.h>
#include <sys/mman.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "netif_l2.h"
#include "netif_lend.h"

static void lend_returned(void *addr, void *opaque);

struct netif_lend *
netif_lend_create(const char *name, int socket)
{
	struct netif_lend *l;
	unsigned int i;

	l = rte_zmalloc_socket(name, sizeof(*l), RTE_CACHE_LINE_SIZE, socket);
	if (l == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	l->refs = NETIF_LEND_OWNED;
	l->next_hold_check = UINT64_MAX;
	l->iova_va = rte_eal_iova_mode() == RTE_IOVA_VA;
	for (i = 0; i < NETIF_LEND_SLOTS; i++) {
		l->loans[i].lend = l;
		l->loans[i].idx = i;
		l->loans[i].shinfo.free_cb = lend_returned;
		l->loans[i].shinfo.fcb_opaque = &l->loans[i];
		l->free[l->nb_free++] = NETIF_LEND_SLOTS - 1 - i;
		l->free_batches[l->nb_free_batches++] =
			NETIF_LEND_SLOTS - 1 - i;
	}
	return l;
}

/* Undo @b's mapping, or free the copy that replaced it; @b is free then. */
static void
lend_unmap(struct netif_lend *l, struct netif_lend_batch *b)
{
	if (b->let_go) {
		munmap(b->addr, (size_t)b->pages * XA_PAGE_SIZE);
	} else {
		/* A failure can only be ours (a wrong address): counted. */
		if (xa_gnt_unmap(l->xa, b->addr, b->pages) != 0)
			l->unmap_failed++;
		l->unmaps++;
	}
	b->addr = NULL;
	l->free_batches[l->nb_free_batches++] = b - l->batches;
}

/* Take @n off the references; the last one frees the lender. */
static void
lend_unref(struct netif_lend *l, uint64_t n)
{
	unsigned int i;

	if (__atomic_sub_fetch(&l->refs, n, __ATOMIC_ACQ_REL) != 0)
		return;
	/* Every loan is back: the mappings no answer undid go now. */
	for (i = 0; i < NETIF_LEND_SLOTS; i++)
		if (l->batches[i].addr != NULL)
			lend_unmap(l, &l->batches[i]);
	if (l->on_last != NULL)
		l->on_last(l->on_last_arg);
	rte_free(l);
}

/* Loans the application holds, the owner's view (it holds @l). */
static unsigned int
lend_held(const struct netif_lend *l)
{
	uint64_t freed =
		NETIF_LEND_OWNED - __atomic_load_n(&l->refs, __ATOMIC_ACQUIRE);

	return l->lent - freed;
}

void
netif_lend_on_last(struct netif_lend *l, void (*fn)(void *arg), void *arg)
{
	l->on_last = fn;
	l->on_last_arg = arg;
}

unsigned int
netif_lend_destroy(struct netif_lend *l)
{
	unsigned int held;

	if (l == NULL)
		return 0;
	held = lend_held(l);
	/* What is left is what the application holds. */
	lend_unref(l, NETIF_LEND_OWNED - l->lent);
	return held;
}

void
netif_lend_set_hold(struct netif_lend *l, uint64_t cycles)
{
	l->hold = cycles;
}

unsigned int
netif_lend_held(const struct netif_lend *l)
{
	return l == NULL ? 0 : lend_held(l);
}

void
netif_lend_connect(struct netif_lend *l, struct xa_handle *xa, domid_t domid)
{
	if (l == NULL)
		return;
	l->xa = xa;
	l->domid = domid;
	l->gen++;
	l->slots = 0;
}

/* The free callback of a loan's segments: on the thread that frees. */
static void
lend_returned(void *addr __rte_unused, void *opaque)
{
	struct netif_loan *loan = opaque;
	struct netif_lend *l = loan->lend;

	/* Its pages may be unmapped now (netif_lend_holds()). */
	__atomic_store_n(&loan->nr_pages, 0, __ATOMIC_RELEASE);
	/* Seen by the pull that sees the decrement (netif_lend_answer()). */
	__atomic_store_n(&l->back[loan->idx], 1, __ATOMIC_RELEASE);
	lend_unref(l, 1);
}

static inline uint32_t
headers_len(const struct rte_mbuf *m)
{
	return (uint32_t)m->l2_len + m->l3_len + m->l4_len;
}

bool
netif_lend_headers(struct rte_mbuf *m)
{
	uint32_t want = headers_len(m);

	if (want <= rte_pktmbuf_data_len(m))
		return true;
	if (want > rte_pktmbuf_data_len(m) + rte_pktmbuf_tailroom(m) ||
	    want > rte_pktmbuf_pkt_len(m))
		return false;
	while (rte_pktmbuf_data_len(m) < want) {
		struct rte_mbuf *seg = m->next;
		uint16_t n = RTE_MIN(want - rte_pktmbuf_data_len(m),
				     rte_pktmbuf_data_len(seg));

		rte_memcpy(rte_pktmbuf_mtod_offset(m, uint8_t *, m->data_len),
			   rte_pktmbuf_mtod(seg, uint8_t *), n);
		m->data_len += n;
		seg->data_off += n;
		seg->data_len -= n;
		if (seg->data_len == 0) {
			/* The last piece of a page may answer the loan now. */
			m->next = seg->next;
			m->nb_segs--;
			rte_pktmbuf_free_seg(seg);
		}
	}
	/* The first walk read what the guest may have changed since. */
	netif_l2_classify(m);
	return headers_len(m) <= rte_pktmbuf_data_len(m);
}

bool
netif_lend_static(const struct netif_tx_packet *pkt,
		  const struct netif_gref_map *statics, const uint8_t **pages)
{
	unsigned int s;

	if (statics == NULL)
		return false;
	for (s = 0; s < pkt->nr_slots; s++) {
		pages[s] = netif_gref_map_find(statics, pkt->slots[s].gref,
					       false);
		if (pages[s] == NULL)
			return false;
	}
	return true;
}

struct netif_lend_batch *
netif_lend_map(struct netif_lend *l, const struct netif_tx_packet *const *pkts,
	       unsigned int n, domid_t domid)
{
	/* The bound keeps a batch within what is lent at once. */
	grant_ref_t refs[NETIF_LEND_SLOTS];
	struct netif_lend_batch *b;
	unsigned int i, s, pages = 0;
	void *addr;

	for (i = 0; i < n; i++)
		for (s = 0; s < pkts[i]->nr_slots; s++)
			refs[pages++] = pkts[i]->slots[s].gref;
	addr = l->nb_free_batches > 0 ?
		       xa_gnt_map(l->xa, domid, pages, refs, false) :
		       NULL;
	if (addr == NULL) {
		l->map_failed++;
		return NULL;
	}
	b = &l->batches[l->free_batches[--l->nb_free_batches]];
	b->addr = addr;
	b->pages = pages;
	b->held = 0;
	b->first = NETIF_LEND_NONE;
	__atomic_store_n(&b->let_go, false, __ATOMIC_RELAXED);
	if (l->hold != 0) {
		b->lent_at = rte_get_timer_cycles();
		l->next_hold_check =
			RTE_MIN(l->next_hold_check, b->lent_at + l->hold);
	}
	l->map_calls++;
	return b;
}

unsigned int
netif_lend_mbufs(const struct netif_tx_packet *pkt)
{
	unsigned int s, n = 1;
	uint32_t at = 0;

	/* A slot ending past the head has a piece, unless it is empty. */
	for (s = 0; s < pkt->nr_slots; s++) {
		at += pkt->slots[s].size;
		n += pkt->slots[s].size > 0 && at > NETIF_LEND_HEAD;
	}
	return n;
}

/* Make @seg an external buffer of @len bytes at @data, lent by @loan. */
static inline void
lend_attach(const struct netif_lend *l, struct netif_loan *loan,
	    struct rte_mbuf *seg, const uint8_t *data, uint16_t len)
{
	void *addr = (void *)(uintptr_t)data;

	rte_pktmbuf_attach_extbuf(seg, addr,
				  l->iova_va ? (rte_iova_t)(uintptr_t)addr :
					       RTE_BAD_IOVA,
				  len, &loan->shinfo);
	seg->data_len = len;
}

/*
 * @loan, its pages and slots written, out with @segs segments: answered
 * once the application frees them all.
 */
static inline void
lend_out(struct netif_lend *l, struct netif_loan *loan,
	 struct netif_lend_batch *batch, unsigned int segs)
{
	rte_mbuf_ext_refcnt_set(&loan->shinfo, segs);
	loan->gen = l->gen;
	loan->status = NETIF_RSP_OKAY;
	loan->batch = batch;
	loan->domid = l->domid;
	/* Seen by the control thread once the burst quiesced. */
	__atomic_store_n(&loan->nr_pages, loan->pkt.nr_slots, __ATOMIC_RELEASE);
	l->lent++;
	l->slots += loan->pkt.nr_slots;
}

struct netif_loan *
netif_lend_build(struct netif_lend *l, const struct netif_tx_packet *pkt,
		 const uint8_t *const *pages, struct netif_lend_batch *batch,
		 struct rte_mbuf **mbufs)
{
	struct netif_loan *loan = &l->loans[l->free[--l->nb_free]];
	struct rte_mbuf *head = mbufs[0], *cur = head;
	unsigned int s, m = 1;
	uint32_t at = 0;

	head->pkt_len = pkt->len;
	for (s = 0; s < pkt->nr_slots; s++) {
		const struct netif_tx_slot *slot = &pkt->slots[s];
		/* Parsing checked offset + size against the page. */
		const uint8_t *data = pages[s] + slot->offset;
		uint16_t copy = 0;

		__atomic_store_n(&loan->pages[s], pages[s], __ATOMIC_RELAXED);
		if (at < NETIF_LEND_HEAD) {
			copy = RTE_MIN(slot->size, NETIF_LEND_HEAD - at);
			rte_memcpy(rte_pktmbuf_mtod_offset(head, uint8_t *,
							   head->data_len),
				   data, copy);
			head->data_len += copy;
		}
		at += slot->size;
		if (copy == slot->size)
			continue;
		cur->next = mbufs[m];
		cur = mbufs[m++];
		lend_attach(l, loan, cur, data + copy, slot->size - copy);
	}
	head->nb_segs = m;
	if (batch != NULL) {
		loan->next = batch->first;
		batch->first = loan->idx;
		batch->held++;
		l->map_packets++;
	}
	/* What answers it; not the whole descriptor (a few hundred bytes). */
	loan->pkt.nr_slots = pkt->nr_slots;
	loan->pkt.nr_extras = pkt->nr_extras;
	memcpy(loan->pkt.slots, pkt->slots,
	       pkt->nr_slots * sizeof(pkt->slots[0]));
	lend_out(l, loan, batch, m - 1);
	return loan;
}

struct rte_mbuf *
netif_lend_one(struct netif_lend *l, const netif_tx_request_t *req,
	       const uint8_t *page, struct rte_mbuf *head,
	       struct rte_mbuf *tail)
{
	struct netif_loan *loan = &l->loans[l->free[--l->nb_free]];
	const uint8_t *data = page + req->offset;

	__atomic_store_n(&loan->pages[0], page, __ATOMIC_RELAXED);
	loan->pkt.nr_slots = 1;
	loan->pkt.nr_extras = 0;
	/* What the answer and netif_lend_source() read. */
	loan->pkt.slots[0] = (struct netif_tx_slot){
		.gref = req->gref,
		.id = req->id,
	};
	rte_memcpy(rte_pktmbuf_mtod(head, void *), data, NETIF_LEND_HEAD);
	head->data_len = NETIF_LEND_HEAD;
	head->pkt_len = req->size;
	head->nb_segs = 2;
	head->next = tail;
	lend_attach(l, loan, tail, data + NETIF_LEND_HEAD,
		    req->size - NETIF_LEND_HEAD);
	lend_out(l, loan, NULL, 1);
	return head;
}

/* Answer @loan, if it belongs to the connection @ring is. */
static unsigned int
lend_respond(struct netif_lend *l, struct netif_loan *loan,
	     netif_tx_back_ring_t *ring)
{
	if (loan->gen != l->gen)
		return 0;
	netif_back_tx_respond(ring, &loan->pkt, loan->status);
	l->answered_error += loan->status != NETIF_RSP_OKAY;
	l->slots -= loan->pkt.nr_slots;
	return 1;
}

/* Every loan of @b is back: unmap it, then answer and free its loans. */
static unsigned int
lend_batch_done(struct netif_lend *l, struct netif_lend_batch *b,
		netif_tx_back_ring_t *ring)
{
	/* Those of a batch let go were answered then. */
	bool answer = !b->let_go;
	unsigned int i, n = 0;

	lend_unmap(l, b);
	for (i = b->first; i != NETIF_LEND_NONE; i = l->loans[i].next) {
		if (answer)
			n += lend_respond(l, &l->loans[i], ring);
		l->free[l->nb_free++] = i;
	}
	return n;
}

/*
 * Let go of the batches the application has held a packet of past the
 * hold, and answer their packets; the next check is due when the oldest
 * left would pass it.
 */
static unsigned int
lend_expire(struct netif_lend *l, netif_tx_back_ring_t *ring)
{
	uint64_t now, next = UINT64_MAX;
	unsigned int i, k, n = 0;

	if (l->next_hold_check == UINT64_MAX)
		return 0;
	now = rte_get_timer_cycles();
	if (now < l->next_hold_check)
		return 0;
	for (i = 0; i < NETIF_LEND_SLOTS; i++) {
		struct netif_lend_batch *b = &l->batches[i];

		if (b->addr == NULL || b->let_go)
			continue;
		if (now - b->lent_at < l->hold) {
			next = RTE_MIN(next, b->lent_at + l->hold);
			continue;
		}
		if (xa_gnt_detach(l->xa, b->addr, b->pages) != 0) {
			/* Still mapped, still unanswered: tried again later. */
			l->expire_failed++;
			next = RTE_MIN(next, now + l->hold);
			continue;
		}
		__atomic_store_n(&b->let_go, true, __ATOMIC_RELEASE);
		for (k = b->first; k != NETIF_LEND_NONE; k = l->loans[k].next) {
			n += lend_respond(l, &l->loans[k], ring);
			l->expired++;
		}
	}
	l->next_hold_check = next;
	return n;
}

unsigned int
netif_lend_answer(struct netif_lend *l, netif_tx_back_ring_t *ring)
{
	unsigned int i, answered = 0;
	uint64_t freed;

	if (l == NULL)
		return 0;
	/*
	 * A free marks its loan, then takes its reference: every loan the
	 * count says came back is marked, and the marks are looked for only
	 * when it says one that was not taken did. A loan marked whose
	 * reference is not taken yet is taken too: seen runs ahead of the
	 * count until it is.
	 */
	freed = NETIF_LEND_OWNED - __atomic_load_n(&l->refs, __ATOMIC_ACQUIRE);
	if ((int64_t)(freed - l->seen) <= 0)
		return lend_expire(l, ring);
	for (i = 0; i < NETIF_LEND_SLOTS; i++) {
		struct netif_loan *loan = &l->loans[i];

		if (!__atomic_load_n(&l->back[i], __ATOMIC_ACQUIRE))
			continue;
		__atomic_store_n(&l->back[i], 0, __ATOMIC_RELAXED);
		l->seen++;
		if (loan->batch == NULL) {
			answered += lend_respond(l, loan, ring);
			l->free[l->nb_free++] = loan->idx;
		} else if (--loan->batch->held == 0) {
			answered += lend_batch_done(l, loan->batch, ring);
		}
	}
	return answered + lend_expire(l, ring);
}

bool
netif_lend_source(const struct rte_mbuf *m, uint16_t off,
		  union xengnttab_copy_ptr *src)
{
	const struct netif_loan *loan;
	const uint8_t *addr;
	unsigned int s;

	if (!RTE_MBUF_HAS_EXTBUF(m) || m->shinfo->free_cb != lend_returned)
		return false;
	loan = m->shinfo->fcb_opaque;
	/*
	 * A loan let go lies in our own copy, which a copy takes as its local
	 * side. Let go while the copy by grant is under way, it reads what the
	 * guest has written since, or fails: no worse than what the guest
	 * could always do to the lent part of its packet.
	 */
	if (loan->batch != NULL &&
	    __atomic_load_n(&loan->batch->let_go, __ATOMIC_ACQUIRE))
		return false;
	addr = rte_pktmbuf_mtod_offset(m, const uint8_t *, off);
	/* A lent segment lies in one slot's part of one page. */
	for (s = 0; s < loan->pkt.nr_slots; s++) {
		const uint8_t *page = loan->pages[s];

		if (addr >= page && addr < page + NETIF_PAGE_SIZE) {
			src->foreign.ref = loan->pkt.slots[s].gref;
			src->foreign.offset = addr - page;
			src->foreign.domid = loan->domid;
			return true;
		}
	}
	return false;
}

bool
netif_lend_holds(const struct netif_lend *l, const uint8_t *addr, size_t len)
{
	unsigned int i, s, n;

	if (l == NULL)
		return false;
	/*
	 * A loan rewritten while we read it was given back: its pages can
	 * only be ones still mapped, so a torn read errs on the safe side.
	 */
	for (i = 0; i < NETIF_LEND_SLOTS; i++) {
		const struct netif_loan *loan = &l->loans[i];

		n = __atomic_load_n(&loan->nr_pages, __ATOMIC_ACQUIRE);
		for (s = 0; s < n && s < NETIF_MAX_SLOTS; s++) {
			const uint8_t *pg = __atomic_load_n(&loan->pages[s],
							    __ATOMIC_RELAXED);

			if (pg >= addr && pg < addr + len)
				return true;
		}
	}
	return false;
}
