/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The four ring kinds a queue of either PMD moves packets through, each
 * behind one table of operations: a backend pulls the guest's TX ring and
 * pushes into its RX ring, a frontend pulls its RX ring and pushes into
 * its TX ring. The PMD glue binds a queue to its kind once, at set-up,
 * and from then on calls through the kind's table: it needs no switch on
 * kinds and no header of either end.
 *
 * A queue holds its kind as a number, not a pointer to its table: queues
 * live in memory secondary processes share, and a secondary may have
 * loaded the library at another address.
 */

#ifndef NETIF_RING_OPS_H
#define NETIF_RING_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_debug.h>
#include <rte_mbuf.h>

#include "netif_ring.h"

struct netif_gso;

enum netif_ring_kind {
	NETIF_RING_BACK_TX,	/* struct netif_back_tx: netif_back_tx_pull() */
	NETIF_RING_BACK_RX,	/* struct netif_back_rx: netif_back_rx_push() */
	NETIF_RING_FRONT_RX,	/* struct netif_front_rx: netif_front_rx_pull() */
	NETIF_RING_FRONT_TX,	/* struct netif_front_tx: netif_front_tx_send() */
	NETIF_RING_KINDS
};

/* What one move leaves for its caller to do. */
struct netif_moved {
	enum netif_doorbell doorbell;	/* what publishing asked */
	const char *error;	/* the ring's first protocol violation, or NULL */
};

/* Our end of a ring, for operators: a snapshot of indexes that move. */
struct netif_ring_view {
	const char *what;	/* which ring, which end */
	bool backend;		/* we consume requests (else responses) */
	RING_IDX prod_pvt;	/* our end's private producer */
	RING_IDX cons;		/* our end's consumer */
	const RING_IDX *shared;	/* req_prod, req_event, rsp_prod, rsp_event */
};

/*
 * Fill @v from our end's private producer @prod_pvt and consumer @cons,
 * and the shared page's first index @shared (NULL: no ring attached).
 */
static inline bool
netif_ring_view_fill(struct netif_ring_view *v, const char *what,
		     bool backend, const RING_IDX *prod_pvt,
		     const RING_IDX *cons, const RING_IDX *shared)
{
	v->what = what;
	v->backend = backend;
	v->prod_pvt = __atomic_load_n(prod_pvt, __ATOMIC_RELAXED);
	v->cons = __atomic_load_n(cons, __ATOMIC_RELAXED);
	v->shared = shared;
	return shared != NULL;
}

struct netif_ring_ops {
	/* It fills an Rx queue (pull, arm, offloads), else a Tx queue (gso). */
	bool receives;
	/*
	 * Pull at most @n packets from the ring (receives) or push @n into
	 * it, publishing once; returns how many moved and sets @m.
	 */
	uint16_t (*move)(void *ring, struct rte_mbuf **pkts, uint16_t n,
			 struct netif_moved *m);
	/*
	 * Receives: ask the peer for an event when it publishes more, and
	 * tell whether it already has (then poll instead of sleeping).
	 * Polling needs no disarm: the peer sends no event until asked again.
	 */
	bool (*arm)(void *ring);
	/* Our end of the ring; false while it has none attached. */
	bool (*view)(const void *ring, struct netif_ring_view *v);
	/*
	 * Where the ring's struct keeps (offsets) the application's Rx
	 * offloads, NETIF_RX_* (receives), or its segmenter and where it
	 * reads the link's MTU (sends).
	 */
	size_t offloads;
	size_t gso;
	size_t mtu;
};

/*
 * Define the table @ops of a kind whose ring is a struct @type (its Xen
 * ring in field `ring`), moved by its burst function @fn, and its view
 * of the indexes @prod_pvt and @cons of that ring, named @what. The move
 * also reports the ring's first protocol violation. A kind that receives
 * (NETIF_RING_PULL) is armed by @arm and keeps the application's Rx
 * offloads in field `offloads`; one that sends (NETIF_RING_PUSH) keeps
 * its segmenter in field `gso` and a pointer to the link's MTU in `mtu`.
 */
#define NETIF_RING_KIND_(ops, type, fn, what, backend, prod_pvt, cons) \
static uint16_t \
ops##_move(void *ring, struct rte_mbuf **pkts, uint16_t n, \
	   struct netif_moved *m) \
{ \
	struct type *r = ring; \
\
	n = fn(r, pkts, n, &m->doorbell); \
	m->error = r->error; \
	return n; \
} \
\
static bool \
ops##_view(const void *ring, struct netif_ring_view *v) \
{ \
	const struct type *r = ring; \
\
	return netif_ring_view_fill(v, what, backend, &r->ring.prod_pvt, \
				    &r->ring.cons, r->ring.sring == NULL ? \
				    NULL : &r->ring.sring->req_prod); \
}

#define NETIF_RING_PULL(ops, type, fn, arm_fn, what, backend, prod_pvt, cons) \
NETIF_RING_KIND_(ops, type, fn, what, backend, prod_pvt, cons) \
const struct netif_ring_ops ops = { \
	.receives = true, \
	.move = ops##_move, \
	.arm = arm_fn, \
	.view = ops##_view, \
	.offloads = offsetof(struct type, offloads), \
}

#define NETIF_RING_PUSH(ops, type, fn, what, backend, prod_pvt, cons) \
	NETIF_RING_KIND_(ops, type, fn, what, backend, prod_pvt, cons) \
	const struct netif_ring_ops ops = { \
		.move = ops##_move, \
		.view = ops##_view, \
		.gso = offsetof(struct type, gso), \
		.mtu = offsetof(struct type, mtu), \
	}

extern const struct netif_ring_ops netif_back_tx_ops;
extern const struct netif_ring_ops netif_back_rx_ops;
extern const struct netif_ring_ops netif_front_rx_ops;
extern const struct netif_ring_ops netif_front_tx_ops;

extern const struct netif_ring_ops *const netif_ring_kinds[NETIF_RING_KINDS];

/* The operations of ring kind @kind (one of enum netif_ring_kind). */
static inline const struct netif_ring_ops *
netif_ring_ops(uint8_t kind)
{
	RTE_ASSERT(kind < NETIF_RING_KINDS);
	return netif_ring_kinds[kind];
}

/* Receives: the application's Rx offloads (NETIF_RX_*) from now on. */
static inline void
netif_ring_set_offloads(const struct netif_ring_ops *ops, void *ring,
			uint32_t offloads)
{
	RTE_ASSERT(ops->receives);
	*(uint32_t *)((char *)ring + ops->offloads) = offloads;
}

/* Sends: where the ring keeps its segmenter (NULL: none). */
static inline struct netif_gso **
netif_ring_gso(const struct netif_ring_ops *ops, void *ring)
{
	RTE_ASSERT(!ops->receives);
	return (struct netif_gso **)((char *)ring + ops->gso);
}

/* Sends: where the ring reads the link's MTU (the port's, as it changes). */
static inline const uint16_t **
netif_ring_mtu(const struct netif_ring_ops *ops, void *ring)
{
	RTE_ASSERT(!ops->receives);
	return (const uint16_t **)((char *)ring + ops->mtu);
}

#endif /* NETIF_RING_OPS_H */
