/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The receive stash and its runs of one EtherType (see netif_rx_group.h).
 * The PMDs pull into the stash and return runs out of it; nothing here
 * touches a ring.
 */

#include "netif_ethertype.h"
#include "netif_rx_group.h"

void
netif_rx_classify(struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++)
		netif_ethertype_mbuf(pkts[i]);
}

void
netif_rx_stash_fill(struct netif_rx_stash *s, uint16_t n)
{
	uint16_t i;

	s->head = 0;
	s->count = n;
	for (i = 0; i < n; i++)
		s->types[i] = netif_ethertype_mbuf(s->pkts[i]);
}

uint16_t
netif_rx_stash_take_run(struct netif_rx_stash *s, struct rte_mbuf **pkts,
			uint16_t nb_pkts, uint64_t single_flag)
{
	uint16_t first = s->head, type, n = 1, i;

	if (s->count == 0 || nb_pkts == 0)
		return 0;
	type = s->types[first];
	if (type != NETIF_ETHERTYPE_NONE)
		while (n < s->count && n < nb_pkts &&
		       s->types[first + n] == type)
			n++;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = s->pkts[first + i];

		if (type != NETIF_ETHERTYPE_NONE)
			m->ol_flags |= single_flag;
		pkts[i] = m;
	}
	s->head += n;
	s->count -= n;
	if (s->count == 0)
		s->head = 0;
	return n;
}

void
netif_rx_stash_flush(struct netif_rx_stash *s)
{
	rte_pktmbuf_free_bulk(&s->pkts[s->head], s->count);
	s->head = 0;
	s->count = 0;
}
