/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Event channels of the simulated hypervisor: each domain's port table
 * (free, unbound waiting for one remote domain, or interdomain), the pending
 * and mask bits, and delivery to the endpoint owning a port. Delivery is
 * what libxenevtchn does: a port whose pending bit goes 0->1 while unmasked
 * is masked and its number queued on the owner's fd (here a datagram to the
 * socket of the endpoint's handle slot); unmask re-delivers if it became
 * pending meanwhile. An endpoint (struct xsim_evtchn) is all this file
 * sees: a handle's own or a further one, each with a slot of its own.
 * Notify and unmask are lock-free; binding and unbinding take the mutex.
 * Layer 2 (see xsim_shm.h): calls only the segment.
 */

#include <errno.h>
#include <stdint.h>

#include "xsim_evtchn.h"

static struct xsim_port *
xsim_port(struct xsim_shared *sh, domid_t domid, evtchn_port_t port)
{
	return &sh->domains[domid].ports[port];
}

/* The port of this endpoint, or NULL (errno EINVAL) if it is not ours. */
static struct xsim_port *
xsim_own_port(struct xsim_evtchn *e, evtchn_port_t port)
{
	struct xsim_port *p;

	if (port == 0 || port >= XSIM_PORTS) {
		errno = EINVAL;
		return NULL;
	}
	p = xsim_port(e->at->sh, e->base.domid, port);
	if (__atomic_load_n(&p->state, __ATOMIC_ACQUIRE) == XSIM_PORT_FREE ||
	    __atomic_load_n(&p->owner, __ATOMIC_RELAXED) != e->owner) {
		errno = EINVAL;
		return NULL;
	}
	return p;
}

/*
 * Queue @port on its owner's socket. A full socket queue must not lose the
 * event: the owner is told to scan its ports, and the send is retried once
 * so that an owner that emptied its queue meanwhile still wakes up.
 */
static void
xsim_evtchn_deliver(struct xsim_shared *sh, int send_fd, struct xsim_port *p,
		    evtchn_port_t port)
{
	xsim_owner_t owner = __atomic_load_n(&p->owner, __ATOMIC_RELAXED);
	struct xsim_slot *slot;
	uint32_t msg = port;

	if (owner == 0)
		return;
	slot = xsim_slot(sh, owner);
	__atomic_store_n(&p->queued, 1, __ATOMIC_SEQ_CST);
	if (xsim_send(send_fd, &msg, sizeof(msg), &slot->ev_addr,
		      slot->ev_addrlen) == 0 || errno != EAGAIN)
		return;
	__atomic_store_n(&slot->ev_overflow, 1, __ATOMIC_SEQ_CST);
	xsim_send(send_fd, &msg, sizeof(msg), &slot->ev_addr, slot->ev_addrlen);
}

/* evtchn_set_pending(): deliver only on 0->1 of an unmasked port. */
static void
xsim_evtchn_raise(struct xsim_shared *sh, int send_fd, domid_t domid,
		  evtchn_port_t port)
{
	struct xsim_port *p = xsim_port(sh, domid, port);

	if (__atomic_exchange_n(&p->pending, 1, __ATOMIC_SEQ_CST) != 0)
		return;
	if (__atomic_exchange_n(&p->masked, 1, __ATOMIC_SEQ_CST) != 0)
		return;
	xsim_evtchn_deliver(sh, send_fd, p, port);
}

int
xsim_evtchn_fd(struct xa_evtchn *xe)
{
	return xsim_evtchn(xe)->fd;
}

/* A free port of @domid set up for @owner; under the mutex. */
static evtchn_port_t
xsim_port_alloc(struct xsim_shared *sh, domid_t domid, xsim_owner_t owner)
{
	struct xsim_port *p;
	evtchn_port_t port;

	/* Port 0 is never allocated, as in Xen. */
	for (port = 1; port < XSIM_PORTS; port++) {
		p = xsim_port(sh, domid, port);
		if (__atomic_load_n(&p->state, __ATOMIC_ACQUIRE) !=
		    XSIM_PORT_FREE)
			continue;
		__atomic_store_n(&p->owner, owner, __ATOMIC_RELAXED);
		__atomic_store_n(&p->pending, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&p->masked, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&p->queued, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&p->storm, 0, __ATOMIC_RELAXED);
		return port;
	}
	errno = ENOSPC;
	return 0;
}

static void
xsim_port_set(struct xsim_port *p, uint32_t state, domid_t remote_dom,
	      evtchn_port_t remote_port)
{
	__atomic_store_n(&p->remote_dom, remote_dom, __ATOMIC_RELAXED);
	__atomic_store_n(&p->remote_port, remote_port, __ATOMIC_RELAXED);
	__atomic_store_n(&p->state, state, __ATOMIC_RELEASE);
}

evtchn_port_t
xsim_evtchn_bind_unbound(struct xa_evtchn *xe, domid_t remote)
{
	struct xsim_evtchn *e = xsim_evtchn(xe);
	struct xsim_shared *sh = e->at->sh;
	domid_t domid = e->base.domid;
	evtchn_port_t port;

	if (remote >= XSIM_MAX_DOMAINS) {
		errno = EINVAL;
		return (evtchn_port_t)-1;
	}
	xsim_lock(sh);
	port = xsim_port_alloc(sh, domid, e->owner);
	if (port != 0)
		xsim_port_set(xsim_port(sh, domid, port), XSIM_PORT_UNBOUND,
			      remote, 0);
	xsim_unlock(sh);
	return port != 0 ? port : (evtchn_port_t)-1;
}

evtchn_port_t
xsim_evtchn_bind_interdomain(struct xa_evtchn *xe, domid_t remote,
			     evtchn_port_t remote_port)
{
	struct xsim_evtchn *e = xsim_evtchn(xe);
	struct xsim_shared *sh = e->at->sh;
	domid_t domid = e->base.domid;
	struct xsim_port *rp;
	evtchn_port_t port = 0;

	if (remote >= XSIM_MAX_DOMAINS) {
		errno = EINVAL;
		return (evtchn_port_t)-1;
	}
	xsim_lock(sh);
	if (!xsim_domain_exists(sh, remote)) {
		errno = ESRCH;
		goto out;
	}
	if (remote_port == 0 || remote_port >= XSIM_PORTS) {
		errno = EINVAL;
		goto out;
	}
	rp = xsim_port(sh, remote, remote_port);
	if (__atomic_load_n(&rp->state, __ATOMIC_ACQUIRE) != XSIM_PORT_UNBOUND ||
	    __atomic_load_n(&rp->remote_dom, __ATOMIC_RELAXED) != domid) {
		errno = EINVAL;
		goto out;
	}
	port = xsim_port_alloc(sh, domid, e->owner);
	if (port == 0)
		goto out;
	xsim_port_set(xsim_port(sh, domid, port), XSIM_PORT_INTERDOMAIN,
		      remote, remote_port);
	xsim_port_set(rp, XSIM_PORT_INTERDOMAIN, domid, port);
	/*
	 * Xen marks the new local end pending, because notifications sent
	 * to the unbound remote port before this bind were lost.
	 */
	xsim_evtchn_raise(sh, e->fd, domid, port);
out:
	xsim_unlock(sh);
	return port != 0 ? port : (evtchn_port_t)-1;
}

/* Close a port; an interdomain peer goes back to unbound, as in Xen. */
static void
xsim_port_close(struct xsim_shared *sh, domid_t domid, evtchn_port_t port)
{
	struct xsim_port *p = xsim_port(sh, domid, port);
	struct xsim_port *rp;
	domid_t rdom;
	evtchn_port_t rport;

	if (__atomic_load_n(&p->state, __ATOMIC_ACQUIRE) ==
	    XSIM_PORT_INTERDOMAIN) {
		rdom = __atomic_load_n(&p->remote_dom, __ATOMIC_RELAXED);
		rport = __atomic_load_n(&p->remote_port, __ATOMIC_RELAXED);
		rp = xsim_port(sh, rdom, rport);
		if (__atomic_load_n(&rp->state, __ATOMIC_ACQUIRE) ==
		    XSIM_PORT_INTERDOMAIN &&
		    __atomic_load_n(&rp->remote_dom, __ATOMIC_RELAXED) == domid &&
		    __atomic_load_n(&rp->remote_port, __ATOMIC_RELAXED) == port)
			xsim_port_set(rp, XSIM_PORT_UNBOUND, domid, 0);
	}
	xsim_port_set(p, XSIM_PORT_FREE, 0, 0);
	__atomic_store_n(&p->owner, 0, __ATOMIC_RELAXED);
}

int
xsim_evtchn_unbind(struct xa_evtchn *xe, evtchn_port_t port)
{
	struct xsim_evtchn *e = xsim_evtchn(xe);
	struct xsim_shared *sh = e->at->sh;
	domid_t domid = e->base.domid;
	int rc = -1;

	xsim_lock(sh);
	if (xsim_own_port(e, port) != NULL) {
		xsim_port_close(sh, domid, port);
		rc = 0;
	}
	xsim_unlock(sh);
	return rc;
}

int
xsim_evtchn_notify(struct xa_evtchn *xe, evtchn_port_t port)
{
	struct xsim_evtchn *e = xsim_evtchn(xe);
	struct xsim_shared *sh = e->at->sh;
	domid_t domid = e->base.domid;
	struct xsim_port *p, *rp;
	domid_t rdom;
	evtchn_port_t rport;

	p = xsim_own_port(e, port);
	if (p == NULL)
		return -1;
	if (__atomic_load_n(&p->state, __ATOMIC_ACQUIRE) !=
	    XSIM_PORT_INTERDOMAIN) {
		errno = ENOTCONN;
		return -1;
	}
	rdom = __atomic_load_n(&p->remote_dom, __ATOMIC_RELAXED);
	rport = __atomic_load_n(&p->remote_port, __ATOMIC_RELAXED);
	rp = xsim_port(sh, rdom, rport);
	/* The peer may be unbinding right now: only a live link delivers. */
	if (__atomic_load_n(&rp->state, __ATOMIC_ACQUIRE) !=
	    XSIM_PORT_INTERDOMAIN ||
	    __atomic_load_n(&rp->remote_dom, __ATOMIC_RELAXED) != domid ||
	    __atomic_load_n(&rp->remote_port, __ATOMIC_RELAXED) != port) {
		errno = ENOTCONN;
		return -1;
	}
	xsim_evtchn_raise(sh, e->fd, rdom, rport);
	return 0;
}

/* Take one port from the overflow scan, or 0; see xsim_evtchn_deliver(). */
static evtchn_port_t
xsim_evtchn_scan(struct xsim_evtchn *e)
{
	struct xsim_shared *sh = e->at->sh;
	struct xsim_slot *slot = xsim_slot(sh, e->owner);
	evtchn_port_t port, found = 0;
	struct xsim_port *p;

	if (__atomic_exchange_n(&slot->ev_overflow, 0, __ATOMIC_SEQ_CST) == 0)
		return 0;
	for (port = 1; port < XSIM_PORTS; port++) {
		p = xsim_port(sh, e->base.domid, port);
		if (__atomic_load_n(&p->owner, __ATOMIC_RELAXED) != e->owner ||
		    __atomic_load_n(&p->queued, __ATOMIC_SEQ_CST) == 0)
			continue;
		if (found != 0) {
			/* More to come: keep the scan armed for the next call. */
			__atomic_store_n(&slot->ev_overflow, 1, __ATOMIC_SEQ_CST);
			break;
		}
		if (__atomic_exchange_n(&p->queued, 0, __ATOMIC_SEQ_CST) != 0)
			found = port;
	}
	return found;
}

int
xsim_evtchn_pending(struct xa_evtchn *xe)
{
	struct xsim_evtchn *e = xsim_evtchn(xe);
	struct xsim_port *p;
	uint32_t msg;
	ssize_t n;

	for (;;) {
		n = recv(e->fd, &msg, sizeof(msg), MSG_DONTWAIT);
		if (n < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return -1;
			msg = xsim_evtchn_scan(e);
			if (msg == 0) {
				errno = EAGAIN;
				return -1;
			}
			p = xsim_port(e->at->sh, e->base.domid, msg);
			__atomic_store_n(&p->pending, 0, __ATOMIC_SEQ_CST);
			return msg;
		}
		if (n != sizeof(msg) || msg == 0 || msg >= XSIM_PORTS)
			continue;
		p = xsim_port(e->at->sh, e->base.domid, msg);
		/*
		 * A datagram is stale when its port was closed since, or
		 * already returned by an overflow scan.
		 */
		if (__atomic_load_n(&p->owner, __ATOMIC_RELAXED) != e->owner ||
		    __atomic_exchange_n(&p->queued, 0, __ATOMIC_SEQ_CST) == 0)
			continue;
		__atomic_store_n(&p->pending, 0, __ATOMIC_SEQ_CST);
		return msg;
	}
}

int
xsim_evtchn_unmask(struct xa_evtchn *xe, evtchn_port_t port)
{
	struct xsim_evtchn *e = xsim_evtchn(xe);
	struct xsim_port *p;

	p = xsim_own_port(e, port);
	if (p == NULL)
		return -1;
	__atomic_store_n(&p->masked, 0, __ATOMIC_SEQ_CST);
	/* xsim_evtchn_set_storm(): the peer notified again meanwhile. */
	if (__atomic_load_n(&p->storm, __ATOMIC_RELAXED) != 0 &&
	    __atomic_load_n(&p->state, __ATOMIC_ACQUIRE) ==
	    XSIM_PORT_INTERDOMAIN)
		__atomic_store_n(&p->pending, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&p->pending, __ATOMIC_SEQ_CST) != 0 &&
	    __atomic_exchange_n(&p->masked, 1, __ATOMIC_SEQ_CST) == 0)
		xsim_evtchn_deliver(e->at->sh, e->fd, p, port);
	return 0;
}

int
xsim_evtchn_set_storm(struct xsim_shared *sh, domid_t domid,
		      evtchn_port_t port, bool on)
{
	struct xsim_port *p, *rp;

	if (port == 0 || port >= XSIM_PORTS) {
		errno = EINVAL;
		return -1;
	}
	p = xsim_port(sh, domid, port);
	if (__atomic_load_n(&p->state, __ATOMIC_ACQUIRE) !=
	    XSIM_PORT_INTERDOMAIN) {
		errno = ENOTCONN;
		return -1;
	}
	rp = xsim_port(sh, __atomic_load_n(&p->remote_dom, __ATOMIC_RELAXED),
		       __atomic_load_n(&p->remote_port, __ATOMIC_RELAXED));
	__atomic_store_n(&rp->storm, on, __ATOMIC_RELAXED);
	return 0;
}

void
xsim_evtchn_release(struct xsim_shared *sh, xsim_owner_t owner)
{
	domid_t domid = xsim_slot(sh, owner)->domid;
	evtchn_port_t port;

	for (port = 1; port < XSIM_PORTS; port++)
		if (__atomic_load_n(&sh->domains[domid].ports[port].owner,
				    __ATOMIC_RELAXED) == owner)
			xsim_port_close(sh, domid, port);
}

void
xsim_evtchn_usage(struct xsim_shared *sh, domid_t domid,
		  struct xsim_usage *usage)
{
	evtchn_port_t port;

	for (port = 1; port < XSIM_PORTS; port++)
		if (__atomic_load_n(&sh->domains[domid].ports[port].state,
				    __ATOMIC_ACQUIRE) != XSIM_PORT_FREE)
			usage->ports++;
}
