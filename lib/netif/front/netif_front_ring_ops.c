/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The frontend's two ring kinds as queues see them (netif_ring_ops.h): its
 * RX ring, which an Rx queue pulls, and its TX ring, which a Tx queue
 * pushes into. A front ring produces requests and consumes responses.
 */

#include "netif_front.h"
#include "netif_ring_ops.h"

static bool
front_rx_arm(void *ring)
{
	return netif_front_rx_arm(ring);
}

NETIF_RING_PULL(netif_front_rx_ops, netif_front_rx, netif_front_rx_pull,
		front_rx_arm, "RX, frontend end", false, req_prod_pvt,
		rsp_cons);
NETIF_RING_PUSH(netif_front_tx_ops, netif_front_tx, netif_front_tx_send,
		"TX, frontend end", false, req_prod_pvt, rsp_cons);
