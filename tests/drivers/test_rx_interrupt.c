/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Rx interrupt mode of both PMDs, used as DPDK's l3fwd-power uses it: the
 * receiving thread registers its queue's interrupt fd
 * (rte_eth_dev_rx_intr_ctl_q_get_fd() and rte_eth_dev_rx_intr_ctl_q()),
 * and when its queue is empty enables the interrupt, sleeps in
 * rte_epoll_wait(), disables it and polls.
 *
 * Sleep and wake: a sender thread sends one packet per cycle at a random
 * moment around the receiver's decision to sleep (before its last poll,
 * between that poll and arming, while it arms, after it sleeps),
 * XEN_TEST_CYCLES cycles (10^5 by default) in each direction. Every cycle
 * must end with its packet taken by that last poll or by the first burst
 * after one wakeup: none is lost, none waits for a later wakeup. One
 * early wakeup is the protocol's own: the sender publishes a packet, then
 * notifies; when the receiver took packet i-1 before that notification
 * was sent (by its last poll, or after a wakeup by arming's final check),
 * the notification may arrive once cycle i sleeps, before packet i is
 * sent. Such a stale event, which Linux's netfront and netback take too,
 * is counted apart: allowed only while the sender had not finished
 * sending packet i-1 when the receiver went to sleep.
 * An idle queue sleeps: with nothing sent, the wait times out. Of two
 * queue pairs, a packet wakes the sleeper of its own queue only. A sleeper
 * whose peer reconnects is woken and receives from the new connection.
 * Without intr_conf.rxq the port offers no interrupt.
 */

#define _GNU_SOURCE

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>

#include "test.h"
#include "vdev_pair.h"

#define FRAME 64
#define WAKE_TIMEOUT_MS 5000

static uint64_t
cycles_wanted(void)
{
	const char *s = getenv("XEN_TEST_CYCLES");

	return s != NULL ? strtoull(s, NULL, 10) : 100000;
}

static struct rte_mbuf *
numbered_frame(uint64_t seq)
{
	uint8_t data[FRAME] = { 0x02, 0, 0, 0, 0, 1, 0x02, 0, 0, 0, 0, 2,
				PAIR_ETHERTYPE >> 8, PAIR_ETHERTYPE & 0xff };

	memcpy(data + 14, &seq, sizeof(seq));
	return pair_frame(test_pool, data, FRAME);
}

static uint64_t
seq_of(struct rte_mbuf *m)
{
	uint64_t seq;

	memcpy(&seq, rte_pktmbuf_mtod_offset(m, uint8_t *, 14), sizeof(seq));
	return seq;
}

/* Register Rx queue 0 of @port with this thread's epoll set. */
static bool
register_queue(uint16_t port)
{
	return rte_eth_dev_rx_intr_ctl_q_get_fd(port, 0) >= 0 &&
	       rte_eth_dev_rx_intr_ctl_q(port, 0, RTE_EPOLL_PER_THREAD,
					 RTE_INTR_EVENT_ADD, NULL) == 0;
}

static void
unregister_queue(uint16_t port)
{
	rte_eth_dev_rx_intr_ctl_q(port, 0, RTE_EPOLL_PER_THREAD,
				  RTE_INTR_EVENT_DEL, NULL);
}

/* Sleep on the queue as l3fwd-power does; the wakeups seen (0 or 1). */
static int
sleep_on_queue(uint16_t port, int timeout_ms)
{
	struct rte_epoll_event ev;
	int n;

	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0);
	n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, &ev, 1, timeout_ms);
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0);
	return n;
}

struct sender {
	uint16_t port;
	uint64_t cycles;
	uint64_t armed;		/* receiver: the cycle it is about to sleep in */
	uint64_t done;		/* sender: the last cycle whose burst returned */
	uint64_t refused;	/* bursts the ring did not take */
	bool failed;
};

/*
 * One packet per cycle, once the receiver is about to sleep in it, after
 * a random delay of 0 to 10 us: sometimes before its last poll, sometimes
 * between that poll and arming (only arming's final check sees it then),
 * sometimes while it arms or sleeps.
 */
static void *
send_cycles(void *arg)
{
	struct sender *s = arg;
	uint64_t i;

	for (i = 1; i <= s->cycles; i++) {
		struct rte_mbuf *m;
		uint64_t until;

		while (__atomic_load_n(&s->armed, __ATOMIC_ACQUIRE) != i) {
			if (__atomic_load_n(&s->failed, __ATOMIC_RELAXED))
				return NULL;
			rte_pause();
		}
		until = rte_get_timer_cycles() +
			(uint64_t)(rand() % 11) * rte_get_timer_hz() / 1000000;
		while (rte_get_timer_cycles() < until)
			rte_pause();
		m = numbered_frame(i);
		if (m == NULL) {
			__atomic_store_n(&s->failed, true, __ATOMIC_RELAXED);
			return NULL;
		}
		while (rte_eth_tx_burst(s->port, 0, &m, 1) == 0) {
			s->refused++;
			rte_pause();
		}
		/* Published and, if the receiver asked, notified. */
		__atomic_store_n(&s->done, i, __ATOMIC_RELEASE);
	}
	return NULL;
}

/*
 * The sender on a CPU of its own where there is one (EAL keeps this thread
 * on CPU 0), or it would run only while the receiver sleeps.
 */
static bool
start_sender(pthread_t *thread, struct sender *s)
{
	pthread_attr_t attr;
	cpu_set_t cpus;
	bool ok;

	CPU_ZERO(&cpus);
	CPU_SET(sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0, &cpus);
	ok = pthread_attr_init(&attr) == 0 &&
	     pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus) == 0 &&
	     pthread_create(thread, &attr, send_cycles, s) == 0;
	pthread_attr_destroy(&attr);
	return ok;
}

/* Cycles in which the receiver sleeps until its one packet wakes it. */
static void
cycles(uint16_t tx, uint16_t rx, const char *what)
{
	struct sender s = { .port = tx, .cycles = cycles_wanted() };
	uint64_t i, timeouts = 0, late = 0, stale = 0, lost = 0, polled = 0;
	uint64_t recv0 = pair_xstat(rx, "rx_q0_notifications_received");
	struct rte_mbuf *pkts[4];
	pthread_t thread;
	uint64_t done;
	uint16_t n;

	REQUIRE(register_queue(rx));
	REQUIRE(start_sender(&thread, &s));
	for (i = 1; i <= s.cycles &&
		    !__atomic_load_n(&s.failed, __ATOMIC_RELAXED); i++) {
		__atomic_store_n(&s.armed, i, __ATOMIC_RELEASE);
		/* The last poll before sleeping, racing with the sender. */
		n = rte_eth_rx_burst(rx, 0, pkts, RTE_DIM(pkts));
		done = __atomic_load_n(&s.done, __ATOMIC_ACQUIRE);
		if (n > 0) {
			polled++;
		} else if (sleep_on_queue(rx, WAKE_TIMEOUT_MS) != 1) {
			/* A lost wakeup: the rest would only wait as long. */
			timeouts++;
			__atomic_store_n(&s.failed, true, __ATOMIC_RELAXED);
			break;
		} else {
			n = rte_eth_rx_burst(rx, 0, pkts, RTE_DIM(pkts));
			if (n == 0) {
				/*
				 * Woken before its packet: by packet i-1's
				 * notification if it was still to come, else
				 * too early.
				 */
				if (done < i - 1)
					stale++;
				else
					late++;
				do
					n = rte_eth_rx_burst(rx, 0, pkts,
							     RTE_DIM(pkts));
				while (n == 0);
			}
		}
		if (n != 1 || seq_of(pkts[0]) != i)
			lost++;
		rte_pktmbuf_free_bulk(pkts, n);
	}
	pthread_join(thread, NULL);
	unregister_queue(rx);
	printf("# %s: %" PRIu64 " cycles, %" PRIu64 " taken by the last poll, %"
	       PRIu64 " timed out, %" PRIu64 " woken early, %" PRIu64
	       " woken by a stale event, %" PRIu64
	       " lost or out of order, %" PRIu64 " events taken, %" PRIu64
	       " full-ring retries\n", what, s.cycles, polled, timeouts, late,
	       stale, lost,
	       pair_xstat(rx, "rx_q0_notifications_received") - recv0,
	       s.refused);
	CHECK(timeouts == 0);
	CHECK(!s.failed);
	CHECK(i == s.cycles + 1);
	CHECK(late == 0);
	CHECK(lost == 0);
	CHECK(pair_xstat(rx, "rx_q0_notifications_received") > recv0);
	/* Events are counted where they are taken: on the Rx queue only. */
	CHECK(pair_xstat(rx, "tx_q0_notifications_received") == UINT64_MAX);
	CHECK(rte_eth_xstats_reset(rx) == 0);
	CHECK(pair_xstat(rx, "rx_q0_notifications_received") == 0);
}

static const struct rte_eth_conf intr_conf = { .intr_conf = { .rxq = 1 } };

static void
test_every_wakeup_brings_its_packet_both_ways(void)
{
	struct pair pr;

	REQUIRE(pair_open_conf(&pr, "wake", "", "", 1, &intr_conf, test_pool));
	cycles(pr.front, pr.back, "netback Rx (guest TX)");
	cycles(pr.back, pr.front, "netfront Rx (guest RX)");
	pair_close(&pr);
}

static void
test_an_idle_queue_sleeps(void)
{
	struct rte_mbuf *m, *got[4];
	struct pair pr;
	uint16_t port;

	REQUIRE(pair_open_conf(&pr, "idle", "", "", 1, &intr_conf, test_pool));
	for (int side = 0; side < 2; side++) {
		port = side == 0 ? pr.back : pr.front;
		REQUIRE(register_queue(port));
		/* Events of the traffic before are taken, not slept on. */
		m = numbered_frame(7);
		REQUIRE(m != NULL);
		CHECK(rte_eth_tx_burst(side == 0 ? pr.front : pr.back, 0,
				       &m, 1) == 1);
		CHECK(sleep_on_queue(port, WAKE_TIMEOUT_MS) == 1);
		CHECK(rte_eth_rx_burst(port, 0, got, RTE_DIM(got)) == 1);
		rte_pktmbuf_free(got[0]);
		CHECK(sleep_on_queue(port, 200) == 0);
		CHECK(sleep_on_queue(port, 200) == 0);
		unregister_queue(port);
	}
	pair_close(&pr);
}

/* The netfront goes away and comes back while the netback sleeps. */
static void
test_a_reconnect_wakes_the_sleeper(void)
{
	char args[160];
	struct rte_mbuf *m, *got[4];
	struct pair pr;
	bool already_up;
	int woken = 0;

	REQUIRE(pair_open_conf(&pr, "rewake", "", "", 1, &intr_conf, test_pool));
	REQUIRE(register_queue(pr.back));
	pair_destroy("net_xen_netfront0", pr.front);
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s", pr.inst);
	pr.front = pair_create_conf("net_xen_netfront0", args, test_pool, 1,
				    &intr_conf);
	REQUIRE(pr.front >= 0);
	/*
	 * Woken by the gate opening (and maybe the link's first events),
	 * unless the backend's control thread opened it before this thread
	 * got here (a loaded host): then arming finds the ring open and
	 * empty, and there is nothing to wake for.
	 */
	already_up = pair_wait_link(pr.back, true, 0);
	while (!already_up && woken < 10 &&
	       sleep_on_queue(pr.back, WAKE_TIMEOUT_MS) == 1) {
		woken++;
		if (pair_wait_link(pr.back, true, 0))
			break;
	}
	printf("# %s\n", already_up ? "the link was up before the sleep" :
	       "woken by the reconnect");
	CHECK(already_up || (woken > 0 && woken < 10));
	CHECK(pair_wait_link(pr.back, true, 10000));
	CHECK(pair_wait_link(pr.front, true, 10000));
	m = numbered_frame(9);
	REQUIRE(m != NULL);
	CHECK(rte_eth_tx_burst(pr.front, 0, &m, 1) == 1);
	CHECK(sleep_on_queue(pr.back, WAKE_TIMEOUT_MS) == 1);
	CHECK(rte_eth_rx_burst(pr.back, 0, got, RTE_DIM(got)) == 1);
	CHECK(seq_of(got[0]) == 9);
	rte_pktmbuf_free(got[0]);
	unregister_queue(pr.back);
	pair_close(&pr);
}

/*
 * Two queue pairs: a packet on queue 1 wakes the sleeper of queue 1 only,
 * on either PMD (the epoll data of each registration names its queue).
 */
static void
test_a_queue_wakes_only_its_own_sleeper(void)
{
	struct rte_epoll_event ev[2];
	struct rte_mbuf *m, *got[4];
	struct pair pr;
	uint16_t port, q;
	int n;

	REQUIRE(pair_open_conf(&pr, "perq", "", "", 2, &intr_conf, test_pool));
	for (int side = 0; side < 2; side++) {
		port = side == 0 ? pr.back : pr.front;
		for (q = 0; q < 2; q++) {
			REQUIRE(rte_eth_dev_rx_intr_ctl_q(port, q,
					RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD,
					(void *)(uintptr_t)(q + 1)) == 0);
			CHECK(rte_eth_dev_rx_intr_enable(port, q) == 0);
		}
		/* Both queues drained and armed: nothing wakes them. */
		CHECK(rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 2, 100) == 0);
		m = numbered_frame(5);
		REQUIRE(m != NULL);
		CHECK(rte_eth_tx_burst(side == 0 ? pr.front : pr.back, 1,
				       &m, 1) == 1);
		n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 2, WAKE_TIMEOUT_MS);
		CHECK(n == 1);
		CHECK(n >= 1 && ev[0].epdata.data == (void *)2);
		for (q = 0; q < 2; q++)
			CHECK(rte_eth_dev_rx_intr_disable(port, q) == 0);
		CHECK(rte_eth_rx_burst(port, 0, got, RTE_DIM(got)) == 0);
		CHECK(rte_eth_rx_burst(port, 1, got, RTE_DIM(got)) == 1);
		rte_pktmbuf_free(got[0]);
		for (q = 0; q < 2; q++)
			rte_eth_dev_rx_intr_ctl_q(port, q, RTE_EPOLL_PER_THREAD,
						  RTE_INTR_EVENT_DEL, NULL);
	}
	pair_close(&pr);
}

static void
test_without_intr_conf_there_is_no_interrupt(void)
{
	struct pair pr;

	REQUIRE(pair_open(&pr, "nointr", "", "", test_pool));
	CHECK(rte_eth_dev_rx_intr_ctl_q_get_fd(pr.back, 0) < 0);
	CHECK(rte_eth_dev_rx_intr_enable(pr.back, 0) != 0);
	CHECK(rte_eth_dev_rx_intr_enable(pr.front, 0) != 0);
	pair_close(&pr);
}

TEST_MAIN(pair_setup, pair_teardown)
{
	RUN(test_without_intr_conf_there_is_no_interrupt);
	RUN(test_an_idle_queue_sleeps);
	RUN(test_a_queue_wakes_only_its_own_sleeper);
	RUN(test_a_reconnect_wakes_the_sleeper);
	RUN(test_every_wakeup_brings_its_packet_both_ways);
}
