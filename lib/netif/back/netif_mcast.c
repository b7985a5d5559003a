/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A vif's multicast filter (see netif_mcast.h): a fixed table of groups,
 * each an atomic word, so that a reader scans it without a lock.
 */

#include <errno.h>
#include <string.h>

#include "netif_mcast.h"

#define NETIF_MCAST_USED (UINT64_C(1) << 63)

static uint64_t
group_word(const struct rte_ether_addr *addr)
{
	uint64_t w = 0;

	memcpy(&w, addr->addr_bytes, RTE_ETHER_ADDR_LEN);
	return w | NETIF_MCAST_USED;
}

void
netif_mcast_reset(struct netif_mcast *f)
{
	memset(f, 0, sizeof(*f));
	rte_spinlock_init(&f->lock);
}

/* Under the lock: the slot of @w, or -1. */
static int
find(const struct netif_mcast *f, uint64_t w)
{
	unsigned int i;

	for (i = 0; i < NETIF_MCAST_MAX; i++)
		if (f->groups[i] == w)
			return i;
	return -1;
}

int
netif_mcast_add(struct netif_mcast *f, const struct rte_ether_addr *addr)
{
	uint64_t w = group_word(addr);
	int ret = 0, slot;

	if (!rte_is_multicast_ether_addr(addr) ||
	    rte_is_broadcast_ether_addr(addr))
		return -EINVAL;
	rte_spinlock_lock(&f->lock);
	if (find(f, w) < 0) {
		slot = find(f, 0);
		if (slot < 0)
			ret = -ENOSPC;
		else
			__atomic_store_n(&f->groups[slot], w, __ATOMIC_RELAXED);
	}
	rte_spinlock_unlock(&f->lock);
	return ret;
}

void
netif_mcast_del(struct netif_mcast *f, const struct rte_ether_addr *addr)
{
	int slot;

	rte_spinlock_lock(&f->lock);
	slot = find(f, group_word(addr));
	if (slot >= 0)
		__atomic_store_n(&f->groups[slot], 0, __ATOMIC_RELAXED);
	rte_spinlock_unlock(&f->lock);
}

bool
netif_mcast_match(const struct netif_mcast *f, const struct rte_ether_addr *dst)
{
	uint64_t w = group_word(dst);
	unsigned int i;

	for (i = 0; i < NETIF_MCAST_MAX; i++)
		if (__atomic_load_n(&f->groups[i], __ATOMIC_RELAXED) == w)
			return true;
	return false;
}
