/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The backend's two ring kinds as queues see them (netif_ring_ops.h): the
 * guest's TX ring, which an Rx queue pulls, and its RX ring, which a Tx
 * queue pushes into. A back ring consumes requests and produces
 * responses.
 */

#include "netif_back.h"
#include "netif_ring_ops.h"

static bool
back_tx_arm(void *ring)
{
	return netif_back_tx_arm(&((struct netif_back_tx *)ring)->ring);
}

NETIF_RING_PULL(netif_back_tx_ops, netif_back_tx, netif_back_tx_pull,
		back_tx_arm, "guest TX, backend end", true, rsp_prod_pvt,
		req_cons);
NETIF_RING_PUSH(netif_back_rx_ops, netif_back_rx, netif_back_rx_push,
		"guest RX, backend end", true, rsp_prod_pvt, req_cons);
