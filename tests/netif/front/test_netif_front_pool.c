/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The netfront's pool of granted mbufs (netif_front_pool.h) as a mempool,
 * on pages a guest domain really grants through the simulated hypervisor:
 * every mbuf given is a distinct one of its pages, unlinked, and no more
 * than it holds; what is put back is given again; the owner's close frees
 * the pool at once when every mbuf is in, or with the put of the last one
 * out, once, its grants ended; a closed pool gives no mbuf; an mbuf whose
 * link is cut after its free makes takes fail, not spin; and threads taking
 * and putting at once, or putting the last mbufs while the close runs,
 * never give an mbuf twice, lose none, and free the pool once.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_mempool.h>
#include <rte_pause.h>
#include <rte_random.h>

#include "netif_front_pool.h"
#include "test.h"
#include "test_eal.h"
#include "xsim/xsim_test.h"

#define GUEST XSIM_FE
#define PAGES 64

static struct xa_handle *guest;
static unsigned int nb_freed;

static void
count_freed(void *arg __rte_unused)
{
	__atomic_add_fetch(&nb_freed, 1, __ATOMIC_RELAXED);
}

static struct netif_front_pool *
pool_new(uint32_t pages)
{
	static unsigned int seq;
	struct netif_front_pool *p;
	char name[RTE_MEMPOOL_NAMESIZE];

	snprintf(name, sizeof(name), "test_pool%u", seq++);
	p = netif_front_pool_create(name, guest, 0, pages, SOCKET_ID_ANY);
	if (p != NULL)
		netif_front_pool_on_last(p, count_freed, NULL);
	return p;
}

static uint32_t
grants(void)
{
	struct xsim_usage u;

	return usage_of(GUEST, &u) == 0 ? u.grants : UINT32_MAX;
}

/* Mbuf @m's page in @p. */
static unsigned int
page_of(const struct netif_front_pool *p, const struct rte_mbuf *m)
{
	return ((uintptr_t)m->buf_addr - (uintptr_t)p->base) / NETIF_PAGE_SIZE;
}

static void
test_every_mbuf_is_given_once(void)
{
	struct netif_front_pool *p = pool_new(PAGES);
	struct rte_mbuf *m[PAGES], *extra;
	bool seen[PAGES] = { false };
	unsigned int i, n, dup = 0, bad = 0;

	REQUIRE(p != NULL);
	CHECK(rte_mempool_avail_count(p->mp) == PAGES);
	/* In bulks of 1, 2, 3...: 1 + ... + 10 = 55, then the 9 left. */
	for (i = 0, n = 1; i < PAGES; i += n, n++) {
		n = RTE_MIN(n, PAGES - i);
		REQUIRE(rte_mempool_get_bulk(p->mp, (void **)&m[i], n) == 0);
	}
	for (i = 0; i < PAGES; i++) {
		bad += !netif_front_pool_owns(p, m[i]) || m[i]->next != NULL;
		dup += seen[page_of(p, m[i])];
		seen[page_of(p, m[i])] = true;
	}
	CHECK(bad == 0 && dup == 0);
	CHECK(netif_front_pool_out(p) == PAGES);
	/* Empty: nothing given, nothing changed. */
	CHECK(rte_mempool_get(p->mp, (void **)&extra) < 0);
	CHECK(rte_mempool_avail_count(p->mp) == 0);
	/* Back in bulks of 7, and given again, all of them. */
	for (i = 0; i < PAGES; i += 7)
		rte_mempool_put_bulk(p->mp, (void **)&m[i],
				     RTE_MIN(7u, PAGES - i));
	CHECK(netif_front_pool_out(p) == 0);
	CHECK(rte_mempool_get_bulk(p->mp, (void **)m, PAGES) == 0);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < PAGES; i++) {
		dup += seen[page_of(p, m[i])];
		seen[page_of(p, m[i])] = true;
	}
	CHECK(dup == 0);
	rte_mempool_put_bulk(p->mp, (void **)m, PAGES);
	nb_freed = 0;
	CHECK(netif_front_pool_free(p) == 0);
	CHECK(nb_freed == 1);
}

static void
test_the_last_mbuf_back_frees_a_closed_pool(void)
{
	uint32_t before = grants();
	struct netif_front_pool *p = pool_new(PAGES);
	struct rte_mbuf *m[3], *late;

	REQUIRE(p != NULL);
	CHECK(grants() == before + PAGES);
	REQUIRE(rte_mempool_get_bulk(p->mp, (void **)m, 3) == 0);
	nb_freed = 0;
	CHECK(netif_front_pool_free(p) == 3);
	CHECK(nb_freed == 0 && grants() == before + PAGES);
	/* Closed: it gives no mbuf. */
	CHECK(rte_mempool_get(p->mp, (void **)&late) < 0);
	rte_mempool_put_bulk(p->mp, (void **)m, 2);
	CHECK(nb_freed == 0);
	rte_mempool_put(p->mp, m[2]);
	CHECK(nb_freed == 1);
	CHECK(grants() == before);
}

/*
 * An application that writes an mbuf after its free (here the link the
 * pool keeps in it) gets no mbuf from the pool, rather than a spin.
 */
static void
test_an_mbuf_written_after_its_free_stops_no_take(void)
{
	struct netif_front_pool *p = pool_new(PAGES);
	struct rte_mbuf *m[PAGES];

	REQUIRE(p != NULL);
	REQUIRE(rte_mempool_get_bulk(p->mp, (void **)m, 2) == 0);
	rte_mempool_put_bulk(p->mp, (void **)m, 2);
	m[0]->next = NULL; /* the top: the stack now ends after it */
	CHECK(rte_mempool_get_bulk(p->mp, (void **)m, 2) < 0);
	CHECK(rte_mempool_get_bulk(p->mp, (void **)m, 1) == 0);
	rte_mempool_put(p->mp, m[0]);
	/* Its count is right: the close waits for none. */
	nb_freed = 0;
	CHECK(netif_front_pool_free(p) == 0);
	CHECK(nb_freed == 1);
}

/*
 * The pool the threads below share, and the most mbufs each holds: few,
 * so that the same top and count come back often.
 */
#define RACE_PAGES 16
#define HOLD_MAX 3

/* What the threads below share. */
struct race {
	struct netif_front_pool *p;
	uint8_t held[PAGES]; /* 1 while a thread holds the page's mbuf */
	unsigned int rounds;
	unsigned int given_twice;
	unsigned int not_given;
	struct rte_mbuf *to_put[PAGES / 2];
	unsigned int go; /* the threads start when it is set */
};

/* A number below @bound from @seed (Knuth's MMIX LCG). */
static inline unsigned int
next_rand(uint64_t *seed, unsigned int bound)
{
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (*seed >> 33) % bound;
}

/*
 * @r->rounds times, take a few mbufs or put back a few of those held, at
 * random: the stack's order changes all the time, so that a take that
 * read it before another's take and puts would find the same top and
 * count over other links (ABA), were its swap to check only those.
 */
static void *
take_and_put(void *arg)
{
	struct race *r = arg;
	/* Sized for the inlined put's copy, which GCC cannot bound. */
	struct rte_mbuf *held[PAGES], *m[PAGES];
	unsigned int round, i, n, nb_held = 0;
	/* Each thread its own generator: rte_rand()'s state is shared. */
	uint64_t seed = rte_rand();

	for (round = 0; round < r->rounds; round++) {
		if (nb_held == 0 ||
		    (nb_held < HOLD_MAX && next_rand(&seed, 2) == 0)) {
			n = 1 + next_rand(&seed, HOLD_MAX - nb_held);
			if (rte_mempool_get_bulk(r->p->mp, (void **)m, n)) {
				__atomic_add_fetch(&r->not_given, 1,
						   __ATOMIC_RELAXED);
				continue;
			}
			for (i = 0; i < n; i++) {
				if (__atomic_exchange_n(
					    &r->held[page_of(r->p, m[i])], 1,
					    __ATOMIC_RELAXED) != 0)
					__atomic_add_fetch(&r->given_twice, 1,
							   __ATOMIC_RELAXED);
				held[nb_held++] = m[i];
			}
			continue;
		}
		/* Some of those held, from anywhere among them. */
		n = 1 + next_rand(&seed, nb_held);
		for (i = 0; i < n; i++) {
			unsigned int k = next_rand(&seed, nb_held);

			m[i] = held[k];
			held[k] = held[--nb_held];
			__atomic_store_n(&r->held[page_of(r->p, m[i])], 0,
					 __ATOMIC_RELAXED);
		}
		rte_mempool_put_bulk(r->p->mp, (void **)m, n);
	}
	for (i = 0; i < nb_held; i++)
		__atomic_store_n(&r->held[page_of(r->p, held[i])], 0,
				 __ATOMIC_RELAXED);
	rte_mempool_put_bulk(r->p->mp, (void **)held, nb_held);
	return NULL;
}

/*
 * A thread on every CPU, not on the main lcore's alone as EAL leaves a
 * thread it creates: the threads below must run at once.
 */
static int
start_anywhere(pthread_t *t, void *(*fn)(void *), void *arg)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;
	long c;

	CPU_ZERO(&set);
	for (c = 0; c < cpus && c < CPU_SETSIZE; c++)
		CPU_SET(c, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	ret = pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return ret;
}

/*
 * More threads than the machine has CPUs, so that some are also
 * preempted within a take; never short: 4 * HOLD_MAX < RACE_PAGES.
 */
static void
test_threads_never_get_the_same_mbuf(void)
{
	static struct race r = { .rounds = 2000000 };
	pthread_t t[4];
	unsigned int i;

	r.p = pool_new(RACE_PAGES);
	REQUIRE(r.p != NULL);
	for (i = 0; i < RTE_DIM(t); i++)
		REQUIRE(start_anywhere(&t[i], take_and_put, &r) == 0);
	for (i = 0; i < RTE_DIM(t); i++)
		pthread_join(t[i], NULL);
	CHECK(r.given_twice == 0 && r.not_given == 0);
	CHECK(rte_mempool_avail_count(r.p->mp) == RACE_PAGES);
	nb_freed = 0;
	CHECK(netif_front_pool_free(r.p) == 0);
	CHECK(nb_freed == 1);
}

/* Put @r->to_put back one by one. */
static void *
put_one_by_one(void *arg)
{
	struct race *r = arg;
	unsigned int i;

	while (!__atomic_load_n(&r->go, __ATOMIC_ACQUIRE))
		rte_pause();
	for (i = 0; i < RTE_DIM(r->to_put); i++)
		rte_mempool_put(r->p->mp, r->to_put[i]);
	return NULL;
}

/* The close while another thread puts the last mbufs: one free. */
static void
test_a_close_racing_the_last_puts_frees_once(void)
{
	static struct race r;
	uint32_t before = grants();
	unsigned int round, twice = 0, never = 0;
	struct rte_mbuf *m[PAGES / 2];
	pthread_t t;

	for (round = 0; round < 200; round++) {
		r.p = pool_new(PAGES);
		REQUIRE(r.p != NULL);
		REQUIRE(rte_mempool_get_bulk(r.p->mp, (void **)r.to_put,
					     RTE_DIM(r.to_put)) == 0);
		REQUIRE(rte_mempool_get_bulk(r.p->mp, (void **)m, RTE_DIM(m)) ==
			0);
		nb_freed = 0;
		r.go = 0;
		REQUIRE(start_anywhere(&t, put_one_by_one, &r) == 0);
		__atomic_store_n(&r.go, 1, __ATOMIC_RELEASE);
		/* The owner's mbufs back, then its reference, as at close. */
		rte_mempool_put_bulk(r.p->mp, (void **)m, RTE_DIM(m));
		netif_front_pool_free(r.p);
		pthread_join(t, NULL);
		twice += nb_freed > 1;
		never += nb_freed == 0;
	}
	CHECK(twice == 0 && never == 0);
	CHECK(grants() == before);
}

static int
setup(const char *argv0)
{
	if (test_eal_setup(argv0) != 0 || xsim_test_setup(argv0) != 0)
		return -1;
	guest = open_dom(GUEST);
	return guest != NULL ? 0 : -1;
}

static void
teardown(void)
{
	xa_close(guest);
	xsim_test_teardown();
	test_eal_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_every_mbuf_is_given_once);
	RUN(test_the_last_mbuf_back_frees_a_closed_pool);
	RUN(test_an_mbuf_written_after_its_free_stops_no_take);
	RUN(test_threads_never_get_the_same_mbuf);
	RUN(test_a_close_racing_the_last_puts_frees_once);
}
