/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * What the two Xen netif PMDs share about a port and its queues: the port
 * part each PMD's private data begins with (struct xn_port), the queue
 * part each queue begins with (struct xn_queue), the gate that lets bursts
 * into the queues only while the rings are attached, the hand-off of a
 * protocol violation from the data plane to the control thread, and the
 * doorbell with its counters. The control thread (xn_control.c) runs each
 * PMD's handshake through struct xn_port_ops; the bursts (xn_burst.c) run
 * the operations of each queue's ring kind (netif_ring_ops.h).
 *
 * Counters: `sent + suppressed + failed` is the number of publishes of a
 * ring index, at most one per burst; `received` counts the events the
 * pair's endpoint delivered, taken when its Rx queue enters or leaves
 * interrupt mode (xn_intr.h): a polling queue takes none.
 */

#ifndef XN_PORT_H
#define XN_PORT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <ethdev_driver.h>
#include <rte_log.h>

#include "netif_hash.h"
#include "netif_ring.h"
#include "netif_ring_ops.h"
#include "netif_rx_group.h"
#include "xa.h"
#include "xenbus.h"
#include "xn_devargs.h"

#define XN_MAX_QUEUES XENBUS_VIF_MAX_QUEUES

/* Multicast groups an application may list: netif's filter holds 64. */
#define XN_MAX_MC_ADDRS 64

/* No event channel port. */
#define XN_NO_EVTCHN ((evtchn_port_t)-1)

#define XN_LOG(p, level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, (p)->logtype, "%s: " fmt "\n", \
		(p)->dev->data->name, ##__VA_ARGS__)

struct xn_port;
struct xn_info;

struct xn_notify_stats {
	uint64_t sent;		/* data plane: the peer asked, notified */
	uint64_t suppressed;	/* data plane: the peer's event index said no */
	uint64_t failed;	/* data plane: the peer asked, notify failed */
	uint64_t received;	/* control thread */
};

/* Grant map and unmap calls for the queue's ring; control thread. */
struct xn_grant_stats {
	uint64_t maps;
	uint64_t unmaps;
};

struct xn_queue {
	struct xn_port *port;
	uint16_t queue_id;
	uint8_t kind;			/* enum netif_ring_kind of @ring */
	uint32_t busy;			/* inside a burst (xn_queue_enter) */
	uint32_t left;			/* bursts that left (xn_queue_quiesce) */
	/* Our end of the channel of this queue's ring, set on connect. */
	evtchn_port_t evtchn;
	/* The pair's endpoint: its channels are bound through it. */
	struct xa_evtchn *endpoint;
	void *ring;
	struct xn_notify_stats notify;
	struct xn_grant_stats grant;
} __rte_cache_aligned;

/* An Rx queue: its burst pulls at most `batch`, maybe grouped. */
struct xn_rxq {
	struct xn_queue q;
	struct rte_mempool *mp;		/* set up with; NULL until then */
	struct netif_rx_batching batching;
	/* Rx interrupt mode (xn_intr.h); -1 while the port has none. */
	int intr_fd;			/* the application sleeps on it */
	int kick_fd;			/* eventfd: wakes the sleeper */
};

/*
 * What a PMD does its own way. Probe calls configure, opens Xen access,
 * then calls init and starts the control thread; close stops it and calls
 * uninit. update, failed and stopped run under the port's lock.
 */
struct xn_port_ops {
	/* Optional: the PMD's own devargs take their defaults (before parsing). */
	void (*defaults)(struct xn_port *p);
	/*
	 * Check the PMD's own devargs and complete @args (provider and
	 * simulator instance filled in) for opening Xen access.
	 */
	int (*configure)(struct xn_port *p, struct xa_open_args *args);
	/* Xen access is open: the queues (xn_queue_pair_init), MAC, watches. */
	int (*init)(struct xn_port *p);
	/* The control thread has stopped: leave the peer. */
	void (*uninit)(struct xn_port *p);
	/* Rx queue @qid takes its mbufs from @mp from now on: 0 or -errno. */
	int (*rx_setup)(struct xn_port *p, uint16_t qid,
			struct rte_mempool *mp);
	/* Optional: Rx queue @qid is released. */
	void (*rx_release)(struct xn_port *p, uint16_t qid);
	/* After any xenstore event (and once configured): follow the peer. */
	void (*update)(struct xn_port *p);
	/* A burst reported that the peer broke the protocol (@why). */
	void (*failed)(struct xn_port *p, const char *why);
	/* Optional: dev_stop closed the gate; the rings are the caller's. */
	void (*stopped)(struct xn_port *p);
	/*
	 * Optional: an event on the control ring's channel (ctrl_evtchn).
	 * Returns the requests or responses it found (0: a spurious event);
	 * *@more when it stopped with some still waiting, its budget for
	 * the turn spent.
	 */
	unsigned int (*ctrl)(struct xn_port *p, bool *more);
	/*
	 * Optional: the application's multicast list or its promiscuous and
	 * all-multicast modes (in the port) changed; 0 or -errno.
	 */
	int (*rx_filter)(struct xn_port *p);
	/*
	 * Optional, under the lock: the port's hash (xn_rss.h), copied into
	 * @cfg; false when it is off. A netback's is what its guest
	 * configured (the hash of what it receives), a netfront's what its
	 * application did.
	 */
	bool (*rss)(struct xn_port *p, struct netif_hash_config *cfg);
	/*
	 * Optional, under the lock: the application's hash @cfg, for a PMD
	 * whose application chooses it; 0 or -errno.
	 */
	int (*rss_set)(struct xn_port *p, const struct netif_hash_config *cfg);
	/*
	 * Optional: the pool Rx queue @qid receives into when it is not the
	 * one it was set up with (NULL: that one).
	 */
	struct rte_mempool *(*rx_pool)(struct xn_port *p, uint16_t qid);
	/*
	 * Optional, under the lock: the PMD's part of the port's description
	 * (xn_info.h): its peer, the xenbus states, what was negotiated, as
	 * named values without sections.
	 */
	void (*info)(struct xn_port *p, struct xn_info *w);
};

/* A PMD as the common code sees it. */
struct xn_pmd {
	const int *logtype;
	size_t port_size;		/* its port, struct xn_port first */
	/*
	 * One queue pair's state (the PMD's struct holding both queues),
	 * allocated for each configured pair only: a port with one pair
	 * does not carry XN_MAX_QUEUES of them.
	 */
	size_t pair_size;
	/* Its own devargs: handlers are given the port as opaque. */
	const struct xn_devarg *args;
	unsigned int nb_args;
	enum xa_role role;		/* the devices it needs of real Xen */
	uint16_t min_rx_bufsize;	/* smallest mbuf data room accepted */
	const struct xn_port_ops *ops;
	const struct xn_stats_table *stats;	/* see xn_stats.h */
	/* Its telemetry commands' prefix, "/xen_netback" (xn_info.h). */
	const char *info_prefix;
};

/*
 * The application's receive filter, as xn_ethdev.c keeps it for the PMD's
 * ops->rx_filter to read: a vif filters no unicast address.
 */
struct xn_rx_filter {
	bool promiscuous;
	bool all_multicast;
	unsigned int nb_mc;
	struct rte_ether_addr mc[XN_MAX_MC_ADDRS];
};

/*
 * How the control thread serves the control ring's channel, xn_control.c's
 * alone (xn_stats.c reads the counters as xstats): its events (xstats
 * ctrl_events, ctrl_spurious_events), its turns that spent their whole
 * budget with requests still waiting (ctrl_budget_exhausted) and how many
 * in a row, and the delay before a channel whose last event found
 * nothing, or a ring that keeps its budget full, is heard again
 * (ctrl_backoff_us, a gauge); an alarm unmasks it or serves what waits.
 */
struct xn_ctrl_serving {
	uint64_t events;
	uint64_t spurious;
	uint64_t budget_exhausted;
	uint64_t backoff_us;
	uint32_t busy_turns;
	uint64_t busy_logged;		/* timer cycles of the last line */
	bool alarm_armed;
	bool alarm_serves;		/* a turn, else only an unmask */
};

/*
 * The port: ethdev's dev_private, in memory secondary processes share.
 * Every pointer in it is the primary's (a secondary may have mapped the
 * same things elsewhere, or not at all): only the primary follows them,
 * and what a secondary may call reads numbers. Nothing here points into
 * the PMD, which each process may have loaded at its own address (-d):
 * every process reaches it with xn_pmd_of().
 */
/*
 * The peer is gone for good (xn_port_removed()): the application is told
 * once, RTE_ETH_EVENT_INTR_RMV, and removes the port; xn_port.c's alone.
 */
struct xn_removal {
	bool gone;
	bool told;			/* the application was told */
};

/*
 * What the link follows besides the gate (xn_port_refresh()), as the
 * PMDs tell it: xn_port.c's, set through xn_port_peer_ready() and
 * xn_port_carrier().
 */
struct xn_link {
	bool peer_ready;		/* the peer serves the rings */
	bool no_carrier;		/* the peer stalled: link down still */
};

struct xn_port {
	struct rte_eth_dev *dev;
	int logtype;			/* *xn_pmd_of()->logtype */
	struct xn_devargs cfg;
	struct xa_handle *xa;
	domid_t self;			/* the domain we run in */
	struct xn_queue *rxq[XN_MAX_QUEUES];
	struct xn_queue *txq[XN_MAX_QUEUES];
	/* The PMD's pair structs (pmd->pair_size), @cfg.queues of them. */
	void *pairs[XN_MAX_QUEUES];

	/*
	 * The data plane may touch the rings only while @datapath_ready;
	 * queues at or above @nb_pairs have no rings. @failed is the first
	 * protocol violation a burst reported since the last connect.
	 */
	uint32_t datapath_ready;
	unsigned int nb_pairs;
	const char *failed;
	int fail_fd;			/* eventfd: data plane -> control */

	/* Control plane: every field below is under @lock. */
	pthread_mutex_t lock;
	/*
	 * dev_configure has run: the offloads the PMD offers its peer follow
	 * the application's, so the handshake waits for them.
	 */
	bool configured;
	/* rte_eth_dev_set_mtu() was called: the vif's mtu key is ignored. */
	bool mtu_chosen;
	/*
	 * rte_eth_dev_set_ptypes() with none: received packets carry no
	 * packet type, unless grouping or an offload needs their headers.
	 */
	bool ptypes_cleared;
	struct xn_rx_filter filter;
	bool started;			/* between dev_start and dev_stop */
	bool connected;			/* the rings are attached */
	struct xn_link link;
	struct xn_removal removal;
	/* Our end of the control ring's channel, or XN_NO_EVTCHN. */
	evtchn_port_t ctrl_evtchn;
	struct xn_ctrl_serving ctrl_serving;
	struct rte_intr_handle *xs_intr;
	struct rte_intr_handle *evtchn_intr;
	struct rte_intr_handle *fail_intr;
};

/* The port of an ethdev of either PMD. */
static inline struct xn_port *
xn_port(const struct rte_eth_dev *dev)
{
	return dev->data->dev_private;
}

/*
 * @dev's PMD as this process knows it. The port is shared with secondary
 * processes, and a secondary may have loaded the PMD elsewhere (-d): so
 * the port holds no pointer into the PMD, and every process, the primary
 * too, reaches the PMD through this.
 */
const struct xn_pmd *xn_pmd_of(const struct rte_eth_dev *dev);

/* Record @pmd as @dev's in this process, at probe (primary or secondary). */
void xn_pmd_bind(const struct rte_eth_dev *dev, const struct xn_pmd *pmd);

/* The operations of @p's PMD, in this process (xn_pmd_of()). */
static inline const struct xn_port_ops *
xn_ops_of(const struct xn_port *p)
{
	return xn_pmd_of(p->dev)->ops;
}

/*
 * Enter a queue only while the control plane allows it: it withdraws
 * permission, then waits until no burst is inside (a Dekker handshake,
 * hence the sequentially consistent order). A queue pair the peer did not
 * connect has no ring: its bursts move nothing.
 */
static inline bool
xn_queue_enter(struct xn_queue *q)
{
	struct xn_port *p = q->port;

	__atomic_store_n(&q->busy, 1, __ATOMIC_SEQ_CST);
	if (likely(__atomic_load_n(&p->datapath_ready, __ATOMIC_SEQ_CST) &&
		   q->queue_id < p->nb_pairs))
		return true;
	__atomic_store_n(&q->busy, 0, __ATOMIC_RELEASE);
	return false;
}

static inline void
xn_queue_leave(struct xn_queue *q)
{
	__atomic_store_n(&q->left, q->left + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&q->busy, 0, __ATOMIC_RELEASE);
}

/*
 * Control thread: return once every burst that might have read what the
 * caller replaced (with a sequentially consistent store) has left @q;
 * bursts that enter later see the new value. The gate stays open.
 */
static inline void
xn_queue_quiesce(const struct xn_queue *q)
{
	uint32_t left = __atomic_load_n(&q->left, __ATOMIC_SEQ_CST);

	while (__atomic_load_n(&q->busy, __ATOMIC_SEQ_CST) &&
	       __atomic_load_n(&q->left, __ATOMIC_ACQUIRE) == left)
		rte_pause();
}

/* Notify the peer if publishing asked for it, and count what was done. */
static inline void
xn_doorbell(struct xn_queue *q, enum netif_doorbell doorbell)
{
	switch (doorbell) {
	case NETIF_DOORBELL_NONE:
		break;
	case NETIF_DOORBELL_QUIET:
		q->notify.suppressed++;
		break;
	case NETIF_DOORBELL_RING:
		if (likely(xa_evtchn_notify(q->endpoint, q->evtchn) == 0))
			q->notify.sent++;
		else
			q->notify.failed++;
		break;
	}
}

/*
 * Data plane: the peer broke the protocol (@why, a string constant). The
 * first report of a connection wakes the control thread, which logs it
 * and disconnects; the data plane never tears anything down.
 */
void xn_fail(struct xn_port *p, const char *why);

/*
 * Register queue pair @qid of @p (ops->init): the Rx queue @rxq pulling
 * packets from @rx_ring of kind @rx_kind, the Tx queue @txq pushing them
 * into @tx_ring of kind @tx_kind (enum netif_ring_kind), and open the
 * pair's event channel endpoint (xn_port_close() closes it). 0 or -errno,
 * logged.
 */
int xn_queue_pair_init(struct xn_port *p, uint16_t qid,
			struct xn_rxq *rxq, enum netif_ring_kind rx_kind,
			void *rx_ring, struct xn_queue *txq,
			enum netif_ring_kind tx_kind, void *tx_ring);

/* The application's Rx offloads as lib/netif takes them (NETIF_RX_*). */
uint32_t xn_rx_offloads(const struct xn_port *p);

/*
 * Give every Rx queue's ring the application's Rx offloads: at connect,
 * and when dev_configure changes them (the port is stopped: no burst
 * runs). A connected peer keeps the GSO it negotiated; its GSO packets
 * are dropped and counted if it no longer takes large segments.
 */
void xn_port_apply_rx_offloads(struct xn_port *p);

/*
 * Publish @state as this end's xenbus state in its directory @dir; a
 * failure is logged, and the peer then goes by the state it last read.
 */
void xn_port_publish_state(struct xn_port *p, const char *dir,
			   enum xenbus_state state);

/*
 * The port's MTU becomes the vif's (the toolstack's mtu key in the
 * frontend's directory @fe_dir), unless the application chose one; an
 * invalid key is logged and leaves 1500. Under the lock.
 */
void xn_port_follow_vif_mtu(struct xn_port *p, const char *fe_dir);

/*
 * Control plane, under the lock: stop the bursts (the gate closes, as for
 * a disconnect, until xn_port_refresh() opens it again), so that the
 * rings are the caller's.
 */
void xn_port_pause(struct xn_port *p);

/* Open the port's Xen access as @args say; 0 or -errno, logged. */
int xn_port_open(struct xn_port *p, const struct xa_open_args *args);
/* Release what xn_port_open() took; the control thread is stopped. */
void xn_port_close(struct xn_port *p);

/*
 * Control plane, under the lock: the rings of @nb_pairs queue pairs are
 * attached (event channels set in the queues), or none are. Connecting
 * forgets an earlier failure; disconnecting closes the gate and waits
 * until no burst is inside, after which the PMD releases the rings and
 * event channels (setting each queue's evtchn back to XN_NO_EVTCHN).
 */
void xn_port_connected(struct xn_port *p, unsigned int nb_pairs);
void xn_port_disconnected(struct xn_port *p);

/*
 * Control plane, under the lock: the peer serves the rings, or no longer
 * (disconnecting forgets it); it stalled (@carrier false: the link goes
 * down although it serves), or takes again. The link follows at the next
 * xn_port_refresh().
 */
void xn_port_peer_ready(struct xn_port *p, bool ready);
void xn_port_carrier(struct xn_port *p, bool carrier);

/* Control plane, under the lock: whether the peer serves the rings. */
static inline bool
xn_port_peer_serves(const struct xn_port *p)
{
	return p->link.peer_ready;
}

/*
 * Wake @q's sleeper (rte_eth_dev_rx_intr_enable()'s fd reads ready): its
 * kick_fd, which xn_intr.c opens, is the port's to write.
 */
void xn_rxq_kick(struct xn_rxq *q);

/*
 * Bring the gate and the link in line with started, connected and
 * the link's inputs; under the lock. Closing the gate waits until no burst is
 * inside.
 */
void xn_port_refresh(struct xn_port *p);

/*
 * Whether the link is up; read it before a change, then give it to
 * xn_port_lsc() outside the lock, which tells the application
 * (RTE_ETH_EVENT_INTR_LSC) when the link is no longer what it was.
 */
bool xn_port_link_up(struct xn_port *p);
void xn_port_lsc(struct xn_port *p, bool was_up);

/*
 * Under the lock: the port will never serve a peer again. Once the port
 * is probed, xn_port_announce_removal() tells the application, outside
 * the lock, as a hot-unplugged device does (RTE_ETH_EVENT_INTR_RMV): its
 * callback removes the port (testpmd does, with rte_dev_remove()).
 */
void xn_port_removed(struct xn_port *p);
/* Under the lock: whether xn_port_removed() was called. */
bool xn_port_is_removed(const struct xn_port *p);
void xn_port_announce_removal(struct xn_port *p);

#endif /* XN_PORT_H */
