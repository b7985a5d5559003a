/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control ring of xen_netback, on the control thread: mapping the
 * frontend's ring and binding its channel on connect, answering its
 * requests (static grants, lib/netif/back/netif_statics.c, and the hash,
 * lib/netif/packet/netif_hash.c; every other type is answered NOT_SUPPORTED) a
 * turn's budget at a time (xn_control.c) and releasing all of it on
 * disconnect. A frontend that corrupts the ring is disconnected like one
 * that corrupts a data ring.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_alarm.h>
#include <rte_cycles.h>

#include "netif_lend.h"
#include "nb.h"
#include "xn_control.h"

/* How often to look for lent pages the application gave back. */
#define NB_REAP_PERIOD_US (100 * 1000)
/*
 * What waiting out the bursts of a table's queues (a quiesce) is charged,
 * in grant operations: a burst in flight copies up to NETIF_BACK_BURST_MAX
 * packets of up to a page each, about as long as mapping that many
 * grants, and the queues' bursts run at once on their lcores, so waiting
 * for them all costs about one burst.
 */
#define NB_QUIESCE_OPS NETIF_BACK_BURST_MAX

/* A static grant table was replaced: wait out the pair's bursts. */
static void
nb_statics_quiesce(void *opaque, unsigned int q)
{
	struct nb_port *p = opaque;
	struct nb_pair *pr = nb_pair(p, q);

	xn_queue_quiesce(&pr->rxq.x.q);
	xn_queue_quiesce(&pr->txq.x);
	p->ctrl_ring.quiesces++;
}

/* Static grant pages the vif keeps mapped now, lent ones included. */
static uint64_t
nb_statics_pages(const struct nb_port *p)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < p->statics.map.nb_queues; i++)
		n += p->statics.map.q[i]->pages;
	return n;
}

/*
 * Answer one request; *@ops: the pages it mapped or unmapped (a DEL that
 * empties a batch unmaps all of it) and its waits for the queues, for the
 * turn's budget. A batch the application still holds pages of is
 * unmapped later by nb_ctrl_ring_reap(), when the application, not the guest,
 * gives them back: not charged to the guest's turn.
 */
static bool
nb_ctrl_ring_request(void *opaque, const struct xen_netif_ctrl_request *req,
		     struct xen_netif_ctrl_response *rsp, uint32_t *ops)
{
	struct nb_port *p = opaque;
	uint64_t before = nb_statics_pages(p), after;
	bool ours;

	p->ctrl_ring.quiesces = 0;
	ours = netif_statics_serve(&p->statics.map, req, rsp) ||
	       netif_hash_serve(&p->hash, req, rsp);
	after = nb_statics_pages(p);
	*ops = (uint32_t)RTE_MIN(
		(after > before ? after - before : before - after) +
			(uint64_t)p->ctrl_ring.quiesces * NB_QUIESCE_OPS,
		UINT32_MAX);
	return ours;
}

/* The hash's key or table, from a grant of the frontend's. */
static bool
nb_hash_read(void *opaque, grant_ref_t ref, void *dst, uint32_t len)
{
	struct nb_port *p = opaque;

	return netif_copy_grant(p->xn.xa, p->fe_domid, ref, dst, len, false);
}

/* The hash changed: wait out the guest RX bursts that read the old one. */
static void
nb_hash_quiesce(void *opaque)
{
	struct nb_port *p = opaque;
	unsigned int i;

	for (i = 0; i < p->xn.nb_pairs; i++)
		xn_queue_quiesce(&nb_pair(p, i)->txq.x);
	p->ctrl_ring.quiesces++;
}

bool
nb_ctrl_ring_rss(struct xn_port *xn, struct netif_hash_config *cfg)
{
	const struct netif_hash_live *on = nb_port(xn)->hash.active;

	if (on == NULL)
		return false;
	*cfg = on->cfg;
	return true;
}

void
nb_ctrl_ring_init(struct nb_port *p)
{
	unsigned int i;

	p->hash.read = nb_hash_read;
	p->hash.quiesce = nb_hash_quiesce;
	p->hash.opaque = p;
	netif_hash_reset(&p->hash, 0);
	for (i = 0; i < p->xn.cfg.queues; i++)
		nb_pair(p, i)->txq.ring.hash = &p->hash;
}

/*
 * A guest asking for more mapped pages than the limits leave is refused
 * and counted (static_grant_over_limit); said in the log at most once a
 * second, since the guest decides how often it asks.
 */
static void
nb_ctrl_ring_log_over_limit(struct nb_port *p)
{
	uint64_t refused = 0, now = rte_get_timer_cycles();
	unsigned int i;

	for (i = 0; i < p->xn.cfg.queues; i++)
		refused += nb_pair(p, i)->rxq.statics.over_limit;
	/* The counters were reset. */
	if (refused < p->statics.over_limit_logged)
		p->statics.over_limit_logged = 0;
	if (refused == p->statics.over_limit_logged ||
	    now - p->statics.over_limit_log_at < rte_get_timer_hz())
		return;
	NB_LOG(WARNING,
	       "%s: refused %" PRIu64
	       " static grant lists past the limits on mapped pages (queue pair %u, vif %u, process %u; %" PRIu64
	       " mapped by the process)",
	       p->fe_dir, refused - p->statics.over_limit_logged,
	       p->statics.map.limits.queue, p->statics.map.limits.vif,
	       p->statics.map.limits.process, netif_statics_process_pages());
	p->statics.over_limit_logged = refused;
	p->statics.over_limit_log_at = now;
}

/*
 * Answer what waits, a turn's budget of it (p->ctrl_ring.back.more: some
 * is left); false when the frontend corrupted the ring.
 */
static bool
nb_ctrl_ring_answer(struct nb_port *p)
{
	if (netif_ctrl_back_serve(&p->ctrl_ring.back, nb_ctrl_ring_request, p,
				  NETIF_CTRL_BACK_BUDGET) &&
	    xa_evtchn_notify(xa_evtchn(p->xn.xa), p->xn.ctrl_evtchn) < 0)
		NB_LOG(WARNING, "%s: cannot notify the control ring: %s",
		       p->be_dir, strerror(errno));
	return p->ctrl_ring.back.error == NULL;
}

unsigned int
nb_ctrl_ring_serve(struct xn_port *xn, bool *more)
{
	struct nb_port *p = nb_port(xn);
	uint64_t before = p->ctrl_ring.back.requests;

	*more = false;
	if (p->ctrl_ring.sring != NULL) {
		if (!nb_ctrl_ring_answer(p)) {
			NB_LOG(ERR, "%s: the frontend broke the protocol (%s): disconnecting",
			       p->fe_dir, p->ctrl_ring.back.error);
			xn_ops_of(xn)->failed(xn, p->ctrl_ring.back.error);
		} else {
			*more = p->ctrl_ring.back.more;
		}
		nb_ctrl_ring_log_over_limit(p);
	}
	/* A DEL may have left a lent page to unmap later. */
	nb_ctrl_ring_reap(p);
	return p->ctrl_ring.back.requests - before;
}

static void
nb_reap_alarm(void *arg)
{
	struct nb_port *p = arg;

	pthread_mutex_lock(&p->xn.lock);
	p->statics.reap_armed = false;
	nb_ctrl_ring_reap(p);
	pthread_mutex_unlock(&p->xn.lock);
}

void
nb_ctrl_ring_reap(struct nb_port *p)
{
	if (netif_statics_reap(&p->statics.map) == 0 || p->statics.reap_armed)
		return;
	if (rte_eal_alarm_set(NB_REAP_PERIOD_US, nb_reap_alarm, p) == 0)
		p->statics.reap_armed = true;
	else
		NB_LOG(WARNING, "%s: cannot arm the alarm that unmaps lent pages: they stay mapped until the next disconnect",
		       p->be_dir);
}

/*
 * What outlives a port closed while the application holds lent packets:
 * the Xen access handle and the batches still mapped, released when the
 * last lender goes, on the thread that frees the last packet. Closing the
 * handle would unmap the pages under the application.
 */
struct nb_orphan {
	struct xa_handle *xa;
	uint32_t lenders;		/* lenders not gone yet */
	struct netif_statics statics;
	struct netif_statics_queue q[XN_MAX_QUEUES];
};

static void
nb_orphan_last(void *arg)
{
	struct nb_orphan *o = arg;
	unsigned int i;

	if (__atomic_sub_fetch(&o->lenders, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	/* Nothing is lent any more: every batch left goes. */
	for (i = 0; i < XN_MAX_QUEUES; i++)
		o->q[i].lend = NULL;
	netif_statics_reap(&o->statics);
	xa_close(o->xa);
	free(o);
}

/* Hand the mapped pages and the handle to the lenders; false: no memory. */
static bool
nb_orphan(struct nb_port *p)
{
	struct nb_orphan *o = calloc(1, sizeof(*o));
	unsigned int i;

	if (o == NULL)
		return false;
	o->xa = p->xn.xa;
	o->statics = p->statics.map;
	o->statics.xa = o->xa;
	for (i = 0; i < XN_MAX_QUEUES; i++)
		o->statics.q[i] = &o->q[i];
	for (i = 0; i < p->xn.cfg.queues; i++) {
		o->q[i] = nb_pair(p, i)->rxq.statics;
		if (nb_pair(p, i)->rxq.ring.lend != NULL)
			o->lenders++;
	}
	for (i = 0; i < p->xn.cfg.queues; i++)
		if (nb_pair(p, i)->rxq.ring.lend != NULL)
			netif_lend_on_last(nb_pair(p, i)->rxq.ring.lend,
					   nb_orphan_last, o);
	/* The port closes without closing the handle: the lenders will. */
	p->xn.xa = NULL;
	return true;
}

void
nb_ctrl_ring_uninit(struct nb_port *p)
{
	unsigned int i, held = 0, waiting;

	rte_eal_alarm_cancel(nb_reap_alarm, p);
	pthread_mutex_lock(&p->xn.lock);
	p->statics.reap_armed = true;	/* no more alarms */
	waiting = netif_statics_reap(&p->statics.map);
	pthread_mutex_unlock(&p->xn.lock);
	/* A held packet's mapping is undone through the handle too. */
	for (i = 0; i < p->xn.cfg.queues; i++)
		waiting += netif_lend_held(nb_pair(p, i)->rxq.ring.lend);
	if (waiting > 0 && !nb_orphan(p)) {
		NB_LOG(ERR, "%s: out of memory: the guest's pages the application holds stay mapped for good",
		       p->be_dir);
		p->xn.xa = NULL;	/* leaked, but never unmapped under it */
	}
	for (i = 0; i < p->xn.cfg.queues; i++) {
		held += netif_lend_destroy(nb_pair(p, i)->rxq.ring.lend);
		nb_pair(p, i)->rxq.ring.lend = NULL;
	}
	if (held > 0)
		NB_LOG(WARNING, "%s: closed while the application holds %u packets of the guest: their pages stay mapped until it frees them",
		       p->be_dir, held);
}

bool
nb_ctrl_ring_connect(struct nb_port *p)
{
	struct netif_statics_queue *queues[NETIF_STATICS_MAX_QUEUES];
	grant_ref_t ref = p->fe.ctrl_ring_ref;
	evtchn_port_t port;
	unsigned int i;

	RTE_BUILD_BUG_ON(NETIF_STATICS_MAX_QUEUES != XN_MAX_QUEUES);
	/* A new connection hashes nothing until it asks (the gate is closed). */
	netif_hash_reset(&p->hash, p->fe.nb_queues);
	if (!p->fe.ctrl_ring)
		return true;
	p->ctrl_ring.sring = xa_gnt_map(p->xn.xa, p->fe_domid, 1, &ref, true);
	if (p->ctrl_ring.sring == NULL) {
		NB_LOG(ERR, "%s: cannot map ctrl-ring-ref (grant %u of domain %u): %s",
		       p->fe_dir, ref, p->fe_domid, strerror(errno));
		return false;
	}
	if (netif_ctrl_back_attach(&p->ctrl_ring.back,
				   p->ctrl_ring.sring) != 0) {
		NB_LOG(ERR, "%s: refusing frontend: control ring indexes beyond the ring",
		       p->fe_dir);
		return false;
	}
	port = xa_evtchn_bind_interdomain(xa_evtchn(p->xn.xa), p->fe_domid,
					  p->fe.evtchn_ctrl);
	if (port == (evtchn_port_t)-1) {
		NB_LOG(ERR, "%s: cannot bind event-channel-ctrl %u of domain %u: %s",
		       p->fe_dir, p->fe.evtchn_ctrl, p->fe_domid,
		       strerror(errno));
		return false;
	}
	p->xn.ctrl_evtchn = port;
	xn_control_ctrl_connected(&p->xn);
	for (i = 0; i < p->fe.nb_queues; i++) {
		struct nb_pair *pr = nb_pair(p, i);

		queues[i] = &pr->rxq.statics;
		pr->rxq.statics.lend = pr->rxq.ring.lend;
		pr->rxq.ring.statics = &pr->rxq.statics.map;
		pr->txq.ring.statics = &pr->rxq.statics.map;
	}
	p->statics.map.quiesce = nb_statics_quiesce;
	p->statics.map.opaque = p;
	netif_statics_connect(&p->statics.map, p->xn.xa, p->fe_domid,
			      p->fe.nb_queues, queues, &p->cfg.statics_limits);
	/*
	 * What the frontend queued before we were there waits for no event;
	 * what this turn's budget leaves, for a turn of its own.
	 */
	if (nb_ctrl_ring_answer(p)) {
		if (p->ctrl_ring.back.more)
			xn_control_ctrl_more(&p->xn);
		return true;
	}
	NB_LOG(ERR, "%s: refusing frontend: %s", p->fe_dir,
	       p->ctrl_ring.back.error);
	return false;
}

void
nb_ctrl_ring_release(struct nb_port *p)
{
	unsigned int i;

	netif_statics_release(&p->statics.map);
	for (i = 0; i < p->xn.cfg.queues; i++)
		nb_pair(p, i)->rxq.ring.statics =
			nb_pair(p, i)->txq.ring.statics = NULL;
	if (p->xn.ctrl_evtchn != XN_NO_EVTCHN &&
	    xa_evtchn_unbind(xa_evtchn(p->xn.xa), p->xn.ctrl_evtchn) < 0)
		NB_LOG(WARNING, "%s: cannot unbind event-channel-ctrl: %s",
		       p->be_dir, strerror(errno));
	p->xn.ctrl_evtchn = XN_NO_EVTCHN;
	if (p->ctrl_ring.sring != NULL)
		xa_gnt_unmap(p->xn.xa, p->ctrl_ring.sring, 1);
	p->ctrl_ring.sring = NULL;
	nb_ctrl_ring_reap(p);
}
