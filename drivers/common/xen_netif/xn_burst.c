/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Both PMDs' burst functions (see xn_burst.h): each queue's ring kind
 * moves the packets (netif_ring_ops.h), the doorbell rings here, and
 * everything slow (a protocol violation) is handed to the control thread.
 */

#include "netif_ring_ops.h"
#include "xn_burst.h"
#include "xn_port.h"

/* What a move left to do: notify the peer, report a violation. */
static inline void
queue_moved(struct xn_queue *q, const struct netif_moved *m)
{
	xn_doorbell(q, m->doorbell);
	if (unlikely(m->error != NULL))
		xn_fail(q->port, m->error);
}

uint16_t
xn_rx_burst(void *rxq, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct netif_moved m = { .doorbell = NETIF_DOORBELL_NONE };
	struct xn_rxq *q = rxq;
	uint16_t n;

	if (unlikely(!xn_queue_enter(&q->q)))
		return 0;
	n = netif_rx_burst(&q->batching, netif_ring_ops(q->q.kind), q->q.ring,
			   pkts, nb_pkts, &m);
	queue_moved(&q->q, &m);
	xn_queue_leave(&q->q);
	return n;
}

uint16_t
xn_tx_burst(void *txq, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct netif_moved m;
	struct xn_queue *q = txq;
	uint16_t n;

	if (unlikely(!xn_queue_enter(q)))
		return 0;
	n = netif_ring_ops(q->kind)->move(q->ring, pkts, nb_pkts, &m);
	queue_moved(q, &m);
	xn_queue_leave(q);
	return n;
}
