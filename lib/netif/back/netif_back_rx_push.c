/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest RX, the whole backend operation (see netif_back.h): read the
 * frontend's producer index once, pack each packet densely into as many
 * posted buffers as it needs, submit the copies of the whole push in one
 * call, answer every buffer in the slot of its request and publish the
 * answers once. Most packets to a guest that gave static grants, hashed
 * or not, are written as they are read (rx_plain()), without a copy to
 * submit, and answered together from a short record
 * (rx_answer_written()).
 */

#include <errno.h>

#include <rte_cycles.h>

#include "netif_back.h"
#include "netif_hash.h"
#include "netif_mcast.h"

int
netif_back_rx_connect(struct netif_back_rx *rx, netif_rx_sring_t *sring,
		      struct xa_handle *xa, domid_t frontend)
{
	rx->frontend = frontend;
	rx->copy.xa = xa;
	netif_copy_reset(&rx->copy);
	rx->error = NULL;
	rx->stalled_since = 0;
	return netif_back_rx_attach(&rx->ring, sring);
}

/* With the guest's hash on, the frame's goes with it in an extra. */
static inline void
rx_hash(struct netif_back_rx *rx, struct rte_mbuf *m, struct netif_offload *off)
{
	if (likely(rx->push_hash == NULL))
		return;
	off->hashed = netif_hash_frame(rx->push_hash, m, &off->hash,
				       &off->hash_type);
}

/*
 * A large segment the frontend cannot take, cut into frames (@rx->gso)
 * that go in one piece into the ring after the slots already used
 * (@nb_slots, @avail updated). Returns 1 when it went, 0 when it waits for
 * room, -1 when it cannot be cut at all.
 */
static int
rx_collect_cut(struct netif_back_rx *rx, struct rte_mbuf *m,
	       const struct netif_gref_map *statics, int *avail,
	       unsigned int *nb_slots)
{
	struct netif_offload off[NETIF_GSO_SEGS_MAX];
	struct rte_mbuf **out = &rx->cut[rx->nb_cut];
	struct netif_copy *c = &rx->copy;
	unsigned int need = 0, segs = 0, i;
	uint32_t first;
	int n;

	if (rx->gso == NULL)
		return -1;
	n = netif_gso_segment(rx->gso, m, out,
			      RTE_MIN(NETIF_BACK_CUT_MAX - rx->nb_cut,
				      NETIF_GSO_SEGS_MAX));
	if (n < 0)
		/* Out of room after this push's other cuts: wait. */
		return n == -ENOMEM && rx->nb_cut > 0 ? 0 : -1;
	for (i = 0; i < (unsigned int)n; i++) {
		if (netif_offload_tx(out[i], rx->peer, *rx->mtu, &off[i]) !=
		    NETIF_OFFLOAD_SEND) {
			rte_pktmbuf_free_bulk(out, n);
			return -1;
		}
		/* The segments share their addresses and ports: one hash. */
		off[i].xdp_headroom = rx->push_headroom;
		if (i == 0) {
			rx_hash(rx, out[0], &off[0]);
		} else {
			off[i].hashed = off[0].hashed;
			off[i].hash_type = off[0].hash_type;
			off[i].hash = off[0].hash;
		}
		first = netif_rx_first_room(out[i], &off[i]);
		need += netif_rx_requests_for(out[i]->pkt_len, first, &off[i]);
		segs += netif_rx_slots_for(out[i]->pkt_len, first) +
			out[i]->nb_segs;
	}
	if (need > (unsigned int)*avail ||
	    *nb_slots + need > RTE_DIM(rx->slots) ||
	    c->n + segs > NETIF_COPY_SEGS_MAX) {
		rte_pktmbuf_free_bulk(out, n);
		return 0;
	}
	for (i = 0; i < (unsigned int)n; i++)
		*nb_slots += netif_back_rx_build_copy(&rx->ring, out[i], &off[i],
						      rx->frontend, statics, c->segs,
						      &c->n, NETIF_COPY_SEGS_MAX,
						      &rx->slots[*nb_slots]);
	*avail -= need;
	rx->nb_cut += n;
	rx->stats.gso_cut++;
	return 1;
}

/* Whether the guest's multicast filter lets @m through. */
static inline bool
rx_to_guest(const struct netif_back_rx *rx, const struct rte_mbuf *m)
{
	if (rx->mcast == NULL || m->data_len < RTE_ETHER_ADDR_LEN)
		return true;
	return netif_mcast_pass(rx->mcast,
				rte_pktmbuf_mtod(m, const struct rte_ether_addr *));
}

/*
 * Whether this push may take plain packets (rx_plain()): the guest gave
 * static grants and asked for no headroom, so that a packet of a page
 * takes one request, and one more for its hash extra if it has one.
 */
static inline bool
rx_plain_push(const struct netif_back_rx *rx,
	      const struct netif_gref_map *statics)
{
	return statics != NULL && rx->push_headroom == 0;
}

/* A packet rx_plain() takes: one page of ours, nothing to offload. */
static inline bool
rx_plain_packet(const struct rte_mbuf *m)
{
	return netif_rx_one_page(m) && netif_offload_tx_none(m);
}

/*
 * Most packets to a guest that gave static grants: a plain packet, with
 * @off's hash if it has one, into the buffer posted at req_cons (the
 * caller checked there are requests for it and its extra, and room for a
 * copy), written at once when the buffer is a static grant we may write,
 * its answer recorded for rx_answer_written(). A buffer that is not (the
 * frontend's choice) is recorded in @slot with its grant copy, as the
 * general path records it. Whether it was written (false: @slot
 * recorded).
 */
static inline bool
rx_plain(struct netif_back_rx *rx, const struct rte_mbuf *m,
	 const struct netif_offload *off, const struct netif_gref_map *statics,
	 struct netif_rx_slot *slot)
{
	netif_rx_request_t req;
	uint8_t *page;

	rx->stats.hashed_packets += off->hashed;
	/* Copied out of shared memory once: never read there again. */
	RING_COPY_REQUEST(&rx->ring, rx->ring.req_cons, &req);
	page = netif_gref_map_find(statics, req.gref, true);
	if (unlikely(page == NULL)) {
		netif_back_rx_build_one(&rx->ring, &req, NULL, m, off,
					rx->frontend, rx->copy.segs,
					&rx->copy.n, slot);
		return false;
	}
	netif_memcpy(page, rte_pktmbuf_mtod(m, void *), m->data_len);
	rx->written[rx->nb_written++] = (struct netif_rx_written){
		.idx = rx->ring.req_cons,
		.id = req.id,
		.size = m->data_len,
		.hash = off->hash,
		.hash_type = off->hash_type,
		.hashed = off->hashed,
	};
	rx->ring.req_cons += 1 + off->hashed;
	rx->stats.static_packets++;
	return true;
}

/*
 * Add the copies of as many of @pkts as the ring has buffers for; returns
 * how many packets were consumed, those dropped included. Those written
 * already (rx_plain()) are counted in @done, @done_bytes.
 */
static unsigned int
rx_collect(struct netif_back_rx *rx, struct rte_mbuf **pkts, uint16_t nb_pkts,
	   unsigned int *done, uint64_t *done_bytes)
{
	const struct netif_gref_map *statics = netif_back_statics(rx->statics);
	bool plain = rx_plain_push(rx, statics);
	struct netif_copy *c = &rx->copy;
	unsigned int n, nb_slots = 0;
	int avail;

	avail = netif_back_rx_requests(&rx->ring);
	if (unlikely(avail < 0)) {
		rx->stats.malformed++;
		rx->error = "RX request producer index beyond the ring";
		return 0;
	}
	for (n = 0; n < nb_pkts; n++) {
		struct rte_mbuf *m = pkts[n];
		struct netif_offload off;
		unsigned int need;
		int used;

		rx->first_slot[n] = nb_slots;
		if (unlikely(!rx_to_guest(rx, m))) {
			rx->stats.drop_multicast++;
			continue;
		}
		if (plain && rx_plain_packet(m) && netif_copy_room(c) > 0) {
			off = (struct netif_offload){
				.gso_type = XEN_NETIF_GSO_TYPE_NONE,
			};
			rx_hash(rx, m, &off);
			need = 1 + off.hashed;
			if ((unsigned int)avail < need) {
				rx->stats.ring_full++;
				rx->push_need = need;
				break;
			}
			if (rx_plain(rx, m, &off, statics,
				     &rx->slots[nb_slots])) {
				(*done)++;
				*done_bytes += m->pkt_len;
			} else {
				nb_slots++;
			}
			avail -= need;
			continue;
		}
		if (unlikely(netif_slots_for(m->pkt_len + rx->push_headroom) >
			     NETIF_MAX_SLOTS ||
			     m->pkt_len > XEN_NETIF_MAX_TX_SIZE)) {
			/* No frontend can take it; drop, don't block. */
			rx->stats.drop_too_long++;
			continue;
		}
		/*
		 * What the offload writes in the packet it would write again
		 * if the packet has to wait for room: it may go first.
		 */
		switch (netif_offload_tx(m, rx->peer, *rx->mtu, &off)) {
		case NETIF_OFFLOAD_SEND:
			off.xdp_headroom = rx->push_headroom;
			rx_hash(rx, m, &off);
			break;
		case NETIF_OFFLOAD_DROP:
			rx->stats.drop_bad_offload++;
			continue;
		case NETIF_OFFLOAD_SEGMENT:
			used = rx_collect_cut(rx, m, statics, &avail,
					      &nb_slots);
			if (used == 0) {
				rx->stats.ring_full++;
				rx->push_need = NETIF_MAX_SLOTS + 1;
				goto full;
			}
			if (used < 0)
				rx->stats.drop_no_gso++;
			continue;
		}
		need = netif_rx_requests_for(
			m->pkt_len, netif_rx_first_room(m, &off), &off);
		if ((unsigned int)avail < need) {
			rx->stats.ring_full++;
			rx->push_need = need;
			break;
		}
		used = netif_back_rx_build_copy(&rx->ring, m, &off,
						rx->frontend, statics, c->segs, &c->n,
						NETIF_COPY_SEGS_MAX,
						&rx->slots[nb_slots]);
		if (used < 0)
			break;	/* the batch is full: the packet waits */
		rx->stats.gso_packets += off.gso_type != XEN_NETIF_GSO_TYPE_NONE;
		rx->stats.hashed_packets += off.hashed;
		rx->stats.static_packets += statics != NULL &&
			rx->slots[nb_slots].first_seg == c->n;
		nb_slots += used;
		avail -= need;
	}
full:
	rx->first_slot[n] = nb_slots;
	return n;
}

/*
 * A packet waits for buffers: the stall began now unless it had already
 * (only the control thread's netif_back_rx_ready() ends one but progress).
 */
static void
rx_watch_stall(struct netif_back_rx *rx)
{
	if (__atomic_load_n(&rx->stalled_since, __ATOMIC_RELAXED) != 0)
		return;
	rx->stall_cons = rx->ring.req_cons;
	rx->stall_need = rx->push_need;
	/* 0 is "none waits": a clock at 0 is a cycle late. */
	__atomic_store_n(&rx->stalled_since, rte_get_timer_cycles() | 1,
			 __ATOMIC_RELEASE);
}

bool
netif_back_rx_stalled(const struct netif_back_rx *rx, uint64_t now,
		      uint64_t timeout)
{
	uint64_t since = __atomic_load_n(&rx->stalled_since, __ATOMIC_ACQUIRE);

	return since != 0 && now - since >= timeout;
}

bool
netif_back_rx_ready(struct netif_back_rx *rx)
{
	uint64_t since = __atomic_load_n(&rx->stalled_since, __ATOMIC_ACQUIRE);
	RING_IDX prod;

	if (since == 0)
		return true;
	prod = __atomic_load_n(&rx->ring.sring->req_prod, __ATOMIC_ACQUIRE);
	if (prod - rx->stall_cons < rx->stall_need)
		return false;
	/*
	 * Buffers for the packet that waited: watch afresh from the next
	 * ring-full. The data plane sets a stall only where none is set, so
	 * this loses none it began since.
	 */
	__atomic_compare_exchange_n(&rx->stalled_since, &since, 0, false,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	return true;
}

/*
 * Answer the packets rx_plain() wrote, each in its request's slot and its
 * hash extra in the next. After the loop that wrote them, not in it: at
 * 64 bytes, two queues, answering each packet as it was written took ~10
 * cycles a packet more (b2f, the host's slow mode), with ~140 fewer
 * instructions than the general path and ~10 fewer than this.
 */
static void
rx_answer_written(struct netif_back_rx *rx)
{
	unsigned int i;

	for (i = 0; i < rx->nb_written; i++) {
		const struct netif_rx_written *w = &rx->written[i];

		*RING_GET_RESPONSE(&rx->ring, w->idx) = (netif_rx_response_t){
			.id = w->id,
			.flags = w->hashed ? NETRXF_extra_info : 0,
			.status = (int16_t)w->size,
		};
		if (w->hashed)
			netif_rx_respond_hash(&rx->ring, w->idx, w->hash_type,
					      w->hash);
	}
	rx->nb_written = 0;
}

/*
 * Flush the copies of the first @n of @pkts, whose slots rx_collect()
 * recorded, and answer each slot in its own; the packets sent whole are
 * added to @sent, @bytes.
 */
static void
rx_answer(struct netif_back_rx *rx, struct rte_mbuf **pkts, unsigned int n,
	  unsigned int *sent, uint64_t *bytes)
{
	unsigned int i, s;

	netif_copy_flush(&rx->copy);
	for (i = 0; i < n; i++) {
		bool pkt_ok = true;

		if (rx->first_slot[i] == rx->first_slot[i + 1])
			continue;	/* dropped */
		for (s = rx->first_slot[i]; s < rx->first_slot[i + 1]; s++) {
			const struct netif_rx_slot *slot = &rx->slots[s];
			bool ok = netif_copy_ok(&rx->copy, slot->first_seg,
						slot->first_seg + slot->nr_segs);

			/*
			 * A posted buffer we cannot write, or a failed call:
			 * as Linux, answered with an error (the packet is
			 * dropped), and the frontend stays.
			 */
			netif_back_rx_respond(&rx->ring, slot, ok);
			pkt_ok &= ok;
		}
		if (likely(pkt_ok)) {
			(*sent)++;
			*bytes += pkts[i]->pkt_len;
		} else {
			rx->stats.drop_copy_failed++;
		}
	}
}

uint16_t
netif_back_rx_push(struct netif_back_rx *rx, struct rte_mbuf **pkts,
		   uint16_t nb_pkts, enum netif_doorbell *doorbell)
{
	unsigned int n, sent = 0;
	uint64_t bytes = 0;

	*doorbell = NETIF_DOORBELL_NONE;
	if (unlikely(rx->error != NULL))
		return 0;
	rx->push_need = 0;
	rx->push_hash = rx->hash == NULL ? NULL :
					   __atomic_load_n(&rx->hash->active,
							   __ATOMIC_ACQUIRE);
	rx->push_headroom =
		__atomic_load_n(&rx->xdp_headroom, __ATOMIC_RELAXED);
	n = rx_collect(rx, pkts, RTE_MIN(nb_pkts, NETIF_BACK_BURST_MAX), &sent,
		       &bytes);
	rx_answer_written(rx);
	if (rx->first_slot[n] != 0)
		rx_answer(rx, pkts, n, &sent, &bytes);
	if (rx->ring.req_cons != rx->ring.rsp_prod_pvt) {
		/* Every request consumed is answered, in its own slot. */
		rx->ring.rsp_prod_pvt = rx->ring.req_cons;
		*doorbell = netif_doorbell(NETIF_PUSH_RESPONSES(&rx->ring));
		if (__atomic_load_n(&rx->stalled_since, __ATOMIC_RELAXED) != 0)
			__atomic_store_n(&rx->stalled_since, 0,
					 __ATOMIC_RELEASE);
	}
	if (unlikely(rx->push_need != 0))
		rx_watch_stall(rx);
	netif_copy_reset(&rx->copy);
	rte_pktmbuf_free_bulk(rx->cut, rx->nb_cut);
	rx->nb_cut = 0;
	rte_pktmbuf_free_bulk(pkts, n);
	rx->stats.packets += sent;
	rx->stats.bytes += bytes;
	return n;
}
