/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The one walk over a received frame's headers that all their users
 * share: receive grouping (the EtherType), the packet type both PMDs set,
 * and checksum completion (where L3 and L4 begin). It reads the Ethernet
 * header, up to two VLAN tags (802.1Q 0x8100 and 802.1ad 0x88a8, in any
 * combination), the EtherType, then an IPv4 or IPv6 header and the L4
 * type, and leaves what it found in the mbuf, where DPDK keeps it: the
 * packet type and the header lengths. Headers may span segments, and a
 * frame from a hostile guest is never read past its end.
 *
 * A TypeOrLength below 0x0600 is a length (802.3 with LLC/SNAP, <= 1500)
 * or undefined (1501-1535): such a frame has no EtherType
 * (NETIF_ETHERTYPE_NONE), as has a frame too short to hold the field.
 */

#ifndef NETIF_L2_H
#define NETIF_L2_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

/* No EtherType: never joins a run. No real EtherType is below 0x0600. */
#define NETIF_ETHERTYPE_NONE 0
#define NETIF_ETHERTYPE_MIN 0x0600
/* VLAN tags skipped before the EtherType is read. */
#define NETIF_ETHERTYPE_MAX_TAGS 2

/* Whether @ip is a fragment (offset or MF set): only the first has L4. */
static inline bool
netif_l2_ipv4_fragment(const struct rte_ipv4_hdr *ip)
{
	return (ip->fragment_offset &
		RTE_BE16(RTE_IPV4_HDR_OFFSET_MASK | RTE_IPV4_HDR_MF_FLAG)) != 0;
}

/*
 * Walk the headers of @m and record them in it: m->packet_type gets its
 * RTE_PTYPE_L2_* | RTE_PTYPE_L3_* | RTE_PTYPE_L4_* type (the rules are in
 * netif_l2.c), m->l2_len the length of the Ethernet header and tags (how
 * far they go when a tag is cut short; 0 for a frame shorter than an
 * Ethernet header), m->l3_len and m->l4_len those of the IP and TCP, UDP
 * or SCTP headers (0 where the layer has no type). The other fields that
 * share their word (tso_segsz, the outer lengths) are left alone. Returns
 * the EtherType after the tags, or NETIF_ETHERTYPE_NONE.
 */
uint16_t netif_l2_classify(struct rte_mbuf *m);

/*
 * The EtherType of @m as netif_l2_classify() last returned it, from what
 * it recorded (the packet type says how many tags, l2_len where they end)
 * and the two bytes before L3: no second walk. NETIF_ETHERTYPE_NONE for
 * a frame without one, or cut short in its tags.
 */
uint16_t netif_l2_ethertype(const struct rte_mbuf *m);

/* Every packet type netif_l2_classify() can set, ended by RTE_PTYPE_UNKNOWN. */
const uint32_t *netif_l2_ptypes(void);

#endif /* NETIF_L2_H */
