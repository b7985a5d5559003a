/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The frontend's half of the netif data path. Two whole operations are what
 * a frontend PMD calls per burst: netif_front_tx_send() (answers in once
 * half the ids are out, packets out, published once) and
 * netif_front_rx_pull() (packets in, their slots posted again, published
 * once); each says whether the backend asked to be notified. Underneath
 * are pure conversions on rings in ordinary memory: mbuf chains -> TX
 * requests, TX responses -> free request ids, free RX slots -> RX
 * requests, RX responses -> mbuf chains. Nothing here calls the
 * hypervisor: the caller shares the ring pages and the buffer
 * pages, and rings the doorbell these functions ask for.
 *
 * Buffers are persistent: one granted page per TX request id and one per RX
 * ring slot, granted once at connect and reused for every packet, so the
 * data path never performs a grant operation. Everything read from the
 * shared rings is copied out once before it is looked at, because the
 * backend may rewrite it at any moment; a backend that breaks the protocol
 * sets @error, after which the functions do nothing until the next attach.
 *
 * One thread at a time per direction (the lcore polling that queue).
 */

#ifndef NETIF_FRONT_H
#define NETIF_FRONT_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "netif_front_pool.h"
#include "netif_gso.h"
#include "netif_offload.h"
#include "netif_ring.h"

/* Largest frame the frontend transmits: the first request's size field. */
#define NETIF_FRONT_MAX_PKT_LEN XEN_NETIF_MAX_TX_SIZE

/*
 * Grants one queue pair shares with its backend: its two ring pages, a page
 * per TX request id and a page per RX ring slot.
 */
#define NETIF_FRONT_GRANTS_PER_PAIR \
	((uint32_t)(2 + NETIF_TX_RING_SIZE + NETIF_RX_RING_SIZE))

struct netif_front_tx_stats {
	uint64_t packets;	/* packets handed to the backend */
	uint64_t bytes;
	uint64_t errors;	/* packets the backend answered ERROR/DROPPED */
	uint64_t ring_full;	/* bursts cut short by lack of ids or slots */
	uint64_t too_many_slots; /* packets refused as too long (dropped) */
	uint64_t drop_bad_offload; /* offload requests the frame cannot take */
	uint64_t drop_no_gso;	/* large segments nobody could cut */
	uint64_t gso_packets;	/* sent as large segments */
	uint64_t gso_cut;	/* cut in software (netif_gso.h) */
	uint64_t zero_copy_packets; /* sent from the pages of @zc */
	uint64_t multicast_requests; /* groups joined or left (dummies sent) */
	uint64_t multicast_refused; /* of which the backend answered ERROR */
};

struct netif_front_tx {
	netif_tx_front_ring_t ring;
	uint32_t peer;			/* NETIF_PEER_*: what the backend takes */
	const uint16_t *mtu;		/* the link's: bounds a segment's MSS */
	struct netif_gso *gso;		/* NULL: large segments not cut */
	uint8_t *pages;			/* page of request id i at i * 4096 */
	const grant_ref_t *grefs;	/* grant of the page of each id */
	/*
	 * Zero copy: a packet all of whose segments are mbufs of @zc is sent
	 * by naming their pages, each segment held in @held[id] until the
	 * backend answers its request. NULL: every packet is copied.
	 */
	struct netif_front_pool *zc;
	struct rte_mbuf *held[NETIF_TX_RING_SIZE];
	uint16_t nb_held;		/* of @held, not NULL */
	RING_IDX pushed;		/* last req_prod we published */
	uint16_t nb_free;
	uint16_t free_ids[NETIF_TX_RING_SIZE];
	uint8_t id_state[NETIF_TX_RING_SIZE];
	const char *error;		/* first protocol violation seen */
	struct netif_front_tx_stats stats;
};

struct netif_front_rx_stats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t errors;	/* packets the backend reported with status < 0 */
	uint64_t malformed;	/* dropped: bad offsets, length or extras */
	uint64_t mbuf_alloc_failed; /* packets dropped for want of mbufs */
	uint64_t drop_bad_offload; /* netif_offload_rx() refused it */
	uint64_t gso_packets;	/* large segments received */
	uint64_t zero_copy_packets; /* handed over in the buffers posted */
	uint64_t post_short;	/* pushes that found the granted pool dry */
	uint64_t hashed_packets; /* with the backend's hash (RSS) */
};

struct netif_front_rx {
	netif_rx_front_ring_t ring;
	struct rte_mempool *mp;		/* where received packets go */
	uint32_t offloads;		/* NETIF_RX_*: what the application enabled */
	uint32_t gso_asked;		/* NETIF_PEER_GSO_*: what we asked for */
	/*
	 * Zero copy: slot i's buffer is posted[i], an mbuf of @zc, handed to
	 * the application as it is. Copy (@zc NULL): slot i's buffer is the
	 * page at @pages + i * 4096, copied into mbufs of @mp.
	 */
	struct netif_front_pool *zc;
	uint8_t *pages;
	const grant_ref_t *grefs;	/* grant of the page of each slot */
	uint16_t port;			/* written to every received mbuf */
	const char *error;		/* first protocol violation seen */
	struct netif_front_rx_stats stats;
	struct rte_mbuf *posted[NETIF_RX_RING_SIZE];
};

/*
 * Initialise the shared TX ring in @sring and start afresh on it with all
 * NETIF_TX_RING_SIZE ids free. @pages and @grefs describe the id pages and
 * must outlive the attachment. Counters are kept across attaches.
 */
void netif_front_tx_attach(struct netif_front_tx *tx, netif_tx_sring_t *sring,
			   void *pages, const grant_ref_t *grefs);

/* Free the segments sent without a copy and not answered (ring let go). */
void netif_front_tx_detach(struct netif_front_tx *tx);

/*
 * Consume the TX responses the backend has produced and return their ids to
 * the free list. Returns the number of ids freed.
 */
unsigned int netif_front_tx_collect(struct netif_front_tx *tx);

/*
 * Turn packets into requests: a packet all of whose segments are mbufs of
 * @zc (at most 18, none empty) takes a slot per segment naming its page,
 * and is kept until answered; any other is copied densely into the pages
 * of free ids, ceil(len / 4096) slots. Its offload requests are turned into
 * flags and a GSO extra for what the backend takes (netif_offload_tx();
 * a large segment it cannot take cut with @gso when there is one), and
 * its mbuf freed. Packets longer than NETIF_FRONT_MAX_PKT_LEN, and
 * those whose offload cannot be done, are freed and counted instead.
 * Stops at the first packet that does not fit. Returns the number of
 * packets consumed.
 */
uint16_t netif_front_tx_enqueue(struct netif_front_tx *tx,
				struct rte_mbuf **pkts, uint16_t nb_pkts);

/*
 * Ask the backend to add @group to its multicast filter (@op
 * XEN_NETIF_EXTRA_TYPE_MCAST_ADD) or remove it (_DEL): a dummy request, no
 * data, naming the page of a free id, with the extra after it, built but
 * not published (netif_front_tx_push()). Its answer frees the id as any
 * other; an ERROR is counted in multicast_refused. False when the ring
 * or the ids have no room for it now.
 */
bool netif_front_tx_mcast(struct netif_front_tx *tx, uint8_t op,
			  const struct rte_ether_addr *group);

/*
 * Publish the requests built since the last push. Returns how many were
 * published; *notify tells whether the backend's event index asks for a
 * notification.
 */
unsigned int netif_front_tx_push(struct netif_front_tx *tx, bool *notify);

/* Request ids the backend has not answered yet. */
static inline unsigned int
netif_front_tx_in_flight(const struct netif_front_tx *tx)
{
	return NETIF_TX_RING_SIZE - tx->nb_free;
}

/*
 * Initialise the shared RX ring in @sring and start afresh on it; no
 * request is posted until netif_front_rx_push(). Counters are kept.
 */
void netif_front_rx_attach(struct netif_front_rx *rx, netif_rx_sring_t *sring,
			   void *pages, const grant_ref_t *grefs, uint16_t port);

/*
 * The same in zero-copy mode: every buffer posted is an mbuf of @zc, and
 * a packet is received in the mbufs its data was written to.
 */
void netif_front_rx_attach_zc(struct netif_front_rx *rx,
			      netif_rx_sring_t *sring,
			      struct netif_front_pool *zc, uint16_t port);

/* Give back the mbufs posted and not received (the ring is let go). */
void netif_front_rx_detach(struct netif_front_rx *rx);

/*
 * Turn complete RX response chains into mbufs from @mp, at most @nb_pkts
 * packets, each classified (netif_l2_classify()) with its offload applied
 * (netif_offload_rx()). A chain whose last response is not produced yet is
 * left for the next call. Packets with an error status, bad bounds or
 * extras, an offload they cannot take, or no mbufs are consumed and
 * counted. Returns the number of packets stored in @pkts.
 */
uint16_t netif_front_rx_receive(struct netif_front_rx *rx,
				struct rte_mempool *mp,
				struct rte_mbuf **pkts, uint16_t nb_pkts);

/*
 * Post a request for every ring slot whose response was consumed (in
 * zero-copy mode, for as many as the pool has mbufs for), then publish
 * them. Returns how many were published; *notify as for TX.
 */
unsigned int netif_front_rx_push(struct netif_front_rx *rx, bool *notify);

/*
 * Turn up to @nb_pkts packets into requests and publish them once:
 * netif_front_tx_enqueue() and _push(), after netif_front_tx_collect()
 * once half the ids are in flight, or when the burst needs the ids answers
 * free, is empty, or the ring holds the application's mbufs (zero copy):
 * answers otherwise wait in the ring. Returns the packets consumed;
 * *doorbell says whether to notify.
 */
uint16_t netif_front_tx_send(struct netif_front_tx *tx, struct rte_mbuf **pkts,
			     uint16_t nb_pkts, enum netif_doorbell *doorbell);

/* Where received packets go: mbufs of @mp (queue set-up). */
static inline void
netif_front_rx_setup(struct netif_front_rx *rx, struct rte_mempool *mp)
{
	rx->mp = mp;
}

/*
 * Take up to @max packets into @pkts from rx->mp and post their slots
 * again, published once: netif_front_rx_receive() and _push(). *doorbell as for
 * netif_front_tx_send().
 */
uint16_t netif_front_rx_pull(struct netif_front_rx *rx, struct rte_mbuf **pkts,
			     uint16_t max, enum netif_doorbell *doorbell);

/*
 * Before the queue sleeps (Rx interrupt mode): ask the backend to notify
 * when it answers past rsp_cons, and tell whether it already has (then the
 * caller polls again instead of sleeping).
 */
bool netif_front_rx_arm(struct netif_front_rx *rx);

#endif /* NETIF_FRONT_H */
