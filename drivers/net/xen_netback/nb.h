/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * State shared by the parts of the xen_netback PMD: the ethdev glue and
 * probe (nb_ethdev.c), the control plane that follows the frontend through
 * xenstore (nb_xenbus.c) and the claim of a vif by guest name
 * (nb_claim.c). What both Xen netif PMDs share (the port, its queues, the
 * bursts, the statistics walk) is in drivers/common/xen_netif.
 *
 * Naming follows the application's view: Rx queue N carries the guest's
 * TX ring of queue pair N (packets the guest sends), Tx queue N its RX
 * ring.
 */

#ifndef NB_H
#define NB_H

#include <stdbool.h>
#include <stdint.h>

#include "netif_back.h"
#include "netif_credit.h"
#include "netif_ctrl_back.h"
#include "netif_hash.h"
#include "netif_mcast.h"
#include "netif_statics.h"
#include "xenbus_back.h"
#include "xn_port.h"

extern int nb_logtype;
#define NB_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, nb_logtype, "xen_netback: " fmt "\n", \
		##__VA_ARGS__)

/* Longest guest name xl accepts for domain=. */
#define NB_DOMAIN_NAME_MAX 63

/* Guest TX: requests in, packets to the application. */
struct nb_rxq {
	struct xn_rxq x;
	struct netif_back_tx ring;
	/* The queue pair's static grants, read by both of its rings. */
	struct netif_statics_queue statics;
};

/* Guest RX: packets from the application into posted buffers. */
/* Whether a guest RX ring takes nothing: nb_carrier.c's alone. */
struct nb_txq_carrier {
	bool stalled;			/* now, under the lock */
	uint64_t stalls;		/* "Guest Rx stalled", counted */
};

struct nb_txq {
	struct xn_queue x;
	struct netif_back_rx ring;
	struct nb_txq_carrier carrier;
};

/* The guest's rings of one queue pair, mapped while connected. */
struct nb_pair {
	void *tx_sring;
	void *rx_sring;
	struct nb_rxq rxq;
	struct nb_txq txq;
};

/* The devargs of the netback's own. */
struct nb_config {
	domid_t frontend_domid;		/* 0: claim by @domain */
	/* Simulator only: the domain the backend acts as (0: Dom0). */
	domid_t sim_domid;
	char domain[NB_DOMAIN_NAME_MAX + 1];
	bool zero_copy;			/* lend static grants' pages */
	/* tx_map_min=: lend guest packets this long from a mapping. */
	uint32_t tx_map_min;
	/* tx_map_hold_ms=: held longer, a mapped packet is copied; 0: never. */
	uint32_t tx_map_hold_ms;
	/* A guest RX ring that takes nothing this long: link down; 0: never. */
	uint32_t stall_timeout_ms;
	/* Past 1 + this many slots a guest packet is fatal (netif_back_tx.h). */
	uint8_t fatal_slots;
	/* The first wait before a failing frontend connects again (nb_backoff.c). */
	uint32_t fail_backoff_ms;
	/* on_close=detach: closing leaves the frontend connected. */
	bool detach_on_close;
	/*
	 * on_removal=remove: the port serves the vif that is there and goes
	 * with it (xn_port_removed()), instead of waiting for the next one.
	 */
	bool remove_with_vif;
	/* gso_contiguous=1: large segments whole in one mbuf (netif_gso_bufs.h). */
	bool gso_contiguous;
	/* static_grants_max=, static_grants_process_max= (netif_statics.h). */
	struct netif_statics_limits statics_limits;
	/* vifs=: a watcher's guest name pattern (nb_watch.h); no port has it. */
	char vifs[NB_DOMAIN_NAME_MAX + 1];
};

/* The watch on the guest's RX rings for stalls: nb_carrier.c's alone. */
struct nb_carrier {
	unsigned int stalled_queues;
	bool armed;			/* its alarm is set */
};

/*
 * The wait before a failing frontend is offered InitWait again:
 * nb_backoff.c's alone.
 */
struct nb_backoff {
	unsigned int failures;		/* in a row */
	uint64_t connected_at;		/* timer cycles; 0: not connected */
	uint64_t retry_at;		/* timer cycles */
	bool armed;			/* its alarm is set */
};

/*
 * The vif's rate limit: its `rate` key as last read (nb_xenbus.c), and the
 * credit its guest RX queues share (netif_credit.h).
 */
struct nb_rate {
	char text[XENBUS_PATH_MAX];	/* "" when none */
	struct netif_credit credit;
};

/*
 * The guest's multicast filter, which its queues share, and whether it
 * asks for it (request-multicast-control, nb_xenbus.c).
 */
struct nb_mcast {
	struct netif_mcast filter;
	bool on;
};

/*
 * The headroom left for the guest's XDP program, and its changes, with
 * the rate limit of their log lines: nb_xenbus.c's alone.
 */
struct nb_xdp {
	uint16_t headroom;
	bool refused;			/* the key's value was not usable */
	uint64_t reconfigurations;
	uint64_t window;		/* timer cycles: its lines' window */
	unsigned int lines;		/* lines in that window */
};

/*
 * The guest's static grants, asked for over its control ring, and the
 * log of the ones a limit refused: nb_ctrl_ring.c's alone.
 */
struct nb_statics {
	struct netif_statics map;
	/* ADDs refused by a limit when last logged, and when (timer cycles). */
	uint64_t over_limit_logged;
	uint64_t over_limit_log_at;
	bool reap_armed;	/* nb_ctrl_ring_reap() will look again */
};

/*
 * The frontend's control ring, mapped while connected, and the waits for
 * the queues the request being answered made (its cost in the turn's
 * budget): nb_ctrl_ring.c's alone.
 */
struct nb_ctrl_ring {
	xen_netif_ctrl_sring_t *sring;	/* NULL while not mapped */
	struct netif_ctrl_back back;
	uint32_t quiesces;		/* of the request being answered */
};

struct nb_port {
	struct xn_port xn;		/* first: see xn_port() */
	struct nb_config cfg;

	/* Control plane; every field below is under xn.lock. */
	domid_t fe_domid;		/* the guest served, 0 while unknown */
	char vif_root[sizeof("/local/domain/65535/backend/vif")];
	char be_dir[XENBUS_PATH_MAX];	/* "" while fe_domid is 0 */
	char fe_dir[XENBUS_PATH_MAX];
	char fe_state_path[XENBUS_PATH_MAX];
	char fe_mcast_path[XENBUS_PATH_MAX];	/* request-multicast-control */
	bool fe_watched;
	bool gso_offered;		/* the feature-gso-* keys we wrote */
	enum xenbus_state state;
	struct xenbus_back_frontend fe;
	struct nb_ctrl_ring ctrl_ring;
	struct nb_statics statics;
	/* The guest's hash, configured over its control ring. */
	struct netif_hash hash;
	struct nb_rate rate;
	struct nb_mcast mcast;
	struct nb_xdp xdp;
	struct nb_carrier carrier;
	struct nb_backoff backoff;
};

static inline struct nb_port *
nb_port(struct xn_port *xn)
{
	return (struct nb_port *)xn;
}

/* Queue pair @i (< xn.cfg.queues), allocated with the port (xn_port_open). */
static inline struct nb_pair *
nb_pair(const struct nb_port *p, unsigned int i)
{
	return p->xn.pairs[i];
}

/* nb_claim.c */
/* Domain @domid's name (xl's name=), malloc()ed; NULL if it has none. */
char *nb_domain_name(struct xa_handle *xa, domid_t domid);
bool nb_vif_present(struct nb_port *p, domid_t domid);
bool nb_claim_by_name(struct nb_port *p);

/* nb_xenbus.c */
/* Watch our vif directory; 0 or -errno. */
int nb_xenbus_init(struct nb_port *p);
/* Disconnect, tell the frontend we are gone; the control thread stopped. */
void nb_xenbus_uninit(struct nb_port *p);
/* xn_port_ops.update: bring our state in line with the frontend's. */
void nb_xenbus_update(struct xn_port *xn);
/* xn_port_ops.failed: a burst found the frontend misbehaving. */
void nb_xenbus_frontend_failed(struct xn_port *xn, const char *why);
/* xn_port_ops.info: see xn_info.h. */
void nb_xenbus_info(struct xn_port *xn, struct xn_info *w);

/* nb_backoff.c */
/* Under the lock: the frontend connected; it failed (@why). */
void nb_backoff_connected(struct nb_port *p);
void nb_backoff_failed(struct nb_port *p, const char *why);
/*
 * Under the lock, before offering InitWait again: true while the frontend
 * must still wait (an alarm runs the handshake again then).
 */
bool nb_backoff_wait(struct nb_port *p);
/* The port closes: no alarm left. */
void nb_backoff_uninit(struct nb_port *p);
/* Its part of the port's description (xn_info.h). */
void nb_backoff_info(const struct nb_port *p, struct xn_info *w);

/* nb_carrier.c */
/*
 * Under the lock, after a connect or a disconnect: watch the guest's RX
 * rings for stalls while connected, forget them when not.
 */
void nb_carrier_watch(struct nb_port *p);
/* The port closes, disconnected: no more watching. */
void nb_carrier_uninit(struct nb_port *p);

/* nb_ctrl_ring.c */
/*
 * Map and bind the frontend's control ring when it has one, and serve
 * what it queued already; false (logged) when it is unusable.
 */
bool nb_ctrl_ring_connect(struct nb_port *p);
/* Probe: where the guest's hash is read from and who waits for it. */
void nb_ctrl_ring_init(struct nb_port *p);
/* xn_port_ops.rss: the hash the guest configured, if it did. */
bool nb_ctrl_ring_rss(struct xn_port *xn, struct netif_hash_config *cfg);
/* Unmap the static grants and the ring; the gate is closed. */
void nb_ctrl_ring_release(struct nb_port *p);
/* xn_port_ops.ctrl: serve the control ring. */
unsigned int nb_ctrl_ring_serve(struct xn_port *xn, bool *more);
/*
 * Unmap the static grants the application gave back; while it holds some,
 * look again later (under the lock).
 */
void nb_ctrl_ring_reap(struct nb_port *p);
/* The port closes: stop looking; log what the application still holds. */
void nb_ctrl_ring_uninit(struct nb_port *p);

#endif /* NB_H */
