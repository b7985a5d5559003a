/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Static grants as a hostile frontend drives them: the input is the
 * limits on mapped pages, then a sequence of operations on two queue
 * pairs of one vif, served by netif_statics_serve() against pages a guest
 * really grants through the simulated hypervisor: ADD and DEL of lists of
 * its grants (writable, read-only, never given, duplicated, with unknown
 * flags), GET_GREF_MAPPING_SIZE, a loan of a mapped page to the
 * application (a packet the data path lent, netif_lend.h) and its return,
 * a disconnect and reconnect with the loans still held, and a reap of the
 * pages given back. A model of the frontend's view keeps the live grants
 * and the loans. After every operation: no limit is exceeded by the pages
 * mapped, lent ones included; each queue pair's table holds exactly the
 * live grants, each with the access it was added with; DEL answers the
 * count the model expects; a refused ADD changes nothing. At the end of
 * the input the simulator's count of the backend's mapped pages is what
 * the queue pairs count, and once released, nothing stays mapped.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "fuzz_sim.h"
#include "netif_lend.h"
#include "netif_statics.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define GUEST 1
#define QUEUES 2
#define RW_PAGES 48 /* granted writable */
#define RO_PAGES 8  /* granted read-only */
#define PAGES (RW_PAGES + RO_PAGES)
#define BOGUS 4 /* references never granted */
#define REFS (PAGES + BOGUS)
#define LIST_MAX 64
/* Operations an input may make: enough to reach every limit, and fast. */
#define OPS_MAX 48

static struct xa_handle *dom0, *domu;
static grant_ref_t refs[REFS];
static struct xen_netif_gref *list; /* the list page, granted writable */
static grant_ref_t list_ref;

static struct netif_statics st;
static struct netif_statics_queue sq[QUEUES];
static struct netif_lend lend[QUEUES];

/* The frontend's view: what each reference is in each queue pair's table. */
enum {
	NONE,
	RO,
	RW
};
static uint8_t live[QUEUES][REFS];

int
LLVMFuzzerInitialize(int *argc __rte_unused, char ***argv __rte_unused)
{
	unsigned int i;

	fuzz_sim_open("statics", GUEST, &dom0, &domu);
	if (xa_gnt_share_set_limit(domu, PAGES + 1) != 0 ||
	    xa_gnt_share(domu, 0, RW_PAGES, refs, true) == NULL ||
	    xa_gnt_share(domu, 0, RO_PAGES, refs + RW_PAGES, false) == NULL)
		abort();
	list = xa_gnt_share(domu, 0, 1, &list_ref, true);
	if (list == NULL)
		abort();
	for (i = 0; i < BOGUS; i++)
		refs[PAGES + i] = 100000 + i;
	return 0;
}

static void
no_quiesce(void *opaque __rte_unused, unsigned int q __rte_unused)
{
}

static void
connect(const struct netif_statics_limits *lim)
{
	struct netif_statics_queue *qs[QUEUES] = { &sq[0], &sq[1] };
	unsigned int i;

	for (i = 0; i < QUEUES; i++)
		sq[i].lend = &lend[i];
	st.quiesce = no_quiesce;
	netif_statics_connect(&st, dom0, GUEST, QUEUES, qs, lim);
	memset(live, 0, sizeof(live));
}

/* The input, read a byte at a time; zeros once it is used up. */
struct input {
	const uint8_t *p;
	size_t left;
};

static uint8_t
next(struct input *in)
{
	if (in->left == 0)
		return 0;
	in->left--;
	return *in->p++;
}

static uint32_t
serve(uint16_t type, uint32_t q, uint32_t n, uint32_t *data)
{
	struct xen_netif_ctrl_request req = {
		.type = type,
		.data = { q, list_ref, n },
	};
	struct xen_netif_ctrl_response rsp;

	if (!netif_statics_serve(&st, &req, &rsp))
		abort();
	*data = rsp.data;
	return rsp.status;
}

/* Whether any loan of queue @q holds the page of @ref in its table. */
static bool
ref_lent(unsigned int q, unsigned int r)
{
	const uint8_t *pg = netif_gref_map_find(sq[q].map, refs[r], false);

	return pg != NULL && netif_lend_holds(&lend[q], pg, XA_PAGE_SIZE);
}

/* A list of @n entries from the input, into the list page; @idx: which refs. */
static void
read_list(struct input *in, uint32_t n, unsigned int *idx)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint8_t b = next(in);

		idx[i] = (b & 0x3f) % REFS;
		list[i] = (struct xen_netif_gref){
			.ref = refs[idx[i]],
			.flags = b & 0x80 ? XEN_NETIF_CTRLF_GREF_readonly : 0,
			.status = 0xffff,
		};
		if ((b & 0x40) && (b & 0x80) && idx[i] == 0)
			list[i].flags |= 2; /* unknown */
	}
}

static void
op_add(struct input *in, unsigned int q, uint32_t n)
{
	unsigned int idx[LIST_MAX], i, j;
	uint64_t refused = sq[q].over_limit;
	uint8_t before[REFS];
	bool valid = n > 0;
	uint32_t status, data;

	read_list(in, n, idx);
	for (i = 0; i < n; i++) {
		bool ro = list[i].flags & XEN_NETIF_CTRLF_GREF_readonly;

		if (list[i].flags & ~XEN_NETIF_CTRLF_GREF_readonly ||
		    idx[i] >= PAGES || live[q][idx[i]] != NONE ||
		    (idx[i] >= RW_PAGES && !ro))
			valid = false;
		for (j = 0; j < i; j++)
			if (idx[j] == idx[i])
				valid = false;
	}
	memcpy(before, live[q], sizeof(before));
	status = serve(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, q, n, &data);
	if (status == XEN_NETIF_CTRL_STATUS_SUCCESS) {
		if (!valid)
			abort();
		for (i = 0; i < n; i++)
			live[q][idx[i]] = list[i].flags ? RO : RW;
	} else if (status != XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER ||
		   (valid && sq[q].over_limit != refused + 1)) {
		/* A valid list is refused only by a limit, and counted. */
		abort();
	}
	if (memcmp(before, live[q], sizeof(before)) != 0 &&
	    status != XEN_NETIF_CTRL_STATUS_SUCCESS)
		abort();
}

static void
op_del(struct input *in, unsigned int q, uint32_t n)
{
	unsigned int idx[LIST_MAX], i, j;
	uint32_t status, data, removed = 0;
	bool gone[LIST_MAX];

	read_list(in, n, idx);
	for (i = 0; i < n; i++) {
		gone[i] = live[q][idx[i]] != NONE && !ref_lent(q, idx[i]);
		for (j = 0; j < i; j++)
			if (idx[j] == idx[i])
				gone[i] = false;
		removed += gone[i];
	}
	status = serve(XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING, q, n, &data);
	if (n == 0) {
		if (status != XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER)
			abort();
		return;
	}
	if (status != XEN_NETIF_CTRL_STATUS_SUCCESS || data != removed)
		abort();
	for (i = 0; i < n; i++) {
		if (list[i].status !=
		    (gone[i] ? XEN_NETIF_CTRL_STATUS_SUCCESS :
			       XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER))
			abort();
		if (gone[i])
			live[q][idx[i]] = NONE;
	}
}

/* Lend the page of a live grant in loan slot @slot, as the data path does. */
static void
op_lend(unsigned int q, unsigned int r, unsigned int slot)
{
	struct netif_loan *loan = &lend[q].loans[slot % NETIF_LEND_SLOTS];
	const uint8_t *pg = netif_gref_map_find(sq[q].map, refs[r], false);

	if (pg == NULL || loan->nr_pages >= NETIF_MAX_SLOTS)
		return;
	loan->pages[loan->nr_pages++] = pg;
}

static void
check(void)
{
	uint64_t vif = 0;
	unsigned int q, r;

	for (q = 0; q < QUEUES; q++) {
		uint64_t n = 0;

		if (sq[q].pages > st.limits.queue || sq[q].grants > sq[q].pages)
			abort();
		vif += sq[q].pages;
		for (r = 0; r < REFS; r++) {
			const uint8_t *any =
				netif_gref_map_find(sq[q].map, refs[r], false);
			const uint8_t *w =
				netif_gref_map_find(sq[q].map, refs[r], true);

			if ((any != NULL) != (live[q][r] != NONE) ||
			    (w != NULL) != (live[q][r] == RW))
				abort();
			n += live[q][r] != NONE;
		}
		if (sq[q].grants != n)
			abort();
	}
	if (vif > st.limits.vif || netif_statics_process_pages() != vif ||
	    vif > st.limits.process)
		abort();
}

/* Every loan given back (what netif_lend_holds() reads). */
static void
lend_none(void)
{
	unsigned int q, i;

	for (q = 0; q < QUEUES; q++)
		for (i = 0; i < NETIF_LEND_SLOTS; i++)
			lend[q].loans[i].nr_pages = 0;
}

static uint32_t
backend_maps(void)
{
	struct xsim_usage u;

	if (xsim_domain_usage(fuzz_sim_instance, 0, &u) != 0)
		abort();
	return u.maps;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct netif_statics_limits lim;
	unsigned int q, i, ops = 0;
	uint32_t d;

	if (size < 3)
		return 0;
	memset(sq, 0, sizeof(sq));
	memset(&st, 0, sizeof(st));
	lend_none();
	/* Small limits, so that short inputs reach them. */
	lim.queue = 1 + next(&in) % 96;
	lim.vif = next(&in) % 160;
	lim.process = next(&in) % 200;
	connect(&lim);
	while (in.left > 0 && ops++ < OPS_MAX) {
		uint8_t op = next(&in);

		q = (op >> 3) & 1;
		switch (op & 7) {
		case 0:
		case 1:
			op_add(&in, q, next(&in) % (LIST_MAX + 1));
			break;
		case 2:
		case 3:
			op_del(&in, q, next(&in) % (LIST_MAX + 1));
			break;
		case 4:
			if (serve(XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE, q,
				  0, &d) != XEN_NETIF_CTRL_STATUS_SUCCESS ||
			    d != RTE_MIN(lim.queue,
					 RTE_MIN(lim.vif, lim.process)))
				abort();
			break;
		case 5:
			op_lend(q, next(&in) % REFS, next(&in));
			break;
		case 6:
			/* The application gives a loan back. */
			lend[q].loans[next(&in) % NETIF_LEND_SLOTS].nr_pages =
				0;
			netif_statics_reap(&st);
			break;
		case 7:
			/* Disconnect and connect again, loans held. */
			netif_statics_release(&st);
			connect(&lim);
			break;
		}
		check();
	}
	if (backend_maps() != sq[0].pages + sq[1].pages)
		abort();
	/* Every loan given back: nothing stays mapped. */
	netif_statics_release(&st);
	lend_none();
	if (netif_statics_reap(&st) != 0 || netif_statics_process_pages() != 0)
		abort();
	for (i = 0; i < QUEUES; i++)
		if (sq[i].pages != 0 || sq[i].lent != NULL)
			abort();
	if (backend_maps() != 0)
		abort();
	return 0;
}
