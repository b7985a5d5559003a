/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Submitting a burst's grant copies and checking their status (see
 * netif_copy.h).
 */

#include "netif_copy.h"

bool
netif_copy_flush(struct netif_copy *c)
{
	if (c->n == 0)
		return true;
	c->stats.calls++;
	c->stats.segs += c->n;
	return xa_gnt_copy(c->xa, c->n, c->segs) == 0;
}

bool
netif_copy_ok(struct netif_copy *c, unsigned int first, unsigned int last)
{
	unsigned int i, bad = 0;

	/* Every status was pre-set to failure: Xen may leave one untouched (XSA-318). */
	for (i = first; i < last; i++)
		bad += c->segs[i].status != GNTST_okay;
	c->stats.failed += bad;
	return bad == 0;
}
