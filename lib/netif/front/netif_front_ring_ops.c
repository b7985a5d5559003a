/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The frontend's two ring kinds as queues see them (netif_ring_ops.h): its
 * RX ring, which an Rx queue pulls, and its TX ring, which a Tx queue
 * pushes into.
 */

#include "netif_front.h"
#include "netif_ring_ops.h"

/* A front ring's indexes: we produce requests and consume responses. */
#define FRONT_VIEW(v, r, name) \
	netif_ring_view_fill(v, name, false, &(r)->req_prod_pvt, &(r)->rsp_cons, \
			     (r)->sring == NULL ? NULL : &(r)->sring->req_prod)

NETIF_RING_MOVE(front_rx_move, netif_front_rx, netif_front_rx_pull)
NETIF_RING_MOVE(front_tx_move, netif_front_tx, netif_front_tx_send)

static bool
front_rx_arm(void *ring)
{
	return netif_front_rx_arm(ring);
}

static bool
front_rx_view(const void *ring, struct netif_ring_view *v)
{
	return FRONT_VIEW(v, &((const struct netif_front_rx *)ring)->ring,
			  "RX, frontend end");
}

static bool
front_tx_view(const void *ring, struct netif_ring_view *v)
{
	return FRONT_VIEW(v, &((const struct netif_front_tx *)ring)->ring,
			  "TX, frontend end");
}

const struct netif_ring_ops netif_front_rx_ops = {
	.receives = true,
	.move = front_rx_move,
	.arm = front_rx_arm,
	.view = front_rx_view,
	.offloads = offsetof(struct netif_front_rx, offloads),
};

const struct netif_ring_ops netif_front_tx_ops = {
	.move = front_tx_move,
	.view = front_tx_view,
	.gso = offsetof(struct netif_front_tx, gso),
};
