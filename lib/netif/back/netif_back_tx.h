/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest TX, backend side, one packet at a time: what a packet read from
 * the ring is (struct netif_tx_packet), the rules it must keep, and the
 * general steps that read, copy and answer any packet, however many slots
 * and extras (netif_back_tx.c). netif_back.h builds on these the inline
 * steps that a pull takes for most packets, and falls back to these.
 */

#ifndef NETIF_BACK_TX_H
#define NETIF_BACK_TX_H

#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <xengnttab.h>

#include "netif_gref_map.h"
#include "netif_offload.h"
#include "netif_ring.h"

/* Smallest frame a frontend may send: an Ethernet header. */
#define NETIF_MIN_FRAME_LEN 14

/* One data slot of a guest TX packet, as copied out of the ring. */
struct netif_tx_slot {
	grant_ref_t gref;
	uint16_t offset;
	uint16_t size; /* bytes of packet data in this slot */
	uint16_t id;
};

/*
 * Linux netback's fatal_skb_slots: a guest TX packet of more than
 * NETIF_MAX_SLOTS slots is dropped, one of more than 1 + fatal slots
 * disconnects the frontend. Linux's default, and the most we take.
 */
#define NETIF_TX_FATAL_SLOTS_DEFAULT 20u
#define NETIF_TX_FATAL_SLOTS_MAX 30u

/* A guest TX packet as the backend sees it once its requests are read. */
struct netif_tx_packet {
	uint32_t len;		  /* frame length, from the first request */
	struct netif_offload off; /* its flags and GSO extra */
	uint8_t nr_slots;	  /* data slots */
	uint8_t nr_extras;	  /* extra-info slots after the first slot */
	/*
	 * XEN_NETIF_EXTRA_TYPE_MCAST_ADD or _DEL: a dummy request that amends
	 * the multicast filter with @mcast_addr, no packet; 0: none.
	 */
	uint8_t mcast_op;
	struct rte_ether_addr mcast_addr;
	/* Up to NETIF_MAX_SLOTS; a dropped packet may have more. */
	struct netif_tx_slot slots[1 + NETIF_TX_FATAL_SLOTS_MAX];
};

enum netif_tx_verdict {
	NETIF_TX_OK,	/* a valid packet */
	NETIF_TX_DROP,	/* answer with NETIF_RSP_ERROR, keep going */
	NETIF_TX_FATAL, /* the frontend is misbehaving: disconnect */
};

/*
 * The start of a packet from its first request: its length and checksum
 * flags; no slot, extra or multicast request yet.
 */
static inline void
netif_tx_packet_start(struct netif_tx_packet *pkt,
		      const netif_tx_request_t *first)
{
	pkt->len = first->size;
	pkt->nr_slots = 0;
	pkt->nr_extras = 0;
	pkt->mcast_op = 0;
	pkt->off = (struct netif_offload){
		.csum_blank = first->flags & NETTXF_csum_blank,
		.data_validated = first->flags & NETTXF_data_validated,
		.gso_type = XEN_NETIF_GSO_TYPE_NONE,
	};
}

/* Whether a slot of @size bytes at @offset stays inside its page. */
static inline bool
netif_tx_slot_in_page(uint32_t offset, uint32_t size)
{
	return offset + size <= NETIF_PAGE_SIZE;
}

/* Whether a frame of @len bytes holds an Ethernet header. */
static inline bool
netif_tx_frame_whole(uint32_t len)
{
	return len >= NETIF_MIN_FRAME_LEN;
}

/*
 * The rules on a packet's first slot, once the slots after it told its
 * size: it stays inside its page (fatal), and the frame holds an Ethernet
 * header (a drop, unless @verdict is one already).
 */
static inline enum netif_tx_verdict
netif_tx_packet_check_first(const struct netif_tx_packet *pkt,
			    enum netif_tx_verdict verdict, const char **why)
{
	if (unlikely(!netif_tx_slot_in_page(pkt->slots[0].offset,
					    pkt->slots[0].size))) {
		*why = "first slot crosses a page boundary";
		return NETIF_TX_FATAL;
	}
	if (unlikely(!netif_tx_frame_whole(pkt->len)) &&
	    verdict == NETIF_TX_OK) {
		*why = "frame shorter than an Ethernet header";
		return NETIF_TX_DROP;
	}
	return verdict;
}

/*
 * netif_back_tx_parse() for a packet whose first request, @first (already
 * copied out of the ring), has extras or more slots after it.
 */
enum netif_tx_verdict netif_back_tx_parse_more(const netif_tx_back_ring_t *ring,
					       const netif_tx_request_t *first,
					       unsigned int avail, uint32_t gso,
					       unsigned int fatal_slots,
					       struct netif_tx_packet *pkt,
					       const char **why);

/* Ring slots a parsed packet occupies. */
static inline unsigned int
netif_tx_packet_ring_slots(const struct netif_tx_packet *pkt)
{
	return pkt->nr_slots + pkt->nr_extras;
}

/*
 * Mbufs of @data_room bytes needed to hold a packet of @len bytes; most
 * packets fit one, which takes no division (a few tens of cycles).
 */
static inline unsigned int
netif_mbufs_for(uint32_t len, uint16_t data_room)
{
	return len <= data_room ? 1 : (len + data_room - 1) / data_room;
}

/*
 * A grant copy of @len bytes at @offset of the frontend's (@frontend)
 * grant @gref into @dst, added as @seg.
 */
static inline void
netif_tx_copy_add(xengnttab_grant_copy_segment_t *seg, grant_ref_t gref,
		  uint16_t offset, domid_t frontend, void *dst, uint16_t len)
{
	seg->source.foreign.ref = gref;
	seg->source.foreign.offset = offset;
	seg->source.foreign.domid = frontend;
	seg->dest.virt = dst;
	seg->len = len;
	seg->flags = GNTCOPY_source_gref;
	/* Xen may leave a status untouched (XSA-318). */
	seg->status = GNTST_general_error;
}

/* netif_back_tx_build_copy() for any packet, however many slots and mbufs. */
int netif_back_tx_build_chain(const struct netif_tx_packet *pkt,
			      struct rte_mbuf **mbufs, unsigned int nb_mbufs,
			      domid_t frontend,
			      const struct netif_gref_map *statics,
			      xengnttab_grant_copy_segment_t *segs,
			      unsigned int max_segs);

/*
 * Where in a page of ours @pkt's first byte best lands, when it is copied
 * into contiguous memory: a slot lies within one page of the guest's, at
 * its offset there, and its copy is one operation of Linux's gntdev per
 * page of ours it touches (netif_copy.h), so it costs one when it lands at
 * the same offset of ours. The place that gives that to the most bytes:
 * with Linux's netfront, every whole page of a large fragment.
 */
uint16_t netif_back_tx_page_phase(const struct netif_tx_packet *pkt);

/*
 * netif_back_tx_respond() for any packet, however many slots and extras:
 * its responses at rsp_prod_pvt, one per ring slot it occupied, @status
 * for each data slot's id, NETIF_RSP_NULL for each extra.
 */
void netif_back_tx_respond_chain(netif_tx_back_ring_t *ring,
				 const struct netif_tx_packet *pkt,
				 int16_t status);

/* Write one response, for request @id, at rsp_prod_pvt. */
static inline void
netif_back_tx_respond_one(netif_tx_back_ring_t *ring, uint16_t id,
			  int16_t status)
{
	netif_tx_response_t *rsp =
		RING_GET_RESPONSE(ring, ring->rsp_prod_pvt++);

	rsp->id = id;
	rsp->status = status;
}

/*
 * Write the packet's responses at rsp_prod_pvt, one per ring slot it
 * occupied: @status for each data slot's id, NETIF_RSP_NULL for each extra.
 */
static inline void
netif_back_tx_respond(netif_tx_back_ring_t *ring,
		      const struct netif_tx_packet *pkt, int16_t status)
{
	if (unlikely(netif_tx_packet_ring_slots(pkt) > 1))
		netif_back_tx_respond_chain(ring, pkt, status);
	else
		netif_back_tx_respond_one(ring, pkt->slots[0].id, status);
}

#endif /* NETIF_BACK_TX_H */
