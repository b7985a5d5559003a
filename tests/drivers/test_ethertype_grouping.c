/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * EtherType grouping on the receive side of both PMDs, on mixed traffic:
 * IPv4 (with and without options), IPv6 (with and without an extension
 * header), ARP, LLDP, 802.1Q-tagged IPv4, 802.1ad QinQ IPv4, doubly tagged
 * IPv6, LLC/SNAP, a tagged LLC frame and TypeOrLength 1501 and 1535.
 *
 * With every packet already in the ring, each burst must be exactly what
 * the rule gives: a pull of min(burst size, batch) packets, returned as
 * runs of one EtherType that end at an EtherType boundary, the burst size
 * or the end of the pull; a frame without an EtherType alone. Every packet
 * of a run carries the single-EtherType flag and no other packet does;
 * every packet has its packet type; order is kept and nothing is lost,
 * also when more traffic arrives while packets wait in the stash. With
 * grouping off no packet is flagged and bursts are whole pulls. Packet
 * types cleared by the application are left unknown unless grouping.
 */

#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"

#define N 192			/* fits both rings: no pull comes up short */
#define BACK_TX_MAX 64		/* the netback sends at most this per burst */

static uint64_t flag;
/* Packets carry their type: false once the receiver's are cleared. */
static bool typed = true;

/* Send frames [first, first + n); true when all were taken. */
static bool
send_frames(uint16_t port, uint64_t first, unsigned int n)
{
	struct rte_mbuf *pkts[N];
	unsigned int done = 0;

	if (!pair_mixed_frames(test_pool, first, n, pkts))
		return false;
	while (done < n) {
		uint16_t k = rte_eth_tx_burst(port, 0, pkts + done,
					      RTE_MIN(n - done, (unsigned int)BACK_TX_MAX));

		if (k == 0)
			break;
		done += k;
	}
	rte_pktmbuf_free_bulk(pkts + done, n - done);
	return done == n;
}

/* The bursts the rule gives for frames [first, first + n) in the ring. */
static unsigned int
expected_bursts(uint64_t first, unsigned int n, uint16_t nb_pkts,
		uint16_t batch, bool group, uint16_t *sizes)
{
	unsigned int nb = 0, i = 0;

	while (i < n) {
		unsigned int pull = RTE_MIN((unsigned int)RTE_MIN(nb_pkts, batch), n - i);
		unsigned int end = i + pull;

		while (i < end) {
			uint16_t type = mf_info[pair_mixed_kind(first + i)].ethertype;
			unsigned int run = 1;

			if (!group)
				run = pull;
			else if (type != 0)
				while (i + run < end && run < nb_pkts &&
				       mf_info[pair_mixed_kind(first + i + run)].ethertype ==
				       type)
					run++;
			sizes[nb++] = run;
			i += run;
		}
	}
	return nb;
}

/*
 * Receive bursts of @nb_pkts until frames [*next, *next + n) are in,
 * checking each packet; the burst sizes go to @sizes. Returns the number
 * of bursts.
 */
static unsigned int
receive_frames(uint16_t port, uint64_t *next, unsigned int n, uint16_t nb_pkts,
	       bool group, uint16_t *sizes)
{
	struct rte_mbuf *pkts[64];
	uint64_t end = *next + n;
	unsigned int nb = 0, idle = 0;

	while (*next < end && idle < 1000000) {
		uint16_t k = rte_eth_rx_burst(port, 0, pkts, nb_pkts);
		uint16_t type0;

		if (k == 0) {
			idle++;
			continue;
		}
		idle = 0;
		sizes[nb++] = k;
		type0 = mf_info[pair_mixed_kind(*next)].ethertype;
		for (uint16_t i = 0; i < k; i++) {
			const uint8_t *d = rte_pktmbuf_mtod(pkts[i], uint8_t *);
			uint64_t seq = mf_seq(d);
			enum mf_kind kind = pair_mixed_kind(*next);
			bool flagged = (pkts[i]->ol_flags & flag) != 0;

			if (seq != *next) {
				fprintf(stderr, "frame %lu arrived as %lu\n",
					(unsigned long)*next,
					(unsigned long)seq);
				CHECK(seq == *next);
			}
			CHECK(pkts[i]->pkt_len == MF_LEN);
			CHECK(pkts[i]->packet_type ==
			      (typed ? mf_info[kind].ptype :
				       RTE_PTYPE_UNKNOWN));
			CHECK(typed || pkts[i]->l2_len == 0);
			CHECK(flagged == (group && mf_info[kind].ethertype != 0));
			if (group)
				CHECK(mf_info[kind].ethertype == type0 &&
				      (type0 != 0 || k == 1));
			(*next)++;
		}
		rte_pktmbuf_free_bulk(pkts, k);
	}
	CHECK(*next >= end);
	return nb;
}

static void
check_bursts(const char *what, uint16_t port_tx, uint16_t port_rx,
	     uint16_t nb_pkts, uint16_t batch, bool group)
{
	uint16_t want[N], got[N];
	unsigned int nb_want, nb_got;
	uint64_t next = 0;

	REQUIRE(send_frames(port_tx, 0, N));
	nb_want = expected_bursts(0, N, nb_pkts, batch, group, want);
	nb_got = receive_frames(port_rx, &next, N, nb_pkts, group, got);
	CHECK(next == N);
	CHECK(nb_got == nb_want);
	CHECK(memcmp(got, want, RTE_MIN(nb_got, nb_want) * sizeof(got[0])) ==
	      0);
	if (nb_got != nb_want ||
	    memcmp(got, want, nb_got * sizeof(got[0])) != 0) {
		fprintf(stderr, "%s: burst sizes differ from the rule:\n", what);
		for (unsigned int i = 0; i < RTE_MAX(nb_got, nb_want); i++)
			fprintf(stderr, "  %u: got %u want %u\n", i,
				i < nb_got ? got[i] : 0,
				i < nb_want ? want[i] : 0);
	}
}

/* As an application does once the ports are probed. */
static void
look_up_flag(void)
{
	int bit = rte_mbuf_dynflag_lookup("xen_netif_dynflag_single_ethertype",
					  NULL);

	if (bit >= 0)
		flag = RTE_BIT64(bit);
}

static void
each_direction(const char *devargs, uint16_t batch, bool group)
{
	static const uint16_t bursts[] = { 64, 32, 5, 1 };
	struct pair pr;

	REQUIRE(pair_open(&pr, "grp", devargs, devargs, test_pool));
	look_up_flag();
	for (size_t i = 0; i < RTE_DIM(bursts); i++) {
		check_bursts("frontend -> backend", pr.front, pr.back,
			     bursts[i], batch, group);
		check_bursts("backend -> frontend", pr.back, pr.front,
			     bursts[i], batch, group);
	}
	pair_close(&pr);
}

static void
test_grouped_bursts_follow_the_rule_in_both_directions(void)
{
	each_direction("batch=64,group_ethertype=1", 64, true);
	each_direction("batch=16,group_ethertype=1", 16, true);
}

static void
test_default_batch_is_32_when_grouping(void)
{
	each_direction("group_ethertype=1", 32, true);
}

static void
test_without_grouping_nothing_is_flagged(void)
{
	each_direction("batch=64", 64, false);
	each_direction("", 32, false);
}

/* Both ports' packet types cleared, or all asked for again. */
static void
set_ptypes(const struct pair *pr, uint32_t mask)
{
	CHECK(rte_eth_dev_set_ptypes(pr->front, mask, NULL, 0) == 0);
	CHECK(rte_eth_dev_set_ptypes(pr->back, mask, NULL, 0) == 0);
}

/*
 * An application that clears the packet types (as testpmd does) gets
 * packets without them, not walked; one that asks for them again gets
 * them again. Grouping needs them, so a grouping port keeps them. Set
 * while connected, as testpmd does before it starts forwarding.
 */
static void
test_cleared_packet_types_are_not_walked_unless_grouping(void)
{
	struct pair pr;

	REQUIRE(pair_open(&pr, "untyped", "batch=64", "batch=64", test_pool));
	look_up_flag();
	set_ptypes(&pr, RTE_PTYPE_UNKNOWN);
	typed = false;
	check_bursts("frontend -> backend", pr.front, pr.back, 64, 64, false);
	check_bursts("backend -> frontend", pr.back, pr.front, 64, 64, false);
	set_ptypes(&pr, RTE_PTYPE_ALL_MASK);
	typed = true;
	check_bursts("frontend -> backend", pr.front, pr.back, 64, 64, false);
	check_bursts("backend -> frontend", pr.back, pr.front, 64, 64, false);
	pair_close(&pr);

	REQUIRE(pair_open(&pr, "grouped", "batch=64,group_ethertype=1",
			  "batch=64,group_ethertype=1", test_pool));
	set_ptypes(&pr, RTE_PTYPE_UNKNOWN);
	check_bursts("frontend -> backend", pr.front, pr.back, 64, 64, true);
	check_bursts("backend -> frontend", pr.back, pr.front, 64, 64, true);
	pair_close(&pr);
}

/*
 * Packets held in the stash come out before traffic that arrives after
 * them, in both directions.
 */
static void
test_the_stash_survives_across_calls_and_new_traffic(void)
{
	const char *args = "batch=64,group_ethertype=1";
	struct pair pr;
	uint16_t sizes[2 * N];
	int ports[2][2];

	REQUIRE(pair_open(&pr, "stash", args, args, test_pool));
	look_up_flag();
	ports[0][0] = pr.front;
	ports[0][1] = pr.back;
	ports[1][0] = pr.back;
	ports[1][1] = pr.front;
	for (int d = 0; d < 2; d++) {
		uint64_t next = 0;

		REQUIRE(send_frames(ports[d][0], 0, 64));
		/* The first run; the rest of the pull waits in the stash. */
		receive_frames(ports[d][1], &next, 1, 64, true, sizes);
		REQUIRE(send_frames(ports[d][0], 64, N - 64));
		receive_frames(ports[d][1], &next, N - next, 64, true, sizes);
		CHECK(next == N);
	}
	pair_close(&pr);
}

TEST_MAIN(pair_setup, pair_teardown)
{
	RUN(test_grouped_bursts_follow_the_rule_in_both_directions);
	RUN(test_default_batch_is_32_when_grouping);
	RUN(test_without_grouping_nothing_is_flagged);
	RUN(test_the_stash_survives_across_calls_and_new_traffic);
	RUN(test_cleared_packet_types_are_not_walked_unless_grouping);
}
