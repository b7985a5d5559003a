/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A vif's multicast filter (netif.h, "feature-multicast-control"): once
 * the frontend asks for it (request-multicast-control), the backend
 * delivers to the guest only the multicast frames whose group the guest
 * added with an XEN_NETIF_EXTRA_TYPE_MCAST_ADD extra on a dummy TX
 * request, as Linux netback does (broadcast always passes). The list may
 * be amended while the filter is off, and holds at most NETIF_MCAST_MAX
 * groups, Linux's XEN_NETBK_MCAST_MAX: one more is refused.
 *
 * One filter serves all the queues of a vif: the guest's TX queues amend
 * it (their lcores serialise on a spinlock only the data plane takes)
 * while its RX queues read it without a lock, each group one atomic word.
 * The control thread only switches it on and off and clears it at
 * connect, while no burst runs.
 */

#ifndef NETIF_MCAST_H
#define NETIF_MCAST_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_spinlock.h>

#define NETIF_MCAST_MAX 64

struct netif_mcast {
	uint32_t enabled;		/* request-multicast-control: control thread */
	rte_spinlock_t lock;		/* writers of @groups */
	/* A group's address in the low 48 bits and NETIF_MCAST_USED; 0: free. */
	uint64_t groups[NETIF_MCAST_MAX];
};

/* Empty and off (at init and at each connect, with no burst running). */
void netif_mcast_reset(struct netif_mcast *f);

/* Control thread: filter (or flood) from the next frame on. */
static inline void
netif_mcast_enable(struct netif_mcast *f, bool on)
{
	__atomic_store_n(&f->enabled, on, __ATOMIC_RELAXED);
}

/*
 * Data plane: add the group @addr (0), or refuse it: -EINVAL when it is
 * not a multicast address, -ENOSPC when NETIF_MCAST_MAX are there. A
 * group already there is not added twice.
 */
int netif_mcast_add(struct netif_mcast *f, const struct rte_ether_addr *addr);

/* Data plane: remove the group @addr if it is there. */
void netif_mcast_del(struct netif_mcast *f, const struct rte_ether_addr *addr);

/* Data plane: whether a frame to @dst goes to the guest. */
bool netif_mcast_match(const struct netif_mcast *f,
		       const struct rte_ether_addr *dst);

static inline bool
netif_mcast_pass(const struct netif_mcast *f, const struct rte_ether_addr *dst)
{
	if (likely(!rte_is_multicast_ether_addr(dst) ||
		   rte_is_broadcast_ether_addr(dst) ||
		   !__atomic_load_n(&f->enabled, __ATOMIC_RELAXED)))
		return true;
	return netif_mcast_match(f, dst);
}

#endif /* NETIF_MCAST_H */
