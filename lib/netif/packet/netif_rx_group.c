/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The receive stash and its runs of one EtherType (see netif_rx_group.h),
 * and the flag that marks a run. The PMDs pull into the stash and return
 * runs out of it; nothing here touches a ring.
 */

#include <rte_mbuf_dyn.h>
#include <rte_pmd_xen_netif.h>

#include "netif_l2.h"
#include "netif_rx_group.h"

uint64_t
netif_single_ethertype_flag(void)
{
	static const struct rte_mbuf_dynflag desc = {
		.name = RTE_PMD_XEN_NETIF_DYNFLAG_SINGLE_ETHERTYPE,
	};
	int bit = rte_mbuf_dynflag_register(&desc);

	return bit < 0 ? 0 : RTE_BIT64(bit);
}

void
netif_rx_stash_fill(struct netif_rx_stash *s, uint16_t n)
{
	uint16_t i;

	s->head = 0;
	s->count = n;
	/* The pull classified each packet: its EtherType is at hand. */
	for (i = 0; i < n; i++)
		s->types[i] = netif_l2_ethertype(s->pkts[i]);
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
