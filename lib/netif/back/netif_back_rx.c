/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest RX, backend side: a packet for the guest is packed densely into
 * the pages the frontend posted (as Linux netback does, so a frame takes
 * as few slots as possible; only a first slot may end early, where our
 * page does, see netif_rx_first_room()), through grant copies the caller
 * batches for the whole burst. Each response goes into the ring slot of the request it
 * answers, because Linux netfront finds its buffers by slot, not by id.
 */

#include "netif_back_rx.h"
#include "netif_lend.h"
#include "netif_memcpy.h"

/*
 * The first slot carries the packet's flags; its extras, GSO, hash, XDP,
 * take the requests after it (Linux netfront reads extras right after the
 * first response), whose buffers stay unused.
 */
static void
rx_first_slot_offload(netif_rx_back_ring_t *ring, struct netif_rx_slot *slot,
		      const struct netif_offload *off)
{
	if (likely(netif_offload_plain(off)))
		return;
	if (off->csum_blank)
		slot->flags |= NETRXF_csum_blank;
	if (off->data_validated)
		slot->flags |= NETRXF_data_validated;
	slot->gso_type = off->gso_type;
	if (off->gso_type != XEN_NETIF_GSO_TYPE_NONE) {
		slot->flags |= NETRXF_extra_info;
		slot->gso_size = off->gso_size;
		ring->req_cons++;
	}
	slot->hashed = off->hashed;
	if (off->hashed)
		netif_rx_slot_hash(ring, slot, off);
	if (off->xdp_headroom != 0) {
		slot->flags |= NETRXF_extra_info;
		ring->req_cons++;
	}
}

int
netif_back_rx_build_chain(netif_rx_back_ring_t *ring, const struct rte_mbuf *m,
			  const struct netif_offload *off, domid_t frontend,
			  const struct netif_gref_map *statics,
			  xengnttab_grant_copy_segment_t *segs,
			  unsigned int *nb_segs, unsigned int max_segs,
			  struct netif_rx_slot *slots)
{
	uint32_t first = netif_rx_first_room(m, off);
	unsigned int nr_slots = netif_rx_slots_for(m->pkt_len, first);
	unsigned int n = *nb_segs, s;
	uint16_t m_off = 0;

	/* A page of data takes at most one segment per mbuf it spans. */
	if (max_segs - n < nr_slots + m->nb_segs)
		return -1;
	for (s = 0; s < nr_slots; s++) {
		struct netif_rx_slot *slot = &slots[s];
		netif_rx_request_t req;
		uint16_t page_off = s == 0 ? off->xdp_headroom : 0;
		uint16_t page_end = s == 0 ? page_off + first : NETIF_PAGE_SIZE;
		uint8_t *page;

		RING_COPY_REQUEST(ring, ring->req_cons, &req);
		page = netif_gref_map_find(statics, req.gref, true);
		slot->idx = ring->req_cons++;
		slot->id = req.id;
		slot->first_seg = n;
		slot->offset = page_off;
		slot->flags = s + 1 < nr_slots ? NETRXF_more_data : 0;
		if (s == 0)
			rx_first_slot_offload(ring, slot, off);
		while (page_off < page_end && m != NULL) {
			xengnttab_grant_copy_segment_t *seg;
			uint16_t len;

			if (m_off == m->data_len) {
				m = m->next;
				m_off = 0;
				continue;
			}
			len = RTE_MIN((uint16_t)(m->data_len - m_off),
				      (uint16_t)(page_end - page_off));
			if (page != NULL) {
				netif_memcpy(page + page_off,
					     rte_pktmbuf_mtod_offset(m, char *,
								     m_off),
					     len);
				page_off += len;
				m_off += len;
				continue;
			}
			seg = &segs[n++];
			netif_rx_copy_add(
				seg, rte_pktmbuf_mtod_offset(m, char *, m_off),
				req.gref, page_off, frontend, len);
			if (netif_lend_source(m, m_off, &seg->source))
				seg->flags |= GNTCOPY_source_gref;
			page_off += len;
			m_off += len;
		}
		slot->size = page_off - slot->offset;
		slot->nr_segs = n - slot->first_seg;
	}
	*nb_segs = n;
	return nr_slots;
}

void
netif_back_rx_respond_extras(netif_rx_back_ring_t *ring,
			     const struct netif_rx_slot *slot)
{
	struct netif_extra_info *extra;
	RING_IDX at = slot->idx + 1;

	if (slot->gso_type != XEN_NETIF_GSO_TYPE_NONE) {
		extra = netif_rx_extra_at(ring, at++);
		*extra = (struct netif_extra_info){
			.type = XEN_NETIF_EXTRA_TYPE_GSO,
			.flags = slot->hashed || slot->offset != 0 ?
				 XEN_NETIF_EXTRA_FLAG_MORE : 0,
			.u.gso = {
				.size = slot->gso_size,
				.type = slot->gso_type,
			},
		};
	}
	if (slot->hashed)
		netif_rx_hash_extra(
			netif_rx_extra_at(ring, at++), slot->hash_type,
			slot->hash,
			slot->offset != 0 ? XEN_NETIF_EXTRA_FLAG_MORE : 0);
	/* Only a first slot starts past its page's start. */
	if (slot->offset != 0) {
		extra = netif_rx_extra_at(ring, at);
		/* u.xdp.headroom in Linux's netif.h */
		*extra = (struct netif_extra_info){
			.type = XEN_NETIF_EXTRA_TYPE_XDP,
			.u.pad = { slot->offset },
		};
	}
}
