/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Doorbell coalescing and the batch bound, measured from the PMDs' xstats
 * (notifications_sent + notifications_suppressed = the publishes of a
 * queue's ring index, each with its one notify decision).
 *
 * Every Tx burst publishes the ring it touched at most once, after all its
 * requests or responses are written, and exactly once if it took any
 * packet: for bursts of 1, a partial burst, a full one, one larger than
 * the ring has room for, and mixed EtherTypes with the receiver grouping
 * or not. When the peer asks (it moved its event index past the
 * published range, as a peer about to sleep does), that one publish sends
 * exactly one notification, never one per packet; when the peer polls,
 * none. The peer then receives every packet taken, in order, and counts
 * the notifications it was sent (its Rx queue in interrupt mode takes
 * them). Steering: each port has one queue pair
 * and the application picks the queue of every burst; there is no hash or
 * steering inside these PMDs, so "application-chosen queue 0" is the only
 * mode there is to cover.
 *
 * An Rx burst never returns more than batch packets, and with the ring
 * full each pull publishes once per batch: ceil(packets / batch) doorbells.
 */

#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "netif_ring.h"
#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "xa.h"

#define MAX_BURST 512

/*
 * The test's view of the shared ring pages: Dom0 may map the frontend's
 * ring grants a second time, so the test can move the event indexes the
 * way a peer about to sleep would.
 */
struct observer {
	struct xa_handle *xa;
	netif_tx_sring_t *tx;
	netif_rx_sring_t *rx;
};

static void *
map_ring(struct xa_handle *xa, const char *key)
{
	char path[96];
	unsigned long ref;

	snprintf(path, sizeof(path), "/local/domain/1/device/vif/0/%s", key);
	if (!xa_xs_read_uint(xa, XBT_NULL, path, &ref))
		return NULL;
	return xa_gnt_map(xa, 1, 1, (grant_ref_t[]){ ref }, true);
}

static bool
observer_attach(struct observer *o, const struct pair *pr)
{
	struct xa_open_args args = {
		.provider = XA_PROVIDER_SIM,
		.sim_instance = pr->inst,
		.sim_domid = 0,
	};

	o->xa = xa_open(&args);
	if (o->xa == NULL)
		return false;
	o->tx = map_ring(o->xa, "tx-ring-ref");
	o->rx = map_ring(o->xa, "rx-ring-ref");
	return o->tx != NULL && o->rx != NULL;
}

static void
observer_detach(struct observer *o)
{
	if (o->tx != NULL)
		xa_gnt_unmap(o->xa, o->tx, 1);
	if (o->rx != NULL)
		xa_gnt_unmap(o->xa, o->rx, 1);
	xa_close(o->xa);
}

/* Ask for a notification when anything past *@prod is published. */
static void
ask(RING_IDX *event, const RING_IDX *prod)
{
	__atomic_store_n(event, __atomic_load_n(prod, __ATOMIC_ACQUIRE) + 1,
			 __ATOMIC_SEQ_CST);
}

/* The sender's side of one direction. */
struct direction {
	const char *name;
	uint16_t tx, rx;
	RING_IDX *event;	/* the index the receiving peer asks with */
	const RING_IDX *prod;	/* the sender's producer index */
	unsigned int max_burst;	/* most packets the sender takes a burst */
};

static uint64_t
notifications_received(uint16_t port)
{
	return pair_xstat(port, "rx_q0_notifications_received");
}

/*
 * Receive until @n packets numbered from *@next are in, in order, in
 * bursts of @nb_pkts; each burst publishes at most once, once if it
 * pulled anything (a grouped burst served from the stash pulls nothing).
 * Returns the receiver's doorbells over the drain.
 */
static uint64_t
drain(uint16_t port, uint64_t *next, uint64_t n, uint16_t nb_pkts,
      uint16_t batch, bool group)
{
	struct rte_mbuf *pkts[MAX_BURST];
	uint64_t end = *next + n, first = pair_doorbells(port, "rx_q0");
	unsigned int idle = 0;

	while (*next < end && idle < 1000000) {
		uint64_t before = pair_doorbells(port, "rx_q0"), rang;
		uint16_t k = rte_eth_rx_burst(port, 0, pkts, nb_pkts);

		rang = pair_doorbells(port, "rx_q0") - before;
		CHECK(rang <= 1);
		CHECK(k <= batch && k <= nb_pkts);
		if (!group)
			CHECK(rang == (k > 0));
		idle = k == 0 ? idle + 1 : 0;
		for (uint16_t i = 0; i < k; i++) {
			uint64_t seq = mf_seq(rte_pktmbuf_mtod(pkts[i],
							       uint8_t *));

			if (seq != *next)
				fprintf(stderr, "packet %lu arrived as %lu\n",
					(unsigned long)*next,
					(unsigned long)seq);
			CHECK(seq == *next);
			(*next)++;
		}
		rte_pktmbuf_free_bulk(pkts, k);
	}
	CHECK(*next == end);
	return pair_doorbells(port, "rx_q0") - first;
}

/*
 * Bursts of 1, 7 (a partial application burst), 32 (a full one), 64, and
 * then bursts of 300 until the ring is full: the netback takes at most 64
 * per burst, the netfront as many as it has ids for; the last ones are cut
 * short, then take nothing.
 */
static const unsigned int burst_sizes[] = { 1, 7, 32, 64, 300, 300, 300, 300,
					    300 };

static void
kicks_per_burst(const struct direction *d, bool peer_asks, bool group,
		uint64_t *seq)
{
	struct rte_mbuf *pkts[MAX_BURST];
	uint64_t first = *seq, recv0 = notifications_received(d->rx);
	unsigned int cut_short = 0, refused = 0, taken_total = 0;
	uint64_t kicks = 0;

	/* A polling peer took what was published and asks for nothing. */
	if (!peer_asks)
		__atomic_store_n(d->event, __atomic_load_n(d->prod,
							   __ATOMIC_ACQUIRE),
				 __ATOMIC_SEQ_CST);

	for (size_t b = 0; b < RTE_DIM(burst_sizes); b++) {
		unsigned int n = burst_sizes[b];
		uint64_t bells = pair_doorbells(d->tx, "tx_q0");
		uint64_t sent = pair_notified(d->tx, "tx_q0");
		uint16_t taken;

		REQUIRE(pair_mixed_frames(test_pool, *seq, n, pkts));
		if (peer_asks)
			ask(d->event, d->prod);
		taken = rte_eth_tx_burst(d->tx, 0, pkts, n);
		rte_pktmbuf_free_bulk(pkts + taken, n - taken);
		*seq += taken;
		taken_total += taken;
		bells = pair_doorbells(d->tx, "tx_q0") - bells;
		sent = pair_notified(d->tx, "tx_q0") - sent;
		kicks += sent;
		if (bells != (taken > 0) || sent != (peer_asks && taken > 0))
			fprintf(stderr, "%s: burst of %u took %u: %lu "
				"doorbells, %lu sent\n", d->name, n, taken,
				(unsigned long)bells, (unsigned long)sent);
		CHECK(bells == (taken > 0));
		CHECK(sent == (peer_asks && taken > 0));
		cut_short += taken > 0 && taken < RTE_MIN(n, d->max_burst);
		refused += taken == 0;
	}
	/* The sequence did reach a full ring, with a burst cut short. */
	CHECK(refused > 0);
	CHECK(cut_short > 0);
	/* The peer gets all of it; a kick it asked for reaches it. */
	drain(d->rx, &first, taken_total, 32, 32, group);
	CHECK(first == *seq);
	if (kicks > 0) {
		/* Taking the queue out of interrupt mode takes its events. */
		for (int ms = 0; ms < 1000 &&
		     notifications_received(d->rx) == recv0; ms++) {
			CHECK(rte_eth_dev_rx_intr_disable(d->rx, 0) == 0);
			rte_delay_us_sleep(1000);
		}
		CHECK(notifications_received(d->rx) > recv0);
		CHECK(notifications_received(d->rx) - recv0 <= kicks);
	}
}

static void
each_sender(const char *devargs, bool group)
{
	struct observer o = { 0 };
	struct pair pr;
	uint64_t seq = 0;

	REQUIRE(pair_open_conf(&pr, "bell", devargs, devargs, 1,
			       &(struct rte_eth_conf){ .intr_conf.rxq = 1 },
			       test_pool));
	REQUIRE(observer_attach(&o, &pr));
	{
		const struct direction dirs[] = {
			{ "netfront tx", pr.front, pr.back, &o.tx->req_event,
			  &o.tx->req_prod, MAX_BURST },
			{ "netback tx", pr.back, pr.front, &o.rx->rsp_event,
			  &o.rx->rsp_prod, 64 },
		};

		for (size_t i = 0; i < RTE_DIM(dirs); i++) {
			kicks_per_burst(&dirs[i], true, group, &seq);
			kicks_per_burst(&dirs[i], false, group, &seq);
		}
	}
	observer_detach(&o);
	pair_close(&pr);
}

static void
test_tx_bursts_kick_once_without_grouping(void)
{
	each_sender("group_ethertype=0", false);
}

static void
test_tx_bursts_kick_once_with_grouping(void)
{
	each_sender("group_ethertype=1", true);
}

/* Fill the ring from @tx with @n packets from *@seq on. */
static bool
fill(uint16_t tx, uint64_t *seq, unsigned int n)
{
	struct rte_mbuf *pkts[MAX_BURST];
	unsigned int done = 0;

	if (!pair_mixed_frames(test_pool, *seq, n, pkts))
		return false;
	while (done < n) {
		uint16_t k = rte_eth_tx_burst(tx, 0, pkts + done, n - done);

		if (k == 0)
			break;
		done += k;
	}
	rte_pktmbuf_free_bulk(pkts + done, n - done);
	*seq += done;
	return done == n;
}

/*
 * With 200 packets waiting, bursts asking for @nb_pkts return
 * min(nb_pkts, batch) until the last, each one pull with one doorbell.
 */
static void
bound_holds(uint16_t batch, const char *devargs, uint16_t nb_pkts, bool group)
{
	const unsigned int n = 200;
	unsigned int pull = RTE_MIN(nb_pkts, batch);
	struct pair pr;
	int ends[2][2];

	REQUIRE(pair_open(&pr, "bound", devargs, devargs, test_pool));
	ends[0][0] = pr.front;
	ends[0][1] = pr.back;
	ends[1][0] = pr.back;
	ends[1][1] = pr.front;
	for (int d = 0; d < 2; d++) {
		uint64_t seq = 0, next = 0, bells;

		REQUIRE(fill(ends[d][0], &seq, n));
		bells = drain(ends[d][1], &next, n, nb_pkts, batch, group);
		if (bells != (n + pull - 1) / pull)
			fprintf(stderr, "batch %u, bursts of %u: %lu doorbells "
				"for %u packets\n", batch, nb_pkts,
				(unsigned long)bells, n);
		CHECK(bells == (n + pull - 1) / pull);
	}
	pair_close(&pr);
}

static void
test_rx_bursts_never_exceed_the_batch_bound(void)
{
	bound_holds(1, "batch=1", 64, false);
	bound_holds(8, "batch=8", 64, false);
	bound_holds(32, "", 64, false);		/* the default */
	bound_holds(32, "", 512, false);
	bound_holds(64, "batch=64", 512, false);
	bound_holds(64, "batch=64", 10, false);
}

static void
test_grouping_keeps_the_bound_and_one_doorbell_per_pull(void)
{
	bound_holds(8, "batch=8,group_ethertype=1", 64, true);
	bound_holds(64, "batch=64,group_ethertype=1", 64, true);
}

TEST_MAIN(pair_setup, pair_teardown)
{
	RUN(test_tx_bursts_kick_once_without_grouping);
	RUN(test_tx_bursts_kick_once_with_grouping);
	RUN(test_rx_bursts_never_exceed_the_batch_bound);
	RUN(test_grouping_keeps_the_bound_and_one_doorbell_per_pull);
}
