/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The burst functions: each polls its ring, copies through the persistent
 * buffer pages, publishes once and notifies the backend at most once per
 * burst, only when its event index asks. Anything slow (a protocol
 * violation) is handed to the control thread. An Rx burst takes at most
 * `batch` packets from the ring and, with EtherType grouping, returns them
 * in runs (netif_rx_group.h).
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "nf.h"

static inline void
nf_notify(struct nf_adapter *ad, evtchn_port_t port, bool notify,
	  struct nf_notify_stats *st)
{
	if (!notify)
		st->suppressed++;
	else if (xa_evtchn_notify(ad->xa, port) == 0)
		st->sent++;
}

/*
 * One pull from the RX ring: at most @max packets into @pkts, the slots
 * they freed posted again at once with at most one notification.
 */
static uint16_t
nf_rx_pull(void *queue, struct rte_mbuf **pkts, uint16_t max)
{
	struct nf_rxq *q = queue;
	struct nf_adapter *ad = q->ad;
	uint16_t nb;
	bool notify;

	nb = netif_front_rx_receive(&q->ring, q->mp, pkts, max);
	if (netif_front_rx_push(&q->ring, &notify) > 0)
		nf_notify(ad, ad->pairs[q->queue_id].evtchn_rx, notify,
			  &q->notify);
	if (unlikely(q->ring.error != NULL))
		nf_fail(ad, &q->failed, q->ring.error);
	return nb;
}

uint16_t
nf_rx_burst(void *queue, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct nf_rxq *q = queue;
	struct nf_adapter *ad = q->ad;
	uint16_t nb;

	if (unlikely(!nf_queue_enter(ad, &q->busy)))
		return 0;
	/* A queue pair the backend did not take has no ring. */
	if (unlikely(q->queue_id >= ad->nb_pairs)) {
		nf_queue_leave(&q->busy);
		return 0;
	}
	nb = netif_rx_burst(&q->stash, nf_rx_pull, q, pkts, nb_pkts,
			    ad->cfg.batch, ad->cfg.group_ethertype,
			    ad->cfg.single_flag);
	nf_queue_leave(&q->busy);
	return nb;
}

uint16_t
nf_tx_burst(void *queue, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct nf_txq *q = queue;
	struct nf_adapter *ad = q->ad;
	uint16_t nb;
	bool notify;

	if (unlikely(!nf_queue_enter(ad, &q->busy)))
		return 0;
	if (unlikely(q->queue_id >= ad->nb_pairs)) {
		nf_queue_leave(&q->busy);
		return 0;
	}
	/* Completions first: they free the ids this burst needs. */
	netif_front_tx_collect(&q->ring);
	nb = netif_front_tx_enqueue(&q->ring, pkts, nb_pkts);
	if (netif_front_tx_push(&q->ring, &notify) > 0)
		nf_notify(ad, ad->pairs[q->queue_id].evtchn_tx, notify,
			  &q->notify);
	if (unlikely(q->ring.error != NULL))
		nf_fail(ad, &q->failed, q->ring.error);
	nf_queue_leave(&q->busy);
	return nb;
}

void
nf_fail(struct nf_adapter *ad, uint32_t *failed, const char *why)
{
	uint64_t one = 1;

	if (__atomic_exchange_n(failed, 1, __ATOMIC_RELAXED) != 0)
		return;
	NF_LOG(ERR, "port %u: backend broke the protocol: %s; disconnecting",
	       ad->dev->data->port_id, why);
	/* The control thread tears down; the data plane only reports. */
	if (write(ad->fail_fd, &one, sizeof(one)) != sizeof(one))
		NF_LOG(ERR, "cannot wake the control thread: %s",
		       strerror(errno));
}
