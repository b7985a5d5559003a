/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Segmentation in software for a peer that takes no GSO, with DPDK's
 * librte_gso: a TSO mbuf becomes frames of its MSS, each a header mbuf of
 * our own and indirect mbufs on the original's data, each asking for its
 * IPv4 and TCP checksums, which netif_offload_tx() then leaves blank or
 * computes as the peer takes them. DPDK 22.11's librte_gso cuts TCP over
 * IPv4 only: an IPv6 TSO mbuf for a peer without feature-gso-tcpv6 cannot
 * be sent.
 */

#ifndef NETIF_GSO_H
#define NETIF_GSO_H

#include <rte_gso.h>
#include <rte_mbuf.h>

/* Most frames one TSO mbuf becomes: 64 KiB of payload at an MSS of 536. */
#define NETIF_GSO_SEGS_MAX 128

struct netif_gso {
	struct rte_gso_ctx ctx;
};

/*
 * Pools for the segments of one queue, named after @name, on @socket.
 * Returns NULL (rte_errno set) when they cannot be created.
 */
struct netif_gso *netif_gso_create(const char *name, int socket);
void netif_gso_free(struct netif_gso *g);

/*
 * Cut the TSO mbuf @m, classified (netif_l2_classify()) with a TCP
 * payload larger than its tso_segsz, into at most @max frames in @out.
 * Returns their number; -EINVAL when it cannot be cut (not TCP over IPv4,
 * headers beyond the first segment), -ENOMEM when the pools or @out are
 * too small for it now. @m is not consumed: the frames hold references
 * to its data.
 */
int netif_gso_segment(struct netif_gso *g, struct rte_mbuf *m,
		      struct rte_mbuf **out, uint16_t max);

#endif /* NETIF_GSO_H */
