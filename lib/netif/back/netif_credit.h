/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The vif's rate limit on guest TX: the toolstack's `rate` key ("bytes,usec"
 * in the backend's directory) grants a vif so many bytes per window, as
 * Linux netback's credit_bytes per credit_usec. A packet is taken only
 * while the credit covers its whole frame; else it waits in the guest's
 * ring until the next window adds credit. Credit left unused accumulates
 * up to a burst of max(128 KiB, bytes per window), so that the largest
 * frame (64 KiB) always fits and an idle vif cannot save up more; windows
 * the data plane was too busy (or held up) to look at still count.
 *
 * Unlike Linux, where every queue gets the whole rate, one credit serves
 * all the queues of a vif: the rate is the vif's, whatever the number of
 * queues the guest connected. The data lcores of its queues share it under
 * a spinlock, taken only while a limit is set; the control thread never
 * takes it: it publishes a new rate in one word (netif_credit_set()),
 * which the next packet applies.
 */

#ifndef NETIF_CREDIT_H
#define NETIF_CREDIT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_spinlock.h>

/* The limits of a rate (both fit in the word netif_credit_set() writes). */
#define NETIF_CREDIT_BYTES_MAX ((UINT64_C(1) << 40) - 1)
#define NETIF_CREDIT_USEC_MAX ((UINT64_C(1) << 24) - 1)	/* 16.7 s */
/* The least burst: Linux netback's, a 64 KiB frame twice over. */
#define NETIF_CREDIT_MIN_BURST (128u * 1024)

struct netif_credit {
	uint64_t rate;		/* published rate word; 0: no limit */
	uint64_t hz;		/* timer cycles per second */
	rte_spinlock_t lock;
	/*
	 * Under @lock, by the data plane: the rate as last applied (also
	 * read without the lock, atomically, to skip the lock when none).
	 */
	uint64_t applied;
	uint64_t bytes;		/* per window */
	uint64_t window;	/* timer cycles */
	uint64_t burst;		/* most credit there may be */
	uint64_t remaining;
	uint64_t next;		/* when the next window begins */
};

/*
 * No limit until netif_credit_set() says otherwise; time is read in timer
 * cycles, @hz per second.
 */
void netif_credit_init(struct netif_credit *c, uint64_t hz);

/*
 * Control thread: from the next packet on, @bytes per @usec (both
 * non-zero and within the maxima above), or no limit when @bytes is 0.
 * Credit already granted is cut to the new window's bytes.
 */
void netif_credit_set(struct netif_credit *c, uint64_t bytes, uint64_t usec);

/*
 * Data plane: whether a frame of @size bytes may be taken at @now (timer
 * cycles); if so, its bytes are spent.
 */
bool netif_credit_take_limited(struct netif_credit *c, uint32_t size,
			       uint64_t now);

/* No limit, and none since the last packet either. */
static inline bool
netif_credit_off(const struct netif_credit *c)
{
	return __atomic_load_n(&c->rate, __ATOMIC_RELAXED) == 0 &&
	       __atomic_load_n(&c->applied, __ATOMIC_RELAXED) == 0;
}

static inline bool
netif_credit_take(struct netif_credit *c, uint32_t size, uint64_t now)
{
	if (netif_credit_off(c))
		return true;
	return netif_credit_take_limited(c, size, now);
}

/*
 * Data plane: give back what netif_credit_take() spent on a frame of @size
 * bytes that was not taken after all (it waits in the ring).
 */
void netif_credit_refund(struct netif_credit *c, uint32_t size);

#endif /* NETIF_CREDIT_H */
