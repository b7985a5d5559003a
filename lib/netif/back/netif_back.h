/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The backend half of the netif data path. Two whole operations are what a
 * backend PMD calls per burst: netif_back_tx_pull() takes the guest's TX
 * requests into mbufs and netif_back_rx_push() puts packets into the
 * buffers the guest posted on its RX ring; each builds the grant copies of
 * the whole burst, submits them in one call, checks every segment, writes
 * the responses, publishes them once and says whether the frontend asked
 * to be notified. They own the ring indexes; the caller only rings the
 * doorbell and, when @error is set, hands the frontend over to its
 * control plane to be disconnected.
 *
 * Underneath are pure conversions on rings in ordinary memory, specified
 * one by one in tests/netif: requests into packet descriptors, descriptors
 * into grant-copy segments and responses, packets into RX slots. The
 * general ones, for any packet, are in netif_back_tx.h and
 * netif_back_rx.h; the ones here are inline in the loops of the pull and
 * the push for the packets most are (one request, one mbuf, nothing to
 * tell), and hand every other packet to the general ones.
 *
 * Every request is copied out of shared memory exactly once before it is
 * looked at (XSA-155), and a frontend's producer index is checked against
 * the ring size before it is trusted (XSA-39).
 */

#ifndef NETIF_BACK_H
#define NETIF_BACK_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <xengnttab.h>

#include "netif_copy.h"
#include "netif_back_rx.h"
#include "netif_back_tx.h"
#include "netif_gref_map.h"
#include "netif_gso.h"
#include "netif_memcpy.h"
#include "netif_offload.h"
#include "netif_ring.h"

/*
 * Attach to a frontend's shared ring where it stands now, so that a
 * backend that restarts picks up a ring already in use. Fails (-EPROTO)
 * when the indexes claim more outstanding requests than the ring holds.
 */
int netif_back_tx_attach(netif_tx_back_ring_t *ring, netif_tx_sring_t *sring);
int netif_back_rx_attach(netif_rx_back_ring_t *ring, netif_rx_sring_t *sring);

/*
 * Number of requests the frontend has posted beyond req_cons, reading its
 * producer index once (acquire). -1 when that index is impossible (more
 * than a ring ahead of our responses).
 */
int netif_back_tx_requests(const netif_tx_back_ring_t *ring);
int netif_back_rx_requests(const netif_rx_back_ring_t *ring);

/*
 * Before the queue sleeps (Rx interrupt mode): ask the frontend to notify
 * when it posts a TX request past req_cons, and tell whether it already
 * has one there (then the caller polls again instead of sleeping).
 */
bool netif_back_tx_arm(netif_tx_back_ring_t *ring);

/*
 * netif_back_tx_parse(), below, of the packet whose first request, the one at
 * ring->req_cons (@avail > 0 posted), the caller copied out of the ring
 * into @req.
 */
static inline enum netif_tx_verdict
netif_back_tx_parse_from(const netif_tx_back_ring_t *ring,
			 const netif_tx_request_t *req, unsigned int avail,
			 uint32_t gso, unsigned int fatal_slots,
			 struct netif_tx_packet *pkt, const char **why)
{
	if (unlikely(req->flags & (NETTXF_extra_info | NETTXF_more_data)))
		return netif_back_tx_parse_more(ring, req, avail, gso,
						fatal_slots, pkt, why);
	netif_tx_packet_start(pkt, req);
	pkt->nr_slots = 1;
	pkt->slots[0] = (struct netif_tx_slot){
		.gref = req->gref,
		.offset = req->offset,
		.size = req->size,
		.id = req->id,
	};
	return netif_tx_packet_check_first(pkt, NETIF_TX_OK, why);
}

/*
 * Read the packet starting at ring->req_cons out of @avail posted requests,
 * without consuming it, accepting the GSO types @gso (NETIF_PEER_GSO_*: the
 * ones offered to the frontend) and, as Linux, dropping a packet of more
 * than NETIF_MAX_SLOTS slots unless it has more than 1 + @fatal_slots
 * (at most NETIF_TX_FATAL_SLOTS_MAX), which is fatal. Whatever the verdict
 * except FATAL, the packet occupies netif_tx_packet_ring_slots() ring
 * slots, which netif_back_tx_pull() consumes. @why names the rule that
 * was broken for DROP and FATAL.
 *
 * Most packets are one request: read here, inline in the pull's loop;
 * netif_back_tx_parse_more() reads the others.
 */
static inline enum netif_tx_verdict
netif_back_tx_parse(const netif_tx_back_ring_t *ring, unsigned int avail,
		    uint32_t gso, unsigned int fatal_slots,
		    struct netif_tx_packet *pkt, const char **why)
{
	netif_tx_request_t req;

	if (unlikely(avail == 0)) {
		*why = "no request posted";
		return NETIF_TX_FATAL;
	}
	/* Copied out of shared memory once: never read there again. */
	RING_COPY_REQUEST(ring, ring->req_cons, &req);
	return netif_back_tx_parse_from(ring, &req, avail, gso, fatal_slots,
					pkt, why);
}

/*
 * A burst's static grants: read once, after the burst announced itself
 * (xn_queue_enter's sequentially consistent store), so that the control
 * thread's wait for the queue covers the table read here.
 */
static inline const struct netif_gref_map *
netif_back_statics(struct netif_gref_map *const *statics)
{
	return statics == NULL ? NULL :
		__atomic_load_n(statics, __ATOMIC_SEQ_CST);
}

/*
 * Chain @mbufs (freshly allocated, enough of them for pkt->len, see
 * netif_mbufs_for()) into one packet and fill it from the frontend's
 * (@frontend) granted pages: a page in @statics (its static grants, may be
 * NULL) is copied at once, any other gets a grant copy appended to @segs.
 * Returns the number of segments written, at most @max_segs, or -1 if
 * @max_segs is too small. Zero-length slots produce no segment (XSA-448).
 *
 * Most packets are one slot into one mbuf: built here, inline in the
 * pull's loop; netif_back_tx_build_chain() builds the others.
 */
static inline int
netif_back_tx_build_copy(const struct netif_tx_packet *pkt,
			 struct rte_mbuf **mbufs, unsigned int nb_mbufs,
			 domid_t frontend, const struct netif_gref_map *statics,
			 xengnttab_grant_copy_segment_t *segs,
			 unsigned int max_segs)
{
	const struct netif_tx_slot *slot = &pkt->slots[0];
	struct rte_mbuf *m = mbufs[0];
	const uint8_t *page;

	if (unlikely(pkt->nr_slots != 1 || slot->size == 0 ||
		     slot->size > rte_pktmbuf_tailroom(m)))
		return netif_back_tx_build_chain(pkt, mbufs, nb_mbufs, frontend,
						 statics, segs, max_segs);
	m->data_len = slot->size;
	m->pkt_len = slot->size;
	/* Parsing checked offset + size against the page. */
	page = netif_gref_map_find(statics, slot->gref, false);
	if (page != NULL) {
		netif_memcpy(rte_pktmbuf_mtod(m, void *), page + slot->offset,
			     slot->size);
		return 0;
	}
	if (max_segs == 0)
		return -1;
	netif_tx_copy_add(segs, slot->gref, slot->offset, frontend,
			  rte_pktmbuf_mtod(m, void *), slot->size);
	return 1;
}

/*
 * A packet netif_back_rx_build_copy() builds inline: one mbuf of our own
 * memory (an external buffer may be lent, netif_lend_source(), and goes
 * the long way), at most a page.
 */
static inline bool
netif_rx_one_page(const struct rte_mbuf *m)
{
	return m->nb_segs == 1 && !RTE_MBUF_HAS_EXTBUF(m) && m->data_len != 0 &&
	       m->data_len <= NETIF_PAGE_SIZE;
}

/*
 * Consume the request at req_cons, @req (copied out of the ring), and
 * one more for @off's hash if it has one, for @m (netif_rx_one_page()):
 * written at once into @page, the request's buffer as a static grant we
 * may write, or through a grant copy appended to @segs when @page is
 * NULL. Recorded in @slot, answered once the copies are done.
 */
static inline void
netif_back_rx_build_one(netif_rx_back_ring_t *ring,
			const netif_rx_request_t *req, uint8_t *page,
			const struct rte_mbuf *m,
			const struct netif_offload *off, domid_t frontend,
			xengnttab_grant_copy_segment_t *segs,
			unsigned int *nb_segs, struct netif_rx_slot *slot)
{
	uint16_t len = m->data_len;

	slot->idx = ring->req_cons++;
	slot->id = req->id;
	slot->size = len;
	slot->flags = 0;
	slot->offset = 0;
	slot->gso_type = XEN_NETIF_GSO_TYPE_NONE;
	slot->hashed = off->hashed;
	if (off->hashed)
		netif_rx_slot_hash(ring, slot, off);
	slot->first_seg = *nb_segs;
	if (page != NULL) {
		netif_memcpy(page, rte_pktmbuf_mtod(m, void *), len);
		slot->nr_segs = 0;
		return;
	}
	netif_rx_copy_add(&segs[(*nb_segs)++], rte_pktmbuf_mtod(m, void *),
			  req->gref, 0, frontend, len);
	slot->nr_segs = 1;
}

/*
 * Consume one RX request per slot the packet @m needs (its first page
 * starting at @off's XDP headroom), and one more after the first for each
 * extra @off asks for, GSO, hash, XDP (the caller checked
 * they are posted: netif_rx_requests_for()), and write @m into the granted
 * pages densely: at once into a page of @statics (may be NULL), through
 * grant copies appended to @segs into any other. Records each data slot in
 * @slots, the first with @off's flags, so that the response can be
 * written, in the slot of its request, once the copies are done. Returns
 * the number of data slots, or -1 if @max_segs is too small (then nothing
 * is consumed).
 *
 * Most packets are one mbuf of our own memory, at most a page, with
 * nothing to tell but their hash: one slot and perhaps a hash extra,
 * built here, inline in the push's loop; netif_back_rx_build_chain()
 * builds the others.
 */
static inline int
netif_back_rx_build_copy(netif_rx_back_ring_t *ring, const struct rte_mbuf *m,
			 const struct netif_offload *off, domid_t frontend,
			 const struct netif_gref_map *statics,
			 xengnttab_grant_copy_segment_t *segs,
			 unsigned int *nb_segs, unsigned int max_segs,
			 struct netif_rx_slot *slots)
{
	netif_rx_request_t req;

	if (unlikely(!netif_rx_one_page(m) ||
		     !netif_offload_at_most_hash(off) ||
		     max_segs - *nb_segs < 2))
		return netif_back_rx_build_chain(ring, m, off, frontend,
						 statics, segs, nb_segs,
						 max_segs, slots);
	/* Copied out of shared memory once: never read there again. */
	RING_COPY_REQUEST(ring, ring->req_cons, &req);
	netif_back_rx_build_one(ring, &req,
				netif_gref_map_find(statics, req.gref, true), m,
				off, frontend, segs, nb_segs, slots);
	return 1;
}

/*
 * Write the response of @slot in the slot of its request: the byte count,
 * or NETIF_RSP_ERROR when @copied is false, and its extras after it. Once
 * every slot consumed is answered, netif_back_rx_push() sets rsp_prod_pvt
 * to req_cons and pushes.
 */
static inline void
netif_back_rx_respond(netif_rx_back_ring_t *ring,
		      const struct netif_rx_slot *slot, bool copied)
{
	netif_rx_response_t *rsp = RING_GET_RESPONSE(ring, slot->idx);

	rsp->id = slot->id;
	rsp->offset = slot->offset;
	rsp->flags = slot->flags;
	rsp->status = copied ? (int16_t)slot->size : NETIF_RSP_ERROR;
	if (!(slot->flags & NETRXF_extra_info))
		return;
	/* With the guest's hash on, most packets' only extra. */
	if (likely(slot->hashed && slot->gso_type == XEN_NETIF_GSO_TYPE_NONE &&
		   slot->offset == 0))
		netif_rx_respond_hash(ring, slot->idx, slot->hash_type,
				      slot->hash);
	else
		netif_back_rx_respond_extras(ring, slot);
}

/* Most packets one pull or push moves. */
#define NETIF_BACK_BURST_MAX 64

/*
 * Spare mbufs a guest TX queue keeps so that a pull allocates in bulk; also
 * the most one packet may take, which sets the smallest mbuf data room a
 * pool must have (NETIF_BACK_MIN_MBUF_ROOM).
 */
#define NETIF_BACK_SPARE_MBUFS 64
#define NETIF_BACK_MIN_MBUF_ROOM \
	((XEN_NETIF_MAX_TX_SIZE + NETIF_BACK_SPARE_MBUFS - 1) / \
	 NETIF_BACK_SPARE_MBUFS)

/* Guest TX: what the backend receives. */
struct netif_back_tx_stats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t mbuf_alloc_failed;	/* pulls cut short for want of mbufs */
	uint64_t mbuf_refill_short;	/* refills of the spares the pool cut short */
	uint64_t drop_bad_frame;	/* answered NETIF_RSP_ERROR */
	uint64_t drop_bad_csum;		/* csum_blank on a non-TCP/UDP frame */
	uint64_t drop_bad_gso;		/* netif_offload_rx() refused it */
	uint64_t drop_copy_failed;
	uint64_t malformed;		/* protocol violations: @error set */
	uint64_t gso_packets;		/* large segments received */
	uint64_t gso_checksum_fixup;	/* of which without csum_blank */
	uint64_t gso_buf_short;		/* pulls cut short for want of a GSO buffer */
	uint64_t static_packets;	/* read from static grants alone */
	uint64_t zero_copy_packets;	/* of which lent (netif_lend.h) */
	uint64_t zero_copy_slots;	/* gauge: ring slots lent, unanswered */
	uint64_t zero_copy_failed; /* lent, then answered NETIF_RSP_ERROR */
	uint64_t map_packets;	   /* lent from a pull's mapping */
	uint64_t map_calls;	   /* those mappings: one a pull */
	uint64_t map_failed;	   /* mappings Xen refused */
	uint64_t unmaps;	   /* those mappings undone */
	uint64_t unmap_failed;	   /* of which refused (a bug of ours) */
	uint64_t map_expired;	   /* held past the hold: copied, answered */
	uint64_t map_expire_failed; /* of which the copy failed: kept mapped */
	uint64_t rate_limited;		/* pulls cut short by the vif's rate */
	uint64_t hashed_packets;	/* with the guest's hash (mbuf RSS hash) */
	uint64_t multicast_requests;	/* dummy requests amending the filter */
	uint64_t multicast_refused;	/* of which answered NETIF_RSP_ERROR */
};

struct netif_lend;
struct netif_gso_bufs;
struct netif_credit;
struct netif_mcast;
struct netif_hash;
struct netif_hash_live;

struct netif_back_tx {
	netif_tx_back_ring_t ring;
	domid_t frontend;
	struct rte_mempool *mp;
	uint16_t mbuf_room;		/* data bytes one mbuf of @mp holds */
	/* Where large segments land whole (netif_gso_bufs.h); NULL: chained. */
	struct netif_gso_bufs *gso_bufs;
	uint16_t port;			/* written to every received mbuf */
	uint32_t offloads;		/* NETIF_RX_*: what the application enabled */
	uint32_t gso_offered;		/* NETIF_PEER_GSO_*: the frontend's to use */
	uint8_t fatal_slots;		/* see netif_back_tx_parse() */
	/* The queue pair's static grants (netif_statics.h); NULL: none. */
	struct netif_gref_map **statics;
	/*
	 * Lends what static grants hold instead of copying (netif_lend.h),
	 * and packets of at least @map_min bytes from one mapping a pull
	 * (0: never).
	 */
	struct netif_lend *lend;
	uint32_t map_min;
	/* The vif's rate limit (netif_credit.h), shared by its queues; may be NULL. */
	struct netif_credit *credit;
	/* The vif's multicast filter the guest amends (netif_mcast.h); may be NULL. */
	struct netif_mcast *mcast;
	const char *error;		/* first protocol violation seen */
	struct netif_back_tx_stats stats;
	struct netif_copy copy;
	uint16_t nb_spare;
	struct rte_mbuf *spare[NETIF_BACK_SPARE_MBUFS];
	/* One pull's packets and where each one's segments start. */
	struct netif_tx_packet pkts[NETIF_BACK_BURST_MAX];
	struct rte_mbuf *heads[NETIF_BACK_BURST_MAX];
	struct netif_loan *loans[NETIF_BACK_BURST_MAX];	/* NULL: copied */
	/* Each one's copy segments: [first_seg, last_seg). */
	uint16_t first_seg[NETIF_BACK_BURST_MAX];
	uint16_t last_seg[NETIF_BACK_BURST_MAX];
	/*
	 * Those lent from the pull's mapping, made once the pull has read
	 * them all: their indexes, and the mbufs each takes, packet after
	 * packet (at most one a packet and one a slot lent: NETIF_LEND_SLOTS).
	 */
	uint16_t to_map[NETIF_BACK_BURST_MAX];
	struct rte_mbuf
		*map_mbufs[NETIF_BACK_BURST_MAX + NETIF_TX_RING_SIZE / 2];
};

/*
 * Where received packets go: mbufs of @mp (data room at least
 * NETIF_BACK_MIN_MBUF_ROOM), marked as from @port; @fatal_slots becomes
 * Linux's default, for the caller to change. Counters are kept.
 */
void netif_back_tx_setup(struct netif_back_tx *tx, struct rte_mempool *mp,
			 uint16_t port);

/*
 * Attach to the frontend @frontend's TX ring @sring where it stands (see
 * netif_back_tx_attach()), copying through @xa. Fails (-EPROTO) on
 * impossible indexes. Clears @error.
 */
int netif_back_tx_connect(struct netif_back_tx *tx, netif_tx_sring_t *sring,
			  struct xa_handle *xa, domid_t frontend);

/*
 * Take at most @max packets the guest sent into @pkts, as far as the vif's
 * rate lets them in (@credit; the rest wait in the ring): parse, copy into
 * mbufs (or lend them, with @lend), classify them (netif_l2_classify()), complete blank checksums,
 * answer every request and publish the answers once. Returns the packets stored; *doorbell says whether the
 * frontend asked to be notified. A protocol violation sets @error, after
 * which nothing more is done until the next connect.
 */
uint16_t netif_back_tx_pull(struct netif_back_tx *tx, struct rte_mbuf **pkts,
			    uint16_t max, enum netif_doorbell *doorbell);

/* Give back the spare mbufs (queue release). */
void netif_back_tx_release(struct netif_back_tx *tx);

/* Guest RX: what the backend sends. */
struct netif_back_rx_stats {
	uint64_t packets;
	uint64_t bytes;
	uint64_t ring_full;		/* pushes cut short: no posted buffer */
	uint64_t drop_too_long;		/* no frontend could take it */
	uint64_t drop_bad_offload;	/* offload requests the frame cannot take */
	uint64_t drop_no_gso;		/* large segments nobody could cut */
	uint64_t drop_copy_failed;
	uint64_t drop_multicast;	/* groups the guest did not join */
	uint64_t malformed;		/* protocol violations: @error set */
	uint64_t gso_packets;		/* sent as large segments */
	uint64_t gso_cut;		/* cut in software (netif_gso.h) */
	uint64_t static_packets;	/* written to static grants alone */
	uint64_t hashed_packets;	/* sent with a hash extra */
};

/* Most frames one push cuts large segments into. */
#define NETIF_BACK_CUT_MAX (2 * NETIF_GSO_SEGS_MAX)

struct netif_back_rx {
	netif_rx_back_ring_t ring;
	domid_t frontend;
	uint32_t peer;			/* NETIF_PEER_*: what the frontend takes */
	const uint16_t *mtu;		/* the link's: bounds a segment's MSS */
	struct netif_gso *gso;		/* NULL: large segments not cut */
	/* The queue pair's static grants (netif_statics.h); NULL: none. */
	struct netif_gref_map **statics;
	/* The vif's multicast filter (netif_mcast.h); NULL: none. */
	const struct netif_mcast *mcast;
	/* The vif's hash (netif_hash.h): a hash extra per frame; NULL: none. */
	const struct netif_hash *hash;
	const char *error;		/* first protocol violation seen */
	struct netif_back_rx_stats stats;
	struct netif_copy copy;
	/* One push's slots and where each packet's slots start. */
	uint16_t first_slot[NETIF_BACK_BURST_MAX + 1];
	/* One push's packets written into static grants, to answer. */
	uint16_t nb_written;
	struct netif_rx_written written[NETIF_BACK_BURST_MAX];
	struct netif_rx_slot slots[NETIF_BACK_BURST_MAX * NETIF_MAX_SLOTS];
	/* The frames one push cut, freed once copied. */
	uint16_t nb_cut;
	struct rte_mbuf *cut[NETIF_BACK_CUT_MAX];
	/*
	 * The stall watch (netif_back_rx_stalled()): when a packet began to
	 * wait for buffers without any request consumed since (timer
	 * cycles, 0: none waits), where the ring stood then and what that
	 * packet needs. Written by the data plane, read by the control
	 * thread.
	 */
	uint64_t stalled_since;
	RING_IDX stall_cons;
	uint32_t stall_need;
	uint32_t push_need;		/* this push's waiting packet: data plane */
	const struct netif_hash_live *push_hash; /* this push's */
	/*
	 * The headroom the frontend asked for (its xdp-headroom key; 0:
	 * none), set by the control thread (netif_back_rx_set_xdp_headroom),
	 * and this push's.
	 */
	uint16_t xdp_headroom;
	uint16_t push_headroom;
};

/*
 * From the next push on, start each frame @headroom bytes (at most
 * NETIF_XDP_HEADROOM_MAX) into its first page and say so in an XDP extra,
 * as the frontend's XDP program wants room in front of the frame; 0: at
 * the page's start, without the extra. Any thread.
 */
static inline void
netif_back_rx_set_xdp_headroom(struct netif_back_rx *rx, uint16_t headroom)
{
	__atomic_store_n(&rx->xdp_headroom, headroom, __ATOMIC_RELAXED);
}

/* As netif_back_tx_connect(), for the frontend's RX ring. */
int netif_back_rx_connect(struct netif_back_rx *rx, netif_rx_sring_t *sring,
			  struct xa_handle *xa, domid_t frontend);

/*
 * Put at most NETIF_BACK_BURST_MAX of the @nb_pkts packets into the
 * buffers the frontend posted: offloads as the frontend takes them
 * (netif_offload_tx(); a large segment it cannot take cut with @gso when
 * there is one), copy, answer, publish once. Packets no frontend can take
 * are dropped and counted. Returns how many packets were
 * consumed (and freed), sent or dropped; it stops early only when the ring
 * has no room, so the caller may retry the rest. *doorbell and @error as
 * for netif_back_tx_pull().
 */
uint16_t netif_back_rx_push(struct netif_back_rx *rx, struct rte_mbuf **pkts,
			    uint16_t nb_pkts, enum netif_doorbell *doorbell);

/*
 * Control thread, while @rx is connected: whether a packet has waited for
 * the frontend's buffers since at least @timeout timer cycles before @now
 * with none consumed (the guest stopped taking packets: Linux netback's
 * "Guest Rx stalled"), and whether a ring found stalled has buffers again
 * for the packet that waited, or no packet waits any more ("ready"; the
 * watch then starts afresh at the next packet that has to wait).
 */
bool netif_back_rx_stalled(const struct netif_back_rx *rx, uint64_t now,
			   uint64_t timeout);
bool netif_back_rx_ready(struct netif_back_rx *rx);

#endif /* NETIF_BACK_H */
