/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Both PMDs' burst functions (see xn_burst.h). Everything slow (a protocol
 * violation) is handed to the control thread.
 */

#include "netif_back.h"
#include "netif_front.h"
#include "xn_burst.h"
#include "xn_port.h"

/*
 * The queue's lib/netif operation, its doorbell and its failure report.
 * The switch is on a field that never changes: it predicts perfectly.
 */
static inline uint16_t
queue_run(struct xn_queue *q, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	enum netif_doorbell doorbell = NETIF_DOORBELL_NONE;
	const char *error = NULL;
	uint16_t n = 0;

	switch (q->kind) {
	case XN_RING_BACK_TX: {
		struct netif_back_tx *r = q->ring;

		n = netif_back_tx_pull(r, pkts, nb_pkts, &doorbell);
		error = r->error;
		break;
	}
	case XN_RING_BACK_RX: {
		struct netif_back_rx *r = q->ring;

		n = netif_back_rx_push(r, pkts, nb_pkts, &doorbell);
		error = r->error;
		break;
	}
	case XN_RING_FRONT_RX: {
		struct netif_front_rx *r = q->ring;

		n = netif_front_rx_pull(r, pkts, nb_pkts, &doorbell);
		error = r->error;
		break;
	}
	case XN_RING_FRONT_TX: {
		struct netif_front_tx *r = q->ring;

		n = netif_front_tx_send(r, pkts, nb_pkts, &doorbell);
		error = r->error;
		break;
	}
	}
	xn_doorbell(q, doorbell);
	if (unlikely(error != NULL))
		xn_fail(q->port, error);
	return n;
}

/* netif_rx_burst()'s pull: at most @max packets, published once. */
static uint16_t
rx_pull(void *rxq, struct rte_mbuf **pkts, uint16_t max)
{
	return queue_run(rxq, pkts, max);
}

uint16_t
xn_rx_burst(void *rxq, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct xn_rxq *q = rxq;
	uint16_t n;

	if (unlikely(!xn_queue_enter(&q->q)))
		return 0;
	n = netif_rx_burst(&q->stash, rx_pull, q, pkts, nb_pkts, q->batch,
			   q->group, q->single_flag);
	xn_queue_leave(&q->q);
	return n;
}

uint16_t
xn_tx_burst(void *txq, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct xn_queue *q = txq;
	uint16_t n;

	if (unlikely(!xn_queue_enter(q)))
		return 0;
	n = queue_run(q, pkts, nb_pkts);
	xn_queue_leave(q);
	return n;
}
