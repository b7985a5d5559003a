/* SPDX-License-Identifier: BSD-3-Clause */

/**
 * @file
 * What an application names when it uses the Xen netif PMDs,
 * net_xen_netback (Dom0 or a driver domain: the backend of a guest's vif)
 * and net_xen_netfront (inside a guest). The PMDs are plugins with no
 * functions of their own to call: they are used through ethdev, and this
 * header gives the names ethdev hands back: the mbuf dynamic flag of
 * EtherType grouping and the extended statistics.
 *
 * Zero copy (net_xen_netfront, devarg zero_copy=1, the default): once the
 * link is up, rte_eth_rx_queue_info_get() reports as the queue's mp the
 * pool of mbufs on pages granted to the backend that the queue receives
 * into. A packet whose segments all come from the pool of the queue pair
 * it is sent on (forwarded from that queue's Rx, or allocated there by
 * the application) is sent without a copy, its mbufs freed once the
 * backend is done with them; any other is copied. Mbufs the application
 * keeps from the pool are buffers the queue cannot post.
 *
 * Installed with a pkg-config file: `pkg-config --cflags xen-dpdk-pmd`.
 */

#ifndef RTE_PMD_XEN_NETIF_H
#define RTE_PMD_XEN_NETIF_H

/**
 * The mbuf dynamic flag set on every packet of an Rx burst whose packets
 * all carry one EtherType (devarg group_ethertype=1). Its bit, once a
 * port asked for grouping:
 *
 *	int bit = rte_mbuf_dynflag_lookup(
 *		RTE_PMD_XEN_NETIF_DYNFLAG_SINGLE_ETHERTYPE, NULL);
 */
#define RTE_PMD_XEN_NETIF_DYNFLAG_SINGLE_ETHERTYPE \
	"xen_netif_dynflag_single_ethertype"

/**
 * @name Extended statistics of both PMDs
 * Per queue: "rx_q<n>_<name>" and "tx_q<n>_<name>", found with
 * rte_eth_xstats_get_id_by_name(). Each publish of a ring index is
 * exactly one of sent, suppressed (the peer's event index did not ask
 * for a notification) and failed (it asked, and the notification call
 * failed), so their sum is the number of publishes: at most one per
 * burst. Received (Rx queues only) counts the events the queue pair's
 * channels delivered, taken when the Rx queue enters or leaves interrupt
 * mode (a polling queue takes none). Grant
 * maps and unmaps count the calls that mapped or unmapped the queue's
 * shared ring page (one hypercall each on Xen; a netfront never maps). With
 * grant_copy_calls and notifications sent and failed, they are every
 * hypercall a queue makes.
 */
/**@{*/
#define RTE_PMD_XEN_NETIF_XSTAT_NOTIFICATIONS_SENT "notifications_sent"
#define RTE_PMD_XEN_NETIF_XSTAT_NOTIFICATIONS_SUPPRESSED \
	"notifications_suppressed"
#define RTE_PMD_XEN_NETIF_XSTAT_NOTIFICATIONS_FAILED "notifications_failed"
#define RTE_PMD_XEN_NETIF_XSTAT_NOTIFICATIONS_RECEIVED \
	"notifications_received"
#define RTE_PMD_XEN_NETIF_XSTAT_GRANT_MAPS "grant_maps"
#define RTE_PMD_XEN_NETIF_XSTAT_GRANT_UNMAPS "grant_unmaps"
/**@}*/

/**
 * @name Extended statistics of a port (no queue prefix), both PMDs
 * Events on the control ring's channel, and of those the ones that found
 * nothing to serve: a channel's next event is heard only after a delay
 * that doubles with each spurious one, up to 250 ms. Turns of the control
 * ring that spent their whole budget of grant operations with requests
 * still waiting (netback): after 4 in a row, the next turn comes after a
 * delay that doubles with each, up to 20 ms. The delay the channel or the
 * ring waits now, in microseconds (a gauge: 0 at full speed; a new
 * connection starts at 0).
 */
/**@{*/
#define RTE_PMD_XEN_NETIF_XSTAT_CTRL_EVENTS "ctrl_events"
#define RTE_PMD_XEN_NETIF_XSTAT_CTRL_SPURIOUS_EVENTS "ctrl_spurious_events"
#define RTE_PMD_XEN_NETIF_XSTAT_CTRL_BUDGET_EXHAUSTED "ctrl_budget_exhausted"
#define RTE_PMD_XEN_NETIF_XSTAT_CTRL_BACKOFF_US "ctrl_backoff_us"
/**@}*/

/**
 * @name Extended statistics of net_xen_netback
 * Grant copies: one call per burst and direction, its segments, the
 * segments Xen failed, and the page splits: the further operations Linux's
 * gntdev makes of segments whose Dom0 side crosses a page boundary (it
 * copies one Dom0 page per operation, each pinned on its own), so that
 * grant_copy_ops + grant_copy_page_splits is what the hypervisor does.
 * Malformed requests are protocol violations, each of which disconnected
 * the frontend.
 */
/**@{*/
#define RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_CALLS "grant_copy_calls"
#define RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_OPS "grant_copy_ops"
#define RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_PAGE_SPLITS "grant_copy_page_splits"
#define RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_FAILURES "grant_copy_failures"
#define RTE_PMD_XEN_NETIF_XSTAT_MALFORMED_REQUESTS "malformed_requests"
/**@}*/

#endif /* RTE_PMD_XEN_NETIF_H */
