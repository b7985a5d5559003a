/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * What the tests of lent guest TX (test_netif_lend, test_netif_map)
 * share: the guest's end of one TX ring and its granted pages, the
 * backend's queue on that ring, and the few moves a test makes on them.
 */

#ifndef TX_GUEST_H
#define TX_GUEST_H

#include <string.h>

#include "netif_back.h"
#include "test.h"

static uint8_t *pages; /* the frontend's granted pages */
static struct netif_back_tx tx;
static union {
	netif_tx_sring_t sring;
	uint8_t page[NETIF_PAGE_SIZE];
} shared;
static netif_tx_front_ring_t front;

/* A fresh ring, nothing posted. */
static inline void
tx_guest_ring_reset(void)
{
	memset(&shared, 0, sizeof(shared));
	SHARED_RING_INIT(&shared.sring);
	FRONT_RING_INIT(&front, &shared.sring, NETIF_PAGE_SIZE);
}

/* Post one packet of @len bytes from grant @gref's page start, id @id. */
static inline void
send_frame(grant_ref_t gref, uint16_t len, uint16_t id, uint16_t flags)
{
	netif_tx_request_t *req =
		RING_GET_REQUEST(&front, front.req_prod_pvt++);

	*req = (netif_tx_request_t){
		.gref = gref,
		.size = len,
		.id = id,
		.flags = flags,
	};
	RING_PUSH_REQUESTS(&front);
}

static inline struct rte_mbuf *
pull_one(void)
{
	enum netif_doorbell bell;
	struct rte_mbuf *m = NULL;

	CHECK(netif_back_tx_pull(&tx, &m, 1, &bell) == 1);
	return m;
}

/* The answers published so far. */
static inline unsigned int
answered(void)
{
	return shared.sring.rsp_prod;
}

/* Page @page of the guest's, each byte from its offset and @seed. */
static inline void
fill(unsigned int page, uint8_t seed)
{
	unsigned int i;

	for (i = 0; i < NETIF_PAGE_SIZE; i++)
		pages[page * NETIF_PAGE_SIZE + i] = (uint8_t)(i * 7 + seed);
}

#endif /* TX_GUEST_H */
