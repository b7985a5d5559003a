/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Receive batching shared by both PMDs: the batch bound, and EtherType
 * grouping with a per-queue stash of packets pulled from the ring but not
 * yet returned.
 *
 * The bound: one pull from the ring takes at most `batch` packets (and
 * never more than the application asked for), then the responses or new
 * requests of the whole pull are published once, with at most one
 * notification. An rx burst does at most one pull, so it never returns
 * more than `batch` packets.
 *
 * Grouping (off by default): a burst returns a run of packets of one
 * EtherType, from the front of the stash, flagged with the
 * single-EtherType dynamic flag. A frame without an EtherType (LLC/SNAP,
 * undefined TypeOrLength) never joins a run: it is returned in a burst of
 * its own, unflagged. The ring is pulled only when the stash is empty, so
 * packets leave in the order they came, and a burst that ends at a run
 * boundary leaves the rest for the next calls.
 */

#ifndef NETIF_RX_GROUP_H
#define NETIF_RX_GROUP_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "netif_ring_ops.h"

#define NETIF_BATCH_MIN 1
#define NETIF_BATCH_MAX 64
#define NETIF_BATCH_DEFAULT 32

struct netif_rx_stash {
	uint16_t head;		/* next packet to return */
	uint16_t count;		/* packets held, from head on */
	uint16_t types[NETIF_BATCH_MAX];	/* EtherType of each */
	struct rte_mbuf *pkts[NETIF_BATCH_MAX];
};

/*
 * Register the single-EtherType mbuf flag
 * (RTE_PMD_XEN_NETIF_DYNFLAG_SINGLE_ETHERTYPE; once per process, again
 * returns the same bit). Returns its mask, or 0 with rte_errno set.
 */
uint64_t netif_single_ethertype_flag(void);

static inline bool
netif_rx_stash_empty(const struct netif_rx_stash *s)
{
	return s->count == 0;
}

/*
 * Take over the @n packets just pulled into s->pkts[0..n) (the stash was
 * empty), each classified by netif_l2_classify() in the pull.
 */
void netif_rx_stash_fill(struct netif_rx_stash *s, uint16_t n);

/*
 * Move the run at the front of the stash into @pkts: at most @nb_pkts
 * packets that share one EtherType, each marked with @single_flag; or one
 * packet without an EtherType, unmarked. Returns the number moved.
 */
uint16_t netif_rx_stash_take_run(struct netif_rx_stash *s,
				 struct rte_mbuf **pkts, uint16_t nb_pkts,
				 uint64_t single_flag);

/* Free whatever the stash holds (queue release). */
void netif_rx_stash_flush(struct netif_rx_stash *s);

/* An Rx queue's batching: its bound and grouping, and grouping's stash. */
struct netif_rx_batching {
	uint16_t batch;			/* NETIF_BATCH_MIN..MAX */
	bool group;
	uint64_t single_flag;		/* netif_single_ethertype_flag() */
	struct netif_rx_stash stash;	/* pulled, not yet returned */
};

/*
 * One Rx burst by the rule above, from @ring of kind @ops: a pull of
 * min(@nb_pkts, batch) straight into @pkts; or, when grouping, a pull into
 * the stash once it is empty and the run at its front into @pkts. @m says
 * what the pull left to do (the caller sets it to nothing first: a burst
 * served from the stash pulls nothing).
 */
static inline uint16_t
netif_rx_burst(struct netif_rx_batching *b, const struct netif_ring_ops *ops,
	       void *ring, struct rte_mbuf **pkts, uint16_t nb_pkts,
	       struct netif_moved *m)
{
	struct netif_rx_stash *s = &b->stash;
	uint16_t max = RTE_MIN(nb_pkts, b->batch);

	if (!b->group)
		return ops->move(ring, pkts, max, m);
	if (netif_rx_stash_empty(s) && max > 0)
		netif_rx_stash_fill(s, ops->move(ring, s->pkts, max, m));
	return netif_rx_stash_take_run(s, pkts, nb_pkts, b->single_flag);
}

#endif /* NETIF_RX_GROUP_H */
