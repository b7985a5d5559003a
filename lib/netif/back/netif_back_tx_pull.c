/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest TX, the whole backend operation (see netif_back.h): read the
 * frontend's producer index once, turn the requests it covers into packet
 * descriptors and grant copies into mbufs, submit the copies in one call,
 * complete blank checksums, answer every request in ring order and publish
 * the answers once. The plain packets a pull begins with, on pages of
 * static grants, take a shorter way: read together, then each copied or
 * lent and handed over (tx_plain_burst()). A request no honest frontend
 * produces stops the pull and sets @error; a harmless bad packet is
 * answered NETIF_RSP_ERROR.
 */

#include <rte_cycles.h>
#include <rte_prefetch.h>

#include "netif_back.h"
#include "netif_credit.h"
#include "netif_gso_bufs.h"
#include "netif_l2.h"
#include "netif_lend.h"
#include "netif_mcast.h"
#include "netif_memcpy.h"

void
netif_back_tx_setup(struct netif_back_tx *tx, struct rte_mempool *mp,
		    uint16_t port)
{
	netif_back_tx_release(tx);
	tx->mp = mp;
	tx->mbuf_room = rte_pktmbuf_data_room_size(mp) - RTE_PKTMBUF_HEADROOM;
	tx->port = port;
	tx->fatal_slots = NETIF_TX_FATAL_SLOTS_DEFAULT;
}

int
netif_back_tx_connect(struct netif_back_tx *tx, netif_tx_sring_t *sring,
		      struct xa_handle *xa, domid_t frontend)
{
	tx->frontend = frontend;
	tx->copy.xa = xa;
	netif_copy_reset(&tx->copy);
	tx->error = NULL;
	netif_lend_connect(tx->lend, xa, frontend);
	return netif_back_tx_attach(&tx->ring, sring);
}

void
netif_back_tx_release(struct netif_back_tx *tx)
{
	rte_pktmbuf_free_bulk(tx->spare, tx->nb_spare);
	tx->nb_spare = 0;
}

static void
tx_fail(struct netif_back_tx *tx, const char *why)
{
	tx->stats.malformed++;
	tx->error = why;
}

/*
 * Refill the spares in bulk; when the pool has fewer free mbufs than that,
 * take what it has, one by one: a bulk allocation is all or nothing, and
 * a queue must not wait for a whole refill while it could progress.
 */
static void
tx_refill_spares(struct netif_back_tx *tx)
{
	unsigned int want = NETIF_BACK_SPARE_MBUFS - tx->nb_spare;
	struct rte_mbuf *m;

	if (rte_pktmbuf_alloc_bulk(tx->mp, &tx->spare[tx->nb_spare],
				   want) == 0) {
		tx->nb_spare += want;
		return;
	}
	tx->stats.mbuf_refill_short++;
	while (tx->nb_spare < NETIF_BACK_SPARE_MBUFS &&
	       (m = rte_pktmbuf_alloc(tx->mp)) != NULL)
		tx->spare[tx->nb_spare++] = m;
}

/* @n mbufs from the spares, refilled; false if the pool has too few. */
static inline bool
tx_take_mbufs(struct netif_back_tx *tx, struct rte_mbuf **m, unsigned int n)
{
	if (tx->nb_spare < n) {
		tx_refill_spares(tx);
		if (tx->nb_spare < n)
			return false;
	}
	tx->nb_spare -= n;
	/* Most packets take one: no call to memcpy() for it. */
	if (likely(n == 1))
		m[0] = tx->spare[tx->nb_spare];
	else
		memcpy(m, &tx->spare[tx->nb_spare], n * sizeof(*m));
	return true;
}

/*
 * Whether the vif's rate lets the packet in now; else it waits in the ring
 * for the next window.
 */
static inline bool
tx_take_credit(struct netif_back_tx *tx, const struct netif_tx_packet *pkt,
	       uint64_t now)
{
	if (tx->credit == NULL || netif_credit_take(tx->credit, pkt->len, now))
		return true;
	tx->stats.rate_limited++;
	return false;
}

/*
 * A dummy request amending the vif's multicast filter, answered at once:
 * OKAY, or ERROR for a group refused (not multicast, the list full) as
 * Linux answers.
 */
static void
tx_amend_mcast(struct netif_back_tx *tx, const struct netif_tx_packet *pkt)
{
	int16_t status = NETIF_RSP_OKAY;

	tx->stats.multicast_requests++;
	if (pkt->mcast_op == XEN_NETIF_EXTRA_TYPE_MCAST_DEL) {
		if (tx->mcast != NULL)
			netif_mcast_del(tx->mcast, &pkt->mcast_addr);
	} else if (tx->mcast == NULL ||
		   netif_mcast_add(tx->mcast, &pkt->mcast_addr) != 0) {
		tx->stats.multicast_refused++;
		status = NETIF_RSP_ERROR;
	}
	netif_back_tx_respond(&tx->ring, pkt, status);
}

/* The packet waits in the ring after all: its credit comes back. */
static inline void
tx_return_credit(struct netif_back_tx *tx, const struct netif_tx_packet *pkt)
{
	if (tx->credit != NULL)
		netif_credit_refund(tx->credit, pkt->len);
}

/* Give back mbufs taken for a packet that will not be built now. */
static void
tx_return_mbufs(struct netif_back_tx *tx, struct rte_mbuf **m, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		/* A large segment's buffer goes back to its set. */
		if (RTE_MBUF_HAS_EXTBUF(m[i]))
			rte_pktmbuf_detach(m[i]);
		rte_pktmbuf_reset(m[i]);	/* undo the chaining */
	}
	memcpy(&tx->spare[tx->nb_spare], m, n * sizeof(*m));
	tx->nb_spare += n;
}

/*
 * The *@n mbufs a copied packet lands in: a large segment whole in one,
 * on a buffer of the queue's set, where it has one; else the pool's
 * mbufs, chained. false when either runs out: the packet waits.
 */
static inline bool
tx_take_copy_mbufs(struct netif_back_tx *tx, const struct netif_tx_packet *pkt,
		   struct rte_mbuf **m, unsigned int *n)
{
	/* At most NETIF_BACK_SPARE_MBUFS (the minimum room). */
	*n = netif_mbufs_for(pkt->len, tx->mbuf_room);
	if (*n == 1 || tx->gso_bufs == NULL ||
	    pkt->off.gso_type == XEN_NETIF_GSO_TYPE_NONE ||
	    pkt->len > NETIF_GSO_BUF_ROOM)
		return tx_take_mbufs(tx, m, *n);
	if (!tx_take_mbufs(tx, m, 1))
		return false;
	if (!netif_gso_buf_attach(tx->gso_bufs, m[0],
				  netif_back_tx_page_phase(pkt))) {
		tx_return_mbufs(tx, m, 1);
		tx->stats.gso_buf_short++;
		return false;
	}
	*n = 1;
	return true;
}

/* How a packet reaches the application. */
enum tx_way {
	TX_COPY,   /* grant-copied into mbufs */
	TX_STATIC, /* lent from static grants */
	TX_MAP,	   /* lent from the pull's mapping */
};

/*
 * How @pkt goes, besides @loans packets of @slots slots already to be
 * lent from the mapping: lent from its static grants (their pages stored
 * in @pages) if it has at least NETIF_LEND_STATIC_MIN_LEN bytes, or from
 * the pull's mapping if it is in none and has at least tx->map_min bytes,
 * or copied.
 */
static enum tx_way
tx_way(struct netif_back_tx *tx, const struct netif_tx_packet *pkt,
       const struct netif_gref_map *statics, const uint8_t **pages,
       unsigned int loans, unsigned int slots)
{
	/* A large segment is wanted whole in one mbuf (gso_contiguous=1). */
	if (!netif_lend_room(tx->lend, pkt->len, pkt->nr_slots, loans, slots) ||
	    (tx->gso_bufs != NULL &&
	     pkt->off.gso_type != XEN_NETIF_GSO_TYPE_NONE))
		return TX_COPY;
	if (pkt->len >= NETIF_LEND_STATIC_MIN_LEN &&
	    netif_lend_static(pkt, statics, pages))
		return TX_STATIC;
	if (tx->map_min == 0 || pkt->len < tx->map_min)
		return TX_COPY;
	/*
	 * Looked up only now: a short packet copied anyway takes no lookup
	 * here, and one in static grants is copied from them, never mapped.
	 */
	if (pkt->len < NETIF_LEND_STATIC_MIN_LEN &&
	    netif_lend_static(pkt, statics, pages))
		return TX_COPY;
	return TX_MAP;
}

/*
 * Add the copies of @pkt (the pull's packet @i) at the end of the batch,
 * into mbufs taken now; false if the pool or the batch has no room.
 */
static bool
tx_copy_late(struct netif_back_tx *tx, unsigned int i,
	     const struct netif_gref_map *statics)
{
	const struct netif_tx_packet *pkt = &tx->pkts[i];
	struct rte_mbuf *mbufs[NETIF_BACK_SPARE_MBUFS];
	struct netif_copy *c = &tx->copy;
	unsigned int nb_mbufs;
	int built;

	if (!tx_take_copy_mbufs(tx, pkt, mbufs, &nb_mbufs))
		return false;
	built = netif_back_tx_build_copy(pkt, mbufs, nb_mbufs, tx->frontend,
					 statics, netif_copy_next(c),
					 netif_copy_room(c));
	if (built < 0) {
		tx_return_mbufs(tx, mbufs, nb_mbufs);
		return false;
	}
	tx->first_seg[i] = c->n;
	c->n += built;
	tx->last_seg[i] = c->n;
	tx->heads[i] = mbufs[0];
	return true;
}

/*
 * Lend the pull's packets tx->to_map[@first, @first + @n) from one mapping
 * of them all, into the mbufs tx_collect() took; false if Xen refused it.
 */
static bool
tx_lend_mapped(struct netif_back_tx *tx, unsigned int first, unsigned int n,
	       struct rte_mbuf **mbufs)
{
	const struct netif_tx_packet *pkts[NETIF_BACK_BURST_MAX];
	const uint8_t *pages[NETIF_MAX_SLOTS];
	struct netif_lend_batch *b;
	const uint8_t *page;
	unsigned int i, s;

	for (i = 0; i < n; i++)
		pkts[i] = &tx->pkts[tx->to_map[first + i]];
	b = netif_lend_map(tx->lend, pkts, n, tx->frontend);
	if (b == NULL)
		return false;
	page = b->addr;
	for (i = 0; i < n; i++) {
		for (s = 0; s < pkts[i]->nr_slots; s++, page += XA_PAGE_SIZE)
			pages[s] = page;
		tx->loans[tx->to_map[first + i]] =
			netif_lend_build(tx->lend, pkts[i], pages, b, mbufs);
		mbufs += netif_lend_mbufs(pkts[i]);
		tx->stats.zero_copy_packets++;
	}
	return true;
}

/*
 * Lend the @n packets of the pull read for its mapping, in one mapping of
 * them all. Xen refuses it whole for one grant it refuses: each is then
 * mapped alone, and one it refuses too is copied, which answers a bad
 * grant with an error as for any packet; without the mbufs or the room to
 * copy it, it is answered with an error and dropped now.
 */
static void
tx_map_pull(struct netif_back_tx *tx, unsigned int n,
	    const struct netif_gref_map *statics)
{
	struct rte_mbuf **mbufs = tx->map_mbufs;
	unsigned int i, k, nb_mbufs;

	if (n == 0 || tx_lend_mapped(tx, 0, n, mbufs))
		return;
	for (i = 0; i < n; i++, mbufs += nb_mbufs) {
		k = tx->to_map[i];
		nb_mbufs = netif_lend_mbufs(&tx->pkts[k]);
		if (n > 1 && tx_lend_mapped(tx, i, 1, mbufs))
			continue;
		tx_return_mbufs(tx, mbufs, nb_mbufs);
		if (tx_copy_late(tx, k, statics))
			continue;
		netif_back_tx_respond(&tx->ring, &tx->pkts[k], NETIF_RSP_ERROR);
		tx->stats.drop_copy_failed++;
		tx->heads[k] = NULL;
	}
}

/*
 * Whether this pull may take plain packets (tx_plain()): the guest gave
 * static grants, and no packet is charged against a rate (read once a
 * pull: a rate set now holds from the next) or has its checksum checked.
 */
static inline bool
tx_plain_pull(const struct netif_back_tx *tx,
	      const struct netif_gref_map *statics)
{
	return statics != NULL && !netif_offload_rx_checks(tx->offloads) &&
	       (tx->credit == NULL || netif_credit_off(tx->credit));
}

/* Flags of a request that is not a packet of its own, untouched. */
#define TX_NOT_PLAIN (NETTXF_csum_blank | NETTXF_extra_info | NETTXF_more_data)

/*
 * Most packets of a guest that gave static grants: one request (none of
 * TX_NOT_PLAIN's flags, which the caller checked) on a page of them, a
 * whole Ethernet header within its page. Returns where its data lies, or
 * NULL when @req (copied out of the ring) is not one.
 */
static inline const uint8_t *
tx_plain_data(const netif_tx_request_t *req,
	      const struct netif_gref_map *statics)
{
	const uint8_t *page;

	if (!netif_tx_frame_whole(req->size) ||
	    !netif_tx_slot_in_page(req->offset, req->size))
		return NULL;
	page = netif_gref_map_find(statics, req->gref, false);
	return page == NULL ? NULL : page + req->offset;
}

/*
 * A plain packet (tx_plain_data()) at @data: lent (netif_lend_one())
 * when it has NETIF_LEND_STATIC_MIN_LEN bytes and the bound has room, else
 * copied when it fits
 * one mbuf; answered (a copy at once, a loan once freed) and handed over
 * here, as the general path would. NULL when no mbuf is left: the general
 * path takes it then.
 */
static inline struct rte_mbuf *
tx_plain(struct netif_back_tx *tx, const netif_tx_request_t *req,
	 const uint8_t *data)
{
	struct rte_mbuf *m[2];

	if (req->size >= NETIF_LEND_STATIC_MIN_LEN &&
	    netif_lend_room(tx->lend, req->size, 1, 0, 0)) {
		if (!tx_take_mbufs(tx, m, 2))
			return NULL;
		netif_lend_one(tx->lend, req, data - req->offset, m[0], m[1]);
		tx->stats.zero_copy_packets++;
	} else {
		if (req->size > tx->mbuf_room || !tx_take_mbufs(tx, m, 1))
			return NULL;
		m[0]->data_len = req->size;
		m[0]->pkt_len = req->size;
		netif_memcpy(rte_pktmbuf_mtod(m[0], void *), data, req->size);
		netif_back_tx_respond_one(&tx->ring, req->id, NETIF_RSP_OKAY);
	}
	m[0]->port = tx->port;
	if (tx->offloads & NETIF_RX_PTYPES)
		netif_l2_classify(m[0]);
	return m[0];
}

/*
 * The plain packets a pull begins with, up to @max of the @avail requests
 * posted: their requests copied out of the ring together and their data
 * asked for, then each taken (tx_plain()), so that the lines the
 * frontend's CPU wrote come over together instead of one after the other.
 * Returns how many went into @out, @bytes long; the general path takes
 * the rest from req_cons.
 */
static unsigned int
tx_plain_burst(struct netif_back_tx *tx, const struct netif_gref_map *statics,
	       unsigned int avail, unsigned int max, struct rte_mbuf **out,
	       uint64_t *bytes)
{
	netif_tx_request_t reqs[NETIF_BACK_BURST_MAX];
	const uint8_t *data[NETIF_BACK_BURST_MAX];
	unsigned int n = RTE_MIN(avail, max), i, k;
	uint64_t sum = 0;

	/*
	 * Copied out of shared memory once: never read there again. A flag
	 * that makes a request no plain packet ends the copies, so that a
	 * pull of offloaded packets copies one request here, not the burst.
	 */
	for (i = 0; i < n; i++) {
		RING_COPY_REQUEST(&tx->ring, tx->ring.req_cons + i, &reqs[i]);
		if (reqs[i].flags & TX_NOT_PLAIN)
			break;
	}
	n = i;
	for (i = 0; i < n; i++) {
		data[i] = tx_plain_data(&reqs[i], statics);
		if (data[i] == NULL)
			break;
		rte_prefetch0(data[i]);
	}
	for (k = 0; k < i; k++) {
		out[k] = tx_plain(tx, &reqs[k], data[k]);
		if (out[k] == NULL)
			break;
		sum += reqs[k].size;
	}
	tx->ring.req_cons += k;
	*bytes = sum;
	return k;
}

/*
 * Parse, allocate and add the copies of as many packets as @max allows;
 * returns how many wait for the copy. The plain packets (tx_plain()) the
 * pull begins with are in @out already, *@nb_plain of them, *@bytes long,
 * so that the application gets packets in ring order. Dropped packets are
 * answered at once: a frontend matches TX answers by id, not by ring order.
 */
static unsigned int
tx_collect(struct netif_back_tx *tx, uint16_t max, struct rte_mbuf **out,
	   unsigned int *nb_plain, uint64_t *bytes)
{
	const struct netif_gref_map *statics = netif_back_statics(tx->statics);
	struct rte_mbuf *mbufs[NETIF_BACK_SPARE_MBUFS];
	const uint8_t *pages[NETIF_MAX_SLOTS];	/* of a packet to lend */
	struct netif_copy *c = &tx->copy;
	uint64_t now = rte_get_timer_cycles();
	unsigned int n = 0, nb_map = 0, map_slots = 0, map_mbufs = 0;
	unsigned int nb_out = 0;
	uint64_t out_bytes = 0;
	enum tx_way way;
	int avail;

	avail = netif_back_tx_requests(&tx->ring);
	if (unlikely(avail < 0)) {
		tx_fail(tx, "TX request producer index beyond the ring");
		return 0;
	}
	if (tx_plain_pull(tx, statics)) {
		nb_out = tx_plain_burst(tx, statics, avail, max, out,
					&out_bytes);
		avail -= nb_out;
	}
	while (avail > 0 && n + nb_out < max) {
		struct netif_tx_packet *pkt = &tx->pkts[n];
		enum netif_tx_verdict verdict;
		netif_tx_request_t req;
		unsigned int nb_mbufs;
		const char *why;
		int built;

		/* Copied out of shared memory once: never read there again. */
		RING_COPY_REQUEST(&tx->ring, tx->ring.req_cons, &req);
		verdict = netif_back_tx_parse_from(&tx->ring, &req, avail,
						   tx->gso_offered,
						   tx->fatal_slots, pkt, &why);
		if (unlikely(verdict == NETIF_TX_FATAL)) {
			tx_fail(tx, why);
			break;
		}
		/* As Linux: a dropped packet spends its credit too. */
		if (!tx_take_credit(tx, pkt, now))
			break;
		if (unlikely(pkt->mcast_op != 0)) {
			tx_amend_mcast(tx, pkt);
		} else if (unlikely(verdict == NETIF_TX_DROP)) {
			netif_back_tx_respond(&tx->ring, pkt, NETIF_RSP_ERROR);
			tx->stats.drop_bad_frame++;
		} else if ((way = tx_way(tx, pkt, statics, pages, nb_map,
					 map_slots)) != TX_COPY) {
			nb_mbufs = netif_lend_mbufs(pkt);
			if (!tx_take_mbufs(tx, mbufs, nb_mbufs)) {
				tx_return_credit(tx, pkt);
				tx->stats.mbuf_alloc_failed++;
				break;
			}
			tx->first_seg[n] = tx->last_seg[n] = c->n;
			tx->heads[n] = mbufs[0];
			tx->loans[n] = NULL;
			if (way == TX_MAP) {
				/* Lent once the pull's mapping is made. */
				memcpy(&tx->map_mbufs[map_mbufs], mbufs,
				       nb_mbufs * sizeof(*mbufs));
				map_mbufs += nb_mbufs;
				map_slots += pkt->nr_slots;
				tx->to_map[nb_map++] = n;
			} else {
				tx->loans[n] = netif_lend_build(
					tx->lend, pkt, pages, NULL, mbufs);
				tx->stats.static_packets++;
				tx->stats.zero_copy_packets++;
			}
			n++;
		} else {
			if (!tx_take_copy_mbufs(tx, pkt, mbufs, &nb_mbufs)) {
				tx_return_credit(tx, pkt);
				tx->stats.mbuf_alloc_failed++;
				break;
			}
			built = netif_back_tx_build_copy(pkt, mbufs, nb_mbufs,
							 tx->frontend, statics,
							 netif_copy_next(c),
							 netif_copy_room(c));
			if (built < 0) {
				/* The batch is full: the packet waits. */
				tx_return_mbufs(tx, mbufs, nb_mbufs);
				tx_return_credit(tx, pkt);
				break;
			}
			tx->first_seg[n] = c->n;
			tx->loans[n] = NULL;
			tx->heads[n++] = mbufs[0];
			c->n += built;
			tx->last_seg[n - 1] = c->n;
			tx->stats.static_packets += statics != NULL &&
						    built == 0;
		}
		tx->ring.req_cons += netif_tx_packet_ring_slots(pkt);
		avail -= netif_tx_packet_ring_slots(pkt);
	}
	tx_map_pull(tx, nb_map, statics);
	tx->stats.static_packets += nb_out;
	*nb_plain = nb_out;
	*bytes = out_bytes;
	return n;
}

/*
 * Classify a copied packet when the application or its offload needs it
 * (one walk gives the application its packet type and the offloads their
 * offsets) and apply its offload; false when it cannot take it (a blank
 * checksum on a frame without one, which Linux drops too, or a GSO packet
 * that is not TCP of its type).
 */
static inline bool
tx_deliverable(struct netif_back_tx *tx, struct rte_mbuf *m,
	       const struct netif_offload *off, bool lent)
{
	const char *why;

	if (netif_offload_rx_walks(off, tx->offloads))
		netif_l2_classify(m);
	if (lent &&
	    (off->csum_blank || off->gso_type != XEN_NETIF_GSO_TYPE_NONE) &&
	    !netif_lend_headers(m))
		goto drop;
	if (off->hashed) {
		/* The guest hashed it as it configured our hash. */
		m->hash.rss = off->hash;
		m->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
		tx->stats.hashed_packets++;
	}
	if (likely(netif_offload_rx(m, off, tx->offloads, &why) == 0)) {
		if (off->gso_type != XEN_NETIF_GSO_TYPE_NONE) {
			tx->stats.gso_packets++;
			/* Linux forces these to blank: count it as Linux does. */
			tx->stats.gso_checksum_fixup += !off->csum_blank;
		}
		return true;
	}
drop:
	if (off->gso_type != XEN_NETIF_GSO_TYPE_NONE)
		tx->stats.drop_bad_gso++;
	else
		tx->stats.drop_bad_csum++;
	return false;
}

uint16_t
netif_back_tx_pull(struct netif_back_tx *tx, struct rte_mbuf **pkts,
		   uint16_t max, enum netif_doorbell *doorbell)
{
	unsigned int i, n, nb_rx = 0;
	uint64_t bytes = 0;

	*doorbell = NETIF_DOORBELL_NONE;
	if (unlikely(tx->error != NULL))
		return 0;
	netif_lend_answer(tx->lend, &tx->ring);
	n = tx_collect(tx, RTE_MIN(max, NETIF_BACK_BURST_MAX), pkts, &nb_rx,
		       &bytes);
	netif_copy_flush(&tx->copy);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = tx->heads[i];
		int16_t status = NETIF_RSP_OKAY;
		bool keep = false;

		/* Answered already: dropped without its mapping (tx_map_pull()). */
		if (unlikely(m == NULL))
			continue;
		if (unlikely(!netif_copy_ok(&tx->copy, tx->first_seg[i],
					    tx->last_seg[i]))) {
			/*
			 * A grant the frontend gave us that is unusable (never
			 * granted, revoked, wrong domain), or a failed call:
			 * as Linux, the packet is answered with an error and
			 * dropped, and the frontend stays.
			 */
			tx->stats.drop_copy_failed++;
			status = NETIF_RSP_ERROR;
		} else if (tx_deliverable(tx, m, &tx->pkts[i].off,
					  tx->loans[i] != NULL)) {
			m->port = tx->port;
			bytes += m->pkt_len;
			pkts[nb_rx++] = m;
			keep = true;
		}
		/*
		 * A copied frame we cannot deliver (tx_deliverable()) is
		 * answered OKAY, as Linux answers before it looks inside.
		 */
		if (tx->loans[i] != NULL) {
			/* Answered once the application frees it. */
			tx->loans[i]->status = status;
			if (!keep)
				rte_pktmbuf_free(m);
			continue;
		}
		if (!keep)
			rte_pktmbuf_free(m);
		netif_back_tx_respond(&tx->ring, &tx->pkts[i], status);
	}
	netif_copy_reset(&tx->copy);
	if (tx->lend != NULL) {
		tx->stats.zero_copy_slots = tx->lend->slots;
		tx->stats.zero_copy_failed = tx->lend->answered_error;
		tx->stats.map_packets = tx->lend->map_packets;
		tx->stats.map_calls = tx->lend->map_calls;
		tx->stats.map_failed = tx->lend->map_failed;
		tx->stats.unmaps = tx->lend->unmaps;
		tx->stats.unmap_failed = tx->lend->unmap_failed;
		tx->stats.map_expired = tx->lend->expired;
		tx->stats.map_expire_failed = tx->lend->expire_failed;
	}
	if (tx->ring.rsp_prod_pvt != tx->ring.sring->rsp_prod)
		*doorbell = netif_doorbell(NETIF_PUSH_RESPONSES(&tx->ring));
	tx->stats.packets += nb_rx;
	tx->stats.bytes += bytes;
	return nb_rx;
}
