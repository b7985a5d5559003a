/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The netfront's mbufs on granted memory: a pool of mbufs whose data
 * buffers are whole pages shared with the backend domain, one grant per
 * page, so that a posted RX buffer is an mbuf the application receives as
 * it is, and an mbuf of the pool is sent by naming its page. A guest can
 * grant only pages it shares through gntalloc (libxengntshr), so the pool
 * is built on such a share, registered with DPDK as external pinned
 * buffers. It lives as long as the port, and past it as long as the
 * application holds one of its mbufs: the pages are unshared and the pool
 * freed by the free of the last one, on whatever thread frees it (the
 * price of the one copy saved: the backend domain keeps its access to the
 * pages until then; it already serves every packet of the vif).
 */

#ifndef NETIF_FRONT_POOL_H
#define NETIF_FRONT_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_atomic.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "netif_ring.h"
#include "xa.h"

/* The mempool driver of the pools, registered by this library. */
#define NETIF_FRONT_POOL_OPS "netif_front_pool"

/*
 * The free mbufs: a stack linked through their next fields, with how many
 * it holds and whether the owner has let go, all changed together by one
 * 16-byte compare-and-swap.
 */
union netif_front_pool_stack {
	struct {
		struct rte_mbuf *top;
		uint32_t count;
		/* NETIF_FRONT_POOL_CLOSED, then a count of the takes. */
		uint32_t state;
	};
	rte_int128_t word;
};

/* The owner has dropped its reference (netif_front_pool_free()). */
#define NETIF_FRONT_POOL_CLOSED 1u

/* The most free mbufs one thread keeps to itself: a burst's. */
#define NETIF_FRONT_POOL_STASH 32

/*
 * The free mbufs an lcore's frees put, which its takes take first: no
 * atomic operation, since only that lcore changes them while the pool is
 * open; the owner's close empties them (netif_front_pool.c).
 */
struct netif_front_pool_stash {
	uint32_t busy; /* its lcore is in a put or a take */
	uint32_t len;
	struct rte_mbuf *objs[NETIF_FRONT_POOL_STASH];
} __rte_cache_aligned;

struct netif_front_pool {
	/* The pool is freed when it holds every mbuf, closed. */
	union netif_front_pool_stack stack;
	struct rte_mempool *mp;
	/* Called as the last reference goes (netif_front_pool_on_last()). */
	void (*on_last)(void *arg);
	void *on_last_arg;
	struct xa_handle *xa;
	domid_t backend;		/* the domain the pages are granted to */
	uint8_t *base;			/* page i at base + i * 4096 */
	uint32_t nb_pages;
	/*
	 * Read by every put and take, so not on the stack's line, which
	 * other lcores' swaps take away.
	 */
	bool stashes;	  /* lcores stash (the close can order them) */
	uint32_t closing; /* set by the owner's close: keep off the stashes */
	struct netif_front_pool_stash stash[RTE_MAX_LCORE];
	grant_ref_t refs[];		/* the grant of page i */
};

/*
 * @nb_pages mbufs on as many pages granted writable to @backend, the pool
 * named @name on @socket; NULL with rte_errno (or errno for the share) set.
 * The pool is in DPDK memory, so that secondary processes can read its
 * count (netif_front_pool_out()).
 */
struct netif_front_pool *netif_front_pool_create(const char *name,
						 struct xa_handle *xa,
						 domid_t backend,
						 uint32_t nb_pages, int socket);

/*
 * Drop the owner's reference: the pool is freed and its grants ended now,
 * or by the free of the last mbuf the application still holds (whichever
 * thread frees it, after the port is gone). Returns the mbufs still out.
 * @p's handle must stay open until then (netif_front_pool_on_last()).
 */
unsigned int netif_front_pool_free(struct netif_front_pool *p);

/*
 * Have @fn(@arg) called when the last reference goes, after the pages are
 * unshared, on the thread that drops it: the owner's cleanup of what the
 * pool still used (its Xen handle).
 */
void netif_front_pool_on_last(struct netif_front_pool *p, void (*fn)(void *arg),
			      void *arg);

/*
 * Mbufs of @p out of it now, while the owner holds its reference; read
 * while lcores put and take, off by what they move meanwhile.
 */
uint32_t netif_front_pool_out(const struct netif_front_pool *p);

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
