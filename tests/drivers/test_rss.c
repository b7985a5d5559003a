/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Receive-side scaling configured by the netfront's application: its
 * rte_eth_dev_configure() rss_conf, rte_eth_dev_rss_hash_update() and
 * rte_eth_dev_rss_reta_update() become the hash our netback's guest
 * configured (what the netback's application reads back with ethdev's RSS
 * queries), at connect, while connected and again after the backend
 * restarts; the frames the backend sends arrive with the hash as their
 * mbuf's RSS hash, checked against Microsoft's verification vectors and
 * DPDK's own software Toeplitz; a table naming queues the backend does not
 * serve is folded onto those it does; what netif cannot carry is refused,
 * and a netback's hash is its guest's, not its application's, to set.
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_thash.h>

#include "ms_rss.h"
#include "test.h"
#include "vdev_pair.h"

#define BACK "net_xen_netback0"
#define FRONT "net_xen_netfront0"

/* Microsoft's first row, IPv4 addresses alone (its IPv4 column). */
#define MS_RSS_ROW1_IPV4 0x323e8fc2

static uint8_t ms_key[40];

static const struct rte_eth_conf rss_conf = {
	.rxmode = {
		.mq_mode = RTE_ETH_MQ_RX_RSS,
		.offloads = RTE_ETH_RX_OFFLOAD_RSS_HASH,
	},
	.rx_adv_conf.rss_conf = {
		.rss_key = ms_key,
		.rss_key_len = sizeof(ms_key),
		.rss_hf = RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP,
	},
};

/* The backend's view of its guest's hash. */
struct seen {
	uint64_t rss_hf;
	uint8_t key[40];
	uint16_t table[128];
};

static bool
backend_hash(uint16_t back, struct seen *s)
{
	struct rte_eth_rss_reta_entry64 reta[2];
	struct rte_eth_rss_conf conf = {
		.rss_key = s->key, .rss_key_len = sizeof(s->key),
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(reta); i++)
		reta[i].mask = UINT64_MAX;
	if (rte_eth_dev_rss_hash_conf_get(back, &conf) != 0 ||
	    rte_eth_dev_rss_reta_query(back, reta, 128) != 0)
		return false;
	s->rss_hf = conf.rss_hf;
	for (i = 0; i < 128; i++)
		s->table[i] = reta[i / 64].reta[i % 64];
	return true;
}

/* Every entry of the backend's table is @f(i). */
static bool
table_is(const struct seen *s, unsigned int (*f)(unsigned int))
{
	unsigned int i;

	for (i = 0; i < 128; i++)
		if (s->table[i] != f(i))
			return false;
	return true;
}

/*
 * Wait up to 5 s for the backend to hold @rss_hf, @key and, unless NULL,
 * the table @f, then read it: the guest's requests are answered in turns
 * of the control ring's budget, so the table may come a turn after the
 * key.
 */
static bool
backend_settles(uint16_t back, uint64_t rss_hf, const uint8_t *key,
		unsigned int (*f)(unsigned int), struct seen *s)
{
	unsigned int ms;

	for (ms = 0; ms < 5000; ms++) {
		if (backend_hash(back, s) && s->rss_hf == rss_hf &&
		    memcmp(s->key, key, sizeof(s->key)) == 0 &&
		    (f == NULL || table_is(s, f)))
			return true;
		rte_delay_us_sleep(1000);
	}
	return false;
}

static unsigned int
spread2(unsigned int i)
{
	return i % 2;
}

static unsigned int
all1(unsigned int i __rte_unused)
{
	return 1;
}

static unsigned int
all0(unsigned int i __rte_unused)
{
	return 0;
}

/*
 * Microsoft's first row (IPv4, TCP) from the backend's application on its
 * queue 0; the hash the netfront's application got with it on queue 0, or
 * 0 with *@hashed false.
 */
static uint32_t
row1_hash(uint16_t back, uint16_t front, bool *hashed)
{
	uint8_t frame[60] = { 0 };
	struct rte_mbuf *m;
	unsigned int ms;

	*hashed = false;
	memcpy(frame, ms_rss_row1, sizeof(ms_rss_row1));
	m = pair_frame(test_pool, frame, sizeof(frame));
	if (m == NULL || rte_eth_tx_burst(back, 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return 0;
	}
	for (ms = 0; ms < 2000; ms++) {
		if (rte_eth_rx_burst(front, 0, &m, 1) == 1) {
			uint32_t hash = m->hash.rss;

			*hashed = m->ol_flags & RTE_MBUF_F_RX_RSS_HASH;
			rte_pktmbuf_free(m);
			return *hashed ? hash : 0;
		}
		rte_delay_us_sleep(1000);
	}
	return 0;
}

/*
 * Row 1's addresses, as rte_softrss() takes them (host order; DPDK
 * 22.11's RTE_IPV4() shifts an int, which UBSan refuses for 161).
 */
static uint32_t
row1_ipv4_softrss(const uint8_t *key)
{
	uint32_t tuple[2] = { 66u << 24 | 9u << 16 | 149u << 8 | 187u,
			      161u << 24 | 142u << 16 | 100u << 8 | 80u };

	return rte_softrss(tuple, RTE_DIM(tuple), key);
}

static void
test_the_applications_hash_reaches_the_backend(void)
{
	struct rte_eth_rss_reta_entry64 reta[2];
	struct rte_eth_rss_conf conf = { .rss_key = NULL };
	struct pair pr;
	uint8_t key2[40];
	struct seen s;
	bool hashed;
	unsigned int i;

	REQUIRE(pair_open_conf(&pr, "rss", "", "", 2, &rss_conf, test_pool));
	/* At connect: the types, the key, the table spread over 2 queues. */
	REQUIRE(backend_settles(pr.back,
				RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP,
				ms_key, spread2, &s));
	CHECK(table_is(&s, spread2));
	CHECK(row1_hash(pr.back, pr.front, &hashed) == MS_RSS_ROW1_TCP);
	CHECK(hashed);
	CHECK(pair_xstat(pr.front, "rx_q0_hashed_packets") == 1);
	/* Every frame to the queue the table names: all to queue 1. */
	for (i = 0; i < 128; i++) {
		reta[i / 64].mask = UINT64_MAX;
		reta[i / 64].reta[i % 64] = 1;
	}
	REQUIRE(rte_eth_dev_rss_reta_update(pr.front, reta, 128) == 0);
	/* IPv4 addresses alone, key unchanged (none given). */
	conf.rss_hf = RTE_ETH_RSS_IPV4;
	REQUIRE(rte_eth_dev_rss_hash_update(pr.front, &conf) == 0);
	REQUIRE(backend_settles(pr.back, RTE_ETH_RSS_IPV4, ms_key, all1, &s));
	CHECK(table_is(&s, all1));
	CHECK(row1_hash(pr.back, pr.front, &hashed) == MS_RSS_ROW1_IPV4);
	CHECK(row1_ipv4_softrss(ms_key) == MS_RSS_ROW1_IPV4);
	/* A new key: the hash DPDK's software Toeplitz computes with it. */
	for (i = 0; i < sizeof(key2); i++)
		key2[i] = ms_key[sizeof(key2) - 1 - i];
	conf.rss_key = key2;
	conf.rss_key_len = sizeof(key2);
	REQUIRE(rte_eth_dev_rss_hash_update(pr.front, &conf) == 0);
	REQUIRE(backend_settles(pr.back, RTE_ETH_RSS_IPV4, key2, NULL, &s));
	CHECK(row1_hash(pr.back, pr.front, &hashed) ==
	      row1_ipv4_softrss(key2));
	/* The application reads back what it set. */
	memset(key2, 0, sizeof(key2));
	CHECK(rte_eth_dev_rss_hash_conf_get(pr.front, &conf) == 0);
	CHECK(conf.rss_hf == RTE_ETH_RSS_IPV4 && conf.rss_key_len == 40 &&
	      key2[0] == ms_key[39]);
	/* No types: the hash is off, frames come unhashed. */
	conf.rss_hf = 0;
	conf.rss_key = NULL;
	REQUIRE(rte_eth_dev_rss_hash_update(pr.front, &conf) == 0);
	for (i = 0; i < 5000; i++) {
		if (backend_hash(pr.back, &s) && s.rss_hf == 0)
			break;
		rte_delay_us_sleep(1000);
	}
	CHECK(s.rss_hf == 0);
	row1_hash(pr.back, pr.front, &hashed);
	CHECK(!hashed);
	CHECK(pair_xstat(pr.front, "rx_q0_hashed_packets") == 3);
	pair_close(&pr);
}

/*
 * The backend restarted (the netback port closed and probed again once
 * the netfront saw it go): the netfront connects anew and configures the
 * same hash again. (A backend that comes back before the netfront noticed
 * re-attaches to the rings it finds, and has no hash: see the README.)
 */
static void
test_the_hash_is_configured_again_after_a_reconnect(void)
{
	char args[128];
	struct pair pr;
	struct seen s;
	bool hashed;

	REQUIRE(pair_open_conf(&pr, "rssre", "", "", 2, &rss_conf, test_pool));
	REQUIRE(backend_settles(pr.back,
				RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP,
				ms_key, spread2, &s));
	pair_destroy(BACK, pr.back);
	REQUIRE(pair_wait_link(pr.front, false, 10000));
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s,queues=2",
		 pr.inst);
	pr.back = pair_create_queues(BACK, args, test_pool, 2);
	REQUIRE(pr.back >= 0);
	REQUIRE(pair_wait_link(pr.back, true, 10000));
	REQUIRE(pair_wait_link(pr.front, true, 10000));
	CHECK(backend_settles(pr.back,
			      RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP,
			      ms_key, spread2, &s));
	CHECK(table_is(&s, spread2));
	CHECK(row1_hash(pr.back, pr.front, &hashed) == MS_RSS_ROW1_TCP);
	pair_close(&pr);
}

/*
 * A backend serving one queue pair to a netfront configured with two: the
 * table's entries for queue 1 would have the whole table refused, so they
 * fold onto queue 0.
 */
static void
test_a_table_beyond_the_served_queues_folds(void)
{
	char args[128], inst[64];
	struct seen s;
	int back, front;
	bool hashed;

	snprintf(inst, sizeof(inst), "%s-rssfold", pair_sim_instance());
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s,queues=1",
		 inst);
	back = pair_create_queues(BACK, args, test_pool, 1);
	REQUIRE(back >= 0);
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s,queues=2",
		 inst);
	front = pair_create_conf(FRONT, args, test_pool, 2, &rss_conf);
	REQUIRE(front >= 0);
	REQUIRE(pair_wait_link(back, true, 10000));
	REQUIRE(pair_wait_link(front, true, 10000));
	CHECK(backend_settles(back,
			      RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP,
			      ms_key, all0, &s));
	CHECK(table_is(&s, all0));
	CHECK(row1_hash(back, front, &hashed) == MS_RSS_ROW1_TCP);
	pair_destroy(FRONT, front);
	pair_destroy(BACK, back);
	xsim_instance_destroy(inst);
}

static void
test_what_netif_cannot_carry_is_refused(void)
{
	struct rte_eth_rss_reta_entry64 reta[2] = {
		{ .mask = 1 }, { .mask = 0 },
	};
	uint8_t key[52] = { 0 };
	struct rte_eth_rss_conf conf = {
		.rss_key = key, .rss_key_len = 41,
		.rss_hf = RTE_ETH_RSS_IPV4,
	};
	struct pair pr;

	REQUIRE(pair_open_conf(&pr, "rssbad", "", "", 2, &rss_conf, test_pool));
	CHECK(rte_eth_dev_rss_hash_update(pr.front, &conf) == -EINVAL);
	conf.rss_key_len = 0;
	CHECK(rte_eth_dev_rss_hash_update(pr.front, &conf) == -EINVAL);
	/* UDP is not a type netif hashes. */
	conf.rss_key_len = 40;
	conf.rss_hf = RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	CHECK(rte_eth_dev_rss_hash_update(pr.front, &conf) == -EINVAL);
	/* The table has 128 entries, each a configured queue. */
	CHECK(rte_eth_dev_rss_reta_update(pr.front, reta, 64) == -EINVAL);
	reta[0].reta[0] = 2;
	CHECK(rte_eth_dev_rss_reta_update(pr.front, reta, 128) == -EINVAL);
	/* Nothing of it reached the backend. */
	conf.rss_key_len = 40;
	CHECK(rte_eth_dev_rss_hash_conf_get(pr.front, &conf) == 0);
	CHECK(conf.rss_hf == (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP) &&
	      memcmp(key, ms_key, 40) == 0);
	/* A netback's hash is its guest's to set. */
	conf.rss_hf = RTE_ETH_RSS_IPV4;
	CHECK(rte_eth_dev_rss_hash_update(pr.back, &conf) == -ENOTSUP);
	reta[0].reta[0] = 0;
	CHECK(rte_eth_dev_rss_reta_update(pr.back, reta, 128) == -ENOTSUP);
	pair_close(&pr);
}

static int
setup(const char *argv0)
{
	memcpy(ms_key, ms_rss_key, sizeof(ms_key));
	return pair_setup(argv0);
}

TEST_MAIN(setup, pair_teardown)
{
	RUN(test_the_applications_hash_reaches_the_backend);
	RUN(test_the_hash_is_configured_again_after_a_reconnect);
	RUN(test_a_table_beyond_the_served_queues_folds);
	RUN(test_what_netif_cannot_carry_is_refused);
}
