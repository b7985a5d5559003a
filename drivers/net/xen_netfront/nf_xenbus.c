/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control plane of xen_netfront, run on the control thread of
 * drivers/common/xen_netif: it follows our device directory (the toolstack
 * plugs and unplugs the vif) and the backend's state through xenstore
 * watches, drives the handshake of xenbus_front.c, shares the ring and
 * buffer pages and binds the event channels on connect, and releases all
 * of it on disconnect, or when a burst reports a protocol violation. It
 * never frees what a burst may be using: the gate is closed first.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ether.h>

#include "nf.h"
#include "xn_info.h"

#define NF_WATCH_TOKEN "xen_netfront"
/* A key's path: one of our directories plus the key's name. */
#define NF_PATH_MAX (XENBUS_PATH_MAX + 32)
/* Transitions one event may drive before waiting for the backend again. */
#define NF_MAX_STEPS 8
/* How long a closing port waits for the backend to let go of our pages. */
#define NF_CLOSE_WAIT_MS 2000
#define NF_CLOSE_POLL_MS 10
/* How long a stopping port waits for the backend to take its packets. */
#define NF_DRAIN_WAIT_MS 1000

/* Zero-copy pools named past an earlier one's name still in use. */
static uint32_t nf_pools_renamed;

static void
nf_publish(struct nf_port *ad, enum xenbus_state state)
{
	xn_port_publish_state(&ad->xn, ad->fe_dir, state);
	ad->state = state;
}

static void
nf_unshare(struct nf_port *ad, void **pages, uint32_t count)
{
	if (*pages == NULL)
		return;
	if (xa_gnt_unshare(ad->xn.xa, *pages, count) < 0)
		NF_LOG(WARNING, "%s: cannot unshare %u pages: %s", ad->fe_dir,
		       count, strerror(errno));
	*pages = NULL;
}

static void
nf_unbind(struct nf_port *ad, struct xn_queue *q)
{
	evtchn_port_t *port = &q->evtchn;

	if (*port == XN_NO_EVTCHN)
		return;
	if (xa_evtchn_unbind(q->endpoint, *port) < 0)
		NF_LOG(WARNING, "%s: cannot unbind port %u: %s", ad->fe_dir,
		       *port, strerror(errno));
	*port = XN_NO_EVTCHN;
}

/* Give back every grant and port of the connection; idempotent. */
static void
nf_release(struct nf_port *ad)
{
	unsigned int i;

	nf_rss_release(ad);
	nf_ctrl_ring_release(ad);
	for (i = 0; i < ad->xn.cfg.queues; i++) {
		struct nf_pair *pr = nf_pair(ad, i);

		if (pr->rxq.x.q.evtchn != pr->txq.x.evtchn)
			nf_unbind(ad, &pr->rxq.x.q);
		nf_unbind(ad, &pr->txq.x);
		pr->rxq.x.q.evtchn = XN_NO_EVTCHN;
		nf_unshare(ad, &pr->srings, 2);
		nf_unshare(ad, &pr->tx_pages, NETIF_TX_RING_SIZE);
		nf_unshare(ad, &pr->rx_pages, NETIF_RX_RING_SIZE);
		/* Zero copy: the pool stays, the buffers posted go back. */
		netif_front_rx_detach(&pr->rxq.ring);
		netif_front_tx_detach(&pr->txq.ring);
	}
}

/* Stop the data path and tell the backend we are going. */
static void
nf_begin_close(struct nf_port *ad)
{
	xn_port_disconnected(&ad->xn);
	if (ad->state != XenbusStateClosing)
		nf_publish(ad, XenbusStateClosing);
}

static bool
nf_share(struct nf_port *ad, void **pages, uint32_t count, grant_ref_t *refs,
	 bool writable)
{
	*pages = xa_gnt_share_on_node(ad->xn.xa, ad->backend_id, count, refs,
				      writable, ad->xn.dev->data->numa_node);
	return *pages != NULL;
}

/* Through the pair's endpoint, as every channel of the pair. */
static bool
nf_bind(struct nf_port *ad, struct xn_queue *q)
{
	q->evtchn = xa_evtchn_bind_unbound(q->endpoint, ad->backend_id);
	return q->evtchn != XN_NO_EVTCHN;
}

/*
 * Whether queue pair @i may receive without a copy: asked for, and its pool
 * (if it has one yet) granted to this backend. A pool granted to another
 * domain (the vif moved) stays until the port closes: copies until then.
 */
static bool
nf_zero_copy_allowed(const struct nf_port *ad, unsigned int i)
{
	const struct netif_front_pool *zc = nf_pair(ad, i)->zc;

	return !ad->cfg.no_zero_copy &&
	       (zc == NULL || zc->backend == ad->backend_id);
}

/* Whether queue pair @i receives into its pool, created on first use. */
static bool
nf_zero_copy(struct nf_port *ad, unsigned int i)
{
	struct nf_pair *pr = nf_pair(ad, i);
	char name[RTE_MEMPOOL_NAMESIZE];

	if (!nf_zero_copy_allowed(ad, i))
		return false;
	if (pr->zc != NULL)
		return true;
	snprintf(name, sizeof(name), "xnf%u_zc%u", ad->xn.dev->data->port_id,
		 i);
	/*
	 * A pool the application still holds mbufs of outlives its port: a
	 * port probed again under the same id takes a name of its own.
	 */
	if (rte_mempool_lookup(name) != NULL)
		snprintf(name, sizeof(name), "xnf%u_zc%u_%u",
			 ad->xn.dev->data->port_id, i,
			 __atomic_add_fetch(&nf_pools_renamed, 1,
					    __ATOMIC_RELAXED));
	/* Its mbufs' headers with the port's memory (the pages are gntalloc's). */
	pr->zc = netif_front_pool_create(name, ad->xn.xa, ad->backend_id,
					 NF_ZC_PAGES,
					 ad->xn.dev->data->numa_node);
	if (pr->zc == NULL)
		NF_LOG(NOTICE, "%s: queue pair %u: no zero-copy pool (%s): copying",
		       ad->fe_dir, i, strerror(errno));
	return pr->zc != NULL;
}

/* Grants queue pair @i shares to connect, beyond any it keeps shared. */
static uint32_t
nf_pair_grants(const struct nf_port *ad, unsigned int i)
{
	if (!nf_zero_copy_allowed(ad, i))
		return NETIF_FRONT_GRANTS_PER_PAIR;
	return 2 + NETIF_TX_RING_SIZE +
	       (nf_pair(ad, i)->zc == NULL ? NF_ZC_PAGES : 0);
}

/*
 * Share queue pair @i's rings (with every RX buffer already posted) and
 * bind its event channels; @why says what failed.
 */
static bool
nf_connect_pair(struct nf_port *ad, unsigned int i, bool split,
		struct xenbus_front_queue *keys, const char **why)
{
	struct nf_pair *pr = nf_pair(ad, i);
	bool zc = nf_zero_copy(ad, i);
	bool notify;

	*why = "cannot share the ring pages";
	if (!nf_share(ad, &pr->srings, 2, pr->sring_refs, true))
		return false;
	/* The backend only reads what we send... */
	*why = "cannot share the TX buffer pages";
	if (!nf_share(ad, &pr->tx_pages, NETIF_TX_RING_SIZE, pr->tx_refs,
		      false))
		return false;
	/* ...and only writes where we receive. */
	*why = "cannot share the RX buffer pages";
	if (!zc && !nf_share(ad, &pr->rx_pages, NETIF_RX_RING_SIZE,
			     pr->rx_refs, true))
		return false;
	*why = "cannot allocate an event channel";
	if (!nf_bind(ad, &pr->txq.x))
		return false;
	pr->rxq.x.q.evtchn = pr->txq.x.evtchn;
	if (split && !nf_bind(ad, &pr->rxq.x.q))
		return false;

	netif_front_tx_attach(&pr->txq.ring, pr->srings, pr->tx_pages,
			      pr->tx_refs);
	/* The pool's mbufs are sent from their own pages. */
	pr->txq.ring.zc = zc ? pr->zc : NULL;
	if (zc)
		netif_front_rx_attach_zc(&pr->rxq.ring,
			(void *)((uint8_t *)pr->srings + XA_PAGE_SIZE), pr->zc,
			ad->xn.dev->data->port_id);
	else
		netif_front_rx_attach(&pr->rxq.ring,
			(void *)((uint8_t *)pr->srings + XA_PAGE_SIZE),
			pr->rx_pages, pr->rx_refs, ad->xn.dev->data->port_id);
	/* Not connected yet: nobody to notify. */
	netif_front_rx_push(&pr->rxq.ring, &notify);

	*keys = (struct xenbus_front_queue){
		.tx_ring_ref = pr->sring_refs[0],
		.rx_ring_ref = pr->sring_refs[1],
		.evtchn_tx = pr->txq.x.evtchn,
		.evtchn_rx = pr->rxq.x.q.evtchn,
	};
	return true;
}

/*
 * Every page we share counts against gntalloc's limit, one count for the
 * whole DomU whose default (1024) is below what two queue pairs need.
 * Check before sharing anything, raise the limit where we may (root), and
 * otherwise say what to do instead of failing halfway with ENOSPC.
 */
static bool
nf_grant_budget(struct nf_port *ad, unsigned int nb_queues, bool ctrl,
		bool statics)
{
	uint32_t need = ctrl ? nf_ctrl_ring_grants(nb_queues, statics) : 0;
	uint32_t limit, used;
	unsigned int i;

	for (i = 0; i < nb_queues; i++)
		need += nf_pair_grants(ad, i);

	if (xa_gnt_share_limit(ad->xn.xa, &limit, &used) < 0) {
		NF_LOG(NOTICE, "%s: cannot read the grant limit (%s): sharing %u pages unchecked",
		       ad->fe_dir, strerror(errno), need);
		return true;
	}
	if (used + need <= limit)
		return true;
	if (xa_gnt_share_set_limit(ad->xn.xa, used + need) == 0) {
		NF_LOG(NOTICE, "%s: grant limit raised from %u to %u for %u queue pairs",
		       ad->fe_dir, limit, used + need, nb_queues);
		return true;
	}
	NF_LOG(ERR, "%s: %u queue pairs need %u more grants (rings, buffers%s%s) and %u are shared already, but the limit is %u and cannot be raised here (%s): as root, echo %u > /sys/module/xen_gntalloc/parameters/limit, or load xen_gntalloc with limit=%u, or use fewer queues",
	       ad->fe_dir, nb_queues, need,
	       ad->cfg.no_zero_copy ? "" : ", zero-copy pools",
	       ctrl ? ", control ring" : "", used, limit, strerror(errno),
	       used + need, used + need);
	return false;
}

/*
 * The backend waits in InitWait: offer it as many queue pairs as we want
 * and it serves, then publish the keys.
 */
static bool
nf_connect(struct nf_port *ad)
{
	struct xenbus_front_backend be;
	struct xenbus_front_keys keys = { 0 };
	const char *why;
	unsigned int i;
	bool statics;

	if (!xenbus_front_read_backend(ad->xn.xa, ad->be_dir, &be, &why)) {
		NF_LOG(ERR, "%s: refusing backend %s: %s", ad->fe_dir,
		       ad->be_dir, why);
		return false;
	}
	keys.nb_queues = RTE_MIN((unsigned int)ad->xn.cfg.queues, be.max_queues);
	statics = be.ctrl_ring && !ad->cfg.no_statics;
	if (!nf_grant_budget(ad, keys.nb_queues, be.ctrl_ring, statics))
		return false;
	keys.split_evtchn = be.split_evtchn;
	/*
	 * Blank checksums are completed here when the application did not
	 * enable the offload, as cheaply as the backend would; large
	 * segments only for an application that takes them (Rx LRO or Tx
	 * TSO, or gso=on).
	 */
	keys.csum_ipv4 = keys.csum_ipv6 = true;
	keys.gso_tcpv4 = keys.gso_tcpv6 = xn_rx_offloads(&ad->xn) & NETIF_RX_GSO;
	keys.mcast_control = nf_mcast_request(ad, &be);
	for (i = 0; i < keys.nb_queues; i++) {
		struct nf_pair *pr = nf_pair(ad, i);

		if (!nf_connect_pair(ad, i, be.split_evtchn, &keys.queue[i],
				     &why))
			goto fail;
		pr->rxq.ring.gso_asked = keys.gso_tcpv4 ?
			NETIF_PEER_GSO_TCPV4 | NETIF_PEER_GSO_TCPV6 : 0;
		/* Every backend takes blank IPv4 checksums (netif.h). */
		pr->txq.ring.peer = NETIF_PEER_CSUM_IPV4 |
			(be.csum_ipv6 ? NETIF_PEER_CSUM_IPV6 : 0) |
			(be.gso_tcpv4 ? NETIF_PEER_GSO_TCPV4 : 0) |
			(be.gso_tcpv6 ? NETIF_PEER_GSO_TCPV6 : 0);
	}
	if (be.ctrl_ring && !nf_ctrl_ring_connect(ad, &keys, statics, &why))
		goto fail;
	why = "cannot share the hash pages";
	if (be.ctrl_ring && !nf_rss_connect(ad))
		goto fail;
	why = "cannot write the connection keys";
	if (!xenbus_front_write_keys(ad->xn.xa, ad->fe_dir, &keys))
		goto fail;

	xn_port_apply_rx_offloads(&ad->xn);
	xn_port_connected(&ad->xn, keys.nb_queues);
	NF_LOG(INFO, "%s: rings offered to %s (domain %u): %u of %u queue pairs, %s event channel%s",
	       ad->fe_dir, ad->be_dir, ad->backend_id, keys.nb_queues,
	       ad->xn.cfg.queues, be.split_evtchn ? "split" : "one",
	       be.split_evtchn ? "s" : "");
	if (keys.nb_queues < ad->xn.cfg.queues)
		NF_LOG(WARNING, "%s: the backend serves %u queue pairs: queues %u and above move nothing",
		       ad->fe_dir, be.max_queues, keys.nb_queues);
	return true;
fail:
	NF_LOG(ERR, "%s: %s: %s", ad->fe_dir, why, strerror(errno));
	nf_release(ad);
	return false;
}

/*
 * One step of the handshake. Returns false when nothing more happens until
 * the backend moves.
 */
static bool
nf_step(struct nf_port *ad)
{
	enum xenbus_state be = xenbus_read_state(ad->xn.xa, ad->be_dir);
	struct xenbus_front_step s = xenbus_front_next(ad->state, be);

	/* A backend we refused once stays refused until the port is re-created. */
	if (s.action == XENBUS_FRONT_CONNECT && ad->refused)
		return false;
	if (s.next != ad->state)
		NF_LOG(DEBUG, "%s: %s, backend %s: %s, then %s", ad->fe_dir,
		       xenbus_state_name(ad->state), xenbus_state_name(be),
		       xenbus_front_action_name(s.action),
		       xenbus_state_name(s.next));
	switch (s.action) {
	case XENBUS_FRONT_NONE:
		break;
	case XENBUS_FRONT_CONNECT:
		if (!nf_connect(ad)) {
			ad->refused = true;
			nf_begin_close(ad);
			return true;
		}
		break;
	case XENBUS_FRONT_LINK_UP:
		xn_port_peer_ready(&ad->xn, true);
		break;
	case XENBUS_FRONT_LINK_DOWN:
		xn_port_peer_ready(&ad->xn, false);
		break;
	case XENBUS_FRONT_DISCONNECT:
		nf_begin_close(ad);
		nf_release(ad);
		break;
	}
	if (s.next == ad->state)
		return false;
	nf_publish(ad, s.next);
	return true;
}

static void
nf_watch_backend(struct nf_port *ad, bool on)
{
	char path[NF_PATH_MAX];

	snprintf(path, sizeof(path), "%s/state", ad->be_dir);
	if (on ? !xa_xs_watch(ad->xn.xa, path, NF_WATCH_TOKEN) :
		 !xa_xs_unwatch(ad->xn.xa, path, NF_WATCH_TOKEN))
		NF_LOG(ERR, "%s: cannot %swatch %s: %s", ad->fe_dir,
		       on ? "" : "un", path, strerror(errno));
}

/* MAC and MTU the toolstack chose, when it chose valid ones. */
static void
nf_read_link_config(struct nf_port *ad)
{
	struct rte_ether_addr mac;
	char path[NF_PATH_MAX];
	unsigned int len;
	char *s;

	snprintf(path, sizeof(path), "%s/mac", ad->fe_dir);
	s = xa_xs_read(ad->xn.xa, XBT_NULL, path, &len);
	if (s != NULL && strlen(s) == len &&
	    rte_ether_unformat_addr(s, &mac) == 0 &&
	    rte_is_valid_assigned_ether_addr(&mac))
		rte_ether_addr_copy(&mac, ad->xn.dev->data->mac_addrs);
	else
		NF_LOG(NOTICE, "%s: no valid mac, keeping a random one",
		       ad->fe_dir);
	free(s);

	xn_port_follow_vif_mtu(&ad->xn, ad->fe_dir);
}

/* The toolstack plugged the vif: find its backend. */
static bool
nf_plug(struct nf_port *ad)
{
	char path[NF_PATH_MAX];
	unsigned long id;
	unsigned int len;
	char *be;

	snprintf(path, sizeof(path), "%s/backend", ad->fe_dir);
	be = xa_xs_read(ad->xn.xa, XBT_NULL, path, &len);
	/* Room for "/state" after it; and it is someone else's text. */
	if (be == NULL || len == 0 || strlen(be) != len || be[0] != '/' ||
	    len + sizeof("/state") > sizeof(ad->be_dir)) {
		NF_LOG(NOTICE, "%s: no valid backend path yet", ad->fe_dir);
		free(be);
		return false;
	}
	snprintf(path, sizeof(path), "%s/backend-id", ad->fe_dir);
	if (!xa_xs_read_uint(ad->xn.xa, XBT_NULL, path, &id) ||
	    id >= DOMID_FIRST_RESERVED || id == ad->xn.self) {
		NF_LOG(NOTICE, "%s: no valid backend-id yet", ad->fe_dir);
		free(be);
		return false;
	}
	memcpy(ad->be_dir, be, len + 1);
	free(be);
	ad->backend_id = id;
	nf_read_link_config(ad);
	nf_watch_backend(ad, true);
	ad->plugged = true;
	/* Whatever an earlier instance left there, start over. */
	ad->state = XenbusStateUnknown;
	NF_LOG(INFO, "%s: vif plugged, backend %s (domain %u)", ad->fe_dir,
	       ad->be_dir, ad->backend_id);
	return true;
}

/* Follow our device directory appearing and vanishing; true if present. */
static bool
nf_track_plug(struct nf_port *ad)
{
	bool present = xenbus_read_state(ad->xn.xa, ad->fe_dir) !=
		       XenbusStateUnknown;

	if (present == ad->plugged)
		return present;
	if (present)
		return nf_plug(ad);
	/* Unplugged under us: nobody is left to tell, just let go. */
	NF_LOG(NOTICE, "%s: vif unplugged", ad->fe_dir);
	xn_port_disconnected(&ad->xn);
	nf_release(ad);
	nf_watch_backend(ad, false);
	ad->plugged = false;
	ad->refused = false;
	return false;
}

void
nf_xenbus_update(struct xn_port *xn)
{
	struct nf_port *ad = nf_port(xn);
	unsigned int i;

	/* What we ask the backend for depends on the application's offloads. */
	if (!xn->configured)
		return;
	if (nf_track_plug(ad))
		for (i = 0; i < NF_MAX_STEPS && nf_step(ad); i++)
			;
	nf_mcast_sync(ad);
	nf_rss_send(ad);
	xn_port_refresh(&ad->xn);
}

/*
 * The port's part of its description (xn_info.h): the backend, both
 * states, and what we asked of it.
 */
void
nf_xenbus_info(struct xn_port *xn, struct xn_info *w)
{
	struct nf_port *ad = nf_port(xn);

	w->str(w, "role", "frontend");
	w->str(w, "frontend_dir", ad->fe_dir);
	w->str(w, "state", xenbus_state_name(ad->state));
	if (ad->be_dir[0] == '\0')
		return;
	w->u64(w, "backend_domid", ad->backend_id);
	w->str(w, "backend_dir", ad->be_dir);
	w->str(w, "backend_state",
	       xenbus_state_name(xenbus_read_state(xn->xa, ad->be_dir)));
	nf_ctrl_ring_info(ad, w);
	w->u64(w, "static_grants", !ad->cfg.no_statics);
	w->u64(w, "zero_copy", !ad->cfg.no_zero_copy);
	nf_mcast_info(ad, w);
}

/* Close, then follow the backend through its own close. */
void
nf_xenbus_backend_failed(struct xn_port *xn, const char *why __rte_unused)
{
	nf_begin_close(nf_port(xn));
	nf_xenbus_update(xn);
}

/*
 * Packets the application handed over sit in the TX ring until the backend
 * takes them; a port that stops without waiting would lose them unseen.
 * Runs with the data path closed, so the ring is ours.
 */
static void
nf_drain_tx(struct nf_port *ad, struct netif_front_tx *tx)
{
	unsigned int waited = 0;

	for (;;) {
		netif_front_tx_collect(tx);
		if (netif_front_tx_in_flight(tx) == 0 || tx->error != NULL)
			return;
		if (waited++ == NF_DRAIN_WAIT_MS)
			break;
		rte_delay_us_sleep(1000);
	}
	NF_LOG(WARNING, "%s: backend left %u TX requests unanswered",
	       ad->fe_dir, netif_front_tx_in_flight(tx));
}

void
nf_xenbus_drain(struct xn_port *xn)
{
	struct nf_port *ad = nf_port(xn);
	unsigned int i;

	for (i = 0; ad->xn.connected && xn_port_peer_serves(&ad->xn) &&
		    i < ad->xn.nb_pairs; i++)
		nf_drain_tx(ad, &nf_pair(ad, i)->txq.ring);
}

int
nf_xenbus_init(struct nf_port *ad)
{
	ad->state = XenbusStateUnknown;
	snprintf(ad->fe_dir, sizeof(ad->fe_dir),
		 "/local/domain/%u/device/vif/%u", ad->xn.self,
		 ad->xn.cfg.handle);
	/* A watch on the whole directory also sees the toolstack create it. */
	if (!xa_xs_watch(ad->xn.xa, ad->fe_dir, NF_WATCH_TOKEN)) {
		NF_LOG(ERR, "%s: cannot watch: %s", ad->fe_dir,
		       strerror(errno));
		return -errno;
	}
	ad->watching = true;
	return 0;
}

/* Wait until the backend has dropped its mappings of our pages. */
static void
nf_wait_backend_closed(struct nf_port *ad)
{
	unsigned int waited;

	for (waited = 0; waited < NF_CLOSE_WAIT_MS; waited += NF_CLOSE_POLL_MS) {
		enum xenbus_state be = xenbus_read_state(ad->xn.xa, ad->be_dir);

		if (be == XenbusStateClosing || be == XenbusStateClosed ||
		    be == XenbusStateUnknown)
			return;
		rte_delay_us_sleep(NF_CLOSE_POLL_MS * 1000);
	}
	NF_LOG(WARNING, "%s: backend %s did not close in %u ms", ad->fe_dir,
	       ad->be_dir, NF_CLOSE_WAIT_MS);
}

/*
 * The Xen handle of a closed port whose zero-copy pools the application
 * still holds mbufs of: the pools' pages were shared through it, so it
 * stays open until the last pool is freed (netif_front_pool_on_last()).
 */
struct nf_orphan {
	struct xa_handle *xa;
	uint32_t pools; /* pools not freed yet */
};

static void
nf_orphan_last(void *arg)
{
	struct nf_orphan *o = arg;

	if (__atomic_sub_fetch(&o->pools, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	xa_close(o->xa);
	free(o);
}

/*
 * Drop the port's reference to every zero-copy pool; the last mbuf the
 * application frees frees its pool, and the last pool the handle.
 */
static void
nf_free_pools(struct nf_port *ad)
{
	unsigned int i, pools = 0, held = 0;
	struct nf_orphan *o;

	for (i = 0; i < ad->xn.cfg.queues; i++)
		pools += nf_pair(ad, i)->zc != NULL;
	if (pools == 0)
		return;
	o = calloc(1, sizeof(*o));
	if (o == NULL) {
		NF_LOG(ERR,
		       "%s: out of memory: the zero-copy pools and their pages stay for good",
		       ad->fe_dir);
		ad->xn.xa = NULL; /* leaked, but never unshared under them */
		return;
	}
	o->xa = ad->xn.xa;
	o->pools = pools;
	/* The port closes without closing the handle: the pools will. */
	ad->xn.xa = NULL;
	for (i = 0; i < ad->xn.cfg.queues; i++) {
		struct nf_pair *pr = nf_pair(ad, i);
		struct netif_front_pool *zc = pr->zc;

		if (zc == NULL)
			continue;
		/*
		 * Unpublished before the free, which may destroy the pool at
		 * once: a reader of zero_copy_held must not find it after.
		 */
		__atomic_store_n(&pr->zc, NULL, __ATOMIC_RELEASE);
		netif_front_pool_on_last(zc, nf_orphan_last, o);
		held += netif_front_pool_free(zc);
	}
	if (held > 0)
		NF_LOG(NOTICE,
		       "%s: closed while the application holds %u zero-copy mbufs: their pages stay granted until it frees them",
		       ad->fe_dir, held);
}

void
nf_xenbus_uninit(struct nf_port *ad)
{
	pthread_mutex_lock(&ad->xn.lock);
	if (ad->plugged) {
		nf_begin_close(ad);
		if (nf_pair(ad, 0)->srings != NULL)
			nf_wait_backend_closed(ad);
		nf_release(ad);
		nf_publish(ad, XenbusStateClosed);
		nf_watch_backend(ad, false);
		ad->plugged = false;
	}
	/* A handle the pools keep open must not deliver our events. */
	if (ad->watching &&
	    !xa_xs_unwatch(ad->xn.xa, ad->fe_dir, NF_WATCH_TOKEN))
		NF_LOG(ERR, "%s: cannot unwatch: %s", ad->fe_dir,
		       strerror(errno));
	ad->watching = false;
	nf_free_pools(ad);
	pthread_mutex_unlock(&ad->xn.lock);
}
