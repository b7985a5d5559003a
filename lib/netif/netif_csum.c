/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Software completion of blank TCP/UDP checksums (see netif_csum.h). Like
 * Linux netback's checksum set-up, it trusts nothing in the partial field
 * and computes the whole checksum, pseudo-header included, from the frame.
 */

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "netif_csum.h"

/* Where the checksum field sits in a TCP or UDP header; 0 for neither. */
static uint16_t
l4_csum_offset(uint8_t proto, uint16_t *l4_hdr_len)
{
	switch (proto) {
	case IPPROTO_TCP:
		*l4_hdr_len = sizeof(struct rte_tcp_hdr);
		return offsetof(struct rte_tcp_hdr, cksum);
	case IPPROTO_UDP:
		*l4_hdr_len = sizeof(struct rte_udp_hdr);
		return offsetof(struct rte_udp_hdr, dgram_cksum);
	}
	return 0;
}

int
netif_csum_complete(struct rte_mbuf *m)
{
	uint16_t data_len = rte_pktmbuf_data_len(m);
	uint8_t *frame = rte_pktmbuf_mtod(m, uint8_t *);
	uint16_t l3_off = sizeof(struct rte_ether_hdr);
	uint16_t ether_type, l4_off, csum_off, l4_hdr_len = 0;
	uint32_t l3_len;
	uint16_t *field;
	uint8_t proto;
	void *ip;

	if (data_len < l3_off)
		return -1;
	ether_type = rte_be_to_cpu_16(((struct rte_ether_hdr *)frame)->ether_type);
	if (ether_type == RTE_ETHER_TYPE_VLAN || ether_type == RTE_ETHER_TYPE_QINQ) {
		l3_off += sizeof(struct rte_vlan_hdr);
		if (data_len < l3_off)
			return -1;
		ether_type = rte_be_to_cpu_16(((struct rte_vlan_hdr *)
					       (frame + l3_off - 4))->eth_proto);
	}
	ip = frame + l3_off;
	if (ether_type == RTE_ETHER_TYPE_IPV4) {
		struct rte_ipv4_hdr *h = ip;

		if (data_len < l3_off + sizeof(*h) ||
		    rte_ipv4_hdr_len(h) < sizeof(*h) ||
		    (rte_be_to_cpu_16(h->fragment_offset) &
		     RTE_IPV4_HDR_OFFSET_MASK) != 0)
			return -1;
		proto = h->next_proto_id;
		l4_off = l3_off + rte_ipv4_hdr_len(h);
		l3_len = rte_be_to_cpu_16(h->total_length);
	} else if (ether_type == RTE_ETHER_TYPE_IPV6) {
		struct rte_ipv6_hdr *h = ip;

		if (data_len < l3_off + sizeof(*h))
			return -1;
		/* Extension headers are not parsed: Linux sends none here. */
		proto = h->proto;
		l4_off = l3_off + sizeof(*h);
		l3_len = sizeof(*h) + rte_be_to_cpu_16(h->payload_len);
	} else {
		return -1;
	}
	csum_off = l4_csum_offset(proto, &l4_hdr_len);
	/* The IP length is the guest's word: it must fit the frame. */
	if (l4_hdr_len == 0 || data_len < l4_off + l4_hdr_len ||
	    l3_len < (uint32_t)(l4_off - l3_off) + l4_hdr_len ||
	    l3_off + l3_len > rte_pktmbuf_pkt_len(m))
		return -1;
	field = (uint16_t *)(frame + l4_off + csum_off);
	*field = 0;
	if (ether_type == RTE_ETHER_TYPE_IPV4)
		*field = rte_ipv4_udptcp_cksum_mbuf(m, ip, l4_off);
	else
		*field = rte_ipv6_udptcp_cksum_mbuf(m, ip, l4_off);
	return 0;
}
