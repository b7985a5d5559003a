/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * What a received frame is at L2 and L3: its EtherType, read after up to
 * two VLAN tags (802.1Q 0x8100, 802.1ad 0x88a8), and the mbuf packet type
 * both PMDs set on every packet they receive and advertise through
 * rte_eth_dev_get_supported_ptypes(). The EtherType is what receive
 * grouping (netif_rx_group.h) keys its runs on.
 *
 * A TypeOrLength below 0x0600 is a length (802.3 with LLC/SNAP, <= 1500)
 * or undefined (1501-1535): such a frame has no EtherType and is reported
 * as NETIF_ETHERTYPE_NONE, as is a frame too short to hold the field.
 */

#ifndef NETIF_ETHERTYPE_H
#define NETIF_ETHERTYPE_H

#include <stdint.h>

#include <rte_mbuf.h>

/* No EtherType: never joins a run. No real EtherType is below 0x0600. */
#define NETIF_ETHERTYPE_NONE 0
#define NETIF_ETHERTYPE_MIN 0x0600
/* VLAN tags skipped before the EtherType is read. */
#define NETIF_ETHERTYPE_MAX_TAGS 2

/*
 * The name of the mbuf dynamic flag set on every packet of a receive burst
 * that carries one EtherType (group_ethertype=1); applications find its
 * bit with rte_mbuf_dynflag_lookup().
 */
#define NETIF_DYNFLAG_SINGLE_ETHERTYPE "xen_netif_dynflag_single_ethertype"

/*
 * Classify the frame whose first @len bytes are at @frame: returns its
 * RTE_PTYPE_L2_* | RTE_PTYPE_L3_* packet type (RTE_PTYPE_UNKNOWN for a
 * frame shorter than an Ethernet header) and stores its EtherType, or
 * NETIF_ETHERTYPE_NONE, in @ethertype.
 */
uint32_t netif_ethertype_classify(const uint8_t *frame, uint32_t len,
				  uint16_t *ethertype);

/* The same for a packet: sets m->packet_type, returns the EtherType. */
uint16_t netif_ethertype_mbuf(struct rte_mbuf *m);

/* The packet types classify can return, ended by RTE_PTYPE_UNKNOWN. */
const uint32_t *netif_ethertype_ptypes(void);

/*
 * Register the single-EtherType mbuf flag (once per process; again returns
 * the same bit). Returns its mask, or 0 with rte_errno set on failure.
 */
uint64_t netif_single_ethertype_flag(void);

#endif /* NETIF_ETHERTYPE_H */
