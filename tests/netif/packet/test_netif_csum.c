/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Completing checksums a frontend left blank: TCP and UDP over IPv4 and
 * IPv6, untagged, with one tag or with two of either TPID in any order
 * (802.1ad QinQ, stacked 802.1Q), in one segment or several, whatever the
 * segment boundaries cut (the checksum field too), end with the checksum a
 * full computation gives; so does every mixed frame that has one, as
 * classified; frames that carry no such checksum, fragments, IPv6 with
 * extension headers, and frames that lie about their length are refused,
 * and nothing is read or written outside the packet, also when the
 * classification it is given is wrong.
 */

#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "mixed_frames.h"
#include "netif_csum.h"
#include "netif_l2.h"
#include "test.h"
#include "test_eal.h"

/* No tag, one tag, or two, each TPID 0x8100 or 0x88a8. */
struct tags {
	uint8_t n;
	uint16_t tpid[2];
};

static const struct tags untagged = { 0, { 0 } };
static const struct tags vlan = { 1, { RTE_ETHER_TYPE_VLAN } };
static const struct tags s_tag = { 1, { RTE_ETHER_TYPE_QINQ } };
static const struct tags two_tags[] = {
	/* 802.1ad, then Linux's stacked 802.1Q, then the odd ones */
	{ 2, { RTE_ETHER_TYPE_QINQ, RTE_ETHER_TYPE_VLAN } },
	{ 2, { RTE_ETHER_TYPE_VLAN, RTE_ETHER_TYPE_VLAN } },
	{ 2, { RTE_ETHER_TYPE_QINQ, RTE_ETHER_TYPE_QINQ } },
	{ 2, { RTE_ETHER_TYPE_VLAN, RTE_ETHER_TYPE_QINQ } },
};

/*
 * A frame of @payload bytes of L4 payload after Ethernet (+ @tags), IP and
 * TCP/UDP headers, split into segments of at most @seg bytes. The L4
 * checksum field holds garbage, as a blank one may.
 */
static struct rte_mbuf *
frame(bool v6, const struct tags *tags, uint8_t proto, uint16_t payload,
      uint16_t seg)
{
	uint8_t buf[4096];
	uint16_t l3 = RTE_ETHER_HDR_LEN + 4 * tags->n;
	uint16_t l4hdr = proto == IPPROTO_TCP ? 20 : 8;
	uint16_t l3hdr = v6 ? 40 : 20;
	uint16_t len = l3 + l3hdr + l4hdr + payload, off;
	struct rte_mbuf *head = NULL;
	uint8_t *p = buf + 12;
	uint16_t i;

	memset(buf, 0, sizeof(buf));
	for (i = 0; i < len; i++)
		buf[i] = i * 13;
	for (i = 0; i < tags->n; i++)
		p = mf_be16(mf_be16(p, tags->tpid[i]), 100 + i);
	mf_be16(p, v6 ? RTE_ETHER_TYPE_IPV6 : RTE_ETHER_TYPE_IPV4);
	if (v6) {
		struct rte_ipv6_hdr *h = (void *)(buf + l3);

		h->vtc_flow = rte_cpu_to_be_32(6u << 28);
		h->payload_len = rte_cpu_to_be_16(l4hdr + payload);
		h->proto = proto;
		h->hop_limits = 64;
	} else {
		struct rte_ipv4_hdr *h = (void *)(buf + l3);

		h->version_ihl = 0x45;
		h->total_length = rte_cpu_to_be_16(l3hdr + l4hdr + payload);
		h->fragment_offset = 0;
		h->time_to_live = 64;
		h->next_proto_id = proto;
	}
	if (proto == IPPROTO_TCP)
		buf[l3 + l3hdr + 12] = 0x50;	/* data offset */
	for (off = 0; off < len; off += seg) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);
		uint16_t n = RTE_MIN(seg, (uint16_t)(len - off));

		if (m == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
		memcpy(rte_pktmbuf_append(m, n), buf + off, n);
		if (head == NULL)
			head = m;
		else
			rte_pktmbuf_chain(head, m);
	}
	return head;
}

/*
 * The checksum, computed independently over a linear copy of @m, whose
 * IP header is at @l3: as DPDK would fill it in, and one that verifies.
 */
static bool
checksum_is_right(struct rte_mbuf *m, uint16_t l3)
{
	uint8_t buf[4096];
	const uint8_t *p = rte_pktmbuf_read(m, 0, m->pkt_len, buf);
	bool v6 = (p[l3] >> 4) == 6;
	uint8_t proto = v6 ? p[l3 + 6] : p[l3 + 9];
	uint16_t l4 = l3 + (v6 ? 40 : 4 * (p[l3] & 0xf));
	uint16_t field = l4 + (proto == IPPROTO_TCP ? 16 : 6);
	uint16_t got, want;
	int verified;

	memcpy(buf, p, m->pkt_len);
	verified = v6 ? rte_ipv6_udptcp_cksum_verify((void *)(buf + l3),
						     buf + l4) :
			rte_ipv4_udptcp_cksum_verify((void *)(buf + l3),
						     buf + l4);
	memcpy(&got, buf + field, 2);
	memset(buf + field, 0, 2);
	want = v6 ? rte_ipv6_udptcp_cksum((void *)(buf + l3), buf + l4) :
		    rte_ipv4_udptcp_cksum((void *)(buf + l3), buf + l4);
	return got == want && verified == 0;
}

static void
check(bool v6, const struct tags *tags, uint8_t proto, uint16_t payload,
      uint16_t seg)
{
	struct rte_mbuf *m = frame(v6, tags, proto, payload, seg);

	REQUIRE(m != NULL);
	CHECK(netif_csum_complete(m) == 0);
	CHECK(checksum_is_right(m, RTE_ETHER_HDR_LEN + 4 * tags->n));
	rte_pktmbuf_free(m);
}

static void
test_tcp_over_ipv4_is_completed(void)
{
	check(false, &untagged, IPPROTO_TCP, 1000, 2048);
}

static void
test_udp_over_ipv6_is_completed(void)
{
	check(true, &untagged, IPPROTO_UDP, 333, 2048);
}

static void
test_vlan_tagged_frames_are_completed(void)
{
	check(false, &vlan, IPPROTO_UDP, 100, 2048);
	check(true, &vlan, IPPROTO_TCP, 100, 2048);
	check(false, &s_tag, IPPROTO_TCP, 100, 2048);
	check(true, &s_tag, IPPROTO_UDP, 100, 2048);
}

static void
test_doubly_tagged_frames_are_completed(void)
{
	for (unsigned int i = 0; i < RTE_DIM(two_tags); i++)
		for (int v6 = 0; v6 < 2; v6++) {
			check(v6, &two_tags[i], IPPROTO_TCP, 100, 2048);
			check(v6, &two_tags[i], IPPROTO_UDP, 101, 2048);
		}
}

static void
test_multi_segment_frames_are_completed(void)
{
	check(false, &untagged, IPPROTO_TCP, 3000, 1000);
	check(true, &untagged, IPPROTO_UDP, 3000, 700);
	check(false, &two_tags[0], IPPROTO_UDP, 3000, 1000);
}

static void
test_headers_cut_anywhere_by_segments_are_completed(void)
{
	/* Every boundary, the checksum field's middle and all. */
	for (uint16_t seg = 1; seg <= 22 + 40 + 20; seg++) {
		check(false, &two_tags[1], IPPROTO_TCP, 30, seg);
		check(true, &two_tags[0], IPPROTO_UDP, 31, seg);
	}
}

/*
 * @len bytes of @bytes in mbufs of their own whose data are heap blocks of
 * exactly their size, cut in two at @cut when 0 < @cut < @len, so that a
 * sanitizer build catches any read or write past the packet's end.
 */
static struct rte_mbuf *
heap_chain(const uint8_t *bytes, uint32_t len, uint32_t cut)
{
	struct rte_mbuf *m = calloc(2, sizeof(*m));
	uint32_t n[2] = { len, 0 };

	if (m == NULL)
		return NULL;
	if (cut > 0 && cut < len) {
		n[0] = cut;
		n[1] = len - cut;
	}
	for (int i = 0; i < 2 && n[i] > 0; i++) {
		m[i].buf_addr = malloc(n[i]);
		memcpy(m[i].buf_addr, bytes + (i ? n[0] : 0), n[i]);
		m[i].buf_len = n[i];
		m[i].data_len = n[i];
		m[i].nb_segs = 1;
		rte_mbuf_refcnt_set(&m[i], 1);
		if (i == 1) {
			m[0].next = &m[1];
			m[0].nb_segs = 2;
		}
	}
	m[0].pkt_len = len;
	return m;
}

static void
heap_chain_free(struct rte_mbuf *m)
{
	free(m[0].buf_addr);
	free(m[1].buf_addr);
	free(m);
}

static void
test_frames_cut_anywhere_are_never_read_past_their_end(void)
{
	static const struct tags *shapes[] = { &untagged, &two_tags[0] };
	uint8_t bytes[512];

	for (unsigned int t = 0; t < RTE_DIM(shapes); t++)
		for (int v6 = 0; v6 < 2; v6++) {
			struct rte_mbuf *f = frame(v6, shapes[t], IPPROTO_TCP,
						   9, 2048);
			uint32_t len, cut;

			REQUIRE(f != NULL);
			len = f->pkt_len;
			memcpy(bytes, rte_pktmbuf_mtod(f, void *), len);
			rte_pktmbuf_free(f);
			/* Short of what the IP length says: refused. */
			for (cut = 0; cut < len; cut++) {
				struct rte_mbuf *m = heap_chain(bytes, cut, 0);

				REQUIRE(m != NULL);
				CHECK(netif_csum_complete(m) != 0);
				heap_chain_free(m);
			}
			/* Whole, in two segments cut anywhere: completed. */
			for (cut = 0; cut < len; cut++) {
				struct rte_mbuf *m;

				m = heap_chain(bytes, len, cut);
				REQUIRE(m != NULL);
				CHECK(netif_csum_complete(m) == 0);
				CHECK(checksum_is_right(m, 14 +
							4 * shapes[t]->n));
				heap_chain_free(m);
			}
		}
}

static void
test_mixed_frames_with_a_checksum_are_completed(void)
{
	uint8_t buf[MF_LEN];

	for (int k = 0; k < MF_NB; k++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);
		uint32_t ptype = mf_info[k].ptype;
		bool has = (ptype & RTE_PTYPE_L4_MASK) == RTE_PTYPE_L4_TCP ||
			   (ptype & RTE_PTYPE_L4_MASK) == RTE_PTYPE_L4_UDP;

		REQUIRE(m != NULL);
		mf_build(buf, k, k);
		memcpy(rte_pktmbuf_append(m, MF_LEN), buf, MF_LEN);
		if ((netif_csum_complete(m) == 0) != has)
			fprintf(stderr, "%s\n", mf_info[k].name);
		CHECK((netif_csum_complete(m) == 0) == has);
		if (has)
			CHECK(checksum_is_right(m, m->l2_len));
		/* Classified on the way, as the walk does. */
		CHECK(m->packet_type == ptype);
		rte_pktmbuf_free(m);
	}
}

static void
test_classified_packets_are_completed_without_another_walk(void)
{
	struct rte_mbuf *m = frame(false, &two_tags[0], IPPROTO_UDP, 50, 2048);

	REQUIRE(m != NULL);
	CHECK(netif_l2_classify(m) == RTE_ETHER_TYPE_IPV4);
	CHECK(netif_csum_complete_classified(m) == 0);
	CHECK(checksum_is_right(m, 22));
	/* Lengths that are not the frame's: refused, nothing written. */
	m->l2_len = 14;
	CHECK(netif_csum_complete_classified(m) != 0);
	m->l2_len = 0x7f;
	m->l3_len = 0x1ff;
	CHECK(netif_csum_complete_classified(m) != 0);
	CHECK(checksum_is_right(m, 22));
	rte_pktmbuf_free(m);
	m = frame(false, &untagged, IPPROTO_UDP, 0, 2048);
	REQUIRE(m != NULL);
	m->packet_type = RTE_PTYPE_L2_ETHER_QINQ | RTE_PTYPE_L3_IPV6 |
			 RTE_PTYPE_L4_TCP;
	m->l2_len = 22;
	m->l3_len = 40;
	CHECK(netif_csum_complete_classified(m) != 0);	/* past the end */
	rte_pktmbuf_free(m);
}

static void
test_fragments_are_refused(void)
{
	static const uint16_t frags[] = {
		1,				/* an offset */
		RTE_IPV4_HDR_MF_FLAG,		/* the first fragment */
	};
	struct rte_mbuf *m;

	for (unsigned int i = 0; i < RTE_DIM(frags); i++) {
		m = frame(false, &vlan, IPPROTO_UDP, 60, 2048);
		REQUIRE(m != NULL);
		rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, 18)
			->fragment_offset = rte_cpu_to_be_16(frags[i]);
		CHECK(netif_csum_complete(m) != 0);
		rte_pktmbuf_free(m);
	}
}

static void
test_ipv6_extension_headers_are_refused(void)
{
	/*
	 * The pseudo-header is right only without them: a hop-by-hop header
	 * before UDP, counted in payload_len, as the guest would send it.
	 */
	struct rte_mbuf *m = frame(true, &untagged, IPPROTO_UDP, 60, 2048);
	uint8_t *ip;

	REQUIRE(m != NULL);
	ip = rte_pktmbuf_mtod_offset(m, uint8_t *, 14);
	ip[6] = IPPROTO_HOPOPTS;
	ip[40] = IPPROTO_UDP;
	ip[41] = 0;
	CHECK(netif_csum_complete(m) != 0);
	CHECK((m->packet_type & RTE_PTYPE_L3_MASK) == RTE_PTYPE_L3_IPV6_EXT);
	rte_pktmbuf_free(m);
}

static void
test_frames_without_l4_checksum_are_refused(void)
{
	struct rte_mbuf *m = frame(false, &untagged, IPPROTO_ICMP, 60, 2048);

	REQUIRE(m != NULL);
	CHECK(netif_csum_complete(m) != 0);
	rte_pktmbuf_free(m);
	m = frame(false, &untagged, IPPROTO_TCP, 60, 2048);
	REQUIRE(m != NULL);
	rte_pktmbuf_mtod_offset(m, uint8_t *, 12)[0] = 0x08;
	rte_pktmbuf_mtod_offset(m, uint8_t *, 13)[0] = 0x06;	/* ARP */
	CHECK(netif_csum_complete(m) != 0);
	rte_pktmbuf_free(m);
}

static void
test_ip_length_beyond_frame_is_refused(void)
{
	struct rte_mbuf *m = frame(false, &untagged, IPPROTO_UDP, 60, 2048);
	struct rte_ipv4_hdr *h;

	REQUIRE(m != NULL);
	h = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, 14);
	h->total_length = rte_cpu_to_be_16(9000);
	CHECK(netif_csum_complete(m) != 0);
	h->total_length = rte_cpu_to_be_16(20 + 4);	/* shorter than UDP */
	CHECK(netif_csum_complete(m) != 0);
	rte_pktmbuf_free(m);
}

static void
test_truncated_headers_are_refused(void)
{
	struct rte_mbuf *m = frame(true, &two_tags[1], IPPROTO_TCP, 0, 2048);

	REQUIRE(m != NULL);
	rte_pktmbuf_trim(m, 10);
	CHECK(netif_csum_complete(m) != 0);
	rte_pktmbuf_free(m);
}

TEST_MAIN(test_eal_pool_setup, test_eal_teardown)
{
	RUN(test_tcp_over_ipv4_is_completed);
	RUN(test_udp_over_ipv6_is_completed);
	RUN(test_vlan_tagged_frames_are_completed);
	RUN(test_doubly_tagged_frames_are_completed);
	RUN(test_multi_segment_frames_are_completed);
	RUN(test_headers_cut_anywhere_by_segments_are_completed);
	RUN(test_frames_cut_anywhere_are_never_read_past_their_end);
	RUN(test_mixed_frames_with_a_checksum_are_completed);
	RUN(test_classified_packets_are_completed_without_another_walk);
	RUN(test_frames_without_l4_checksum_are_refused);
	RUN(test_fragments_are_refused);
	RUN(test_ipv6_extension_headers_are_refused);
	RUN(test_ip_length_beyond_frame_is_refused);
	RUN(test_truncated_headers_are_refused);
}
