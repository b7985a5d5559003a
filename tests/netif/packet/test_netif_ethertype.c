/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The EtherType of a received frame is read after up to two VLAN tags;
 * TypeOrLength values below 0x0600 (LLC/SNAP lengths and the undefined
 * 1501-1535) and frames too short to hold one give no EtherType; every
 * kind of mixed frame gets its L2, L3 and L4 packet type (the walk's rules
 * in detail: test_netif_l2.c), every packet type given is in the
 * advertised list, and a stale one is replaced; packets classify alike
 * when their headers span segments; and the EtherType read back from a
 * classified packet (what grouping uses) is always the walk's.
 */

#include <stdbool.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_pmd_xen_netif.h>

#include "mixed_frames.h"
#include "netif_l2.h"
#include "netif_rx_group.h"
#include "test.h"
#include "test_eal.h"

/* The packet type of the @len-byte frame @frame; its EtherType in @type. */
static uint32_t
classify(const uint8_t *frame, uint32_t len, uint16_t *type)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);
	uint32_t ptype;

	if (m == NULL) {
		*type = 0xbad;
		return UINT32_MAX;
	}
	memcpy(rte_pktmbuf_append(m, len), frame, len);
	*type = netif_l2_classify(m);
	/* What grouping reads later, without a second walk, agrees. */
	CHECK(netif_l2_ethertype(m) == *type);
	ptype = m->packet_type;
	rte_pktmbuf_free(m);
	return ptype;
}

static bool
advertised(uint32_t ptype)
{
	const uint32_t *p;
	uint32_t l2 = ptype & RTE_PTYPE_L2_MASK, l3 = ptype & RTE_PTYPE_L3_MASK;
	uint32_t l4 = ptype & RTE_PTYPE_L4_MASK;
	bool l2_ok = l2 == 0, l3_ok = l3 == 0, l4_ok = l4 == 0;

	for (p = netif_l2_ptypes(); *p != RTE_PTYPE_UNKNOWN; p++) {
		l2_ok |= *p == l2;
		l3_ok |= *p == l3;
		l4_ok |= *p == l4;
	}
	return l2_ok && l3_ok && l4_ok &&
	       (ptype & ~(RTE_PTYPE_L2_MASK | RTE_PTYPE_L3_MASK |
			  RTE_PTYPE_L4_MASK)) == 0;
}

static void
test_every_kind_gets_its_ethertype_and_packet_type(void)
{
	uint8_t frame[MF_LEN];

	for (int k = 0; k < MF_NB; k++) {
		uint16_t type = 0xffff;
		uint32_t ptype;

		mf_build(frame, k, k);
		ptype = classify(frame, MF_LEN, &type);
		if (type != mf_info[k].ethertype || ptype != mf_info[k].ptype)
			fprintf(stderr, "%s: type %#x ptype %#x\n",
				mf_info[k].name, type, ptype);
		CHECK(type == mf_info[k].ethertype);
		CHECK(ptype == mf_info[k].ptype);
		CHECK(advertised(ptype));
	}
}

static uint16_t
type_of(uint16_t tol)
{
	uint8_t frame[64] = { 0 };
	uint16_t type;

	frame[12] = tol >> 8;
	frame[13] = tol & 0xff;
	classify(frame, sizeof(frame), &type);
	return type;
}

static void
test_typeorlength_below_0x0600_is_no_ethertype(void)
{
	CHECK(type_of(0) == NETIF_ETHERTYPE_NONE);
	CHECK(type_of(46) == NETIF_ETHERTYPE_NONE);
	CHECK(type_of(1500) == NETIF_ETHERTYPE_NONE);
	CHECK(type_of(1501) == NETIF_ETHERTYPE_NONE);
	CHECK(type_of(1535) == NETIF_ETHERTYPE_NONE);
	CHECK(type_of(0x05ff) == NETIF_ETHERTYPE_NONE);
	CHECK(type_of(0x0600) == 0x0600);
	CHECK(type_of(0xffff) == 0xffff);
}

static void
test_short_frames_have_no_ethertype(void)
{
	uint8_t frame[MF_LEN];
	uint16_t type;

	mf_build(frame, MF_IPV4, 0);
	CHECK(classify(frame, 13, &type) == RTE_PTYPE_UNKNOWN);
	CHECK(type == NETIF_ETHERTYPE_NONE);
	CHECK(classify(frame, 0, &type) == RTE_PTYPE_UNKNOWN);
	/* The type is there, the IPv4 header is not: no L3 type. */
	CHECK(classify(frame, 14 + 19, &type) ==
	      RTE_PTYPE_L2_ETHER);
	CHECK(type == 0x0800);
	mf_build(frame, MF_VLAN_IPV4, 0);
	CHECK(classify(frame, 17, &type) ==
	      RTE_PTYPE_L2_ETHER_VLAN);
	CHECK(type == NETIF_ETHERTYPE_NONE);
	mf_build(frame, MF_QINQ_IPV4, 0);
	CHECK(classify(frame, 21, &type) ==
	      RTE_PTYPE_L2_ETHER_QINQ);
	CHECK(type == NETIF_ETHERTYPE_NONE);
	CHECK(classify(frame, 22, &type) ==
	      RTE_PTYPE_L2_ETHER_QINQ);
	CHECK(type == 0x0800);
}

static void
test_only_two_tags_are_skipped(void)
{
	uint8_t frame[MF_LEN];
	uint16_t type;

	mf_build(frame, MF_QINQ_IPV4, 0);
	/* A third tag: its TPID is the EtherType after two. */
	frame[20] = 0x81;
	frame[21] = 0x00;
	CHECK(classify(frame, MF_LEN, &type) ==
	      RTE_PTYPE_L2_ETHER_QINQ);
	CHECK(type == 0x8100);
}

static void
test_ip_version_must_match_the_ethertype(void)
{
	uint8_t frame[MF_LEN];
	uint16_t type;

	mf_build(frame, MF_IPV4, 0);
	frame[14] = 0x65;
	CHECK(classify(frame, MF_LEN, &type) ==
	      RTE_PTYPE_L2_ETHER);
	frame[14] = 0x44;		/* IHL below the minimum */
	CHECK(classify(frame, MF_LEN, &type) ==
	      RTE_PTYPE_L2_ETHER);
	mf_build(frame, MF_IPV6, 0);
	frame[14] = 0x45;
	CHECK(classify(frame, MF_LEN, &type) ==
	      RTE_PTYPE_L2_ETHER);
	CHECK(type == 0x86dd);
}

/* Frame @k in a chain of @seg-byte segments. */
static struct rte_mbuf *
chained(enum mf_kind k, uint16_t seg)
{
	uint8_t frame[MF_LEN];
	struct rte_mbuf *head = NULL;

	mf_build(frame, k, 7);
	for (uint16_t off = 0; off < MF_LEN; off += seg) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);
		uint16_t n = RTE_MIN(seg, (uint16_t)(MF_LEN - off));

		if (m == NULL)
			return NULL;
		memcpy(rte_pktmbuf_append(m, n), frame + off, n);
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0)
			return NULL;
	}
	return head;
}

static void
test_mbuf_headers_may_span_segments(void)
{
	for (int k = 0; k < MF_NB; k++) {
		for (uint16_t seg = 5; seg <= MF_LEN; seg += 41) {
			struct rte_mbuf *m = chained(k, seg);

			REQUIRE(m != NULL);
			m->packet_type = RTE_PTYPE_TUNNEL_GRE;	/* stale */
			CHECK(netif_l2_classify(m) == mf_info[k].ethertype);
			CHECK(m->packet_type == mf_info[k].ptype);
			rte_pktmbuf_free(m);
		}
	}
}

static void
test_the_flag_is_registered_once_by_name(void)
{
	uint64_t mask = netif_single_ethertype_flag();
	int bit = rte_mbuf_dynflag_lookup(
		RTE_PMD_XEN_NETIF_DYNFLAG_SINGLE_ETHERTYPE, NULL);

	CHECK(mask != 0);
	CHECK(bit >= 0 && mask == RTE_BIT64(bit));
	CHECK(netif_single_ethertype_flag() == mask);
}

TEST_MAIN(test_eal_pool_setup, test_eal_teardown)
{
	RUN(test_every_kind_gets_its_ethertype_and_packet_type);
	RUN(test_typeorlength_below_0x0600_is_no_ethertype);
	RUN(test_short_frames_have_no_ethertype);
	RUN(test_only_two_tags_are_skipped);
	RUN(test_ip_version_must_match_the_ethertype);
	RUN(test_mbuf_headers_may_span_segments);
	RUN(test_the_flag_is_registered_once_by_name);
}
