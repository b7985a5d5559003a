/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The receive-side classification the PMDs call (see netif_ethertype.h):
 * the walk and its rules are netif_l2.c; the single-EtherType flag is
 * registered here.
 */

#include <rte_mbuf_dyn.h>

#include "netif_ethertype.h"

const uint32_t *
netif_ethertype_ptypes(void)
{
	return netif_l2_ptypes();
}

uint16_t
netif_ethertype_mbuf(struct rte_mbuf *m)
{
	return netif_l2_classify(m);
}

uint64_t
netif_single_ethertype_flag(void)
{
	static const struct rte_mbuf_dynflag desc = {
		.name = NETIF_DYNFLAG_SINGLE_ETHERTYPE,
	};
	int bit = rte_mbuf_dynflag_register(&desc);

	return bit < 0 ? 0 : RTE_BIT64(bit);
}
