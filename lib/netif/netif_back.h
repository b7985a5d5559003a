/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The backend half of the netif data path as pure conversions on rings in
 * ordinary memory: attaching to a frontend's rings, turning guest TX
 * requests into packet descriptors, grant-copy segments and responses, and
 * turning packets for the guest into grant-copy segments and RX responses.
 * No hypervisor call happens here; the caller submits the segments of a
 * whole burst in one xa_gnt_copy() and publishes responses once per burst.
 *
 * Every request is copied out of shared memory exactly once before it is
 * looked at (XSA-155), and a frontend's producer index is checked against
 * the ring size before it is trusted (XSA-39).
 */

#ifndef NETIF_BACK_H
#define NETIF_BACK_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <xengnttab.h>

#include "netif_ring.h"

/* Smallest frame a frontend may send: an Ethernet header. */
#define NETIF_MIN_FRAME_LEN 14

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

/* One data slot of a guest TX packet, as copied out of the ring. */
struct netif_tx_slot {
	grant_ref_t gref;
	uint16_t offset;
	uint16_t size;		/* bytes of packet data in this slot */
	uint16_t id;
};

/* A guest TX packet as the backend sees it once its requests are read. */
struct netif_tx_packet {
	uint32_t len;		/* frame length, from the first request */
	uint16_t flags;		/* NETTXF_* of the first request */
	uint8_t nr_slots;	/* data slots */
	uint8_t nr_extras;	/* extra-info slots after the first slot */
	struct netif_tx_slot slots[NETIF_MAX_SLOTS];
};

enum netif_tx_verdict {
	NETIF_TX_OK,		/* a valid packet */
	NETIF_TX_DROP,		/* answer with NETIF_RSP_ERROR, keep going */
	NETIF_TX_FATAL,		/* the frontend is misbehaving: disconnect */
};

/*
 * Read the packet starting at ring->req_cons out of @avail posted requests,
 * without consuming it. Whatever the verdict except FATAL, the packet
 * occupies netif_tx_packet_ring_slots() ring slots, which the caller
 * consumes by advancing req_cons. @why names the rule
 * that was broken for DROP and FATAL.
 */
enum netif_tx_verdict netif_back_tx_parse(const netif_tx_back_ring_t *ring,
					  unsigned int avail,
					  struct netif_tx_packet *pkt,
					  const char **why);

/* Ring slots a parsed packet occupies. */
static inline unsigned int
netif_tx_packet_ring_slots(const struct netif_tx_packet *pkt)
{
	return pkt->nr_slots + pkt->nr_extras;
}

/* Mbufs of @data_room bytes needed to hold a packet of @len bytes. */
static inline unsigned int
netif_mbufs_for(uint32_t len, uint16_t data_room)
{
	return len == 0 ? 1 : (len + data_room - 1) / data_room;
}

/*
 * Chain @mbufs (freshly allocated, enough of them for pkt->len, see netif_mbufs_for()) into
 * one packet and append to @segs the grant copies that fill it from the
 * frontend's (@frontend) granted pages. Returns the number of segments
 * written, at most @max_segs, or -1 if @max_segs is too small.
 * Zero-length slots produce no segment (XSA-448).
 */
int netif_back_tx_build_copy(const struct netif_tx_packet *pkt,
			     struct rte_mbuf **mbufs, unsigned int nb_mbufs,
			     domid_t frontend,
			     xengnttab_grant_copy_segment_t *segs,
			     unsigned int max_segs);

/*
 * Write the packet's responses at rsp_prod_pvt, one per ring slot it
 * occupied: @status for each data slot's id, NETIF_RSP_NULL for each extra.
 */
void netif_back_tx_respond(netif_tx_back_ring_t *ring,
			   const struct netif_tx_packet *pkt, int16_t status);

/* RX slots a packet of @len bytes takes when packed densely into pages. */
static inline unsigned int
netif_rx_slots_for(uint32_t len)
{
	return len == 0 ? 1 : (len + NETIF_PAGE_SIZE - 1) / NETIF_PAGE_SIZE;
}

/* One RX slot the backend filled, waiting for its copies to complete. */
struct netif_rx_slot {
	RING_IDX idx;		/* ring slot of the request = of the response */
	uint16_t id;
	uint16_t size;
	uint16_t flags;		/* NETRXF_* */
	uint16_t first_seg;	/* this slot's segments in the burst's array */
	uint16_t nr_segs;
};

/*
 * Consume one RX request per slot the packet @m needs (the caller checked
 * they are posted), and append the grant copies that write @m into the
 * granted pages densely. Records each slot in @slots so that the response
 * can be written, in the slot of its request, once the copies are done.
 * Returns the number of slots used, or -1 if @max_segs is too small (then
 * nothing is consumed).
 */
int netif_back_rx_build_copy(netif_rx_back_ring_t *ring,
			     const struct rte_mbuf *m, domid_t frontend,
			     xengnttab_grant_copy_segment_t *segs,
			     unsigned int *nb_segs, unsigned int max_segs,
			     struct netif_rx_slot *slots);

/*
 * Write the response of @slot in the slot of its request: the byte count,
 * or NETIF_RSP_ERROR when @copied is false. Once every slot consumed is
 * answered, the caller sets rsp_prod_pvt to req_cons and pushes.
 */
void netif_back_rx_respond(netif_rx_back_ring_t *ring,
			   const struct netif_rx_slot *slot, bool copied);

#endif /* NETIF_BACK_H */
