/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control plane of xen_netback: it follows the frontend through
 * xenstore on DPDK's interrupt thread (as memif and vhost follow their
 * sockets), maps and unmaps the rings, binds and unbinds the event
 * channels, drives the link state, and disconnects a frontend the data
 * plane found misbehaving. Data-plane lcores never block on anything here:
 * they are let into a queue only while it is safe (nb_queue_enter).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_interrupts.h>
#include <rte_pause.h>

#include "nb.h"
#include "xsim.h"

static void
set_state(struct nb_port *p, enum xenbus_state state)
{
	if (!xenbus_switch_state(p->xa, p->be_dir, state))
		NB_LOG(ERR, "%s: cannot publish state %s: %s", p->be_dir,
		       xenbus_state_name(state), strerror(errno));
	NB_LOG(INFO, "%s: %s -> %s", p->be_dir, xenbus_state_name(p->state),
	       xenbus_state_name(state));
	p->state = state;
}

static void
set_link(struct nb_port *p, bool up)
{
	struct rte_eth_link *link = &p->dev->data->dev_link;

	if (link->link_status == (up ? RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN))
		return;
	link->link_status = up ? RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN;
	rte_eth_dev_callback_process(p->dev, RTE_ETH_EVENT_INTR_LSC, NULL);
}

/* Whether the application set up every queue it configured. */
static bool
queues_ready(struct nb_port *p)
{
	const struct rte_eth_dev_data *d = p->dev->data;
	unsigned int i;

	if (d->nb_rx_queues == 0 || d->nb_tx_queues == 0)
		return false;
	for (i = 0; i < d->nb_rx_queues; i++)
		if (p->rxq[i] == NULL)
			return false;
	for (i = 0; i < d->nb_tx_queues; i++)
		if (p->txq[i] == NULL)
			return false;
	return true;
}

/* Whether a burst is inside any queue. */
static bool
queues_busy(struct nb_port *p)
{
	unsigned int i;

	for (i = 0; i < NB_MAX_QUEUES; i++)
		if ((p->rxq[i] != NULL &&
		     __atomic_load_n(&p->rxq[i]->busy, __ATOMIC_SEQ_CST)) ||
		    (p->txq[i] != NULL &&
		     __atomic_load_n(&p->txq[i]->busy, __ATOMIC_SEQ_CST)))
			return true;
	return false;
}

/* Let the data plane in, or keep it out and wait until it has left. */
static void
update_datapath(struct nb_port *p)
{
	bool ready = p->connected && p->started && queues_ready(p);

	__atomic_store_n(&p->datapath_ready, ready, __ATOMIC_SEQ_CST);
	if (!ready)
		while (queues_busy(p))
			rte_pause();
	set_link(p, ready);
}

static void
release_pair(struct nb_port *p, struct nb_pair *pr)
{
	if (pr->evtchn_rx != 0 && pr->evtchn_rx != pr->evtchn_tx)
		xa_evtchn_unbind(p->xa, pr->evtchn_rx);
	if (pr->evtchn_tx != 0)
		xa_evtchn_unbind(p->xa, pr->evtchn_tx);
	pr->evtchn_tx = pr->evtchn_rx = 0;
	if (pr->tx_sring != NULL)
		xa_gnt_unmap(p->xa, pr->tx_sring, 1);
	if (pr->rx_sring != NULL)
		xa_gnt_unmap(p->xa, pr->rx_sring, 1);
	pr->tx_sring = pr->rx_sring = NULL;
}

static void
disconnect_frontend(struct nb_port *p)
{
	unsigned int i;

	if (!p->connected && p->nb_pairs == 0)
		return;
	p->connected = false;
	update_datapath(p);
	for (i = 0; i < p->nb_pairs; i++)
		release_pair(p, &p->pairs[i]);
	p->nb_pairs = 0;
	NB_LOG(INFO, "%s: disconnected from %s", p->be_dir, p->fe_dir);
}

static void *
map_ring(struct nb_port *p, grant_ref_t ref, const char *name)
{
	void *page = xa_gnt_map(p->xa, p->fe_domid, 1, &ref, true);

	if (page == NULL)
		NB_LOG(ERR, "%s: cannot map %s (grant %u of domain %u): %s",
		       p->fe_dir, name, ref, p->fe_domid,
		       strerror(errno));
	return page;
}

static evtchn_port_t
bind_evtchn(struct nb_port *p, evtchn_port_t remote)
{
	evtchn_port_t port;

	port = xa_evtchn_bind_interdomain(p->xa, p->fe_domid, remote);
	if (port == (evtchn_port_t)-1) {
		NB_LOG(ERR, "%s: cannot bind event channel %u of domain %u: %s",
		       p->fe_dir, remote, p->fe_domid,
		       strerror(errno));
		return 0;
	}
	return port;
}

/* Map and bind queue pair @i as the frontend's keys say. */
static bool
connect_pair(struct nb_port *p, unsigned int i)
{
	const struct xenbus_back_queue *q = &p->fe.queue[i];
	struct nb_pair *pr = &p->pairs[i];

	pr->tx_sring = map_ring(p, q->tx_ring_ref, "tx-ring-ref");
	pr->rx_sring = map_ring(p, q->rx_ring_ref, "rx-ring-ref");
	if (pr->tx_sring == NULL || pr->rx_sring == NULL)
		return false;
	if (netif_back_tx_attach(&pr->tx_ring, pr->tx_sring) != 0 ||
	    netif_back_rx_attach(&pr->rx_ring, pr->rx_sring) != 0) {
		NB_LOG(ERR, "%s: refusing frontend: queue %u: ring indexes beyond the ring",
		       p->fe_dir, i);
		return false;
	}
	pr->evtchn_tx = bind_evtchn(p, q->evtchn_tx);
	if (pr->evtchn_tx == 0)
		return false;
	pr->evtchn_rx = q->split_evtchn ? bind_evtchn(p, q->evtchn_rx) :
					  pr->evtchn_tx;
	return pr->evtchn_rx != 0;
}

/* Returns false with everything released when the frontend is unusable. */
static bool
connect_frontend(struct nb_port *p)
{
	char why[XENBUS_WHY_MAX];
	unsigned int i;

	if (!xenbus_back_read_frontend(p->xa, p->fe_dir, p->cfg.queues,
				       &p->fe, why)) {
		NB_LOG(ERR, "%s: refusing frontend: %s", p->fe_dir, why);
		return false;
	}
	for (i = 0; i < p->fe.nb_queues; i++) {
		p->nb_pairs = i + 1;	/* what disconnect_frontend releases */
		if (!connect_pair(p, i))
			goto fail;
	}
	__atomic_store_n(&p->failed, 0, __ATOMIC_RELAXED);
	p->connected = true;
	NB_LOG(INFO, "%s: connected to %s: %u of %u queue pairs (%s event channels)",
	       p->be_dir, p->fe_dir, p->nb_pairs, p->cfg.queues,
	       p->fe.queue[0].split_evtchn ? "split" : "one pair of");
	return true;
fail:
	disconnect_frontend(p);
	return false;
}

/* Find the frontend once the toolstack has written our directory. */
static bool
find_frontend(struct nb_port *p)
{
	char path[XENBUS_PATH_MAX + sizeof("/frontend")];
	unsigned int len;
	char *fe;

	if (p->fe_watched)
		return true;
	snprintf(path, sizeof(path), "%s/frontend", p->be_dir);
	fe = xa_xs_read(p->xa, XBT_NULL, path, &len);
	if (fe == NULL)
		return false;	/* not plugged yet: the watch tells us */
	if (len == 0 || len + sizeof("/state") > sizeof(p->fe_dir)) {
		NB_LOG(ERR, "%s: invalid frontend path", p->be_dir);
		free(fe);
		return false;
	}
	snprintf(p->fe_dir, sizeof(p->fe_dir), "%s", fe);
	snprintf(p->fe_state_path, sizeof(p->fe_state_path), "%s/state", fe);
	free(fe);
	if (!xa_xs_watch(p->xa, p->fe_state_path, "fe")) {
		NB_LOG(ERR, "%s: cannot watch %s: %s", p->be_dir,
		       p->fe_state_path, strerror(errno));
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
release_vif(struct nb_port *p)
{
	NB_LOG(INFO, "%s: vif removed by the toolstack: released", p->be_dir);
	disconnect_frontend(p);
	if (!xa_xs_unwatch(p->xa, p->fe_state_path, "fe"))
		NB_LOG(ERR, "%s: cannot unwatch %s: %s", p->be_dir,
		       p->fe_state_path, strerror(errno));
	p->fe_watched = false;
	p->state = XenbusStateInitialising;
	if (p->cfg.frontend_domid == 0) {
		p->fe_domid = 0;
		p->be_dir[0] = '\0';
	}
}

/* Whether the port has a vif with a frontend to follow. */
static bool
claim_vif(struct nb_port *p)
{
	if (p->fe_watched && !nb_vif_present(p, p->fe_domid))
		release_vif(p);
	if (p->fe_domid == 0 && !nb_claim_by_name(p))
		return false;
	return find_frontend(p);
}

/* Bring our state in line with the frontend's; under p->lock. */
static void
step(struct nb_port *p)
{
	enum xenbus_state fe;

	if (!claim_vif(p))
		return;
	if (__atomic_load_n(&p->failed, __ATOMIC_ACQUIRE) && p->connected) {
		NB_LOG(ERR, "%s: frontend %s misbehaved (%s): disconnecting",
		       p->be_dir, p->fe_dir, p->fail_reason);
		disconnect_frontend(p);
		set_state(p, XenbusStateClosing);
	}
	fe = xenbus_read_state(p->xa, p->fe_dir);
	switch (xenbus_back_next(p->state, fe)) {
	case XENBUS_BACK_NONE:
		break;
	case XENBUS_BACK_RESET:
		disconnect_frontend(p);
		/* fall through */
	case XENBUS_BACK_INIT_WAIT:
		if (!xenbus_back_write_features(p->xa, p->be_dir,
						p->cfg.queues))
			NB_LOG(ERR, "%s: cannot write features: %s", p->be_dir,
			       strerror(errno));
		set_state(p, XenbusStateInitWait);
		break;
	case XENBUS_BACK_CONNECT:
		xenbus_back_write_features(p->xa, p->be_dir, p->cfg.queues);
		if (connect_frontend(p)) {
			set_state(p, XenbusStateConnected);
			update_datapath(p);
		} else {
			set_state(p, XenbusStateClosing);
		}
		break;
	case XENBUS_BACK_CLOSE:
		disconnect_frontend(p);
		set_state(p, XenbusStateClosing);
		break;
	case XENBUS_BACK_CLOSED:
		disconnect_frontend(p);
		set_state(p, XenbusStateClosed);
		break;
	}
}

static void
on_xenstore(void *arg)
{
	struct nb_port *p = arg;
	char **ev;

	pthread_mutex_lock(&p->lock);
	while ((ev = xa_xs_check_watch(p->xa)) != NULL)
		free(ev);
	step(p);
	pthread_mutex_unlock(&p->lock);
}

static void
on_event_channel(void *arg)
{
	struct nb_port *p = arg;
	unsigned int i;
	int port;

	pthread_mutex_lock(&p->lock);
	while ((port = xa_evtchn_pending(p->xa)) >= 0) {
		for (i = 0; i < p->nb_pairs; i++) {
			if ((evtchn_port_t)port == p->pairs[i].evtchn_tx &&
			    p->rxq[i] != NULL)
				__atomic_fetch_add(&p->rxq[i]->stats.notify_received,
						   1, __ATOMIC_RELAXED);
			if ((evtchn_port_t)port == p->pairs[i].evtchn_rx &&
			    p->txq[i] != NULL)
				__atomic_fetch_add(&p->txq[i]->stats.notify_received,
						   1, __ATOMIC_RELAXED);
		}
		xa_evtchn_unmask(p->xa, port);
	}
	pthread_mutex_unlock(&p->lock);
}

static void
on_failure(void *arg)
{
	struct nb_port *p = arg;
	uint64_t n;

	if (read(p->fail_fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		NB_LOG(ERR, "failure doorbell: %s", strerror(errno));
	pthread_mutex_lock(&p->lock);
	step(p);
	pthread_mutex_unlock(&p->lock);
}

static struct rte_intr_handle *
watch_fd(struct nb_port *p, int fd, rte_intr_callback_fn cb)
{
	struct rte_intr_handle *ih;

	ih = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_SHARED);
	if (ih == NULL)
		return NULL;
	if (rte_intr_fd_set(ih, fd) != 0 ||
	    rte_intr_type_set(ih, RTE_INTR_HANDLE_EXT) != 0 ||
	    rte_intr_callback_register(ih, cb, p) != 0) {
		rte_intr_instance_free(ih);
		return NULL;
	}
	return ih;
}

static void
unwatch_fd(struct nb_port *p, struct rte_intr_handle *ih,
	   rte_intr_callback_fn cb)
{
	if (ih == NULL)
		return;
	/* -EAGAIN: the callback is running right now; let it finish. */
	while (rte_intr_callback_unregister(ih, cb, p) == -EAGAIN)
		rte_delay_us_sleep(1000);
	rte_intr_instance_free(ih);
}

int
nb_xenbus_init(struct nb_port *p)
{
	struct xa_open_args args = {
		.provider = p->cfg.provider,
		.sim_instance = p->cfg.sim_instance,
		.sim_domid = 0,
	};
	const char *watched;
	char mac[18];

	pthread_mutex_init(&p->lock, NULL);
	p->fail_fd = -1;
	p->state = XenbusStateInitialising;
	p->xa = xa_open(&args);
	if (p->xa == NULL) {
		NB_LOG(ERR, "cannot open the %s provider: %s",
		       xa_provider_name(p->cfg.provider), strerror(errno));
		return -errno;
	}
	p->self = xa_domid(p->xa);
	snprintf(p->vif_root, sizeof(p->vif_root),
		 "/local/domain/%u/backend/vif", p->self);
	p->fe_domid = p->cfg.frontend_domid;
	if (p->fe_domid != 0)
		snprintf(p->be_dir, sizeof(p->be_dir), "%s/%u/%u",
			 p->vif_root, p->fe_domid, p->cfg.handle);
	if (p->cfg.provider == XA_PROVIDER_SIM && p->fe_domid != 0) {
		/* No xl in the simulator: play its part for this vif. */
		snprintf(mac, sizeof(mac), "00:16:3e:%02x:%02x:%02x",
			 p->cfg.frontend_domid & 0xff, p->cfg.handle >> 8 & 0xff,
			 p->cfg.handle & 0xff);
		if (xsim_vif_plug(p->cfg.sim_instance, p->self,
				  p->cfg.frontend_domid, p->cfg.handle,
				  mac) != 0) {
			NB_LOG(ERR, "cannot plug vif %u/%u into simulator %s: %s",
			       p->cfg.frontend_domid, p->cfg.handle,
			       p->cfg.sim_instance, strerror(errno));
			goto fail;
		}
	}
	p->fail_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (p->fail_fd < 0)
		goto fail;
	/* By name, any vif of ours may turn out to be the guest's. */
	watched = p->fe_domid != 0 ? p->be_dir : p->vif_root;
	if (!xa_xs_watch(p->xa, watched, "be")) {
		NB_LOG(ERR, "cannot watch %s: %s", watched, strerror(errno));
		goto fail;
	}
	p->xs_intr = watch_fd(p, xa_xs_fileno(p->xa), on_xenstore);
	p->evtchn_intr = watch_fd(p, xa_evtchn_fd(p->xa), on_event_channel);
	p->fail_intr = watch_fd(p, p->fail_fd, on_failure);
	if (p->xs_intr == NULL || p->evtchn_intr == NULL ||
	    p->fail_intr == NULL) {
		NB_LOG(ERR, "cannot register with the interrupt thread");
		goto fail;
	}
	pthread_mutex_lock(&p->lock);
	step(p);
	pthread_mutex_unlock(&p->lock);
	return 0;
fail:
	nb_xenbus_uninit(p);
	return -EIO;
}

void
nb_xenbus_uninit(struct nb_port *p)
{
	unwatch_fd(p, p->xs_intr, on_xenstore);
	unwatch_fd(p, p->evtchn_intr, on_event_channel);
	unwatch_fd(p, p->fail_intr, on_failure);
	p->xs_intr = p->evtchn_intr = p->fail_intr = NULL;
	if (p->xa != NULL) {
		pthread_mutex_lock(&p->lock);
		disconnect_frontend(p);
		/* Tell the frontend we are gone, as Linux netback does. */
		if (p->fe_watched && p->state != XenbusStateClosed) {
			set_state(p, XenbusStateClosing);
			set_state(p, XenbusStateClosed);
		}
		pthread_mutex_unlock(&p->lock);
		xa_close(p->xa);
		p->xa = NULL;
	}
	if (p->fail_fd >= 0)
		close(p->fail_fd);
	p->fail_fd = -1;
}

void
nb_xenbus_set_started(struct nb_port *p, bool started)
{
	pthread_mutex_lock(&p->lock);
	p->started = started;
	update_datapath(p);
	pthread_mutex_unlock(&p->lock);
}
