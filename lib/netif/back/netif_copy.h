/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A burst's grant copies, batched: segments are added as packets are
 * turned into copies, submitted in one call (the kernel splits it into
 * hypercalls of 16), and each packet then checks the status of its own
 * segments. Linux netback's rx_copy_add/rx_copy_flush play the same role.
 * One batch per queue, used by that queue's lcore only.
 */

#ifndef NETIF_COPY_H
#define NETIF_COPY_H

#include <stdbool.h>
#include <stdint.h>

#include <xengnttab.h>

#include "xa.h"

/*
 * Segments one burst may submit: a burst of 64 packets of up to 18 slots,
 * each slot split at most at an mbuf boundary (and one more for the
 * packets that do).
 */
#define NETIF_COPY_SEGS_MAX 2048

struct netif_copy_stats {
	uint64_t calls;		/* copy calls submitted */
	uint64_t segs;		/* segments in them */
	/*
	 * Further operations the kernel makes of them: Linux's gntdev copies
	 * one page of our memory per operation (gntdev_grant_copy_seg()
	 * pins each), so a segment whose local side crosses k page
	 * boundaries costs 1 + k.
	 */
	uint64_t page_splits;
	uint64_t failed;	/* segments whose status was not GNTST_okay */
};

struct netif_copy {
	struct xa_handle *xa;
	unsigned int n;		/* segments waiting for the flush */
	struct netif_copy_stats stats;
	xengnttab_grant_copy_segment_t segs[NETIF_COPY_SEGS_MAX];
};

/* Room for more segments, and where they go. */
static inline unsigned int
netif_copy_room(const struct netif_copy *c)
{
	return NETIF_COPY_SEGS_MAX - c->n;
}

static inline xengnttab_grant_copy_segment_t *
netif_copy_next(struct netif_copy *c)
{
	return &c->segs[c->n];
}

/*
 * Submit the waiting segments in one call, if there are any. When the
 * call itself fails, every segment keeps the failed status it was given
 * when added, so that netif_copy_ok() reports them all failed.
 */
void netif_copy_flush(struct netif_copy *c);

/*
 * Whether segments [@first, @last) of the flushed batch all succeeded;
 * the failed ones are counted. Every status was pre-set to failure: Xen
 * may leave one untouched (XSA-318).
 */
static inline bool
netif_copy_ok(struct netif_copy *c, unsigned int first, unsigned int last)
{
	unsigned int i, bad = 0;

	for (i = first; i < last; i++)
		bad += c->segs[i].status != GNTST_okay;
	c->stats.failed += bad;
	return bad == 0;
}

/* Forget the flushed segments; the next burst starts at segment 0. */
static inline void
netif_copy_reset(struct netif_copy *c)
{
	c->n = 0;
}

/*
 * One grant copy, outside any burst (the control ring's requests): @len
 * bytes from the start of the grant @ref of domain @domid into @buf, or
 * from @buf into it when @out. Whether it succeeded.
 */
bool netif_copy_grant(struct xa_handle *xa, domid_t domid, grant_ref_t ref,
		      void *buf, uint32_t len, bool out);

#endif /* NETIF_COPY_H */
