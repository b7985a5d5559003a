/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest TX request chains, extras included, as a hostile frontend posts
 * them: the input is the GSO types offered, the fatal slot bound and the
 * request slots of a TX ring, published at once. The backend parses
 * packet after packet as netif_back_tx_pull() does. Whatever the input,
 * each packet is judged, none occupies more ring slots than were posted,
 * and a valid one has at most 18 data slots, each inside its page, whose
 * sizes add up to the frame.
 */

#include <stdlib.h>
#include <string.h>

#include "netif_back.h"
#include "netif_offload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static union {
	netif_tx_sring_t sring;
	uint8_t page[NETIF_PAGE_SIZE];
} shared;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t entry = sizeof(shared.sring.ring[0]);
	netif_tx_back_ring_t back;
	uint32_t gso, fatal;
	size_t n;
	int avail;

	if (size < 2)
		return 0;
	gso = data[0] & (NETIF_PEER_GSO_TCPV4 | NETIF_PEER_GSO_TCPV6);
	fatal = NETIF_MAX_SLOTS - 1 + data[1] % 16;
	data += 2;
	size -= 2;
	n = RTE_MIN(size / entry, (size_t)NETIF_TX_RING_SIZE);
	memset(&shared, 0, sizeof(shared));
	SHARED_RING_INIT(&shared.sring);
	memcpy(shared.sring.ring, data, n * entry);
	shared.sring.req_prod = n;
	if (netif_back_tx_attach(&back, &shared.sring) != 0)
		abort();	/* n is within the ring */
	while ((avail = netif_back_tx_requests(&back)) > 0) {
		struct netif_tx_packet pkt;
		enum netif_tx_verdict v;
		const char *why = NULL;
		unsigned int used, s;
		uint32_t sum = 0;

		v = netif_back_tx_parse(&back, avail, gso, fatal, &pkt, &why);
		if (v == NETIF_TX_FATAL)
			break;
		used = netif_tx_packet_ring_slots(&pkt);
		if (used == 0 || used > (unsigned int)avail ||
		    (v == NETIF_TX_DROP && why == NULL))
			abort();
		if (v == NETIF_TX_OK && pkt.mcast_op == 0) {
			if (pkt.nr_slots > NETIF_MAX_SLOTS)
				abort();
			for (s = 0; s < pkt.nr_slots; s++) {
				if (pkt.slots[s].offset + pkt.slots[s].size >
				    NETIF_PAGE_SIZE)
					abort();
				sum += pkt.slots[s].size;
			}
			if (sum != pkt.len)
				abort();
		}
		back.req_cons += used;
	}
	return 0;
}
