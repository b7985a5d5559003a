/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Creating and freeing the netfront's granted mbuf pool (see
 * netif_front_pool.h).
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_errno.h>

#include "netif_front_pool.h"

struct netif_front_pool *
netif_front_pool_create(const char *name, struct xa_handle *xa,
			domid_t backend, uint32_t nb_pages, int socket)
{
	struct rte_pktmbuf_extmem ext;
	struct netif_front_pool *p;
	int err;

	p = calloc(1, sizeof(*p) + nb_pages * sizeof(p->refs[0]));
	if (p == NULL)
		return NULL;
	p->xa = xa;
	p->backend = backend;
	p->nb_pages = nb_pages;
	/* The lender's socket is the pages' node (both -1 for anywhere). */
	RTE_BUILD_BUG_ON(SOCKET_ID_ANY != XA_NODE_ANY);
	p->base = xa_gnt_share_on_node(xa, backend, nb_pages, p->refs, true,
				       socket);
	if (p->base == NULL) {
		err = errno;
		free(p);
		errno = err;
		return NULL;
	}
	ext = (struct rte_pktmbuf_extmem){
		.buf_ptr = p->base,
		.buf_iova = RTE_BAD_IOVA,
		.buf_len = (size_t)nb_pages * NETIF_PAGE_SIZE,
		.elt_size = NETIF_PAGE_SIZE,
	};
	p->mp = rte_pktmbuf_pool_create_extbuf(name, nb_pages,
					       NETIF_FRONT_POOL_CACHE, 0,
					       NETIF_PAGE_SIZE, socket, &ext, 1);
	if (p->mp == NULL) {
		err = rte_errno;
		xa_gnt_unshare(xa, p->base, nb_pages);
		free(p);
		rte_errno = err;
		return NULL;
	}
	return p;
}

void
netif_front_pool_free(struct netif_front_pool *p)
{
	if (p == NULL)
		return;
	rte_mempool_free(p->mp);
	xa_gnt_unshare(p->xa, p->base, p->nb_pages);
	free(p);
}
