/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest TX lent to the application (see netif_lend.h): the loans, their
 * chains, and their answers.
 */

#include <sys/mman.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "netif_l2.h"
#include "netif_lend.h"

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
	/* Every loan fits: an enqueue never fails. */
	l->returned = rte_ring_create(name, NETIF_LEND_SLOTS, socket,
				      RING_F_SC_DEQ | RING_F_EXACT_SZ);
	if (l->returned == NULL) {
		rte_free(l);
		return NULL;
	}
	l->refs = 1;
	l->next_hold_check = UINT64_MAX;
	for (i = 0; i < NETIF_LEND_SLOTS; i++) {
		l->loans[i].lend = l;
		l->loans[i].idx = i;
		l->free[l->nb_free++] = NETIF_LEND_SLOTS - 1 - i;
	}
	return l;
}

/* Undo @loan's own mapping, or free the copy that replaced it. */
static void
lend_unmap(struct netif_lend *l, struct netif_loan *loan)
{
	if (loan->map == NULL)
		return;
	if (loan->let_go) {
		munmap(loan->map, (size_t)loan->pkt.nr_slots * XA_PAGE_SIZE);
		loan->map = NULL;
		return;
	}
	/* A failure can only be ours (a wrong address): counted, not retried. */
	if (xa_gnt_unmap(l->xa, loan->map, loan->pkt.nr_slots) != 0)
		l->unmap_failed++;
	loan->map = NULL;
	l->unmaps++;
}

static void
lend_unref(struct netif_lend *l)
{
	unsigned int i;

	if (__atomic_sub_fetch(&l->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	/* Every loan is back: the mappings no answer undid go now. */
	for (i = 0; i < NETIF_LEND_SLOTS; i++)
		lend_unmap(l, &l->loans[i]);
	if (l->on_last != NULL)
		l->on_last(l->on_last_arg);
	rte_ring_free(l->returned);
	rte_free(l);
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
	held = __atomic_load_n(&l->refs, __ATOMIC_ACQUIRE) - 1;
	lend_unref(l);
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
	return l == NULL ? 0 : __atomic_load_n(&l->refs, __ATOMIC_ACQUIRE) - 1;
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
	rte_ring_mp_enqueue(l->returned, (void *)(uintptr_t)loan->idx);
	lend_unref(l);
}

bool
netif_lend_room(const struct netif_lend *l, const struct netif_tx_packet *pkt)
{
	return l != NULL && l->nb_free > 0 && pkt->len >= NETIF_LEND_MIN_LEN &&
	       l->slots + pkt->nr_slots <= NETIF_LEND_SLOTS;
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

void *
netif_lend_map(struct netif_lend *l, const struct netif_tx_packet *pkt,
	       domid_t domid, const uint8_t **pages)
{
	grant_ref_t refs[NETIF_MAX_SLOTS];
	uint8_t *map;
	unsigned int s;

	for (s = 0; s < pkt->nr_slots; s++)
		refs[s] = pkt->slots[s].gref;
	map = xa_gnt_map(l->xa, domid, pkt->nr_slots, refs, false);
	if (map == NULL) {
		l->map_failed++;
		return NULL;
	}
	for (s = 0; s < pkt->nr_slots; s++)
		pages[s] = map + (size_t)s * XA_PAGE_SIZE;
	l->maps++;
	return map;
}

void
netif_lend_unmap(struct netif_lend *l, const struct netif_tx_packet *pkt,
		 void *map)
{
	struct netif_loan loan = { .map = map, .pkt = *pkt };

	lend_unmap(l, &loan);
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

struct netif_loan *
netif_lend_build(struct netif_lend *l, const struct netif_tx_packet *pkt,
		 const uint8_t *const *pages, void *map,
		 struct rte_mbuf **mbufs)
{
	struct netif_loan *loan = &l->loans[l->free[--l->nb_free]];
	bool iova_va = rte_eal_iova_mode() == RTE_IOVA_VA;
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
		rte_pktmbuf_attach_extbuf(cur, (void *)(uintptr_t)(data + copy),
			iova_va ? (rte_iova_t)(uintptr_t)(data + copy) :
				  RTE_BAD_IOVA,
			slot->size - copy, &loan->shinfo);
		cur->data_len = slot->size - copy;
	}
	head->nb_segs = m;
	loan->shinfo.free_cb = lend_returned;
	loan->shinfo.fcb_opaque = loan;
	rte_mbuf_ext_refcnt_set(&loan->shinfo, m - 1);
	loan->gen = l->gen;
	loan->status = NETIF_RSP_OKAY;
	loan->map = map;
	__atomic_store_n(&loan->let_go, false, __ATOMIC_RELAXED);
	if (map != NULL && l->hold != 0) {
		loan->lent_at = rte_get_timer_cycles();
		l->next_hold_check =
			RTE_MIN(l->next_hold_check, loan->lent_at + l->hold);
	}
	loan->domid = l->domid;
	loan->pkt = *pkt;
	/* Seen by the control thread once the burst quiesced. */
	__atomic_store_n(&loan->nr_pages, pkt->nr_slots, __ATOMIC_RELEASE);
	__atomic_add_fetch(&l->refs, 1, __ATOMIC_RELAXED);
	l->slots += pkt->nr_slots;
	return loan;
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

/*
 * Let go of the mapped loans the application has held past the hold, and
 * answer them; the next check is due when the oldest left would pass it.
 */
static unsigned int
lend_expire(struct netif_lend *l, netif_tx_back_ring_t *ring)
{
	uint64_t now, next = UINT64_MAX;
	unsigned int i, n = 0;

	if (l->next_hold_check == UINT64_MAX)
		return 0;
	now = rte_get_timer_cycles();
	if (now < l->next_hold_check)
		return 0;
	for (i = 0; i < NETIF_LEND_SLOTS; i++) {
		struct netif_loan *loan = &l->loans[i];

		/* nr_pages 0: given back, answered by this queue anyway. */
		if (loan->map == NULL || loan->let_go ||
		    __atomic_load_n(&loan->nr_pages, __ATOMIC_ACQUIRE) == 0)
			continue;
		if (now - loan->lent_at < l->hold) {
			next = RTE_MIN(next, loan->lent_at + l->hold);
			continue;
		}
		if (xa_gnt_detach(l->xa, loan->map, loan->pkt.nr_slots) != 0) {
			/* Still mapped, still unanswered: tried again later. */
			l->expire_failed++;
			next = RTE_MIN(next, now + l->hold);
			continue;
		}
		__atomic_store_n(&loan->let_go, true, __ATOMIC_RELEASE);
		l->expired++;
		n += lend_respond(l, loan, ring);
	}
	l->next_hold_check = next;
	return n;
}

unsigned int
netif_lend_answer(struct netif_lend *l, netif_tx_back_ring_t *ring)
{
	void *idx[NETIF_LEND_SLOTS];
	unsigned int i, n, answered = 0;

	if (l == NULL)
		return 0;
	n = rte_ring_sc_dequeue_burst(l->returned, idx, RTE_DIM(idx), NULL);
	/* Unmapped before answered: the guest may reuse an answered page. */
	for (i = 0; i < n; i++)
		lend_unmap(l, &l->loans[(uintptr_t)idx[i]]);
	for (i = 0; i < n; i++) {
		struct netif_loan *loan = &l->loans[(uintptr_t)idx[i]];

		/* One let go was answered then. */
		if (!loan->let_go)
			answered += lend_respond(l, loan, ring);
		l->free[l->nb_free++] = loan->idx;
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
	if (__atomic_load_n(&loan->let_go, __ATOMIC_ACQUIRE))
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
