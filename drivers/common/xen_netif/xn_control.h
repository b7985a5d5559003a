/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control thread of a port: DPDK's interrupt thread, which watches
 * three file descriptors per port, as memif and vhost watch their sockets:
 * xenstore (the handshake, through the PMD's xn_port_ops), the event
 * channel of the control ring (the queues' have their own endpoints,
 * see xn_intr.h) and the data plane's failure reports.
 */

#ifndef XN_CONTROL_H
#define XN_CONTROL_H

#include "xn_port.h"

/*
 * Register the port's descriptors with the interrupt thread and take the
 * handshake's first step. The PMD has set up its xenstore watches. 0 or
 * -errno, logged.
 */
int xn_control_start(struct xn_port *p);

/*
 * Unregister them, waiting for a callback that is running to return; from
 * then on the caller is the only thread at work on the port's control
 * state. Idempotent.
 */
void xn_control_stop(struct xn_port *p);

/*
 * Under the lock, on connecting a new control ring (its channel bound):
 * its turns and events are paced afresh, whatever the connection before
 * it did (a guest rebooted after a burst of its static grants is not
 * made to wait for it). An alarm the last connection left armed stays:
 * if it was only to unmask, the new channel's first event replaces it,
 * and a turn asked for meanwhile makes it serve.
 */
void xn_control_ctrl_connected(struct xn_port *p);

/*
 * Under the lock, outside a turn of the control ring (its connect): the
 * ring's budget was spent with requests still waiting, which no event
 * will announce; serve them on a turn of their own, as a turn would.
 */
void xn_control_ctrl_more(struct xn_port *p);

/* Run @fn(@p) under the lock, then tell the application of a link change. */
void xn_control_call(struct xn_port *p, void (*fn)(struct xn_port *p));

#endif /* XN_CONTROL_H */
