/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The table from ring kind to its operations (see netif_ring_ops.h); each
 * kind's operations are defined beside the ring's code.
 */

#include "netif_ring_ops.h"

const struct netif_ring_ops *const netif_ring_kinds[NETIF_RING_KINDS] = {
	[NETIF_RING_BACK_TX] = &netif_back_tx_ops,
	[NETIF_RING_BACK_RX] = &netif_back_rx_ops,
	[NETIF_RING_FRONT_RX] = &netif_front_rx_ops,
	[NETIF_RING_FRONT_TX] = &netif_front_tx_ops,
};
