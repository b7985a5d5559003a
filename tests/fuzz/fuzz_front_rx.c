/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest RX as a hostile backend answers it, the netfront's side: the
 * netfront posts every buffer of its RX ring, then the input is the
 * offloads it enabled and the backend's responses (ids, offsets, flags,
 * statuses, extras), published at once, and the netfront turns them into
 * packets as its Rx burst does. Whatever the input, it reads no byte
 * outside its buffers (AddressSanitizer watches the page array), returns
 * packets whose length is the sum of their segments, and stops at an
 * impossible producer index.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_mbuf.h>

#include "netif_front.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rte_mempool *pool;
static netif_rx_sring_t *sring;
static uint8_t *pages;
static grant_ref_t grefs[NETIF_RX_RING_SIZE];

int
LLVMFuzzerInitialize(int *argc __rte_unused, char ***argv)
{
	char *eal[] = { (*argv)[0], "--no-huge", "-m", "256", "--no-pci",
			"--no-shconf", "-l", "0", "--log-level=*:error", NULL };
	unsigned int i;

	if (rte_eal_init(RTE_DIM(eal) - 1, eal) < 0)
		abort();
	pool = rte_pktmbuf_pool_create("fuzz", 4095, 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	sring = aligned_alloc(NETIF_PAGE_SIZE, NETIF_PAGE_SIZE);
	pages = aligned_alloc(NETIF_PAGE_SIZE,
			      NETIF_RX_RING_SIZE * NETIF_PAGE_SIZE);
	if (pool == NULL || sring == NULL || pages == NULL)
		abort();
	for (i = 0; i < NETIF_RX_RING_SIZE; i++)
		grefs[i] = 100 + i;
	memset(pages, 0x5a, NETIF_RX_RING_SIZE * NETIF_PAGE_SIZE);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t entry = sizeof(sring->ring[0]);
	struct netif_front_rx rx;
	struct rte_mbuf *pkts[32];
	RING_IDX prod;
	uint16_t n, i;
	bool notify;
	size_t k;

	if (size < 2)
		return 0;
	memset(&rx, 0, sizeof(rx));
	netif_front_rx_attach(&rx, sring, pages, grefs, 0);
	netif_front_rx_setup(&rx, pool);
	rx.offloads = data[0] & (NETIF_RX_TCP_CSUM | NETIF_RX_UDP_CSUM |
				 NETIF_RX_GSO | NETIF_RX_IP_CSUM |
				 NETIF_RX_TCP_CSUM_BLANK | NETIF_RX_COMPLIANT |
				 NETIF_RX_UDP_CSUM_BLANK);
	rx.gso_asked = data[1] & (NETIF_PEER_GSO_TCPV4 | NETIF_PEER_GSO_TCPV6);
	netif_front_rx_push(&rx, &notify);
	data += 2;
	size -= 2;
	/* The backend's responses, over the requests they answer. */
	k = RTE_MIN(size / entry, (size_t)NETIF_RX_RING_SIZE);
	for (prod = 0; prod < k; prod++)
		memcpy(&sring->ring[prod].rsp, data + prod * entry,
		       sizeof(sring->ring[prod].rsp));
	/* A producer index of the input's choosing, when it gives one. */
	if (size - k * entry >= sizeof(RING_IDX))
		memcpy(&prod, data + k * entry, sizeof(prod));
	else
		prod = k;
	__atomic_store_n(&sring->rsp_prod, prod, __ATOMIC_RELEASE);
	do {
		n = netif_front_rx_receive(&rx, pool, pkts, RTE_DIM(pkts));
		for (i = 0; i < n; i++) {
			const struct rte_mbuf *m = pkts[i];
			uint32_t len = 0;

			for (; m != NULL; m = m->next)
				len += m->data_len;
			if (len != pkts[i]->pkt_len)
				abort();
		}
		rte_pktmbuf_free_bulk(pkts, n);
	} while (n > 0);
	netif_front_rx_detach(&rx);
	return 0;
}
