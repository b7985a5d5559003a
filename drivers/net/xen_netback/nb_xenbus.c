/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control plane of xen_netback: it follows the frontend through
 * xenstore (on the control thread of drivers/common/xen_netif), maps and
 * unmaps the rings, binds and unbinds the event channels, and disconnects
 * a frontend a burst found misbehaving. The steps are decided by
 * xenbus_back_next() (lib/xenbus), whose state diagram is drawn above it.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb.h"
#include "xn_info.h"

/* Without a line: for the steps a guest may repeat at will. */
static void
nb_publish_state(struct nb_port *p, enum xenbus_state state)
{
	xn_port_publish_state(&p->xn, p->be_dir, state);
	p->state = state;
}

static void
nb_set_state(struct nb_port *p, enum xenbus_state state)
{
	NB_LOG(INFO, "%s: %s -> %s", p->be_dir, xenbus_state_name(p->state),
	       xenbus_state_name(state));
	nb_publish_state(p, state);
}

/* The ring of queue @q (the guest's TX ring is our Rx queue's). */
static void
nb_unmap_ring(struct nb_port *p, void **ring, struct xn_queue *q)
{
	if (*ring == NULL)
		return;
	xa_gnt_unmap(p->xn.xa, *ring, 1);
	__atomic_fetch_add(&q->grant.unmaps, 1, __ATOMIC_RELAXED);
	*ring = NULL;
}

static void
nb_release_pair(struct nb_port *p, struct nb_pair *pr)
{
	evtchn_port_t tx = pr->rxq.x.q.evtchn, rx = pr->txq.x.evtchn;

	if (rx != XN_NO_EVTCHN && rx != tx)
		xa_evtchn_unbind(pr->txq.x.endpoint, rx);
	if (tx != XN_NO_EVTCHN)
		xa_evtchn_unbind(pr->rxq.x.q.endpoint, tx);
	pr->rxq.x.q.evtchn = pr->txq.x.evtchn = XN_NO_EVTCHN;
	nb_unmap_ring(p, &pr->tx_sring, &pr->rxq.x.q);
	nb_unmap_ring(p, &pr->rx_sring, &pr->txq.x);
}

static void
nb_disconnect_frontend(struct nb_port *p, unsigned int nb_pairs)
{
	unsigned int i;

	if (!p->xn.connected && nb_pairs == 0)
		return;
	/* Closes the gate and waits: no burst touches a ring below. */
	xn_port_disconnected(&p->xn);
	nb_carrier_watch(p);
	nb_ctrl_ring_release(p);
	for (i = 0; i < nb_pairs; i++)
		nb_release_pair(p, nb_pair(p, i));
	NB_LOG(INFO, "%s: disconnected from %s", p->be_dir, p->fe_dir);
}

static void *
nb_map_ring(struct nb_port *p, grant_ref_t ref, const char *name,
	    struct xn_queue *q)
{
	void *page = xa_gnt_map(p->xn.xa, p->fe_domid, 1, &ref, true);

	__atomic_fetch_add(&q->grant.maps, 1, __ATOMIC_RELAXED);
	if (page == NULL)
		NB_LOG(ERR, "%s: cannot map %s (grant %u of domain %u): %s",
		       p->fe_dir, name, ref, p->fe_domid, strerror(errno));
	return page;
}

/* Through the pair's endpoint, as every channel of the pair. */
static evtchn_port_t
nb_bind_evtchn(struct nb_port *p, struct nb_pair *pr, evtchn_port_t remote)
{
	evtchn_port_t port;

	port = xa_evtchn_bind_interdomain(pr->rxq.x.q.endpoint, p->fe_domid,
					  remote);
	if (port == (evtchn_port_t)-1) {
		NB_LOG(ERR, "%s: cannot bind event channel %u of domain %u: %s",
		       p->fe_dir, remote, p->fe_domid, strerror(errno));
		return XN_NO_EVTCHN;
	}
	return port;
}

/* What the frontend takes on its RX ring, as lib/netif says it. */
static uint32_t
nb_peer_offloads(const struct xenbus_back_frontend *fe)
{
	return (fe->csum_ipv4 ? NETIF_PEER_CSUM_IPV4 : 0) |
	       (fe->csum_ipv6 ? NETIF_PEER_CSUM_IPV6 : 0) |
	       (fe->gso_tcpv4 ? NETIF_PEER_GSO_TCPV4 : 0) |
	       (fe->gso_tcpv6 ? NETIF_PEER_GSO_TCPV6 : 0);
}

/* Map and bind queue pair @i as the frontend's keys say. */
static bool
nb_connect_pair(struct nb_port *p, unsigned int i)
{
	const struct xenbus_back_queue *q = &p->fe.queue[i];
	struct nb_pair *pr = nb_pair(p, i);

	pr->tx_sring =
		nb_map_ring(p, q->tx_ring_ref, "tx-ring-ref", &pr->rxq.x.q);
	pr->rx_sring =
		nb_map_ring(p, q->rx_ring_ref, "rx-ring-ref", &pr->txq.x);
	if (pr->tx_sring == NULL || pr->rx_sring == NULL)
		return false;
	pr->rxq.ring.gso_offered = p->gso_offered ?
		NETIF_PEER_GSO_TCPV4 | NETIF_PEER_GSO_TCPV6 : 0;
	pr->txq.ring.peer = nb_peer_offloads(&p->fe);
	if (netif_back_tx_connect(&pr->rxq.ring, pr->tx_sring, p->xn.xa,
				  p->fe_domid) != 0 ||
	    netif_back_rx_connect(&pr->txq.ring, pr->rx_sring, p->xn.xa,
				  p->fe_domid) != 0) {
		NB_LOG(ERR, "%s: refusing frontend: queue %u: ring indexes beyond the ring",
		       p->fe_dir, i);
		return false;
	}
	/* The guest's TX ring is our Rx queue's, its RX ring our Tx queue's. */
	pr->rxq.x.q.evtchn = nb_bind_evtchn(p, pr, q->evtchn_tx);
	if (pr->rxq.x.q.evtchn == XN_NO_EVTCHN)
		return false;
	pr->txq.x.evtchn = q->split_evtchn ?
				   nb_bind_evtchn(p, pr, q->evtchn_rx) :
				   pr->rxq.x.q.evtchn;
	return pr->txq.x.evtchn != XN_NO_EVTCHN;
}

/*
 * Filter the guest's multicast frames while it asks for it
 * (request-multicast-control), from connect on and whenever it changes.
 */
static void
nb_follow_mcast_control(struct nb_port *p)
{
	bool on = xenbus_back_read_mcast_control(p->xn.xa, p->fe_dir);

	if (on == p->mcast.on)
		return;
	p->mcast.on = on;
	netif_mcast_enable(&p->mcast.filter, on);
	NB_LOG(INFO, "%s: multicast frames %s", p->fe_dir,
	       on ? "filtered by the guest's groups" : "all delivered");
}

/* Lines a guest's reconfigurations may cause in a 5 s window (as net_ratelimit). */
#define RECONFIG_LINES 10

/*
 * Leave the headroom the guest's XDP program wants in front of each frame
 * (xdp-headroom), from each queue's next push. The guest changes it
 * through Reconfiguring as often as it likes: its lines are rate-limited.
 */
static void
nb_follow_xdp_headroom(struct nb_port *p)
{
	uint64_t now = rte_get_timer_cycles();
	char why[XENBUS_WHY_MAX];
	uint16_t headroom;
	unsigned int i;
	bool valid;

	valid = xenbus_back_read_xdp_headroom(p->xn.xa, p->fe_dir,
					      NETIF_XDP_HEADROOM_MAX,
					      &headroom, why);
	for (i = 0; i < p->fe.nb_queues; i++)
		netif_back_rx_set_xdp_headroom(&nb_pair(p, i)->txq.ring,
					       headroom);
	/* Read again on every watch while Reconfigured: said once. */
	if (headroom == p->xdp.headroom && !valid == p->xdp.refused)
		return;
	p->xdp.headroom = headroom;
	p->xdp.refused = !valid;
	if (now - p->xdp.window >= 5 * rte_get_timer_hz()) {
		p->xdp.window = now;
		p->xdp.lines = 0;
	}
	if (p->xdp.lines++ >= RECONFIG_LINES)
		return;
	if (!valid)
		NB_LOG(WARNING, "%s: %s", p->fe_dir, why);
	NB_LOG(NOTICE, "%s: frames start %u bytes into their page (xdp-headroom; reconfiguration %" PRIu64 ")",
	       p->fe_dir, headroom, p->xdp.reconfigurations);
}

/* Returns false with everything released when the frontend is unusable. */
static bool
nb_connect_frontend(struct nb_port *p)
{
	char why[XENBUS_WHY_MAX];
	unsigned int i;

	if (!xenbus_back_read_frontend(p->xn.xa, p->fe_dir, p->xn.cfg.queues,
				       &p->fe, why)) {
		NB_LOG(ERR, "%s: refusing frontend: %s", p->fe_dir, why);
		return false;
	}
	for (i = 0; i < p->fe.nb_queues; i++)
		if (!nb_connect_pair(p, i)) {
			nb_disconnect_frontend(p, i + 1);
			return false;
		}
	if (!nb_ctrl_ring_connect(p)) {
		nb_disconnect_frontend(p, p->fe.nb_queues);
		return false;
	}
	xn_port_apply_rx_offloads(&p->xn);
	/* A new connection starts with an empty list (the gate is closed). */
	netif_mcast_reset(&p->mcast.filter);
	p->mcast.on = false;
	nb_follow_mcast_control(p);
	p->xdp.headroom = 0;
	p->xdp.refused = false;
	nb_follow_xdp_headroom(p);
	/* The guest's MTU, for the application to size its side by. */
	xn_port_follow_vif_mtu(&p->xn, p->fe_dir);
	xn_port_connected(&p->xn, p->fe.nb_queues);
	/* A frontend connects before we do: it serves its rings already. */
	xn_port_peer_ready(&p->xn, true);
	nb_carrier_watch(p);
	NB_LOG(INFO, "%s: connected to %s: %u of %u queue pairs (%s event channels)",
	       p->be_dir, p->fe_dir, p->fe.nb_queues, p->xn.cfg.queues,
	       p->fe.queue[0].split_evtchn ? "split" : "one pair of");
	return true;
}

/*
 * The toolstack's rate limit of the vif (the `rate` key), read at connect
 * and after every change in our directory, as Linux watches it: applied
 * from the guest's next packet. A value that is not a rate is logged once
 * and leaves the vif unlimited, as in Linux.
 */
static void
nb_read_rate(struct nb_port *p)
{
	char path[XENBUS_PATH_MAX + sizeof("/rate")];
	struct xenbus_back_rate rate;
	char why[XENBUS_WHY_MAX];
	const char *text;
	unsigned int len;
	char *value;
	bool ok;

	snprintf(path, sizeof(path), "%s/rate", p->be_dir);
	value = xa_xs_read(p->xn.xa, XBT_NULL, path, &len);
	text = value != NULL ? value : "";
	if (strncmp(text, p->rate.text, sizeof(p->rate.text)) == 0) {
		free(value);
		return;		/* unchanged: nothing to log or apply */
	}
	snprintf(p->rate.text, sizeof(p->rate.text), "%s", text);
	ok = strlen(text) == (value != NULL ? len : 0);
	if (!ok)
		snprintf(why, sizeof(why), "rate: not text");
	else
		ok = xenbus_back_parse_rate(value, NETIF_CREDIT_BYTES_MAX,
					    NETIF_CREDIT_USEC_MAX, &rate, why);
	free(value);
	if (!ok) {
		NB_LOG(ERR, "%s: %s (\"%s\"): not limited", p->be_dir, why,
		       p->rate.text);
		rate = (struct xenbus_back_rate){ 0 };
	} else if (rate.bytes != 0) {
		NB_LOG(INFO, "%s: guest TX limited to %" PRIu64 " bytes per %" PRIu64 " us",
		       p->be_dir, rate.bytes, rate.usec);
	} else {
		NB_LOG(INFO, "%s: guest TX not limited", p->be_dir);
	}
	netif_credit_set(&p->rate.credit, rate.bytes, rate.usec);
}

/* Find the frontend once the toolstack has written our directory. */
static bool
nb_find_frontend(struct nb_port *p)
{
	char path[XENBUS_PATH_MAX + sizeof("/frontend")];
	unsigned int len;
	char *fe;

	if (p->fe_watched)
		return true;
	snprintf(path, sizeof(path), "%s/frontend", p->be_dir);
	fe = xa_xs_read(p->xn.xa, XBT_NULL, path, &len);
	if (fe == NULL)
		return false;	/* not plugged yet: the watch tells us */
	if (len == 0 || strlen(fe) != len ||
	    len + sizeof("/state") > sizeof(p->fe_dir)) {
		NB_LOG(ERR, "%s: invalid frontend path", p->be_dir);
		free(fe);
		return false;
	}
	snprintf(p->fe_dir, sizeof(p->fe_dir), "%s", fe);
	snprintf(p->fe_state_path, sizeof(p->fe_state_path), "%s/state", fe);
	snprintf(p->fe_mcast_path, sizeof(p->fe_mcast_path),
		 "%s/request-multicast-control", fe);
	free(fe);
	if (!xa_xs_watch(p->xn.xa, p->fe_state_path, "fe")) {
		NB_LOG(ERR, "%s: cannot watch %s: %s", p->be_dir,
		       p->fe_state_path, strerror(errno));
		return false;
	}
	/* Our multicast control is dynamic: the frontend may change its mind. */
	if (!xa_xs_watch(p->xn.xa, p->fe_mcast_path, "fe")) {
		NB_LOG(ERR, "%s: cannot watch %s: %s", p->be_dir,
		       p->fe_mcast_path, strerror(errno));
		xa_xs_unwatch(p->xn.xa, p->fe_state_path, "fe");
		return false;
	}
	p->fe_watched = true;
	return true;
}

/*
 * The toolstack removed our vif (the guest is gone or the vif detached):
 * let it go without writing into its vanished directory, and wait for the
 * vif to come back, or, when claiming by name, for the guest's next vif.
 */
static void
nb_release_vif(struct nb_port *p)
{
	NB_LOG(INFO, "%s: vif removed by the toolstack: released", p->be_dir);
	nb_disconnect_frontend(p, p->xn.nb_pairs);
	if (!xa_xs_unwatch(p->xn.xa, p->fe_state_path, "fe"))
		NB_LOG(ERR, "%s: cannot unwatch %s: %s", p->be_dir,
		       p->fe_state_path, strerror(errno));
	if (!xa_xs_unwatch(p->xn.xa, p->fe_mcast_path, "fe"))
		NB_LOG(ERR, "%s: cannot unwatch %s: %s", p->be_dir,
		       p->fe_mcast_path, strerror(errno));
	p->fe_watched = false;
	p->state = XenbusStateInitialising;
	if (p->cfg.frontend_domid == 0) {
		p->fe_domid = 0;
		p->be_dir[0] = '\0';
	}
}

/*
 * Whether the port has a vif with a frontend to follow. A vif it followed
 * and the toolstack removed is let go; with on_removal=remove the port
 * goes with it, and, named by domain id, with a vif gone before the port
 * saw it: it will serve no other.
 */
static bool
nb_claim_vif(struct nb_port *p)
{
	bool gone;

	if (xn_port_is_removed(&p->xn))
		return false;
	gone = (p->fe_watched || (p->cfg.remove_with_vif &&
				  p->cfg.frontend_domid != 0)) &&
	       !nb_vif_present(p, p->fe_domid);
	if (gone && p->cfg.remove_with_vif) {
		NB_LOG(NOTICE, "%s: vif gone: port %u removed with it",
		       p->be_dir, p->xn.dev->data->port_id);
		xn_port_removed(&p->xn);
	}
	if (gone && p->fe_watched)
		nb_release_vif(p);
	if (xn_port_is_removed(&p->xn))
		return false;
	if (p->fe_domid == 0 && !nb_claim_by_name(p))
		return false;
	return nb_find_frontend(p);
}

/*
 * Offer what the application enabled: a guest's GSO packets only to an
 * application that takes large segments (Rx LRO or Tx TSO, unless gso=
 * says otherwise: xn_rx_offloads()). The keys are read when the
 * frontend connects, so they are written before every InitWait and every
 * connect.
 */
static void
nb_write_features(struct nb_port *p)
{
	p->gso_offered = xn_rx_offloads(&p->xn) & NETIF_RX_GSO;
	if (!xenbus_back_write_features(p->xn.xa, p->be_dir, p->xn.cfg.queues,
					p->gso_offered))
		NB_LOG(ERR, "%s: cannot write features: %s", p->be_dir,
		       strerror(errno));
}

void
nb_xenbus_update(struct xn_port *xn)
{
	struct nb_port *p = nb_port(xn);
	enum xenbus_state fe;

	/*
	 * What we offer the frontend depends on the application's offloads,
	 * so the port waits for them. Not one that serves the vif there now
	 * (on_removal=remove, as a watcher's): the toolstack adding it waits
	 * only 10 s for InitWait, and the application may set the port up
	 * later (testpmd on "port attach"); it offers what it has by then.
	 */
	if ((!p->xn.configured && !p->cfg.remove_with_vif) || !nb_claim_vif(p))
		return;
	/*
	 * Reconfigured while the frontend has yet to connect: it reads the
	 * keys when it does, so they follow the application now.
	 */
	if (p->state == XenbusStateInitWait &&
	    p->gso_offered != !!(xn_rx_offloads(&p->xn) & NETIF_RX_GSO))
		nb_write_features(p);
	nb_read_rate(p);
	if (p->xn.connected)
		nb_follow_mcast_control(p);
	fe = xenbus_read_state(p->xn.xa, p->fe_dir);
	switch (xenbus_back_next(p->state, fe)) {
	case XENBUS_BACK_NONE:
		break;
	case XENBUS_BACK_RESET:
		nb_disconnect_frontend(p, p->xn.nb_pairs);
		/* fall through */
	case XENBUS_BACK_INIT_WAIT:
		if (nb_backoff_wait(p))
			break;
		nb_write_features(p);
		nb_set_state(p, XenbusStateInitWait);
		break;
	case XENBUS_BACK_CONNECT:
		/*
		 * A frontend that connected to the backend before us (a
		 * restarted application takes the vif over where it stands)
		 * read the features then, and uses what our directory offered
		 * as that backend left it: our application's offloads may say
		 * otherwise, and are not even configured when a watcher's port
		 * takes the vif over. No key (a frontend that never saw an
		 * InitWait): no GSO.
		 */
		if (p->state == XenbusStateInitWait)
			nb_write_features(p);
		else
			p->gso_offered =
				xenbus_back_offered_gso(p->xn.xa, p->be_dir);
		if (nb_connect_frontend(p)) {
			nb_set_state(p, XenbusStateConnected);
			nb_backoff_connected(p);
			xn_port_refresh(&p->xn);
			/* It reconfigured while we were away: answer now. */
			if (xenbus_back_next(p->state, fe) ==
			    XENBUS_BACK_RECONFIGURE)
				nb_set_state(p, XenbusStateReconfigured);
		} else {
			nb_backoff_failed(p, "unusable keys or rings");
			nb_set_state(p, XenbusStateClosing);
		}
		break;
	case XENBUS_BACK_CLOSE:
		nb_disconnect_frontend(p, p->xn.nb_pairs);
		nb_set_state(p, XenbusStateClosing);
		break;
	case XENBUS_BACK_CLOSED:
		nb_disconnect_frontend(p, p->xn.nb_pairs);
		nb_set_state(p, XenbusStateClosed);
		break;
	case XENBUS_BACK_RECONFIGURE:
		/* Linux netfront waits for Reconfigured, for ever. */
		p->xdp.reconfigurations++;
		nb_follow_xdp_headroom(p);
		nb_publish_state(p, XenbusStateReconfigured);
		break;
	case XENBUS_BACK_RESUME:
		nb_publish_state(p, XenbusStateConnected);
		break;
	}
}

/*
 * The port's part of its description (xn_info.h): the guest, both
 * states, what the frontend asked for and what we offered.
 */
void
nb_xenbus_info(struct xn_port *xn, struct xn_info *w)
{
	struct nb_port *p = nb_port(xn);

	w->str(w, "role", "backend");
	if (p->cfg.domain[0] != '\0')
		w->str(w, "guest_name", p->cfg.domain);
	w->u64(w, "guest_domid", p->fe_domid);
	if (p->fe_domid == 0)
		return;
	w->str(w, "backend_dir", p->be_dir);
	w->str(w, "frontend_dir", p->fe_dir);
	w->str(w, "state", xenbus_state_name(p->state));
	w->str(w, "frontend_state",
	       xenbus_state_name(xenbus_read_state(p->xn.xa, p->fe_dir)));
	nb_backoff_info(p, w);
	if (!p->xn.connected)
		return;
	w->str(w, "event_channels",
	       p->fe.queue[0].split_evtchn ? "split" : "one per queue pair");
	w->u64(w, "feature_rx_notify", p->fe.rx_notify);
	w->u64(w, "csum_ipv4", p->fe.csum_ipv4);
	w->u64(w, "csum_ipv6", p->fe.csum_ipv6);
	w->u64(w, "gso_offered", p->gso_offered);
	w->u64(w, "gso_tcpv4", p->fe.gso_tcpv4);
	w->u64(w, "gso_tcpv6", p->fe.gso_tcpv6);
	w->u64(w, "ctrl_ring", p->fe.ctrl_ring);
	w->u64(w, "multicast_filtered", p->mcast.on);
	w->u64(w, "xdp_headroom", p->xdp.headroom);
	w->u64(w, "reconfigurations", p->xdp.reconfigurations);
	w->str(w, "rate", p->rate.text[0] != '\0' ? p->rate.text : "none");
}

/* As Linux: the frontend must go through Closing to reconnect. */
void
nb_xenbus_frontend_failed(struct xn_port *xn, const char *why)
{
	struct nb_port *p = nb_port(xn);

	nb_disconnect_frontend(p, p->xn.nb_pairs);
	nb_backoff_failed(p, why);
	nb_set_state(p, XenbusStateClosing);
}

int
nb_xenbus_init(struct nb_port *p)
{
	const char *watched;

	p->state = XenbusStateInitialising;
	snprintf(p->vif_root, sizeof(p->vif_root),
		 "/local/domain/%u/backend/vif", p->xn.self);
	p->fe_domid = p->cfg.frontend_domid;
	if (p->fe_domid != 0)
		snprintf(p->be_dir, sizeof(p->be_dir), "%s/%u/%u",
			 p->vif_root, p->fe_domid, p->xn.cfg.handle);
	/* By name, any vif of ours may turn out to be the guest's. */
	watched = p->fe_domid != 0 ? p->be_dir : p->vif_root;
	if (!xa_xs_watch(p->xn.xa, watched, "be")) {
		NB_LOG(ERR, "cannot watch %s: %s", watched, strerror(errno));
		return -errno;
	}
	return 0;
}

void
nb_xenbus_uninit(struct nb_port *p)
{
	pthread_mutex_lock(&p->xn.lock);
	nb_disconnect_frontend(p, p->xn.nb_pairs);
	if (p->cfg.detach_on_close && (p->state == XenbusStateConnected ||
				       p->state == XenbusStateReconfigured)) {
		/*
		 * Leave the frontend connected, as a killed process would:
		 * the next backend for the vif finds it so and attaches to
		 * its rings where they stand. The guest sees a pause.
		 */
		NB_LOG(NOTICE, "%s: detached, %s left connected for the next backend",
		       p->be_dir, p->fe_dir);
	} else if (p->fe_watched && p->state != XenbusStateClosed) {
		/* Tell the frontend we are gone, as Linux netback does. */
		nb_set_state(p, XenbusStateClosing);
		nb_set_state(p, XenbusStateClosed);
	}
	pthread_mutex_unlock(&p->xn.lock);
}
