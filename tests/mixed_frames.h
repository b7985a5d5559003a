/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Frames of every kind EtherType grouping must tell apart, for the parser's
 * unit test and the PMDs' grouping test: IPv4 (with and without options),
 * IPv6 (with and without an extension header), ARP, LLDP, 802.1Q-tagged
 * IPv4, 802.1ad QinQ IPv4, double 802.1Q IPv6, LLC/SNAP, a tagged LLC
 * frame and the undefined TypeOrLength values 1501 and 1535. Each frame is
 * MF_LEN bytes and carries its sequence number in its last 8 bytes.
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
	[MF_IPV4] = { "ipv4", 0x0800, RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 },
	[MF_IPV4_OPTS] = { "ipv4+opts", 0x0800,
			   RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT },
	[MF_IPV6] = { "ipv6", 0x86dd, RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6 },
	[MF_IPV6_EXT] = { "ipv6+frag", 0x86dd,
			  RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT },
	[MF_ARP] = { "arp", 0x0806, RTE_PTYPE_L2_ETHER_ARP },
	[MF_LLDP] = { "lldp", 0x88cc, RTE_PTYPE_L2_ETHER_LLDP },
	[MF_VLAN_IPV4] = { "vlan ipv4", 0x0800,
			   RTE_PTYPE_L2_ETHER_VLAN | RTE_PTYPE_L3_IPV4 },
	[MF_QINQ_IPV4] = { "qinq ipv4", 0x0800,
			   RTE_PTYPE_L2_ETHER_QINQ | RTE_PTYPE_L3_IPV4 },
	[MF_VLAN_VLAN_IPV6] = { "vlan vlan ipv6", 0x86dd,
				RTE_PTYPE_L2_ETHER_QINQ | RTE_PTYPE_L3_IPV6 },
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
		p[0] = 0x45;
		p[9] = 17;
		break;
	case MF_IPV4_OPTS:
		p = mf_be16(p, 0x0800);
		p[0] = 0x46;
		break;
	case MF_IPV6:
	case MF_VLAN_VLAN_IPV6:
		p = mf_be16(p, 0x86dd);
		p[0] = 0x60;
		p[6] = 17;
		break;
	case MF_IPV6_EXT:
		p = mf_be16(p, 0x86dd);
		p[0] = 0x60;
		p[6] = 44;
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
