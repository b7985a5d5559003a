/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Software segmentation with librte_gso (see netif_gso.h). The pools are
 * a queue's own: a push cuts at most one burst's worth, and every frame
 * goes back once its copy is done, so they never need more than that.
 */

#include <errno.h>
#include <stdio.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf_ptype.h>

#include "netif_gso.h"

/* Frames in flight per queue: a few TSO mbufs' worth. */
#define GSO_DIRECT_MBUFS 512
#define GSO_INDIRECT_MBUFS 1024
/* Room in a header mbuf: the longest Ethernet, VLAN, IPv4, TCP headers. */
#define GSO_HEADER_ROOM 256

struct netif_gso *
netif_gso_create(const char *name, int socket)
{
	char pool[RTE_MEMPOOL_NAMESIZE];
	struct netif_gso *g;

	g = rte_zmalloc_socket(name, sizeof(*g), 0, socket);
	if (g == NULL)
		return NULL;
	snprintf(pool, sizeof(pool), "%s_h", name);
	g->ctx.direct_pool = rte_pktmbuf_pool_create(pool, GSO_DIRECT_MBUFS, 0,
						     0, RTE_PKTMBUF_HEADROOM +
						     GSO_HEADER_ROOM, socket);
	snprintf(pool, sizeof(pool), "%s_i", name);
	g->ctx.indirect_pool = rte_pktmbuf_pool_create(pool,
						       GSO_INDIRECT_MBUFS, 0,
						       0, 0, socket);
	if (g->ctx.direct_pool == NULL || g->ctx.indirect_pool == NULL) {
		netif_gso_free(g);
		return NULL;
	}
	g->ctx.gso_types = RTE_ETH_TX_OFFLOAD_TCP_TSO;
	g->ctx.flag = 0;	/* IP ids increase, as a NIC's TSO does */
	return g;
}

void
netif_gso_free(struct netif_gso *g)
{
	if (g == NULL)
		return;
	rte_mempool_free(g->ctx.direct_pool);
	rte_mempool_free(g->ctx.indirect_pool);
	rte_free(g);
}

int
netif_gso_segment(struct netif_gso *g, struct rte_mbuf *m,
		  struct rte_mbuf **out, uint16_t max)
{
	uint32_t headers = (uint32_t)m->l2_len + m->l3_len + m->l4_len;
	int n, i;

	switch (m->packet_type & RTE_PTYPE_L3_MASK) {
	case RTE_PTYPE_L3_IPV4:
	case RTE_PTYPE_L3_IPV4_EXT:
		break;
	default:
		return -EINVAL;
	}
	/* librte_gso copies the headers from the first segment (XSA-423). */
	if ((m->packet_type & RTE_PTYPE_L4_MASK) != RTE_PTYPE_L4_TCP ||
	    headers > rte_pktmbuf_data_len(m) ||
	    headers > GSO_HEADER_ROOM ||
	    headers + m->tso_segsz > UINT16_MAX)
		return -EINVAL;
	/* Each frame asks for both checksums; no tunnel is cut. */
	m->ol_flags = (m->ol_flags & ~(RTE_MBUF_F_TX_L4_MASK |
				       RTE_MBUF_F_TX_TUNNEL_MASK |
				       RTE_MBUF_F_TX_OUTER_IPV4 |
				       RTE_MBUF_F_TX_OUTER_IPV6)) |
		      RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4 |
		      RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_TCP_CKSUM;
	g->ctx.gso_size = headers + m->tso_segsz;
	n = rte_gso_segment(m, &g->ctx, out, max);
	/*
	 * Each frame's head is a direct mbuf of ours holding its headers, but
	 * librte_gso (22.11) gives it all of @m's flags: from a large segment
	 * on an external buffer (netif_gso_bufs.h, a netfront's granted
	 * pages) RTE_MBUF_F_EXTERNAL too, and freeing the head would then
	 * release a buffer it does not have.
	 */
	for (i = 0; i < n; i++)
		out[i]->ol_flags &= ~RTE_MBUF_F_EXTERNAL;
	return n > 0 ? n : n == 0 ? -EINVAL : -ENOMEM;
}
