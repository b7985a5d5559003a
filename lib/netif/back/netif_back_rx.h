/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest RX, backend side, one packet at a time: the RX slots a packet
 * takes, the grant copies that fill them, and the general steps that
 * write any packet and offload into them and answer them
 * (netif_back_rx.c). netif_back.h builds on these the inline steps that a
 * push takes for most packets, and falls back to these.
 */

#ifndef NETIF_BACK_RX_H
#define NETIF_BACK_RX_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <xengnttab.h>

#include "netif_gref_map.h"
#include "netif_offload.h"
#include "netif_ring.h"

/* One RX slot the backend filled, waiting for its copies to complete. */
struct netif_rx_slot {
	RING_IDX idx; /* ring slot of the request = of the response */
	uint16_t id;
	uint16_t size;
	/*
	 * NETRXF_*; extra_info: after idx a GSO extra, a hash extra and an
	 * XDP extra, those the packet has, in that order
	 */
	uint16_t flags;
	uint16_t offset; /* where the data starts in the page */
	uint16_t gso_size;
	uint8_t gso_type;
	bool hashed;
	uint8_t hash_type;
	uint32_t hash;
	uint16_t first_seg; /* this slot's segments in the burst's array */
	uint16_t nr_segs;
};

/*
 * A packet of one slot, with at most a hash extra, the push wrote into a
 * static grant at once: its answer, written with the push's others. Not a
 * struct netif_rx_slot: only what such an answer says, in 16 bytes
 * against 28, four to a cache line.
 */
struct netif_rx_written {
	RING_IDX idx; /* ring slot of the request = of the response */
	uint16_t id;
	uint16_t size;
	uint32_t hash;
	uint8_t hash_type;
	bool hashed;
};

/*
 * A grant copy of @len bytes from @src into the frontend's (@frontend)
 * grant @gref at @offset, added as @seg; the caller makes its source a
 * grant when @src lies on a lent page (netif_lend_source()).
 */
static inline void
netif_rx_copy_add(xengnttab_grant_copy_segment_t *seg, void *src,
		  grant_ref_t gref, uint16_t offset, domid_t frontend,
		  uint16_t len)
{
	seg->flags = GNTCOPY_dest_gref;
	seg->source.virt = src;
	seg->dest.foreign.ref = gref;
	seg->dest.foreign.offset = offset;
	seg->dest.foreign.domid = frontend;
	seg->len = len;
	/* Xen may leave a status untouched (XSA-318). */
	seg->status = GNTST_general_error;
}

/*
 * @off's hash goes with the first slot @slot in an extra, which takes the
 * next request after it (its buffer stays unused).
 */
static inline void
netif_rx_slot_hash(netif_rx_back_ring_t *ring, struct netif_rx_slot *slot,
		   const struct netif_offload *off)
{
	slot->flags |= NETRXF_extra_info;
	slot->hash_type = off->hash_type;
	slot->hash = off->hash;
	ring->req_cons++;
}

/* netif_back_rx_build_copy() for any packet and offload. */
int netif_back_rx_build_chain(netif_rx_back_ring_t *ring,
			      const struct rte_mbuf *m,
			      const struct netif_offload *off, domid_t frontend,
			      const struct netif_gref_map *statics,
			      xengnttab_grant_copy_segment_t *segs,
			      unsigned int *nb_segs, unsigned int max_segs,
			      struct netif_rx_slot *slots);

/*
 * The fewest bytes a first slot cut short takes: the headers of any frame
 * (Ethernet, VLAN, IPv6 and options, TCP and options), where a frontend
 * may look for them (Linux's netfront pulls RX_COPY_THRESHOLD, 256).
 */
#define NETIF_RX_FIRST_MIN 256

/*
 * Bytes the first slot of @m, sent with offload @off, takes: a page less
 * @off's XDP headroom, or fewer when @m is one segment spanning pages of
 * our memory whose first ends sooner (a large segment on an external
 * buffer). The slot then ends where that page does, so that each further
 * slot's copy reads one page of ours: Linux's gntdev copies one page of
 * ours per operation, and a slot straddling two pages costs two. The
 * other slots are filled whole, as Linux netback fills them. A packet
 * then takes one slot more at most: 18 for the largest, NETIF_MAX_SLOTS.
 */
static inline uint32_t
netif_rx_first_room(const struct rte_mbuf *m, const struct netif_offload *off)
{
	uint32_t room = NETIF_PAGE_SIZE - off->xdp_headroom, to_page_end;

	if (likely(m->nb_segs != 1 || m->pkt_len <= room))
		return room;
	to_page_end = NETIF_PAGE_SIZE -
		      (rte_pktmbuf_mtod(m, uintptr_t) & (NETIF_PAGE_SIZE - 1));
	return to_page_end < room && to_page_end >= NETIF_RX_FIRST_MIN ?
		       to_page_end :
		       room;
}

/* Data slots a packet of @len bytes takes, @first of them in the first. */
static inline unsigned int
netif_rx_slots_for(uint32_t len, uint32_t first)
{
	return len <= first ? 1 : 1 + netif_slots_for(len - first);
}

/*
 * Ring requests a packet of @len bytes with offload @off takes, @first of
 * them in its first slot (netif_rx_first_room()).
 */
static inline unsigned int
netif_rx_requests_for(uint32_t len, uint32_t first,
		      const struct netif_offload *off)
{
	return netif_rx_slots_for(len, first) +
	       (off->gso_type != XEN_NETIF_GSO_TYPE_NONE) + off->hashed +
	       (off->xdp_headroom != 0);
}

/* An extra's response: the ring slot of a response, seen as an extra. */
static inline struct netif_extra_info *
netif_rx_extra_at(netif_rx_back_ring_t *ring, RING_IDX idx)
{
	return (struct netif_extra_info *)RING_GET_RESPONSE(ring, idx);
}

/*
 * A hash extra: @value of @type (_XEN_NETIF_CTRL_HASH_TYPE_*), with @flags
 * (XEN_NETIF_EXTRA_FLAG_MORE or 0).
 */
static inline void
netif_rx_hash_extra(struct netif_extra_info *extra, uint8_t type,
		    uint32_t value, uint8_t flags)
{
	*extra = (struct netif_extra_info){
		.type = XEN_NETIF_EXTRA_TYPE_HASH,
		.flags = flags,
		.u.hash = {
			.type = type,
			.algorithm = XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ,
		},
	};
	/* Least significant byte first (netif.h). */
	for (unsigned int i = 0; i < 4; i++)
		extra->u.hash.value[i] = value >> (8 * i);
}

/*
 * The hash extra of the response in ring slot @idx, as its only extra: in
 * the slot after it.
 */
static inline void
netif_rx_respond_hash(netif_rx_back_ring_t *ring, RING_IDX idx, uint8_t type,
		      uint32_t value)
{
	netif_rx_hash_extra(netif_rx_extra_at(ring, idx + 1), type, value, 0);
}

/* The extras of a first slot, in the ring slots after its response. */
void netif_back_rx_respond_extras(netif_rx_back_ring_t *ring,
				  const struct netif_rx_slot *slot);

#endif /* NETIF_BACK_RX_H */
