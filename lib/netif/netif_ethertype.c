/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * EtherType and packet type of a received frame (see netif_ethertype.h).
 * The classification follows rte_net_get_ptype() where both have a rule:
 * untagged ARP and LLDP frames are L2_ETHER_ARP and L2_ETHER_LLDP, one tag
 * is L2_ETHER_VLAN, two are L2_ETHER_QINQ; IPv4 is L3_IPV4, or L3_IPV4_EXT
 * when it has options; IPv6 is L3_IPV6, or L3_IPV6_EXT when an extension
 * header follows the fixed one. An L3 type is given only when its header
 * is all there and carries the right version.
 */

#include <stdbool.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf_dyn.h>
#include <rte_mbuf_ptype.h>

#include "netif_ethertype.h"

/* An Ethernet header, two tags and a fixed IPv6 header. */
#define HDR_MAX (RTE_ETHER_HDR_LEN + NETIF_ETHERTYPE_MAX_TAGS * 4 + 40)
#define IPV4_MIN_HDR 20
#define IPV6_HDR 40

static const uint32_t ptypes[] = {
	RTE_PTYPE_L2_ETHER,
	RTE_PTYPE_L2_ETHER_ARP,
	RTE_PTYPE_L2_ETHER_LLDP,
	RTE_PTYPE_L2_ETHER_VLAN,
	RTE_PTYPE_L2_ETHER_QINQ,
	RTE_PTYPE_L3_IPV4,
	RTE_PTYPE_L3_IPV4_EXT,
	RTE_PTYPE_L3_IPV6,
	RTE_PTYPE_L3_IPV6_EXT,
	RTE_PTYPE_UNKNOWN,
};

const uint32_t *
netif_ethertype_ptypes(void)
{
	return ptypes;
}

static inline uint16_t
be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static bool
ipv6_ext_header(uint8_t next)
{
	switch (next) {
	case 0:		/* hop-by-hop options */
	case 43:	/* routing */
	case 44:	/* fragment */
	case 51:	/* authentication */
	case 60:	/* destination options */
		return true;
	default:
		return false;
	}
}

static uint32_t
l3_ptype(uint16_t type, const uint8_t *l3, uint32_t len)
{
	if (type == RTE_ETHER_TYPE_IPV4 && len >= IPV4_MIN_HDR &&
	    (l3[0] >> 4) == 4) {
		uint8_t ihl = l3[0] & 0xf;

		if (ihl == 5)
			return RTE_PTYPE_L3_IPV4;
		if (ihl > 5 && len >= ihl * 4u)
			return RTE_PTYPE_L3_IPV4_EXT;
	} else if (type == RTE_ETHER_TYPE_IPV6 && len >= IPV6_HDR &&
		   (l3[0] >> 4) == 6) {
		return ipv6_ext_header(l3[6]) ? RTE_PTYPE_L3_IPV6_EXT :
						RTE_PTYPE_L3_IPV6;
	}
	return 0;
}

uint32_t
netif_ethertype_classify(const uint8_t *frame, uint32_t len,
			 uint16_t *ethertype)
{
	uint32_t off = RTE_ETHER_HDR_LEN, l2;
	unsigned int tags = 0;
	uint16_t type;

	*ethertype = NETIF_ETHERTYPE_NONE;
	if (len < RTE_ETHER_HDR_LEN)
		return RTE_PTYPE_UNKNOWN;
	type = be16_at(frame + off - 2);
	while ((type == RTE_ETHER_TYPE_VLAN || type == RTE_ETHER_TYPE_QINQ) &&
	       tags < NETIF_ETHERTYPE_MAX_TAGS) {
		tags++;
		if (len < off + 4)
			/* A tag cut short: there is no EtherType to read. */
			return tags == 1 ? RTE_PTYPE_L2_ETHER_VLAN :
					   RTE_PTYPE_L2_ETHER_QINQ;
		type = be16_at(frame + off + 2);
		off += 4;
	}
	if (tags == 2)
		l2 = RTE_PTYPE_L2_ETHER_QINQ;
	else if (tags == 1)
		l2 = RTE_PTYPE_L2_ETHER_VLAN;
	else if (type == RTE_ETHER_TYPE_ARP)
		l2 = RTE_PTYPE_L2_ETHER_ARP;
	else if (type == RTE_ETHER_TYPE_LLDP)
		l2 = RTE_PTYPE_L2_ETHER_LLDP;
	else
		l2 = RTE_PTYPE_L2_ETHER;
	if (type < NETIF_ETHERTYPE_MIN)
		return l2;	/* a length (LLC/SNAP) or undefined */
	*ethertype = type;
	return l2 | l3_ptype(type, frame + off, len - off);
}

uint16_t
netif_ethertype_mbuf(struct rte_mbuf *m)
{
	uint8_t buf[HDR_MAX];
	uint32_t len = RTE_MIN(m->pkt_len, (uint32_t)HDR_MAX);
	const uint8_t *hdr = rte_pktmbuf_read(m, 0, len, buf);
	uint16_t type;

	/* rte_pktmbuf_read() fails only past pkt_len, which len is not. */
	m->packet_type = netif_ethertype_classify(hdr, len, &type);
	return type;
}

uint64_t
netif_single_ethertype_flag(void)
{
	static const struct rte_mbuf_dynflag desc = {
		.name = NETIF_DYNFLAG_SINGLE_ETHERTYPE,
	};
	int bit = rte_mbuf_dynflag_register(&desc);

	return bit < 0 ? 0 : RTE_BIT64(bit);
}
