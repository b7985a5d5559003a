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
 * stack linked through their next fields (NULL once handed out, as DPDK
 * wants it), whose top, count and state one 16-byte compare-and-swap
 * changes together: the owner's close sets its CLOSED bit, and whichever
 * swap makes the stack both closed and full, a put's or the close's, frees
 * the mempool and unshares the pages. Only one can: a full stack takes no
 * put, and a closed one gives no mbuf. Nothing of the mempool is touched
 * after its driver's enqueue returns, so freeing it from there is safe.
 *
 * A take walks the links from the top and swaps in the mbuf after the
 * last one it takes. Every take adds to the count in the state, so a swap
 * over a stack that changed since it was read fails (a put always changes
 * the top or the count, a take the state), and the walk starts again; the
 * walk of a stale stack reads the next fields of mbufs handed out
 * meanwhile, NULL or another mbuf, and stops at n or at NULL.
 *
 * The mempool has no cache of DPDK's: an mbuf freed into another lcore's
 * cache never reaches the driver, and no thread may flush another's
 * cache, so after close the stack would never be full. It has stashes
 * of its own instead, one per lcore, which the close can empty. For
 * testpmd, which frees each received packet alone, a free cost 67
 * instructions and two locked ones with the ring of free mbufs and the
 * atomic count of those out the stack replaced, and 36 and one locked
 * (the swap) with the stack alone (callgrind, b2f 64 B); a stash takes
 * no locked one.
 *
 * An lcore's put goes to its stash, and when that is full the stash goes
 * to the stack in one swap; its take takes from its stash first. The
 * receiving lcore's frees are thus taken again by its next refill, as
 * from a DPDK cache. A thread with no lcore id uses the stack. While the
 * pool is open, only a stash's lcore touches it. The close must empty
 * every stash before it can tell that the pool is full: as Linux's
 * percpu_ref turns into one atomic count when it is killed, the close
 * sets closing, after which puts and takes keep off the stashes, then
 * empties them. An lcore marks its stash busy, then reads closing; the
 * close sets closing, then reads busy. Each could read the other's flag
 * before its own store is seen (x86 may take a load before an older
 * store) unless both have a full barrier between the two. The close's
 * membarrier(2) puts one in every thread on the system that runs at that
 * moment (a thread that does not has one from its switch), so that the
 * lcores need none of their own: either the close sees the stash busy
 * and waits for its lcore to leave it, or the lcore sees closing and
 * leaves the stash alone. The barrier is MEMBARRIER_CMD_GLOBAL's, which
 * reaches other processes too: a secondary process's lcore puts into the
 * stash of its own lcore id (DPDK's caches too want the processes' lcores
 * distinct). Without membarrier(2), lcores do not stash. While the port
 * runs, the stashes of lcores that free but do not take keep at most
 * NETIF_FRONT_POOL_STASH mbufs each out of the ring's reach, as DPDK's
 * caches do. An lcore's put and a take of 32 cost 12 ns an mbuf on the
 * stack, 3.3 in its stash and 1.9 in DPDK's mempool with a cache (app
 * xen-pool-cost, in one run).
 *
 * Polling rte_mempool_in_use_count() from an alarm was the other way; it
 * cannot tell a free still inside the mempool's code from one done, and it
 * would outlive EAL's alarm thread at exit.
 */

#include <errno.h>
#include <linux/membarrier.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>

#include "netif_front_pool.h"

/* Whether the kernel has the barrier the close needs to empty stashes. */
static bool
stash_fence_supported(void)
{
	long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	return cmds > 0 && (cmds & MEMBARRIER_CMD_GLOBAL);
}

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

/* The stack as it is now, read in two halves (a swap checks them). */
static inline union netif_front_pool_stack
stack_read(struct netif_front_pool *p)
{
	union netif_front_pool_stack s;

	s.word.val[0] =
		__atomic_load_n(&p->stack.word.val[0], __ATOMIC_ACQUIRE);
	s.word.val[1] =
		__atomic_load_n(&p->stack.word.val[1], __ATOMIC_ACQUIRE);
	return s;
}

static inline bool
stack_swap(struct netif_front_pool *p, union netif_front_pool_stack *old,
	   const union netif_front_pool_stack *new)
{
	return rte_atomic128_cmp_exchange(&p->stack.word, &old->word,
					  &new->word, 0, __ATOMIC_ACQ_REL,
					  __ATOMIC_ACQUIRE);
}

static int
pool_ops_alloc(struct rte_mempool *mp)
{
	struct netif_front_pool *p = mp->pool_config;

	/* Every mbuf is out until the populate puts it in. */
	memset(&p->stack, 0, sizeof(p->stack));
	return 0;
}

/*
 * Put the @n mbufs of @obj on the stack; the last mbuf back to a closed
 * pool frees it, and nothing of @p may be touched after that.
 */
static void
stack_put(struct netif_front_pool *p, void *const *obj, unsigned int n)
{
	/* Read before the swap, after which another put may free @p. */
	uint32_t nb_pages = p->nb_pages;
	union netif_front_pool_stack old, new;
	struct rte_mbuf *last;
	unsigned int i;

	if (n == 0)
		return;
	for (i = 0; i + 1 < n; i++)
		__atomic_store_n(&((struct rte_mbuf *)obj[i])->next, obj[i + 1],
				 __ATOMIC_RELAXED);
	last = obj[n - 1];
	old = stack_read(p);
	do {
		/* Relaxed: a stale take's walk may read it; the swap publishes. */
		__atomic_store_n(&last->next, old.top, __ATOMIC_RELAXED);
		new.top = obj[0];
		new.count = old.count + n;
		new.state = old.state;
	} while (!stack_swap(p, &old, &new));
	if ((new.state &NETIF_FRONT_POOL_CLOSED) && new.count == nb_pages)
		pool_destroy(p);
}

/* Take @n mbufs off the stack into @obj; -ENOBUFS if it has fewer. */
static int
stack_take(struct netif_front_pool *p, void **obj, unsigned int n)
{
	union netif_front_pool_stack old, new;
	struct rte_mbuf *m;
	unsigned int i;

	if (n == 0)
		return 0;
	old = stack_read(p);
	for (;;) {
		if (old.count < n || (old.state & NETIF_FRONT_POOL_CLOSED))
			return -ENOBUFS;
		m = old.top;
		for (i = 0; i < n && m != NULL; i++) {
			obj[i] = m;
			m = __atomic_load_n(&m->next, __ATOMIC_RELAXED);
		}
		if (i < n) {
			union netif_front_pool_stack now = stack_read(p);

			/*
			 * Unchanged, it holds fewer links than its count: an
			 * mbuf written after its free. None given, no spin.
			 */
			if (now.word.val[0] == old.word.val[0] &&
			    now.word.val[1] == old.word.val[1])
				return -ENOBUFS;
			old = now; /* stale: taken meanwhile */
			continue;
		}
		new.top = m;
		new.count = old.count - n;
		new.state = old.state + 2;
		if (stack_swap(p, &old, &new))
			break;
	}
	for (i = 0; i < n; i++)
		__atomic_store_n(&((struct rte_mbuf *)obj[i])->next, NULL,
				 __ATOMIC_RELAXED);
	return 0;
}

/*
 * The calling lcore's stash, marked busy, or NULL if it has none or the
 * pool is closing (see the top of this file).
 */
static inline struct netif_front_pool_stash *
stash_enter(struct netif_front_pool *p)
{
	unsigned int lcore = rte_lcore_id();
	struct netif_front_pool_stash *st;

	if (!p->stashes || lcore >= RTE_MAX_LCORE)
		return NULL;
	st = &p->stash[lcore];
	__atomic_store_n(&st->busy, 1, __ATOMIC_RELAXED);
	/* The close's membarrier(2) orders the two for the CPU. */
	rte_compiler_barrier();
	if (__atomic_load_n(&p->closing, __ATOMIC_RELAXED)) {
		__atomic_store_n(&st->busy, 0, __ATOMIC_RELEASE);
		return NULL;
	}
	return st;
}

/* Publish what the lcore did to @st: the close may empty it now. */
static inline void
stash_leave(struct netif_front_pool_stash *st)
{
	__atomic_store_n(&st->busy, 0, __ATOMIC_RELEASE);
}

/*
 * A put that does not fit the stash @st (NULL: none to use): the stash
 * goes to the stack first, and the mbufs too if they do not fit it then.
 */
static __rte_noinline int
pool_put_spill(struct netif_front_pool *p, struct netif_front_pool_stash *st,
	       void *const *obj, unsigned int n)
{
	unsigned int i;

	if (st == NULL) {
		stack_put(p, obj, n);
		return 0;
	}
	/* Not closed while the stash is busy: these puts free nothing. */
	stack_put(p, (void *const *)st->objs, st->len);
	if (n > NETIF_FRONT_POOL_STASH) {
		stack_put(p, obj, n);
		n = 0;
	}
	for (i = 0; i < n; i++)
		st->objs[i] = obj[i];
	__atomic_store_n(&st->len, n, __ATOMIC_RELAXED);
	stash_leave(st);
	return 0;
}

/* On the thread that frees: the last mbuf back may free the whole. */
static int
pool_ops_enqueue(struct rte_mempool *mp, void *const *obj, unsigned int n)
{
	struct netif_front_pool *p = mp->pool_config;
	struct netif_front_pool_stash *st = stash_enter(p);
	unsigned int i;
	uint32_t len;

	if (unlikely(st == NULL || st->len + n > NETIF_FRONT_POOL_STASH))
		return pool_put_spill(p, st, obj, n);
	/* Most puts are of one mbuf: no call to memcpy() for it. */
	len = st->len;
	for (i = 0; i < n; i++)
		st->objs[len++] = obj[i];
	/* Atomic only for pool_free_count(), which reads it meanwhile. */
	__atomic_store_n(&st->len, len, __ATOMIC_RELAXED);
	stash_leave(st);
	return 0;
}

static int
pool_ops_dequeue(struct rte_mempool *mp, void **obj, unsigned int n)
{
	struct netif_front_pool *p = mp->pool_config;
	struct netif_front_pool_stash *st = stash_enter(p);
	unsigned int from_stack, i;
	uint32_t len;

	if (st == NULL)
		return stack_take(p, obj, n);
	len = st->len;
	from_stack = n > len ? n - len : 0;
	if (stack_take(p, obj, from_stack) != 0) {
		stash_leave(st);
		return -ENOBUFS;
	}
	/* The stash's last, which its lcore put last: the warmest. */
	for (i = from_stack; i < n; i++)
		obj[i] = st->objs[--len];
	__atomic_store_n(&st->len, len, __ATOMIC_RELAXED);
	stash_leave(st);
	return 0;
}

/* Mbufs in @p now: its stack's and its stashes'. */
static uint32_t
pool_free_count(const struct netif_front_pool *p)
{
	uint32_t n = __atomic_load_n(&p->stack.count, __ATOMIC_RELAXED);
	unsigned int i;

	if (p->stashes)
		for (i = 0; i < RTE_MAX_LCORE; i++)
			n += __atomic_load_n(&p->stash[i].len,
					     __ATOMIC_RELAXED);
	return n;
}

static unsigned int
pool_ops_get_count(const struct rte_mempool *mp)
{
	return pool_free_count(mp->pool_config);
}

uint32_t
netif_front_pool_out(const struct netif_front_pool *p)
{
	return p == NULL ? 0 : p->nb_pages - pool_free_count(p);
}

static const struct rte_mempool_ops pool_ops = {
	.name = NETIF_FRONT_POOL_OPS,
	.alloc = pool_ops_alloc,
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
	/* The populate put @m on the free stack: its link stays. */
	struct rte_mbuf *link = m->next;

	memset(m, 0, sizeof(*m));
	m->next = link;
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
	/* Only now: the populate's puts had to go to the stack. */
	p->stashes = stash_fence_supported();
	return p;
}

/*
 * Keep every lcore off its stash from now on, and put what the stashes
 * hold on the stack (see the top of this file).
 */
static void
stashes_empty(struct netif_front_pool *p)
{
	unsigned int i;

	__atomic_store_n(&p->closing, 1, __ATOMIC_SEQ_CST);
	/*
	 * It cannot fail once the query found it. Were it to, the stashes
	 * would stay as they are, and the pool with them (never full): a
	 * leak, never an mbuf given twice.
	 */
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) != 0)
		return;
	for (i = 0; i < RTE_MAX_LCORE; i++) {
		struct netif_front_pool_stash *st = &p->stash[i];

		while (__atomic_load_n(&st->busy, __ATOMIC_ACQUIRE))
			rte_pause();
		/* Not closed yet: this put frees nothing. */
		stack_put(p, (void *const *)st->objs, st->len);
		__atomic_store_n(&st->len, 0, __ATOMIC_RELAXED);
	}
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
	union netif_front_pool_stack old, new;
	uint32_t nb_pages;

	if (p == NULL)
		return 0;
	if (p->stashes)
		stashes_empty(p);
	/* Read before the swap, after which a put may free @p. */
	nb_pages = p->nb_pages;
	old = stack_read(p);
	do {
		new = old;
		new.state |= NETIF_FRONT_POOL_CLOSED;
	} while (!stack_swap(p, &old, &new));
	if (new.count == nb_pages)
		pool_destroy(p);
	return nb_pages - new.count;
}
