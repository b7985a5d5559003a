/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Static grants, the backend's side (see netif_statics.h): the requests of
 * the control ring that add, remove and size a queue pair's mapped grants.
 */

#include <stdlib.h>
#include <string.h>

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

void
netif_statics_connect(struct netif_statics *s, struct xa_handle *xa,
		      domid_t frontend, unsigned int nb_queues,
		      struct netif_statics_queue *const *queues)
{
	unsigned int i;

	s->xa = xa;
	s->frontend = frontend;
	s->nb_queues = nb_queues;
	for (i = 0; i < nb_queues; i++)
		s->q[i] = queues[i];
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
 * ADD_GREF_MAPPING: all of the list or none of it (netif.h), in one map
 * call per access mode.
 */
static uint32_t
statics_add(struct netif_statics *s, unsigned int qi, grant_ref_t list_ref,
	    uint32_t n)
{
	struct netif_statics_queue *q = s->q[qi];
	struct xen_netif_gref list[NETIF_STATICS_LIST_MAX];
	grant_ref_t refs[2][NETIF_STATICS_LIST_MAX];
	struct netif_statics_batch *b[2] = { NULL, NULL };
	uint32_t i, nb[2] = { 0, 0 };
	unsigned int w;

	if (n == 0 || n > NETIF_STATICS_LIST_MAX ||
	    q->grants + n > NETIF_STATICS_PER_QUEUE)
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	if (!statics_copy_list(s, list_ref, list, n, false) ||
	    !statics_list_new(q, list, n))
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	for (i = 0; i < n; i++) {
		w = !(list[i].flags & XEN_NETIF_CTRLF_GREF_readonly);
		refs[w][nb[w]++] = list[i].ref;
	}
	for (w = 0; w < 2; w++) {
		if (nb[w] == 0)
			continue;
		b[w] = statics_map(s, q, refs[w], nb[w], w);
		if (b[w] == NULL)
			goto fail;
	}
	for (w = 0; w < 2; w++) {
		if (b[w] == NULL)
			continue;
		b[w]->next = q->batches;
		q->batches = b[w];
	}
	q->grants += n;
	if (statics_publish(s, qi))
		return XEN_NETIF_CTRL_STATUS_SUCCESS;
	/* Out of memory: take the batches back out. */
	q->grants -= n;
	for (w = 0; w < 2; w++)
		if (b[w] != NULL)
			q->batches = q->batches->next;
fail:
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
 * Mark the entry at @gone of @batch deleted (or, undoing, live again),
 * keeping the counts; *@removed counts the deleted ones. NULL: nothing.
 */
static void
statics_mark(struct netif_statics_queue *q, bool *gone,
	     struct netif_statics_batch *batch, bool del, uint32_t *removed)
{
	if (gone == NULL)
		return;
	*gone = del;
	batch->live += del ? -1 : 1;
	q->grants += del ? -1 : 1;
	*removed += del ? 1 : -1;
}

/*
 * DEL_GREF_MAPPING: each entry's status says whether it was removed; the
 * statuses are written back first, so that a list we cannot write back
 * changes nothing.
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
	uint32_t i, j;

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
		statics_mark(q, gone[i], batch[i], false, removed);
	return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
}

bool
netif_statics_serve(struct netif_statics *s,
		    const struct xen_netif_ctrl_request *req,
		    struct xen_netif_ctrl_response *rsp)
{
	uint32_t qi = req->data[0];

	switch (req->type) {
	case XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE:
	case XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING:
	case XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING:
		break;
	default:
		return false;
	}
	rsp->data = 0;
	s->stats.requests++;
	if (qi >= s->nb_queues)
		rsp->status = XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	else if (req->type == XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE) {
		rsp->status = XEN_NETIF_CTRL_STATUS_SUCCESS;
		rsp->data = NETIF_STATICS_PER_QUEUE;
	} else if (req->type == XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING)
		rsp->status = statics_add(s, qi, req->data[1], req->data[2]);
	else
		rsp->status = statics_del(s, qi, req->data[1], req->data[2],
					  &rsp->data);
	s->stats.refused += rsp->status != XEN_NETIF_CTRL_STATUS_SUCCESS;
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
