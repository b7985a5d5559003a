/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The header walk: up to two tags of either TPID, in any order, are
 * skipped; past them, on every well-formed frame whose tags DPDK's parser
 * reads right, the packet type and header lengths are what
 * rte_net_get_ptype() gives; where its tag rules read a frame wrong (two
 * 0x8100 tags, a lone 0x88a8 tag, 0x8100 then 0x88a8) or it names nothing
 * (ARP, LLDP), the walk's own rule holds; a header cut short, of the wrong
 * version or past what m->l3_len can say gets no type; headers spanning
 * segments classify as in one; every packet type set is in the advertised
 * list and every listed one is set by some frame; fields that share a
 * word with the lengths are left alone.
 */

#include <stdbool.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_net.h>

#include "mixed_frames.h"
#include "netif_l2.h"
#include "test.h"
#include "test_eal.h"

#define FRAME_MAX 2048		/* one mbuf's data room */
#define PAYLOAD 32		/* after the last header */

/* A frame, header by header. */
struct shape {
	uint8_t ntags;
	uint16_t tpid[3];
	uint16_t type;		/* the EtherType after the tags */
	uint8_t ihl;		/* IPv4: header length in words */
	uint16_t frag;		/* IPv4: flags and offset field */
	uint8_t next[6];	/* IPv6: extension headers, then the L4 proto */
	uint8_t nb_ext;
	uint8_t ext_len8;	/* IPv6: length field of the other headers */
	uint8_t proto;		/* IPv4: the L4 protocol */
	uint8_t tcp_words;	/* TCP: data offset (0: 5) */
};

/* The L4 header of @proto at @p. */
static uint8_t *
put_l4(uint8_t *p, uint8_t proto, uint8_t tcp_words)
{
	switch (proto) {
	case IPPROTO_TCP:
		p[12] = (tcp_words ? tcp_words : 5) << 4;
		return p + (tcp_words ? tcp_words : 5) * 4;
	case IPPROTO_SCTP:
		return p + 12;
	default:
		return p + 8;		/* UDP, ICMP */
	}
}

/* Build @s into @buf; returns the frame's length. */
static uint32_t
build(const struct shape *s, uint8_t *buf)
{
	uint8_t *p = buf + 12, *l3;
	unsigned int i;

	memset(buf, 0, FRAME_MAX);
	memset(buf, 0xff, 6);
	memset(buf + 6, 0x02, 6);
	for (i = 0; i < s->ntags; i++)
		p = mf_be16(mf_be16(p, s->tpid[i]), 100 + i);
	p = mf_be16(p, s->type);
	l3 = p;
	if (s->type == RTE_ETHER_TYPE_IPV4) {
		uint8_t ihl = s->ihl ? s->ihl : 5;

		p[0] = 0x40 | ihl;
		mf_be16(p + 6, s->frag);
		p[8] = 64;
		p[9] = s->proto;
		memset(p + 20, 0x01, ihl * 4 - 20);	/* NOP options */
		p = put_l4(p + ihl * 4, s->proto, s->tcp_words);
	} else if (s->type == RTE_ETHER_TYPE_IPV6) {
		p[0] = 0x60;
		p[6] = s->next[0];
		p[7] = 64;
		p += 40;
		for (i = 0; i < s->nb_ext; i++) {
			p[0] = s->next[i + 1];
			if (s->next[i] == IPPROTO_FRAGMENT) {
				p[3] = 0x01;		/* more fragments */
				p += 8;
			} else {
				p[1] = s->ext_len8;
				p += (s->ext_len8 + 1) * 8;
			}
		}
		p = put_l4(p, s->next[s->nb_ext], s->tcp_words);
	}
	p += PAYLOAD;
	if (s->type == RTE_ETHER_TYPE_IPV4)
		mf_be16(l3 + 2, p - l3);
	else if (s->type == RTE_ETHER_TYPE_IPV6)
		mf_be16(l3 + 4, p - l3 - 40);
	return p - buf;
}

/* @len bytes of @buf in a chain of @seg-byte segments. */
static struct rte_mbuf *
to_mbuf(const uint8_t *buf, uint32_t len, uint32_t seg)
{
	struct rte_mbuf *head = NULL;

	for (uint32_t off = 0; off < len; off += seg) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);
		uint32_t n = RTE_MIN(seg, len - off);
		char *data = m != NULL ? rte_pktmbuf_append(m, n) : NULL;

		if (data == NULL) {
			rte_pktmbuf_free(m);
			rte_pktmbuf_free(head);
			return NULL;
		}
		memcpy(data, buf + off, n);
		if (head == NULL) {
			head = m;
		} else if (rte_pktmbuf_chain(head, m) != 0) {
			rte_pktmbuf_free(m);
			rte_pktmbuf_free(head);
			return NULL;
		}
	}
	return head;
}

/* What the walk gives a frame. */
struct result {
	uint32_t ptype;
	uint16_t type, l2_len, l3_len, l4_len;
};

static bool
classify(const uint8_t *buf, uint32_t len, uint32_t seg, struct result *r)
{
	struct rte_mbuf *m = to_mbuf(buf, len, seg);

	if (m == NULL)
		return false;
	r->type = netif_l2_classify(m);
	r->ptype = m->packet_type;
	r->l2_len = m->l2_len;
	r->l3_len = m->l3_len;
	r->l4_len = m->l4_len;
	rte_pktmbuf_free(m);
	return true;
}

static bool
classify_shape(const struct shape *s, struct result *r)
{
	uint8_t buf[FRAME_MAX];

	return classify(buf, build(s, buf), FRAME_MAX, r);
}

static bool
same(const struct result *a, const struct result *b)
{
	return a->ptype == b->ptype && a->type == b->type &&
	       a->l2_len == b->l2_len && a->l3_len == b->l3_len &&
	       a->l4_len == b->l4_len;
}

static void
print(const char *what, const struct result *r)
{
	fprintf(stderr, "  %s: ptype %#x type %#x l2 %u l3 %u l4 %u\n", what,
		r->ptype, r->type, r->l2_len, r->l3_len, r->l4_len);
}

/*
 * Well-formed frames in every combination of: the L2 headers DPDK's
 * parser reads right; IPv4 with or without options, a fragment, IPv6
 * with or without extension headers (one past the window, so that TCP
 * is read from the mbuf), a fragment header or ESP; TCP with and without
 * options, UDP, SCTP, ICMP.
 */
#define NB_L2 3
#define NB_L3 9
#define NB_L4 5

static struct shape
corpus(unsigned int i2, unsigned int i3, unsigned int i4)
{
	static const uint8_t l4[NB_L4][2] = {
		{ IPPROTO_TCP, 5 }, { IPPROTO_TCP, 8 }, { IPPROTO_UDP, 0 },
		{ IPPROTO_SCTP, 0 }, { IPPROTO_ICMP, 0 },
	};
	struct shape s = { .proto = l4[i4][0], .tcp_words = l4[i4][1] };
	uint8_t proto = s.proto;

	if (i2 >= 1)
		s.tpid[s.ntags++] = i2 == 1 ? RTE_ETHER_TYPE_VLAN :
					      RTE_ETHER_TYPE_QINQ;
	if (i2 == 2)
		s.tpid[s.ntags++] = RTE_ETHER_TYPE_VLAN;
	s.type = i3 < 4 ? RTE_ETHER_TYPE_IPV4 : RTE_ETHER_TYPE_IPV6;
	switch (i3) {
	case 1:
		s.ihl = 7;
		break;
	case 2:
		s.frag = 100;				/* offset */
		break;
	case 3:
		s.frag = RTE_IPV4_HDR_MF_FLAG;	/* first fragment */
		break;
	case 4:
		s.next[0] = proto;
		break;
	case 5:
		s.next[0] = IPPROTO_HOPOPTS;
		s.next[1] = proto;
		s.nb_ext = 1;
		break;
	case 6:
		s.next[0] = IPPROTO_HOPOPTS;
		s.next[1] = IPPROTO_DSTOPTS;
		s.next[2] = IPPROTO_ROUTING;
		s.next[3] = proto;
		s.nb_ext = 3;
		s.ext_len8 = 2;			/* past the window */
		break;
	case 7:
		s.next[0] = IPPROTO_FRAGMENT;
		s.next[1] = proto;
		s.nb_ext = 1;
		break;
	case 8:
		s.next[0] = IPPROTO_ESP;
		break;
	}
	return s;
}

static void
test_well_formed_frames_classify_as_rte_net_get_ptype_does(void)
{
	uint8_t buf[FRAME_MAX];

	for (unsigned int i2 = 0; i2 < NB_L2; i2++)
		for (unsigned int i3 = 0; i3 < NB_L3; i3++)
			for (unsigned int i4 = 0; i4 < NB_L4; i4++) {
				struct shape s = corpus(i2, i3, i4);
				uint32_t len = build(&s, buf);
				struct rte_net_hdr_lens hl;
				struct result got, want;
				struct rte_mbuf *m;

				m = to_mbuf(buf, len, FRAME_MAX);
				REQUIRE(m != NULL);
				memset(&hl, 0, sizeof(hl));
				want.ptype = rte_net_get_ptype(m, &hl,
					RTE_PTYPE_L2_MASK | RTE_PTYPE_L3_MASK |
					RTE_PTYPE_L4_MASK);
				want.type = s.type;
				want.l2_len = hl.l2_len;
				want.l3_len = hl.l3_len;
				want.l4_len = hl.l4_len;
				rte_pktmbuf_free(m);
				REQUIRE(classify(buf, len, FRAME_MAX, &got));
				if (!same(&got, &want)) {
					fprintf(stderr, "corpus %u/%u/%u\n",
						i2, i3, i4);
					print("got", &got);
					print("rte_net_get_ptype", &want);
				}
				CHECK(same(&got, &want));
			}
}

static void
test_two_tags_of_either_tpid_in_any_order_are_skipped(void)
{
	static const uint16_t tpids[] = { RTE_ETHER_TYPE_VLAN,
					  RTE_ETHER_TYPE_QINQ };

	for (int a = 0; a < 2; a++) {
		struct shape one = {
			.ntags = 1, .tpid = { tpids[a] },
			.type = RTE_ETHER_TYPE_IPV4, .proto = IPPROTO_UDP,
		};
		struct result r;

		/* rte_net_get_ptype() reads a lone 0x88a8 as two tags. */
		REQUIRE(classify_shape(&one, &r));
		CHECK(r.ptype == (RTE_PTYPE_L2_ETHER_VLAN | RTE_PTYPE_L3_IPV4 |
				  RTE_PTYPE_L4_UDP));
		CHECK(r.type == RTE_ETHER_TYPE_IPV4 && r.l2_len == 18);
		for (int b = 0; b < 2; b++) {
			struct shape two = {
				.ntags = 2, .tpid = { tpids[a], tpids[b] },
				.type = RTE_ETHER_TYPE_IPV6,
				.next = { IPPROTO_TCP },
			};

			/* It stops after a 0x8100 a tag follows. */
			REQUIRE(classify_shape(&two, &r));
			CHECK(r.ptype == (RTE_PTYPE_L2_ETHER_QINQ |
					  RTE_PTYPE_L3_IPV6 |
					  RTE_PTYPE_L4_TCP));
			CHECK(r.type == RTE_ETHER_TYPE_IPV6);
			CHECK(r.l2_len == 22 && r.l3_len == 40 &&
			      r.l4_len == 20);
		}
	}
}

static void
test_a_third_tag_is_the_ethertype(void)
{
	struct shape s = {
		.ntags = 3, .tpid = { RTE_ETHER_TYPE_QINQ, RTE_ETHER_TYPE_VLAN,
				      RTE_ETHER_TYPE_VLAN },
		.type = RTE_ETHER_TYPE_IPV4,
	};
	struct result r;

	REQUIRE(classify_shape(&s, &r));
	CHECK(r.ptype == RTE_PTYPE_L2_ETHER_QINQ);
	CHECK(r.type == RTE_ETHER_TYPE_VLAN && r.l2_len == 22);
	CHECK(r.l3_len == 0 && r.l4_len == 0);
}

static void
test_untagged_arp_and_lldp_are_named(void)
{
	struct shape arp = { .type = RTE_ETHER_TYPE_ARP };
	struct shape lldp = { .type = RTE_ETHER_TYPE_LLDP };
	struct shape tagged = { .ntags = 1, .tpid = { RTE_ETHER_TYPE_VLAN },
				.type = RTE_ETHER_TYPE_ARP };
	struct result r;

	REQUIRE(classify_shape(&arp, &r));
	CHECK(r.ptype == RTE_PTYPE_L2_ETHER_ARP && r.type == 0x0806);
	CHECK(r.l2_len == 14 && r.l3_len == 0 && r.l4_len == 0);
	REQUIRE(classify_shape(&lldp, &r));
	CHECK(r.ptype == RTE_PTYPE_L2_ETHER_LLDP && r.type == 0x88cc);
	/* The L2 type says how many tags, so a tagged ARP is VLAN. */
	REQUIRE(classify_shape(&tagged, &r));
	CHECK(r.ptype == RTE_PTYPE_L2_ETHER_VLAN && r.type == 0x0806);
}

static void
test_headers_cut_short_get_no_type(void)
{
	uint8_t buf[FRAME_MAX];
	struct shape s = {
		.ntags = 1, .tpid = { RTE_ETHER_TYPE_QINQ },
		.type = RTE_ETHER_TYPE_IPV4, .ihl = 6, .proto = IPPROTO_TCP,
	};
	uint32_t l3 = 18, l4 = l3 + 24;
	struct result r;

	build(&s, buf);
	REQUIRE(classify(buf, l3 + 23, FRAME_MAX, &r));	/* options cut */
	CHECK(r.ptype == RTE_PTYPE_L2_ETHER_VLAN && r.type == 0x0800);
	CHECK(r.l2_len == 18 && r.l3_len == 0 && r.l4_len == 0);
	REQUIRE(classify(buf, l4 + 19, FRAME_MAX, &r));	/* TCP cut */
	CHECK(r.ptype == (RTE_PTYPE_L2_ETHER_VLAN | RTE_PTYPE_L3_IPV4_EXT));
	CHECK(r.l3_len == 24 && r.l4_len == 0);
	REQUIRE(classify(buf, l4 + 20, FRAME_MAX, &r));
	CHECK(r.ptype == (RTE_PTYPE_L2_ETHER_VLAN | RTE_PTYPE_L3_IPV4_EXT |
			  RTE_PTYPE_L4_TCP));
	s.proto = IPPROTO_UDP;
	build(&s, buf);
	REQUIRE(classify(buf, l4 + 7, FRAME_MAX, &r));	/* UDP cut */
	CHECK(r.ptype == (RTE_PTYPE_L2_ETHER_VLAN | RTE_PTYPE_L3_IPV4_EXT));
	REQUIRE(classify(buf, 17, FRAME_MAX, &r));	/* the tag cut */
	CHECK(r.ptype == RTE_PTYPE_L2_ETHER_VLAN && r.type == 0);
	CHECK(r.l2_len == 14);
	REQUIRE(classify(buf, 13, FRAME_MAX, &r));
	CHECK(r.ptype == RTE_PTYPE_UNKNOWN && r.type == 0 && r.l2_len == 0);
}

static void
test_ip_headers_must_be_what_the_ethertype_says(void)
{
	uint8_t buf[FRAME_MAX];
	struct shape v4 = { .type = RTE_ETHER_TYPE_IPV4,
			    .proto = IPPROTO_UDP };
	struct shape v6 = { .type = RTE_ETHER_TYPE_IPV6,
			    .next = { IPPROTO_UDP } };
	uint32_t len = build(&v4, buf);
	struct result r;

	buf[14] = 0x65;		/* version 6 under 0x0800 */
	REQUIRE(classify(buf, len, FRAME_MAX, &r));
	CHECK(r.ptype == RTE_PTYPE_L2_ETHER && r.type == 0x0800);
	CHECK(r.l3_len == 0 && r.l4_len == 0);
	buf[14] = 0x44;		/* IHL below the minimum */
	REQUIRE(classify(buf, len, FRAME_MAX, &r));
	CHECK(r.ptype == RTE_PTYPE_L2_ETHER);
	len = build(&v6, buf);
	buf[14] = 0x45;		/* version 4 under 0x86dd */
	REQUIRE(classify(buf, len, FRAME_MAX, &r));
	CHECK(r.ptype == RTE_PTYPE_L2_ETHER && r.type == 0x86dd);
}

static void
test_ipv6_chains_it_cannot_follow_get_no_l4_type(void)
{
	struct shape too_long = {
		.type = RTE_ETHER_TYPE_IPV6,
		.next = { IPPROTO_HOPOPTS, IPPROTO_UDP }, .nb_ext = 1,
		.ext_len8 = 59,	/* 480 bytes: 520 with the header */
	};
	struct shape six = {
		.type = RTE_ETHER_TYPE_IPV6,
		.next = { IPPROTO_HOPOPTS, IPPROTO_DSTOPTS, IPPROTO_ROUTING,
			  IPPROTO_DSTOPTS, IPPROTO_ROUTING, IPPROTO_DSTOPTS },
		.nb_ext = 5,
	};
	uint8_t buf[FRAME_MAX];
	struct result r;
	uint32_t len;

	REQUIRE(classify_shape(&too_long, &r));
	CHECK(r.ptype == (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT));
	CHECK(r.l3_len == 40 && r.l4_len == 0);
	too_long.ext_len8 = 57;	/* 464 bytes: 504 fits in 9 bits */
	REQUIRE(classify_shape(&too_long, &r));
	CHECK(r.ptype == (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT |
			  RTE_PTYPE_L4_UDP));
	CHECK(r.l3_len == 40 + 58 * 8 && r.l4_len == 8);
	/* rte_net_skip_ip6_ext() follows at most five headers. */
	REQUIRE(classify_shape(&six, &r));
	CHECK(r.ptype == (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT));
	CHECK(r.l3_len == 40 && r.l4_len == 0);
	/* A chain that runs past the frame's end. */
	six.nb_ext = 1;
	six.next[1] = IPPROTO_UDP;
	len = build(&six, buf);
	REQUIRE(classify(buf, 14 + 40 + 1, FRAME_MAX, &r));
	CHECK(r.ptype == (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT));
	CHECK(r.l3_len == 40 && r.l4_len == 0);
	REQUIRE(classify(buf, 14 + 40 + 8 + 7, FRAME_MAX, &r));
	CHECK(r.ptype == (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT));
	REQUIRE(classify(buf, len, FRAME_MAX, &r));
	CHECK(r.ptype == (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT |
			  RTE_PTYPE_L4_UDP));
}

static void
test_headers_may_span_segments(void)
{
	uint8_t buf[FRAME_MAX];

	for (unsigned int i2 = 0; i2 < NB_L2; i2++)
		for (unsigned int i3 = 0; i3 < NB_L3; i3++)
			for (unsigned int i4 = 0; i4 < NB_L4; i4 += 2) {
				struct shape s = corpus(i2, i3, i4);
				uint32_t len = build(&s, buf);
				struct result whole, split;

				REQUIRE(classify(buf, len, FRAME_MAX, &whole));
				for (uint32_t seg = 1; seg < len; seg += 7) {
					REQUIRE(classify(buf, len, seg,
							 &split));
					CHECK(same(&split, &whole));
				}
			}
}

static bool
listed(uint32_t ptype)
{
	for (const uint32_t *p = netif_l2_ptypes(); *p != RTE_PTYPE_UNKNOWN;
	     p++)
		if (*p == ptype)
			return true;
	return false;
}

static void
test_the_list_is_exactly_the_types_set(void)
{
	static const uint32_t masks[] = { RTE_PTYPE_L2_MASK, RTE_PTYPE_L3_MASK,
					  RTE_PTYPE_L4_MASK };
	struct shape extra[] = {
		{ .type = RTE_ETHER_TYPE_ARP },
		{ .type = RTE_ETHER_TYPE_LLDP },
	};
	uint32_t seen[64];
	unsigned int nb_seen = 0, nb_listed = 0;
	struct result r;

	for (unsigned int i = 0; i < NB_L2 * NB_L3 * NB_L4 + RTE_DIM(extra);
	     i++) {
		struct shape s = i < RTE_DIM(extra) ? extra[i] :
			corpus((i - RTE_DIM(extra)) / (NB_L3 * NB_L4),
			       (i - RTE_DIM(extra)) / NB_L4 % NB_L3,
			       (i - RTE_DIM(extra)) % NB_L4);

		REQUIRE(classify_shape(&s, &r));
		for (unsigned int k = 0; k < RTE_DIM(masks); k++) {
			uint32_t t = r.ptype & masks[k];
			unsigned int j;

			if (t == 0)
				continue;
			CHECK(listed(t));
			for (j = 0; j < nb_seen && seen[j] != t; j++)
				;
			if (j == nb_seen && nb_seen < RTE_DIM(seen))
				seen[nb_seen++] = t;
		}
	}
	for (const uint32_t *p = netif_l2_ptypes(); *p != RTE_PTYPE_UNKNOWN;
	     p++)
		nb_listed++;
	CHECK(nb_seen == nb_listed);
}

static void
test_fields_sharing_the_lengths_word_are_left_alone(void)
{
	uint8_t buf[FRAME_MAX];
	struct shape s = { .type = RTE_ETHER_TYPE_ARP };
	struct rte_mbuf *m;

	m = to_mbuf(buf, build(&s, buf), FRAME_MAX);
	REQUIRE(m != NULL);
	m->tx_offload = UINT64_MAX;	/* stale lengths and all */
	CHECK(netif_l2_classify(m) == RTE_ETHER_TYPE_ARP);
	CHECK(m->l2_len == 14 && m->l3_len == 0 && m->l4_len == 0);
	CHECK(m->tso_segsz == UINT16_MAX);
	CHECK(m->outer_l2_len == 0x7f && m->outer_l3_len == 0x1ff);
	rte_pktmbuf_free(m);
}

TEST_MAIN(test_eal_pool_setup, test_eal_teardown)
{
	RUN(test_well_formed_frames_classify_as_rte_net_get_ptype_does);
	RUN(test_two_tags_of_either_tpid_in_any_order_are_skipped);
	RUN(test_a_third_tag_is_the_ethertype);
	RUN(test_untagged_arp_and_lldp_are_named);
	RUN(test_headers_cut_short_get_no_type);
	RUN(test_ip_headers_must_be_what_the_ethertype_says);
	RUN(test_ipv6_chains_it_cannot_follow_get_no_l4_type);
	RUN(test_headers_may_span_segments);
	RUN(test_the_list_is_exactly_the_types_set);
	RUN(test_fields_sharing_the_lengths_word_are_left_alone);
}
