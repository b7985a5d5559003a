/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * End to end in one process: a netback port and a netfront port over one
 * simulator instance pass at least a million packets each way, of every
 * length from 60 to 9000 bytes (up to three slots), with every byte and
 * the order checked and nothing lost, and the counters agree. Our two
 * PMDs use static grants: the backend maps the frontend's buffer pages
 * once and copies every packet without a grant copy; with
 * static_grants=0 on the frontend it grant-copies, one call per burst. The
 * netfront receives into mbufs on pages it grants; an application that
 * holds all of them stalls the queue until it frees them, losing nothing,
 * and sends mbufs of that pool from their own pages. With zero_copy=1 the
 * backend lends the mapped pages to the application instead of copying;
 * with tx_map_min= it maps a guest's long packets for it to lend them.
 * Afterwards each port's private dump describes its end and its rings.
 * XEN_TEST_PACKETS overrides the count (for slow sanitizer builds).
 */

/* rte_eth_dev_priv_dump() is experimental in DPDK 22.11. */
#define ALLOW_EXPERIMENTAL_API

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include "netif_ring.h"
#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "xsim.h"

static int back, front;
static uint64_t packets = 1000000;

static uint64_t
xstat_of(int port, const char *q, const char *what)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_%s", q, what);
	return pair_xstat(port, name);
}

/*
 * One grant-copy call per burst: fewer calls than packets, at least one
 * segment per packet; at most one notification per burst, and a polling
 * frontend never asks for more than the first one.
 */
static void
check_batching(int port, const char *q, uint64_t n)
{
	uint64_t calls = xstat_of(port, q, "grant_copy_calls");
	uint64_t ops = xstat_of(port, q, "grant_copy_ops");

	CHECK(xstat_of(port, q, "malformed_requests") == 0);
	CHECK(calls != UINT64_MAX && calls > 0 && calls < n);
	CHECK(ops >= n);
	CHECK(xstat_of(port, q, "notifications_sent") <= calls);
	CHECK(xstat_of(port, q, "static_packets") == 0);
}

/* Static grants: every packet copied from or to a mapped page, no call. */
static void
check_static(const char *q)
{
	CHECK(xstat_of(back, q, "malformed_requests") == 0);
	CHECK(xstat_of(back, q, "grant_copy_calls") == 0);
	CHECK(xstat_of(back, q, "grant_copy_ops") == 0);
	CHECK(xstat_of(back, q, "static_packets") == packets);
	CHECK(xstat_of(back, q, "notifications_sent") < packets);
	CHECK(pair_xstat(back, "rx_q0_static_grants") == PAIR_STATIC_GRANTS);
	CHECK(pair_xstat(front, "rx_q0_static_grants") == PAIR_STATIC_GRANTS);
}

static void
test_link_comes_up_on_both_ends(void)
{
	CHECK(pair_wait_link(back, true, 10000));
	CHECK(pair_wait_link(front, true, 10000));
	/*
	 * Static grants: one map call per list page and access mode (TX
	 * pages read-only, then the pool's writable), nothing unmapped.
	 */
	CHECK(pair_xstat_settled(back, "rx_q0_static_grant_maps", 3, 5000) ==
	      3);
	CHECK(pair_xstat(back, "rx_q0_static_grant_unmaps") == 0);
}

static void
test_frontend_to_backend_loses_nothing(void)
{
	struct rte_eth_stats fs, bs;

	rte_eth_stats_reset(front);
	rte_eth_stats_reset(back);
	CHECK(pair_transfer(front, back, test_pool, 0, packets, 128) ==
	      packets);
	REQUIRE(rte_eth_stats_get(front, &fs) == 0);
	REQUIRE(rte_eth_stats_get(back, &bs) == 0);
	CHECK(fs.opackets == packets && bs.ipackets == packets);
	CHECK(fs.obytes == bs.ibytes);
	CHECK(bs.ierrors == 0 && fs.oerrors == 0);
	check_static("rx_q0");
}

static void
test_backend_to_frontend_loses_nothing(void)
{
	struct rte_eth_stats fs, bs;

	rte_eth_stats_reset(front);
	rte_eth_stats_reset(back);
	CHECK(pair_transfer(back, front, test_pool, 0, packets, 128) ==
	      packets);
	REQUIRE(rte_eth_stats_get(front, &fs) == 0);
	REQUIRE(rte_eth_stats_get(back, &bs) == 0);
	CHECK(bs.opackets == packets && fs.ipackets == packets);
	CHECK(bs.obytes == fs.ibytes);
	check_static("tx_q0");
	/* Received in the mbufs the backend wrote into. */
	CHECK(pair_xstat(front, "rx_q0_zero_copy_packets") == packets);
}

/* A frontend that asks for no static grants: grant copies, batched. */
/* The value of "<key>: " in @text from @from on, or -1. */
static long long
dumped(const char *text, const char *from, const char *key)
{
	const char *at = strstr(text, from);
	char pattern[64];

	snprintf(pattern, sizeof(pattern), "\n  %s: ", key);
	at = at == NULL ? NULL : strstr(at, pattern);
	return at == NULL ? -1 : atoll(at + strlen(pattern));
}

/*
 * The private dump (rte_eth_dev_priv_dump) describes both ends: roles,
 * peers, Connected states, and rings that, after the transfers, have
 * every request the backend took answered and published.
 */
static void
test_private_dump_describes_both_ends(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	REQUIRE(f != NULL);
	CHECK(rte_eth_dev_priv_dump(back, f) == 0);
	fputs("-- front\n", f);
	CHECK(rte_eth_dev_priv_dump(front, f) == 0);
	fclose(f);
	for (const char *l = text; *l != '\0'; l = strchr(l, '\n') + 1)
		printf("# %.*s\n", (int)strcspn(l, "\n"), l);
	CHECK(strstr(text, "role: backend\nguest_domid: 1\n") != NULL);
	CHECK(strstr(text, "\nstate: Connected\nfrontend_state: Connected\n") !=
	      NULL);
	CHECK(strstr(text, "\nrxq0:\n  ring: guest TX, backend end\n") != NULL);
	CHECK(dumped(text, "\nrxq0:", "req_cons") > 0);
	CHECK(dumped(text, "\nrxq0:", "req_cons") ==
	      dumped(text, "\nrxq0:", "rsp_prod_pvt"));
	CHECK(dumped(text, "\nrxq0:", "rsp_prod") ==
	      dumped(text, "\nrxq0:", "rsp_prod_pvt"));
	CHECK(dumped(text, "\ntxq0:", "requests_unconsumed") >= 0 &&
	      dumped(text, "\ntxq0:", "requests_unconsumed") <=
	      (long long)NETIF_RX_RING_SIZE);
	CHECK(strstr(text, "-- front\n") != NULL &&
	      strstr(strstr(text, "-- front\n"), "role: frontend\n") != NULL);
	CHECK(strstr(text, "backend_state: Connected\n") != NULL);
	CHECK(dumped(text, "-- front", "rsp_cons") > 0);
	free(text);
}

static void
test_without_static_grants_the_backend_grant_copies(void)
{
	uint64_t n = packets / 10;
	char inst[64], args[160];
	int b, f;

	snprintf(inst, sizeof(inst), "%s-copy", pair_sim_instance());
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s", inst);
	b = pair_create("net_xen_netback1", args, test_pool);
	snprintf(args, sizeof(args),
		 "domid=1,provider=sim,sim=%s,static_grants=0", inst);
	f = pair_create("net_xen_netfront1", args, test_pool);
	REQUIRE(b >= 0 && f >= 0);
	REQUIRE(pair_wait_link(b, true, 10000) &&
		pair_wait_link(f, true, 10000));
	CHECK(pair_transfer(f, b, test_pool, 0, n, 128) == n);
	CHECK(pair_transfer(b, f, test_pool, 0, n, 128) == n);
	check_batching(b, "rx_q0", n);
	check_batching(b, "tx_q0", n);
	CHECK(pair_xstat(b, "rx_q0_static_grants") == 0);
	CHECK(pair_xstat(f, "rx_q0_static_grants") == 0);
	pair_destroy("net_xen_netfront1", f);
	pair_destroy("net_xen_netback1", b);
	xsim_instance_destroy(inst);
}

/*
 * The netfront's receive pool, as ethdev reports it: mbufs from it (as an
 * application allocates them, or as it forwards what it received) are sent
 * from their own pages, without a copy; mbufs of another pool are copied.
 */
static void
test_mbufs_of_the_granted_pool_are_sent_without_a_copy(void)
{
	uint8_t frame[PAIR_MIN_LEN] = { [12] = 0x88, [13] = 0xb5 };
	struct rte_eth_rxq_info qi;
	uint64_t n = 20000, zc, copied;
	struct rte_mbuf *pkts[32];
	uint16_t got, sent;

	REQUIRE(rte_eth_rx_queue_info_get(front, 0, &qi) == 0);
	CHECK(qi.mp != NULL && qi.mp != test_pool);
	zc = pair_xstat(front, "tx_q0_zero_copy_packets");
	/* Every length up to 9000 B, chains of the pool's 4 KiB mbufs. */
	CHECK(pair_transfer(front, back, qi.mp, 0, n, 32) == n);
	CHECK(pair_xstat(front, "tx_q0_zero_copy_packets") == zc + n);
	/* Forwarded as received: back to the backend from the Rx queue. */
	CHECK(pair_transfer(back, front, test_pool, 0, 1, 1) == 1);
	copied = pair_xstat(front, "tx_q0_zero_copy_packets");
	pkts[0] = pair_frame(test_pool, frame, sizeof(frame));
	REQUIRE(pkts[0] != NULL);
	REQUIRE(rte_eth_tx_burst(back, 0, pkts, 1) == 1);
	got = 0;
	for (unsigned int ms = 0; ms < 5000 && got == 0; ms++) {
		got = rte_eth_rx_burst(front, 0, pkts, 1);
		rte_delay_us_sleep(got == 0 ? 1000 : 0);
	}
	REQUIRE(got == 1);
	CHECK(pkts[0]->pool == qi.mp);
	sent = rte_eth_tx_burst(front, 0, pkts, 1);
	CHECK(sent == 1);
	got = 0;
	for (unsigned int ms = 0; ms < 5000 && got == 0; ms++) {
		rte_eth_tx_burst(front, 0, pkts, 0);	/* collect answers */
		got = rte_eth_rx_burst(back, 0, pkts, 1);
		rte_delay_us_sleep(got == 0 ? 1000 : 0);
	}
	CHECK(got == 1 && pkts[0]->pkt_len == 60);
	if (got == 1)
		rte_pktmbuf_free(pkts[0]);
	CHECK(pair_xstat(front, "tx_q0_zero_copy_packets") == copied + 1);
	/* An mbuf of another pool is copied. */
	CHECK(pair_transfer(front, back, test_pool, 0, 100, 32) == 100);
	CHECK(pair_xstat(front, "tx_q0_zero_copy_packets") == copied + 1);
}

/*
 * The netfront receives into its granted pool's mbufs: an application
 * that holds every one of them stalls the queue (counted, nothing lost),
 * and frees them to resume it.
 */
static void
test_application_holding_every_buffer_stalls_then_resumes(void)
{
	static struct rte_mbuf *held[PAIR_STATIC_GRANTS];
	uint8_t frame[PAIR_MIN_LEN] = { [12] = 0x88, [13] = 0xb5 };
	uint64_t sent = 0, got = 0, idle = 0;
	unsigned int n_held = 0;
	struct rte_mbuf *m;
	uint16_t n;

	rte_eth_xstats_reset(back);
	rte_eth_xstats_reset(front);
	for (unsigned int ms = 0; ms < 2000; ms++) {
		for (unsigned int i = 0; i < 32; i++) {
			m = pair_frame(test_pool, frame, sizeof(frame));
			if (m == NULL)
				break;
			if (rte_eth_tx_burst(back, 0, &m, 1) == 0) {
				rte_pktmbuf_free(m);
				break;
			}
			sent++;
		}
		n = rte_eth_rx_burst(front, 0, &held[n_held],
				     RTE_DIM(held) - n_held);
		n_held += n;
		rte_delay_us_sleep(n == 0 ? 1000 : 0);
	}
	/* Every buffer of the pool held: nothing more could be posted. */
	CHECK(n_held > 0 && n_held < RTE_DIM(held));
	CHECK(pair_xstat(front, "rx_q0_zero_copy_post_short") > 0);
	CHECK(pair_xstat(back, "tx_q0_ring_full") > 0);
	rte_pktmbuf_free_bulk(held, n_held);
	got = n_held;
	/* Freed: the rest arrives, none lost. */
	while (got < sent && idle < 2000) {
		n = rte_eth_rx_burst(front, 0, held, 32);
		rte_pktmbuf_free_bulk(held, n);
		got += n;
		idle = n == 0 ? idle + 1 : 0;
		rte_delay_us_sleep(n == 0 ? 1000 : 0);
	}
	CHECK(got == sent);
	CHECK(pair_transfer(back, front, test_pool, 0, 10000, 128) == 10000);
}

/*
 * zero_copy=1 on the backend: what static grants hold is lent to the
 * application (frames of NETIF_LEND_STATIC_MIN_LEN bytes and more), every
 * byte as sent, answered as the application frees it. A port closed while
 * the application still holds lent packets leaves them readable and is
 * freed with the last of them.
 */
static void
test_the_backend_lends_what_static_grants_hold(void)
{
	uint64_t n = packets / 10;
	char inst[64], args[160];
	struct rte_mbuf *held[8];
	uint16_t got = 0;
	int b, f;

	snprintf(inst, sizeof(inst), "%s-lend", pair_sim_instance());
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s,zero_copy=1",
		 inst);
	b = pair_create("net_xen_netback2", args, test_pool);
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s", inst);
	f = pair_create("net_xen_netfront2", args, test_pool);
	REQUIRE(b >= 0 && f >= 0);
	REQUIRE(pair_wait_link(b, true, 10000) &&
		pair_wait_link(f, true, 10000));
	/* The link may come up before the static grants are confirmed. */
	for (unsigned int ms = 0; ms < 10000 &&
	     pair_xstat(f, "rx_q0_static_grants") != PAIR_STATIC_GRANTS; ms++)
		rte_delay_us_sleep(1000);
	CHECK(pair_transfer(f, b, test_pool, 0, n, 128) == n);
	CHECK(xstat_of(b, "rx_q0", "grant_copy_calls") == 0);
	CHECK(xstat_of(b, "rx_q0", "packets") == n);
	CHECK(xstat_of(b, "rx_q0", "static_packets") == n);
	/* Every length from 60 to 9000 B: most are long enough to lend. */
	CHECK(xstat_of(b, "rx_q0", "zero_copy_packets") > n / 2);
	CHECK(xstat_of(b, "rx_q0", "zero_copy_packets") < n);
	/* The frontend got every answer: a full transfer again. */
	CHECK(pair_transfer(f, b, test_pool, 0, 1000, 32) == 1000);
	/* Held across the close of both ports, then freed. */
	uint8_t frame[1500] = { [12] = 0x88, [13] = 0xb5, [1499] = 0x5a };
	struct rte_mbuf *m = pair_frame(test_pool, frame, sizeof(frame));

	REQUIRE(m != NULL && rte_eth_tx_burst(f, 0, &m, 1) == 1);
	for (unsigned int ms = 0; ms < 5000 && got == 0; ms++) {
		got = rte_eth_rx_burst(b, 0, held, RTE_DIM(held));
		rte_delay_us_sleep(got == 0 ? 1000 : 0);
	}
	REQUIRE(got == 1);
	CHECK(RTE_MBUF_HAS_EXTBUF(held[0]->next));
	CHECK(xstat_of(b, "rx_q0", "zero_copy_slots") == 1);
	pair_destroy("net_xen_netfront2", f);
	pair_destroy("net_xen_netback2", b);
	CHECK(*rte_pktmbuf_mtod_offset(held[0]->next, uint8_t *,
				       held[0]->next->data_len - 1) == 0x5a);
	rte_pktmbuf_free(held[0]);
	xsim_instance_destroy(inst);
}

/*
 * tx_map_min on the backend, static_grants=0 on the frontend (a stock
 * guest's way): packets of tx_map_min bytes and more are grant-mapped and
 * lent, every byte as sent, answered and unmapped as the application frees
 * them. A port closed while the application holds one leaves it readable;
 * its mapping goes with its free.
 */
static void
test_the_backend_maps_long_packets_of_a_guest_without_static_grants(void)
{
	uint64_t n = packets / 10;
	uint8_t frame[1500] = { [12] = 0x88, [13] = 0xb5, [1499] = 0x5a };
	char inst[64], args[160];
	struct xsim_usage usage;
	struct rte_mbuf *held[8], *m;
	uint16_t got = 0;
	int b, f;

	snprintf(inst, sizeof(inst), "%s-map", pair_sim_instance());
	snprintf(args, sizeof(args),
		 "domid=1,provider=sim,sim=%s,tx_map_min=1000", inst);
	b = pair_create("net_xen_netback3", args, test_pool);
	snprintf(args, sizeof(args),
		 "domid=1,provider=sim,sim=%s,static_grants=0", inst);
	f = pair_create("net_xen_netfront3", args, test_pool);
	REQUIRE(b >= 0 && f >= 0);
	REQUIRE(pair_wait_link(b, true, 10000) &&
		pair_wait_link(f, true, 10000));
	CHECK(pair_transfer(f, b, test_pool, 0, n, 128) == n);
	CHECK(xstat_of(b, "rx_q0", "packets") == n);
	/* Every length from 60 to 9000 B: most are long enough to map. */
	CHECK(xstat_of(b, "rx_q0", "map_packets") > n / 2);
	CHECK(xstat_of(b, "rx_q0", "map_packets") < n);
	CHECK(xstat_of(b, "rx_q0", "map_failed") == 0);
	CHECK(xstat_of(b, "rx_q0", "zero_copy_packets") ==
	      xstat_of(b, "rx_q0", "map_packets"));
	/* The frontend got every answer: a full transfer again. */
	CHECK(pair_transfer(f, b, test_pool, 0, 1000, 32) == 1000);
	m = pair_frame(test_pool, frame, sizeof(frame));
	REQUIRE(m != NULL && rte_eth_tx_burst(f, 0, &m, 1) == 1);
	for (unsigned int ms = 0; ms < 5000 && got == 0; ms++) {
		got = rte_eth_rx_burst(b, 0, held, RTE_DIM(held));
		rte_delay_us_sleep(got == 0 ? 1000 : 0);
	}
	REQUIRE(got == 1);
	CHECK(RTE_MBUF_HAS_EXTBUF(held[0]->next));
	/* Its pull's mapping, its alone, is the one left. */
	CHECK(xstat_of(b, "rx_q0", "unmaps") + 1 ==
	      xstat_of(b, "rx_q0", "map_calls"));
	pair_destroy("net_xen_netfront3", f);
	pair_destroy("net_xen_netback3", b);
	CHECK(*rte_pktmbuf_mtod_offset(held[0]->next, uint8_t *,
				       held[0]->next->data_len - 1) == 0x5a);
	CHECK(xsim_domain_usage(inst, 0, &usage) == 0 && usage.maps == 1);
	rte_pktmbuf_free(held[0]);
	CHECK(xsim_domain_usage(inst, 0, &usage) == 0 && usage.maps == 0);
	xsim_instance_destroy(inst);
}

/*
 * A mapped packet sent back out to a guest (as testpmd io forwards one
 * guest's to another): Xen refuses a grant copy from a page Dom0 maps
 * from a guest, so the backend copies from the guest's grant itself, as
 * Linux netback does, and every byte arrives.
 */
static void
test_a_mapped_packet_forwarded_to_a_guest_arrives_whole(void)
{
	static uint8_t frame[2000];
	struct rte_mbuf *m, *got[8];
	char inst[64], args[160];
	unsigned int i, sent = 0, back = 0, ok = 0, idle = 0;
	uint16_t n, k;
	int b, f;

	for (i = 0; i < sizeof(frame); i++)
		frame[i] = (uint8_t)(i * 31 + 7);
	frame[12] = 0x88;
	frame[13] = 0xb5;
	snprintf(inst, sizeof(inst), "%s-fwd", pair_sim_instance());
	snprintf(args, sizeof(args),
		 "domid=1,provider=sim,sim=%s,tx_map_min=1000", inst);
	b = pair_create("net_xen_netback4", args, test_pool);
	snprintf(args, sizeof(args),
		 "domid=1,provider=sim,sim=%s,static_grants=0", inst);
	f = pair_create("net_xen_netfront4", args, test_pool);
	REQUIRE(b >= 0 && f >= 0);
	REQUIRE(pair_wait_link(b, true, 10000) &&
		pair_wait_link(f, true, 10000));
	while (back < 200 && idle < 5000) {
		if (sent < 200) {
			m = pair_frame(test_pool, frame, sizeof(frame));
			REQUIRE(m != NULL);
			if (rte_eth_tx_burst(f, 0, &m, 1) == 1)
				sent++;
			else
				rte_pktmbuf_free(m);
		}
		n = rte_eth_rx_burst(b, 0, got, RTE_DIM(got));
		k = rte_eth_tx_burst(b, 0, got, n);
		rte_pktmbuf_free_bulk(&got[k], n - k);
		n = rte_eth_rx_burst(f, 0, got, RTE_DIM(got));
		for (i = 0; i < n; i++) {
			uint8_t copy[sizeof(frame)];

			ok += got[i]->pkt_len == sizeof(frame) &&
			      memcmp(rte_pktmbuf_read(got[i], 0, sizeof(frame),
						      copy),
				     frame, sizeof(frame)) == 0;
		}
		rte_pktmbuf_free_bulk(got, n);
		back += n;
		idle = n == 0 ? idle + 1 : 0;
		rte_delay_us_sleep(n == 0 ? 100 : 0);
	}
	CHECK(back == 200 && ok == 200);
	CHECK(xstat_of(b, "rx_q0", "map_packets") == 200);
	CHECK(xstat_of(b, "tx_q0", "drop_copy_failed") == 0);
	pair_destroy("net_xen_netfront4", f);
	pair_destroy("net_xen_netback4", b);
	xsim_instance_destroy(inst);
}

/*
 * tx_map_hold_ms: a mapped packet the application holds longer is let go
 * while it still holds it: copied where it lies, the guest's pages
 * unmapped and its request answered; sent on to the guest later, it is
 * copied from our copy and arrives whole.
 */
static void
test_a_mapped_packet_held_past_tx_map_hold_ms_is_let_go(void)
{
	static uint8_t frame[1500];
	struct rte_mbuf *m, *held = NULL, *got[8];
	char inst[64], args[160];
	struct xsim_usage usage;
	uint8_t copy[sizeof(frame)];
	unsigned int i, ms, rings;
	uint16_t n = 0;
	int b, f;

	for (i = 0; i < sizeof(frame); i++)
		frame[i] = (uint8_t)(i * 13 + 1);
	frame[12] = 0x88;
	frame[13] = 0xb5;
	snprintf(inst, sizeof(inst), "%s-hold", pair_sim_instance());
	snprintf(args, sizeof(args),
		 "domid=1,provider=sim,sim=%s,tx_map_min=1000,tx_map_hold_ms=1",
		 inst);
	b = pair_create("net_xen_netback5", args, test_pool);
	snprintf(args, sizeof(args),
		 "domid=1,provider=sim,sim=%s,static_grants=0", inst);
	f = pair_create("net_xen_netfront5", args, test_pool);
	REQUIRE(b >= 0 && f >= 0);
	REQUIRE(pair_wait_link(b, true, 10000) &&
		pair_wait_link(f, true, 10000));
	/* The backend's mappings of the rings: all it maps but packets. */
	REQUIRE(xsim_domain_usage(inst, 0, &usage) == 0);
	rings = usage.maps;
	m = pair_frame(test_pool, frame, sizeof(frame));
	REQUIRE(m != NULL && rte_eth_tx_burst(f, 0, &m, 1) == 1);
	for (ms = 0; ms < 5000 && held == NULL; ms++) {
		if (rte_eth_rx_burst(b, 0, &held, 1) == 0)
			rte_delay_us_sleep(1000);
	}
	REQUIRE(held != NULL);
	CHECK(xstat_of(b, "rx_q0", "map_packets") == 1);
	CHECK(xsim_domain_usage(inst, 0, &usage) == 0 &&
	      usage.maps == rings + 1);
	/* The queue's pulls let it go once it has been held 1 ms. */
	for (ms = 0; ms < 5000 && xstat_of(b, "rx_q0", "map_expired") == 0;
	     ms++) {
		CHECK(rte_eth_rx_burst(b, 0, got, RTE_DIM(got)) == 0);
		rte_delay_us_sleep(1000);
	}
	CHECK(xstat_of(b, "rx_q0", "map_expired") == 1);
	CHECK(xstat_of(b, "rx_q0", "zero_copy_slots") == 0);
	CHECK(xsim_domain_usage(inst, 0, &usage) == 0 && usage.maps == rings);
	CHECK(held->pkt_len == sizeof(frame) &&
	      memcmp(rte_pktmbuf_read(held, 0, sizeof(frame), copy), frame,
		     sizeof(frame)) == 0);
	REQUIRE(rte_eth_tx_burst(b, 0, &held, 1) == 1);
	for (ms = 0; ms < 5000 && n == 0; ms++) {
		n = rte_eth_rx_burst(f, 0, got, RTE_DIM(got));
		rte_delay_us_sleep(n == 0 ? 1000 : 0);
	}
	CHECK(n == 1 && got[0]->pkt_len == sizeof(frame) &&
	      memcmp(rte_pktmbuf_read(got[0], 0, sizeof(frame), copy), frame,
		     sizeof(frame)) == 0);
	rte_pktmbuf_free_bulk(got, n);
	CHECK(xstat_of(b, "tx_q0", "drop_copy_failed") == 0);
	pair_destroy("net_xen_netfront5", f);
	pair_destroy("net_xen_netback5", b);
	xsim_instance_destroy(inst);
}

/* Both ends connected; XEN_TEST_PACKETS packets a direction if set. */
static int
setup(const char *argv0)
{
	const char *env = getenv("XEN_TEST_PACKETS");
	char args[128];

	if (env != NULL)
		packets = strtoull(env, NULL, 0);
	if (pair_setup(argv0) != 0)
		return -1;
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s",
		 pair_sim_instance());
	back = pair_create("net_xen_netback0", args, test_pool);
	front = pair_create("net_xen_netfront0", args, test_pool);
	return back < 0 || front < 0 ? -1 : 0;
}

static void
teardown(void)
{
	pair_destroy("net_xen_netfront0", front);
	pair_destroy("net_xen_netback0", back);
	pair_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_link_comes_up_on_both_ends);
	RUN(test_frontend_to_backend_loses_nothing);
	RUN(test_backend_to_frontend_loses_nothing);
	RUN(test_private_dump_describes_both_ends);
	RUN(test_mbufs_of_the_granted_pool_are_sent_without_a_copy);
	RUN(test_application_holding_every_buffer_stalls_then_resumes);
	RUN(test_without_static_grants_the_backend_grant_copies);
	RUN(test_the_backend_lends_what_static_grants_hold);
	RUN(test_the_backend_maps_long_packets_of_a_guest_without_static_grants);
	RUN(test_a_mapped_packet_forwarded_to_a_guest_arrives_whole);
	RUN(test_a_mapped_packet_held_past_tx_map_hold_ms_is_let_go);
}
