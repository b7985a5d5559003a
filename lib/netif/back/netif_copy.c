/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Submitting a burst's grant copies and checking their status (see
 * netif_copy.h).
 */

#include "netif_copy.h"

/* Page boundaries @len bytes at @p cross. */
static inline unsigned int
pages_crossed(const void *p, uint16_t len)
{
	uintptr_t a = (uintptr_t)p;

	return len == 0 ? 0 : (a + len - 1) / XA_PAGE_SIZE - a / XA_PAGE_SIZE;
}

void
netif_copy_flush(struct netif_copy *c)
{
	unsigned int i, splits = 0;

	if (c->n == 0)
		return;
	for (i = 0; i < c->n; i++) {
		const xengnttab_grant_copy_segment_t *s = &c->segs[i];

		/* Only a local side is pinned page by page (a lent page: none). */
		if (!(s->flags & GNTCOPY_source_gref))
			splits += pages_crossed(s->source.virt, s->len);
		else if (!(s->flags & GNTCOPY_dest_gref))
			splits += pages_crossed(s->dest.virt, s->len);
	}
	c->stats.calls++;
	c->stats.segs += c->n;
	c->stats.page_splits += splits;
	xa_gnt_copy(c->xa, c->n, c->segs);
}

bool
netif_copy_grant(struct xa_handle *xa, domid_t domid, grant_ref_t ref,
		 void *buf, uint32_t len, bool out)
{
	xengnttab_grant_copy_segment_t seg = {
		.len = len,
		.status = GNTST_general_error,
	};
	union xengnttab_copy_ptr *peer = out ? &seg.dest : &seg.source;

	peer->foreign.ref = ref;
	peer->foreign.offset = 0;
	peer->foreign.domid = domid;
	if (out) {
		seg.source.virt = buf;
		seg.flags = GNTCOPY_dest_gref;
	} else {
		seg.dest.virt = buf;
		seg.flags = GNTCOPY_source_gref;
	}
	return xa_gnt_copy(xa, 1, &seg) == 0 && seg.status == GNTST_okay;
}
