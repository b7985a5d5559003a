/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The burst functions of both PMDs: each enters its queue through the
 * gate, runs the queue's lib/netif operation (an Rx burst through the batch
 * bound and EtherType grouping of netif_rx_group.h), rings the doorbell
 * that operation asks for, and reports a protocol violation to the control
 * thread. The PMD names only the kind of ring (xn_queue_pair_init()).
 */

#ifndef XN_BURST_H
#define XN_BURST_H

#include <stdint.h>

#include <rte_mbuf.h>

/* rx_pkt_burst of a queue that begins with struct xn_rxq. */
uint16_t xn_rx_burst(void *rxq, struct rte_mbuf **pkts, uint16_t nb_pkts);
/* tx_pkt_burst of a queue that begins with struct xn_queue. */
uint16_t xn_tx_burst(void *txq, struct rte_mbuf **pkts, uint16_t nb_pkts);

#endif /* XN_BURST_H */
