/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Grant tables of the simulated hypervisor: each domain's table of
 * grant_entry_v1 (frame = index of a page in the shared pool), sharing pages
 * as a frontend does with libxengntshr, mapping and copying them as a
 * backend does with libxengnttab, and the page pool underneath. The checks
 * are Xen's: a grant must permit access to the domain using it, read-only
 * grants are never written, a copy stays inside its page, and a copy's
 * local side is a page of the caller's own, never one it maps from
 * another domain (Xen's get_page() of it fails: GNTST_bad_page; Linux
 * netback copies from such a page by its grant instead). A page unshared
 * while still mapped lives on until its last unmap, as in Xen.
 * Layer 2 (see xsim_shm.h): calls only the segment.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* fallocate() */
#endif

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <numaif.h>

#include "xsim_gnttab.h"

/*
 * What Xen reports when a grant entry does not permit the access (wrong
 * type, another domain, or a write to a read-only grant): _set_status_v1()
 * fails those with GNTST_general_error, for copies as for maps.
 */
#define XSIM_GNTST_BAD_ENTRY	GNTST_general_error

/* Give up waiting for copies of a process that died inside one. */
#define XSIM_COPY_WAIT_NS	(1000ull * 1000 * 1000)

struct xsim_local_map {
	struct xsim_local_map *next;	 /* the handle's */
	struct xsim_local_map *all_next; /* the process's */
	void *addr;
	uint32_t count;
	uint32_t *pages;
	uint32_t *entries;	/* indexes in the shared map table */
};

/*
 * Every mapping of the process, whatever its handle: what a copy's local
 * side must not lie in. Handles map from several threads (a queue's lent
 * packets, the control thread's static grants), so the lists are locked.
 */
static pthread_rwlock_t xsim_maps_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct xsim_local_map *xsim_all_maps;

static void
xsim_local_map_link(struct xsim_handle *h, struct xsim_local_map *rec)
{
	pthread_rwlock_wrlock(&xsim_maps_lock);
	rec->next = h->maps;
	h->maps = rec;
	rec->all_next = xsim_all_maps;
	xsim_all_maps = rec;
	pthread_rwlock_unlock(&xsim_maps_lock);
}

/* Take @h's mapping of @count pages at @addr off both lists; NULL: none. */
static struct xsim_local_map *
xsim_local_map_unlink(struct xsim_handle *h, void *addr, uint32_t count)
{
	struct xsim_local_map **pp, *rec;

	pthread_rwlock_wrlock(&xsim_maps_lock);
	for (pp = &h->maps; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->addr == addr && (*pp)->count == count)
			break;
	rec = *pp;
	if (rec != NULL) {
		*pp = rec->next;
		for (pp = &xsim_all_maps; *pp != rec; pp = &(*pp)->all_next)
			;
		*pp = rec->all_next;
	}
	pthread_rwlock_unlock(&xsim_maps_lock);
	return rec;
}

/* Whether [@addr, @addr + @len) touches a mapping (xsim_maps_lock held). */
static bool
xsim_local_is_mapped(const void *addr, uint32_t len)
{
	const uint8_t *a = addr;
	const struct xsim_local_map *rec;

	for (rec = xsim_all_maps; rec != NULL; rec = rec->all_next) {
		const uint8_t *start = rec->addr;

		if (a < start + (size_t)rec->count * XA_PAGE_SIZE &&
		    a + len > start)
			return true;
	}
	return false;
}

struct xsim_local_share {
	struct xsim_local_share *next;
	void *addr;
	uint32_t count;
	uint32_t *pages;
	grant_ref_t *refs;
};

static struct grant_entry_v1
xsim_grant_load(const union xsim_grant *g)
{
	union xsim_grant v;

	v.raw = __atomic_load_n(&g->raw, __ATOMIC_SEQ_CST);
	return v.e;
}

static void
xsim_grant_store(union xsim_grant *g, uint16_t flags, domid_t domid,
		 uint32_t frame)
{
	union xsim_grant v;

	v.e.flags = flags;
	v.e.domid = domid;
	v.e.frame = frame;
	__atomic_store_n(&g->raw, v.raw, __ATOMIC_SEQ_CST);
}

static void
xsim_page_free(struct xsim_attach *at, uint32_t page)
{
	struct xsim_page *pg = &at->sh->pages[page];

	/* The hole gives the memory back and zeroes the page for its next use. */
	if (fallocate(at->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      at->sh->pool_offset + (uint64_t)page * XA_PAGE_SIZE,
		      XA_PAGE_SIZE) < 0)
		memset(xsim_page_addr(at->sh, page), 0, XA_PAGE_SIZE);
	memset(pg, 0, sizeof(*pg));
	pg->state = XSIM_PAGE_FREE;
}

/* The grant of @page is gone: free it unless someone still maps it. */
static void
xsim_page_unshared(struct xsim_attach *at, uint32_t page)
{
	struct xsim_page *pg = &at->sh->pages[page];

	if (pg->maps == 0) {
		xsim_page_free(at, page);
	} else {
		pg->state = XSIM_PAGE_ORPHANED;
		pg->owner = 0;
	}
}

static int
xsim_page_alloc(struct xsim_shared *sh, uint32_t *page)
{
	uint32_t i, p;

	for (i = 0; i < XSIM_POOL_PAGES; i++) {
		p = (sh->page_hint + i) % XSIM_POOL_PAGES;
		if (sh->pages[p].state == XSIM_PAGE_FREE) {
			sh->page_hint = (p + 1) % XSIM_POOL_PAGES;
			*page = p;
			return 0;
		}
	}
	errno = ENOMEM;
	return -1;
}

/*
 * References are handed out round-robin so that a reference just ended is
 * not reused at once: a late backend then fails on it instead of reaching
 * the next page granted under the same number.
 */
static int
xsim_ref_alloc(struct xsim_domain *dom, grant_ref_t *ref)
{
	const uint32_t span = XSIM_GRANT_ENTRIES - GNTTAB_NR_RESERVED_ENTRIES;
	uint32_t i, r;

	for (i = 0; i < span; i++) {
		r = GNTTAB_NR_RESERVED_ENTRIES + (dom->gnt_hint + i) % span;
		if (__atomic_load_n(&dom->gnt[r].raw, __ATOMIC_RELAXED) == 0) {
			dom->gnt_hint = (r + 1 - GNTTAB_NR_RESERVED_ENTRIES) % span;
			*ref = r;
			return 0;
		}
	}
	errno = ENOSPC;
	return -1;
}

/*
 * Wait until no copy that may have read a grant entry before it was
 * cleared is still touching its page. New copies count in the other
 * counter, so they cannot keep this one from draining.
 */
static void
xsim_gnt_wait_copies(struct xsim_domain *dom)
{
	uint32_t old = __atomic_fetch_add(&dom->copy_epoch, 1,
					  __ATOMIC_SEQ_CST) & 1;
	uint64_t deadline = xsim_now_ns() + XSIM_COPY_WAIT_NS;

	while (__atomic_load_n(&dom->copy_inflight[old], __ATOMIC_SEQ_CST) != 0 &&
	       xsim_now_ns() < deadline)
		sched_yield();
}

/* End the grants of @pages (owned by @domid) and free what is unmapped. */
static void
xsim_gnt_revoke(struct xsim_attach *at, domid_t domid, const uint32_t *pages,
		uint32_t count)
{
	struct xsim_domain *dom = &at->sh->domains[domid];
	uint32_t i;

	for (i = 0; i < count; i++)
		xsim_grant_store(&dom->gnt[at->sh->pages[pages[i]].ref], 0, 0, 0);
	xsim_gnt_wait_copies(dom);
	for (i = 0; i < count; i++)
		xsim_page_unshared(at, pages[i]);
}

static void
xsim_map_drop(struct xsim_attach *at, uint32_t entry)
{
	struct xsim_map *m = &at->sh->maps[entry];
	struct xsim_page *pg = &at->sh->pages[m->page];

	m->owner = 0;
	pg->maps--;
	if (pg->state == XSIM_PAGE_ORPHANED && pg->maps == 0)
		xsim_page_free(at, m->page);
}

static int
xsim_map_add(struct xsim_shared *sh, xsim_owner_t owner, domid_t domid,
	     uint32_t page, uint32_t *entry)
{
	uint32_t i, e;

	for (i = 0; i < XSIM_MAX_MAPS; i++) {
		e = (sh->map_hint + i) % XSIM_MAX_MAPS;
		if (sh->maps[e].owner == 0) {
			sh->map_hint = (e + 1) % XSIM_MAX_MAPS;
			sh->maps[e].owner = owner;
			sh->maps[e].dom = domid;
			sh->maps[e].page = page;
			sh->pages[page].maps++;
			*entry = e;
			return 0;
		}
	}
	errno = ENOSPC;
	return -1;
}

/*
 * Map pool pages contiguously: reserve the range first so that no other
 * mapping can land between the pages, then place each page over it.
 */
static void *
xsim_map_pages(struct xsim_attach *at, const uint32_t *pages, uint32_t count,
	       int prot)
{
	size_t len = (size_t)count * XA_PAGE_SIZE;
	uint8_t *base;
	uint32_t i;
	int err;

	base = mmap(NULL, len, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return NULL;
	for (i = 0; i < count; i++) {
		if (mmap(base + (size_t)i * XA_PAGE_SIZE, XA_PAGE_SIZE, prot,
			 MAP_SHARED | MAP_FIXED, at->fd,
			 at->sh->pool_offset +
			 (uint64_t)pages[i] * XA_PAGE_SIZE) == MAP_FAILED) {
			err = errno;
			munmap(base, len);
			errno = err;
			return NULL;
		}
	}
	return base;
}

/*
 * gntalloc allocates a share's pages under the calling thread's memory
 * policy. The pool's pages take that policy (a shared memory object keeps
 * it per page, and mbind() moves those already in memory), so a share is
 * placed as on Xen.
 */
static int
xsim_place_as_caller(void *addr, uint32_t count)
{
	unsigned long nodes[XA_NODE_LONGS];
	int mode;

	if (get_mempolicy(&mode, nodes, XA_NODE_BITS + 1, NULL, 0) < 0 ||
	    mbind(addr, (size_t)count * XA_PAGE_SIZE, (unsigned int)mode, nodes,
		  XA_NODE_BITS + 1, MPOL_MF_MOVE) < 0)
		/* Without NUMA every page is in the one place there is. */
		return errno == ENOSYS ? 0 : -1;
	return 0;
}

/* Pages @dom shares now: every grant in its table came from a share. */
static uint32_t
xsim_gnt_shared(struct xsim_domain *dom)
{
	uint32_t r, n = 0;

	for (r = GNTTAB_NR_RESERVED_ENTRIES; r < XSIM_GRANT_ENTRIES; r++)
		n += __atomic_load_n(&dom->gnt[r].raw, __ATOMIC_RELAXED) != 0;
	return n;
}

static uint32_t
xsim_dom_share_limit(const struct xsim_domain *dom)
{
	return dom->gntalloc_limit != 0 ? dom->gntalloc_limit :
					  XA_GNT_SHARE_LIMIT_DEFAULT;
}

int
xsim_gnt_share_limit(struct xa_handle *xh, uint32_t *limit, uint32_t *used)
{
	struct xsim_shared *sh = xsim_handle(xh)->at->sh;
	struct xsim_domain *dom = &sh->domains[xh->domid];

	xsim_lock(sh);
	*limit = xsim_dom_share_limit(dom);
	*used = xsim_gnt_shared(dom);
	xsim_unlock(sh);
	return 0;
}

int
xsim_gnt_share_set_limit(struct xa_handle *xh, uint32_t limit)
{
	struct xsim_shared *sh = xsim_handle(xh)->at->sh;
	int rc;

	xsim_lock(sh);
	rc = xsim_gntalloc_set_locked(sh, xh->domid, limit, false);
	xsim_unlock(sh);
	return rc;
}

int
xsim_gntalloc_set_locked(struct xsim_shared *sh, domid_t domid,
			 uint32_t limit, bool admin)
{
	struct xsim_domain *dom = &sh->domains[domid];

	/* gntalloc's parameter is an int; 0 would forbid every share. */
	if (limit == 0 || limit > INT32_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (!admin && dom->gntalloc_fixed) {
		errno = EACCES;
		return -1;
	}
	dom->gntalloc_limit = limit;
	if (admin)
		dom->gntalloc_fixed = 1;
	return 0;
}

void *
xsim_gnt_share(struct xa_handle *xh, domid_t domid, uint32_t count,
	       grant_ref_t *refs, bool writable)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;
	struct xsim_domain *dom = &sh->domains[xh->domid];
	struct xsim_local_share *rec;
	struct xsim_page *pg;
	uint32_t i, n;
	int err;

	if (count == 0 || count > XSIM_POOL_PAGES || refs == NULL ||
	    domid >= XSIM_MAX_DOMAINS) {
		errno = EINVAL;
		return NULL;
	}
	rec = calloc(1, sizeof(*rec));
	if (rec == NULL)
		return NULL;
	rec->pages = calloc(count, sizeof(*rec->pages));
	rec->refs = calloc(count, sizeof(*rec->refs));
	if (rec->pages == NULL || rec->refs == NULL)
		goto fail;
	rec->count = count;

	xsim_lock(sh);
	/* gntalloc refuses the whole request past its limit. */
	if (xsim_gnt_shared(dom) + count > xsim_dom_share_limit(dom)) {
		xsim_unlock(sh);
		errno = ENOSPC;
		goto fail;
	}
	for (n = 0; n < count; n++) {
		if (xsim_page_alloc(sh, &rec->pages[n]) < 0 ||
		    xsim_ref_alloc(dom, &rec->refs[n]) < 0)
			break;
		pg = &sh->pages[rec->pages[n]];
		pg->state = XSIM_PAGE_SHARED;
		pg->owner_dom = xh->domid;
		pg->owner = h->owner;
		pg->ref = rec->refs[n];
		xsim_grant_store(&dom->gnt[rec->refs[n]],
				 GTF_permit_access | (writable ? 0 : GTF_readonly),
				 domid, rec->pages[n]);
	}
	if (n < count) {
		err = errno;
		xsim_gnt_revoke(h->at, xh->domid, rec->pages, n);
		xsim_unlock(sh);
		errno = err;
		goto fail;
	}
	xsim_unlock(sh);

	/* The granting domain always has its own memory read-write. */
	rec->addr = xsim_map_pages(h->at, rec->pages, count,
				   PROT_READ | PROT_WRITE);
	if (rec->addr != NULL && xsim_place_as_caller(rec->addr, count) < 0) {
		err = errno;
		munmap(rec->addr, (size_t)count * XA_PAGE_SIZE);
		rec->addr = NULL;
		errno = err;
	}
	if (rec->addr == NULL) {
		err = errno;
		xsim_lock(sh);
		xsim_gnt_revoke(h->at, xh->domid, rec->pages, count);
		xsim_unlock(sh);
		errno = err;
		goto fail;
	}
	for (i = 0; i < count; i++)
		refs[i] = rec->refs[i];
	rec->next = h->shares;
	h->shares = rec;
	return rec->addr;

fail:
	err = errno;
	free(rec->pages);
	free(rec->refs);
	free(rec);
	errno = err;
	return NULL;
}

int
xsim_gnt_unshare(struct xa_handle *xh, void *addr, uint32_t count)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_local_share **pp, *rec;

	for (pp = &h->shares; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->addr == addr && (*pp)->count == count)
			break;
	rec = *pp;
	if (rec == NULL) {
		errno = EINVAL;
		return -1;
	}
	*pp = rec->next;
	munmap(rec->addr, (size_t)count * XA_PAGE_SIZE);
	xsim_lock(h->at->sh);
	xsim_gnt_revoke(h->at, xh->domid, rec->pages, count);
	xsim_unlock(h->at->sh);
	free(rec->pages);
	free(rec->refs);
	free(rec);
	return 0;
}

/* Xen's checks for mapping one grant; the page index, or -1. */
static int64_t
xsim_map_check(struct xsim_shared *sh, domid_t self, domid_t domid,
	       grant_ref_t ref, bool writable)
{
	struct grant_entry_v1 e;
	struct xsim_page *pg;

	if (!xsim_domain_exists(sh, domid) || ref >= XSIM_GRANT_ENTRIES)
		return -1;
	e = xsim_grant_load(&sh->domains[domid].gnt[ref]);
	if ((e.flags & GTF_type_mask) != GTF_permit_access ||
	    e.domid != self || (writable && (e.flags & GTF_readonly)) ||
	    e.frame >= XSIM_POOL_PAGES)
		return -1;
	pg = &sh->pages[e.frame];
	if (pg->state != XSIM_PAGE_SHARED || pg->owner_dom != domid)
		return -1;
	return e.frame;
}

void *
xsim_gnt_map(struct xa_handle *xh, domid_t domid, uint32_t count,
	     const grant_ref_t *refs, bool writable)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;
	struct xsim_local_map *rec;
	uint32_t i, n;
	int64_t page;
	int err = EINVAL;

	if (count == 0 || count > XSIM_MAX_MAPS || refs == NULL) {
		errno = EINVAL;
		return NULL;
	}
	rec = calloc(1, sizeof(*rec));
	if (rec == NULL)
		return NULL;
	rec->pages = calloc(count, sizeof(*rec->pages));
	rec->entries = calloc(count, sizeof(*rec->entries));
	if (rec->pages == NULL || rec->entries == NULL) {
		err = ENOMEM;
		goto fail;
	}
	rec->count = count;

	xsim_lock(sh);
	for (n = 0; n < count; n++) {
		/* A failed grant map surfaces as EINVAL from gntdev's mmap. */
		page = xsim_map_check(sh, xh->domid, domid, refs[n], writable);
		if (page < 0) {
			err = EINVAL;
			break;
		}
		rec->pages[n] = page;
		if (xsim_map_add(sh, h->owner, xh->domid, page,
				 &rec->entries[n]) < 0) {
			err = errno;
			break;
		}
	}
	if (n < count) {
		for (i = 0; i < n; i++)
			xsim_map_drop(h->at, rec->entries[i]);
		xsim_unlock(sh);
		goto fail;
	}
	xsim_unlock(sh);

	rec->addr = xsim_map_pages(h->at, rec->pages, count,
				   writable ? PROT_READ | PROT_WRITE : PROT_READ);
	if (rec->addr == NULL) {
		err = errno;
		xsim_lock(sh);
		for (i = 0; i < count; i++)
			xsim_map_drop(h->at, rec->entries[i]);
		xsim_unlock(sh);
		goto fail;
	}
	xsim_local_map_link(h, rec);
	return rec->addr;

fail:
	free(rec->pages);
	free(rec->entries);
	free(rec);
	errno = err;
	return NULL;
}

/* Drop the map counts of @rec, whose pages are no longer mapped, and free it. */
static void
xsim_local_map_release(struct xsim_handle *h, struct xsim_local_map *rec)
{
	uint32_t i;

	xsim_lock(h->at->sh);
	for (i = 0; i < rec->count; i++)
		xsim_map_drop(h->at, rec->entries[i]);
	xsim_unlock(h->at->sh);
	free(rec->pages);
	free(rec->entries);
	free(rec);
}

int
xsim_gnt_unmap(struct xa_handle *xh, void *addr, uint32_t count)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_local_map *rec;

	rec = xsim_local_map_unlink(h, addr, count);
	if (rec == NULL) {
		errno = EINVAL;
		return -1;
	}
	munmap(rec->addr, (size_t)count * XA_PAGE_SIZE);
	xsim_local_map_release(h, rec);
	return 0;
}

int
xsim_gnt_detach(struct xa_handle *xh, void *addr, uint32_t count)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_local_map *rec;

	rec = xsim_local_map_unlink(h, addr, count);
	if (rec == NULL) {
		errno = EINVAL;
		return -1;
	}
	/* The copy first: the guest may reuse its pages once they are dropped. */
	if (xa_replace_with_copy(addr, count) != 0) {
		xsim_local_map_link(h, rec);
		return -1;
	}
	xsim_local_map_release(h, rec);
	return 0;
}

/* Domains whose grant tables this batch has announced it is reading. */
struct xsim_copy_hold {
	uint64_t held;
	uint8_t epoch[XSIM_MAX_DOMAINS];
};

static void
xsim_copy_hold(struct xsim_shared *sh, struct xsim_copy_hold *hold,
	       domid_t domid)
{
	struct xsim_domain *dom = &sh->domains[domid];
	uint32_t e;

	if (hold->held & (1ull << domid))
		return;
	e = __atomic_load_n(&dom->copy_epoch, __ATOMIC_SEQ_CST) & 1;
	__atomic_fetch_add(&dom->copy_inflight[e], 1, __ATOMIC_SEQ_CST);
	hold->epoch[domid] = e;
	hold->held |= 1ull << domid;
}

static void
xsim_copy_release(struct xsim_shared *sh, struct xsim_copy_hold *hold)
{
	uint64_t held = hold->held;
	unsigned int d;

	while (held != 0) {
		d = __builtin_ctzll(held);
		held &= held - 1;
		__atomic_fetch_sub(&sh->domains[d].copy_inflight[hold->epoch[d]],
				   1, __ATOMIC_SEQ_CST);
	}
}

/*
 * Resolve one side of a copy segment to an address in the hypervisor's view
 * of the pool, applying Xen's checks in Xen's order; GNTST_okay or the
 * status to report.
 */
static int16_t
xsim_copy_resolve(struct xsim_shared *sh, struct xsim_copy_hold *hold,
		  domid_t self, const union xengnttab_copy_ptr *ptr,
		  bool write, uint8_t **addr)
{
	struct grant_entry_v1 e;
	domid_t domid = ptr->foreign.domid;

	if (!xsim_domain_exists(sh, domid))
		return GNTST_bad_domain;
	if (ptr->foreign.ref >= XSIM_GRANT_ENTRIES)
		return GNTST_bad_gntref;
	/* Announce the read before reading the entry: see xsim_gnt_revoke(). */
	xsim_copy_hold(sh, hold, domid);
	e = xsim_grant_load(&sh->domains[domid].gnt[ptr->foreign.ref]);
	if ((e.flags & GTF_type_mask) != GTF_permit_access || e.domid != self)
		return XSIM_GNTST_BAD_ENTRY;
	if (write && (e.flags & GTF_readonly))
		return XSIM_GNTST_BAD_ENTRY;
	if (e.frame >= XSIM_POOL_PAGES)
		return GNTST_general_error;
	*addr = xsim_page_addr(sh, e.frame) + ptr->foreign.offset;
	return GNTST_okay;
}

/*
 * The data-path call: no mutex. Every segment gets its own status and a
 * failing one does not stop the others, as with GNTTABOP_copy.
 */
int
xsim_gnt_copy(struct xa_handle *xh, uint32_t count,
	      xengnttab_grant_copy_segment_t *segs)
{
	struct xsim_shared *sh = xsim_handle(xh)->at->sh;
	struct xsim_copy_hold hold = { .held = 0 };
	xengnttab_grant_copy_segment_t *seg;
	uint8_t *src, *dst;
	uint32_t i;
	int16_t st;

	pthread_rwlock_rdlock(&xsim_maps_lock);
	for (i = 0; i < count; i++) {
		seg = &segs[i];
		src = seg->source.virt;
		dst = seg->dest.virt;
		if (((seg->flags & GNTCOPY_source_gref) &&
		     seg->source.foreign.offset + seg->len > XA_PAGE_SIZE) ||
		    ((seg->flags & GNTCOPY_dest_gref) &&
		     seg->dest.foreign.offset + seg->len > XA_PAGE_SIZE)) {
			seg->status = GNTST_bad_copy_arg;
			continue;
		}
		st = GNTST_okay;
		if ((!(seg->flags & GNTCOPY_source_gref) &&
		     xsim_local_is_mapped(src, seg->len)) ||
		    (!(seg->flags & GNTCOPY_dest_gref) &&
		     xsim_local_is_mapped(dst, seg->len)))
			st = GNTST_bad_page;
		if (st == GNTST_okay && (seg->flags & GNTCOPY_source_gref))
			st = xsim_copy_resolve(sh, &hold, xh->domid,
					       &seg->source, false, &src);
		if (st == GNTST_okay && (seg->flags & GNTCOPY_dest_gref))
			st = xsim_copy_resolve(sh, &hold, xh->domid,
					       &seg->dest, true, &dst);
		if (st == GNTST_okay)
			memmove(dst, src, seg->len);
		seg->status = st;
	}
	xsim_copy_release(sh, &hold);
	pthread_rwlock_unlock(&xsim_maps_lock);
	return 0;
}

void
xsim_gnt_close(struct xsim_handle *h)
{
	struct xsim_local_share *share;
	struct xsim_local_map *map;

	while ((map = h->maps) != NULL) {
		xsim_local_map_unlink(h, map->addr, map->count);
		munmap(map->addr, (size_t)map->count * XA_PAGE_SIZE);
		free(map->pages);
		free(map->entries);
		free(map);
	}
	while ((share = h->shares) != NULL) {
		h->shares = share->next;
		munmap(share->addr, (size_t)share->count * XA_PAGE_SIZE);
		free(share->pages);
		free(share->refs);
		free(share);
	}
}

void
xsim_gnt_release(struct xsim_attach *at, xsim_owner_t owner)
{
	struct xsim_shared *sh = at->sh;
	domid_t domid = xsim_slot(sh, owner)->domid;
	struct xsim_domain *dom = &sh->domains[domid];
	bool any = false;
	uint32_t p, m;

	for (m = 0; m < XSIM_MAX_MAPS; m++)
		if (sh->maps[m].owner == owner)
			xsim_map_drop(at, m);
	for (p = 0; p < XSIM_POOL_PAGES; p++) {
		if (sh->pages[p].state == XSIM_PAGE_SHARED &&
		    sh->pages[p].owner == owner) {
			xsim_grant_store(&dom->gnt[sh->pages[p].ref], 0, 0, 0);
			any = true;
		}
	}
	if (!any)
		return;
	xsim_gnt_wait_copies(dom);
	for (p = 0; p < XSIM_POOL_PAGES; p++)
		if (sh->pages[p].state == XSIM_PAGE_SHARED &&
		    sh->pages[p].owner == owner)
			xsim_page_unshared(at, p);
}

void
xsim_gnt_usage(struct xsim_shared *sh, domid_t domid, struct xsim_usage *usage)
{
	struct xsim_domain *dom = &sh->domains[domid];
	struct grant_entry_v1 e;
	uint32_t r, m;

	for (r = 0; r < XSIM_GRANT_ENTRIES; r++) {
		e = xsim_grant_load(&dom->gnt[r]);
		if ((e.flags & GTF_type_mask) == GTF_permit_access)
			usage->grants++;
	}
	for (m = 0; m < XSIM_MAX_MAPS; m++)
		if (sh->maps[m].owner != 0 && sh->maps[m].dom == domid)
			usage->maps++;
}
