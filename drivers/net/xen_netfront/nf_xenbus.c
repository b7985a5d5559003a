/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control plane, run on DPDK's interrupt thread: it follows our device
 * directory (the toolstack plugs and unplugs the vif) and the backend's
 * state through xenstore watches, drives the handshake of xenbus_front.c,
 * shares the ring and buffer pages and binds the event channels on connect,
 * and releases all of it on disconnect. It also counts the notifications
 * the backend sends and takes over when a burst reports a protocol
 * violation. The data plane never waits for it, and it never frees what a
 * burst may be using: it closes the data path first (nf_datapath_update).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_interrupts.h>
#include <rte_pause.h>

#include "nf.h"

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

static void
nf_publish(struct nf_adapter *ad, enum xenbus_state state)
{
	if (!xenbus_switch_state(ad->xa, ad->fe_dir, state))
		NF_LOG(ERR, "%s: cannot publish %s: %s", ad->fe_dir,
		       xenbus_state_name(state), strerror(errno));
	ad->state = state;
}

bool
nf_link_refresh(struct nf_adapter *ad)
{
	struct rte_eth_link link = {
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_FIXED,
	};

	if (ad->started && ad->connected && ad->be_connected) {
		link.link_status = RTE_ETH_LINK_UP;
		link.link_speed = RTE_ETH_SPEED_NUM_10G;
	}
	return rte_eth_linkstatus_set(ad->dev, &link) == 0;
}

/* Open or close the data path; closing waits until no burst is inside. */
static void
nf_datapath_update(struct nf_adapter *ad)
{
	uint32_t ready = ad->started && ad->connected;
	unsigned int i;

	__atomic_store_n(&ad->datapath_ready, ready, __ATOMIC_SEQ_CST);
	if (ready)
		return;
	for (i = 0; i < NF_MAX_QUEUES; i++)
		while (__atomic_load_n(&ad->pairs[i].rxq.busy,
				       __ATOMIC_SEQ_CST) ||
		       __atomic_load_n(&ad->pairs[i].txq.busy,
				       __ATOMIC_SEQ_CST))
			rte_pause();
}

static void
nf_unshare(struct nf_adapter *ad, void **pages, uint32_t count)
{
	if (*pages == NULL)
		return;
	if (xa_gnt_unshare(ad->xa, *pages, count) < 0)
		NF_LOG(WARNING, "%s: cannot unshare %u pages: %s", ad->fe_dir,
		       count, strerror(errno));
	*pages = NULL;
}

static void
nf_unbind(struct nf_adapter *ad, evtchn_port_t *port)
{
	if (*port == NF_NO_PORT)
		return;
	if (xa_evtchn_unbind(ad->xa, *port) < 0)
		NF_LOG(WARNING, "%s: cannot unbind port %u: %s", ad->fe_dir,
		       *port, strerror(errno));
	*port = NF_NO_PORT;
}

/* Give back every grant and port of the connection; idempotent. */
static void
nf_release(struct nf_adapter *ad)
{
	unsigned int i;

	for (i = 0; i < NF_MAX_QUEUES; i++) {
		struct nf_pair *pr = &ad->pairs[i];

		if (pr->evtchn_rx != pr->evtchn_tx)
			nf_unbind(ad, &pr->evtchn_rx);
		nf_unbind(ad, &pr->evtchn_tx);
		pr->evtchn_rx = NF_NO_PORT;
		nf_unshare(ad, &pr->srings, 2);
		nf_unshare(ad, &pr->tx_pages, NETIF_TX_RING_SIZE);
		nf_unshare(ad, &pr->rx_pages, NETIF_RX_RING_SIZE);
	}
	ad->nb_pairs = 0;
}

/* Stop the data path and tell the backend we are going. */
static void
nf_begin_close(struct nf_adapter *ad)
{
	ad->connected = false;
	ad->be_connected = false;
	nf_datapath_update(ad);
	if (ad->state != XenbusStateClosing)
		nf_publish(ad, XenbusStateClosing);
}

static bool
nf_share(struct nf_adapter *ad, void **pages, uint32_t count,
	 grant_ref_t *refs, bool writable)
{
	*pages = xa_gnt_share(ad->xa, ad->backend_id, count, refs, writable);
	return *pages != NULL;
}

static bool
nf_bind(struct nf_adapter *ad, evtchn_port_t *port)
{
	*port = xa_evtchn_bind_unbound(ad->xa, ad->backend_id);
	return *port != NF_NO_PORT;
}

/*
 * Share queue pair @pr's rings (with every RX buffer already posted) and
 * bind its event channels; @why says what failed.
 */
static bool
nf_connect_pair(struct nf_adapter *ad, struct nf_pair *pr, bool split,
		struct xenbus_front_queue *keys, const char **why)
{
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
	if (!nf_share(ad, &pr->rx_pages, NETIF_RX_RING_SIZE, pr->rx_refs,
		      true))
		return false;
	*why = "cannot allocate an event channel";
	if (!nf_bind(ad, &pr->evtchn_tx))
		return false;
	pr->evtchn_rx = pr->evtchn_tx;
	if (split && !nf_bind(ad, &pr->evtchn_rx))
		return false;

	netif_front_tx_attach(&pr->txq.ring, pr->srings, pr->tx_pages,
			      pr->tx_refs);
	netif_front_rx_attach(&pr->rxq.ring,
			      (void *)((uint8_t *)pr->srings + XA_PAGE_SIZE),
			      pr->rx_pages, pr->rx_refs,
			      ad->dev->data->port_id);
	/* Not connected yet: nobody to notify. */
	netif_front_rx_push(&pr->rxq.ring, &notify);
	__atomic_store_n(&pr->rxq.failed, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&pr->txq.failed, 0, __ATOMIC_RELAXED);

	*keys = (struct xenbus_front_queue){
		.tx_ring_ref = pr->sring_refs[0],
		.rx_ring_ref = pr->sring_refs[1],
		.evtchn_tx = pr->evtchn_tx,
		.evtchn_rx = pr->evtchn_rx,
	};
	return true;
}

/*
 * The backend waits in InitWait: offer it as many queue pairs as we want
 * and it serves, then publish the keys.
 */
static bool
nf_connect(struct nf_adapter *ad)
{
	struct xenbus_front_backend be;
	struct xenbus_front_keys keys;
	const char *why;
	unsigned int i;

	if (!xenbus_front_read_backend(ad->xa, ad->be_dir, &be, &why)) {
		NF_LOG(ERR, "%s: refusing backend %s: %s", ad->fe_dir,
		       ad->be_dir, why);
		return false;
	}
	keys.nb_queues = RTE_MIN((unsigned int)ad->cfg.queues, be.max_queues);
	keys.split_evtchn = be.split_evtchn;
	for (i = 0; i < keys.nb_queues; i++)
		if (!nf_connect_pair(ad, &ad->pairs[i], be.split_evtchn,
				     &keys.queue[i], &why))
			goto fail;
	why = "cannot write the connection keys";
	if (!xenbus_front_write_keys(ad->xa, ad->fe_dir, &keys))
		goto fail;

	ad->nb_pairs = keys.nb_queues;
	ad->connected = true;
	nf_datapath_update(ad);
	NF_LOG(INFO, "%s: rings offered to %s (domain %u): %u of %u queue pairs, %s event channel%s",
	       ad->fe_dir, ad->be_dir, ad->backend_id, ad->nb_pairs,
	       ad->cfg.queues, be.split_evtchn ? "split" : "one",
	       be.split_evtchn ? "s" : "");
	if (ad->nb_pairs < ad->cfg.queues)
		NF_LOG(WARNING, "%s: the backend serves %u queue pairs: queues %u and above move nothing",
		       ad->fe_dir, be.max_queues, ad->nb_pairs);
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
nf_step(struct nf_adapter *ad)
{
	enum xenbus_state be = xenbus_read_state(ad->xa, ad->be_dir);
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
		ad->be_connected = true;
		break;
	case XENBUS_FRONT_LINK_DOWN:
		ad->be_connected = false;
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
nf_watch_backend(struct nf_adapter *ad, bool on)
{
	char path[NF_PATH_MAX];

	snprintf(path, sizeof(path), "%s/state", ad->be_dir);
	if (on ? !xa_xs_watch(ad->xa, path, NF_WATCH_TOKEN) :
		 !xa_xs_unwatch(ad->xa, path, NF_WATCH_TOKEN))
		NF_LOG(ERR, "%s: cannot %swatch %s: %s", ad->fe_dir,
		       on ? "" : "un", path, strerror(errno));
}

/* MAC and MTU the toolstack chose, when it chose valid ones. */
static void
nf_read_link_config(struct nf_adapter *ad)
{
	struct rte_ether_addr mac;
	char path[NF_PATH_MAX];
	unsigned long mtu;
	unsigned int len;
	char *s;

	snprintf(path, sizeof(path), "%s/mac", ad->fe_dir);
	s = xa_xs_read(ad->xa, XBT_NULL, path, &len);
	if (s != NULL && strlen(s) == len &&
	    rte_ether_unformat_addr(s, &mac) == 0 &&
	    rte_is_valid_assigned_ether_addr(&mac))
		rte_ether_addr_copy(&mac, ad->dev->data->mac_addrs);
	else
		NF_LOG(NOTICE, "%s: no valid mac, keeping a random one",
		       ad->fe_dir);
	free(s);

	mtu = xenbus_read_feature(ad->xa, ad->fe_dir, "mtu", RTE_ETHER_MTU);
	if (mtu < RTE_ETHER_MIN_MTU || mtu > NF_MAX_MTU) {
		NF_LOG(NOTICE, "%s: mtu %lu out of range, using %u",
		       ad->fe_dir, mtu, RTE_ETHER_MTU);
		mtu = RTE_ETHER_MTU;
	}
	ad->dev->data->mtu = mtu;
}

/* The toolstack plugged the vif: find its backend. */
static bool
nf_plug(struct nf_adapter *ad)
{
	char path[NF_PATH_MAX];
	unsigned long id;
	unsigned int len;
	char *be;

	snprintf(path, sizeof(path), "%s/backend", ad->fe_dir);
	be = xa_xs_read(ad->xa, XBT_NULL, path, &len);
	/* Room for "/state" after it; and it is someone else's text. */
	if (be == NULL || len == 0 || strlen(be) != len || be[0] != '/' ||
	    len + sizeof("/state") > sizeof(ad->be_dir)) {
		NF_LOG(NOTICE, "%s: no valid backend path yet", ad->fe_dir);
		free(be);
		return false;
	}
	snprintf(path, sizeof(path), "%s/backend-id", ad->fe_dir);
	if (!xa_xs_read_uint(ad->xa, XBT_NULL, path, &id) ||
	    id >= DOMID_FIRST_RESERVED || id == ad->self) {
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
nf_track_plug(struct nf_adapter *ad)
{
	bool present = xenbus_read_state(ad->xa, ad->fe_dir) !=
		       XenbusStateUnknown;

	if (present == ad->plugged)
		return present;
	if (present)
		return nf_plug(ad);
	/* Unplugged under us: nobody is left to tell, just let go. */
	NF_LOG(NOTICE, "%s: vif unplugged", ad->fe_dir);
	ad->connected = false;
	ad->be_connected = false;
	nf_datapath_update(ad);
	nf_release(ad);
	nf_watch_backend(ad, false);
	ad->plugged = false;
	ad->refused = false;
	return false;
}

/* Re-read everything after any event; true when the link changed. */
static bool
nf_update(struct nf_adapter *ad)
{
	unsigned int i;

	if (nf_track_plug(ad))
		for (i = 0; i < NF_MAX_STEPS && nf_step(ad); i++)
			;
	return nf_link_refresh(ad);
}

static void
nf_lsc(struct nf_adapter *ad, bool changed)
{
	/* Outside the lock: the application's callback may query the port. */
	if (changed)
		rte_eth_dev_callback_process(ad->dev, RTE_ETH_EVENT_INTR_LSC,
					     NULL);
}

static void
nf_xs_event(void *arg)
{
	struct nf_adapter *ad = arg;
	char **ev;
	bool changed;

	/* Which watch fired does not matter: both states are re-read. */
	while ((ev = xa_xs_check_watch(ad->xa)) != NULL)
		free(ev);
	pthread_mutex_lock(&ad->lock);
	changed = nf_update(ad);
	pthread_mutex_unlock(&ad->lock);
	nf_lsc(ad, changed);
}

static void
nf_evtchn_event(void *arg)
{
	struct nf_adapter *ad = arg;
	unsigned int i;
	int port;

	/*
	 * The bursts poll, so an event only gets counted. Unmasking right away
	 * keeps the count honest; the backend's event index keeps it rare.
	 */
	while ((port = xa_evtchn_pending(ad->xa)) >= 0) {
		for (i = 0; i < NF_MAX_QUEUES; i++) {
			struct nf_pair *pr = &ad->pairs[i];

			if ((evtchn_port_t)port == pr->evtchn_rx) {
				pr->rxq.notify.received++;
				break;
			}
			if ((evtchn_port_t)port == pr->evtchn_tx) {
				pr->txq.notify.received++;
				break;
			}
		}
		xa_evtchn_unmask(ad->xa, port);
	}
}

static void
nf_fail_event(void *arg)
{
	struct nf_adapter *ad = arg;
	bool changed = false;
	uint64_t n;

	if (read(ad->fail_fd, &n, sizeof(n)) != sizeof(n))
		return;
	pthread_mutex_lock(&ad->lock);
	if (ad->connected) {
		nf_begin_close(ad);
		changed = nf_update(ad);
	}
	pthread_mutex_unlock(&ad->lock);
	nf_lsc(ad, changed);
}

static int
nf_intr_register(struct rte_intr_handle **ih, int fd, rte_intr_callback_fn cb,
		 struct nf_adapter *ad)
{
	int ret;

	if (fd < 0)
		return -errno;
	*ih = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (*ih == NULL)
		return -ENOMEM;
	ret = rte_intr_fd_set(*ih, fd);
	if (ret == 0)
		ret = rte_intr_type_set(*ih, RTE_INTR_HANDLE_EXT);
	if (ret == 0)
		ret = rte_intr_callback_register(*ih, cb, ad);
	if (ret < 0) {
		rte_intr_instance_free(*ih);
		*ih = NULL;
	}
	return ret;
}

static void
nf_intr_unregister(struct rte_intr_handle **ih, rte_intr_callback_fn cb,
		   struct nf_adapter *ad)
{
	if (*ih == NULL)
		return;
	rte_intr_callback_unregister_sync(*ih, cb, ad);
	rte_intr_instance_free(*ih);
	*ih = NULL;
}

int
nf_xenbus_init(struct nf_adapter *ad)
{
	struct xa_open_args args = {
		.provider = ad->cfg.provider,
		.sim_instance = ad->cfg.sim_instance,
		.sim_domid = ad->cfg.domid,
	};
	unsigned int i;
	int ret;

	pthread_mutex_init(&ad->lock, NULL);
	for (i = 0; i < NF_MAX_QUEUES; i++) {
		ad->pairs[i].evtchn_tx = NF_NO_PORT;
		ad->pairs[i].evtchn_rx = NF_NO_PORT;
	}
	ad->fail_fd = -1;
	ad->xa = xa_open(&args);
	if (ad->xa == NULL) {
		ret = -errno;
		NF_LOG(ERR, "cannot open Xen access (provider %s): %s",
		       xa_provider_name(ad->cfg.provider), strerror(errno));
		pthread_mutex_destroy(&ad->lock);
		return ret;
	}
	ad->self = xa_domid(ad->xa);
	snprintf(ad->fe_dir, sizeof(ad->fe_dir),
		 "/local/domain/%u/device/vif/%u", ad->self, ad->cfg.handle);

	ad->fail_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (ad->fail_fd < 0) {
		ret = -errno;
		goto fail;
	}
	/* A watch on the whole directory also sees the toolstack create it. */
	if (!xa_xs_watch(ad->xa, ad->fe_dir, NF_WATCH_TOKEN)) {
		ret = -errno;
		goto fail;
	}
	pthread_mutex_lock(&ad->lock);
	nf_update(ad);
	pthread_mutex_unlock(&ad->lock);
	if (!ad->plugged)
		NF_LOG(INFO, "%s: waiting for the vif to be plugged",
		       ad->fe_dir);

	ret = nf_intr_register(&ad->xs_intr, xa_xs_fileno(ad->xa),
			       nf_xs_event, ad);
	if (ret == 0)
		ret = nf_intr_register(&ad->evtchn_intr, xa_evtchn_fd(ad->xa),
				       nf_evtchn_event, ad);
	if (ret == 0)
		ret = nf_intr_register(&ad->fail_intr, ad->fail_fd,
				       nf_fail_event, ad);
	if (ret < 0)
		goto fail;
	return 0;
fail:
	NF_LOG(ERR, "%s: control plane setup failed: %s", ad->fe_dir,
	       strerror(-ret));
	nf_xenbus_uninit(ad);
	return ret;
}

/* Wait until the backend has dropped its mappings of our pages. */
static void
nf_wait_backend_closed(struct nf_adapter *ad)
{
	unsigned int waited;

	for (waited = 0; waited < NF_CLOSE_WAIT_MS; waited += NF_CLOSE_POLL_MS) {
		enum xenbus_state be = xenbus_read_state(ad->xa, ad->be_dir);

		if (be == XenbusStateClosing || be == XenbusStateClosed ||
		    be == XenbusStateUnknown)
			return;
		rte_delay_us_sleep(NF_CLOSE_POLL_MS * 1000);
	}
	NF_LOG(WARNING, "%s: backend %s did not close in %u ms", ad->fe_dir,
	       ad->be_dir, NF_CLOSE_WAIT_MS);
}

void
nf_xenbus_uninit(struct nf_adapter *ad)
{
	if (ad->xa == NULL)
		return;
	/* From here on this thread is the only one at work. */
	nf_intr_unregister(&ad->xs_intr, nf_xs_event, ad);
	nf_intr_unregister(&ad->evtchn_intr, nf_evtchn_event, ad);
	nf_intr_unregister(&ad->fail_intr, nf_fail_event, ad);

	if (ad->plugged) {
		nf_begin_close(ad);
		if (ad->pairs[0].srings != NULL)
			nf_wait_backend_closed(ad);
		nf_release(ad);
		nf_publish(ad, XenbusStateClosed);
		nf_watch_backend(ad, false);
		ad->plugged = false;
	}
	nf_link_refresh(ad);
	if (ad->fail_fd >= 0)
		close(ad->fail_fd);
	ad->fail_fd = -1;
	xa_close(ad->xa);
	ad->xa = NULL;
	pthread_mutex_destroy(&ad->lock);
}

/*
 * Packets the application handed over sit in the TX ring until the backend
 * takes them; a port that stops without waiting would lose them unseen.
 * Runs with the data path closed, so the ring is ours.
 */
static void
nf_drain_tx(struct nf_adapter *ad, struct netif_front_tx *tx)
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
nf_xenbus_set_started(struct nf_adapter *ad, bool started)
{
	unsigned int i;

	pthread_mutex_lock(&ad->lock);
	ad->started = started;
	nf_datapath_update(ad);
	for (i = 0; !started && ad->connected && ad->be_connected &&
		    i < ad->nb_pairs; i++)
		nf_drain_tx(ad, &ad->pairs[i].txq.ring);
	nf_link_refresh(ad);
	pthread_mutex_unlock(&ad->lock);
}
