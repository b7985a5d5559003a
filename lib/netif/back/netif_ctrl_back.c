/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control ring, the backend's end (see netif_ctrl_back.h).
 */

#include <errno.h>

#include <rte_common.h>

#include "netif_ctrl_back.h"

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
