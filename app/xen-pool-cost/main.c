/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * xen-pool-cost: what returning an mbuf to the netfront's pool of granted
 * pages (netif_front_pool.h) costs, against a DPDK mempool with a cache,
 * the pool memif's and vhost-user's receivers allocate from (issue 32:
 * at 64 B the cost of each packet decides the rate). A netfront receiving
 * without a copy hands the application mbufs of that pool; the
 * application frees them, one by one in testpmd, and the next refill of
 * the RX ring takes them back a burst at a time.
 *
 * Each round times, in an order turned from round to round, --mbufs
 * mbufs freed one by one (rte_mempool_put()) and taken back 32 at a time
 * (rte_mempool_get_bulk()):
 *
 *   stash   the netfront's pool on an lcore: the puts and takes of the
 *           lcore's own stash;
 *   stack   the netfront's pool on a thread with no lcore id: the pool's
 *           shared stack, one compare-and-swap a put;
 *   dpdk    rte_pktmbuf_pool_create()'s mempool, with a cache of 256.
 *
 * It prints ns an mbuf (median over the rounds, with the 25th and 75th
 * percentiles) and each of ours over dpdk's within the round. The pages
 * are a guest's shared with domain 0: on the simulator domain 1 of a
 * private instance, removed at exit; on Xen the domain it runs in, which
 * shares with itself. Neither kind of put or take calls Xen.
 *
 *   xen-pool-cost [EAL options --] [--provider xen|sim] [--rounds N]
 *                 [--mbufs N] [--json FILE]
 *
 * Exit status 0 when every operation succeeded.
 */

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "netif_front_pool.h"
#include "xa.h"
#include "xsim.h"

#define BURST 32
#define POOL_PAGES 256
#define ROUNDS_DEFAULT 20
#define MBUFS_DEFAULT (1u << 20)
#define DPDK_CACHE 256

enum way {
	WAY_STASH,
	WAY_STACK,
	WAY_DPDK,
	WAYS
};
static const char *const way_names[WAYS] = { "stash", "stack", "dpdk" };
static const char *const way_labels[WAYS] = {
	"netfront pool, on an lcore (its stash)",
	"netfront pool, no lcore id (its stack)",
	"DPDK mempool, cache 256 (memif's, vhost-user's)",
};

/* One timed run: its mempool, how many mbufs, and what it took. */
struct run {
	struct rte_mempool *mp;
	unsigned int mbufs;
	uint64_t ns;
	int rc;
};

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The 25th percentile, median and 75th of @n values, sorted in place. */
static void
quartiles(double *v, unsigned int n, double q[3])
{
	unsigned int i;

	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 0; i < 3; i++)
		q[i] = v[(n - 1) * (i + 1) / 4];
}

/* @r->mbufs freed one by one and taken back a burst at a time. */
static void *
churn(void *arg)
{
	struct run *r = arg;
	struct rte_mbuf *m[BURST];
	unsigned int i, k;
	uint64_t t0;

	r->rc = rte_mempool_get_bulk(r->mp, (void **)m, BURST);
	if (r->rc != 0)
		return NULL;
	t0 = now_ns();
	for (i = 0; i < r->mbufs / BURST && r->rc == 0; i++) {
		for (k = 0; k < BURST; k++)
			rte_mempool_put(r->mp, m[k]);
		r->rc = rte_mempool_get_bulk(r->mp, (void **)m, BURST);
	}
	r->ns = now_ns() - t0;
	if (r->rc == 0)
		rte_mempool_put_bulk(r->mp, (void **)m, BURST);
	return NULL;
}

/* One run of @way; ns an mbuf, or a negative value if it failed. */
static double
run_way(enum way way, struct netif_front_pool *p, struct rte_mempool *dpdk,
	unsigned int mbufs)
{
	struct run r = {
		.mp = way == WAY_DPDK ? dpdk : p->mp,
		.mbufs = mbufs,
	};
	pthread_t t;

	if (way == WAY_STACK) {
		/* A thread of its own: no lcore id. */
		if (pthread_create(&t, NULL, churn, &r) != 0)
			return -1;
		pthread_join(t, NULL);
	} else {
		churn(&r);
	}
	return r.rc == 0 ? (double)r.ns / (mbufs / BURST * BURST) : -1;
}

static void
report(const char *provider, unsigned int rounds, unsigned int mbufs,
       double q[WAYS][3], double ratio[WAYS][3], const char *json)
{
	unsigned int w;
	FILE *j;

	printf("xen-pool-cost: provider %s, %u rounds of %u mbufs freed one by one and taken back %u at a time\n",
	       provider, rounds, mbufs, BURST);
	printf("ns an mbuf, median (25th-75th percentile); over dpdk's within each round\n");
	printf("| pool | ns | over dpdk's |\n|---|---|---|\n");
	for (w = 0; w < WAYS; w++)
		printf("| %s: %s | %.2f (%.2f-%.2f) | %.2fx (%.2f-%.2f) |\n",
		       way_names[w], way_labels[w], q[w][1], q[w][0], q[w][2],
		       ratio[w][1], ratio[w][0], ratio[w][2]);
	if (json == NULL)
		return;
	j = fopen(json, "w");
	if (j == NULL) {
		fprintf(stderr, "xen-pool-cost: %s: %s\n", json,
			strerror(errno));
		return;
	}
	fprintf(j,
		"{\"provider\": \"%s\", \"rounds\": %u, \"mbufs\": %u, \"burst\": %u, \"ways\": {",
		provider, rounds, mbufs, BURST);
	for (w = 0; w < WAYS; w++)
		fprintf(j,
			"%s\"%s\": {\"ns_per_mbuf\": {\"p25\": %.3f, \"median\": %.3f, \"p75\": %.3f}, \"over_dpdk\": {\"p25\": %.3f, \"median\": %.3f, \"p75\": %.3f}}",
			w == 0 ? "" : ", ", way_names[w], q[w][0], q[w][1],
			q[w][2], ratio[w][0], ratio[w][1], ratio[w][2]);
	fprintf(j, "}}\n");
	fclose(j);
}

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: xen-pool-cost [EAL options --] [--provider xen|sim] [--rounds N] [--mbufs N] [--json FILE]\n");
}

/* The guest's handle, on @provider; NULL with errno set. */
static struct xa_handle *
open_guest(enum xa_provider provider, char *instance, size_t size)
{
	struct xa_open_args args = { .provider = provider };

	if (provider == XA_PROVIDER_SIM) {
		if (xsim_instance_name_private(instance, size, "pool-cost") !=
		    0)
			return NULL;
		args.sim_instance = instance;
		args.sim_domid = 1;
	}
	return xa_open(&args);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "provider", required_argument, NULL, 'p' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "mbufs", required_argument, NULL, 'm' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum xa_provider provider = xa_provider_default();
	unsigned int rounds = ROUNDS_DEFAULT, mbufs = MBUFS_DEFAULT, r, w;
	double *ns[WAYS], *over[WAYS];
	double q[WAYS][3], ratio[WAYS][3];
	struct netif_front_pool *p = NULL;
	struct rte_mempool *dpdk = NULL;
	struct xa_handle *guest = NULL;
	char instance[64] = "";
	double *figures = NULL;
	const char *json = NULL;
	unsigned long v;
	int status = 1;
	char *end;
	int c;

	c = rte_eal_init(argc, argv);
	if (c < 0) {
		fprintf(stderr, "xen-pool-cost: EAL: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	argc -= c;
	argv += c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (xa_provider_parse(optarg, &provider) != 0) {
				fprintf(stderr,
					"xen-pool-cost: --provider %s: expected xen or sim\n",
					optarg);
				return 2;
			}
			break;
		case 'r':
		case 'm':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || v == 0 ||
			    v > (c == 'r' ? 100000ul : 1ul << 30) ||
			    (c == 'm' && v < BURST)) {
				fprintf(stderr,
					"xen-pool-cost: --%s %s: expected %u-%lu\n",
					c == 'r' ? "rounds" : "mbufs", optarg,
					c == 'r' ? 1 : BURST,
					c == 'r' ? 100000ul : 1ul << 30);
				return 2;
			}
			*(c == 'r' ? &rounds : &mbufs) = v;
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
	if (rte_lcore_id() >= RTE_MAX_LCORE) {
		fprintf(stderr,
			"xen-pool-cost: the main thread has no lcore id\n");
		goto out;
	}
	guest = open_guest(provider, instance, sizeof(instance));
	if (guest == NULL) {
		fprintf(stderr,
			"xen-pool-cost: cannot open the %s provider: %s\n",
			xa_provider_name(provider), strerror(errno));
		goto out;
	}
	/* On Xen the domain shares with itself; on the simulator with 0. */
	p = netif_front_pool_create(
		"pool_cost", guest,
		provider == XA_PROVIDER_XEN ? xa_domid(guest) : 0, POOL_PAGES,
		SOCKET_ID_ANY);
	dpdk = rte_pktmbuf_pool_create("pool_cost_dpdk", POOL_PAGES * 4 - 1,
				       DPDK_CACHE, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	/* Each way's ns, then each way's ratio, round by round. */
	figures = calloc((size_t)rounds * WAYS * 2, sizeof(double));
	for (w = 0; figures != NULL && w < WAYS; w++) {
		ns[w] = figures + (size_t)w * rounds;
		over[w] = figures + (size_t)(WAYS + w) * rounds;
	}
	if (p == NULL || dpdk == NULL || figures == NULL) {
		fprintf(stderr, "xen-pool-cost: cannot create the pools: %s\n",
			strerror(errno));
		goto out;
	}
	if (!p->stashes)
		fprintf(stderr,
			"xen-pool-cost: no membarrier(2): the netfront's lcores do not stash here\n");
	for (r = 0; r < rounds; r++) {
		/* The order turns each round: a host that changes speed
		 * meets every way alike. */
		for (w = 0; w < WAYS; w++) {
			enum way way = (w + r) % WAYS;

			ns[way][r] = run_way(way, p, dpdk, mbufs);
			if (ns[way][r] < 0) {
				fprintf(stderr,
					"xen-pool-cost: %s: a take of %u mbufs failed\n",
					way_names[way], BURST);
				goto out;
			}
		}
		for (w = 0; w < WAYS; w++)
			over[w][r] = ns[w][r] / ns[WAY_DPDK][r];
	}
	for (w = 0; w < WAYS; w++) {
		quartiles(ns[w], rounds, q[w]);
		quartiles(over[w], rounds, ratio[w]);
	}
	report(xa_provider_name(provider), rounds, mbufs, q, ratio, json);
	status = 0;
out:
	free(figures);
	rte_mempool_free(dpdk);
	netif_front_pool_free(p);
	if (guest != NULL)
		xa_close(guest);
	if (instance[0] != '\0')
		xsim_instance_destroy(instance);
	rte_eal_cleanup();
	return status;
}
