/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The simulator as a provider of the Xen access interface: opening a
 * handle (joining the instance, making the domain exist, taking a handle
 * slot and binding its event channel and xenstore sockets, and when asked
 * playing xl for one vif) and closing it, which releases everything the
 * handle holds, as the hypervisor does when a process closes its gntdev,
 * gntalloc, evtchn and xenbus files. A further event channel endpoint is
 * one more open of the evtchn file: a handle slot of its own with its own
 * event socket, so delivery, release on close and the reaping of a dead
 * process's slots treat it as they treat a handle. Layer 5, the top (see
 * xsim_shm.h): calls every layer below it, and nothing in the simulator
 * calls it.
 */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xsim_domain.h"
#include "xsim_toolstack.h"

static void xsim_close(struct xa_handle *xh);
static struct xa_evtchn *xsim_endpoint_open(struct xa_handle *xh);
static void xsim_endpoint_close(struct xa_evtchn *xe);

static const struct xa_ops xsim_ops = {
	.close = xsim_close,
	.gnt_map = xsim_gnt_map,
	.gnt_unmap = xsim_gnt_unmap,
	.gnt_detach = xsim_gnt_detach,
	.gnt_copy = xsim_gnt_copy,
	.gnt_share = xsim_gnt_share,
	.gnt_unshare = xsim_gnt_unshare,
	.gnt_share_limit = xsim_gnt_share_limit,
	.gnt_share_set_limit = xsim_gnt_share_set_limit,
	.evtchn_open = xsim_endpoint_open,
	.evtchn_close = xsim_endpoint_close,
	.evtchn_fd = xsim_evtchn_fd,
	.evtchn_bind_unbound = xsim_evtchn_bind_unbound,
	.evtchn_bind_interdomain = xsim_evtchn_bind_interdomain,
	.evtchn_unbind = xsim_evtchn_unbind,
	.evtchn_notify = xsim_evtchn_notify,
	.evtchn_pending = xsim_evtchn_pending,
	.evtchn_unmask = xsim_evtchn_unmask,
	.xs_fileno = xsim_xs_fileno,
	.xs_read = xsim_xs_read,
	.xs_write = xsim_xs_write,
	.xs_rm = xsim_xs_rm,
	.xs_directory = xsim_xs_directory,
	.xs_set_permissions = xsim_xs_set_permissions,
	.xs_watch = xsim_xs_watch,
	.xs_unwatch = xsim_xs_unwatch,
	.xs_check_watch = xsim_xs_check_watch,
	.xs_transaction_start = xsim_xs_transaction_start,
	.xs_transaction_end = xsim_xs_transaction_end,
};

/*
 * Bind @fd to an abstract address unique per (instance, process, handle):
 * abstract names vanish with the socket, so nothing is left in the file
 * system by a process that dies.
 */
static int
xsim_bind(int fd, const char *instance, uint32_t id, const char *what,
	  struct sockaddr_un *addr, socklen_t *addrlen)
{
	int n;

	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	n = snprintf(addr->sun_path + 1, sizeof(addr->sun_path) - 1,
		     "xsim-%s-%d-%u-%s", instance, (int)getpid(), id, what);
	*addrlen = offsetof(struct sockaddr_un, sun_path) + 1 + n;
	return bind(fd, (struct sockaddr *)addr, *addrlen);
}

static xsim_owner_t
xsim_slot_alloc(struct xsim_shared *sh)
{
	xsim_owner_t owner;

	for (owner = 1; owner <= XSIM_MAX_HANDLES; owner++)
		if (xsim_slot(sh, owner)->pid == 0)
			return owner;
	errno = EMFILE;
	return 0;
}

/*
 * Take a free handle slot for an endpoint of @domid and bind @ev_fd to its
 * event address, a fresh one (@id); under the mutex. The slot stays free
 * until the caller, once everything else it needs is done, sets its pid.
 */
static xsim_owner_t
xsim_slot_open(struct xsim_attach *at, domid_t domid, int ev_fd,
	       uint32_t *id)
{
	struct xsim_shared *sh = at->sh;
	struct xsim_slot *slot;
	xsim_owner_t owner;

	xsim_reap_dead(at);
	owner = xsim_slot_alloc(sh);
	if (owner == 0)
		return 0;
	slot = xsim_slot(sh, owner);
	*id = ++sh->next_handle_id;
	if (xsim_bind(ev_fd, at->name, *id, "ev", &slot->ev_addr,
		      &slot->ev_addrlen) < 0)
		return 0;
	slot->domid = domid;
	slot->ev_overflow = 0;
	slot->xs_addrlen = 0;
	slot->xs_head = 0;
	slot->xs_count = 0;
	return owner;
}

/* An endpoint of @domid with its socket made; -1 with errno set. */
static int
xsim_endpoint_init(struct xsim_evtchn *e, domid_t domid)
{
	e->base.ops = &xsim_ops;
	e->base.domid = domid;
	e->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	return e->fd < 0 ? -1 : 0;
}

struct xa_handle *
xa_sim_open(const struct xa_open_args *args)
{
	const char *instance = args->sim_instance != NULL ?
		args->sim_instance : "default";
	struct xsim_shared *sh;
	struct xsim_handle *h;
	struct xsim_slot *slot;
	uint32_t id;
	int err;

	/* Before anything is made: a refused open leaves no trace. */
	if (args->sim_domid >= XSIM_MAX_DOMAINS ||
	    (args->sim_plug_vif && args->sim_vif_frontend >= XSIM_MAX_DOMAINS)) {
		errno = EINVAL;
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (h == NULL)
		return NULL;
	h->base.ops = &xsim_ops;
	h->base.domid = args->sim_domid;
	h->base.evtchn = &h->ev.base;
	xsim_endpoint_init(&h->ev, h->base.domid);
	h->xs_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (h->ev.fd < 0 || h->xs_fd < 0)
		goto fail;
	h->at = xsim_instance_attach(instance);
	if (h->at == NULL)
		goto fail;
	h->ev.at = h->at;
	sh = h->at->sh;

	xsim_lock(sh);
	h->owner = xsim_slot_open(h->at, h->base.domid, h->ev.fd, &id);
	if (h->owner == 0)
		goto fail_locked;
	h->ev.owner = h->owner;
	slot = xsim_slot(sh, h->owner);
	if (xsim_bind(h->xs_fd, instance, id, "xs", &slot->xs_addr,
		      &slot->xs_addrlen) < 0 ||
	    xsim_domain_register(h->at, h->xs_fd, h->base.domid) < 0)
		goto fail_locked;
	slot->pid = getpid();
	xsim_unlock(sh);
	/*
	 * Last, so that an open failing for any other reason has plugged
	 * nothing; the plug takes the mutex itself.
	 */
	if (args->sim_plug_vif &&
	    xsim_toolstack_plug_vif(instance, h->base.domid,
				    args->sim_vif_frontend,
				    args->sim_vif_handle) < 0) {
		err = errno;
		xsim_close(&h->base);
		errno = err;
		return NULL;
	}
	return &h->base;

fail_locked:
	err = errno;
	xsim_unlock(sh);
	xsim_detach(h->at);
	errno = err;
fail:
	err = errno;
	if (h->ev.fd >= 0)
		close(h->ev.fd);
	if (h->xs_fd >= 0)
		close(h->xs_fd);
	free(h);
	errno = err;
	return NULL;
}

static void
xsim_close(struct xa_handle *xh)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;

	xsim_gnt_close(h);
	xsim_xs_close(h);
	xsim_lock(sh);
	xsim_gnt_release(h->at, h->owner);
	xsim_evtchn_release(sh, h->owner);
	xsim_xs_release(sh, h->owner);
	xsim_slot(sh, h->owner)->pid = 0;
	xsim_unlock(sh);
	close(h->ev.fd);
	close(h->xs_fd);
	xsim_detach(h->at);
	free(h);
}

/*
 * A further endpoint: its own socket and slot, and its own hold on the
 * instance, so that nothing it uses goes away with the handle.
 */
static struct xa_evtchn *
xsim_endpoint_open(struct xa_handle *xh)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;
	struct xsim_evtchn *e;
	uint32_t id;
	int err;

	e = calloc(1, sizeof(*e));
	if (e == NULL)
		return NULL;
	if (xsim_endpoint_init(e, xh->domid) < 0) {
		err = errno;
		free(e);
		errno = err;
		return NULL;
	}
	e->at = h->at;
	xsim_attach_hold(e->at);
	xsim_lock(sh);
	e->owner = xsim_slot_open(e->at, xh->domid, e->fd, &id);
	if (e->owner != 0)
		xsim_slot(sh, e->owner)->pid = getpid();
	err = errno;
	xsim_unlock(sh);
	if (e->owner == 0) {
		xsim_detach(e->at);
		close(e->fd);
		free(e);
		errno = err;
		return NULL;
	}
	return &e->base;
}

static void
xsim_endpoint_close(struct xa_evtchn *xe)
{
	struct xsim_evtchn *e = xsim_evtchn(xe);
	struct xsim_shared *sh = e->at->sh;

	xsim_lock(sh);
	xsim_evtchn_release(sh, e->owner);
	xsim_slot(sh, e->owner)->pid = 0;
	xsim_unlock(sh);
	close(e->fd);
	xsim_detach(e->at);
	free(e);
}
