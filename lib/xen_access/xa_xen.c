/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The real-Xen provider of the Xen access interface. It owns one
 * connection to each of Xen's userspace libraries per handle: libxenevtchn
 * and libxenstore, opened with the handle because both ends of a netif
 * need them, and libxengnttab (grant map/copy, what a backend uses) and
 * libxengntshr (grant sharing, what a frontend uses), each opened on first
 * use, since a backend in Dom0 may have no gntalloc device and a frontend
 * in a DomU never needs gntdev. A further event channel endpoint is one
 * more libxenevtchn connection: its open is what gives it an fd of its
 * own. Every call keeps the libraries' failure
 * convention (NULL, -1 or false with errno set) and adds no logging.
 */

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <xenevtchn.h>
#include <xengnttab.h>
#include <xenstore.h>
#include <xen/sys/gntdev.h>

#include "xa_provider.h"

/* An event channel endpoint: one xenevtchn_open(). */
struct xa_xen_evtchn {
	struct xa_evtchn base;	/* must stay first: xa.c sees only this */
	xenevtchn_handle *xce;
};

struct xa_xen {
	struct xa_handle base;	/* must stay first: xa.c sees only this */
	struct xa_xen_evtchn evtchn;	/* the handle's own endpoint */
	struct xs_handle *xs;
	/*
	 * Opened lazily. xa_gnt_copy() may run on a data-plane lcore while
	 * the control thread maps or shares, so the first opener is chosen
	 * under open_lock and readers load the pointer with acquire order.
	 */
	xengnttab_handle *gnttab;
	xengntshr_handle *gntshr;
	pthread_mutex_t open_lock;
	uint32_t shared;	/* pages shared through gntshr, not yet unshared */
};

/*
 * gntalloc's limit counts every page shared in the DomU and does not say
 * how many are; this process's own count is what can be known.
 */
#define XEN_GNTALLOC_LIMIT "/sys/module/xen_gntalloc/parameters/limit"
static uint32_t xen_shared_pages;

static inline struct xa_xen *
to_xen(struct xa_handle *h)
{
	return (struct xa_xen *)h;
}

static inline xenevtchn_handle *
to_xce(struct xa_evtchn *e)
{
	return ((struct xa_xen_evtchn *)e)->xce;
}

static xengnttab_handle *
get_gnttab(struct xa_xen *x)
{
	xengnttab_handle *g;
	int err = 0;

	g = __atomic_load_n(&x->gnttab, __ATOMIC_ACQUIRE);
	if (g != NULL)
		return g;

	pthread_mutex_lock(&x->open_lock);
	g = x->gnttab;
	if (g == NULL) {
		g = xengnttab_open(NULL, 0);
		if (g == NULL)
			err = errno;
		else
			__atomic_store_n(&x->gnttab, g, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&x->open_lock);
	if (g == NULL)
		errno = err;	/* unlock must not clobber the open's errno */
	return g;
}

static xengntshr_handle *
get_gntshr(struct xa_xen *x)
{
	xengntshr_handle *g;
	int err = 0;

	g = __atomic_load_n(&x->gntshr, __ATOMIC_ACQUIRE);
	if (g != NULL)
		return g;

	pthread_mutex_lock(&x->open_lock);
	g = x->gntshr;
	if (g == NULL) {
		g = xengntshr_open(NULL, 0);
		if (g == NULL)
			err = errno;
		else
			__atomic_store_n(&x->gntshr, g, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&x->open_lock);
	if (g == NULL)
		errno = err;
	return g;
}

static void
xen_close(struct xa_handle *h)
{
	struct xa_xen *x = to_xen(h);

	/*
	 * Closing the grant handles also drops any mapping or share still
	 * outstanding, as the libraries document; closing xenstore drops
	 * the watches registered on this connection.
	 */
	if (x->gnttab != NULL)
		xengnttab_close(x->gnttab);
	if (x->gntshr != NULL)
		xengntshr_close(x->gntshr);
	__atomic_fetch_sub(&xen_shared_pages, x->shared, __ATOMIC_RELAXED);
	if (x->evtchn.xce != NULL)
		xenevtchn_close(x->evtchn.xce);
	xs_close(x->xs);	/* NULL is fine */
	pthread_mutex_destroy(&x->open_lock);
	free(x);
}

/* Grant tables (backend side). */

static void *
xen_gnt_map(struct xa_handle *h, domid_t domid, uint32_t count,
	    const grant_ref_t *refs, bool writable)
{
	xengnttab_handle *g;

	/* An empty mapping would reach mmap() with length 0. */
	if (count == 0) {
		errno = EINVAL;
		return NULL;
	}
	g = get_gnttab(to_xen(h));
	if (g == NULL)
		return NULL;
	/* The library only reads @refs; its prototype just lacks const. */
	return xengnttab_map_domain_grant_refs(g, count, domid,
			(uint32_t *)(uintptr_t)refs,
			writable ? PROT_READ | PROT_WRITE : PROT_READ);
}

static int
xen_gnt_unmap(struct xa_handle *h, void *addr, uint32_t count)
{
	xengnttab_handle *g = __atomic_load_n(&to_xen(h)->gnttab,
					      __ATOMIC_ACQUIRE);

	/* Without a gntdev handle nothing can have been mapped. */
	if (g == NULL) {
		errno = EINVAL;
		return -1;
	}
	return xengnttab_unmap(g, addr, count);
}

/*
 * libxengnttab unmaps by address, through the mapping's gntdev index, which
 * the copy's taking the address would lose: the index is read first, the
 * copy put in place (gntdev unmaps the grants as their range goes), and the
 * index released after.
 */
static int
xen_gnt_detach(struct xa_handle *h, void *addr, uint32_t count)
{
	xengnttab_handle *g =
		__atomic_load_n(&to_xen(h)->gnttab, __ATOMIC_ACQUIRE);
	struct ioctl_gntdev_get_offset_for_vaddr where = {
		.vaddr = (uintptr_t)addr,
	};
	struct ioctl_gntdev_unmap_grant_ref release;
	int fd;

	if (g == NULL) {
		errno = EINVAL;
		return -1;
	}
	fd = xengnttab_fd(g);
	if (ioctl(fd, IOCTL_GNTDEV_GET_OFFSET_FOR_VADDR, &where) != 0)
		return -1;
	if (where.count != count) {
		errno = EINVAL;
		return -1;
	}
	if (xa_replace_with_copy(addr, count) != 0)
		return -1;
	release.index = where.offset;
	release.count = count;
	return ioctl(fd, IOCTL_GNTDEV_UNMAP_GRANT_REF, &release);
}

static int
xen_gnt_copy(struct xa_handle *h, uint32_t count,
	     xengnttab_grant_copy_segment_t *segs)
{
	xengnttab_handle *g;

	/* An empty burst is common on an idle ring: skip the ioctl. */
	if (count == 0)
		return 0;
	g = get_gnttab(to_xen(h));
	if (g == NULL)
		return -1;
	/*
	 * The kernel splits the batch into hypercalls itself and fills each
	 * segment's status; if the call fails part-way, segments it did not
	 * reach keep whatever status the caller pre-set.
	 */
	return xengnttab_grant_copy(g, count, segs);
}

/* Grant sharing (frontend side). */

static void *
xen_gnt_share(struct xa_handle *h, domid_t domid, uint32_t count,
	      grant_ref_t *refs, bool writable)
{
	xengntshr_handle *g;
	void *addr;

	/* The library takes an int count. */
	if (count == 0 || count > INT_MAX) {
		errno = EINVAL;
		return NULL;
	}
	g = get_gntshr(to_xen(h));
	if (g == NULL)
		return NULL;
	/* gntalloc hands out freshly zeroed pages, as xa.h promises. */
	addr = xengntshr_share_pages(g, domid, (int)count, refs,
				     writable ? 1 : 0);
	if (addr != NULL) {
		to_xen(h)->shared += count;
		__atomic_fetch_add(&xen_shared_pages, count, __ATOMIC_RELAXED);
	}
	return addr;
}

static int
xen_gnt_unshare(struct xa_handle *h, void *addr, uint32_t count)
{
	xengntshr_handle *g = __atomic_load_n(&to_xen(h)->gntshr,
					      __ATOMIC_ACQUIRE);

	if (g == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (xengntshr_unshare(g, addr, count) < 0)
		return -1;
	to_xen(h)->shared -= count;
	__atomic_fetch_sub(&xen_shared_pages, count, __ATOMIC_RELAXED);
	return 0;
}

static int
xen_gnt_share_limit(struct xa_handle *h __attribute__((unused)), uint32_t *limit,
		    uint32_t *used)
{
	unsigned long v;
	FILE *f;
	int n;

	f = fopen(XEN_GNTALLOC_LIMIT, "r");
	if (f == NULL)
		return -1;
	n = fscanf(f, "%lu", &v);
	fclose(f);
	if (n != 1 || v > UINT32_MAX) {
		errno = EINVAL;
		return -1;
	}
	*limit = v;
	*used = __atomic_load_n(&xen_shared_pages, __ATOMIC_RELAXED);
	return 0;
}

static int
xen_gnt_share_set_limit(struct xa_handle *h __attribute__((unused)), uint32_t limit)
{
	FILE *f;
	int err;

	f = fopen(XEN_GNTALLOC_LIMIT, "w");
	if (f == NULL)
		return -1;
	if (fprintf(f, "%u\n", limit) < 0) {
		err = errno;
		fclose(f);
		errno = err;
		return -1;
	}
	/* sysfs reports a refused value when the buffer is written out. */
	return fclose(f) == 0 ? 0 : -1;
}

/* Event channels. */

static const struct xa_ops xen_ops;

static struct xa_evtchn *
xen_evtchn_open(struct xa_handle *h)
{
	struct xa_xen_evtchn *e;
	int err;

	e = calloc(1, sizeof(*e));
	if (e == NULL)
		return NULL;
	e->base.ops = &xen_ops;
	e->base.domid = h->domid;
	e->xce = xenevtchn_open(NULL, 0);
	if (e->xce == NULL) {
		err = errno;
		free(e);
		errno = err;
		return NULL;
	}
	return &e->base;
}

/* libxenevtchn's close unbinds every port still bound through it. */
static void
xen_evtchn_close(struct xa_evtchn *e)
{
	xenevtchn_close(to_xce(e));
	free(e);
}

static int
xen_evtchn_fd(struct xa_evtchn *e)
{
	return xenevtchn_fd(to_xce(e));
}

/* libxenevtchn returns a port or -1; -1 maps to an all-ones port. */
static evtchn_port_t
xen_evtchn_bind_unbound(struct xa_evtchn *e, domid_t remote)
{
	xenevtchn_port_or_error_t p;

	p = xenevtchn_bind_unbound_port(to_xce(e), remote);
	return p < 0 ? (evtchn_port_t)-1 : (evtchn_port_t)p;
}

static evtchn_port_t
xen_evtchn_bind_interdomain(struct xa_evtchn *e, domid_t remote,
			    evtchn_port_t remote_port)
{
	xenevtchn_port_or_error_t p;

	p = xenevtchn_bind_interdomain(to_xce(e), remote, remote_port);
	return p < 0 ? (evtchn_port_t)-1 : (evtchn_port_t)p;
}

static int
xen_evtchn_unbind(struct xa_evtchn *e, evtchn_port_t port)
{
	return xenevtchn_unbind(to_xce(e), port);
}

static int
xen_evtchn_notify(struct xa_evtchn *e, evtchn_port_t port)
{
	return xenevtchn_notify(to_xce(e), port);
}

static int
xen_evtchn_pending(struct xa_evtchn *e)
{
	xenevtchn_handle *xce = to_xce(e);
	struct pollfd pfd;
	int n;

	/*
	 * xenevtchn.h warns that a non-blocking fd does not reliably make
	 * xenevtchn_pending() fail with EWOULDBLOCK: it may block. Ask the
	 * fd first, without waiting, and only read when a port is queued.
	 */
	pfd.fd = xenevtchn_fd(xce);
	pfd.events = POLLIN;
	pfd.revents = 0;
	do {
		n = poll(&pfd, 1, 0);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (n == 0 || !(pfd.revents & POLLIN)) {
		errno = EAGAIN;
		return -1;
	}
	return xenevtchn_pending(xce);
}

static int
xen_evtchn_unmask(struct xa_evtchn *e, evtchn_port_t port)
{
	return xenevtchn_unmask(to_xce(e), port);
}

/* Xenstore: libxenstore already has the semantics xa.h promises. */

static int
xen_xs_fileno(struct xa_handle *h)
{
	return xs_fileno(to_xen(h)->xs);
}

static void *
xen_xs_read(struct xa_handle *h, xs_transaction_t t, const char *path,
	    unsigned int *len)
{
	return xs_read(to_xen(h)->xs, t, path, len);
}

static bool
xen_xs_write(struct xa_handle *h, xs_transaction_t t, const char *path,
	     const void *data, unsigned int len)
{
	return xs_write(to_xen(h)->xs, t, path, data, len);
}

static bool
xen_xs_rm(struct xa_handle *h, xs_transaction_t t, const char *path)
{
	return xs_rm(to_xen(h)->xs, t, path);
}

static char **
xen_xs_directory(struct xa_handle *h, xs_transaction_t t, const char *path,
		 unsigned int *num)
{
	return xs_directory(to_xen(h)->xs, t, path, num);
}

static bool
xen_xs_set_permissions(struct xa_handle *h, xs_transaction_t t,
		       const char *path, struct xs_permissions *perms,
		       unsigned int num)
{
	return xs_set_permissions(to_xen(h)->xs, t, path, perms, num);
}

static bool
xen_xs_watch(struct xa_handle *h, const char *path, const char *token)
{
	return xs_watch(to_xen(h)->xs, path, token);
}

static bool
xen_xs_unwatch(struct xa_handle *h, const char *path, const char *token)
{
	return xs_unwatch(to_xen(h)->xs, path, token);
}

static char **
xen_xs_check_watch(struct xa_handle *h)
{
	/*
	 * xs_check_watch() is the non-blocking reader (NULL and EAGAIN when
	 * nothing is queued); xs_read_watch() would block the control
	 * thread, so it is never used.
	 */
	return xs_check_watch(to_xen(h)->xs);
}

static xs_transaction_t
xen_xs_transaction_start(struct xa_handle *h)
{
	/* XBT_NULL (0) with errno set on failure. */
	return xs_transaction_start(to_xen(h)->xs);
}

static bool
xen_xs_transaction_end(struct xa_handle *h, xs_transaction_t t, bool abort)
{
	return xs_transaction_end(to_xen(h)->xs, t, abort);
}

static const struct xa_ops xen_ops = {
	.close = xen_close,
	.gnt_map = xen_gnt_map,
	.gnt_unmap = xen_gnt_unmap,
	.gnt_detach = xen_gnt_detach,
	.gnt_copy = xen_gnt_copy,
	.gnt_share = xen_gnt_share,
	.gnt_unshare = xen_gnt_unshare,
	.gnt_share_limit = xen_gnt_share_limit,
	.gnt_share_set_limit = xen_gnt_share_set_limit,
	.evtchn_open = xen_evtchn_open,
	.evtchn_close = xen_evtchn_close,
	.evtchn_fd = xen_evtchn_fd,
	.evtchn_bind_unbound = xen_evtchn_bind_unbound,
	.evtchn_bind_interdomain = xen_evtchn_bind_interdomain,
	.evtchn_unbind = xen_evtchn_unbind,
	.evtchn_notify = xen_evtchn_notify,
	.evtchn_pending = xen_evtchn_pending,
	.evtchn_unmask = xen_evtchn_unmask,
	.xs_fileno = xen_xs_fileno,
	.xs_read = xen_xs_read,
	.xs_write = xen_xs_write,
	.xs_rm = xen_xs_rm,
	.xs_directory = xen_xs_directory,
	.xs_set_permissions = xen_xs_set_permissions,
	.xs_watch = xen_xs_watch,
	.xs_unwatch = xen_xs_unwatch,
	.xs_check_watch = xen_xs_check_watch,
	.xs_transaction_start = xen_xs_transaction_start,
	.xs_transaction_end = xen_xs_transaction_end,
};

/*
 * Our own domain id. A relative path is resolved against the connection's
 * home (/local/domain/<self>), so "domid" is how a DomU learns who it is.
 * Some toolstacks write no such key for Dom0, hence 0 when it is absent.
 */
static int
read_own_domid(struct xs_handle *xs, domid_t *domid)
{
	unsigned long v;
	unsigned int len;
	char *s, *end;
	int ok;

	s = xs_read(xs, XBT_NULL, "domid", &len);
	if (s == NULL) {
		if (errno != ENOENT)
			return -1;
		*domid = 0;
		return 0;
	}
	errno = 0;
	v = strtoul(s, &end, 10);
	ok = errno == 0 && end != s && *end == '\0' && s[0] != '-' &&
		v < DOMID_FIRST_RESERVED;
	free(s);
	if (!ok) {
		errno = EINVAL;
		return -1;
	}
	*domid = (domid_t)v;
	return 0;
}

struct xa_handle *
xa_xen_open(const struct xa_open_args *args)
{
	struct xa_xen *x;
	int err;

	/* sim_instance and sim_domid mean nothing here: Xen knows who we are. */
	if (args->sim_plug_vif) {
		/*
		 * Plugging a vif is the toolstack's job on Xen. Refuse rather
		 * than ignore, so that a caller relying on the vif being there
		 * learns at once that it will not be.
		 */
		errno = EINVAL;
		return NULL;
	}

	x = calloc(1, sizeof(*x));
	if (x == NULL)
		return NULL;
	x->base.ops = &xen_ops;
	err = pthread_mutex_init(&x->open_lock, NULL);
	if (err != 0) {
		free(x);
		errno = err;
		return NULL;
	}

	x->evtchn.base.ops = &xen_ops;
	x->base.evtchn = &x->evtchn.base;
	x->evtchn.xce = xenevtchn_open(NULL, 0);
	if (x->evtchn.xce == NULL)
		goto fail;
	x->xs = xs_open(0);
	if (x->xs == NULL)
		goto fail;
	if (read_own_domid(x->xs, &x->base.domid) < 0)
		goto fail;
	x->evtchn.base.domid = x->base.domid;
	return &x->base;

fail:
	err = errno;
	xen_close(&x->base);
	errno = err;
	return NULL;
}
