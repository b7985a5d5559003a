/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control ring, the frontend's end (see netif_ctrl_front.h).
 */

#include <rte_atomic.h>

#include "netif_ctrl_front.h"

void
netif_ctrl_front_attach(struct netif_ctrl_front *c,
			xen_netif_ctrl_sring_t *sring)
{
	SHARED_RING_INIT(sring);
	FRONT_RING_INIT(&c->ring, sring, NETIF_PAGE_SIZE);
	c->next_id = 0;
	c->error = NULL;
}

bool
netif_ctrl_front_queue(struct netif_ctrl_front *c, uint16_t type,
		       uint32_t data0, uint32_t data1, uint32_t data2,
		       uint16_t *id)
{
	struct xen_netif_ctrl_request *req;

	if (RING_FULL(&c->ring))
		return false;
	req = RING_GET_REQUEST(&c->ring, c->ring.req_prod_pvt++);
	req->id = *id = c->next_id++;
	req->type = type;
	req->data[0] = data0;
	req->data[1] = data1;
	req->data[2] = data2;
	return true;
}

bool
netif_ctrl_front_push(struct netif_ctrl_front *c)
{
	return NETIF_PUSH_REQUESTS(&c->ring);
}

int
netif_ctrl_front_responses(struct netif_ctrl_front *c,
			   struct xen_netif_ctrl_response *rsp,
			   unsigned int max)
{
	xen_netif_ctrl_front_ring_t *ring = &c->ring;
	unsigned int n = 0;
	RING_IDX prod;

	if (c->error != NULL)
		return -1;
	for (;;) {
		prod = netif_ring_peer_prod(&ring->sring->rsp_prod);
		/* Never more answers than requests published. */
		if ((RING_IDX)(prod - ring->rsp_cons) >
		    (RING_IDX)(ring->req_prod_pvt - ring->rsp_cons)) {
			c->error = "control response producer index beyond the requests";
			return -1;
		}
		while (ring->rsp_cons != prod && n < max) {
			RING_COPY_RESPONSE(ring, ring->rsp_cons, &rsp[n]);
			ring->rsp_cons++;
			n++;
		}
		if (ring->rsp_cons != prod)
			return n;	/* @rsp is full: more next call */
		__atomic_store_n(&ring->sring->rsp_event, ring->rsp_cons + 1,
				 __ATOMIC_RELAXED);
		rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (netif_ring_peer_prod(&ring->sring->rsp_prod) == prod)
			return n;
	}
}
