/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Provider names and dispatch for the Xen access interface, plus the
 * small xenstore conveniences both PMDs use. Nothing here knows how a
 * provider works; which one a port gets is xa_detect.c's.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <numaif.h>

#include "xa_provider.h"

const char *
xa_provider_name(enum xa_provider provider)
{
	return provider == XA_PROVIDER_XEN ? "xen" : "sim";
}

int
xa_provider_parse(const char *name, enum xa_provider *provider)
{
	if (strcmp(name, "xen") == 0)
		*provider = XA_PROVIDER_XEN;
	else if (strcmp(name, "sim") == 0)
		*provider = XA_PROVIDER_SIM;
	else
		return -1;
	return 0;
}

struct xa_handle *
xa_open(const struct xa_open_args *args)
{
	switch (args->provider) {
	case XA_PROVIDER_XEN:
		return xa_xen_open(args);
	case XA_PROVIDER_SIM:
		return xa_sim_open(args);
	}
	errno = EINVAL;
	return NULL;
}

void
xa_close(struct xa_handle *h)
{
	if (h != NULL)
		h->ops->close(h);
}

domid_t
xa_domid(const struct xa_handle *h)
{
	return h->domid;
}

void *
xa_gnt_map(struct xa_handle *h, domid_t domid, uint32_t count,
	   const grant_ref_t *refs, bool writable)
{
	return h->ops->gnt_map(h, domid, count, refs, writable);
}

int
xa_gnt_unmap(struct xa_handle *h, void *addr, uint32_t count)
{
	return h->ops->gnt_unmap(h, addr, count);
}

int
xa_gnt_detach(struct xa_handle *h, void *addr, uint32_t count)
{
	return h->ops->gnt_detach(h, addr, count);
}

int
xa_gnt_copy(struct xa_handle *h, uint32_t count,
	    xengnttab_grant_copy_segment_t *segs)
{
	return h->ops->gnt_copy(h, count, segs);
}

void *
xa_gnt_share(struct xa_handle *h, domid_t domid, uint32_t count,
	     grant_ref_t *refs, bool writable)
{
	return h->ops->gnt_share(h, domid, count, refs, writable);
}

void *
xa_gnt_share_on_node(struct xa_handle *h, domid_t domid, uint32_t count,
		     grant_ref_t *refs, bool writable, int node)
{
	unsigned long own_nodes[XA_NODE_LONGS];
	unsigned long preferred[XA_NODE_LONGS] = { 0 };
	int own_mode, err;
	void *addr;

	if (node == XA_NODE_ANY)
		return xa_gnt_share(h, domid, count, refs, writable);
	if (node < 0 || node >= XA_NODE_BITS) {
		errno = EINVAL;
		return NULL;
	}
	if (get_mempolicy(&own_mode, own_nodes, XA_NODE_BITS + 1, NULL, 0) < 0)
		/* A kernel without NUMA has one place for every page. */
		return errno == ENOSYS ?
			       xa_gnt_share(h, domid, count, refs, writable) :
			       NULL;
	preferred[node / XA_NODE_LONG_BITS] = 1ul << (node % XA_NODE_LONG_BITS);
	/* Preferred, not bound: pages elsewhere beat no pages when it is full. */
	if (set_mempolicy(MPOL_PREFERRED, preferred, XA_NODE_BITS + 1) < 0)
		return NULL;
	addr = xa_gnt_share(h, domid, count, refs, writable);
	err = errno;
	/* The policy get_mempolicy() gave is one set_mempolicy() takes. */
	set_mempolicy(own_mode, own_nodes, XA_NODE_BITS + 1);
	errno = err;
	return addr;
}

int
xa_gnt_unshare(struct xa_handle *h, void *addr, uint32_t count)
{
	return h->ops->gnt_unshare(h, addr, count);
}

int
xa_gnt_share_limit(struct xa_handle *h, uint32_t *limit, uint32_t *used)
{
	return h->ops->gnt_share_limit(h, limit, used);
}

int
xa_gnt_share_set_limit(struct xa_handle *h, uint32_t limit)
{
	return h->ops->gnt_share_set_limit(h, limit);
}

struct xa_evtchn *
xa_evtchn(struct xa_handle *h)
{
	return h->evtchn;
}

struct xa_evtchn *
xa_evtchn_open(struct xa_handle *h)
{
	return h->ops->evtchn_open(h);
}

void
xa_evtchn_close(struct xa_evtchn *e)
{
	if (e != NULL)
		e->ops->evtchn_close(e);
}

int
xa_evtchn_fd(struct xa_evtchn *e)
{
	return e->ops->evtchn_fd(e);
}

evtchn_port_t
xa_evtchn_bind_unbound(struct xa_evtchn *e, domid_t remote)
{
	return e->ops->evtchn_bind_unbound(e, remote);
}

evtchn_port_t
xa_evtchn_bind_interdomain(struct xa_evtchn *e, domid_t remote,
			   evtchn_port_t remote_port)
{
	return e->ops->evtchn_bind_interdomain(e, remote, remote_port);
}

int
xa_evtchn_unbind(struct xa_evtchn *e, evtchn_port_t port)
{
	return e->ops->evtchn_unbind(e, port);
}

int
xa_evtchn_notify(struct xa_evtchn *e, evtchn_port_t port)
{
	return e->ops->evtchn_notify(e, port);
}

int
xa_evtchn_pending(struct xa_evtchn *e)
{
	return e->ops->evtchn_pending(e);
}

int
xa_evtchn_unmask(struct xa_evtchn *e, evtchn_port_t port)
{
	return e->ops->evtchn_unmask(e, port);
}

int
xa_xs_fileno(struct xa_handle *h)
{
	return h->ops->xs_fileno(h);
}

void *
xa_xs_read(struct xa_handle *h, xs_transaction_t t, const char *path,
	   unsigned int *len)
{
	return h->ops->xs_read(h, t, path, len);
}

bool
xa_xs_write(struct xa_handle *h, xs_transaction_t t, const char *path,
	    const void *data, unsigned int len)
{
	return h->ops->xs_write(h, t, path, data, len);
}

bool
xa_xs_rm(struct xa_handle *h, xs_transaction_t t, const char *path)
{
	return h->ops->xs_rm(h, t, path);
}

char **
xa_xs_directory(struct xa_handle *h, xs_transaction_t t, const char *path,
		unsigned int *num)
{
	return h->ops->xs_directory(h, t, path, num);
}

bool
xa_xs_set_permissions(struct xa_handle *h, xs_transaction_t t,
		      const char *path, struct xs_permissions *perms,
		      unsigned int num)
{
	return h->ops->xs_set_permissions(h, t, path, perms, num);
}

bool
xa_xs_watch(struct xa_handle *h, const char *path, const char *token)
{
	return h->ops->xs_watch(h, path, token);
}

bool
xa_xs_unwatch(struct xa_handle *h, const char *path, const char *token)
{
	return h->ops->xs_unwatch(h, path, token);
}

char **
xa_xs_check_watch(struct xa_handle *h)
{
	return h->ops->xs_check_watch(h);
}

xs_transaction_t
xa_xs_transaction_start(struct xa_handle *h)
{
	return h->ops->xs_transaction_start(h);
}

bool
xa_xs_transaction_end(struct xa_handle *h, xs_transaction_t t, bool abort)
{
	return h->ops->xs_transaction_end(h, t, abort);
}

bool
xa_xs_printf(struct xa_handle *h, xs_transaction_t t, const char *path,
	     const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		errno = E2BIG;
		return false;
	}
	return xa_xs_write(h, t, path, buf, n);
}

bool
xa_xs_read_uint(struct xa_handle *h, xs_transaction_t t, const char *path,
		unsigned long *val)
{
	unsigned int len;
	char *s, *end;
	bool ok;

	s = xa_xs_read(h, t, path, &len);
	if (s == NULL)
		return false;
	errno = 0;
	*val = strtoul(s, &end, 10);
	ok = errno == 0 && end != s && *end == '\0' && s[0] != '-';
	free(s);
	if (!ok)
		errno = EINVAL;
	return ok;
}
