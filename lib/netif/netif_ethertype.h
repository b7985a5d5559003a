/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * What both PMDs tell an application about each packet they receive: its
 * packet type and header lengths, from the one header walk (netif_l2.h);
 * the packet types they advertise through rte_eth_dev_get_supported_ptypes();
 * and the single-EtherType flag of receive grouping (netif_rx_group.h),
 * which keys its runs on the EtherType the walk returns.
 */

#ifndef NETIF_ETHERTYPE_H
#define NETIF_ETHERTYPE_H

#include <stdint.h>

#include <rte_mbuf.h>

#include "netif_l2.h"

/*
 * The name of the mbuf dynamic flag set on every packet of a receive burst
 * that carries one EtherType (group_ethertype=1); applications find its
 * bit with rte_mbuf_dynflag_lookup().
 */
#define NETIF_DYNFLAG_SINGLE_ETHERTYPE "xen_netif_dynflag_single_ethertype"

/*
 * Classify the received packet @m (netif_l2_classify()): sets its packet
 * type and header lengths, returns its EtherType or NETIF_ETHERTYPE_NONE.
 */
uint16_t netif_ethertype_mbuf(struct rte_mbuf *m);

/* The packet types classify can set, ended by RTE_PTYPE_UNKNOWN. */
const uint32_t *netif_ethertype_ptypes(void);

/*
 * Register the single-EtherType mbuf flag (once per process; again returns
 * the same bit). Returns its mask, or 0 with rte_errno set on failure.
 */
uint64_t netif_single_ethertype_flag(void);

#endif /* NETIF_ETHERTYPE_H */
