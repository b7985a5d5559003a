/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The xenbus conventions both ends of a device follow in xenstore: each end
 * publishes its XenbusState in "<dir>/state" and watches the other's.
 * Feature keys and the per-end state machines live in xenbus_back.c and
 * xenbus_front.c.
 */

#ifndef NETIF_XENBUS_H
#define NETIF_XENBUS_H

#include <stdbool.h>

#include <xen/io/xenbus.h>

#include "xa.h"

#define XENBUS_PATH_MAX 256
/* A key's path under a directory of up to XENBUS_PATH_MAX - 1 bytes. */
#define XENBUS_KEY_PATH_MAX (XENBUS_PATH_MAX + 32)

/*
 * Most queue pairs a vif may have here, on either end: the frontend's
 * "multi-queue-num-queues" and the backend's "multi-queue-max-queues".
 */
#define XENBUS_VIF_MAX_QUEUES 8

const char *xenbus_state_name(enum xenbus_state state);

/*
 * The state published in "<dir>/state"; XenbusStateUnknown when the key is
 * absent, unreadable or not a valid state (a peer may write anything).
 */
enum xenbus_state xenbus_read_state(struct xa_handle *h, const char *dir);

/*
 * The body of a xenstore transaction: -1 on a failed call (errno set), 0
 * when it wrote nothing (the transaction is aborted), 1 to commit.
 */
typedef int (*xenbus_tx_body)(struct xa_handle *h, xs_transaction_t t,
			      void *arg);

/*
 * Run @body in a transaction until it commits, again each time xenstore
 * answers EAGAIN. A failed body aborts the transaction keeping the failed
 * call's errno. True when committed or when the body wrote nothing; false,
 * with errno, on an error.
 */
bool xenbus_transact(struct xa_handle *h, xenbus_tx_body body, void *arg);

/*
 * Publish our state in "<dir>/state": written only if it differs, and
 * never when the key is gone, for the toolstack has removed the device
 * (true then, with nothing written). False, with errno, on an error.
 */
bool xenbus_switch_state(struct xa_handle *h, const char *dir,
			 enum xenbus_state state);

/* Read "<dir>/<key>" as an unsigned integer; @def when absent. */
unsigned long xenbus_read_feature(struct xa_handle *h, const char *dir,
				  const char *key, unsigned long def);

/* A vif's MTU when the toolstack wrote none (netif.h, "mtu"). */
#define XENBUS_VIF_DEFAULT_MTU 1500

/*
 * The vif's MTU, which the toolstack writes in the frontend's directory
 * @fe_dir ("mtu"), for both ends to read: XENBUS_VIF_DEFAULT_MTU when
 * absent. False, with the default, when the key is there but not a
 * number in [@min, @max].
 */
bool xenbus_vif_read_mtu(struct xa_handle *h, const char *fe_dir,
			 unsigned int min, unsigned int max, unsigned int *mtu);

#endif /* NETIF_XENBUS_H */
