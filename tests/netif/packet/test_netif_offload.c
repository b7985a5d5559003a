/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Offloads between the ring and mbufs, both ways. Received: a blank
 * checksum is flagged (with the pseudo-header sum written from the IP
 * header) when the application enabled the checksum offload and completed
 * otherwise; data_validated is a good checksum; a GSO packet becomes a
 * large segment (a TSO request in the legacy form, an LRO aggregate in the
 * compliant one) only where large segments are taken, only on TCP of its IP version with its headers
 * in the first segment and segments no frame can exceed. Sent: checksum
 * and TSO requests become blank checksums and GSO for a peer that takes
 * them, are carried out here for one that does not, and SEGMENT is asked
 * for a large segment nobody can take; impossible requests are dropped.
 */

#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "netif_csum.h"
#include "netif_l2.h"
#include "netif_offload.h"
#include "test.h"
#include "test_eal.h"

#define L2 RTE_ETHER_HDR_LEN
/* The MTU of the link the packets are sent on. */
#define LINK_MTU RTE_ETHER_MTU

/*
 * An Ethernet frame with IPv4 or IPv6 and TCP (20-byte header) or UDP and
 * @payload bytes, in segments of at most @seg bytes; L4 checksum garbage.
 */
static struct rte_mbuf *
frame(bool v6, uint8_t proto, uint32_t payload, uint16_t seg)
{
	static uint8_t buf[70000];
	uint16_t l3 = v6 ? 40 : 20, l4 = proto == IPPROTO_TCP ? 20 : 8;
	uint32_t len = L2 + l3 + l4 + payload, off;
	struct rte_mbuf *head = NULL;
	unsigned int i;

	memset(buf, 0, sizeof(buf));
	memset(buf, 0x02, 12);
	*(uint16_t *)(buf + 12) = rte_cpu_to_be_16(v6 ? RTE_ETHER_TYPE_IPV6 :
							RTE_ETHER_TYPE_IPV4);
	if (v6) {
		struct rte_ipv6_hdr *ip = (void *)(buf + L2);

		ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
		ip->payload_len = rte_cpu_to_be_16(l4 + payload);
		ip->proto = proto;
		ip->hop_limits = 64;
		ip->src_addr[15] = 1;
		ip->dst_addr[15] = 2;
	} else {
		struct rte_ipv4_hdr *ip = (void *)(buf + L2);

		ip->version_ihl = 0x45;
		ip->total_length = rte_cpu_to_be_16(l3 + l4 + payload);
		ip->time_to_live = 64;
		ip->next_proto_id = proto;
		ip->src_addr = rte_cpu_to_be_32(0x0a000001);
		ip->dst_addr = rte_cpu_to_be_32(0x0a000002);
		ip->hdr_checksum = rte_ipv4_cksum(ip);
	}
	if (proto == IPPROTO_TCP) {
		struct rte_tcp_hdr *tcp = (void *)(buf + L2 + l3);

		tcp->data_off = 5 << 4;
		tcp->cksum = 0xbeef;
	} else {
		struct rte_udp_hdr *udp = (void *)(buf + L2 + l3);

		udp->dgram_len = rte_cpu_to_be_16(l4 + payload);
		udp->dgram_cksum = 0xbeef;
	}
	for (i = L2 + l3 + l4; i < len; i++)
		buf[i] = i * 7;
	for (off = 0; off < len;) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);
		uint16_t n;

		/* The pool is sized for the tests: running dry is a bug. */
		RTE_VERIFY(m != NULL);
		n = RTE_MIN(len - off,
			    (uint32_t)RTE_MIN(seg, rte_pktmbuf_tailroom(m)));
		memcpy(rte_pktmbuf_append(m, n), buf + off, n);
		off += n;
		if (head == NULL)
			head = m;
		else
			RTE_VERIFY(rte_pktmbuf_chain(head, m) == 0);
	}
	netif_l2_classify(head);
	return head;
}

static uint16_t
field(const struct rte_mbuf *m)
{
	bool udp = (m->packet_type & RTE_PTYPE_L4_MASK) == RTE_PTYPE_L4_UDP;
	const uint16_t *p;
	uint16_t v;

	p = rte_pktmbuf_read(m, m->l2_len + m->l3_len +
			     (udp ? offsetof(struct rte_udp_hdr, dgram_cksum) :
				    offsetof(struct rte_tcp_hdr, cksum)),
			     sizeof(v), &v);
	return *p;
}

static uint16_t
pseudo(const struct rte_mbuf *m, uint64_t ol_flags)
{
	const void *ip = rte_pktmbuf_mtod_offset(m, const void *, m->l2_len);

	if ((m->packet_type & RTE_PTYPE_L3_MASK) == RTE_PTYPE_L3_IPV6)
		return rte_ipv6_phdr_cksum(ip, ol_flags);
	return rte_ipv4_phdr_cksum(ip, ol_flags);
}

/* Whether the complete L4 checksum of a one-segment frame is right. */
static bool
l4_valid(const struct rte_mbuf *m)
{
	const void *ip = rte_pktmbuf_mtod_offset(m, const void *, m->l2_len);
	const void *l4 = rte_pktmbuf_mtod_offset(m, const void *,
						 m->l2_len + m->l3_len);

	if ((m->packet_type & RTE_PTYPE_L3_MASK) == RTE_PTYPE_L3_IPV6)
		return rte_ipv6_udptcp_cksum_verify(ip, l4) == 0;
	return rte_ipv4_udptcp_cksum_verify(ip, l4) == 0;
}

static bool
ip_valid(const struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip;

	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, m->l2_len);
	return rte_raw_cksum(ip, rte_ipv4_hdr_len(ip)) == 0xffff;
}

static const struct netif_offload blank = { .csum_blank = true };

/*
 * A received packet is walked when the application wants its type or its
 * offload needs its headers, and only then.
 */
static void
test_a_packet_is_walked_only_when_needed(void)
{
	const struct netif_offload plain = {
		.gso_type = XEN_NETIF_GSO_TYPE_NONE,
	};
	const struct netif_offload validated = {
		.gso_type = XEN_NETIF_GSO_TYPE_NONE,
		.data_validated = true,
	};
	const struct netif_offload gso = {
		.gso_type = XEN_NETIF_GSO_TYPE_TCPV4,
		.gso_size = 1448,
	};

	CHECK(!netif_offload_rx_walks(&plain, 0));
	CHECK(!netif_offload_rx_walks(&validated, 0));
	CHECK(!netif_offload_rx_walks(&plain,
				      NETIF_RX_GSO | NETIF_RX_COMPLIANT));
	CHECK(netif_offload_rx_walks(&plain, NETIF_RX_PTYPES));
	CHECK(netif_offload_rx_walks(&blank, 0));
	CHECK(netif_offload_rx_walks(&gso, 0));
	CHECK(netif_offload_rx_walks(&validated, NETIF_RX_TCP_CSUM));
	CHECK(netif_offload_rx_walks(&plain, NETIF_RX_UDP_CSUM));
	CHECK(netif_offload_rx_walks(&plain, NETIF_RX_IP_CSUM));
}

static void
test_blank_checksum_is_flagged_under_the_offload(void)
{
	struct rte_mbuf *m = frame(false, IPPROTO_TCP, 100, 2048);
	const char *why = NULL;

	CHECK(netif_offload_rx(m, &blank, NETIF_RX_TCP_CSUM |
			       NETIF_RX_TCP_CSUM_BLANK, &why) == 0);
	CHECK(m->ol_flags == (RTE_MBUF_F_RX_L4_CKSUM_NONE |
			      RTE_MBUF_F_TX_TCP_CKSUM | RTE_MBUF_F_TX_IPV4));
	CHECK(field(m) == pseudo(m, 0));
	rte_pktmbuf_free(m);
	m = frame(true, IPPROTO_UDP, 100, 2048);
	CHECK(netif_offload_rx(m, &blank, NETIF_RX_UDP_CSUM |
			       NETIF_RX_UDP_CSUM_BLANK, &why) == 0);
	CHECK(m->ol_flags == (RTE_MBUF_F_RX_L4_CKSUM_NONE |
			      RTE_MBUF_F_TX_UDP_CKSUM | RTE_MBUF_F_TX_IPV6));
	CHECK(field(m) == pseudo(m, 0));
	rte_pktmbuf_free(m);
}

/* Compliant: the Rx flag alone, the Rx offload enough to be given it. */
static void
test_blank_checksum_in_the_compliant_form_has_no_tx_request(void)
{
	struct rte_mbuf *m = frame(false, IPPROTO_TCP, 100, 2048);
	const char *why = NULL;

	CHECK(netif_offload_rx(m, &blank, NETIF_RX_TCP_CSUM |
			       NETIF_RX_TCP_CSUM_BLANK | NETIF_RX_COMPLIANT,
			       &why) == 0);
	CHECK(m->ol_flags == RTE_MBUF_F_RX_L4_CKSUM_NONE);
	CHECK(field(m) == pseudo(m, 0));
	rte_pktmbuf_free(m);
}

static void
test_blank_checksum_is_completed_without_the_offload(void)
{
	struct rte_mbuf *m = frame(true, IPPROTO_TCP, 999, 2048);
	const char *why = NULL;

	/* UDP's offload says nothing about TCP. */
	CHECK(netif_offload_rx(m, &blank, NETIF_RX_UDP_CSUM |
			       NETIF_RX_UDP_CSUM_BLANK, &why) == 0);
	CHECK(m->ol_flags == 0);
	CHECK(l4_valid(m));
	rte_pktmbuf_free(m);
	/*
	 * The Rx offload alone (OVS 3.1): the application would not finish
	 * the checksum, so it comes finished.
	 */
	m = frame(false, IPPROTO_TCP, 999, 2048);
	CHECK(netif_offload_rx(m, &blank, NETIF_RX_TCP_CSUM, &why) == 0);
	CHECK(m->ol_flags == 0);
	CHECK(l4_valid(m));
	rte_pktmbuf_free(m);
}

static void
test_blank_checksum_without_l4_is_refused(void)
{
	struct rte_mbuf *m = frame(false, IPPROTO_ICMP, 64, 2048);
	const char *why = NULL;

	CHECK(netif_offload_rx(m, &blank, ~0u, &why) < 0);
	CHECK(why != NULL && strstr(why, "without TCP or UDP") != NULL);
	rte_pktmbuf_free(m);
}

static void
test_data_validated_is_a_good_checksum(void)
{
	const struct netif_offload ok = { .data_validated = true };
	struct rte_mbuf *m = frame(false, IPPROTO_UDP, 10, 2048);
	const char *why = NULL;

	CHECK(netif_offload_rx(m, &ok, NETIF_RX_TCP_CSUM, &why) == 0);
	CHECK(m->ol_flags == 0);
	CHECK(netif_offload_rx(m, &ok, NETIF_RX_UDP_CSUM, &why) == 0);
	CHECK(m->ol_flags == RTE_MBUF_F_RX_L4_CKSUM_GOOD);
	rte_pktmbuf_free(m);
}

static void
test_ip_checksum_is_verified_under_the_offload(void)
{
	struct rte_mbuf *m = frame(false, IPPROTO_UDP, 10, 2048);
	const struct netif_offload none = { .gso_type = 0 };
	struct rte_ipv4_hdr *ip;
	const char *why = NULL;

	CHECK(netif_offload_rx(m, &none, NETIF_RX_TCP_CSUM, &why) == 0);
	CHECK(m->ol_flags == 0);
	CHECK(netif_offload_rx(m, &none, NETIF_RX_IP_CSUM, &why) == 0);
	CHECK(m->ol_flags == RTE_MBUF_F_RX_IP_CKSUM_GOOD);
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, L2);
	ip->hdr_checksum ^= 1;
	m->ol_flags = 0;
	CHECK(netif_offload_rx(m, &none, NETIF_RX_IP_CSUM, &why) == 0);
	CHECK(m->ol_flags == RTE_MBUF_F_RX_IP_CKSUM_BAD);
	rte_pktmbuf_free(m);
	/* IPv6 has no header checksum: nothing to say. */
	m = frame(true, IPPROTO_UDP, 10, 2048);
	CHECK(netif_offload_rx(m, &none, NETIF_RX_IP_CSUM, &why) == 0);
	CHECK(m->ol_flags == 0);
	rte_pktmbuf_free(m);
}

static struct netif_offload
gso(uint8_t type, uint16_t size, bool csum_blank)
{
	return (struct netif_offload){
		.csum_blank = csum_blank, .data_validated = csum_blank,
		.gso_type = type, .gso_size = size,
	};
}

static void
test_gso_packet_becomes_a_tso_request_in_the_legacy_form(void)
{
	const uint64_t v4 = RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_NONE |
			    RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_TCP_CKSUM |
			    RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
	struct netif_offload o = gso(XEN_NETIF_GSO_TYPE_TCPV4, 1448, true);
	struct rte_mbuf *m = frame(false, IPPROTO_TCP, 60000, 2048);
	const char *why = NULL;

	REQUIRE(m->nb_segs > 1);
	CHECK(netif_offload_rx(m, &o, NETIF_RX_GSO, &why) == 0);
	CHECK(m->ol_flags == v4);
	CHECK(m->tso_segsz == 1448);
	CHECK(m->l2_len == L2 && m->l3_len == 20 && m->l4_len == 20);
	CHECK(field(m) == pseudo(m, RTE_MBUF_F_TX_TCP_SEG));
	/* Valid: a next hop may forward the header as it is. */
	CHECK(ip_valid(m));
	rte_pktmbuf_free(m);
	/* Without csum_blank too (Linux's checksum fixup), and over IPv6. */
	o = gso(XEN_NETIF_GSO_TYPE_TCPV6, 1428, false);
	m = frame(true, IPPROTO_TCP, 30000, 2048);
	CHECK(netif_offload_rx(m, &o, NETIF_RX_GSO | NETIF_RX_TCP_CSUM, &why) == 0);
	CHECK(m->ol_flags == (RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_NONE |
			      RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_TCP_CKSUM |
			      RTE_MBUF_F_TX_IPV6));
	CHECK(m->tso_segsz == 1428);
	CHECK(field(m) == pseudo(m, RTE_MBUF_F_TX_TCP_SEG));
	rte_pktmbuf_free(m);
}

/* Compliant: an LRO aggregate with its MSS, no Tx request. */
static void
test_gso_packet_becomes_an_aggregate_in_the_compliant_form(void)
{
	struct netif_offload o = gso(XEN_NETIF_GSO_TYPE_TCPV4, 1448, true);
	struct rte_mbuf *m = frame(false, IPPROTO_TCP, 60000, 2048);
	const char *why = NULL;

	CHECK(netif_offload_rx(m, &o, NETIF_RX_GSO | NETIF_RX_COMPLIANT,
			       &why) == 0);
	CHECK(m->ol_flags == (RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_NONE));
	CHECK(m->tso_segsz == 1448);
	CHECK(m->l2_len == L2 && m->l3_len == 20 && m->l4_len == 20);
	CHECK(ip_valid(m));
	rte_pktmbuf_free(m);
}

/* Each hostile or unwanted GSO packet, refused with the rule it broke. */
/* A blank, validated checksum and a GSO extra of @type and @mss. */
#define GSO(type, mss) { .csum_blank = true, .data_validated = true, \
			 .gso_type = XEN_NETIF_GSO_TYPE_ ## type, .gso_size = (mss) }

static void
test_gso_packets_that_do_not_fit_are_refused(void)
{
	static const struct {
		bool v6;
		uint8_t proto;
		uint16_t first_seg;
		struct netif_offload o;
		uint32_t enabled;
		const char *why;
	} cases[] = {
		{ false, IPPROTO_TCP, 2048,
		  GSO(TCPV4, 1448), NETIF_RX_TCP_CSUM,
		  "large segments are not taken" },
		{ false, IPPROTO_UDP, 2048,
		  GSO(TCPV4, 1448), NETIF_RX_GSO,
		  "without a TCP header" },
		{ false, IPPROTO_ICMP, 2048,
		  GSO(TCPV4, 1448), NETIF_RX_GSO,
		  "without a TCP header" },
		{ false, IPPROTO_TCP, 2048,
		  GSO(TCPV6, 1448), NETIF_RX_GSO,
		  "other IP version" },
		{ true, IPPROTO_TCP, 2048,
		  GSO(TCPV4, 1448), NETIF_RX_GSO,
		  "other IP version" },
		/* The TCP header cut by the end of the first segment. */
		{ false, IPPROTO_TCP, L2 + 20 + 10,
		  GSO(TCPV4, 1448), NETIF_RX_GSO,
		  "first segment" },
		{ false, IPPROTO_TCP, 2048,
		  GSO(TCPV4, 65535), NETIF_RX_GSO,
		  "largest frame" },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		struct rte_mbuf *m = frame(cases[i].v6, cases[i].proto, 5000,
					   cases[i].first_seg);
		const char *why = NULL;

		CHECK(netif_offload_rx(m, &cases[i].o, cases[i].enabled,
				       &why) < 0);
		CHECK(why != NULL && strstr(why, cases[i].why) != NULL);
		CHECK((m->ol_flags & RTE_MBUF_F_TX_TCP_SEG) == 0);
		rte_pktmbuf_free(m);
	}
}

static void
test_plain_packets_are_sent_as_they_are(void)
{
	struct rte_mbuf *m = frame(false, IPPROTO_TCP, 100, 2048);
	struct netif_offload o;
	uint16_t before = field(m);

	CHECK(netif_offload_tx(m, ~0u, LINK_MTU, &o) == NETIF_OFFLOAD_SEND);
	CHECK(!o.csum_blank && !o.data_validated);
	CHECK(o.gso_type == XEN_NETIF_GSO_TYPE_NONE && field(m) == before);
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	CHECK(netif_offload_tx(m, 0, LINK_MTU, &o) == NETIF_OFFLOAD_SEND);
	CHECK(!o.csum_blank && o.data_validated);
	rte_pktmbuf_free(m);
}

static void
test_checksum_request_is_blank_for_a_peer_that_takes_it(void)
{
	struct rte_mbuf *m = frame(false, IPPROTO_UDP, 100, 2048);
	struct netif_offload o;

	m->ol_flags = RTE_MBUF_F_TX_UDP_CKSUM | RTE_MBUF_F_TX_IPV4;
	CHECK(netif_offload_tx(m, NETIF_PEER_CSUM_IPV4, LINK_MTU, &o) ==
	      NETIF_OFFLOAD_SEND);
	CHECK(o.csum_blank && o.data_validated);
	CHECK(field(m) == pseudo(m, 0));
	rte_pktmbuf_free(m);
	/* IPv6 needs feature-ipv6-csum-offload: computed here instead. */
	m = frame(true, IPPROTO_TCP, 100, 2048);
	m->ol_flags = RTE_MBUF_F_TX_TCP_CKSUM | RTE_MBUF_F_TX_IPV6;
	CHECK(netif_offload_tx(m, NETIF_PEER_CSUM_IPV4, LINK_MTU, &o) ==
	      NETIF_OFFLOAD_SEND);
	CHECK(!o.csum_blank && !o.data_validated && l4_valid(m));
	rte_pktmbuf_free(m);
}

static void
test_tso_request_is_gso_for_a_peer_that_takes_it(void)
{
	struct rte_mbuf *m = frame(false, IPPROTO_TCP, 60000, 2048);
	struct rte_ipv4_hdr *ip;
	struct netif_offload o;

	m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4 |
		      RTE_MBUF_F_TX_IP_CKSUM;
	m->tso_segsz = 1448;
	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, L2);
	ip->hdr_checksum = 0;	/* as DPDK's TSO contract leaves it */
	CHECK(netif_offload_tx(m, NETIF_PEER_GSO_TCPV4, LINK_MTU, &o) ==
	      NETIF_OFFLOAD_SEND);
	CHECK(o.gso_type == XEN_NETIF_GSO_TYPE_TCPV4 && o.gso_size == 1448);
	CHECK(o.csum_blank && o.data_validated);
	/* Linux's partial sum: with the length. */
	CHECK(field(m) == pseudo(m, 0));
	CHECK(ip_valid(m));
	CHECK(netif_offload_tx(m, NETIF_PEER_GSO_TCPV6 | NETIF_PEER_CSUM_IPV4,
			       LINK_MTU, &o) == NETIF_OFFLOAD_SEGMENT);
	rte_pktmbuf_free(m);
}

/*
 * A segment size set on a link of a larger MTU (a guest with MTU 9000, an
 * application's choice) is lowered to what this link's frames carry:
 * 1500 - 20 - 20 for IPv4, 1500 - 40 - 20 for IPv6, in @m too, so that a
 * cut for a peer without GSO makes frames within the MTU. Headers the MTU
 * cannot carry with any payload: dropped.
 */
static void
test_tso_segment_size_is_kept_within_the_mtu(void)
{
	static const struct {
		bool v6;
		uint32_t payload;
		uint16_t mss;
	} cases[] = {
		{ false, 60000, 1460 },
		{ true, 60000, 1440 },
		/* One segment of 8948 bytes, several of this link's. */
		{ false, 5000, 1460 },
	};
	struct netif_offload o;
	struct rte_mbuf *m;
	unsigned int i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		uint32_t peer = NETIF_PEER_GSO_TCPV4 | NETIF_PEER_GSO_TCPV6 |
				NETIF_PEER_CSUM_IPV4 | NETIF_PEER_CSUM_IPV6;

		m = frame(cases[i].v6, IPPROTO_TCP, cases[i].payload, 2048);
		m->ol_flags =
			RTE_MBUF_F_TX_TCP_SEG |
			(cases[i].v6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4);
		m->tso_segsz = 9000 - (cases[i].v6 ? 40 : 20) - 20;
		CHECK(netif_offload_tx(m, peer, LINK_MTU, &o) ==
		      NETIF_OFFLOAD_SEND);
		CHECK(o.gso_size == cases[i].mss);
		CHECK(m->tso_segsz == cases[i].mss);
		m->tso_segsz = 8948;
		CHECK(netif_offload_tx(
			      m, NETIF_PEER_CSUM_IPV4 | NETIF_PEER_CSUM_IPV6,
			      LINK_MTU, &o) == NETIF_OFFLOAD_SEGMENT);
		CHECK(m->tso_segsz == cases[i].mss);
		/* Within the MTU already: as the sender chose. */
		m->tso_segsz = 1000;
		CHECK(netif_offload_tx(m, peer, LINK_MTU, &o) ==
		      NETIF_OFFLOAD_SEND);
		CHECK(o.gso_size == 1000 && m->tso_segsz == 1000);
		rte_pktmbuf_free(m);
	}
	m = frame(false, IPPROTO_TCP, 5000, 2048);
	m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4;
	m->tso_segsz = 1448;
	CHECK(netif_offload_tx(m, ~0u, 40, &o) == NETIF_OFFLOAD_DROP);
	rte_pktmbuf_free(m);
}

static void
test_tso_request_of_one_segment_is_a_checksum(void)
{
	struct rte_mbuf *m = frame(false, IPPROTO_TCP, 1448, 2048);
	struct netif_offload o;

	m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4;
	m->tso_segsz = 1448;
	CHECK(netif_offload_tx(m, 0, LINK_MTU, &o) == NETIF_OFFLOAD_SEND);
	CHECK(o.gso_type == XEN_NETIF_GSO_TYPE_NONE && !o.csum_blank);
	CHECK(l4_valid(m) && ip_valid(m));
	rte_pktmbuf_free(m);
}

static void
test_impossible_requests_are_dropped(void)
{
	struct rte_mbuf *m = frame(false, IPPROTO_UDP, 5000, 2048);
	struct netif_offload o;

	m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4;
	m->tso_segsz = 1448;
	CHECK(netif_offload_tx(m, ~0u, LINK_MTU, &o) == NETIF_OFFLOAD_DROP);
	m->ol_flags = RTE_MBUF_F_TX_TCP_CKSUM | RTE_MBUF_F_TX_IPV4;
	CHECK(netif_offload_tx(m, ~0u, LINK_MTU, &o) == NETIF_OFFLOAD_DROP);
	rte_pktmbuf_free(m);
	m = frame(false, IPPROTO_TCP, 5000, 2048);
	m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4;
	m->tso_segsz = 0;
	CHECK(netif_offload_tx(m, ~0u, LINK_MTU, &o) == NETIF_OFFLOAD_DROP);
	rte_pktmbuf_free(m);
	m = frame(false, IPPROTO_ICMP, 64, 2048);
	m->ol_flags = RTE_MBUF_F_TX_UDP_CKSUM | RTE_MBUF_F_TX_IPV4;
	CHECK(netif_offload_tx(m, ~0u, LINK_MTU, &o) == NETIF_OFFLOAD_DROP);
	rte_pktmbuf_free(m);
}

static void
test_ip_checksum_request_is_computed(void)
{
	struct rte_mbuf *m = frame(false, IPPROTO_ICMP, 64, 2048);
	struct rte_ipv4_hdr *ip;
	struct netif_offload o;

	ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, L2);
	ip->hdr_checksum = 0x1234;
	m->ol_flags = RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_IPV4;
	CHECK(netif_offload_tx(m, ~0u, LINK_MTU, &o) == NETIF_OFFLOAD_SEND);
	CHECK(ip_valid(m) && !o.csum_blank);
	rte_pktmbuf_free(m);
}

/* A guest's GSO packet forwarded to another guest keeps its size, in either form. */
static void
test_received_gso_packet_is_sent_as_gso(void)
{
	static const uint32_t forms[] = { 0, NETIF_RX_COMPLIANT };
	struct netif_offload in = gso(XEN_NETIF_GSO_TYPE_TCPV4, 1448, true);
	unsigned int i;

	for (i = 0; i < RTE_DIM(forms); i++) {
		struct rte_mbuf *m = frame(false, IPPROTO_TCP, 60000, 2048);
		struct netif_offload out;
		const char *why = NULL;

		CHECK(netif_offload_rx(m, &in, NETIF_RX_GSO | NETIF_RX_TCP_CSUM |
				       forms[i], &why) == 0);
		CHECK(netif_offload_tx(
			      m, NETIF_PEER_GSO_TCPV4 | NETIF_PEER_CSUM_IPV4,
			      LINK_MTU, &out) == NETIF_OFFLOAD_SEND);
		CHECK(out.gso_type == in.gso_type &&
		      out.gso_size == in.gso_size);
		CHECK(out.csum_blank && out.data_validated);
		CHECK(field(m) == pseudo(m, 0) && ip_valid(m));
		/* To a peer without GSO: cut. */
		CHECK(netif_offload_tx(m, NETIF_PEER_CSUM_IPV4, LINK_MTU,
				       &out) == NETIF_OFFLOAD_SEGMENT);
		rte_pktmbuf_free(m);
	}
}

/*
 * Forwarded from a port that received it (a virtio or NIC LRO aggregate):
 * no Tx request, but a large segment and a checksum not in the data.
 */
static void
test_received_aggregate_is_sent_as_gso_or_cut(void)
{
	struct rte_mbuf *m = frame(false, IPPROTO_TCP, 60000, 2048);
	struct netif_offload o;

	m->ol_flags = RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_NONE;
	m->tso_segsz = 1448;
	CHECK(netif_offload_tx(m, NETIF_PEER_GSO_TCPV4, LINK_MTU, &o) ==
	      NETIF_OFFLOAD_SEND);
	CHECK(o.gso_type == XEN_NETIF_GSO_TYPE_TCPV4 && o.gso_size == 1448);
	CHECK(o.csum_blank && field(m) == pseudo(m, 0) && ip_valid(m));
	CHECK(netif_offload_tx(m, NETIF_PEER_CSUM_IPV4, LINK_MTU, &o) ==
	      NETIF_OFFLOAD_SEGMENT);
	rte_pktmbuf_free(m);
}

static void
test_received_checksum_not_in_the_data_is_finished(void)
{
	struct rte_mbuf *m = frame(false, IPPROTO_UDP, 100, 2048);
	struct netif_offload o;

	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	CHECK(netif_offload_tx(m, NETIF_PEER_CSUM_IPV4, LINK_MTU, &o) ==
	      NETIF_OFFLOAD_SEND);
	CHECK(o.csum_blank && o.data_validated && field(m) == pseudo(m, 0));
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	CHECK(netif_offload_tx(m, 0, LINK_MTU, &o) == NETIF_OFFLOAD_SEND);
	CHECK(!o.csum_blank && l4_valid(m));
	rte_pktmbuf_free(m);
	/* Nothing to finish on a frame without TCP or UDP: as it is. */
	m = frame(false, IPPROTO_ICMP, 64, 2048);
	m->ol_flags = RTE_MBUF_F_RX_L4_CKSUM_NONE;
	CHECK(netif_offload_tx(m, ~0u, LINK_MTU, &o) == NETIF_OFFLOAD_SEND);
	CHECK(!o.csum_blank);
	rte_pktmbuf_free(m);
}

TEST_MAIN(test_eal_pool_setup, test_eal_teardown)
{
	RUN(test_a_packet_is_walked_only_when_needed);
	RUN(test_blank_checksum_is_flagged_under_the_offload);
	RUN(test_blank_checksum_in_the_compliant_form_has_no_tx_request);
	RUN(test_blank_checksum_is_completed_without_the_offload);
	RUN(test_blank_checksum_without_l4_is_refused);
	RUN(test_data_validated_is_a_good_checksum);
	RUN(test_ip_checksum_is_verified_under_the_offload);
	RUN(test_gso_packet_becomes_a_tso_request_in_the_legacy_form);
	RUN(test_gso_packet_becomes_an_aggregate_in_the_compliant_form);
	RUN(test_gso_packets_that_do_not_fit_are_refused);
	RUN(test_plain_packets_are_sent_as_they_are);
	RUN(test_checksum_request_is_blank_for_a_peer_that_takes_it);
	RUN(test_tso_request_is_gso_for_a_peer_that_takes_it);
	RUN(test_tso_segment_size_is_kept_within_the_mtu);
	RUN(test_tso_request_of_one_segment_is_a_checksum);
	RUN(test_impossible_requests_are_dropped);
	RUN(test_ip_checksum_request_is_computed);
	RUN(test_received_gso_packet_is_sent_as_gso);
	RUN(test_received_aggregate_is_sent_as_gso_or_cut);
	RUN(test_received_checksum_not_in_the_data_is_finished);
}
