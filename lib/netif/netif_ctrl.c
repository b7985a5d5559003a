/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control ring, both ends (see netif_ctrl.h).
 */

#include <errno.h>

#include <rte_common.h>

#include "netif_ctrl.h"

/* Requests waiting, or -1 when the frontend's index is impossible. */
static int
ctrl_requests(const xen_netif_ctrl_back_ring_t *ring)
{
	RING_IDX prod = netif_ring_peer_prod(&ring->sring->req_prod);
	RING_IDX n = prod - ring->req_cons;

	return RING_REQUEST_PROD_OVERFLOW(ring, prod) || n > RING_SIZE(ring) ?
		-1 : (int)n;
}

int
netif_ctrl_back_attach(struct netif_ctrl_back *c,
		       xen_netif_ctrl_sring_t *sring)
{
	BACK_RING_ATTACH(&c->ring, sring, sring->rsp_prod, NETIF_PAGE_SIZE);
	c->error = NULL;
	return ctrl_requests(&c->ring) < 0 ? -EPROTO : 0;
}

/* Wait for the event of the next request once the ring is empty. */
static bool
ctrl_back_rearm(xen_netif_ctrl_back_ring_t *ring)
{
	__atomic_store_n(&ring->sring->req_event, ring->req_cons + 1,
			 __ATOMIC_RELAXED);
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	return netif_ring_peer_prod(&ring->sring->req_prod) == ring->req_cons;
}

uint32_t
netif_ctrl_request_cost(const struct xen_netif_ctrl_request *req)
{
	switch (req->type) {
	case XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING:
		/* Copied in once. */
		return RTE_MIN(RTE_MAX(req->data[2], 1u),
			       NETIF_STATICS_LIST_MAX) +
		       1;
	case XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING:
		/* Copied in, and the statuses out. */
		return RTE_MIN(RTE_MAX(req->data[2], 1u),
			       NETIF_STATICS_LIST_MAX) +
		       2;
	default:
		return 1;
	}
}

bool
netif_ctrl_back_serve(struct netif_ctrl_back *c, netif_ctrl_serve_t serve,
		      void *opaque, uint32_t budget)
{
	xen_netif_ctrl_back_ring_t *ring = &c->ring;
	unsigned int served = 0;
	bool notify = false;
	uint32_t cost;
	int n;

	c->more = false;
	c->spent = 0;
	if (c->error != NULL)
		return false;
	for (;;) {
		n = ctrl_requests(ring);
		if (n < 0) {
			c->error = "control request producer index beyond the ring";
			return notify;
		}
		for (; n > 0; n--) {
			struct xen_netif_ctrl_request req;
			struct xen_netif_ctrl_response *rsp;
			uint32_t ops = 0;

			/* Charged on our copy: the guest may rewrite its slot. */
			RING_COPY_REQUEST(ring, ring->req_cons, &req);
			cost = netif_ctrl_request_cost(&req);
			if (served > 0 && (uint64_t)c->spent + cost > budget)
				break; /* for the next turn, still in its slot */
			c->spent += cost;
			ring->req_cons++;
			/* Answers take the slots of the requests they answer. */
			rsp = RING_GET_RESPONSE(ring, ring->rsp_prod_pvt++);
			rsp->id = req.id;
			rsp->type = req.type;
			if (!serve(opaque, &req, rsp, &ops)) {
				rsp->status =
					XEN_NETIF_CTRL_STATUS_NOT_SUPPORTED;
				rsp->data = 0;
				c->not_supported++;
			}
			/* What it did beyond its charge ends the turn sooner. */
			if (ops > cost)
				c->spent = (uint32_t)RTE_MIN(
					(uint64_t)c->spent + ops - cost,
					UINT32_MAX);
			c->requests++;
			served++;
		}
		if (ring->rsp_prod_pvt != ring->sring->rsp_prod)
			notify |= NETIF_PUSH_RESPONSES(ring);
		if (n > 0 || served >= NETIF_CTRL_RING_SIZE) {
			c->more = true;
			return notify;
		}
		if (ctrl_back_rearm(ring))
			return notify;
	}
}

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
