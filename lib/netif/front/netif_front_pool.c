/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Creating and freeing the netfront's granted mbuf pool (see
 * netif_front_pool.h), and the mempool driver that frees it with the
 * return of its last mbuf.
 *
 * Why a mempool driver: the application may hold received mbufs when the
 * port closes, and free them later on any thread, after the port is gone
 * and even after it was probed again. Those mbufs are pinned external
 * buffers, whose free puts them straight back into their mempool without
 * any callback (shinfo's free_cb runs only for clones), so the put is the
 * one place that sees every return. The driver keeps the free mbufs in a
 * ring, as DPDK's ring_mp_mc does, and counts the mbufs out of it in the
 * pool's reference count; the put that drops the last reference (the owner
 * has dropped its own at close) frees the mempool and unshares the pages.
 * Nothing of the mempool is touched after its driver's enqueue returns, so
 * freeing it from there is safe.
 *
 * The pool has no per-lcore cache: an mbuf freed into another lcore's
 * cache never reaches the driver, and no thread may flush another's
 * cache, so after close the count would never reach zero. Without a cache
 * a free costs a ring enqueue and an atomic decrement (once per bulk with
 * rte_pktmbuf_free_bulk()), and no page strands in a cache: the ring's
 * refill takes its mbufs in one bulk dequeue per push.
 *
 * Polling rte_mempool_in_use_count() from an alarm was the other way; it
 * cannot tell a free still inside the mempool's code from one done, and it
 * would outlive EAL's alarm thread at exit.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "netif_front_pool.h"

static void
pool_destroy(struct netif_front_pool *p)
{
	rte_mempool_free(p->mp);
	/* Failing, the handle's close (on_last) still ends the grants. */
	xa_gnt_unshare(p->xa, p->base, p->nb_pages);
	if (p->on_last != NULL)
		p->on_last(p->on_last_arg);
	rte_free(p);
}

static void
pool_unref(struct netif_front_pool *p, unsigned int n)
{
	if (__atomic_sub_fetch(&p->users, n, __ATOMIC_ACQ_REL) == 0)
		pool_destroy(p);
}

static int
pool_ops_alloc(struct rte_mempool *mp)
{
	char name[RTE_RING_NAMESIZE];
	struct rte_ring *r;

	if (snprintf(name, sizeof(name), RTE_MEMPOOL_MZ_FORMAT, mp->name) >=
	    (int)sizeof(name))
		return -ENAMETOOLONG;
	/* Every mbuf fits: an enqueue never fails. */
	r = rte_ring_create(name, mp->size, mp->socket_id, RING_F_EXACT_SZ);
	if (r == NULL)
		return -rte_errno;
	mp->pool_data = r;
	return 0;
}

static void
pool_ops_free(struct rte_mempool *mp)
{
	rte_ring_free(mp->pool_data);
}

/* On the thread that frees: the last mbuf back may free the whole. */
static int
pool_ops_enqueue(struct rte_mempool *mp, void *const *obj, unsigned int n)
{
	struct netif_front_pool *p = mp->pool_config;

	rte_ring_mp_enqueue_bulk(mp->pool_data, obj, n, NULL);
	pool_unref(p, n);
	return 0;
}

static int
pool_ops_dequeue(struct rte_mempool *mp, void **obj, unsigned int n)
{
	struct netif_front_pool *p = mp->pool_config;

	if (rte_ring_mc_dequeue_bulk(mp->pool_data, obj, n, NULL) == 0)
		return -ENOBUFS;
	/* Taken while the owner holds its reference: never from zero. */
	__atomic_add_fetch(&p->users, n, __ATOMIC_RELAXED);
	return 0;
}

static unsigned int
pool_ops_get_count(const struct rte_mempool *mp)
{
	return rte_ring_count(mp->pool_data);
}

static const struct rte_mempool_ops pool_ops = {
	.name = NETIF_FRONT_POOL_OPS,
	.alloc = pool_ops_alloc,
	.free = pool_ops_free,
	.enqueue = pool_ops_enqueue,
	.dequeue = pool_ops_dequeue,
	.get_count = pool_ops_get_count,
};

RTE_MEMPOOL_REGISTER_OPS(pool_ops);

/*
 * A clone's free dropped the last reference to the page of @opaque: the
 * mbuf goes back, as DPDK does for its own pinned pools.
 */
static void
pool_page_released(void *addr __rte_unused, void *opaque)
{
	struct rte_mbuf *m = opaque;

	rte_mbuf_ext_refcnt_set(m->shinfo, 1);
	m->ol_flags = RTE_MBUF_F_EXTERNAL;
	m->next = NULL;
	m->nb_segs = 1;
	rte_mbuf_raw_free(m);
}

/* Mbuf @i of the pool: page @i pinned as its buffer, shinfo after it. */
static void
pool_init_mbuf(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	const struct netif_front_pool *p = arg;
	struct rte_mbuf *m = obj;
	struct rte_mbuf_ext_shared_info *shinfo = RTE_PTR_ADD(m, sizeof(*m));

	memset(m, 0, sizeof(*m));
	m->buf_addr = p->base + (size_t)i * NETIF_PAGE_SIZE;
	rte_mbuf_iova_set(m, RTE_BAD_IOVA);
	m->buf_len = NETIF_PAGE_SIZE;
	m->data_off = RTE_PKTMBUF_HEADROOM;
	m->pool = mp;
	m->nb_segs = 1;
	m->port = RTE_MBUF_PORT_INVALID;
	m->ol_flags = RTE_MBUF_F_EXTERNAL;
	rte_mbuf_refcnt_set(m, 1);
	m->shinfo = shinfo;
	shinfo->free_cb = pool_page_released;
	shinfo->fcb_opaque = m;
	rte_mbuf_ext_refcnt_set(shinfo, 1);
}

/* The mempool of @p's pages, named @name; NULL with rte_errno set. */
static struct rte_mempool *
pool_mempool(struct netif_front_pool *p, const char *name, int socket)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = NETIF_PAGE_SIZE,
		.flags = RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF,
	};
	struct rte_mempool *mp;
	int ret;

	mp = rte_mempool_create_empty(
		name, p->nb_pages,
		sizeof(struct rte_mbuf) +
			sizeof(struct rte_mbuf_ext_shared_info),
		0, sizeof(priv), socket, 0);
	if (mp == NULL)
		return NULL;
	ret = rte_mempool_set_ops_byname(mp, NETIF_FRONT_POOL_OPS, p);
	if (ret == 0) {
		rte_pktmbuf_pool_init(mp, &priv);
		ret = rte_mempool_populate_default(mp);
	}
	if (ret < 0) {
		rte_mempool_free(mp);
		rte_errno = -ret;
		return NULL;
	}
	rte_mempool_obj_iter(mp, pool_init_mbuf, p);
	return mp;
}

struct netif_front_pool *
netif_front_pool_create(const char *name, struct xa_handle *xa,
			domid_t backend, uint32_t nb_pages, int socket)
{
	struct netif_front_pool *p;
	int err;

	p = rte_zmalloc_socket(name, sizeof(*p) + nb_pages * sizeof(p->refs[0]),
			       RTE_CACHE_LINE_SIZE, socket);
	if (p == NULL) {
		errno = rte_errno = ENOMEM;
		return NULL;
	}
	p->xa = xa;
	p->backend = backend;
	p->nb_pages = nb_pages;
	/* Every mbuf is out until the populate puts it in. */
	p->users = 1 + nb_pages;
	/* The lender's socket is the pages' node (both -1 for anywhere). */
	RTE_BUILD_BUG_ON(SOCKET_ID_ANY != XA_NODE_ANY);
	p->base = xa_gnt_share_on_node(xa, backend, nb_pages, p->refs, true,
				       socket);
	if (p->base == NULL) {
		err = errno;
		rte_free(p);
		errno = rte_errno = err;
		return NULL;
	}
	p->mp = pool_mempool(p, name, socket);
	if (p->mp == NULL) {
		err = rte_errno;
		xa_gnt_unshare(xa, p->base, nb_pages);
		rte_free(p);
		errno = rte_errno = err;
		return NULL;
	}
	return p;
}

void
netif_front_pool_on_last(struct netif_front_pool *p, void (*fn)(void *arg),
			 void *arg)
{
	p->on_last = fn;
	p->on_last_arg = arg;
}

unsigned int
netif_front_pool_free(struct netif_front_pool *p)
{
	unsigned int held;

	if (p == NULL)
		return 0;
	held = __atomic_load_n(&p->users, __ATOMIC_ACQUIRE) - 1;
	pool_unref(p, 1);
	return held;
}
