/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The netif wire format, as Xen's public headers define it, for userspace
 * built with DPDK. ring.h leaves its barriers to the includer; they map to
 * DPDK's SMP barriers here, the ones xen/io/ring.h's comments ask for:
 * a write barrier before publishing a producer index, a full barrier before
 * reading the peer's event index. Every file that touches a netif ring
 * includes this header instead of xen/io/netif.h.
 */

#ifndef NETIF_RING_H
#define NETIF_RING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_atomic.h>

#define xen_mb()  rte_smp_mb()
#define xen_rmb() rte_smp_rmb()
#define xen_wmb() rte_smp_wmb()

#include <xen/xen.h>
#include <xen/grant_table.h>
#include <xen/io/netif.h>
#include <xen/io/xenbus.h>

#define NETIF_PAGE_SIZE 4096u
#define NETIF_TX_RING_SIZE __CONST_RING_SIZE(netif_tx, NETIF_PAGE_SIZE)
#define NETIF_RX_RING_SIZE __CONST_RING_SIZE(netif_rx, NETIF_PAGE_SIZE)

/* Every backend must accept packets of up to this many slots (netif.h). */
#define NETIF_MAX_SLOTS XEN_NETIF_NR_SLOTS_MIN

#endif /* NETIF_RING_H */
