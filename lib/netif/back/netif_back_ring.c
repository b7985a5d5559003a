/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Attaching the backend to a frontend's TX and RX rings, reading the
 * frontend's producer index with the sanity check that turns a corrupt or
 * hostile index into an error instead of a loop over garbage (XSA-39), and
 * asking for the frontend's next notification before sleeping.
 */

#include <errno.h>

#include "netif_back.h"

/*
 * BACK_RING_ATTACH starts at the frontend's current rsp_prod, so requests
 * answered before a backend restart are not answered twice.
 */
int
netif_back_tx_attach(netif_tx_back_ring_t *ring, netif_tx_sring_t *sring)
{
	BACK_RING_ATTACH(ring, sring, sring->rsp_prod, NETIF_PAGE_SIZE);
	return netif_back_tx_requests(ring) < 0 ? -EPROTO : 0;
}

int
netif_back_rx_attach(netif_rx_back_ring_t *ring, netif_rx_sring_t *sring)
{
	BACK_RING_ATTACH(ring, sring, sring->rsp_prod, NETIF_PAGE_SIZE);
	return netif_back_rx_requests(ring) < 0 ? -EPROTO : 0;
}

/*
 * The acquire load orders the reads of the requests after the read of the
 * index that published them (ring.h's rmb after reading req_prod).
 */
#define BACK_REQUESTS(ring) __extension__ ({ \
	RING_IDX prod_ = netif_ring_peer_prod(&(ring)->sring->req_prod); \
	RING_IDX n_ = prod_ - (ring)->req_cons; \
	RING_REQUEST_PROD_OVERFLOW(ring, prod_) || n_ > RING_SIZE(ring) ? \
		-1 : (int)n_; \
})

int
netif_back_tx_requests(const netif_tx_back_ring_t *ring)
{
	return BACK_REQUESTS(ring);
}

int
netif_back_rx_requests(const netif_rx_back_ring_t *ring)
{
	return BACK_REQUESTS(ring);
}

bool
netif_back_tx_arm(netif_tx_back_ring_t *ring)
{
	return netif_ring_arm(&ring->sring->req_event, ring->req_cons,
			      &ring->sring->req_prod);
}
