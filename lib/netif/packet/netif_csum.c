/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Software completion of blank TCP/UDP checksums (see netif_csum.h). Like
 * Linux netback's checksum set-up, it trusts nothing in the partial field
 * and computes the whole checksum, pseudo-header included, from the frame.
 * Where the headers are comes from the walk every received packet gets
 * (netif_l2.h), so a frame is classified and completed by the same rules.
 */

#include <stdbool.h>
#include <string.h>

#include <rte_ip.h>
#include <rte_mbuf_ptype.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "netif_csum.h"
#include "netif_l2.h"

/* Store @v at byte @off of the packet, in whichever segments hold it. */
static void
store_16(struct rte_mbuf *m, uint32_t off, uint16_t v)
{
	const uint8_t *b = (const uint8_t *)&v;
	unsigned int i;

	if (likely(off + sizeof(v) <= rte_pktmbuf_data_len(m))) {
		memcpy(rte_pktmbuf_mtod_offset(m, uint8_t *, off), &v,
		       sizeof(v));
		return;
	}
	for (i = 0; i < sizeof(v); i++, off++) {
		while (m != NULL && off >= rte_pktmbuf_data_len(m)) {
			off -= rte_pktmbuf_data_len(m);
			m = m->next;
		}
		if (m == NULL)
			return;
		*rte_pktmbuf_mtod_offset(m, uint8_t *, off) = b[i];
	}
}

/* @sum folded to 16 bits, carries added back in. */
static inline uint16_t
fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	return (sum & 0xffff) + (sum >> 16);
}

/*
 * The one's complement sum of the @len bytes at @off of @m, which lie in
 * the packet. Not rte_raw_cksum_mbuf(), which rte_ipv4_udptcp_cksum_mbuf()
 * uses: DPDK 22.11's byte-swaps a segment's partial sum before folding it
 * (fixed in later releases), so a segment that begins an odd number of
 * bytes after @off loses the sum's carries and the checksum is wrong. A
 * guest picks its slots' sizes; test_netif_csum cuts frames at every
 * boundary to show it.
 */
static uint16_t
sum_mbuf(const struct rte_mbuf *m, uint32_t off, uint32_t len)
{
	uint32_t sum = 0, done = 0;

	/* One segment, the usual case: 12 instructions a packet less. */
	if (likely(off + len <= rte_pktmbuf_data_len(m)))
		return rte_raw_cksum(rte_pktmbuf_mtod_offset(m, const void *,
							     off), len);
	while (m != NULL && off >= rte_pktmbuf_data_len(m)) {
		off -= rte_pktmbuf_data_len(m);
		m = m->next;
	}
	for (; m != NULL && done < len; m = m->next, off = 0) {
		uint32_t n = RTE_MIN(rte_pktmbuf_data_len(m) - off, len - done);
		uint16_t part = rte_raw_cksum(rte_pktmbuf_mtod_offset(m,
						const void *, off), n);

		/* Bytes at odd positions count as the high halves of words. */
		sum += done & 1 ? rte_bswap16(part) : part;
		done += n;
	}
	return fold(sum);
}

int
netif_csum_locate(const struct rte_mbuf *m, struct netif_l4_csum *c)
{
	uint32_t l3_off = m->l2_len, hdr_len, ip_len, l4_hdr_len;
	const void *ip;

	c->l4_off = l3_off + m->l3_len;
	switch (m->packet_type & RTE_PTYPE_L4_MASK) {
	case RTE_PTYPE_L4_TCP:
		c->udp = false;
		l4_hdr_len = sizeof(struct rte_tcp_hdr);
		c->field = c->l4_off + offsetof(struct rte_tcp_hdr, cksum);
		break;
	case RTE_PTYPE_L4_UDP:
		c->udp = true;
		l4_hdr_len = sizeof(struct rte_udp_hdr);
		c->field = c->l4_off + offsetof(struct rte_udp_hdr, dgram_cksum);
		break;
	default:
		/*
		 * No TCP or UDP header; or a fragment, whose checksum covers
		 * the whole datagram (Linux refuses those too).
		 */
		return -1;
	}
	switch (m->packet_type & RTE_PTYPE_L3_MASK) {
	case RTE_PTYPE_L3_IPV4:
	case RTE_PTYPE_L3_IPV4_EXT:
		ip = rte_pktmbuf_read(m, l3_off, sizeof(c->ip.v4), &c->ip.v4);
		if (ip == NULL)
			return -1;
		memmove(&c->ip.v4, ip, sizeof(c->ip.v4));
		c->ipv6 = false;
		hdr_len = rte_ipv4_hdr_len(&c->ip.v4);
		ip_len = rte_be_to_cpu_16(c->ip.v4.total_length);
		break;
	case RTE_PTYPE_L3_IPV6:
		ip = rte_pktmbuf_read(m, l3_off, sizeof(c->ip.v6), &c->ip.v6);
		if (ip == NULL)
			return -1;
		memmove(&c->ip.v6, ip, sizeof(c->ip.v6));
		c->ipv6 = true;
		hdr_len = sizeof(c->ip.v6);
		ip_len = sizeof(c->ip.v6) +
			 rte_be_to_cpu_16(c->ip.v6.payload_len);
		break;
	default:
		/*
		 * Not IP, or IPv6 with extension headers: the pseudo-header
		 * rte_ipv6_phdr_cksum() makes from the fixed header counts
		 * them in the length (and a routing header changes the
		 * destination), so it is right only without them.
		 */
		return -1;
	}
	/*
	 * The IP length is the sender's word: it must cover the L4 header
	 * and fit the frame. The header length must be the walk's, which
	 * the pseudo-header works out again from the header.
	 */
	if (hdr_len != m->l3_len || ip_len < hdr_len + l4_hdr_len ||
	    l3_off + ip_len > rte_pktmbuf_pkt_len(m))
		return -1;
	c->l4_len = ip_len - hdr_len;
	return 0;
}

uint16_t
netif_csum_pseudo(const struct netif_l4_csum *c, bool with_len)
{
	/* DPDK leaves the length out of a TSO packet's pseudo-header. */
	uint64_t ol_flags = with_len ? 0 : RTE_MBUF_F_TX_TCP_SEG;

	return c->ipv6 ? rte_ipv6_phdr_cksum(&c->ip.v6, ol_flags) :
			 rte_ipv4_phdr_cksum(&c->ip.v4, ol_flags);
}

void
netif_csum_store(struct rte_mbuf *m, uint32_t off, uint16_t v)
{
	store_16(m, off, v);
}

void
netif_csum_fill(struct rte_mbuf *m, const struct netif_l4_csum *c)
{
	uint16_t cksum;
	uint32_t sum;

	store_16(m, c->field, 0);
	sum = sum_mbuf(m, c->l4_off, c->l4_len);
	sum += netif_csum_pseudo(c, true);
	cksum = ~fold(sum);
	/* A UDP checksum of 0 means none: RFC 768 sends all ones. */
	if (cksum == 0 && c->udp)
		cksum = 0xffff;
	store_16(m, c->field, cksum);
}

/* The longest IPv4 header, options included. */
#define IPV4_HDR_MAX 60

static bool
is_ipv4(const struct rte_mbuf *m)
{
	switch (m->packet_type & RTE_PTYPE_L3_MASK) {
	case RTE_PTYPE_L3_IPV4:
	case RTE_PTYPE_L3_IPV4_EXT:
		return true;
	}
	return false;
}

/* A copy of the whole IPv4 header of @m in @buf; false when it has none. */
static bool
copy_ipv4_header(const struct rte_mbuf *m, uint8_t buf[IPV4_HDR_MAX])
{
	const void *ip;

	if (!is_ipv4(m) || m->l3_len > IPV4_HDR_MAX)
		return false;
	ip = rte_pktmbuf_read(m, m->l2_len, m->l3_len, buf);
	if (ip == NULL)
		return false;
	if (ip != (const void *)buf)
		memcpy(buf, ip, m->l3_len);
	return true;
}

int
netif_csum_ipv4_header(struct rte_mbuf *m)
{
	uint8_t buf[IPV4_HDR_MAX];
	uint16_t cksum;

	if (!copy_ipv4_header(m, buf))
		return -1;
	((struct rte_ipv4_hdr *)buf)->hdr_checksum = 0;
	cksum = (uint16_t)~rte_raw_cksum(buf, m->l3_len);
	store_16(m, m->l2_len + offsetof(struct rte_ipv4_hdr, hdr_checksum),
		 cksum);
	return 0;
}

int
netif_csum_ipv4_header_ok(const struct rte_mbuf *m)
{
	uint8_t buf[IPV4_HDR_MAX];

	if (!is_ipv4(m))
		return -1;
	return copy_ipv4_header(m, buf) &&
	       rte_raw_cksum(buf, m->l3_len) == 0xffff;
}

int
netif_csum_complete_classified(struct rte_mbuf *m)
{
	struct netif_l4_csum c;

	if (netif_csum_locate(m, &c) != 0)
		return -1;
	netif_csum_fill(m, &c);
	return 0;
}

int
netif_csum_complete(struct rte_mbuf *m)
{
	netif_l2_classify(m);
	return netif_csum_complete_classified(m);
}
