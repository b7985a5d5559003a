/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * State shared by the three parts of the xen_netfront PMD: the ethdev glue
 * (nf_ethdev.c), the burst functions (nf_rxtx.c) and the control plane that
 * follows the backend through xenstore (nf_xenbus.c). Up to
 * NF_MAX_QUEUES queue pairs; every queue lives inside the adapter so that
 * the rings can be connected before the application sets its queues up.
 */

#ifndef NF_H
#define NF_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <ethdev_driver.h>
#include <rte_ether.h>
#include <rte_log.h>

#include "netif_front.h"
#include "netif_rx_group.h"
#include "xa.h"
#include "xenbus_front.h"

extern int nf_logtype;
#define NF_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, nf_logtype, "xen_netfront: " fmt "\n", \
		##__VA_ARGS__)

/* Largest MTU: a frame's length must fit the 16-bit TX size field. */
#define NF_MAX_MTU (NETIF_FRONT_MAX_PKT_LEN - RTE_ETHER_HDR_LEN)

/* Most queue pairs a port asks for (devarg queues). */
#define NF_MAX_QUEUES XENBUS_VIF_MAX_QUEUES

/* An event channel port we do not hold. */
#define NF_NO_PORT ((evtchn_port_t)-1)

struct nf_adapter;

/* Counters of the PMD's own: written by one thread each, read relaxed. */
struct nf_notify_stats {
	uint64_t sent;		/* data plane */
	uint64_t suppressed;	/* data plane: the event index said no */
	uint64_t received;	/* control thread */
};

struct nf_rxq {
	struct nf_adapter *ad;
	uint16_t queue_id;
	uint32_t busy;			/* inside a burst (see nf_queue_enter) */
	uint32_t failed;		/* set once on a protocol violation */
	struct rte_mempool *mp;
	struct netif_front_rx ring;
	struct nf_notify_stats notify;
	struct netif_rx_stash stash;	/* pulled, not yet returned */
} __rte_cache_aligned;

struct nf_txq {
	struct nf_adapter *ad;
	uint16_t queue_id;
	uint32_t busy;
	uint32_t failed;
	struct netif_front_tx ring;
	struct nf_notify_stats notify;
} __rte_cache_aligned;

/* One queue pair: its queues, and what it shares with the backend. */
struct nf_pair {
	struct nf_rxq rxq;
	struct nf_txq txq;
	void *srings;			/* TX then RX shared ring page */
	void *tx_pages;
	void *rx_pages;
	evtchn_port_t evtchn_tx;	/* == evtchn_rx unless split */
	evtchn_port_t evtchn_rx;
	grant_ref_t sring_refs[2];
	grant_ref_t tx_refs[NETIF_TX_RING_SIZE];
	grant_ref_t rx_refs[NETIF_RX_RING_SIZE];
};

struct nf_config {
	unsigned int handle;		/* vif handle: device/vif/<handle> */
	uint16_t queues;		/* queue pairs asked for */
	enum xa_provider provider;
	char sim_instance[XA_SIM_INSTANCE_MAX + 1];
	domid_t domid;			/* simulator: the domain we act as */
	uint16_t batch;			/* see netif_rx_group.h */
	bool group_ethertype;
	uint64_t single_flag;		/* registered when group_ethertype */
};

struct nf_adapter {
	struct rte_eth_dev *dev;
	struct nf_config cfg;
	struct xa_handle *xa;
	domid_t self;
	char fe_dir[XENBUS_PATH_MAX];
	struct rte_intr_handle *xs_intr;
	struct rte_intr_handle *evtchn_intr;
	struct rte_intr_handle *fail_intr;
	int fail_fd;			/* eventfd: data plane -> control */

	/* Control plane; every field below is under @lock. */
	pthread_mutex_t lock;
	bool plugged;			/* our device directory exists */
	bool refused;			/* connecting failed: no retry */
	char be_dir[XENBUS_PATH_MAX];
	domid_t backend_id;
	enum xenbus_state state;	/* what we published */
	bool connected;			/* rings attached and not closing */
	bool be_connected;		/* the backend serves them */
	bool started;
	/*
	 * Pairs connected: the fewer of cfg.queues and what the backend
	 * offers. The data plane reads it only once let in; queues at or
	 * above it have no rings and move nothing.
	 */
	unsigned int nb_pairs;

	/* The data plane may touch the rings only while this is set. */
	uint32_t datapath_ready;

	struct nf_pair pairs[NF_MAX_QUEUES];
};

/* nf_rxtx.c */
uint16_t nf_rx_burst(void *queue, struct rte_mbuf **pkts, uint16_t nb_pkts);
uint16_t nf_tx_burst(void *queue, struct rte_mbuf **pkts, uint16_t nb_pkts);

/* nf_xenbus.c */
int nf_xenbus_init(struct nf_adapter *ad);
/* Disconnect (Closing, then Closed) and release everything; idempotent. */
void nf_xenbus_uninit(struct nf_adapter *ad);
/* dev_start/dev_stop: let the data plane in, or keep it out. */
void nf_xenbus_set_started(struct nf_adapter *ad, bool started);
/* Bring dev_link in line with the state; true when it changed. */
bool nf_link_refresh(struct nf_adapter *ad);

/*
 * The data plane enters a queue only while the control plane allows it;
 * the control plane withdraws permission, then waits until no burst is
 * inside (a Dekker handshake, hence the sequentially consistent order).
 */
static inline bool
nf_queue_enter(struct nf_adapter *ad, uint32_t *busy)
{
	__atomic_store_n(busy, 1, __ATOMIC_SEQ_CST);
	if (likely(__atomic_load_n(&ad->datapath_ready, __ATOMIC_SEQ_CST)))
		return true;
	__atomic_store_n(busy, 0, __ATOMIC_RELEASE);
	return false;
}

static inline void
nf_queue_leave(uint32_t *busy)
{
	__atomic_store_n(busy, 0, __ATOMIC_RELEASE);
}

/* Data plane: the backend broke the protocol; hand over to control. */
void nf_fail(struct nf_adapter *ad, uint32_t *failed, const char *why);

#endif /* NF_H */
