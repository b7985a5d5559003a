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
 * Fill in the TCP or UDP checksum of the IPv4 or IPv6 frame @m (one
 * 802.1Q/802.1ad tag allowed; headers in the first segment). Returns 0, or
 * -1 when the frame is not one whose checksum a frontend may leave blank.
 */
int netif_csum_complete(struct rte_mbuf *m);

#endif /* NETIF_CSUM_H */
