/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A vif's hash (netif_hash.h): the Toeplitz tables give Microsoft's RSS
 * verification values ("Verifying the RSS Hash Calculation") with its
 * key, over the fields netif.h names for each hash type, and DPDK's
 * rte_softrss() values with any key over any input; a frame is
 * hashed by the most specific type the frontend asked for, or not at all,
 * the same whether its headers are read in place or walked;
 * and the control requests are answered as Linux netback answers them,
 * XSA-270's bounds on the mapping table included: a refused request
 * changes nothing, and every accepted change is published only once the
 * bursts that read the old one are gone.
 */

#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_random.h>
#include <rte_tcp.h>
#include <rte_thash.h>
#include <rte_udp.h>

#include "netif_hash.h"
#include "ms_rss.h"
#include "netif_l2.h"
#include "test.h"
#include "test_eal.h"

/* Microsoft's IPv4 table: destination, source, and the two hashes. */
static const struct {
	uint8_t dst[4], src[4];
	uint16_t dport, sport;
	uint32_t ip, tcp;
} v4[] = {
	{ { 161, 142, 100, 80 }, { 66, 9, 149, 187 }, 1766, 2794,
	  0x323e8fc2, 0x51ccc178 },
	{ { 65, 69, 140, 83 }, { 199, 92, 111, 2 }, 4739, 14230,
	  0xd718262a, 0xc626b0ea },
	{ { 12, 22, 207, 184 }, { 24, 19, 198, 95 }, 38024, 12898,
	  0xd2d0a5de, 0x5c2b394a },
	{ { 209, 142, 163, 6 }, { 38, 27, 205, 30 }, 2217, 48228,
	  0x82989176, 0xafc7327f },
	{ { 202, 188, 127, 2 }, { 153, 39, 163, 191 }, 1303, 44251,
	  0x5d1809c5, 0x10e828a2 },
};

/* And its IPv6 table. */
static const struct {
	uint8_t dst[16], src[16];
	uint16_t dport, sport;
	uint32_t ip, tcp;
} v6[] = {
	{ { 0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x00, 0x03,
	    0, 0, 0, 0, 0, 0, 0, 1 },
	  { 0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x1f, 0xff,
	    0, 0, 0, 0, 0, 0, 0, 7 }, 1766, 2794, 0x2cc18cd5, 0x40207d3d },
	{ { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 },
	  { 0x3f, 0xfe, 0x05, 0x01, 0x00, 0x08, 0x00, 0x00,
	    0x02, 0x60, 0x97, 0xff, 0xfe, 0x40, 0xef, 0xab },
	  4739, 14230, 0x0f0c461c, 0xdde51bbf },
	{ { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
	    0x02, 0x00, 0xf8, 0xff, 0xfe, 0x21, 0x67, 0xcf },
	  { 0x3f, 0xfe, 0x19, 0x00, 0x45, 0x45, 0x00, 0x03,
	    0x02, 0x00, 0xf8, 0xff, 0xfe, 0x21, 0x67, 0xcf },
	  38024, 44251, 0x4b61e985, 0x02d1feef },
};

static void
test_toeplitz_gives_microsofts_values(void)
{
	static struct netif_toeplitz t;
	uint8_t buf[36];
	unsigned int i;

	netif_toeplitz_init(&t, ms_rss_key);
	for (i = 0; i < RTE_DIM(v4); i++) {
		uint16_t sport = rte_cpu_to_be_16(v4[i].sport);
		uint16_t dport = rte_cpu_to_be_16(v4[i].dport);

		/* netif.h: source address, destination, ports likewise. */
		memcpy(buf, v4[i].src, 4);
		memcpy(buf + 4, v4[i].dst, 4);
		memcpy(buf + 8, &sport, 2);
		memcpy(buf + 10, &dport, 2);
		CHECK(netif_toeplitz(&t, 0, buf, 8) == v4[i].ip);
		CHECK(netif_toeplitz(&t, 0, buf, 12) == v4[i].tcp);
	}
	for (i = 0; i < RTE_DIM(v6); i++) {
		uint16_t sport = rte_cpu_to_be_16(v6[i].sport);
		uint16_t dport = rte_cpu_to_be_16(v6[i].dport);

		memcpy(buf, v6[i].src, 16);
		memcpy(buf + 16, v6[i].dst, 16);
		memcpy(buf + 32, &sport, 2);
		memcpy(buf + 34, &dport, 2);
		CHECK(netif_toeplitz(&t, 0, buf, 32) == v6[i].ip);
		CHECK(netif_toeplitz(&t, 0, buf, 36) == v6[i].tcp);
	}
}

/*
 * Any key, any input up to the longest: what DPDK's bit-by-bit
 * rte_softrss() gives (it takes whole words, in CPU order).
 */
static void
test_toeplitz_gives_rte_softrss_values(void)
{
	static struct netif_toeplitz t;
	unsigned int round, len, i, bad = 0;

	for (round = 0; round < 64; round++) {
		uint8_t key[NETIF_TOEPLITZ_KEY_MAX];
		uint8_t buf[NETIF_TOEPLITZ_INPUT_MAX];
		uint32_t words[NETIF_TOEPLITZ_INPUT_MAX / 4];

		for (i = 0; i < sizeof(key); i++)
			key[i] = rte_rand();
		/* The first round's key: the last bit alone. */
		if (round == 0) {
			memset(key, 0, sizeof(key));
			key[sizeof(key) - 1] = 1;
		}
		netif_toeplitz_init(&t, key);
		for (len = 0; len <= NETIF_TOEPLITZ_INPUT_MAX; len += 4) {
			memset(buf, 0, sizeof(buf));
			for (i = 0; i < len; i++)
				buf[i] = round == 0 ? 0xff : rte_rand();
			for (i = 0; i < RTE_DIM(words); i++)
				words[i] = (uint32_t)buf[4 * i] << 24 |
					   (uint32_t)buf[4 * i + 1] << 16 |
					   (uint32_t)buf[4 * i + 2] << 8 |
					   buf[4 * i + 3];
			if (netif_toeplitz(&t, 0, buf, len) !=
			    rte_softrss(words, len / 4, key))
				bad++;
			/* In two parts, each at its position. */
			if (len > 0 &&
			    (netif_toeplitz(&t, 0, buf, len - 4) ^
			     netif_toeplitz(&t, len - 4, buf + len - 4, 4)) !=
				    rte_softrss(words, len / 4, key))
				bad++;
		}
	}
	CHECK(bad == 0);
}

/*
 * An IPv4 frame of Microsoft's first row, over TCP or UDP, its packet
 * type and lengths left unset: the hash finds its headers itself.
 */
static struct rte_mbuf *
v4_frame(uint8_t proto)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	uint16_t *ports;

	if (m == NULL || rte_pktmbuf_append(m, 14 + 20 + 20) == NULL)
		return NULL;
	memset(rte_pktmbuf_mtod(m, void *), 0, 54);
	eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(40);
	ip->next_proto_id = proto;
	memcpy(&ip->src_addr, v4[0].src, 4);
	memcpy(&ip->dst_addr, v4[0].dst, 4);
	ports = (uint16_t *)(ip + 1);
	ports[0] = rte_cpu_to_be_16(v4[0].sport);
	ports[1] = rte_cpu_to_be_16(v4[0].dport);
	return m;
}

static void
test_a_frame_is_hashed_by_the_most_specific_type_asked(void)
{
	static struct netif_hash_live live = { .cfg.alg = 1 };
	struct netif_hash_config *cfg = &live.cfg;
	struct rte_mbuf *tcp = v4_frame(IPPROTO_TCP);
	struct rte_mbuf *udp = v4_frame(IPPROTO_UDP);
	uint32_t value;
	uint8_t type;

	REQUIRE(tcp != NULL && udp != NULL);
	netif_toeplitz_init(&live.toeplitz, ms_rss_key);
	cfg->flags = XEN_NETIF_CTRL_HASH_TYPE_IPV4 |
		     XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP;
	CHECK(netif_hash_frame(&live, tcp, &value, &type) &&
	      value == v4[0].tcp && type == _XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP);
	/* Not TCP: the addresses alone. */
	CHECK(netif_hash_frame(&live, udp, &value, &type) &&
	      value == v4[0].ip && type == _XEN_NETIF_CTRL_HASH_TYPE_IPV4);
	cfg->flags = XEN_NETIF_CTRL_HASH_TYPE_IPV4;
	CHECK(netif_hash_frame(&live, tcp, &value, &type) &&
	      value == v4[0].ip && type == _XEN_NETIF_CTRL_HASH_TYPE_IPV4);
	cfg->flags = XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP;
	CHECK(netif_hash_frame(&live, tcp, &value, &type) &&
	      value == v4[0].tcp && type == _XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP);
	CHECK(!netif_hash_frame(&live, udp, &value, &type));
	cfg->flags = XEN_NETIF_CTRL_HASH_TYPE_IPV6 |
		     XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP;
	CHECK(!netif_hash_frame(&live, tcp, &value, &type));
	/* Common frames, read where they lie: not walked. */
	CHECK(tcp->packet_type == RTE_PTYPE_UNKNOWN &&
	      udp->packet_type == RTE_PTYPE_UNKNOWN);
	/* A first segment that claims more than the frame: not read past it. */
	cfg->flags = NETIF_HASH_TYPES;
	tcp->pkt_len = 14 + 20 - 1;
	CHECK(!netif_hash_frame(&live, tcp, &value, &type));
	tcp->pkt_len = tcp->data_len;
	rte_pktmbuf_free(tcp);
	rte_pktmbuf_free(udp);
}

/* An IPv6 TCP frame of Microsoft's first row, in one segment. */
static void
test_an_ipv6_frame_is_hashed_by_its_addresses_and_ports(void)
{
	static struct netif_hash_live live = { .cfg.alg = 1 };
	struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);
	struct rte_ipv6_hdr *ip;
	uint16_t *ports;
	uint8_t *f;
	uint32_t value;
	uint8_t type;

	REQUIRE(m != NULL);
	f = (uint8_t *)rte_pktmbuf_append(m, 14 + 40 + 20);
	REQUIRE(f != NULL);
	memset(f, 0, 14 + 40 + 20);
	f[12] = 0x86;
	f[13] = 0xdd;
	ip = (struct rte_ipv6_hdr *)(f + 14);
	ip->vtc_flow = rte_cpu_to_be_32(6u << 28);
	ip->proto = IPPROTO_TCP;
	memcpy(ip->src_addr, v6[0].src, 16);
	memcpy(ip->dst_addr, v6[0].dst, 16);
	ports = (uint16_t *)(ip + 1);
	ports[0] = rte_cpu_to_be_16(v6[0].sport);
	ports[1] = rte_cpu_to_be_16(v6[0].dport);
	netif_toeplitz_init(&live.toeplitz, ms_rss_key);
	live.cfg.flags = XEN_NETIF_CTRL_HASH_TYPE_IPV6 |
			 XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP;
	m->packet_type = RTE_PTYPE_UNKNOWN;
	CHECK(netif_hash_frame(&live, m, &value, &type) && value == v6[0].tcp &&
	      type == _XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP);
	/* A common frame, read where it lies: not walked. */
	CHECK(m->packet_type == RTE_PTYPE_UNKNOWN);
	live.cfg.flags = XEN_NETIF_CTRL_HASH_TYPE_IPV6;
	CHECK(netif_hash_frame(&live, m, &value, &type) && value == v6[0].ip &&
	      type == _XEN_NETIF_CTRL_HASH_TYPE_IPV6);
	/* Cut short of its TCP header: the addresses alone. */
	rte_pktmbuf_trim(m, 1);
	live.cfg.flags = XEN_NETIF_CTRL_HASH_TYPE_IPV6 |
			 XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP;
	CHECK(netif_hash_frame(&live, m, &value, &type) && value == v6[0].ip &&
	      type == _XEN_NETIF_CTRL_HASH_TYPE_IPV6);
	rte_pktmbuf_free(m);
}

/* The frames of the test below: what follows the Ethernet addresses. */
enum hash_kind {
	HK_V4_TCP,
	HK_V4_UDP,
	HK_V4_ICMP,
	HK_V4_TCP_FIRST_FRAGMENT,
	HK_V4_TCP_LATER_FRAGMENT,
	HK_V4_OPTS_TCP,
	HK_V4_WRONG_VERSION,
	HK_V6_TCP,
	HK_V6_UDP,
	HK_V6_ICMP,
	HK_V6_FRAGMENT_TCP,
	HK_V6_HOP_BY_HOP_TCP,
	HK_V6_WRONG_VERSION,
	HK_VLAN_V4_TCP,
	HK_QINQ_V6_TCP,
	HK_ARP,
	HK_NB
};

/*
 * Frame @k of @len bytes into @f: random bytes (addresses and ports
 * among them) under the headers its kind names.
 */
static void
hash_kind_build(uint8_t *f, unsigned int len, enum hash_kind k)
{
	uint8_t *p = f + 12;
	unsigned int i;

	for (i = 0; i < len; i++)
		f[i] = rte_rand();
	if (k == HK_VLAN_V4_TCP || k == HK_QINQ_V6_TCP) {
		p[0] = k == HK_QINQ_V6_TCP ? 0x88 : 0x81;
		p[1] = k == HK_QINQ_V6_TCP ? 0xa8 : 0x00;
		p += 4;
	}
	if (k == HK_QINQ_V6_TCP) {
		p[0] = 0x81;
		p[1] = 0x00;
		p += 4;
	}
	switch (k) {
	case HK_V6_TCP:
	case HK_V6_UDP:
	case HK_V6_ICMP:
	case HK_V6_FRAGMENT_TCP:
	case HK_V6_HOP_BY_HOP_TCP:
	case HK_V6_WRONG_VERSION:
	case HK_QINQ_V6_TCP:
		p[0] = 0x86;
		p[1] = 0xdd;
		p[2] = k == HK_V6_WRONG_VERSION ? 0x45 : 0x60;
		p[8] = k == HK_V6_UDP		 ? IPPROTO_UDP :
		       k == HK_V6_ICMP		 ? IPPROTO_ICMPV6 :
		       k == HK_V6_FRAGMENT_TCP	 ? IPPROTO_FRAGMENT :
		       k == HK_V6_HOP_BY_HOP_TCP ? IPPROTO_HOPOPTS :
						   IPPROTO_TCP;
		/* An extension header of 8 bytes, then TCP. */
		p[2 + 40] = IPPROTO_TCP;
		p[2 + 41] = 0;
		if (k == HK_V6_FRAGMENT_TCP)
			memset(&p[2 + 42], 0, 4); /* offset 0, last */
		break;
	case HK_ARP:
		p[0] = 0x08;
		p[1] = 0x06;
		break;
	default:
		p[0] = 0x08;
		p[1] = 0x00;
		p[2] = k == HK_V4_OPTS_TCP	? 0x46 :
		       k == HK_V4_WRONG_VERSION ? 0x65 :
						  0x45;
		p[2 + 9] = k == HK_V4_UDP  ? IPPROTO_UDP :
			   k == HK_V4_ICMP ? IPPROTO_ICMP :
					     IPPROTO_TCP;
		/* Flags and fragment offset: MF alone, an offset alone. */
		p[2 + 6] = k == HK_V4_TCP_FIRST_FRAGMENT ? 0x20 : 0;
		p[2 + 7] = k == HK_V4_TCP_LATER_FRAGMENT ? 0x10 : 0;
		break;
	}
}

/* @len bytes of @f in an mbuf, the first segment @first bytes of them. */
static struct rte_mbuf *
hash_kind_mbuf(const uint8_t *f, unsigned int len, unsigned int first)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);
	struct rte_mbuf *rest = rte_pktmbuf_alloc(test_pool);
	void *p, *q;

	if (m == NULL || rest == NULL)
		goto fail;
	p = rte_pktmbuf_append(m, first);
	q = rte_pktmbuf_append(rest, len - first);
	if (p == NULL || q == NULL)
		goto fail;
	memcpy(p, f, first);
	memcpy(q, f + first, len - first);
	/* Past the first segment: not the frame's bytes. */
	memset((uint8_t *)p + first, 0x5a, rte_pktmbuf_tailroom(m));
	if (len > first) {
		if (rte_pktmbuf_chain(m, rest) != 0)
			goto fail;
	} else {
		rte_pktmbuf_free(rest);
	}
	/* Stale types and lengths, which the hash must not believe. */
	m->packet_type = (uint32_t)rte_rand();
	m->tx_offload = rte_rand();
	return m;
fail:
	rte_pktmbuf_free(m);
	rte_pktmbuf_free(rest);
	return NULL;
}

/*
 * Every frame gets the same hash whether its headers are in its first
 * segment (the common ones read in place) or not (a first segment of 14
 * bytes: walked): tagged or not, IPv4 with options or fragmented, IPv6
 * with extension headers, its first segment or the frame itself ending
 * anywhere around its IP and TCP headers, under every set of flags.
 */
static void
test_a_frame_is_hashed_alike_wherever_its_headers_lie(void)
{
	static const unsigned int lens[] = { 20, 37, 38, 53, 54, 57,
					     58, 73, 74, 81, 82, 128 };
	static const uint32_t flags[] = {
		NETIF_HASH_TYPES,
		XEN_NETIF_CTRL_HASH_TYPE_IPV4,
		XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP,
		XEN_NETIF_CTRL_HASH_TYPE_IPV6,
		XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP,
	};
	/* First segments: the whole frame, or ending in the IP header or
	 * the ports. */
	static const unsigned int cuts[] = { 128, 36, 56 };
	static struct netif_hash_live live = { .cfg.alg = 1 };
	unsigned int k, l, c, fl, i, hashed = 0, differ = 0;
	uint8_t key[NETIF_TOEPLITZ_KEY_MAX], f[128];

	for (i = 0; i < sizeof(key); i++)
		key[i] = rte_rand();
	netif_toeplitz_init(&live.toeplitz, key);
	for (k = 0; k < HK_NB; k++) {
		for (l = 0; l < RTE_DIM(lens); l++) {
			struct rte_mbuf *walked;

			hash_kind_build(f, lens[l], k);
			walked = hash_kind_mbuf(f, lens[l], 14);
			REQUIRE(walked != NULL);
			for (c = 0; c < RTE_DIM(cuts); c++) {
				unsigned int first = RTE_MIN(cuts[c], lens[l]);
				struct rte_mbuf *m;

				m = hash_kind_mbuf(f, lens[l], first);
				REQUIRE(m != NULL);
				for (fl = 0; fl < RTE_DIM(flags); fl++) {
					uint32_t v1 = 0, v2 = 0;
					uint8_t t1 = 0, t2 = 0;
					bool h1, h2;

					live.cfg.flags = flags[fl];
					h1 = netif_hash_frame(&live, m, &v1,
							      &t1);
					h2 = netif_hash_frame(&live, walked,
							      &v2, &t2);
					hashed += h1;
					if (h1 == h2 && v1 == v2 && t1 == t2)
						continue;
					differ++;
					printf("# kind %u, %u bytes (first %u), flags %#x: %d %#x %u, walked %d %#x %u\n",
					       k, lens[l], first, flags[fl], h1,
					       v1, t1, h2, v2, t2);
				}
				rte_pktmbuf_free(m);
			}
			rte_pktmbuf_free(walked);
		}
	}
	CHECK(differ == 0);
	/* Not a test of nothing: most of them have a hash. */
	CHECK(hashed > HK_NB * RTE_DIM(lens) * RTE_DIM(cuts));
}

/* The frontend's grants, as the backend reads them: ref 5 holds @page. */
static uint8_t page[NETIF_PAGE_SIZE];
static unsigned int quiesced;

static bool
read_grant(void *opaque __rte_unused, grant_ref_t ref, void *dst, uint32_t len)
{
	if (ref != 5 || len > sizeof(page))
		return false;
	memcpy(dst, page, len);
	return true;
}

static void
count_quiesce(void *opaque __rte_unused)
{
	quiesced++;
}

static uint32_t
ask(struct netif_hash *h, uint16_t type, uint32_t d0, uint32_t d1,
    uint32_t d2, uint32_t *data)
{
	struct xen_netif_ctrl_request req = {
		.type = type, .data = { d0, d1, d2 },
	};
	struct xen_netif_ctrl_response rsp = { .status = 0xdead };

	CHECK(netif_hash_serve(h, &req, &rsp));
	if (data != NULL)
		*data = rsp.data;
	return rsp.status;
}

#define OK XEN_NETIF_CTRL_STATUS_SUCCESS
#define BAD XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER

static void
test_control_requests_are_answered_as_linux_does(void)
{
	/* Static: its tables take 72 KiB. */
	static struct netif_hash h = {
		.read = read_grant,
		.quiesce = count_quiesce,
	};
	struct xen_netif_ctrl_request other = {
		.type = XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING,
	};
	struct xen_netif_ctrl_response rsp;
	uint32_t data, *entries = (uint32_t *)page;

	netif_hash_reset(&h, 4);
	quiesced = 0;
	/* Flags need an algorithm; only Toeplitz is one. */
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS,
		  XEN_NETIF_CTRL_HASH_TYPE_IPV4, 0, 0, NULL) == BAD);
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM, 2, 0, 0,
		  NULL) == BAD);
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM,
		  XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ, 0, 0, NULL) == OK);
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_GET_HASH_FLAGS, 0, 0, 0, &data) ==
	      OK && data == NETIF_HASH_TYPES);
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS, 1u << 4, 0, 0,
		  NULL) == BAD);
	/* No flags yet: nothing for the data plane. */
	CHECK(h.active == NULL);
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS,
		  NETIF_HASH_TYPES, 0, 0, NULL) == OK);
	CHECK(h.active != NULL && h.active->cfg.flags == NETIF_HASH_TYPES);
	/* The key: at most 40 bytes, from a grant the frontend gave. */
	memcpy(page, ms_rss_key, sizeof(ms_rss_key));
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_KEY, 5, 41, 0, NULL) ==
	      XEN_NETIF_CTRL_STATUS_BUFFER_OVERFLOW);
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_KEY, 6, 40, 0, NULL) ==
	      BAD);
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_KEY, 5, 40, 0, NULL) == OK);
	CHECK(memcmp(h.active->cfg.key, ms_rss_key, sizeof(ms_rss_key)) == 0);
	/* The data plane's tables are the key's. */
	CHECK(netif_toeplitz(&h.active->toeplitz, 0, ms_rss_row1 + 26, 12) ==
	      MS_RSS_ROW1_TCP);
	/* A shorter key: the rest is zeros, in the tables too. */
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_KEY, 5, 4, 0, NULL) == OK);
	CHECK(h.active->cfg.key[3] == ms_rss_key[3] &&
	      h.active->cfg.key[4] == 0);
	CHECK(netif_toeplitz(&h.active->toeplitz, 0, ms_rss_row1 + 26, 12) ==
	      rte_softrss((uint32_t[]){ 66 << 24 | 9 << 16 | 149 << 8 | 187,
					161u << 24 | 142 << 16 | 100 << 8 | 80,
					2794u << 16 | 1766 },
			  3, h.active->cfg.key));
	/* The table: its size, then its entries within it. */
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_GET_HASH_MAPPING_SIZE, 0, 0, 0,
		  &data) == OK && data == NETIF_HASH_MAPPING_MAX);
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE,
		  NETIF_HASH_MAPPING_MAX + 1, 0, 0, NULL) == BAD);
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE, 64, 0, 0,
		  NULL) == OK);
	for (unsigned int i = 0; i < 64; i++)
		entries[i] = i % 4;
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING, 5, 64, 0, NULL) ==
	      OK);
	CHECK(netif_hash_queue(&h.active->cfg, 4, 64 + 7) == 3);
	/* XSA-270: past the table, wrapping, or a queue it does not have. */
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING, 5, 8, 60, NULL) ==
	      BAD);
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING, 5, 2,
		  UINT32_MAX, NULL) == BAD);
	entries[0] = 2;
	entries[1] = 4;
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING, 5, 2, 10, NULL) ==
	      BAD);
	CHECK(h.active->cfg.mapping[10] == 2 && h.active->cfg.mapping[11] == 3);
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING, 6, 1, 10, NULL) ==
	      BAD);
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING, 5, 1, 10, NULL) ==
	      OK);
	CHECK(h.active->cfg.mapping[10] == 2 && h.active->cfg.mapping[11] == 3);
	/* Modulo the queues without a table. */
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE, 0, 0, 0,
		  NULL) == OK);
	CHECK(netif_hash_queue(&h.active->cfg, 4, 7) == 3);
	/* Every accepted change waited out the bursts. */
	CHECK(quiesced == 8);
	/* Off again. */
	CHECK(ask(&h, XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM,
		  XEN_NETIF_CTRL_HASH_ALGORITHM_NONE, 0, 0, NULL) == OK);
	CHECK(h.active == NULL);
	/* Not a hash request: not ours. */
	CHECK(!netif_hash_serve(&h, &other, &rsp));
}

TEST_MAIN(test_eal_pool_setup, test_eal_teardown)
{
	RUN(test_toeplitz_gives_microsofts_values);
	RUN(test_toeplitz_gives_rte_softrss_values);
	RUN(test_a_frame_is_hashed_by_the_most_specific_type_asked);
	RUN(test_an_ipv6_frame_is_hashed_by_its_addresses_and_ports);
	RUN(test_a_frame_is_hashed_alike_wherever_its_headers_lie);
	RUN(test_control_requests_are_answered_as_linux_does);
}
