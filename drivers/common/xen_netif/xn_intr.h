/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Rx interrupt mode: an application that sets intr_conf.rxq sleeps on a
 * queue's interrupt fd (rte_eth_dev_rx_intr_ctl_q(), rte_epoll_wait())
 * between rte_eth_dev_rx_intr_enable() and _disable(), as in DPDK's
 * l3fwd-power, instead of polling an idle queue.
 *
 * Each queue pair binds its event channels on its own endpoint
 * (xa_evtchn_open()), so a queue's events wake only the thread that
 * sleeps on it. The fd the application sleeps on is an epoll set of that
 * endpoint's fd and an eventfd, as vhost's proxy epoll does: enabling
 * arms the ring's event index and, when the peer already published work
 * (or a grouped burst holds packets), writes the eventfd, because EAL
 * waits edge-triggered and an already pending event would not wake it.
 * The gate opening (start, connect) writes it too, so a sleeper polls a
 * ring that was attached while it slept.
 */

#ifndef XN_INTR_H
#define XN_INTR_H

#include "xn_port.h"

/*
 * dev_start: give the ethdev one interrupt fd per Rx queue when the
 * application asked for Rx interrupts, none otherwise (releasing earlier
 * ones). 0 or -errno, logged.
 */
int xn_intr_install(struct xn_port *p);
/* dev_close: release them. */
void xn_intr_uninstall(struct xn_port *p);

/* rx_queue_intr_enable / _disable. */
int xn_intr_enable(struct rte_eth_dev *dev, uint16_t qid);
int xn_intr_disable(struct rte_eth_dev *dev, uint16_t qid);

#endif /* XN_INTR_H */
