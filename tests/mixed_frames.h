/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Frames of every kind EtherType grouping must tell apart, for the parser's
 * unit tests and the PMDs' grouping test: IPv4 with UDP, IPv4 with options
 * and TCP, IPv6 with UDP, an IPv6 first fragment (an extension header),
 * ARP, LLDP, 802.1Q-tagged IPv4, 802.1ad QinQ IPv4, double 802.1Q IPv6,
 * LLC/SNAP, a tagged LLC frame and the undefined TypeOrLength values 1501
 * and 1535. Each frame is MF_LEN bytes and carries its sequence number in
 * its last 8 bytes. The IP and UDP lengths are right, so the frames are
 * also ones whose blank checksum can be completed (the checksum fields
 * hold 0).
 */

#ifndef MIXED_FRAMES_H
#define MIXED_FRAMES_H

#include <stdint.h>
#include <string.h>

#include <rte_mbuf_ptype.h>

enum mf_kind {
	MF_IPV4,
	MF_IPV4_OPTS,
	MF_IPV6,
	MF_IPV6_EXT,
	MF_ARP,
	MF_LLDP,
	MF_VLAN_IPV4,
	MF_QINQ_IPV4,
	MF_VLAN_VLAN_IPV6,
	MF_LLC_SNAP,
	MF_VLAN_LLC,
	MF_LEN_1501,
	MF_LEN_1535,
	MF_NB
};

static const struct mf_info {
	const char *name;
	uint16_t ethertype;	/* after the tags; 0: none (never grouped) */
	uint32_t ptype;
} mf_info[MF_NB] = {
	[MF_IPV4] = { "ipv4", 0x0800, RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 |
				      RTE_PTYPE_L4_UDP },
	[MF_IPV4_OPTS] = { "ipv4+opts", 0x0800, RTE_PTYPE_L2_ETHER |
			   RTE_PTYPE_L3_IPV4_EXT | RTE_PTYPE_L4_TCP },
	[MF_IPV6] = { "ipv6", 0x86dd, RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6 |
				      RTE_PTYPE_L4_UDP },
	[MF_IPV6_EXT] = { "ipv6+frag", 0x86dd, RTE_PTYPE_L2_ETHER |
			  RTE_PTYPE_L3_IPV6_EXT | RTE_PTYPE_L4_FRAG },
	[MF_ARP] = { "arp", 0x0806, RTE_PTYPE_L2_ETHER_ARP },
	[MF_LLDP] = { "lldp", 0x88cc, RTE_PTYPE_L2_ETHER_LLDP },
	[MF_VLAN_IPV4] = { "vlan ipv4", 0x0800, RTE_PTYPE_L2_ETHER_VLAN |
			   RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP },
	[MF_QINQ_IPV4] = { "qinq ipv4", 0x0800, RTE_PTYPE_L2_ETHER_QINQ |
			   RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP },
	[MF_VLAN_VLAN_IPV6] = { "vlan vlan ipv6", 0x86dd,
				RTE_PTYPE_L2_ETHER_QINQ | RTE_PTYPE_L3_IPV6 |
				RTE_PTYPE_L4_UDP },
	[MF_LLC_SNAP] = { "llc/snap", 0, RTE_PTYPE_L2_ETHER },
	[MF_VLAN_LLC] = { "vlan llc", 0, RTE_PTYPE_L2_ETHER_VLAN },
	[MF_LEN_1501] = { "type 1501", 0, RTE_PTYPE_L2_ETHER },
	[MF_LEN_1535] = { "type 1535", 0, RTE_PTYPE_L2_ETHER },
};

#define MF_LEN 128

static inline uint8_t *
mf_be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
	return p + 2;
}

/* An IPv4 header of @hlen bytes at @p, carrying @proto to the frame's end. */
static inline uint8_t *
mf_ipv4(const uint8_t *buf, uint8_t *p, unsigned int hlen, uint8_t proto)
{
	p[0] = 0x40 | hlen / 4;
	mf_be16(p + 2, MF_LEN - (p - buf));	/* total length */
	p[8] = 64;				/* TTL */
	p[9] = proto;
	return p + hlen;
}

/* An IPv6 header at @p, @next after it, its payload to the frame's end. */
static inline uint8_t *
mf_ipv6(const uint8_t *buf, uint8_t *p, uint8_t next)
{
	p[0] = 0x60;
	mf_be16(p + 4, MF_LEN - (p + 40 - buf));	/* payload length */
	p[6] = next;
	p[7] = 64;				/* hop limit */
	return p + 40;
}

/* A UDP header at @p, its datagram to the frame's end. */
static inline void
mf_udp(const uint8_t *buf, uint8_t *p)
{
	mf_be16(p + 4, MF_LEN - (p - buf));
}

/* Write frame @seq of kind @k into @buf (MF_LEN bytes). */
static inline void
mf_build(uint8_t *buf, enum mf_kind k, uint64_t seq)
{
	uint8_t *p = buf + 12;

	memset(buf, 0, MF_LEN);
	memset(buf, 0xff, 6);			/* broadcast */
	memset(buf + 6, 0x02, 6);
	switch (k) {
	case MF_VLAN_IPV4:
	case MF_VLAN_LLC:
		p = mf_be16(mf_be16(p, 0x8100), 100);
		break;
	case MF_QINQ_IPV4:
		p = mf_be16(mf_be16(p, 0x88a8), 200);
		p = mf_be16(mf_be16(p, 0x8100), 100);
		break;
	case MF_VLAN_VLAN_IPV6:
		p = mf_be16(mf_be16(p, 0x8100), 200);
		p = mf_be16(mf_be16(p, 0x8100), 100);
		break;
	default:
		break;
	}
	switch (k) {
	case MF_IPV4:
	case MF_VLAN_IPV4:
	case MF_QINQ_IPV4:
		p = mf_be16(p, 0x0800);
		mf_udp(buf, mf_ipv4(buf, p, 20, 17));
		break;
	case MF_IPV4_OPTS:
		p = mf_be16(p, 0x0800);
		memset(p + 20, 0x01, 3);		/* NOP, NOP, NOP, EOL */
		p = mf_ipv4(buf, p, 24, 6);
		p[12] = 0x50;			/* TCP data offset */
		break;
	case MF_IPV6:
	case MF_VLAN_VLAN_IPV6:
		p = mf_be16(p, 0x86dd);
		mf_udp(buf, mf_ipv6(buf, p, 17));
		break;
	case MF_IPV6_EXT:
		p = mf_be16(p, 0x86dd);
		p = mf_ipv6(buf, p, 44);
		p[0] = 17;		/* fragment header: UDP next */
		p[3] = 0x01;		/* offset 0, more fragments */
		mf_udp(buf, p + 8);
		break;
	case MF_ARP:
		p = mf_be16(p, 0x0806);
		break;
	case MF_LLDP:
		p = mf_be16(p, 0x88cc);
		break;
	case MF_LLC_SNAP:
	case MF_VLAN_LLC:
		/* 802.3 length, then LLC AA-AA-03 and a SNAP header. */
		p = mf_be16(p, MF_LEN - (p + 2 - buf));
		p[0] = 0xaa;
		p[1] = 0xaa;
		p[2] = 0x03;
		break;
	case MF_LEN_1501:
		mf_be16(p, 1501);
		break;
	case MF_LEN_1535:
		mf_be16(p, 1535);
		break;
	case MF_NB:
		break;
	}
	memcpy(buf + MF_LEN - sizeof(seq), &seq, sizeof(seq));
}

static inline uint64_t
mf_seq(const uint8_t *buf)
{
	uint64_t seq;

	memcpy(&seq, buf + MF_LEN - sizeof(seq), sizeof(seq));
	return seq;
}

#endif /* MIXED_FRAMES_H */
