/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The application's multicast list, kept by the backend (netif.h,
 * "feature-multicast-control"): the netfront joins each group with a dummy
 * request on queue 0's TX ring (an MCAST_ADD extra) and leaves it with an
 * MCAST_DEL, and asks the backend to drop the frames of other groups
 * (request-multicast-control) while the application has a list and
 * neither promiscuous nor all-multicast mode is on. An empty list asks
 * for nothing: every multicast frame arrives, as before a list is set.
 * The backend forgets the groups when we reconnect: they are joined again
 * each time. Without the dynamic variant the request is read once at
 * connect, so a change of mode waits for the next connection.
 */

#include <string.h>

#include "nf.h"
#include "xn_info.h"

static bool
nf_mcast_want_filter(const struct nf_port *ad)
{
	const struct xn_rx_filter *f = &ad->xn.filter;

	return ad->mcast.offered && f->nb_mc > 0 && !f->promiscuous &&
	       !f->all_multicast;
}

bool
nf_mcast_request(struct nf_port *ad, const struct xenbus_front_backend *be)
{
	ad->mcast.offered = be->mcast_control;
	ad->mcast.dynamic = be->mcast_dynamic;
	ad->mcast.nb_sent = 0;
	ad->mcast.requested = nf_mcast_want_filter(ad);
	return ad->mcast.requested;
}

static bool
nf_mcast_listed(const struct rte_ether_addr *list, unsigned int n,
		const struct rte_ether_addr *a)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (rte_is_same_ether_addr(&list[i], a))
			return true;
	return false;
}

/* Under the lock, the data path paused: dummies for what changed. */
static int
nf_mcast_send_changes(struct nf_port *ad, struct netif_front_tx *tx)
{
	const struct xn_rx_filter *f = &ad->xn.filter;
	unsigned int i = 0;

	while (i < ad->mcast.nb_sent) {
		if (nf_mcast_listed(f->mc, f->nb_mc, &ad->mcast.sent[i])) {
			i++;
			continue;
		}
		if (!netif_front_tx_mcast(tx, XEN_NETIF_EXTRA_TYPE_MCAST_DEL,
					  &ad->mcast.sent[i]))
			return -ENOSPC;
		ad->mcast.sent[i] = ad->mcast.sent[--ad->mcast.nb_sent];
	}
	for (i = 0; i < f->nb_mc; i++) {
		if (nf_mcast_listed(ad->mcast.sent, ad->mcast.nb_sent,
				    &f->mc[i]))
			continue;
		if (!netif_front_tx_mcast(tx, XEN_NETIF_EXTRA_TYPE_MCAST_ADD,
					  &f->mc[i]))
			return -ENOSPC;
		ad->mcast.sent[ad->mcast.nb_sent++] = f->mc[i];
	}
	return 0;
}

static bool
nf_mcast_in_sync(const struct nf_port *ad)
{
	const struct xn_rx_filter *f = &ad->xn.filter;
	unsigned int i;

	if (ad->mcast.nb_sent != f->nb_mc)
		return false;
	for (i = 0; i < f->nb_mc; i++)
		if (!nf_mcast_listed(ad->mcast.sent, ad->mcast.nb_sent,
				     &f->mc[i]))
			return false;
	return true;
}

int
nf_mcast_sync(struct nf_port *ad)
{
	struct nf_txq *q = &nf_pair(ad, 0)->txq;
	bool want = nf_mcast_want_filter(ad), notify;
	int ret;

	if (!ad->xn.connected || !xn_port_peer_serves(&ad->xn) || !ad->mcast.offered)
		return 0;
	if (want != ad->mcast.requested) {
		if (!ad->mcast.dynamic) {
			NF_LOG(NOTICE, "%s: the backend reads request-multicast-control only at connect: multicast frames %s until the next",
			       ad->fe_dir, ad->mcast.requested ?
			       "stay filtered" : "all arrive");
		} else if (xenbus_front_request_mcast(ad->xn.xa, ad->fe_dir,
						      want)) {
			ad->mcast.requested = want;
		} else {
			NF_LOG(ERR, "%s: cannot write request-multicast-control: %s",
			       ad->fe_dir, strerror(errno));
		}
	}
	if (nf_mcast_in_sync(ad))
		return 0;
	/* Queue 0's TX ring is the application's lcore's: stop it. */
	xn_port_pause(&ad->xn);
	netif_front_tx_collect(&q->ring);
	ret = nf_mcast_send_changes(ad, &q->ring);
	if (netif_front_tx_push(&q->ring, &notify) > 0)
		xn_doorbell(&q->x, notify ? NETIF_DOORBELL_RING :
					    NETIF_DOORBELL_QUIET);
	if (ret != 0)
		NF_LOG(ERR, "%s: TX ring full: the backend has %u of the %u multicast groups; they follow at the next change",
		       ad->fe_dir, ad->mcast.nb_sent, ad->xn.filter.nb_mc);
	return ret;
}

void
nf_mcast_info(const struct nf_port *ad, struct xn_info *w)
{
	w->u64(w, "multicast_offered", ad->mcast.offered);
	w->u64(w, "multicast_requested", ad->mcast.requested);
	w->u64(w, "multicast_groups_sent", ad->mcast.nb_sent);
}
