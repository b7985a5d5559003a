/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest TX, backend side: a chain of TX requests becomes a packet
 * descriptor (netif_back_tx_parse), the descriptor becomes grant copies
 * into an mbuf chain (netif_back_tx_build_copy), and then responses
 * (netif_back_tx_respond). The verdicts follow Linux netback, the
 * reference every frontend is written against: a malformed but harmless
 * packet is answered with an error, a request that no honest frontend can
 * produce disconnects the frontend. A packet of one request without
 * extras, most of them, takes the inline paths of netif_back.h; the
 * functions here take the rest.
 */

#include "netif_back_tx.h"
#include "netif_memcpy.h"

/* Copy one request out of shared memory; it is never read there again. */
static inline void
tx_copy_request(const netif_tx_back_ring_t *ring, RING_IDX idx,
		netif_tx_request_t *req)
{
	RING_COPY_REQUEST(ring, idx, req);
}

/*
 * A GSO extra, by Linux netback's rules: a size of 0 or a type outside the
 * protocol is fatal; a type we did not offer (@gso, NETIF_PEER_GSO_*)
 * drops the packet.
 */
static enum netif_tx_verdict
tx_parse_gso(const struct netif_extra_info *extra, uint32_t gso,
	     struct netif_tx_packet *pkt, const char **why)
{
	uint32_t bit = netif_peer_gso_bit(extra->u.gso.type);

	if (extra->u.gso.size == 0) {
		*why = "GSO size 0";
		return NETIF_TX_FATAL;
	}
	if (bit == 0) {
		*why = "unknown GSO type";
		return NETIF_TX_FATAL;
	}
	if (!(gso & bit)) {
		*why = "GSO type not offered";
		return NETIF_TX_DROP;
	}
	pkt->off.gso_type = extra->u.gso.type;
	pkt->off.gso_size = extra->u.gso.size;
	return NETIF_TX_OK;
}

/* A dummy request amending the multicast filter: the first extra says how. */
static void
tx_parse_mcast(const struct netif_extra_info *extra,
	       struct netif_tx_packet *pkt)
{
	if (pkt->mcast_op != 0)
		return;
	pkt->mcast_op = extra->type;
	memcpy(&pkt->mcast_addr, extra->u.mcast.addr, RTE_ETHER_ADDR_LEN);
}

/*
 * Extras follow the first slot: GSO, multicast control and hashing are
 * all offered; a type outside the protocol is an attack or a corrupt
 * ring. With a multicast extra the request is a dummy: the first one
 * decides what it does, as in Linux.
 */
static enum netif_tx_verdict
tx_parse_extras(const netif_tx_back_ring_t *ring, RING_IDX idx,
		unsigned int avail, uint32_t gso, struct netif_tx_packet *pkt,
		const char **why)
{
	enum netif_tx_verdict verdict = NETIF_TX_OK, v;
	struct netif_extra_info extra;
	netif_tx_request_t req;
	const char *reason;

	do {
		if (1u + pkt->nr_extras >= avail) {
			*why = "extra info beyond the posted requests";
			return NETIF_TX_FATAL;
		}
		tx_copy_request(ring, idx + 1 + pkt->nr_extras, &req);
		memcpy(&extra, &req, sizeof(extra));
		pkt->nr_extras++;
		if (extra.type == XEN_NETIF_EXTRA_TYPE_NONE ||
		    extra.type >= XEN_NETIF_EXTRA_TYPE_MAX) {
			*why = "unknown extra info type";
			return NETIF_TX_FATAL;
		}
		if (pkt->nr_extras >= XEN_NETIF_EXTRA_TYPE_MAX) {
			*why = "more extra info slots than extra types";
			return NETIF_TX_FATAL;
		}
		v = NETIF_TX_OK;
		if (extra.type == XEN_NETIF_EXTRA_TYPE_GSO)
			v = tx_parse_gso(&extra, gso, pkt, &reason);
		else if (extra.type == XEN_NETIF_EXTRA_TYPE_HASH)
			netif_offload_hash_extra(&pkt->off, &extra);
		else	/* MCAST_ADD or MCAST_DEL, the types left */
			tx_parse_mcast(&extra, pkt);
		if (v == NETIF_TX_FATAL) {
			*why = reason;
			return v;
		}
		if (v == NETIF_TX_DROP && verdict == NETIF_TX_OK) {
			*why = reason;
			verdict = v;
		}
	} while (extra.flags & XEN_NETIF_EXTRA_FLAG_MORE);
	return verdict;
}

enum netif_tx_verdict
netif_back_tx_parse_more(const netif_tx_back_ring_t *ring,
			 const netif_tx_request_t *first, unsigned int avail,
			 uint32_t gso, unsigned int fatal_slots,
			 struct netif_tx_packet *pkt, const char **why)
{
	enum netif_tx_verdict verdict = NETIF_TX_OK;
	RING_IDX idx = ring->req_cons;
	netif_tx_request_t req = *first;
	uint32_t remaining;
	unsigned int used;

	netif_tx_packet_start(pkt, &req);
	if (req.flags & NETTXF_extra_info) {
		verdict = tx_parse_extras(ring, idx, avail, gso, pkt, why);
		if (verdict == NETIF_TX_FATAL)
			return verdict;
	}
	used = 1 + pkt->nr_extras;
	remaining = req.size;
	for (;;) {
		struct netif_tx_slot *slot;

		if (pkt->nr_slots ==
		    1 + RTE_MIN(fatal_slots, NETIF_TX_FATAL_SLOTS_MAX)) {
			*why = "more slots than the fatal bound";
			return NETIF_TX_FATAL;
		}
		if (pkt->nr_slots == NETIF_MAX_SLOTS && verdict == NETIF_TX_OK) {
			*why = "more slots than a packet may use";
			verdict = NETIF_TX_DROP;
		}
		/* The first slot's own size is known only at the end. */
		if (pkt->nr_slots > 0 &&
		    !netif_tx_slot_in_page(req.offset, req.size)) {
			*why = "slot crosses a page boundary";
			return NETIF_TX_FATAL;
		}
		slot = &pkt->slots[pkt->nr_slots++];
		slot->gref = req.gref;
		slot->offset = req.offset;
		slot->id = req.id;
		/*
		 * The first slot's size is the whole frame; each later slot
		 * carries its own size, and the first slot holds what they
		 * leave.
		 */
		if (pkt->nr_slots > 1) {
			if (req.size > remaining && verdict == NETIF_TX_OK) {
				*why = "slot sizes exceed the frame size";
				verdict = NETIF_TX_DROP;
			}
			slot->size = req.size;
			remaining -= RTE_MIN(remaining, (uint32_t)req.size);
		}
		if (!(req.flags & NETTXF_more_data))
			break;
		if (used >= avail) {
			*why = "packet chain exceeds the posted requests";
			return NETIF_TX_FATAL;
		}
		tx_copy_request(ring, idx + used++, &req);
	}
	pkt->slots[0].size = remaining;
	return netif_tx_packet_check_first(pkt, verdict, why);
}

int
netif_back_tx_build_chain(const struct netif_tx_packet *pkt,
			  struct rte_mbuf **mbufs, unsigned int nb_mbufs,
			  domid_t frontend,
			  const struct netif_gref_map *statics,
			  xengnttab_grant_copy_segment_t *segs,
			  unsigned int max_segs)
{
	unsigned int s, m = 0, n = 0;
	struct rte_mbuf *cur = mbufs[0];

	cur->pkt_len = pkt->len;
	for (s = 0; s < pkt->nr_slots; s++) {
		const struct netif_tx_slot *slot = &pkt->slots[s];
		/* Parsing checked offset + size against the page. */
		const uint8_t *page = netif_gref_map_find(statics, slot->gref,
							  false);
		uint16_t done = 0;

		while (done < slot->size) {
			uint16_t room = rte_pktmbuf_tailroom(cur);
			uint16_t len;
			char *dst;

			if (room == 0) {
				if (++m == nb_mbufs)
					return -1;
				cur->next = mbufs[m];
				cur = mbufs[m];
				mbufs[0]->nb_segs++;
				room = rte_pktmbuf_tailroom(cur);
			}
			len = RTE_MIN(room, (uint16_t)(slot->size - done));
			dst = rte_pktmbuf_mtod_offset(cur, char *,
						      cur->data_len);
			if (page != NULL) {
				netif_memcpy(dst, page + slot->offset + done,
					     len);
			} else {
				if (n == max_segs)
					return -1;
				netif_tx_copy_add(&segs[n++], slot->gref,
						  slot->offset + done, frontend,
						  dst, len);
			}
			cur->data_len += len;
			done += len;
		}
	}
	return n;
}

void
netif_back_tx_respond_chain(netif_tx_back_ring_t *ring,
			    const struct netif_tx_packet *pkt, int16_t status)
{
	unsigned int i;
	netif_tx_response_t *rsp;

	rsp = RING_GET_RESPONSE(ring, ring->rsp_prod_pvt++);
	rsp->id = pkt->slots[0].id;
	rsp->status = status;
	for (i = 0; i < pkt->nr_extras; i++) {
		rsp = RING_GET_RESPONSE(ring, ring->rsp_prod_pvt++);
		rsp->status = NETIF_RSP_NULL;
	}
	for (i = 1; i < pkt->nr_slots; i++) {
		rsp = RING_GET_RESPONSE(ring, ring->rsp_prod_pvt++);
		rsp->id = pkt->slots[i].id;
		rsp->status = status;
	}
}

uint16_t
netif_back_tx_page_phase(const struct netif_tx_packet *pkt)
{
	uint16_t phase[NETIF_MAX_SLOTS], best = 0;
	uint32_t pos = 0, bytes[NETIF_MAX_SLOTS], most = 0;
	unsigned int i, j, n = RTE_MIN(pkt->nr_slots, NETIF_MAX_SLOTS);

	for (i = 0; i < n; i++) {
		const struct netif_tx_slot *s = &pkt->slots[i];

		phase[i] = (s->offset - pos) & (NETIF_PAGE_SIZE - 1);
		bytes[i] = 0;
		pos += s->size;
		for (j = 0; j <= i; j++) {
			if (phase[j] != phase[i])
				continue;
			bytes[j] += s->size;
			if (bytes[j] > most) {
				most = bytes[j];
				best = phase[j];
			}
			break;
		}
	}
	return best;
}
