/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A netfront port closes while the application holds packets it received
 * without a copy, in mbufs on pages the guest grants: the mbufs stay
 * readable, every byte what the backend sent, and freeable on any thread;
 * the pages stay granted until the last one is freed, and are unshared
 * then, with the pool's mempool gone. A port probed again under the same
 * id meanwhile receives without a copy too (its pool is a new one). The
 * port counts the mbufs the application holds (xstat
 * rx_q0_zero_copy_held). Meant to run under AddressSanitizer as well
 * (devtools/sanitize.sh): a read or free of the closed port's memory is a
 * report there, a crash or a wrong byte here.
 */

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "netif_ring.h"
#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "xsim.h"

#define FRONT "net_xen_netfront0"
/* The frontend's domain in a struct pair. */
#define FRONT_DOMID 1
/* Pages of a netfront's zero-copy pool (NF_ZC_PAGES), one queue pair. */
#define POOL_PAGES (2 * NETIF_RX_RING_SIZE)
#define HELD 8

/* Byte @off of held packet @k: its length varies, so does every byte. */
static uint8_t
byte_of(unsigned int k, unsigned int off)
{
	return (uint8_t)(k * 37 + off * 11 + (off >> 8));
}

static uint16_t
len_of(unsigned int k)
{
	return 60 + k * 173;
}

static struct rte_mbuf *
frame_of(unsigned int k)
{
	uint8_t d[RTE_ETHER_MAX_LEN];
	unsigned int i;

	for (i = 0; i < len_of(k); i++)
		d[i] = byte_of(k, i);
	/* Broadcast, from a local address, our EtherType. */
	memset(d, 0xff, 6);
	memset(d + 6, 0x02, 6);
	d[12] = PAIR_ETHERTYPE >> 8;
	d[13] = PAIR_ETHERTYPE & 0xff;
	d[14] = k;
	return pair_frame(test_pool, d, len_of(k));
}

/* Whether @m is frame @k, every byte of it read. */
static bool
is_frame(const struct rte_mbuf *m, unsigned int k)
{
	const struct rte_mbuf *s;
	unsigned int off = 0, i;

	if (m->pkt_len != len_of(k))
		return false;
	for (s = m; s != NULL; s = s->next) {
		const uint8_t *d = rte_pktmbuf_mtod(s, const uint8_t *);

		for (i = 0; i < s->data_len; i++, off++) {
			uint8_t want = off < 6	 ? 0xff :
				       off < 12	 ? 0x02 :
				       off == 12 ? PAIR_ETHERTYPE >> 8 :
				       off == 13 ? (PAIR_ETHERTYPE & 0xff) :
				       off == 14 ? k :
						   byte_of(k, off);

			if (d[i] != want) {
				fprintf(stderr,
					"frame %u: byte %u is %#x, not %#x\n",
					k, off, d[i], want);
				return false;
			}
		}
	}
	return off == len_of(k);
}

/*
 * Send HELD frames from the backend and receive them on the frontend into
 * @held, within 10 s; true if all arrived, in the frontend's zero-copy
 * pool, whose name goes to @pool_name.
 */
static bool
receive_held(const struct pair *pr, struct rte_mbuf **held, char *pool_name)
{
	struct rte_eth_rxq_info qi;
	struct rte_mbuf *out[HELD];
	unsigned int sent = 0, got = 0, k, ms;

	for (k = 0; k < HELD; k++) {
		out[k] = frame_of(k);
		if (out[k] == NULL)
			return false;
	}
	for (ms = 0; ms < 10000 && got < HELD; ms++) {
		if (sent < HELD)
			sent += rte_eth_tx_burst(pr->back, 0, out + sent,
						 HELD - sent);
		got += rte_eth_rx_burst(pr->front, 0, held + got, HELD - got);
		rte_delay_us_sleep(1000);
	}
	rte_pktmbuf_free_bulk(out + sent, HELD - sent);
	if (got < HELD) {
		fprintf(stderr, "%u of %u frames arrived\n", got, HELD);
		rte_pktmbuf_free_bulk(held, got);
		return false;
	}
	if (rte_eth_rx_queue_info_get(pr->front, 0, &qi) != 0 ||
	    qi.mp == NULL || qi.mp == test_pool)
		return false;
	snprintf(pool_name, RTE_MEMPOOL_NAMESIZE, "%s", qi.mp->name);
	for (k = 0; k < HELD; k++)
		if (held[k]->pool != qi.mp) {
			fprintf(stderr,
				"frame %u not received without a copy\n", k);
			return false;
		}
	return true;
}

static uint32_t
grants_of_front(const struct pair *pr)
{
	struct xsim_usage u;

	if (xsim_domain_usage(pr->inst, FRONT_DOMID, &u) != 0)
		return UINT32_MAX;
	return u.grants;
}

static void *
free_on_other_thread(void *m)
{
	rte_pktmbuf_free(m);
	return NULL;
}

static void
test_held_mbufs_outlive_their_closed_port(void)
{
	char pool_name[RTE_MEMPOOL_NAMESIZE];
	struct rte_mbuf *held[HELD];
	struct xsim_usage u;
	struct pair pr;
	pthread_t t;
	unsigned int k;

	REQUIRE(pair_open(&pr, "close", "", "", test_pool));
	REQUIRE(receive_held(&pr, held, pool_name));
	CHECK(pair_xstat(pr.front, "rx_q0_zero_copy_held") == HELD);

	pair_destroy(FRONT, pr.front);
	pr.front = -1;
	/* The pool's pages alone stay granted; nothing else is left. */
	CHECK(grants_of_front(&pr) == POOL_PAGES);
	CHECK(xsim_domain_usage(pr.inst, FRONT_DOMID, &u) == 0 &&
	      u.ports == 0 && u.watches == 0);
	CHECK(rte_mempool_lookup(pool_name) != NULL);

	for (k = 0; k < HELD; k++)
		CHECK(is_frame(held[k], k));
	for (k = 0; k + 1 < HELD; k++)
		rte_pktmbuf_free(held[k]);
	CHECK(grants_of_front(&pr) == POOL_PAGES);
	/* The last one from a thread that is no lcore of EAL's. */
	REQUIRE(pthread_create(&t, NULL, free_on_other_thread,
			       held[HELD - 1]) == 0);
	pthread_join(t, NULL);
	CHECK(grants_of_front(&pr) == 0);
	CHECK(rte_mempool_lookup(pool_name) == NULL);
	pair_close(&pr);
}

static void
test_a_port_probed_again_receives_without_a_copy_while_mbufs_are_held(void)
{
	char pool_name[RTE_MEMPOOL_NAMESIZE], args[160];
	struct rte_mbuf *held[HELD];
	struct pair pr;
	unsigned int k;

	REQUIRE(pair_open(&pr, "again", "", "", test_pool));
	REQUIRE(receive_held(&pr, held, pool_name));
	pair_destroy(FRONT, pr.front);

	snprintf(args, sizeof(args), "domid=%u,provider=sim,sim=%s,queues=1",
		 FRONT_DOMID, pr.inst);
	pr.front = pair_create(FRONT, args, test_pool);
	REQUIRE(pr.front >= 0);
	REQUIRE(pair_wait_link(pr.back, true, 10000) &&
		pair_wait_link(pr.front, true, 10000));
	CHECK(pair_transfer(pr.back, pr.front, test_pool, 0, 1000, 64) == 1000);
	CHECK(pair_xstat(pr.front, "rx_q0_zero_copy_packets") > 0);
	CHECK(pair_xstat(pr.front, "rx_q0_zero_copy_held") == 0);
	/* Both pools' pages are granted now. */
	CHECK(grants_of_front(&pr) > POOL_PAGES);

	for (k = 0; k < HELD; k++) {
		CHECK(is_frame(held[k], k));
		rte_pktmbuf_free(held[k]);
	}
	CHECK(rte_mempool_lookup(pool_name) == NULL);
	pair_destroy(FRONT, pr.front);
	pr.front = -1;
	CHECK(grants_of_front(&pr) == 0);
	pair_close(&pr);
}

TEST_MAIN(pair_setup, pair_teardown)
{
	RUN(test_held_mbufs_outlive_their_closed_port);
	RUN(test_a_port_probed_again_receives_without_a_copy_while_mbufs_are_held);
}
