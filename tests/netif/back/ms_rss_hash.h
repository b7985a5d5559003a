/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The guest's hash as the tests that push hashed frames set it: Toeplitz
 * over IPv4+TCP with Microsoft's verification key (ms_rss.h), so the
 * hash of ms_rss_row1 is MS_RSS_ROW1_TCP.
 */

#ifndef MS_RSS_HASH_H
#define MS_RSS_HASH_H

#include <string.h>

#include "ms_rss.h"
#include "netif_hash.h"

/* Reset @h for one queue and make the IPv4+TCP Toeplitz hash active. */
static inline void
ms_rss_hash_on(struct netif_hash *h)
{
	netif_hash_reset(h, 1);
	h->live[1].cfg = (struct netif_hash_config){
		.alg = XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ,
		.flags = XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP,
	};
	memcpy(h->live[1].cfg.key, ms_rss_key, sizeof(ms_rss_key));
	netif_toeplitz_init(&h->live[1].toeplitz, h->live[1].cfg.key);
	h->active = &h->live[1];
}

#endif /* MS_RSS_HASH_H */
