/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The backend end of the vif xenbus handshake: which step to take when the
 * frontend's state changes, the feature keys the backend offers, and the
 * frontend's connection keys, read and validated as untrusted input.
 */

#ifndef NETIF_XENBUS_BACK_H
#define NETIF_XENBUS_BACK_H

#include "xenbus.h"

enum xenbus_back_action {
	XENBUS_BACK_NONE,
	XENBUS_BACK_INIT_WAIT,	/* offer features, then InitWait */
	XENBUS_BACK_CONNECT,	/* map the rings, bind, then Connected */
	XENBUS_BACK_RESET,	/* drop the connection, then InitWait */
	XENBUS_BACK_CLOSE,	/* drop the connection, then Closing */
	XENBUS_BACK_CLOSED,	/* drop the connection, then Closed */
	XENBUS_BACK_RECONFIGURE,/* read xdp-headroom, then Reconfigured */
	XENBUS_BACK_RESUME,	/* Connected again, as we are */
};

/* The step for our state @be once the frontend reports @fe. */
enum xenbus_back_action xenbus_back_next(enum xenbus_state be,
					 enum xenbus_state fe);

/*
 * Publish what this backend supports in its directory @dir, with up to
 * @max_queues queue pairs (1..XENBUS_VIF_MAX_QUEUES): blank checksums
 * over IPv4 (implied) and IPv6 always, GSO packets (TCP over IPv4 and
 * IPv6) when @gso, and the control ring (its static grants), multicast
 * control, dynamic (the frontend's request is watched), and XDP headroom
 * (xdp-headroom, changed through Reconfiguring) always.
 */
bool xenbus_back_write_features(struct xa_handle *h, const char *dir,
				unsigned int max_queues, bool gso);

/*
 * Whether @dir offers GSO packets, as xenbus_back_write_features() wrote
 * it (both TCP versions alike); false when the key is missing.
 */
bool xenbus_back_offered_gso(struct xa_handle *h, const char *dir);

/* The rings and event channels of one queue pair. */
struct xenbus_back_queue {
	grant_ref_t tx_ring_ref;
	grant_ref_t rx_ring_ref;
	evtchn_port_t evtchn_tx;
	evtchn_port_t evtchn_rx;	/* == evtchn_tx unless split */
	bool split_evtchn;
};

/* What a frontend wrote to connect. */
struct xenbus_back_frontend {
	unsigned int nb_queues;		/* 1..the @max_queues offered */
	bool rx_notify;			/* feature-rx-notify */
	/* What it takes on its RX ring. */
	bool csum_ipv4;			/* unless feature-no-csum-offload */
	bool csum_ipv6;			/* feature-ipv6-csum-offload */
	bool gso_tcpv4;			/* feature-gso-tcpv4 */
	bool gso_tcpv6;			/* feature-gso-tcpv6 */
	/* Its control ring, when it has one (ctrl-ring-ref). */
	bool ctrl_ring;
	grant_ref_t ctrl_ring_ref;
	evtchn_port_t evtchn_ctrl;	/* event-channel-ctrl */
	struct xenbus_back_queue queue[XENBUS_VIF_MAX_QUEUES];
};

/*
 * Whether the frontend asks for its multicast frames filtered
 * (request-multicast-control = 1): read at connect and, the feature being
 * dynamic, whenever it changes.
 */
bool xenbus_back_read_mcast_control(struct xa_handle *h, const char *fe_dir);

/* Room for the reason xenbus_back_read_frontend() gives. */
#define XENBUS_WHY_MAX 96

/*
 * The headroom the frontend wants in front of each frame it receives
 * (xdp-headroom, for its XDP program): read at connect and whenever it
 * reconfigures. Absent: 0. Returns false with @why when the value is not
 * a number (then 0) or above @max, the most this backend leaves (then
 * @max, which the XDP extra tells the frontend).
 */
bool xenbus_back_read_xdp_headroom(struct xa_handle *h, const char *fe_dir,
				   unsigned int max, uint16_t *headroom,
				   char why[XENBUS_WHY_MAX]);

/*
 * Read the frontend's keys from its directory @fe_dir: at its top for one
 * queue, under "queue-<n>/" for several, as netif.h lays them out, with at
 * most @max_queues queues. Returns false with @why naming the missing or
 * invalid key.
 */
bool xenbus_back_read_frontend(struct xa_handle *h, const char *fe_dir,
			       unsigned int max_queues,
			       struct xenbus_back_frontend *fe,
			       char why[XENBUS_WHY_MAX]);

/* The toolstack's rate limit of a vif: @bytes per @usec; bytes 0: none. */
struct xenbus_back_rate {
	uint64_t bytes;
	uint64_t usec;
};

/*
 * Parse the value @s of the backend directory's `rate` key (NULL or "":
 * no limit), "<bytes>,<usec>" as libxl writes it: two decimal numbers,
 * neither 0, at most @max_bytes and @max_usec. Returns false with @why
 * saying what is wrong (the caller then keeps no limit, as Linux does).
 */
bool xenbus_back_parse_rate(const char *s, uint64_t max_bytes,
			    uint64_t max_usec, struct xenbus_back_rate *rate,
			    char why[XENBUS_WHY_MAX]);

#endif /* NETIF_XENBUS_BACK_H */
