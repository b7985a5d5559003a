/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The netfront's mbufs on granted memory: a pool of mbufs whose data
 * buffers are whole pages shared with the backend domain, one grant per
 * page, so that a posted RX buffer is an mbuf the application receives as
 * it is, and an mbuf of the pool is sent by naming its page. A guest can
 * grant only pages it shares through gntalloc (libxengntshr), so the pool
 * is built on such a share, registered with DPDK as external pinned
 * buffers. It lives as long as the port: mbufs the application holds
 * outlive any one connection, and so does the backend domain's access to
 * the pages (the price of the one copy saved; that domain already serves
 * every packet of the vif).
 */

#ifndef NETIF_FRONT_POOL_H
#define NETIF_FRONT_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "netif_ring.h"
#include "xa.h"

/*
 * Per-lcore cache: the application frees received mbufs on its lcores,
 * the queue's lcore posts them again; small, so that few pages strand.
 */
#define NETIF_FRONT_POOL_CACHE 32

struct netif_front_pool {
	struct rte_mempool *mp;
	struct xa_handle *xa;
	domid_t backend;		/* the domain the pages are granted to */
	uint8_t *base;			/* page i at base + i * 4096 */
	uint32_t nb_pages;
	grant_ref_t refs[];		/* the grant of page i */
};

/*
 * @nb_pages mbufs on as many pages granted writable to @backend, the pool
 * named @name on @socket; NULL with rte_errno (or errno for the share) set.
 */
struct netif_front_pool *netif_front_pool_create(const char *name,
						 struct xa_handle *xa,
						 domid_t backend,
						 uint32_t nb_pages, int socket);

/* Free the pool and end the grants; every mbuf must be back. */
void netif_front_pool_free(struct netif_front_pool *p);

/* Whether @m is a direct segment of @p (its buffer one of the pages). */
static inline bool
netif_front_pool_owns(const struct netif_front_pool *p,
		      const struct rte_mbuf *m)
{
	return p != NULL && m->pool == p->mp &&
	       (uintptr_t)m->buf_addr - (uintptr_t)p->base <
	       (uintptr_t)p->nb_pages * NETIF_PAGE_SIZE;
}

/* The grant of the page holding segment @m of @p. */
static inline grant_ref_t
netif_front_pool_gref(const struct netif_front_pool *p,
		      const struct rte_mbuf *m)
{
	return p->refs[((uintptr_t)m->buf_addr - (uintptr_t)p->base) /
		       NETIF_PAGE_SIZE];
}

#endif /* NETIF_FRONT_POOL_H */
