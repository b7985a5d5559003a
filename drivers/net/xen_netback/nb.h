/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * State shared by the three parts of the xen_netback PMD: the ethdev glue
 * (nb_ethdev.c), the burst functions (nb_rxtx.c) and the control plane
 * that follows the frontend through xenstore (nb_xenbus.c).
 *
 * Naming follows the application's view: Rx queue N carries the guest's
 * TX ring of queue pair N (packets the guest sends), Tx queue N its RX
 * ring.
 */

#ifndef NB_H
#define NB_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <ethdev_driver.h>
#include <rte_log.h>

#include "netif_back.h"
#include "netif_rx_group.h"
#include "xa.h"
#include "xenbus_back.h"

extern int nb_logtype;
#define NB_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, nb_logtype, "xen_netback: " fmt "\n", \
		##__VA_ARGS__)

/* Most packets one burst takes from or gives to a ring. */
#define NB_BURST_MAX 64
_Static_assert(NB_BURST_MAX >= NETIF_BATCH_MAX, "a pull fits a burst");
/* Grant-copy segments one burst may submit in its single copy call. */
#define NB_SEGS_MAX 2048
/*
 * Spare mbufs kept per Rx queue so a burst allocates in bulk; also the most
 * one packet may take, which sets the smallest mbuf data room accepted.
 */
#define NB_SPARE_MBUFS 64
#define NB_MIN_MBUF_ROOM \
	((XEN_NETIF_MAX_TX_SIZE + NB_SPARE_MBUFS - 1) / NB_SPARE_MBUFS)

struct nb_port;

/* Counters: written by one lcore, read by stats calls (relaxed). */
struct nb_rxq_stats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t nombuf;
	uint64_t notify_sent;
	uint64_t notify_suppressed;
	uint64_t notify_received;	/* written by the control thread */
	uint64_t copy_calls;
	uint64_t copy_segs;
	uint64_t copy_failed;
	uint64_t drop_bad_frame;	/* answered NETIF_RSP_ERROR */
	uint64_t drop_bad_csum;		/* csum_blank on a non-TCP/UDP frame */
	uint64_t drop_copy_failed;
	uint64_t malformed;		/* fatal protocol violations */
};

struct nb_txq_stats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;
	uint64_t notify_sent;
	uint64_t notify_suppressed;
	uint64_t notify_received;	/* written by the control thread */
	uint64_t copy_calls;
	uint64_t copy_segs;
	uint64_t copy_failed;
	uint64_t ring_full;		/* bursts cut short: no posted buffer */
	uint64_t drop_too_long;
	uint64_t drop_copy_failed;
	uint64_t malformed;
};

/* Guest TX: requests in, packets to the application. */
struct nb_rxq {
	struct nb_port *port;
	uint32_t busy;			/* inside a burst (see nb_queue_enter) */
	struct rte_mempool *mp;
	uint16_t mbuf_room;		/* data bytes one mbuf holds */
	uint16_t queue_id;
	uint16_t nb_spare;
	uint16_t batch;			/* most packets one pull takes */
	bool group;			/* return runs of one EtherType */
	uint64_t single_flag;		/* mbuf flag of such a run */
	struct nb_rxq_stats stats;
	struct netif_rx_stash stash;	/* pulled, not yet returned */
	struct rte_mbuf *spare[NB_SPARE_MBUFS];
	struct netif_tx_packet pkts[NB_BURST_MAX];
	struct rte_mbuf *heads[NB_BURST_MAX];
	uint16_t first_seg[NB_BURST_MAX + 1];
	xengnttab_grant_copy_segment_t segs[NB_SEGS_MAX];
};

/* Guest RX: packets from the application into posted buffers. */
struct nb_txq {
	struct nb_port *port;
	uint32_t busy;
	uint16_t queue_id;
	struct nb_txq_stats stats;
	uint16_t first_slot[NB_BURST_MAX + 1];
	struct netif_rx_slot slots[NB_BURST_MAX * NETIF_MAX_SLOTS];
	xengnttab_grant_copy_segment_t segs[NB_SEGS_MAX];
};

/* Most queue pairs a port offers (devarg queues). */
#define NB_MAX_QUEUES XENBUS_VIF_MAX_QUEUES

/* Longest guest name xl accepts for domain=. */
#define NB_DOMAIN_NAME_MAX 63

struct nb_config {
	enum xa_provider provider;
	char sim_instance[XA_SIM_INSTANCE_MAX + 1];
	domid_t frontend_domid;		/* 0: claim by @domain */
	char domain[NB_DOMAIN_NAME_MAX + 1];
	unsigned int handle;
	uint16_t queues;		/* multi-queue-max-queues offered */
	uint16_t batch;			/* see netif_rx_group.h */
	bool group_ethertype;
	uint64_t single_flag;		/* registered when group_ethertype */
};

/* The guest's rings and event channels of one queue pair, once mapped. */
struct nb_pair {
	void *tx_sring;			/* mapped guest TX ring page */
	void *rx_sring;			/* mapped guest RX ring page */
	netif_tx_back_ring_t tx_ring;	/* used by the Rx queue's lcore */
	netif_rx_back_ring_t rx_ring;	/* used by the Tx queue's lcore */
	evtchn_port_t evtchn_tx;	/* our ends */
	evtchn_port_t evtchn_rx;
} __rte_cache_aligned;

struct nb_port {
	struct rte_eth_dev *dev;
	struct nb_config cfg;
	struct xa_handle *xa;
	domid_t self;

	/* Control plane; every field below is under @lock. */
	pthread_mutex_t lock;
	domid_t fe_domid;		/* the guest served, 0 while unknown */
	char vif_root[sizeof("/local/domain/65535/backend/vif")];
	char be_dir[XENBUS_PATH_MAX];	/* "" while fe_domid is 0 */
	char fe_dir[XENBUS_PATH_MAX];
	char fe_state_path[XENBUS_PATH_MAX];
	bool fe_watched;
	enum xenbus_state state;
	struct xenbus_back_frontend fe;
	/*
	 * The frontend's queue pairs; the data plane reads nb_pairs only once
	 * let in. Queues at or above it have no rings and move nothing.
	 */
	struct nb_pair pairs[NB_MAX_QUEUES];
	unsigned int nb_pairs;
	bool connected;
	bool started;
	struct rte_intr_handle *xs_intr;
	struct rte_intr_handle *evtchn_intr;
	struct rte_intr_handle *fail_intr;
	int fail_fd;			/* eventfd: data plane -> control */

	/*
	 * The data plane may touch the rings only while @datapath_ready;
	 * failed is set once by the data plane on a fatal frontend error.
	 */
	uint32_t datapath_ready;
	uint32_t failed;
	const char *fail_reason;

	struct nb_rxq *rxq[NB_MAX_QUEUES];
	struct nb_txq *txq[NB_MAX_QUEUES];
};

/* nb_rxtx.c */
uint16_t nb_rx_burst(void *qp, struct rte_mbuf **pkts, uint16_t nb_pkts);
uint16_t nb_tx_burst(void *qp, struct rte_mbuf **pkts, uint16_t nb_pkts);
void nb_rxq_release_spares(struct nb_rxq *q);

/* nb_claim.c */
bool nb_vif_present(struct nb_port *p, domid_t domid);
bool nb_claim_by_name(struct nb_port *p);

/* nb_xenbus.c */
int nb_xenbus_init(struct nb_port *p);
void nb_xenbus_uninit(struct nb_port *p);
/* Start or stop the data plane's access to the rings (dev_start/stop). */
void nb_xenbus_set_started(struct nb_port *p, bool started);

/*
 * The data plane enters a queue only while the control plane allows it;
 * the control plane withdraws permission, then waits until no burst is
 * inside (a Dekker handshake, hence the sequentially consistent order).
 */
static inline bool
nb_queue_enter(struct nb_port *p, uint32_t *busy)
{
	__atomic_store_n(busy, 1, __ATOMIC_SEQ_CST);
	if (likely(__atomic_load_n(&p->datapath_ready, __ATOMIC_SEQ_CST)))
		return true;
	__atomic_store_n(busy, 0, __ATOMIC_RELEASE);
	return false;
}

static inline void
nb_queue_leave(uint32_t *busy)
{
	__atomic_store_n(busy, 0, __ATOMIC_RELEASE);
}

/* Data plane: the frontend broke the protocol; hand over to control. */
void nb_fail(struct nb_port *p, uint64_t *malformed, const char *why);

#endif /* NB_H */
