/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control ring of xen_netfront, on the control thread: connected with
 * every backend that offers feature-ctrl-ring, for static grants and for
 * the application's hash (nf_rss.c, which queues its requests through
 * this file's functions: the ring is this file's alone). Static grants:
 * each queue pair asks the backend to keep the pair's buffer pages mapped
 * (ADD_GREF_MAPPING: TX pages read-only, RX pages writable), so that our
 * own netback serves the pair with plain memory copies and no hypercall
 * per packet. A backend that does not keep them (Linux netback answers
 * NOT_SUPPORTED) goes on with grant copies, as before: the answer changes
 * nothing on our side but the static_grants counter.
 */

#include <errno.h>
#include <string.h>

#include "nf.h"
#include "xn_control.h"
#include "xn_info.h"

uint32_t
nf_ctrl_ring_grants(unsigned int nb_queues, bool statics)
{
	/* The ring's page, the hash's, and each pair's list pages. */
	return 1 + NF_RSS_PAGES +
	       (statics ? NF_STATICS_LISTS * nb_queues : 0);
}

/*
 * Queue the ADD_GREF_MAPPING requests of pair @i: its TX pages read-only,
 * and writable its RX buffers, the zero-copy pool's pages when it receives
 * into them; one request per list page.
 */
static bool
nf_ctrl_ring_queue_add(struct nf_port *ad, unsigned int i, const char **why)
{
	const uint32_t per_list = XA_PAGE_SIZE / sizeof(struct xen_netif_gref);
	struct nf_pair *pr = nf_pair(ad, i);
	const struct netif_front_pool *zc = pr->rxq.ring.zc;
	struct xen_netif_gref *list;
	unsigned int n = 0, k;

	RTE_BUILD_BUG_ON(NETIF_TX_RING_SIZE + NF_ZC_PAGES >
			 NF_STATICS_LISTS * XA_PAGE_SIZE / sizeof(*list));
	*why = "cannot share the static grants' lists";
	list = xa_gnt_share_on_node(ad->xn.xa, ad->backend_id, NF_STATICS_LISTS,
				    pr->statics.list_refs, true,
				    ad->xn.dev->data->numa_node);
	if (list == NULL)
		return false;
	pr->statics.list = list;
	for (k = 0; k < NETIF_TX_RING_SIZE; k++)
		list[n++] = (struct xen_netif_gref){
			.ref = pr->tx_refs[k],
			.flags = XEN_NETIF_CTRLF_GREF_readonly,
		};
	for (k = 0; k < (zc != NULL ? zc->nb_pages : NETIF_RX_RING_SIZE); k++)
		list[n++] = (struct xen_netif_gref){
			.ref = zc != NULL ? zc->refs[k] : pr->rx_refs[k],
		};
	*why = "control ring full";
	for (k = 0; k < NF_STATICS_LISTS; k++) {
		pr->statics.entries[k] = n > k * per_list ?
			RTE_MIN(n - k * per_list, per_list) : 0;
		if (pr->statics.entries[k] > 0 &&
		    !netif_ctrl_front_queue(&ad->ctrl_ring.front,
					    XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING,
					    i, pr->statics.list_refs[k],
					    pr->statics.entries[k],
					    &pr->statics.ids[k]))
			return false;
	}
	return true;
}

bool
nf_ctrl_ring_connect(struct nf_port *ad, struct xenbus_front_keys *keys,
		     bool statics, const char **why)
{
	unsigned int i;

	*why = "cannot share the control ring";
	ad->ctrl_ring.sring = xa_gnt_share_on_node(ad->xn.xa, ad->backend_id,
						   1, &ad->ctrl_ring.ref, true,
						   ad->xn.dev->data->numa_node);
	if (ad->ctrl_ring.sring == NULL)
		return false;
	*why = "cannot allocate the control event channel";
	ad->xn.ctrl_evtchn = xa_evtchn_bind_unbound(xa_evtchn(ad->xn.xa),
						    ad->backend_id);
	if (ad->xn.ctrl_evtchn == XN_NO_EVTCHN)
		return false;
	xn_control_ctrl_connected(&ad->xn);
	netif_ctrl_front_attach(&ad->ctrl_ring.front, ad->ctrl_ring.sring);
	for (i = 0; statics && i < keys->nb_queues; i++)
		if (!nf_ctrl_ring_queue_add(ad, i, why))
			return false;
	/* Not connected yet: the backend answers what waits when it is. */
	netif_ctrl_front_push(&ad->ctrl_ring.front);
	keys->ctrl_ring = true;
	keys->ctrl_ring_ref = ad->ctrl_ring.ref;
	keys->evtchn_ctrl = ad->xn.ctrl_evtchn;
	return true;
}

void
nf_ctrl_ring_release(struct nf_port *ad)
{
	unsigned int i;

	for (i = 0; i < ad->xn.cfg.queues; i++) {
		struct nf_pair *pr = nf_pair(ad, i);

		pr->rxq.static_grants = 0;
		if (pr->statics.list != NULL &&
		    xa_gnt_unshare(ad->xn.xa, pr->statics.list,
				   NF_STATICS_LISTS) < 0)
			NF_LOG(WARNING, "%s: cannot unshare a static grants' list: %s",
			       ad->fe_dir, strerror(errno));
		pr->statics.list = NULL;
	}
	if (ad->xn.ctrl_evtchn != XN_NO_EVTCHN &&
	    xa_evtchn_unbind(xa_evtchn(ad->xn.xa), ad->xn.ctrl_evtchn) < 0)
		NF_LOG(WARNING, "%s: cannot unbind the control channel: %s",
		       ad->fe_dir, strerror(errno));
	ad->xn.ctrl_evtchn = XN_NO_EVTCHN;
	if (ad->ctrl_ring.sring != NULL &&
	    xa_gnt_unshare(ad->xn.xa, ad->ctrl_ring.sring, 1) < 0)
		NF_LOG(WARNING, "%s: cannot unshare the control ring: %s",
		       ad->fe_dir, strerror(errno));
	ad->ctrl_ring.sring = NULL;
}

bool
nf_ctrl_ring_queue(struct nf_port *ad, uint16_t type, uint32_t d0,
		   uint32_t d1, uint32_t d2, uint16_t *id)
{
	return netif_ctrl_front_queue(&ad->ctrl_ring.front, type, d0, d1, d2,
				      id);
}

unsigned int
nf_ctrl_ring_free(const struct nf_port *ad)
{
	return netif_ctrl_front_free(&ad->ctrl_ring.front);
}

void
nf_ctrl_ring_kick(struct nf_port *ad)
{
	if (netif_ctrl_front_push(&ad->ctrl_ring.front) &&
	    xa_evtchn_notify(xa_evtchn(ad->xn.xa), ad->xn.ctrl_evtchn) < 0)
		NF_LOG(WARNING, "%s: cannot notify the control channel: %s",
		       ad->fe_dir, strerror(errno));
}

void
nf_ctrl_ring_info(const struct nf_port *ad, struct xn_info *w)
{
	w->u64(w, "ctrl_ring", ad->ctrl_ring.sring != NULL);
}

/* The answer @rsp to list @k of pair @i's ADD_GREF_MAPPING requests. */
static void
nf_ctrl_ring_added(struct nf_port *ad, unsigned int i, unsigned int k,
		   const struct xen_netif_ctrl_response *rsp)
{
	struct nf_pair *pr = nf_pair(ad, i);

	if (rsp->status == XEN_NETIF_CTRL_STATUS_SUCCESS) {
		__atomic_fetch_add(&pr->rxq.static_grants,
				   pr->statics.entries[k], __ATOMIC_RELAXED);
		NF_LOG(INFO, "%s: queue pair %u: the backend keeps %u buffer grants mapped",
		       ad->fe_dir, i, pr->statics.entries[k]);
	} else {
		NF_LOG(INFO, "%s: queue pair %u: no static grants (status %u): the backend copies",
		       ad->fe_dir, i, rsp->status);
	}
}

unsigned int
nf_ctrl_ring_take(struct nf_port *ad, struct xen_netif_ctrl_response *rsp,
		  unsigned int max)
{
	int n;

	if (ad->ctrl_ring.sring == NULL)
		return 0;
	n = netif_ctrl_front_responses(&ad->ctrl_ring.front, rsp, max);
	if (n < 0) {
		xn_ops_of(&ad->xn)->failed(&ad->xn, ad->ctrl_ring.front.error);
		return 0;
	}
	return n;
}

void
nf_ctrl_ring_answered(struct nf_port *ad,
		      const struct xen_netif_ctrl_response *rsp)
{
	unsigned int i, k;

	for (i = 0; i < ad->xn.nb_pairs; i++)
		for (k = 0; k < NF_STATICS_LISTS; k++)
			if (nf_pair(ad, i)->statics.entries[k] > 0 &&
			    rsp->id == nf_pair(ad, i)->statics.ids[k] &&
			    rsp->type == XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING)
				nf_ctrl_ring_added(ad, i, k, rsp);
}
