/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A port's life as both PMDs share it (see xn_port.h): opening its Xen
 * access, the queues it registers, the gate and the link that follow the
 * connection, the data plane's report of a protocol violation, and the
 * port's removal once its peer is gone for good.
 */

#include <errno.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_malloc.h>
#include <rte_pause.h>

#include "netif_offload.h"
#include "xn_port.h"
#include "xenbus.h"

/* Each port's PMD in this process (see xn_pmd_of()). */
static const struct xn_pmd *local_pmd[RTE_MAX_ETHPORTS];

void
xn_pmd_bind(const struct rte_eth_dev *dev, const struct xn_pmd *pmd)
{
	local_pmd[dev->data->port_id] = pmd;
}

const struct xn_pmd *
xn_pmd_of(const struct rte_eth_dev *dev)
{
	return local_pmd[dev->data->port_id];
}

/* Whether @p takes its peer's GSO packets (NETIF_RX_GSO). */
static bool
xn_takes_gso(const struct xn_port *p, uint64_t rx, uint64_t tx)
{
	switch (p->cfg.gso) {
	case XN_GSO_ON:
		return true;
	case XN_GSO_OFF:
		return false;
	case XN_GSO_AUTO:
		break;
	}
	return (rx & RTE_ETH_RX_OFFLOAD_TCP_LRO) ||
	       (tx & RTE_ETH_TX_OFFLOAD_TCP_TSO);
}

/* The Rx offloads the application enabled, as NETIF_RX_* flags. */
static uint32_t
xn_rx_offloads_enabled(const struct xn_port *p)
{
	uint64_t on = p->dev->data->dev_conf.rxmode.offloads;
	uint64_t tx = p->dev->data->dev_conf.txmode.offloads;
	/*
	 * A blank checksum is the application's to finish: in the compliant
	 * form it says so by enabling the Rx offload, in the legacy form it
	 * hands the Tx request on and so must also have enabled that.
	 */
	uint64_t finish = p->cfg.compliant_ol_flags ? ~UINT64_C(0) : tx;

	return (on & RTE_ETH_RX_OFFLOAD_TCP_CKSUM ? NETIF_RX_TCP_CSUM : 0) |
	       (on & RTE_ETH_RX_OFFLOAD_UDP_CKSUM ? NETIF_RX_UDP_CSUM : 0) |
	       ((on & RTE_ETH_RX_OFFLOAD_TCP_CKSUM) &&
		(finish & RTE_ETH_TX_OFFLOAD_TCP_CKSUM) ?
		NETIF_RX_TCP_CSUM_BLANK : 0) |
	       ((on & RTE_ETH_RX_OFFLOAD_UDP_CKSUM) &&
		(finish & RTE_ETH_TX_OFFLOAD_UDP_CKSUM) ?
		NETIF_RX_UDP_CSUM_BLANK : 0) |
	       (xn_takes_gso(p, on, tx) ? NETIF_RX_GSO : 0) |
	       (p->cfg.compliant_ol_flags ? NETIF_RX_COMPLIANT : 0) |
	       (on & RTE_ETH_RX_OFFLOAD_IPV4_CKSUM ? NETIF_RX_IP_CSUM : 0);
}

uint32_t
xn_rx_offloads(const struct xn_port *p)
{
	/* Grouping reads the EtherType from the packet type. */
	bool walk = !p->ptypes_cleared || p->cfg.group_ethertype;

	return xn_rx_offloads_enabled(p) | (walk ? NETIF_RX_PTYPES : 0);
}

void
xn_port_publish_state(struct xn_port *p, const char *dir,
		      enum xenbus_state state)
{
	if (!xenbus_switch_state(p->xa, dir, state))
		XN_LOG(p, ERR, "%s: cannot publish state %s: %s", dir,
		       xenbus_state_name(state), strerror(errno));
}

void
xn_port_follow_vif_mtu(struct xn_port *p, const char *fe_dir)
{
	unsigned int mtu;

	if (!xenbus_vif_read_mtu(p->xa, fe_dir, RTE_ETHER_MIN_MTU,
				 XEN_NETIF_MAX_TX_SIZE - RTE_ETHER_HDR_LEN, &mtu))
		XN_LOG(p, NOTICE, "%s: mtu not a number in %u..%u, using %u",
		       fe_dir, RTE_ETHER_MIN_MTU,
		       XEN_NETIF_MAX_TX_SIZE - RTE_ETHER_HDR_LEN, mtu);
	if (p->mtu_chosen || p->dev->data->mtu == mtu)
		return;
	XN_LOG(p, INFO, "MTU %u, the vif's", mtu);
	p->dev->data->mtu = mtu;
}

void
xn_port_apply_rx_offloads(struct xn_port *p)
{
	uint32_t on = xn_rx_offloads(p);
	unsigned int i;

	for (i = 0; i < p->cfg.queues; i++) {
		struct xn_queue *q = p->rxq[i];

		netif_ring_set_offloads(netif_ring_ops(q->kind), q->ring, on);
	}
}

void
xn_fail(struct xn_port *p, const char *why)
{
	const char *none = NULL;
	uint64_t one = 1;

	/* Release: the control thread reads the reason after the flag. */
	if (!__atomic_compare_exchange_n(&p->failed, &none, why, false,
					 __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return;
	/* Once per connection: no flood of log lines from the data plane. */
	if (write(p->fail_fd, &one, sizeof(one)) != sizeof(one))
		XN_LOG(p, ERR, "cannot wake the control thread (%s): %s",
		       why, strerror(errno));
}

static void
queue_init(struct xn_queue *q, struct xn_port *p, uint16_t qid,
	   enum netif_ring_kind kind, void *ring)
{
	q->port = p;
	q->queue_id = qid;
	q->kind = kind;
	q->evtchn = XN_NO_EVTCHN;
	q->ring = ring;
}

int
xn_queue_pair_init(struct xn_port *p, uint16_t qid, struct xn_rxq *rxq,
		   enum netif_ring_kind rx_kind, void *rx_ring,
		   struct xn_queue *txq, enum netif_ring_kind tx_kind,
		   void *tx_ring)
{
	struct xa_evtchn *endpoint;

	RTE_VERIFY(rx_kind < NETIF_RING_KINDS && tx_kind < NETIF_RING_KINDS);
	RTE_VERIFY(netif_ring_ops(rx_kind)->receives &&
		   !netif_ring_ops(tx_kind)->receives);

	/* Its own fd: the pair's events wake only who sleeps on the pair. */
	endpoint = xa_evtchn_open(p->xa);
	if (endpoint == NULL) {
		XN_LOG(p, ERR, "queue pair %u: cannot open an event channel endpoint: %s",
		       qid, strerror(errno));
		return -errno;
	}
	queue_init(&rxq->q, p, qid, rx_kind, rx_ring);
	rxq->batching.batch = p->cfg.batch;
	rxq->batching.group = p->cfg.group_ethertype;
	rxq->batching.single_flag = p->cfg.single_flag;
	rxq->intr_fd = rxq->kick_fd = -1;
	queue_init(txq, p, qid, tx_kind, tx_ring);
	rxq->q.endpoint = txq->endpoint = endpoint;
	p->rxq[qid] = &rxq->q;
	p->txq[qid] = txq;
	return 0;
}

int
xn_port_open(struct xn_port *p, const struct xa_open_args *args)
{
	size_t pair_size = xn_pmd_of(p->dev)->pair_size;
	unsigned int i;
	int ret;

	pthread_mutex_init(&p->lock, NULL);
	/*
	 * Where ethdev put the port: the pairs' memory is what the polling
	 * lcores touch on every burst.
	 */
	for (i = 0; i < p->cfg.queues; i++) {
		p->pairs[i] = rte_zmalloc_socket("xn_pair", pair_size,
						 RTE_CACHE_LINE_SIZE,
						 p->dev->data->numa_node);
		if (p->pairs[i] == NULL) {
			ret = -ENOMEM;
			XN_LOG(p, ERR,
			       "no memory for queue pair %u (%zu bytes)", i,
			       pair_size);
			goto fail;
		}
	}
	p->xa = xa_open(args);
	if (p->xa == NULL) {
		ret = -errno;
		XN_LOG(p, ERR, "cannot open the %s provider: %s",
		       xa_provider_name(args->provider), strerror(errno));
		goto fail;
	}
	p->self = xa_domid(p->xa);
	p->fail_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (p->fail_fd < 0) {
		ret = -errno;
		XN_LOG(p, ERR, "cannot create an eventfd: %s", strerror(errno));
		goto fail;
	}
	return 0;
fail:
	xn_port_close(p);
	return ret;
}

void
xn_port_close(struct xn_port *p)
{
	unsigned int i;

	/* The pairs registered so far (init may have stopped half way). */
	for (i = 0; i < p->cfg.queues && p->rxq[i] != NULL; i++) {
		xa_evtchn_close(p->rxq[i]->endpoint);
		p->rxq[i]->endpoint = p->txq[i]->endpoint = NULL;
	}
	if (p->fail_fd >= 0)
		close(p->fail_fd);
	p->fail_fd = -1;
	xa_close(p->xa);
	p->xa = NULL;
	for (i = 0; i < p->cfg.queues; i++) {
		rte_free(p->pairs[i]);
		p->pairs[i] = NULL;
	}
	pthread_mutex_destroy(&p->lock);
}

/* Whether a burst is inside any queue. */
static bool
queues_busy(const struct xn_port *p)
{
	unsigned int i;

	for (i = 0; i < p->cfg.queues; i++)
		if (__atomic_load_n(&p->rxq[i]->busy, __ATOMIC_SEQ_CST) ||
		    __atomic_load_n(&p->txq[i]->busy, __ATOMIC_SEQ_CST))
			return true;
	return false;
}

void
xn_port_pause(struct xn_port *p)
{
	__atomic_store_n(&p->datapath_ready, 0, __ATOMIC_SEQ_CST);
	while (queues_busy(p))
		rte_pause();
}

void
xn_rxq_kick(struct xn_rxq *q)
{
	uint64_t one = 1;

	/* A full counter is still readable: nothing is lost. */
	if (write(q->kick_fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		XN_LOG(q->q.port, ERR, "Rx queue %u: cannot wake its sleeper: %s",
		       q->q.queue_id, strerror(errno));
}

/* The gate just opened: wake every Rx queue sleeping on its interrupt. */
static void
wake_sleepers(struct xn_port *p)
{
	struct xn_rxq *q;
	unsigned int i;

	for (i = 0; i < p->cfg.queues; i++) {
		q = (struct xn_rxq *)p->rxq[i];
		if (q->kick_fd >= 0)
			xn_rxq_kick(q);
	}
}

void
xn_port_refresh(struct xn_port *p)
{
	uint32_t ready = p->started && p->connected;
	struct rte_eth_link link = {
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_FIXED,
	};

	__atomic_store_n(&p->datapath_ready, ready, __ATOMIC_SEQ_CST);
	if (!ready)
		while (queues_busy(p))
			rte_pause();
	else
		wake_sleepers(p);
	if (ready && p->link.peer_ready && !p->link.no_carrier) {
		link.link_status = RTE_ETH_LINK_UP;
		link.link_speed = RTE_ETH_SPEED_NUM_10G;
	}
	rte_eth_linkstatus_set(p->dev, &link);
}

bool
xn_port_link_up(struct xn_port *p)
{
	struct rte_eth_link link;

	rte_eth_linkstatus_get(p->dev, &link);
	return link.link_status == RTE_ETH_LINK_UP;
}

void
xn_port_lsc(struct xn_port *p, bool was_up)
{
	/* Outside the lock: the application's callback may query the port. */
	if (xn_port_link_up(p) != was_up)
		rte_eth_dev_callback_process(p->dev, RTE_ETH_EVENT_INTR_LSC,
					     NULL);
}

void
xn_port_removed(struct xn_port *p)
{
	p->removal.gone = true;
}

bool
xn_port_is_removed(const struct xn_port *p)
{
	return p->removal.gone;
}

void
xn_port_announce_removal(struct xn_port *p)
{
	bool tell;

	pthread_mutex_lock(&p->lock);
	/* Not before probing ends: the application has no such port yet. */
	tell = p->removal.gone && !p->removal.told &&
	       p->dev->state == RTE_ETH_DEV_ATTACHED;
	p->removal.told |= tell;
	pthread_mutex_unlock(&p->lock);
	if (tell)
		rte_eth_dev_callback_process(p->dev, RTE_ETH_EVENT_INTR_RMV,
					     NULL);
}

void
xn_port_connected(struct xn_port *p, unsigned int nb_pairs)
{
	/* The gate is closed: no burst reads these until it opens. */
	p->nb_pairs = nb_pairs;
	__atomic_store_n(&p->failed, NULL, __ATOMIC_RELAXED);
	p->connected = true;
}

void
xn_port_peer_ready(struct xn_port *p, bool ready)
{
	p->link.peer_ready = ready;
}

void
xn_port_carrier(struct xn_port *p, bool carrier)
{
	p->link.no_carrier = !carrier;
}

void
xn_port_disconnected(struct xn_port *p)
{
	p->connected = false;
	p->link.peer_ready = false;
	xn_port_refresh(p);
	p->nb_pairs = 0;
}
