/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Contiguous buffers for a guest's large segments. A GSO packet of up to
 * 64 KiB lands, by its grant copies, in one external buffer attached to
 * one mbuf of the application's pool, instead of in a chain of that pool's
 * mbufs: OVS takes pkt_len bytes from the first segment when it copies a
 * packet (flooding, mirroring), and keeps its own packet struct in the
 * mbuf's private area, so the head must be the pool's. A buffer goes back
 * when the last mbuf attached to it is freed, on any thread, even after
 * the queue released its buffers: the set is freed with its last buffer's
 * return. A frame may start anywhere in a page of the buffer, so that the
 * guest's pages land on ours (see netif_back_tx_page_phase()).
 */

#ifndef NETIF_GSO_BUFS_H
#define NETIF_GSO_BUFS_H

#include <stdbool.h>

#include <rte_mbuf.h>

/* Buffers per queue: 8.5 MiB, 7 rings full of 64-KiB packets. */
#define NETIF_GSO_BUFS 128
/*
 * The frame a buffer holds, after the headroom an application may push
 * headers into (OVS cannot grow a DPDK packet's headroom): more than
 * Linux's largest GSO packet (65535 less MAX_TCP_HEADER).
 */
#define NETIF_GSO_BUF_ROOM (UINT16_MAX - RTE_PKTMBUF_HEADROOM)

struct netif_gso_bufs;

/*
 * @n buffers of 68 KiB (64 and a page, for the frame's place in a page) on
 * @socket, named after @name (at most RTE_MEMPOOL_NAMESIZE - 1
 * characters). NULL with rte_errno set.
 */
struct netif_gso_bufs *netif_gso_bufs_create(const char *name, unsigned int n,
					     int socket);

/*
 * The owner's release: the set is freed now if no buffer is out, else
 * with the return of the last. Returns how many were out. NULL is ignored.
 */
unsigned int netif_gso_bufs_release(struct netif_gso_bufs *b);

/*
 * Attach a free buffer to @m, fresh from its pool (no data, no other
 * buffer attached): @m's room becomes NETIF_GSO_BUF_ROOM, after the
 * headroom, and its data starts @page_off bytes into a page (@page_off <
 * NETIF_PAGE_SIZE). false when none is free.
 */
bool netif_gso_buf_attach(struct netif_gso_bufs *b, struct rte_mbuf *m,
			  uint16_t page_off);

#endif /* NETIF_GSO_BUFS_H */
