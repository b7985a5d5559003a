/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The simulated hypervisor's grant-copy checks, which every test of the
 * data path relies on to behave as Xen's: domain 1 grants two pages
 * writable and two read-only to domain 0, which submits copy segments of
 * the input's making (grant references, domains, offsets, lengths and
 * directions of any value; its own buffer side always inside its buffer).
 * Whatever the segments, every status is GNTST_okay or a GNTST_* error,
 * and a segment with a grant side that succeeded named a page granted to
 * it by that domain, stayed inside the page and wrote only where the
 * grant allows (a copy within its own memory Xen allows too).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "fuzz_sim.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define GRANTER 1
#define PAGES 4			/* 0-1 writable, 2-3 read-only */
#define SEGS 16
#define LOCAL (2 * XA_PAGE_SIZE)

static struct xa_handle *dom0, *domu;
static grant_ref_t refs[PAGES];
static uint8_t local[LOCAL];

int
LLVMFuzzerInitialize(int *argc __rte_unused, char ***argv __rte_unused)
{
	fuzz_sim_open("gnt", GRANTER, &dom0, &domu);
	if (xa_gnt_share(domu, 0, 2, refs, true) == NULL ||
	    xa_gnt_share(domu, 0, 2, refs + 2, false) == NULL)
		abort();
	return 0;
}

/* One segment's input: which side is foreign, its grant, where, how much. */
struct seg_in {
	uint8_t dir;		/* bit 0: foreign source, bit 1: foreign dest */
	uint8_t ref;		/* < PAGES: refs[ref]; else used as it is */
	uint8_t domid;		/* bit 0 set: the granter, else this value */
	uint8_t pad;
	uint16_t offset;
	uint16_t len;
	uint16_t local_off;
} __rte_packed;

static bool
known_status(int16_t st)
{
	return st <= GNTST_okay && st >= GNTST_eagain;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	xengnttab_grant_copy_segment_t segs[SEGS];
	struct seg_in in[SEGS];
	unsigned int n = RTE_MIN(size / sizeof(in[0]), (size_t)SEGS), i;

	if (n == 0)
		return 0;
	memcpy(in, data, n * sizeof(in[0]));
	for (i = 0; i < n; i++) {
		xengnttab_grant_copy_segment_t *s = &segs[i];
		grant_ref_t ref = in[i].ref < PAGES ? refs[in[i].ref] :
				  in[i].ref;
		domid_t domid = in[i].domid & 1 ? GRANTER : in[i].domid;
		uint16_t len = in[i].len % (XA_PAGE_SIZE + 64);
		uint16_t off = in[i].local_off % LOCAL;
		union xengnttab_copy_ptr *foreign, *mine;

		memset(s, 0, sizeof(*s));
		s->len = len;
		s->status = GNTST_general_error;
		if (off + len > LOCAL)
			off = LOCAL - len;
		/* Both foreign, or both local, are what Xen refuses too. */
		s->flags = (in[i].dir & 1 ? GNTCOPY_source_gref : 0) |
			   (in[i].dir & 2 ? GNTCOPY_dest_gref : 0);
		foreign = in[i].dir & 1 ? &s->source : &s->dest;
		mine = in[i].dir & 1 ? &s->dest : &s->source;
		foreign->foreign.ref = ref;
		foreign->foreign.offset = in[i].offset;
		foreign->foreign.domid = domid;
		if ((in[i].dir & 3) == 1 || (in[i].dir & 3) == 2) {
			mine->virt = local + off;
		} else if ((in[i].dir & 3) == 0) {
			/* Our own memory both ways, as Xen allows: apart. */
			s->len = RTE_MIN(len, (uint16_t)(LOCAL / 2));
			s->source.virt = local;
			s->dest.virt = local + LOCAL / 2;
		}
	}
	xa_gnt_copy(dom0, n, segs);
	for (i = 0; i < n; i++) {
		const xengnttab_grant_copy_segment_t *s = &segs[i];
		const union xengnttab_copy_ptr *foreign =
			s->flags & GNTCOPY_source_gref ? &s->source : &s->dest;
		unsigned int p;

		if (!known_status(s->status))
			abort();
		if (s->status != GNTST_okay || s->len == 0 ||
		    !(s->flags & (GNTCOPY_source_gref | GNTCOPY_dest_gref)))
			continue;
		for (p = 0; p < PAGES && refs[p] != foreign->foreign.ref; p++)
			;
		if (p == PAGES || foreign->foreign.domid != GRANTER ||
		    foreign->foreign.offset + s->len > XA_PAGE_SIZE ||
		    (s->flags & GNTCOPY_dest_gref && p >= 2))
			abort();
	}
	return 0;
}
