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
 * never give an mbuf twice, lose none, and free the pool once. An lcore's
 * puts stay in its stash until it is full, and its takes take them back
 * first; the close empties every stash, also while the lcores' puts run.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_cycles.h>
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
static void *
written_after_free(void *arg)
{
	struct netif_front_pool *p = arg;
	struct rte_mbuf *m[2];

	if (rte_mempool_get_bulk(p->mp, (void **)m, 2) != 0) {
		TEST_FAIL_("no mbuf to start with");
		return NULL;
	}
	rte_mempool_put_bulk(p->mp, (void **)m, 2);
	m[0]->next = NULL; /* the top: the stack now ends after it */
	CHECK(rte_mempool_get_bulk(p->mp, (void **)m, 2) < 0);
	CHECK(rte_mempool_get_bulk(p->mp, (void **)m, 1) == 0);
	rte_mempool_put(p->mp, m[0]);
	return NULL;
}

/* On a thread with no lcore id, whose puts and takes use the stack. */
static void
test_an_mbuf_written_after_its_free_stops_no_take(void)
{
	struct netif_front_pool *p = pool_new(PAGES);
	pthread_t t;

	REQUIRE(p != NULL);
	REQUIRE(pthread_create(&t, NULL, written_after_free, p) == 0);
	pthread_join(t, NULL);
	/* Its count is right: the close waits for none. */
	nb_freed = 0;
	CHECK(netif_front_pool_free(p) == 0);
	CHECK(nb_freed == 1);
}

/* Mbufs in @p's stack, not in a stash. */
static uint32_t
in_stack(const struct netif_front_pool *p)
{
	return __atomic_load_n(&p->stack.count, __ATOMIC_RELAXED);
}

static void
test_an_lcores_puts_stay_in_its_stash(void)
{
	struct netif_front_pool *p = pool_new(PAGES);
	struct rte_mbuf *m[PAGES], *again[5], *more[10];
	const struct netif_front_pool_stash *st;
	unsigned int i, same = 0;

	REQUIRE(p != NULL && p->stashes);
	REQUIRE(rte_lcore_id() < RTE_MAX_LCORE);
	st = &p->stash[rte_lcore_id()];
	REQUIRE(rte_mempool_get_bulk(p->mp, (void **)m, 40) == 0);
	CHECK(in_stack(p) == PAGES - 40 && st->len == 0);
	rte_mempool_put_bulk(p->mp, (void **)m, 5);
	CHECK(in_stack(p) == PAGES - 40 && st->len == 5);
	CHECK(rte_mempool_avail_count(p->mp) == PAGES - 35);
	CHECK(netif_front_pool_out(p) == 35);
	/* Taken back first, the last put first, unlinked as any given. */
	REQUIRE(rte_mempool_get_bulk(p->mp, (void **)again, 5) == 0);
	for (i = 0; i < 5; i++)
		same += again[i] == m[4 - i] && again[i]->next == NULL;
	CHECK(same == 5 && st->len == 0 && in_stack(p) == PAGES - 40);
	/* A take larger than the stash: the stack gives the rest. */
	rte_mempool_put_bulk(p->mp, (void **)again, 3);
	REQUIRE(rte_mempool_get_bulk(p->mp, (void **)more, 10) == 0);
	CHECK(st->len == 0 && in_stack(p) == PAGES - 47);
	rte_mempool_put_bulk(p->mp, (void **)more, 10);
	/* One by one: the stash fills, then goes to the stack whole. */
	for (i = 5; i < 5 + NETIF_FRONT_POOL_STASH - 10; i++)
		rte_mempool_put(p->mp, m[i]);
	CHECK(st->len == NETIF_FRONT_POOL_STASH && in_stack(p) == PAGES - 47);
	rte_mempool_put(p->mp, m[i++]);
	CHECK(st->len == 1 &&
	      in_stack(p) == PAGES - 47 + NETIF_FRONT_POOL_STASH);
	rte_mempool_put_bulk(p->mp, (void **)&again[3], 2);
	rte_mempool_put_bulk(p->mp, (void **)&m[i], 40 - i);
	CHECK(rte_mempool_avail_count(p->mp) == PAGES);
	/* More than a stash at once: to the stack, the stash's before. */
	REQUIRE(rte_mempool_get_bulk(p->mp, (void **)m, 40) == 0);
	CHECK(st->len == 0);
	rte_mempool_put(p->mp, m[0]);
	rte_mempool_put_bulk(p->mp, (void **)&m[1], 39);
	CHECK(st->len == 0 && in_stack(p) == PAGES);
	/* What the close finds in a stash goes back: freed at once. */
	REQUIRE(rte_mempool_get_bulk(p->mp, (void **)m, 2) == 0);
	rte_mempool_put_bulk(p->mp, (void **)m, 2);
	CHECK(st->len == 2);
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
	bool lcores;	 /* the threads take lcore ids: they stash */
	unsigned int no_lcore; /* threads that got none */
};

/* Give the calling thread an lcore id, if @r wants it. */
static void
race_enter(struct race *r)
{
	if (r->lcores &&
	    (rte_thread_register() != 0 || rte_lcore_id() >= RTE_MAX_LCORE))
		__atomic_add_fetch(&r->no_lcore, 1, __ATOMIC_RELAXED);
}

static void
race_leave(struct race *r)
{
	if (r->lcores)
		rte_thread_unregister();
}

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

	race_enter(r);
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
	race_leave(r);
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
 * preempted within a take; on the stack alone (no lcore id) never
 * short: 4 * HOLD_MAX < RACE_PAGES. With lcore ids, the others' stashes
 * may hold what a take wants.
 */
static void
threads_race(bool lcores, unsigned int rounds)
{
	static struct race r;
	pthread_t t[4];
	unsigned int i;

	memset(&r, 0, sizeof(r));
	r.rounds = rounds;
	r.lcores = lcores;
	r.p = pool_new(RACE_PAGES);
	REQUIRE(r.p != NULL);
	for (i = 0; i < RTE_DIM(t); i++)
		REQUIRE(start_anywhere(&t[i], take_and_put, &r) == 0);
	for (i = 0; i < RTE_DIM(t); i++)
		pthread_join(t[i], NULL);
	CHECK(r.no_lcore == 0);
	CHECK(r.given_twice == 0 && (lcores || r.not_given == 0));
	CHECK(rte_mempool_avail_count(r.p->mp) == RACE_PAGES);
	nb_freed = 0;
	CHECK(netif_front_pool_free(r.p) == 0);
	CHECK(nb_freed == 1);
}

static void
test_threads_never_get_the_same_mbuf(void)
{
	threads_race(false, 2000000);
}

static void
test_lcores_never_get_the_same_mbuf(void)
{
	threads_race(true, 1000000);
}

/* Put @r->to_put back one by one. */
static void *
put_one_by_one(void *arg)
{
	struct race *r = arg;
	unsigned int i;

	race_enter(r);
	while (!__atomic_load_n(&r->go, __ATOMIC_ACQUIRE))
		rte_pause();
	for (i = 0; i < RTE_DIM(r->to_put); i++)
		rte_mempool_put(r->p->mp, r->to_put[i]);
	race_leave(r);
	return NULL;
}

/*
 * The close while another thread puts the last mbufs: one free. With an
 * lcore id, the thread's puts go to its stash until the close begins,
 * and the close must wait for the one under way, then find them there.
 */
static void
close_race(bool lcores)
{
	static struct race r;
	uint32_t before = grants();
	unsigned int round, twice = 0, never = 0;
	struct rte_mbuf *m[PAGES / 2];
	pthread_t t;

	memset(&r, 0, sizeof(r));
	r.lcores = lcores;
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
	CHECK(r.no_lcore == 0);
	CHECK(twice == 0 && never == 0);
	CHECK(grants() == before);
}

static void
test_a_close_racing_the_last_puts_frees_once(void)
{
	close_race(false);
}

static void
test_a_close_racing_an_lcores_last_puts_frees_once(void)
{
	close_race(true);
}

/* Mbufs the thread below holds: never all, so its puts free nothing. */
#define CHURN_HELD 8

/*
 * Put an mbuf back and take one, over and over, until the pool closes
 * (the take fails), then put back those held: with an lcore id, the
 * thread is inside its stash most of the time.
 */
static void *
churn(void *arg)
{
	struct race *r = arg;
	struct rte_mbuf *m[CHURN_HELD];
	unsigned int n;

	race_enter(r);
	for (n = 0; n < CHURN_HELD; n++)
		if (rte_mempool_get(r->p->mp, (void **)&m[n]) != 0)
			break;
	__atomic_store_n(&r->go, 1, __ATOMIC_RELEASE);
	while (n == CHURN_HELD) {
		rte_mempool_put(r->p->mp, m[n - 1]);
		if (rte_mempool_get(r->p->mp, (void **)&m[n - 1]) != 0)
			n--;
	}
	rte_mempool_put_bulk(r->p->mp, (void **)m, n);
	race_leave(r);
	return NULL;
}

/*
 * The close while an lcore puts and takes in its stash all the time: the
 * close waits for the put or take under way, empties the stash, and the
 * last put back frees the pool, once.
 */
static void
test_a_close_while_an_lcore_churns_frees_once(void)
{
	static struct race r;
	uint32_t before = grants();
	unsigned int round, twice = 0, never = 0;
	pthread_t t;

	memset(&r, 0, sizeof(r));
	r.lcores = true;
	for (round = 0; round < 400; round++) {
		r.p = pool_new(PAGES);
		REQUIRE(r.p != NULL);
		nb_freed = 0;
		r.go = 0;
		REQUIRE(start_anywhere(&t, churn, &r) == 0);
		while (!__atomic_load_n(&r.go, __ATOMIC_ACQUIRE))
			rte_pause();
		rte_delay_us_block(round % 50);
		netif_front_pool_free(r.p);
		pthread_join(t, NULL);
		twice += nb_freed > 1;
		never += nb_freed == 0;
	}
	CHECK(r.no_lcore == 0);
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
	RUN(test_an_lcores_puts_stay_in_its_stash);
	RUN(test_threads_never_get_the_same_mbuf);
	RUN(test_lcores_never_get_the_same_mbuf);
	RUN(test_a_close_racing_the_last_puts_frees_once);
	RUN(test_a_close_racing_an_lcores_last_puts_frees_once);
	RUN(test_a_close_while_an_lcore_churns_frees_once);
}
