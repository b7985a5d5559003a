/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Static grants, the backend's side (see netif_statics.h): the requests of
 * the control ring that add, remove and size a queue pair's mapped grants.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "netif_copy.h"
#include "netif_lend.h"
#include "netif_statics.h"

/* The grants of one map call, at addr + i pages. */
struct netif_statics_batch {
	struct netif_statics_batch *next;
	uint8_t *addr;
	uint32_t count;
	uint32_t live;			/* entries not deleted */
	bool writable;
	struct {
		grant_ref_t ref;
		bool gone;
	} e[];
};

/*
 * Pages every vif of the process keeps mapped: reserved before a map,
 * given back at the unmap, atomically since each port's control thread
 * (or the thread that frees the last lent packet of a closed port) may
 * unmap while another maps.
 */
static uint64_t process_pages;

uint64_t
netif_statics_process_pages(void)
{
	return __atomic_load_n(&process_pages, __ATOMIC_RELAXED);
}

/* Reserve @n pages under the process's ceiling @max; false: over it. */
static bool
process_reserve(uint32_t n, uint32_t max)
{
	if (__atomic_add_fetch(&process_pages, n, __ATOMIC_RELAXED) <= max)
		return true;
	__atomic_sub_fetch(&process_pages, n, __ATOMIC_RELAXED);
	return false;
}

static void
process_release(uint32_t n)
{
	__atomic_sub_fetch(&process_pages, n, __ATOMIC_RELAXED);
}

void
netif_statics_limits_default(struct netif_statics_limits *lim)
{
	lim->queue = NETIF_STATICS_PER_QUEUE;
	lim->vif = NETIF_STATICS_PER_VIF_DEFAULT;
	lim->process = NETIF_STATICS_PER_PROCESS_DEFAULT;
}

void
netif_statics_connect(struct netif_statics *s, struct xa_handle *xa,
		      domid_t frontend, unsigned int nb_queues,
		      struct netif_statics_queue *const *queues,
		      const struct netif_statics_limits *lim)
{
	unsigned int i;

	s->xa = xa;
	s->frontend = frontend;
	s->nb_queues = nb_queues;
	s->limits = *lim;
	for (i = 0; i < nb_queues; i++)
		s->q[i] = queues[i];
}

/*
 * Pages the vif keeps mapped: every queue it ever served, since a queue
 * beyond this connection's may still hold lent pages of an earlier one.
 */
static uint64_t
statics_vif_pages(const struct netif_statics *s)
{
	uint64_t pages = 0;
	unsigned int i;

	for (i = 0; i < NETIF_STATICS_MAX_QUEUES; i++)
		if (s->q[i] != NULL)
			pages += s->q[i]->pages;
	return pages;
}

/* The most entries queue pair tables may hold: the least of the limits. */
static uint32_t
statics_size(const struct netif_statics *s)
{
	return RTE_MIN(s->limits.queue,
		       RTE_MIN(s->limits.vif, s->limits.process));
}

/* Copy @n entries of the frontend's list page @ref in (or back out). */
static bool
statics_copy_list(struct netif_statics *s, grant_ref_t ref,
		  struct xen_netif_gref *list, uint32_t n, bool out)
{
	return netif_copy_grant(s->xa, s->frontend, ref, list,
				n * sizeof(*list), out);
}

static void statics_unmap(struct netif_statics *s,
			  struct netif_statics_queue *q,
			  struct netif_statics_batch *b);

/*
 * Put a new table of queue pair @q's live grants in place of the old one,
 * then free the old one and unmap the batches left empty, once no burst
 * reads them. False (nothing changed) when out of memory.
 */
static bool
statics_publish(struct netif_statics *s, unsigned int qi)
{
	struct netif_statics_queue *q = s->q[qi];
	struct netif_statics_batch **pb, *b;
	struct netif_gref_map *map = NULL, *old;
	uint32_t i;

	if (q->grants > 0) {
		map = netif_gref_map_create(q->grants);
		if (map == NULL)
			return false;
		for (b = q->batches; b != NULL; b = b->next)
			for (i = 0; i < b->count; i++)
				if (!b->e[i].gone)
					netif_gref_map_add(map, b->e[i].ref,
						b->addr + (size_t)i * XA_PAGE_SIZE,
						b->writable);
	}
	old = q->map;
	__atomic_store_n(&q->map, map, __ATOMIC_SEQ_CST);
	s->quiesce(s->opaque, qi);
	free(old);
	for (pb = &q->batches; (b = *pb) != NULL;) {
		if (b->live > 0) {
			pb = &b->next;
			continue;
		}
		*pb = b->next;
		statics_unmap(s, q, b);
	}
	return true;
}

/* Map @n of @refs, all with one access mode, as one batch of queue @q. */
static struct netif_statics_batch *
statics_map(struct netif_statics *s, struct netif_statics_queue *q,
	    const grant_ref_t *refs, uint32_t n, bool writable)
{
	struct netif_statics_batch *b;
	uint32_t i;

	b = calloc(1, sizeof(*b) + n * sizeof(b->e[0]));
	if (b == NULL)
		return NULL;
	q->maps++;
	b->addr = xa_gnt_map(s->xa, s->frontend, n, refs, writable);
	if (b->addr == NULL) {
		free(b);
		return NULL;
	}
	b->count = b->live = n;
	b->writable = writable;
	q->pages += n;
	for (i = 0; i < n; i++)
		b->e[i].ref = refs[i];
	return b;
}

/* Whether the application holds a page of @b (netif_lend.h). */
static bool
statics_lent(const struct netif_statics_queue *q,
	     const struct netif_statics_batch *b)
{
	return netif_lend_holds(q->lend, b->addr,
				(size_t)b->count * XA_PAGE_SIZE);
}

/* Unmap @b now, or once the application gave its lent pages back. */
static void
statics_unmap(struct netif_statics *s, struct netif_statics_queue *q,
	      struct netif_statics_batch *b)
{
	if (b == NULL)
		return;
	if (statics_lent(q, b)) {
		b->next = q->lent;
		q->lent = b;
		return;
	}
	xa_gnt_unmap(s->xa, b->addr, b->count);
	q->unmaps++;
	q->pages -= b->count;
	process_release(b->count);
	free(b);
}

/* Whether the @n entries of @list name distinct grants not mapped yet. */
static bool
statics_list_new(const struct netif_statics_queue *q,
		 const struct xen_netif_gref *list, uint32_t n)
{
	struct netif_gref_map *seen = netif_gref_map_create(n);
	uint32_t i;
	bool ok = seen != NULL;

	for (i = 0; ok && i < n; i++) {
		if (list[i].flags & ~XEN_NETIF_CTRLF_GREF_readonly ||
		    netif_gref_map_find(q->map, list[i].ref, false) != NULL ||
		    netif_gref_map_find(seen, list[i].ref, false) != NULL)
			ok = false;
		else
			netif_gref_map_add(seen, list[i].ref, (uint8_t *)list,
					   false);
	}
	free(seen);
	return ok;
}

/*
 * The deleted entry of @ref in queue @q's batches still mapped with the
 * access @writable, or NULL. Not lent: a lent page is never deleted, and
 * a deleted one is out of the table, so no new loan can take it.
 */
static bool *
statics_deleted(struct netif_statics_queue *q, grant_ref_t ref, bool writable,
		struct netif_statics_batch **batch)
{
	struct netif_statics_batch *b;
	uint32_t i;

	for (b = q->batches; b != NULL; b = b->next) {
		if (b->writable != writable || b->live == b->count)
			continue;
		for (i = 0; i < b->count; i++)
			if (b->e[i].gone && b->e[i].ref == ref) {
				*batch = b;
				return &b->e[i].gone;
			}
	}
	return NULL;
}

/*
 * Whether @n more pages may be mapped for queue @q under every limit;
 * the process's share is then reserved (statics_unmap() gives it back).
 */
static bool
statics_room(struct netif_statics *s, struct netif_statics_queue *q, uint32_t n)
{
	if (n == 0)
		return true;
	if (q->pages + n > s->limits.queue ||
	    statics_vif_pages(s) + n > s->limits.vif ||
	    !process_reserve(n, s->limits.process)) {
		q->over_limit++;
		return false;
	}
	return true;
}

static void statics_mark(struct netif_statics_queue *q, bool *gone,
			 struct netif_statics_batch *batch, bool del,
			 uint32_t *count);

/*
 * ADD_GREF_MAPPING: all of the list or none of it (netif.h), an entry
 * deleted from a batch still mapped taken back from it, the others mapped
 * in one call per access mode, if the limits leave room for them.
 */
static uint32_t
statics_add(struct netif_statics *s, unsigned int qi, grant_ref_t list_ref,
	    uint32_t n)
{
	struct netif_statics_queue *q = s->q[qi];
	struct xen_netif_gref list[NETIF_STATICS_LIST_MAX];
	grant_ref_t refs[2][NETIF_STATICS_LIST_MAX];
	struct netif_statics_batch *back[NETIF_STATICS_LIST_MAX];
	bool *again[NETIF_STATICS_LIST_MAX];
	struct netif_statics_batch *b[2] = { NULL, NULL };
	uint32_t i, nb[2] = { 0, 0 }, added = 0, unmapped;
	unsigned int w;

	if (n == 0 || n > NETIF_STATICS_LIST_MAX)
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	if (!statics_copy_list(s, list_ref, list, n, false) ||
	    !statics_list_new(q, list, n))
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	for (i = 0; i < n; i++) {
		w = !(list[i].flags & XEN_NETIF_CTRLF_GREF_readonly);
		again[i] = statics_deleted(q, list[i].ref, w, &back[i]);
		if (again[i] == NULL)
			refs[w][nb[w]++] = list[i].ref;
	}
	if (!statics_room(s, q, nb[0] + nb[1]))
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	unmapped = nb[0] + nb[1];
	for (w = 0; w < 2; w++) {
		if (nb[w] == 0)
			continue;
		b[w] = statics_map(s, q, refs[w], nb[w], w);
		if (b[w] == NULL)
			goto fail;
		unmapped -= nb[w];
	}
	for (w = 0; w < 2; w++) {
		if (b[w] == NULL)
			continue;
		b[w]->next = q->batches;
		q->batches = b[w];
	}
	q->grants += nb[0] + nb[1];
	for (i = 0; i < n; i++)
		statics_mark(q, again[i], back[i], false, &added);
	if (statics_publish(s, qi))
		return XEN_NETIF_CTRL_STATUS_SUCCESS;
	/* Out of memory: take the batches back out, the entries too. */
	q->grants -= nb[0] + nb[1];
	for (i = 0; i < n; i++)
		statics_mark(q, again[i], back[i], true, &added);
	for (w = 0; w < 2; w++)
		if (b[w] != NULL)
			q->batches = q->batches->next;
fail:
	process_release(unmapped);
	statics_unmap(s, q, b[0]);
	statics_unmap(s, q, b[1]);
	return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
}

/*
 * The live entry of @ref in queue @q's batches, or NULL; also NULL, with
 * *@lent set, when its page is lent to the application.
 */
static bool *
statics_entry(struct netif_statics_queue *q, grant_ref_t ref,
	      struct netif_statics_batch **batch, bool *lent)
{
	struct netif_statics_batch *b;
	uint32_t i;

	for (b = q->batches; b != NULL; b = b->next)
		for (i = 0; i < b->count; i++) {
			const uint8_t *page = b->addr +
					      (size_t)i * XA_PAGE_SIZE;

			if (b->e[i].ref != ref || b->e[i].gone)
				continue;
			if (netif_lend_holds(q->lend, page, XA_PAGE_SIZE)) {
				*lent = true;
				return NULL;
			}
			*batch = b;
			return &b->e[i].gone;
		}
	return NULL;
}

/*
 * Mark the entry at @gone of @batch deleted (or live again), keeping the
 * counts; *@count, in our memory, counts the entries so changed. NULL:
 * nothing.
 */
static void
statics_mark(struct netif_statics_queue *q, bool *gone,
	     struct netif_statics_batch *batch, bool del, uint32_t *count)
{
	if (gone == NULL || *gone == del)
		return;
	*gone = del;
	batch->live += del ? -1 : 1;
	q->grants += del ? -1 : 1;
	*count += 1;
}

/*
 * DEL_GREF_MAPPING: each entry's status says whether it was removed; the
 * statuses are written back first, so that a list we cannot write back
 * changes nothing. *@removed counts in our memory: the response slot is
 * the frontend's to rewrite while we work, and what decides whether the
 * table is rebuilt must not be read back from it.
 */
static uint32_t
statics_del(struct netif_statics *s, unsigned int qi, grant_ref_t list_ref,
	    uint32_t n, uint32_t *removed)
{
	struct netif_statics_queue *q = s->q[qi];
	struct xen_netif_gref list[NETIF_STATICS_LIST_MAX];
	struct netif_statics_batch *batch[NETIF_STATICS_LIST_MAX];
	bool *gone[NETIF_STATICS_LIST_MAX];
	bool lent = false;
	uint32_t i, j, undone = 0;

	*removed = 0;
	if (n == 0 || n > NETIF_STATICS_LIST_MAX ||
	    !statics_copy_list(s, list_ref, list, n, false))
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	for (i = 0; i < n; i++) {
		gone[i] = statics_entry(q, list[i].ref, &batch[i], &lent);
		/* Listed twice: the second one finds nothing to remove. */
		for (j = 0; gone[i] != NULL && j < i; j++)
			if (gone[j] == gone[i])
				gone[i] = NULL;
		list[i].status = gone[i] != NULL ?
			XEN_NETIF_CTRL_STATUS_SUCCESS :
			XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	}
	if (!statics_copy_list(s, list_ref, list, n, true))
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	s->stats.in_use += lent;
	for (i = 0; i < n; i++)
		statics_mark(q, gone[i], batch[i], true, removed);
	if (*removed == 0 || statics_publish(s, qi))
		return XEN_NETIF_CTRL_STATUS_SUCCESS;
	/* Out of memory: the old table stays, and so must its pages. */
	for (i = 0; i < n; i++)
		statics_mark(q, gone[i], batch[i], false, &undone);
	*removed = 0;
	return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
}

/*
 * The response is built here and written to the shared slot @rsp once,
 * never read back.
 */
bool
netif_statics_serve(struct netif_statics *s,
		    const struct xen_netif_ctrl_request *req,
		    struct xen_netif_ctrl_response *rsp)
{
	uint32_t qi = req->data[0], status, data = 0;

	switch (req->type) {
	case XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE:
	case XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING:
	case XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING:
		break;
	default:
		return false;
	}
	s->stats.requests++;
	if (qi >= s->nb_queues) {
		status = XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	} else if (req->type == XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE) {
		status = XEN_NETIF_CTRL_STATUS_SUCCESS;
		data = statics_size(s);
	} else if (req->type == XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING) {
		status = statics_add(s, qi, req->data[1], req->data[2]);
	} else {
		status = statics_del(s, qi, req->data[1], req->data[2], &data);
	}
	s->stats.refused += status != XEN_NETIF_CTRL_STATUS_SUCCESS;
	rsp->status = status;
	rsp->data = data;
	return true;
}

void
netif_statics_release(struct netif_statics *s)
{
	struct netif_statics_batch *b;
	struct netif_gref_map *old;
	unsigned int i;

	for (i = 0; i < s->nb_queues; i++) {
		struct netif_statics_queue *q = s->q[i];

		old = q->map;
		__atomic_store_n(&q->map, NULL, __ATOMIC_SEQ_CST);
		free(old);
		while ((b = q->batches) != NULL) {
			q->batches = b->next;
			statics_unmap(s, q, b);
		}
		q->grants = 0;
	}
	s->nb_queues = 0;
}

unsigned int
netif_statics_reap(struct netif_statics *s)
{
	struct netif_statics_batch *b, *next;
	unsigned int i, waiting = 0;

	for (i = 0; i < NETIF_STATICS_MAX_QUEUES; i++) {
		struct netif_statics_queue *q = s->q[i];

		if (q == NULL)
			continue;
		/* Each one unmapped, or put back while still lent. */
		next = q->lent;
		q->lent = NULL;
		while ((b = next) != NULL) {
			next = b->next;
			statics_unmap(s, q, b);
		}
		for (b = q->lent; b != NULL; b = b->next)
			waiting++;
	}
	return waiting;
}
