/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Multi-queue, both PMDs in one process over a simulator instance: with
 * queues=2 on both ends each queue pair carries its own traffic, every
 * byte checked, and the counters are per queue; when the ends disagree the
 * fewer queue pairs connect, and the queues beyond move nothing (a burst
 * returns 0) while the others work; an application that configures other
 * queue counts than the devargs say is told so. A port holds memory for
 * its configured queue pairs only, on the NUMA node it was probed on. Every page the netfront
 * shares counts against the guest's gntalloc limit (1024 by default): it
 * raises the limit for eight queue pairs, and where the guest's
 * administrator fixed it, refuses to connect and says how many it needs.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <numaif.h>

#include <rte_bus_vdev.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "netif_front.h"
#include "xa.h"
#include "xsim.h"

#define NB "net_xen_netback0"
#define NF "net_xen_netfront0"
#define PACKETS 20000

struct mq_pair {
	char inst[48];
	int back;
	int front;
};

static bool
mq_open(struct mq_pair *mp, const char *tag, uint16_t back_q,
	uint16_t front_q)
{
	char args[160];

	snprintf(mp->inst, sizeof(mp->inst), "%s-%s", pair_sim_instance(),
		 tag);
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s,queues=%u",
		 mp->inst, back_q);
	mp->back = pair_create_queues(NB, args, test_pool, back_q);
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s,queues=%u",
		 mp->inst, front_q);
	mp->front = mp->back < 0 ? -1 :
		    pair_create_queues(NF, args, test_pool, front_q);
	return mp->front >= 0 && pair_wait_link(mp->back, true, 10000) &&
	       pair_wait_link(mp->front, true, 10000);
}

static void
mq_close(struct mq_pair *mp)
{
	if (mp->front >= 0)
		pair_destroy(NF, mp->front);
	if (mp->back >= 0)
		pair_destroy(NB, mp->back);
	xsim_instance_destroy(mp->inst);
}

/* @count packets through queue @q only: the other queues count none. */
static bool
only_queue_moves(uint16_t tx, uint16_t rx, uint16_t q, uint16_t nb_queues,
		 uint64_t first)
{
	struct rte_eth_stats ts, rs;
	uint16_t i;

	rte_eth_stats_reset(tx);
	rte_eth_stats_reset(rx);
	if (pair_transfer_queue(tx, rx, q, test_pool, first, PACKETS, 128) !=
	    PACKETS)
		return false;
	if (rte_eth_stats_get(tx, &ts) != 0 || rte_eth_stats_get(rx, &rs) != 0)
		return false;
	for (i = 0; i < nb_queues; i++) {
		uint64_t want = i == q ? PACKETS : 0;

		if (ts.q_opackets[i] != want || rs.q_ipackets[i] != want) {
			fprintf(stderr, "queue %u: sent %" PRIu64
				", received %" PRIu64 ", expected %" PRIu64
				"\n", i, ts.q_opackets[i], rs.q_ipackets[i],
				want);
			return false;
		}
	}
	return ts.opackets == PACKETS && rs.ipackets == PACKETS &&
	       ts.obytes == rs.ibytes;
}

static void
test_each_queue_pair_carries_its_own_traffic(void)
{
	struct mq_pair mp;
	uint64_t seq = 0;

	REQUIRE(mq_open(&mp, "two", 2, 2));
	/* Each queue pair's static grants in place before its traffic. */
	for (uint16_t q = 0; q < 2; q++) {
		char name[32];

		snprintf(name, sizeof(name), "rx_q%u_static_grants", q);
		CHECK(pair_xstat_settled(mp.back, name, PAIR_STATIC_GRANTS,
					 5000) == PAIR_STATIC_GRANTS);
	}
	/* Interleaved, so that each queue runs on after the other ran. */
	for (unsigned int round = 0; round < 2; round++)
		for (uint16_t q = 0; q < 2; q++) {
			CHECK(only_queue_moves(mp.front, mp.back, q, 2, seq));
			CHECK(only_queue_moves(mp.back, mp.front, q, 2, seq));
			seq += PACKETS;
		}
	/*
	 * The last transfer went back to front on queue 1, through its own
	 * static grants, and the counters of queue 1 saw it.
	 */
	CHECK(pair_xstat(mp.back, "tx_q1_static_packets") == PACKETS);
	CHECK(pair_xstat(mp.back, "tx_q0_static_packets") == 0);
	CHECK(pair_xstat(mp.back, "tx_q1_grant_copy_ops") == 0);
	CHECK(pair_xstat(mp.back, "rx_q0_static_grants") ==
	      PAIR_STATIC_GRANTS);
	CHECK(pair_xstat(mp.back, "rx_q1_static_grants") ==
	      PAIR_STATIC_GRANTS);
	CHECK(pair_xstat(mp.front, "rx_q1_packets") == PACKETS);
	CHECK(pair_xstat(mp.front, "rx_q2_packets") == UINT64_MAX);
	mq_close(&mp);
}

/* Bursts on queue @q of @port move nothing. */
static bool
queue_is_idle(uint16_t port, uint16_t q)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool), *in[8];
	uint16_t sent, got = 0;

	if (m == NULL || rte_pktmbuf_append(m, 60) == NULL)
		return false;
	memset(rte_pktmbuf_mtod(m, void *), 0xff, 60);
	sent = rte_eth_tx_burst(port, q, &m, 1);
	if (sent == 0)
		rte_pktmbuf_free(m);
	for (int i = 0; i < 100; i++)
		got += rte_eth_rx_burst(port, q, in, RTE_DIM(in));
	return sent == 0 && got == 0;
}

/*
 * Ends that ask and offer different counts connect the fewer: the last of
 * those pairs carries traffic, the queues beyond on either end move none.
 */
static void
check_fewer_pairs_connect(const char *tag, uint16_t back_q, uint16_t front_q)
{
	uint16_t pairs = RTE_MIN(back_q, front_q), q;
	struct mq_pair mp;

	REQUIRE(mq_open(&mp, tag, back_q, front_q));
	CHECK(only_queue_moves(mp.front, mp.back, pairs - 1, pairs, 0));
	CHECK(only_queue_moves(mp.back, mp.front, pairs - 1, pairs, 0));
	for (q = pairs; q < back_q; q++)
		CHECK(queue_is_idle(mp.back, q));
	for (q = pairs; q < front_q; q++)
		CHECK(queue_is_idle(mp.front, q));
	mq_close(&mp);
}

static void
test_frontend_asking_more_gets_what_the_backend_offers(void)
{
	check_fewer_pairs_connect("fe4", 2, 4);
}

static void
test_backend_offering_more_serves_what_the_frontend_asks(void)
{
	check_fewer_pairs_connect("be4", 4, 1);
}

static void
test_queue_counts_must_match_the_devargs(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	static const char *const names[] = { NB, NF };
	char args[128];
	uint16_t port;

	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s-cfg,queues=3",
		 pair_sim_instance());
	for (unsigned int i = 0; i < RTE_DIM(names); i++) {
		REQUIRE(rte_vdev_init(names[i], args) == 0);
		REQUIRE(rte_eth_dev_get_port_by_name(names[i], &port) == 0);
		CHECK(rte_eth_dev_info_get(port, &info) == 0 &&
		      info.max_rx_queues == 3 && info.max_tx_queues == 3);
		CHECK(rte_eth_dev_configure(port, 1, 1, &conf) != 0);
		CHECK(rte_eth_dev_configure(port, 3, 2, &conf) != 0);
		CHECK(rte_eth_dev_configure(port, 3, 3, &conf) == 0);
		rte_eth_dev_close(port);
		rte_vdev_uninit(names[i]);
	}
	snprintf(args, sizeof(args), "%s-cfg", pair_sim_instance());
	xsim_instance_destroy(args);
}

/* DPDK heap bytes in use, all sockets. */
static size_t
heap_in_use(void)
{
	struct rte_malloc_socket_stats st;
	size_t sum = 0;

	for (unsigned int s = 0; s < rte_socket_count(); s++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(s), &st) ==
		    0)
			sum += st.heap_allocsz_bytes;
	return sum;
}

/* The DPDK memory a port named @name with @queues pairs takes at probe; 0 if none. */
static size_t
port_memory(const char *name, unsigned int queues)
{
	size_t before = heap_in_use(), used;
	char args[128];

	snprintf(args, sizeof(args),
		 "domid=1,provider=sim,sim=%s-mem,queues=%u",
		 pair_sim_instance(), queues);
	if (rte_vdev_init(name, args) != 0)
		return 0; /* the checks fail on it */
	used = heap_in_use() - before;
	rte_vdev_uninit(name);
	return used;
}

/*
 * A watcher's ports are mostly one pair each (issue 15): eight pairs
 * embedded whatever queues= says took 1.2 MiB per netback port.
 */
static void
test_a_port_holds_only_its_queue_pairs(void)
{
	static const char *const names[] = { NB, NF };
	char inst[64];

	for (unsigned int i = 0; i < RTE_DIM(names); i++) {
		/* The first port of a process also sets up what they share. */
		size_t first = port_memory(names[i], 1);
		size_t one = port_memory(names[i], 1);
		size_t eight = port_memory(names[i], 8);

		printf("# %s: %zu bytes with 1 queue pair (%zu the first time), %zu with 8\n",
		       names[i], one, first, eight);
		CHECK(eight > 4 * one);
		CHECK(port_memory(names[i], 1) == one);
	}
	snprintf(inst, sizeof(inst), "%s-mem", pair_sim_instance());
	xsim_instance_destroy(inst);
}

/*
 * A vdev has no NUMA node of its own: the port takes the prober's, where
 * its queue pairs' memory is (xn_port_open()), and says so for the
 * application to poll it from there.
 */
static void
test_a_port_is_on_the_probers_node(void)
{
	static const char *const names[] = { NB, NF };
	const int node = (int)rte_socket_id();
	struct rte_eth_dev_info info;
	char args[128];
	uint16_t port;

	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s-node",
		 pair_sim_instance());
	for (unsigned int i = 0; i < RTE_DIM(names); i++) {
		REQUIRE(rte_vdev_init(names[i], args) == 0);
		REQUIRE(rte_eth_dev_get_port_by_name(names[i], &port) == 0);
		CHECK(rte_eth_dev_socket_id(port) == node);
		CHECK(rte_eth_dev_info_get(port, &info) == 0 &&
		      rte_dev_numa_node(info.device) == node);
		rte_eth_dev_close(port);
		rte_vdev_uninit(names[i]);
	}
	snprintf(args, sizeof(args), "%s-node", pair_sim_instance());
	xsim_instance_destroy(args);
}

static void
first_buffer(struct rte_mempool *mp __rte_unused, void *opaque, void *obj,
	     unsigned int idx)
{
	if (idx == 0)
		*(void **)opaque = ((struct rte_mbuf *)obj)->buf_addr;
}

/*
 * The pages a connected netfront grants for its zero-copy pools are on
 * its node: gntalloc allocates them under the share's preference for it
 * (xa_gnt_share_on_node()), a policy the pages keep.
 */
static void
test_granted_pools_are_on_the_ports_node(void)
{
	unsigned long nodes[1024 / (8 * sizeof(long))];
	const int node = (int)rte_socket_id();
	char name[RTE_MEMPOOL_NAMESIZE];
	struct rte_mempool *zc;
	struct mq_pair mp;
	void *buf;
	int mode;

	REQUIRE(mq_open(&mp, "numa", 2, 2));
	REQUIRE(rte_eth_dev_socket_id(mp.front) == node);
	for (unsigned int q = 0; q < 2; q++) {
		snprintf(name, sizeof(name), "xnf%d_zc%u", mp.front, q);
		zc = rte_mempool_lookup(name);
		REQUIRE(zc != NULL);
		/* An mbuf's buffer is one of the granted pages. */
		buf = NULL;
		rte_mempool_obj_iter(zc, first_buffer, &buf);
		REQUIRE(buf != NULL);
		memset(nodes, 0, sizeof(nodes));
		mode = -1;
		CHECK(get_mempolicy(&mode, nodes, 1024 + 1,
				    RTE_PTR_ALIGN_FLOOR(buf, 4096),
				    MPOL_F_ADDR) == 0);
		printf("# queue %u: pool on mode %d nodes %#lx\n", q, mode,
		       nodes[0]);
		CHECK(mode == MPOL_PREFERRED && nodes[0] == 1ul << node);
	}
	mq_close(&mp);
}

/* Domain 1's grant limit and what it shares, read as the guest would. */
static bool
guest_grants(const char *inst, uint32_t *limit, uint32_t *used)
{
	struct xa_open_args args = {
		.provider = XA_PROVIDER_SIM,
		.sim_instance = inst,
		.sim_domid = 1,
	};
	struct xa_handle *h = xa_open(&args);
	bool ok;

	if (h == NULL)
		return false;
	ok = xa_gnt_share_limit(h, limit, used) == 0;
	xa_close(h);
	return ok;
}

static void
test_eight_queue_pairs_raise_the_grant_limit(void)
{
	struct mq_pair mp;
	uint32_t limit, used;

	REQUIRE(mq_open(&mp, "eight", 8, 8));
	REQUIRE(guest_grants(mp.inst, &limit, &used));
	/*
	 * Each pair's rings, TX pages and zero-copy pool, two list pages
	 * each, the control ring's page and the hash's two.
	 */
	CHECK(used == 8 * (2 + PAIR_STATIC_GRANTS + 2) + 3);
	CHECK(limit >= used && limit > XA_GNT_SHARE_LIMIT_DEFAULT);
	CHECK(only_queue_moves(mp.front, mp.back, 7, 8, 0));
	CHECK(only_queue_moves(mp.back, mp.front, 0, 8, PACKETS));
	mq_close(&mp);
}

static void
test_fixed_grant_limit_refuses_with_what_it_needs(void)
{
	struct mq_pair mp;
	uint32_t limit, used;
	size_t mark;
	char want[64];

	snprintf(mp.inst, sizeof(mp.inst), "%s-fixed", pair_sim_instance());
	REQUIRE(xsim_gntalloc_limit(mp.inst, 1, XA_GNT_SHARE_LIMIT_DEFAULT) ==
		0);
	mark = test_log_mark();
	CHECK(!mq_open(&mp, "fixed", 2, 2));
	snprintf(want, sizeof(want), "2 queue pairs need %u more grants",
		 2 * (2 + PAIR_STATIC_GRANTS + 2) + 3);
	CHECK(strstr(test_log_since(mark), want) != NULL);
	CHECK(strstr(test_log_since(mark), "xen_gntalloc") != NULL);
	/* Nothing was shared halfway. */
	REQUIRE(guest_grants(mp.inst, &limit, &used));
	CHECK(used == 0 && limit == XA_GNT_SHARE_LIMIT_DEFAULT);
	mq_close(&mp);
}

static int
setup(const char *argv0)
{
	return pair_setup(argv0) == 0 ? test_log_capture() : -1;
}

static void
teardown(void)
{
	test_log_release();
	pair_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_each_queue_pair_carries_its_own_traffic);
	RUN(test_frontend_asking_more_gets_what_the_backend_offers);
	RUN(test_backend_offering_more_serves_what_the_frontend_asks);
	RUN(test_queue_counts_must_match_the_devargs);
	RUN(test_a_port_holds_only_its_queue_pairs);
	RUN(test_a_port_is_on_the_probers_node);
	RUN(test_granted_pools_are_on_the_ports_node);
	RUN(test_eight_queue_pairs_raise_the_grant_limit);
	RUN(test_fixed_grant_limit_refuses_with_what_it_needs);
}
