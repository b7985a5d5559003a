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
netif_csum_complete_classified(struct rte_mbuf *m)
{
	union {
		struct rte_ipv4_hdr v4;
		struct rte_ipv6_hdr v6;
	} copy;
	uint32_t l3_off = m->l2_len, l4_off = l3_off + m->l3_len;
	uint32_t field, hdr_len, ip_len, l4_hdr_len, sum;
	const struct rte_ipv4_hdr *ip4 = NULL;
	const struct rte_ipv6_hdr *ip6 = NULL;
	uint16_t cksum;
	bool udp = false;

	switch (m->packet_type & RTE_PTYPE_L4_MASK) {
	case RTE_PTYPE_L4_TCP:
		l4_hdr_len = sizeof(struct rte_tcp_hdr);
		field = l4_off + offsetof(struct rte_tcp_hdr, cksum);
		break;
	case RTE_PTYPE_L4_UDP:
		udp = true;
		l4_hdr_len = sizeof(struct rte_udp_hdr);
		field = l4_off + offsetof(struct rte_udp_hdr, dgram_cksum);
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
		ip4 = rte_pktmbuf_read(m, l3_off, sizeof(*ip4), &copy.v4);
		if (ip4 == NULL)
			return -1;
		hdr_len = rte_ipv4_hdr_len(ip4);
		ip_len = rte_be_to_cpu_16(ip4->total_length);
		break;
	case RTE_PTYPE_L3_IPV6:
		ip6 = rte_pktmbuf_read(m, l3_off, sizeof(*ip6), &copy.v6);
		if (ip6 == NULL)
			return -1;
		hdr_len = sizeof(*ip6);
		ip_len = sizeof(*ip6) + rte_be_to_cpu_16(ip6->payload_len);
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
	 * The IP length is the guest's word: it must cover the L4 header and
	 * fit the frame. The header length must be the walk's, which the
	 * pseudo-header works out again from the header.
	 */
	if (hdr_len != m->l3_len || ip_len < hdr_len + l4_hdr_len ||
	    l3_off + ip_len > rte_pktmbuf_pkt_len(m))
		return -1;
	store_16(m, field, 0);
	sum = sum_mbuf(m, l4_off, ip_len - hdr_len);
	sum += ip4 != NULL ? rte_ipv4_phdr_cksum(ip4, 0) :
			     rte_ipv6_phdr_cksum(ip6, 0);
	cksum = ~fold(sum);
	/* A UDP checksum of 0 means none: RFC 768 sends all ones. */
	if (cksum == 0 && udp)
		cksum = 0xffff;
	store_16(m, field, cksum);
	return 0;
}

int
netif_csum_complete(struct rte_mbuf *m)
{
	netif_l2_classify(m);
	return netif_csum_complete_classified(m);
}
