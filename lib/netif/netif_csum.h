/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Completing the checksums a frontend left blank. A guest that sets
 * NETTXF_csum_blank (Linux netfront does by default) sends TCP and UDP
 * frames whose L4 checksum field is not filled in, expecting the backend
 * side to finish it, as a NIC would. A DPDK application expects complete
 * frames, so the backend computes the checksum in software.
 */

#ifndef NETIF_CSUM_H
#define NETIF_CSUM_H

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

#endif /* NETIF_CSUM_H */
