/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control ring of xen_netback, on the control thread: mapping the
 * frontend's ring and binding its channel on connect, answering its
 * requests (static grants, lib/netif/netif_statics.c; every other type is
 * answered NOT_SUPPORTED) and releasing all of it on disconnect. A
 * frontend that corrupts the ring is disconnected like one that corrupts
 * a data ring.
 */

#include <errno.h>
#include <string.h>

#include <rte_alarm.h>

#include "netif_lend.h"
#include "nb.h"

/* How often to look for lent pages the application gave back. */
#define NB_REAP_PERIOD_US (100 * 1000)

/* A static grant table was replaced: wait out the pair's bursts. */
static void
nb_statics_quiesce(void *opaque, unsigned int q)
{
	struct nb_pair *pr = &((struct nb_port *)opaque)->pairs[q];

	xn_queue_quiesce(&pr->rxq.x.q);
	xn_queue_quiesce(&pr->txq.x);
}

static bool
nb_ctrl_request(void *opaque, const struct xen_netif_ctrl_request *req,
		struct xen_netif_ctrl_response *rsp)
{
	return netif_statics_serve(opaque, req, rsp);
}

/* Answer what waits; false when the frontend corrupted the ring. */
static bool
nb_ctrl_answer(struct nb_port *p)
{
	if (netif_ctrl_back_serve(&p->ctrl, nb_ctrl_request, &p->statics) &&
	    xa_evtchn_notify(p->xn.xa, p->xn.ctrl_evtchn) < 0)
		NB_LOG(WARNING, "%s: cannot notify the control ring: %s",
		       p->be_dir, strerror(errno));
	return p->ctrl.error == NULL;
}

void
nb_ctrl_serve(struct xn_port *xn)
{
	struct nb_port *p = nb_port(xn);

	if (p->ctrl_sring != NULL && !nb_ctrl_answer(p)) {
		NB_LOG(ERR, "%s: the frontend broke the protocol (%s): disconnecting",
		       p->fe_dir, p->ctrl.error);
		nb_xenbus_frontend_failed(xn, p->ctrl.error);
	}
	/* A DEL may have left a lent page to unmap later. */
	nb_ctrl_reap(p);
}

static void
nb_reap_alarm(void *arg)
{
	struct nb_port *p = arg;

	pthread_mutex_lock(&p->xn.lock);
	p->reap_armed = false;
	nb_ctrl_reap(p);
	pthread_mutex_unlock(&p->xn.lock);
}

void
nb_ctrl_reap(struct nb_port *p)
{
	if (netif_statics_reap(&p->statics) == 0 || p->reap_armed)
		return;
	if (rte_eal_alarm_set(NB_REAP_PERIOD_US, nb_reap_alarm, p) == 0)
		p->reap_armed = true;
	else
		NB_LOG(WARNING, "%s: cannot arm the alarm that unmaps lent pages: they stay mapped until the next disconnect",
		       p->be_dir);
}

void
nb_ctrl_uninit(struct nb_port *p)
{
	unsigned int i, held = 0;

	rte_eal_alarm_cancel(nb_reap_alarm, p);
	pthread_mutex_lock(&p->xn.lock);
	p->reap_armed = true;	/* no more alarms */
	if (netif_statics_reap(&p->statics) > 0)
		NB_LOG(WARNING, "%s: the application still holds packets of the guest: their pages stay mapped",
		       p->be_dir);
	pthread_mutex_unlock(&p->xn.lock);
	for (i = 0; i < XN_MAX_QUEUES; i++) {
		held += netif_lend_destroy(p->pairs[i].rxq.ring.lend);
		p->pairs[i].rxq.ring.lend = NULL;
	}
	if (held > 0)
		NB_LOG(WARNING, "%s: closed with %u lent packets not freed",
		       p->be_dir, held);
}

bool
nb_ctrl_connect(struct nb_port *p)
{
	struct netif_statics_queue *queues[NETIF_STATICS_MAX_QUEUES];
	grant_ref_t ref = p->fe.ctrl_ring_ref;
	evtchn_port_t port;
	unsigned int i;

	RTE_BUILD_BUG_ON(NETIF_STATICS_MAX_QUEUES != XN_MAX_QUEUES);
	if (!p->fe.ctrl_ring)
		return true;
	p->ctrl_sring = xa_gnt_map(p->xn.xa, p->fe_domid, 1, &ref, true);
	if (p->ctrl_sring == NULL) {
		NB_LOG(ERR, "%s: cannot map ctrl-ring-ref (grant %u of domain %u): %s",
		       p->fe_dir, ref, p->fe_domid, strerror(errno));
		return false;
	}
	if (netif_ctrl_back_attach(&p->ctrl, p->ctrl_sring) != 0) {
		NB_LOG(ERR, "%s: refusing frontend: control ring indexes beyond the ring",
		       p->fe_dir);
		return false;
	}
	port = xa_evtchn_bind_interdomain(p->xn.xa, p->fe_domid,
					  p->fe.evtchn_ctrl);
	if (port == (evtchn_port_t)-1) {
		NB_LOG(ERR, "%s: cannot bind event-channel-ctrl %u of domain %u: %s",
		       p->fe_dir, p->fe.evtchn_ctrl, p->fe_domid,
		       strerror(errno));
		return false;
	}
	p->xn.ctrl_evtchn = port;
	for (i = 0; i < p->fe.nb_queues; i++) {
		struct nb_pair *pr = &p->pairs[i];

		queues[i] = &pr->rxq.statics;
		pr->rxq.statics.lend = pr->rxq.ring.lend;
		pr->rxq.ring.statics = &pr->rxq.statics.map;
		pr->txq.ring.statics = &pr->rxq.statics.map;
	}
	p->statics.quiesce = nb_statics_quiesce;
	p->statics.opaque = p;
	netif_statics_connect(&p->statics, p->xn.xa, p->fe_domid,
			      p->fe.nb_queues, queues);
	/* What the frontend queued before we were there waits for no event. */
	if (nb_ctrl_answer(p))
		return true;
	NB_LOG(ERR, "%s: refusing frontend: %s", p->fe_dir, p->ctrl.error);
	return false;
}

void
nb_ctrl_release(struct nb_port *p)
{
	unsigned int i;

	netif_statics_release(&p->statics);
	for (i = 0; i < XN_MAX_QUEUES; i++)
		p->pairs[i].rxq.ring.statics = p->pairs[i].txq.ring.statics =
			NULL;
	if (p->xn.ctrl_evtchn != XN_NO_EVTCHN &&
	    xa_evtchn_unbind(p->xn.xa, p->xn.ctrl_evtchn) < 0)
		NB_LOG(WARNING, "%s: cannot unbind event-channel-ctrl: %s",
		       p->be_dir, strerror(errno));
	p->xn.ctrl_evtchn = XN_NO_EVTCHN;
	if (p->ctrl_sring != NULL)
		xa_gnt_unmap(p->xn.xa, p->ctrl_sring, 1);
	p->ctrl_sring = NULL;
	nb_ctrl_reap(p);
}
