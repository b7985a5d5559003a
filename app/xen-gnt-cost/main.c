/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * xen-gnt-cost: what mapping a guest's pages costs a backend in user space,
 * against copying them, measured where it runs (issue 31: a guest's
 * transmitted pages mapped instead of copied pays off only above some
 * packet size, and only this measurement says which).
 *
 * One domain shares --pages pages (gntalloc on Xen) with the measuring
 * one, which then times, for batches of 1 to 64 pages, round after round:
 *
 *   map     one xa_gnt_map() of the batch (gntdev: one ioctl, one mmap,
 *           the hypercall batched underneath), a read of every page, and
 *           one xa_gnt_unmap() (munmap: the unmap hypercall and a TLB
 *           flush), as a mapped receive path does for a burst;
 *   copy    one xa_gnt_copy() of the batch, each page whole into local
 *           memory, as the copying path does;
 *   header  one xa_gnt_copy() of the batch, 128 bytes of each page: what
 *           the mapped path copies besides (the headers it trusts);
 *   let_go  one xa_gnt_map(), a read of every page, one xa_gnt_detach()
 *           (the pages copied in place, the grants unmapped) and one
 *           munmap(): what a packet the application holds past the
 *           netback's tx_map_hold_ms costs; checked too: a write of the
 *           sharer's after the detach does not show in the copy.
 *
 * It prints each figure in nanoseconds per page (the median over rounds,
 * with the 25th and 75th percentiles) and, from them, what a packet of
 * each size costs either way: copying its pages, or mapping them and
 * copying the header; the smallest size at which mapping costs less is the
 * crossover. On Xen the sharing domain is the measuring one itself (Dom0
 * or a driver domain granting its own pages: Xen maps them as a guest's),
 * so it runs in one domain without a guest. On the simulator domain 1
 * shares with domain 0 of a private instance, removed at exit; its
 * figures are the simulator's, not a hypervisor's.
 *
 *   xen-gnt-cost [--provider xen|sim] [--rounds N] [--pages N] [--json FILE]
 *
 * Exit status 0 when every operation succeeded.
 */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "xa.h"
#include "xsim.h"

#define BATCH_MAX 64
#define HEADER 128
#define MIN_U(a, b) ((a) < (b) ? (a) : (b))
#define ROUNDS_DEFAULT 200
#define PAGES_DEFAULT 64

static const unsigned int batches[] = { 1, 4, 16, 64 };
#define NB_BATCHES (sizeof(batches) / sizeof(batches[0]))
/* The packet sizes the estimate is printed for. */
static const unsigned int sizes[] = { 64, 512, 1518, 4096, 9000, 16384, 65536 };
#define NB_SIZES (sizeof(sizes) / sizeof(sizes[0]))

enum op {
	OP_MAP,
	OP_COPY,
	OP_HEADER,
	OP_LET_GO,
	OPS
};
static const char *const op_names[OPS] = { "map", "copy", "header", "let_go" };

struct setup {
	struct xa_handle *sharer, *mapper;
	domid_t sharer_id; /* whose grants the mapper maps */
	grant_ref_t refs[BATCH_MAX];
	void *shared;	       /* the sharer's view of its pages */
	uint8_t *local;	       /* the copies' destination */
	char sim_instance[64]; /* "": on Xen */
};

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The end of a timed run: @rc, and the time since @t0 into *@ns. */
static int
finish(int rc, uint64_t t0, uint64_t *ns)
{
	*ns = now_ns() - t0;
	return rc;
}

/* One timed run of @op on the first @n shared pages; 0 or -1. */
static int
run_once(struct setup *s, enum op op, unsigned int n, uint64_t *ns)
{
	xengnttab_grant_copy_segment_t segs[BATCH_MAX];
	volatile uint8_t sink = 0;
	uint64_t t0 = now_ns();
	unsigned int i;
	uint8_t *map;

	if (op == OP_MAP || op == OP_LET_GO) {
		map = xa_gnt_map(s->mapper, s->sharer_id, n, s->refs, false);
		if (map == NULL)
			return -1;
		for (i = 0; i < n; i++)
			sink += map[i * XA_PAGE_SIZE];
		if (op == OP_MAP)
			return finish(xa_gnt_unmap(s->mapper, map, n), t0, ns);
		if (xa_gnt_detach(s->mapper, map, n) != 0)
			return -1;
		/* The copy is ours: the sharer's page changing shows not. */
		((uint8_t *)s->shared)[(n - 1) * XA_PAGE_SIZE] = 0xa5;
		i = map[(n - 1) * XA_PAGE_SIZE];
		((uint8_t *)s->shared)[(n - 1) * XA_PAGE_SIZE] = 0x5a;
		if (munmap(map, (size_t)n * XA_PAGE_SIZE) != 0)
			return -1;
		if (i != 0x5a) {
			fprintf(stderr,
				"xen-gnt-cost: a detached page still shows the sharer's writes\n");
			errno = EIO;
			return -1;
		}
	} else {
		for (i = 0; i < n; i++) {
			segs[i] = (xengnttab_grant_copy_segment_t){
				.source.foreign = { .ref = s->refs[i],
						    .domid = s->sharer_id },
				.dest.virt = s->local + i * XA_PAGE_SIZE,
				.len = op == OP_COPY ? XA_PAGE_SIZE : HEADER,
				.flags = GNTCOPY_source_gref,
			};
		}
		if (xa_gnt_copy(s->mapper, n, segs) != 0)
			return -1;
		for (i = 0; i < n; i++)
			if (segs[i].status != GNTST_okay)
				return -1;
	}
	*ns = now_ns() - t0;
	(void)sink;
	return 0;
}

static int
open_xen(struct setup *s)
{
	struct xa_open_args args = { .provider = XA_PROVIDER_XEN };

	s->mapper = s->sharer = xa_open(&args);
	if (s->mapper == NULL)
		return -1;
	s->sharer_id = xa_domid(s->mapper);
	return 0;
}

static int
open_sim(struct setup *s)
{
	struct xa_open_args args = {
		.provider = XA_PROVIDER_SIM,
		.sim_instance = s->sim_instance,
	};

	if (xsim_instance_name_private(s->sim_instance, sizeof(s->sim_instance),
				       "gnt-cost") != 0)
		return -1;
	s->mapper = xa_open(&args);
	args.sim_domid = 1;
	s->sharer = s->mapper != NULL ? xa_open(&args) : NULL;
	s->sharer_id = 1;
	return s->sharer != NULL ? 0 : -1;
}

static void
close_all(struct setup *s, unsigned int pages)
{
	if (s->shared != NULL)
		xa_gnt_unshare(s->sharer, s->shared, pages);
	if (s->sharer != NULL && s->sharer != s->mapper)
		xa_close(s->sharer);
	if (s->mapper != NULL)
		xa_close(s->mapper);
	if (s->sim_instance[0] != '\0')
		xsim_instance_destroy(s->sim_instance);
	free(s->local);
}

/*
 * What one packet of @len bytes costs, in ns, from the figures of the
 * batch @b (a burst's worth of pages at once): copied, each page's part as
 * one copy segment (between the header and the whole-page figure, in
 * proportion to its length); mapped, every page it spans mapped and its
 * first HEADER bytes copied.
 */
static void
estimate(double q[OPS][NB_BATCHES][3], unsigned int b, unsigned int len,
	 double *copy, double *map)
{
	double h = q[OP_HEADER][b][1], c = q[OP_COPY][b][1];
	unsigned int pages = (len + XA_PAGE_SIZE - 1) / XA_PAGE_SIZE, i;

	*copy = 0;
	for (i = 0; i < pages; i++) {
		unsigned int part = MIN_U(len - i * XA_PAGE_SIZE, XA_PAGE_SIZE);

		*copy += part <= HEADER ?
				 h :
				 h + (c - h) * (part - HEADER) /
						 (XA_PAGE_SIZE - HEADER);
	}
	*map = len <= HEADER ? *copy : h + q[OP_MAP][b][1] * pages;
}

/* The smallest packet, in steps of 64 bytes, that costs less mapped. */
static unsigned int
crossover(double q[OPS][NB_BATCHES][3], unsigned int b)
{
	unsigned int len;
	double copy, map;

	for (len = 64; len <= 65536; len += 64) {
		estimate(q, b, len, &copy, &map);
		if (map < copy)
			return len;
	}
	return 0;
}

static void
report(FILE *f, const char *provider, unsigned int rounds,
       double q[OPS][NB_BATCHES][3], unsigned int nb, const char *json)
{
	unsigned int b, op, i, big = nb - 1, x = crossover(q, big);
	double copy, map;
	FILE *j = NULL;

	fprintf(f,
		"xen-gnt-cost: provider %s, %u rounds; ns a page, median (25th-75th percentile)\n",
		provider, rounds);
	fprintf(f,
		"| pages a batch | map + read + unmap | copy 4096 B | copy %u B | map + read + let go |\n|---|---|---|---|---|\n",
		HEADER);
	for (b = 0; b < nb; b++) {
		fprintf(f, "| %u |", batches[b]);
		for (op = 0; op < OPS; op++)
			fprintf(f, " %.0f (%.0f-%.0f) |", q[op][b][1],
				q[op][b][0], q[op][b][2]);
		fprintf(f, "\n");
	}
	fprintf(f,
		"\nA packet, estimated from the batches of %u pages: ns copied, ns mapped (%u B copied)\n",
		batches[big], HEADER);
	fprintf(f,
		"| bytes | copied | mapped | mapped/copied |\n|---|---|---|---|\n");
	for (i = 0; i < NB_SIZES; i++) {
		estimate(q, big, sizes[i], &copy, &map);
		fprintf(f, "| %u | %.0f | %.0f | %.2f |\n", sizes[i], copy, map,
			map / copy);
	}
	if (x != 0)
		fprintf(f, "crossover: mapping costs less from %u bytes\n", x);
	else
		fprintf(f,
			"crossover: none up to 65536 bytes, copying costs less at every size\n");
	if (json == NULL)
		return;
	j = fopen(json, "w");
	if (j == NULL) {
		fprintf(stderr, "xen-gnt-cost: %s: %s\n", json,
			strerror(errno));
		return;
	}
	fprintf(j, "{\"provider\": \"%s\", \"rounds\": %u, \"ns_per_page\": {",
		provider, rounds);
	for (op = 0; op < OPS; op++) {
		fprintf(j, "%s\"%s\": {", op == 0 ? "" : ", ", op_names[op]);
		for (b = 0; b < nb; b++)
			fprintf(j,
				"%s\"%u\": {\"p25\": %.1f, \"median\": %.1f, \"p75\": %.1f}",
				b == 0 ? "" : ", ", batches[b], q[op][b][0],
				q[op][b][1], q[op][b][2]);
		fprintf(j, "}");
	}
	fprintf(j, "}, \"packet_ns\": [");
	for (i = 0; i < NB_SIZES; i++) {
		estimate(q, big, sizes[i], &copy, &map);
		fprintf(j,
			"%s{\"bytes\": %u, \"copied\": %.1f, \"mapped\": %.1f}",
			i == 0 ? "" : ", ", sizes[i], copy, map);
	}
	fprintf(j, "], \"crossover_bytes\": ");
	if (x != 0)
		fprintf(j, "%u}\n", x);
	else
		fprintf(j, "null}\n");
	fclose(j);
}

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: xen-gnt-cost [--provider xen|sim] [--rounds N] [--pages N] [--json FILE]\n");
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "provider", required_argument, NULL, 'p' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "pages", required_argument, NULL, 'n' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum xa_provider provider = xa_provider_default();
	unsigned int rounds = ROUNDS_DEFAULT, pages = PAGES_DEFAULT;
	double q[OPS][NB_BATCHES][3]; /* ns a page: p25, median, p75 */
	struct setup s = { 0 };
	const char *json = NULL;
	uint64_t *times[OPS];
	unsigned int b, r, op, nb;
	int status = 0;
	bool ok;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (xa_provider_parse(optarg, &provider) != 0) {
				fprintf(stderr,
					"xen-gnt-cost: --provider %s: expected xen or sim\n",
					optarg);
				return 2;
			}
			break;
		case 'r':
		case 'n':
			errno = 0;
			r = strtoul(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || r == 0 ||
			    (c == 'n' && r > BATCH_MAX) || r > 100000) {
				fprintf(stderr,
					"xen-gnt-cost: --%s %s: expected 1-%u\n",
					c == 'r' ? "rounds" : "pages", optarg,
					c == 'r' ? 100000 : BATCH_MAX);
				return 2;
			}
			*(c == 'r' ? &rounds : &pages) = r;
			break;
		case 'j':
			json = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if ((provider == XA_PROVIDER_XEN ? open_xen(&s) : open_sim(&s)) != 0) {
		fprintf(stderr,
			"xen-gnt-cost: cannot open the %s provider: %s\n",
			xa_provider_name(provider), strerror(errno));
		close_all(&s, pages);
		return 1;
	}
	s.shared = xa_gnt_share(s.sharer, xa_domid(s.mapper), pages, s.refs,
				false);
	s.local = aligned_alloc(XA_PAGE_SIZE, BATCH_MAX * XA_PAGE_SIZE);
	ok = s.shared != NULL && s.local != NULL;
	for (op = 0; op < OPS; op++) {
		times[op] = calloc(rounds, sizeof(uint64_t));
		ok = ok && times[op] != NULL;
	}
	if (!ok) {
		fprintf(stderr,
			"xen-gnt-cost: cannot share %u pages with domain %u: %s\n",
			pages, xa_domid(s.mapper), strerror(errno));
		status = 1;
		goto out;
	}
	memset(s.shared, 0x5a, (size_t)pages * XA_PAGE_SIZE);
	for (nb = 0; nb < NB_BATCHES && batches[nb] <= pages; nb++) {
		for (r = 0; r < rounds; r++) {
			/* The order turns each round: a host that changes
			 * speed meets every operation alike. */
			for (op = 0; op < OPS; op++) {
				enum op o = (op + r) % OPS;

				if (run_once(&s, o, batches[nb],
					     &times[o][r]) != 0) {
					fprintf(stderr,
						"xen-gnt-cost: %s of %u pages of domain %u failed: %s\n",
						op_names[o], batches[nb],
						s.sharer_id, strerror(errno));
					status = 1;
					goto out;
				}
			}
		}
		for (op = 0; op < OPS; op++) {
			qsort(times[op], rounds, sizeof(uint64_t), cmp_u64);
			for (b = 0; b < 3; b++)
				q[op][nb][b] = (double)times[op][(rounds - 1) *
								 (b + 1) / 4] /
					       batches[nb];
		}
	}
	report(stdout, xa_provider_name(provider), rounds, q, nb, json);
out:
	for (op = 0; op < OPS; op++)
		free(times[op]);
	close_all(&s, pages);
	return status;
}
