/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * State shared by the parts of the xen_netfront PMD: the ethdev glue and
 * probe (nf_ethdev.c) and the control plane that follows the backend
 * through xenstore (nf_xenbus.c). What both Xen netif PMDs share (the
 * port, its queues, the bursts, the statistics walk) is in
 * drivers/common/xen_netif. Every queue pair lives inside the port, so
 * that the rings can be connected before the application sets its queues
 * up.
 */

#ifndef NF_H
#define NF_H

#include <stdbool.h>
#include <stdint.h>

#include "netif_ctrl_front.h"
#include "netif_front.h"
#include "netif_hash.h"
#include "xenbus_front.h"
#include "xn_port.h"

extern int nf_logtype;
#define NF_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, nf_logtype, "xen_netfront: " fmt "\n", \
		##__VA_ARGS__)

struct nf_rxq {
	struct xn_rxq x;
	struct netif_front_rx ring;
	/* Grants of the pair the backend confirmed it keeps mapped. */
	uint64_t static_grants;
};

struct nf_txq {
	struct xn_queue x;
	struct netif_front_tx ring;
};

/* RX buffers of the zero-copy pool: the ring's, and as many in flight. */
#define NF_ZC_PAGES (2 * NETIF_RX_RING_SIZE)
/* TX pages and zero-copy pages, listed for static grants, 512 a page. */
#define NF_STATICS_LISTS 2
/* The hash's requests: ALGORITHM, FLAGS, KEY, MAPPING_SIZE, MAPPING. */
#define NF_RSS_REQUESTS 5
/* The hash's pages on the control ring: the key's, then the table's. */
#define NF_RSS_PAGES 2

/*
 * The lists of a pair's buffer grants that ADD_GREF_MAPPING names:
 * nf_ctrl_ring.c's alone.
 */
struct nf_pair_statics {
	struct xen_netif_gref *list;
	grant_ref_t list_refs[NF_STATICS_LISTS];
	uint16_t ids[NF_STATICS_LISTS];		/* the requests' ids */
	uint16_t entries[NF_STATICS_LISTS];
};

/* One queue pair: its queues, and what it shares with the backend. */
struct nf_pair {
	struct nf_rxq rxq;
	struct nf_txq txq;
	void *srings;			/* TX then RX shared ring page */
	void *tx_pages;
	void *rx_pages;
	grant_ref_t sring_refs[2];
	grant_ref_t tx_refs[NETIF_TX_RING_SIZE];
	grant_ref_t rx_refs[NETIF_RX_RING_SIZE];
	/*
	 * Zero copy: the RX buffers are mbufs of @zc, kept until the port
	 * closes, and after it until the application frees the last mbuf it
	 * holds; granted to @zc->backend.
	 */
	struct netif_front_pool *zc;
	struct nf_pair_statics statics;
};

/* The devargs of the netfront's own. */
struct nf_config {
	domid_t domid;			/* simulator: the domain we act as */
	bool no_statics;		/* static_grants=0 */
	bool no_zero_copy;		/* zero_copy=0 */
};

/* Multicast control: what the backend offers and has; nf_mcast.c's alone. */
struct nf_mcast {
	bool offered;
	bool dynamic;
	bool requested;			/* request-multicast-control we wrote */
	unsigned int nb_sent;
	struct rte_ether_addr sent[XN_MAX_MC_ADDRS];
};

/*
 * Receive-side scaling: the application's hash, and the pages and
 * requests that carry it to the backend; nf_rss.c's alone.
 */
struct nf_rss {
	struct netif_hash_config cfg;
	bool unsent;			/* changed since last sent */
	bool refused;			/* the backend refused some of it */
	void *pages;			/* key, then table: read-only grants */
	grant_ref_t refs[NF_RSS_PAGES];
	unsigned int nb_ids;		/* requests not answered yet */
	uint16_t ids[NF_RSS_REQUESTS];
	uint16_t types[NF_RSS_REQUESTS];
};

/*
 * Our control ring, shared while connected with a backend that offers
 * one, and its grant: nf_ctrl_ring.c's alone (nf_rss.c queues through it).
 */
struct nf_ctrl_ring {
	xen_netif_ctrl_sring_t *sring;	/* NULL while not shared */
	grant_ref_t ref;
	struct netif_ctrl_front front;
};

struct nf_port {
	struct xn_port xn;		/* first: see xn_port() */
	struct nf_config cfg;
	char fe_dir[XENBUS_PATH_MAX];

	/* Control plane; every field below is under xn.lock. */
	bool watching; /* our device directory's watch is set */
	bool plugged;			/* our device directory exists */
	bool refused;			/* connecting failed: no retry */
	char be_dir[XENBUS_PATH_MAX];
	domid_t backend_id;
	enum xenbus_state state;	/* what we published */
	struct nf_ctrl_ring ctrl_ring;
	struct nf_mcast mcast;
	struct nf_rss rss;
};

static inline struct nf_port *
nf_port(struct xn_port *xn)
{
	return (struct nf_port *)xn;
}

/* Queue pair @i (< xn.cfg.queues), allocated with the port (xn_port_open). */
static inline struct nf_pair *
nf_pair(const struct nf_port *ad, unsigned int i)
{
	return ad->xn.pairs[i];
}

/* nf_xenbus.c */
/* Watch our device directory; 0 or -errno. */
int nf_xenbus_init(struct nf_port *ad);
/* Disconnect (Closing, then Closed) and release everything. */
void nf_xenbus_uninit(struct nf_port *ad);
/* xn_port_ops.update: re-read everything after any event. */
void nf_xenbus_update(struct xn_port *xn);
/* xn_port_ops.failed: a burst found the backend misbehaving. */
void nf_xenbus_backend_failed(struct xn_port *xn, const char *why);
/* xn_port_ops.info: see xn_info.h. */
void nf_xenbus_info(struct xn_port *xn, struct xn_info *w);
/* xn_port_ops.stopped: let the backend take what the TX rings hold. */
void nf_xenbus_drain(struct xn_port *xn);

/* nf_mcast.c */
/*
 * Connecting to backend @be: whether to ask for the multicast filter; the
 * backend has none of our groups yet.
 */
bool nf_mcast_request(struct nf_port *ad,
		      const struct xenbus_front_backend *be);
/*
 * Under the lock, with the backend connected: bring its groups and the
 * filter request in line with the application's; the bursts may be paused
 * (xn_port_refresh() resumes them). 0, or -ENOSPC when the TX ring had
 * no room for every change (the rest follow at the next call).
 */
int nf_mcast_sync(struct nf_port *ad);
/* Its part of the port's description (xn_info.h). */
void nf_mcast_info(const struct nf_port *ad, struct xn_info *w);

/* nf_ctrl_ring.c */
/*
 * Grants the control ring takes, with the static grants of @nb_queues
 * pairs when @statics.
 */
uint32_t nf_ctrl_ring_grants(unsigned int nb_queues, bool statics);
/*
 * Share and bind our control ring; queue, when @statics, an
 * ADD_GREF_MAPPING of each pair's buffer grants (the pairs are shared
 * already); fill the ring's keys in @keys. False with @why on failure.
 */
bool nf_ctrl_ring_connect(struct nf_port *ad, struct xenbus_front_keys *keys,
			  bool statics, const char **why);
/* Give back the ring, its channel and the lists; idempotent. */
void nf_ctrl_ring_release(struct nf_port *ad);
/*
 * Up to @max of the backend's answers into @rsp, in the order it gave
 * them (any order: matched by id); 0 when the ring is broken, which is
 * reported to the port as its failure.
 */
unsigned int nf_ctrl_ring_take(struct nf_port *ad,
			       struct xen_netif_ctrl_response *rsp,
			       unsigned int max);
/* @rsp, when it answers one of the static grants' requests. */
void nf_ctrl_ring_answered(struct nf_port *ad,
			   const struct xen_netif_ctrl_response *rsp);
/* Queue a request of @type; its id in *@id. False when the ring is full. */
bool nf_ctrl_ring_queue(struct nf_port *ad, uint16_t type, uint32_t d0,
			uint32_t d1, uint32_t d2, uint16_t *id);
/* How many requests may be queued before answers make room. */
unsigned int nf_ctrl_ring_free(const struct nf_port *ad);
/* Publish what was queued and, if the backend needs it, notify it. */
void nf_ctrl_ring_kick(struct nf_port *ad);
/* Its part of the port's description (xn_info.h). */
void nf_ctrl_ring_info(const struct nf_port *ad, struct xn_info *w);

/* nf_rss.c */
/*
 * With the control ring attached: share the hash pages; the hash goes
 * once the backend is Connected (nf_rss_send()).
 */
bool nf_rss_connect(struct nf_port *ad);
/* Give back the hash pages; idempotent. */
void nf_rss_release(struct nf_port *ad);
/*
 * With the backend Connected: send the hash if it changed since and the
 * ring has room; see nf_rss.c.
 */
void nf_rss_send(struct nf_port *ad);
/* xn_port_ops.rss: the application's hash. */
bool nf_rss_get(struct xn_port *xn, struct netif_hash_config *cfg);
/* xn_port_ops.rss_set: take @cfg, and send it if connected. */
int nf_rss_set(struct xn_port *xn, const struct netif_hash_config *cfg);
/* Whether @rsp answers one of the hash requests (then taken). */
bool nf_rss_answered(struct nf_port *ad,
		     const struct xen_netif_ctrl_response *rsp);

#endif /* NF_H */
