/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The frontend end of the vif xenbus handshake: which state to publish and
 * what to do when the backend's state changes, the backend's feature keys
 * read as untrusted input, and the connection keys the frontend writes.
 */

#ifndef NETIF_XENBUS_FRONT_H
#define NETIF_XENBUS_FRONT_H

#include "xenbus.h"

enum xenbus_front_action {
	XENBUS_FRONT_NONE,
	XENBUS_FRONT_CONNECT,	/* share rings and buffers, bind, write keys */
	XENBUS_FRONT_LINK_UP,	/* the backend serves our rings */
	XENBUS_FRONT_LINK_DOWN,	/* it does not, but our rings stay offered */
	XENBUS_FRONT_DISCONNECT, /* tear down, publish Closing then Closed */
};

struct xenbus_front_step {
	enum xenbus_state next;	/* the state to publish when it differs */
	enum xenbus_front_action action; /* done before publishing @next */
};

/*
 * The step for our state @fe once the backend reports @be. A frontend
 * starts (or restarts, whatever its directory shows) from Initialising.
 */
struct xenbus_front_step xenbus_front_next(enum xenbus_state fe,
					   enum xenbus_state be);

const char *xenbus_front_action_name(enum xenbus_front_action action);

/* What the backend offers, as far as this frontend cares. */
struct xenbus_front_backend {
	bool split_evtchn;	/* feature-split-event-channels=1 */
	unsigned int max_queues; /* multi-queue-max-queues, capped */
	/* What it takes on our TX ring; blank IPv4 checksums always. */
	bool csum_ipv6;		/* feature-ipv6-csum-offload */
	bool gso_tcpv4;		/* feature-gso-tcpv4 */
	bool gso_tcpv6;		/* feature-gso-tcpv6 */
	bool ctrl_ring;		/* feature-ctrl-ring */
	bool mcast_control;	/* feature-multicast-control */
	bool mcast_dynamic;	/* feature-dynamic-multicast-control */
};

/*
 * Read the backend's feature keys from @be_dir. Returns false with @why
 * saying what makes the backend unusable.
 */
bool xenbus_front_read_backend(struct xa_handle *h, const char *be_dir,
			       struct xenbus_front_backend *be,
			       const char **why);

/* The keys of one queue pair. */
struct xenbus_front_queue {
	grant_ref_t tx_ring_ref;
	grant_ref_t rx_ring_ref;
	evtchn_port_t evtchn_tx;
	evtchn_port_t evtchn_rx;	/* used only when split */
};

/* The keys a frontend publishes to connect. */
struct xenbus_front_keys {
	unsigned int nb_queues;		/* 1..XENBUS_VIF_MAX_QUEUES */
	bool split_evtchn;
	/* What we take on our RX ring. */
	bool csum_ipv4;			/* else feature-no-csum-offload */
	bool csum_ipv6;			/* feature-ipv6-csum-offload */
	bool gso_tcpv4;			/* feature-gso-tcpv4 */
	bool gso_tcpv6;			/* feature-gso-tcpv6 */
	/* Our multicast frames filtered by the groups we join. */
	bool mcast_control;		/* request-multicast-control */
	/* Our control ring, if we have one. */
	bool ctrl_ring;
	grant_ref_t ctrl_ring_ref;
	evtchn_port_t evtchn_ctrl;
	struct xenbus_front_queue queue[XENBUS_VIF_MAX_QUEUES];
};

/*
 * Write the connection keys and our features into our directory @fe_dir in
 * one transaction, retried while xenstore asks: one queue's at the top,
 * several under "queue-<n>/" (netif.h). Keys an earlier connection of the
 * other layout left are removed. Returns false (errno set) on any other
 * failure.
 */
bool xenbus_front_write_keys(struct xa_handle *h, const char *fe_dir,
			     const struct xenbus_front_keys *keys);

/*
 * With a backend that offers feature-dynamic-multicast-control: ask for
 * the filter (or stop asking) while connected.
 */
bool xenbus_front_request_mcast(struct xa_handle *h, const char *fe_dir,
				bool on);

#endif /* NETIF_XENBUS_FRONT_H */
