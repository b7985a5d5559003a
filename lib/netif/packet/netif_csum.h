/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * TCP and UDP checksums of a classified frame: where the field is, the
 * pseudo-header sum a blank (partial) field holds, and the whole checksum
 * computed in software. A guest that sets NETTXF_csum_blank (Linux
 * netfront does by default) sends frames whose L4 checksum is not filled
 * in, expecting the other side to finish it, as a NIC would; where the
 * application did not take that offload (netif_offload.h), it is done here.
 */

#ifndef NETIF_CSUM_H
#define NETIF_CSUM_H

#include <stdbool.h>

#include <rte_ip.h>
#include <rte_mbuf.h>

/*
 * Fill in the TCP or UDP checksum of the IPv4 or IPv6 frame @m (up to two
 * 802.1Q/802.1ad tags in any combination; headers may span segments).
 * Returns 0, or -1 when the frame is not one whose checksum a frontend may
 * leave blank: no TCP or UDP header, a fragment, IPv6 extension headers, or
 * an IP length that does not fit the frame. Either way @m is classified on
 * the way, as by netif_l2_classify(): its packet type and header lengths
 * are set.
 */
int netif_csum_complete(struct rte_mbuf *m);

/*
 * The same for a packet classified by netif_l2_classify() since its
 * headers last changed (as the pulls leave every packet): the packet type
 * and header lengths in @m say where the headers are, so they are not
 * walked again. Wrong ones can give a wrong checksum, never a read or
 * write outside the packet.
 */
int netif_csum_complete_classified(struct rte_mbuf *m);

/* Where the TCP or UDP checksum of a classified frame is, and what it covers. */
struct netif_l4_csum {
	uint32_t field;		/* offset of the checksum field in the frame */
	uint32_t l4_off;
	uint32_t l4_len;	/* L4 header and payload, from the IP length */
	bool udp;
	bool ipv6;
	union {			/* a copy: the frame may change under us */
		struct rte_ipv4_hdr v4;
		struct rte_ipv6_hdr v6;
	} ip;
};

/*
 * Locate the checksum of a frame classified by netif_l2_classify() since
 * its headers last changed. Returns 0, or -1 for a frame whose checksum
 * may not be left blank (see netif_csum_complete()).
 */
int netif_csum_locate(const struct rte_mbuf *m, struct netif_l4_csum *c);

/*
 * The pseudo-header sum, not inverted: what a partial checksum field holds.
 * @with_len: with the L4 length, as Linux (CHECKSUM_PARTIAL) and DPDK's
 * L4 checksum offload want it; without, as DPDK's TSO wants it.
 */
uint16_t netif_csum_pseudo(const struct netif_l4_csum *c, bool with_len);

/* Compute the whole checksum @c locates in @m and write it. */
void netif_csum_fill(struct rte_mbuf *m, const struct netif_l4_csum *c);

/* Write the 16 bits @v, as they lie in memory, at byte @off of @m. */
void netif_csum_store(struct rte_mbuf *m, uint32_t off, uint16_t v);

/*
 * Compute and write the IPv4 header checksum of a classified frame.
 * Returns -1, writing nothing, when it has no whole IPv4 header.
 */
int netif_csum_ipv4_header(struct rte_mbuf *m);

/*
 * Whether the IPv4 header checksum of a classified frame is right: 1, or 0
 * (also for a header cut short); -1 when the frame is not IPv4.
 */
int netif_csum_ipv4_header_ok(const struct rte_mbuf *m);

#endif /* NETIF_CSUM_H */
