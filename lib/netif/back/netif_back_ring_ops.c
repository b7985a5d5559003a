/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The backend's two ring kinds as queues see them (netif_ring_ops.h): the
 * guest's TX ring, which an Rx queue pulls, and its RX ring, which a Tx
 * queue pushes into.
 */

#include "netif_back.h"
#include "netif_ring_ops.h"

/* A back ring's indexes: we consume requests and produce responses. */
#define BACK_VIEW(v, r, name) \
	netif_ring_view_fill(v, name, true, &(r)->rsp_prod_pvt, &(r)->req_cons, \
			     (r)->sring == NULL ? NULL : &(r)->sring->req_prod)

NETIF_RING_MOVE(back_tx_move, netif_back_tx, netif_back_tx_pull)
NETIF_RING_MOVE(back_rx_move, netif_back_rx, netif_back_rx_push)

static bool
back_tx_arm(void *ring)
{
	return netif_back_tx_arm(&((struct netif_back_tx *)ring)->ring);
}

static bool
back_tx_view(const void *ring, struct netif_ring_view *v)
{
	return BACK_VIEW(v, &((const struct netif_back_tx *)ring)->ring,
			 "guest TX, backend end");
}

static bool
back_rx_view(const void *ring, struct netif_ring_view *v)
{
	return BACK_VIEW(v, &((const struct netif_back_rx *)ring)->ring,
			 "guest RX, backend end");
}

const struct netif_ring_ops netif_back_tx_ops = {
	.receives = true,
	.move = back_tx_move,
	.arm = back_tx_arm,
	.view = back_tx_view,
	.offloads = offsetof(struct netif_back_tx, offloads),
};

const struct netif_ring_ops netif_back_rx_ops = {
	.move = back_rx_move,
	.view = back_rx_view,
	.gso = offsetof(struct netif_back_rx, gso),
};
