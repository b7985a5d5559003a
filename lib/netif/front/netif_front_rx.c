/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The frontend's RX ring (see netif_front.h): responses, each in the slot
 * of its request as Linux netfront expects, into mbuf chains; free slots
 * into new requests; and the pull of a burst. The producer index is read
 * once per call and bounded by what we actually asked for; each response
 * is copied out of the ring before any field of it is used. Most packets
 * received without a copy take one step of the receive loop (rx_plain()).
 */

#include <string.h>

#include <rte_common.h>

#include "netif_front.h"
#include "netif_l2.h"
#include "netif_memcpy.h"

#define SLOT_PAGE(base, idx) ((base) + (size_t)(idx) * NETIF_PAGE_SIZE)

void
netif_front_rx_attach(struct netif_front_rx *rx, netif_rx_sring_t *sring,
		      void *pages, const grant_ref_t *grefs, uint16_t port)
{
	SHARED_RING_INIT(sring);
	FRONT_RING_INIT(&rx->ring, sring, NETIF_PAGE_SIZE);
	rx->zc = NULL;
	rx->pages = pages;
	rx->grefs = grefs;
	rx->port = port;
	rx->error = NULL;
}

void
netif_front_rx_attach_zc(struct netif_front_rx *rx, netif_rx_sring_t *sring,
			 struct netif_front_pool *zc, uint16_t port)
{
	netif_front_rx_attach(rx, sring, NULL, NULL, port);
	rx->zc = zc;
}

void
netif_front_rx_detach(struct netif_front_rx *rx)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(rx->posted); i++) {
		rte_pktmbuf_free(rx->posted[i]);
		rx->posted[i] = NULL;
	}
}

/* One received packet's responses, copied out of the ring. */
struct rx_chain {
	unsigned int nr_data;		/* data responses */
	unsigned int nr_ring;		/* ring slots, extras included */
	bool bad_extra;			/* an extra we cannot honour: drop */
	struct netif_offload off;
	netif_rx_response_t rsps[NETIF_MAX_SLOTS];
	uint16_t slot[NETIF_MAX_SLOTS];	/* ring slot (= page) of each */
};

/* The extra at ring slot @idx, copied out of the ring. */
static inline void
rx_extra_at(struct netif_front_rx *rx, RING_IDX idx,
	    struct netif_extra_info *extra)
{
	netif_rx_response_t rsp;

	RING_COPY_RESPONSE(&rx->ring, idx, &rsp);
	memcpy(extra, &rsp, sizeof(*extra));
}

/*
 * What one extra says of its packet: a GSO extra of a type we asked for
 * sets the packet's GSO; one we did not ask for, or with size 0, or an
 * extra of no known type marks the packet bad, as Linux netfront drops
 * it. A hash extra (the backend hashes what it sends once we configured
 * its hash) gives the packet its RSS hash; the other known types carry
 * nothing we use. Returns whether another extra follows.
 */
static bool
rx_take_extra(struct netif_front_rx *rx, const struct netif_extra_info *extra,
	      struct rx_chain *c)
{
	if (extra->type == XEN_NETIF_EXTRA_TYPE_NONE ||
	    extra->type >= XEN_NETIF_EXTRA_TYPE_MAX) {
		c->bad_extra = true;
	} else if (extra->type == XEN_NETIF_EXTRA_TYPE_GSO) {
		if (extra->u.gso.size == 0 ||
		    !(rx->gso_asked & netif_peer_gso_bit(extra->u.gso.type)))
			c->bad_extra = true;
		c->off.gso_type = extra->u.gso.type;
		c->off.gso_size = extra->u.gso.size;
	} else if (extra->type == XEN_NETIF_EXTRA_TYPE_HASH) {
		netif_offload_hash_extra(&c->off, extra);
	}
	return extra->flags & XEN_NETIF_EXTRA_FLAG_MORE;
}

/*
 * Copy the responses of the packet at rsp_cons out of the ring: the first
 * data response, which the caller copied into @first, its extras (the
 * first one from @first_extra when the caller copied it too), the other
 * data responses. Returns the ring slots it takes, 0 if its last response
 * is not produced yet, -1 when the backend broke the protocol.
 */
static int
rx_copy_chain(struct netif_front_rx *rx, RING_IDX prod,
	      const netif_rx_response_t *first,
	      const struct netif_extra_info *first_extra, struct rx_chain *c)
{
	RING_IDX cons = rx->ring.rsp_cons, idx = cons;
	unsigned int mask = RING_SIZE(&rx->ring) - 1, nr_extras = 0;
	uint16_t flags;

	c->nr_data = 0;
	c->bad_extra = false;
	c->off = (struct netif_offload){ .gso_type = XEN_NETIF_GSO_TYPE_NONE };
	c->rsps[0] = *first;
	c->slot[c->nr_data++] = idx++ & mask;
	flags = c->rsps[0].flags;
	c->off.csum_blank = flags & NETRXF_csum_blank;
	c->off.data_validated = flags & NETRXF_data_validated;
	if (flags & NETRXF_extra_info) {
		bool more;

		do {
			struct netif_extra_info extra;

			/* One of each type at most, as for TX. */
			if (++nr_extras >= XEN_NETIF_EXTRA_TYPE_MAX) {
				rx->error = "RX extra info chain too long";
				return -1;
			}
			if (idx == prod)
				return 0;
			if (nr_extras == 1 && first_extra != NULL)
				extra = *first_extra;
			else
				rx_extra_at(rx, idx, &extra);
			idx++;
			more = rx_take_extra(rx, &extra, c);
		} while (more);
	}
	while (c->rsps[c->nr_data - 1].flags & NETRXF_more_data) {
		/* A chain this long could hold the ring hostage: no waiting. */
		if (c->nr_data == NETIF_MAX_SLOTS) {
			rx->error = "RX packet longer than 18 slots";
			return -1;
		}
		if (idx == prod)
			return 0;
		RING_COPY_RESPONSE(&rx->ring, idx, &c->rsps[c->nr_data]);
		c->slot[c->nr_data++] = idx++ & mask;
	}
	c->nr_ring = idx - cons;
	return c->nr_ring;
}

/* Zero copy: a chain dropped before it was looked at gives its mbufs back. */
static void
rx_drop_posted(struct netif_front_rx *rx, const struct rx_chain *c)
{
	unsigned int i;

	for (i = 0; i < c->nr_data; i++) {
		rte_pktmbuf_free_seg(rx->posted[c->slot[i]]);
		rx->posted[c->slot[i]] = NULL;
	}
}

/* Whether a response's bytes lie inside its slot's page. */
static inline bool
rx_in_page(const netif_rx_response_t *rsp)
{
	return rsp->offset + rsp->status <= (int32_t)NETIF_PAGE_SIZE;
}

/* Total length of a chain, or -1 (counted) if the packet must be dropped. */
static int32_t
rx_chain_len(struct netif_front_rx *rx, const netif_rx_response_t *rsps,
	     unsigned int slots)
{
	int32_t len = 0;
	unsigned int i;

	for (i = 0; i < slots; i++) {
		if (rsps[i].status < 0) {
			rx->stats.errors++;
			return -1;
		}
		if (!rx_in_page(&rsps[i])) {
			rx->stats.malformed++;
			return -1;
		}
		len += rsps[i].status;
	}
	if (len == 0) {
		rx->stats.malformed++;
		return -1;
	}
	return len;
}

/* Copy one validated chain out of the slot pages into new mbufs. */
static struct rte_mbuf *
rx_chain2mbuf(struct netif_front_rx *rx, struct rte_mempool *mp,
	      const struct rx_chain *c)
{
	const netif_rx_response_t *rsps = c->rsps;
	unsigned int slots = c->nr_data;
	int32_t len = rx_chain_len(rx, rsps, slots);
	struct rte_mbuf *head, *m;
	unsigned int i;

	if (len < 0)
		return NULL;
	head = rte_pktmbuf_alloc(mp);
	if (head == NULL)
		goto nomem;
	m = head;
	for (i = 0; i < slots; i++) {
		const uint8_t *src = SLOT_PAGE(rx->pages, c->slot[i]) +
				     rsps[i].offset;
		uint32_t left = rsps[i].status;

		while (left > 0) {
			uint32_t n = RTE_MIN(left, rte_pktmbuf_tailroom(m));

			if (n == 0) {
				m->next = rte_pktmbuf_alloc(mp);
				if (m->next == NULL) {
					rte_pktmbuf_free(head);
					goto nomem;
				}
				m = m->next;
				head->nb_segs++;
				continue;
			}
			netif_memcpy(rte_pktmbuf_mtod_offset(m, uint8_t *,
							     m->data_len),
				     src, n);
			m->data_len += n;
			src += n;
			left -= n;
		}
	}
	head->pkt_len = len;
	head->port = rx->port;
	return head;
nomem:
	rx->stats.mbuf_alloc_failed++;
	return NULL;
}

/*
 * The mbuf posted in ring slot @slot, out of the ring, with the fields
 * rte_pktmbuf_reset() sets but for its data's offset and lengths, which
 * the caller writes: the refill takes mbufs without that reset
 * (rx_post_zc()), as DPDK's vector PMDs rearm theirs on receive, since
 * most fields are written here anyway. A free left it one segment with
 * no next and no flag but its buffer's (rte_pktmbuf_prefree_seg(), for a
 * pinned external buffer).
 */
static inline struct rte_mbuf *
rx_zc_take(struct netif_front_rx *rx, uint16_t slot)
{
	struct rte_mbuf *m = rx->posted[slot];

	rx->posted[slot] = NULL;
	m->packet_type = 0;
	m->vlan_tci = 0;
	m->vlan_tci_outer = 0;
	m->tx_offload = 0;
	m->port = rx->port;
	return m;
}

/*
 * Zero copy: the packet is the chain of the mbufs its slots were posted
 * with, each holding what the backend wrote at the response's offset.
 * Every slot's mbuf leaves the ring, received or freed.
 */
static struct rte_mbuf *
rx_chain2zc(struct netif_front_rx *rx, const struct rx_chain *c)
{
	int32_t len = rx_chain_len(rx, c->rsps, c->nr_data);
	struct rte_mbuf *head = NULL, *prev = NULL, *m;
	unsigned int i;

	if (len < 0) {
		rx_drop_posted(rx, c);
		return NULL;
	}
	for (i = 0; i < c->nr_data; i++) {
		m = rx_zc_take(rx, c->slot[i]);
		m->data_off = c->rsps[i].offset;
		m->data_len = c->rsps[i].status;
		if (prev == NULL)
			head = m;
		else
			prev->next = m;
		prev = m;
	}
	head->nb_segs = c->nr_data;
	head->pkt_len = len;
	rx->stats.zero_copy_packets++;
	return head;
}

/* The hash a hash extra gave the packet, if any, onto @m (counted). */
static inline void
rx_set_hash(struct netif_front_rx *rx, struct rte_mbuf *m,
	    const struct netif_offload *off)
{
	if (!off->hashed)
		return;
	m->hash.rss = off->hash;
	m->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
	rx->stats.hashed_packets++;
}

/*
 * Classify a received packet (when the application or its offload needs
 * it: netif_offload_rx_walks()) and apply its offload; false (counted)
 * when it cannot take it.
 */
static bool
rx_deliverable(struct netif_front_rx *rx, struct rte_mbuf *m,
	       const struct netif_offload *off)
{
	const char *why;

	if (netif_offload_rx_walks(off, rx->offloads))
		netif_l2_classify(m);
	if (netif_offload_rx(m, off, rx->offloads, &why) != 0) {
		rx->stats.drop_bad_offload++;
		return false;
	}
	rx->stats.packets++;
	rx->stats.bytes += m->pkt_len;
	rx->stats.gso_packets += off->gso_type != XEN_NETIF_GSO_TYPE_NONE;
	rx_set_hash(rx, m, off);
	return true;
}

/*
 * Most packets, received in the mbufs posted (zero copy): one response
 * without more data, its bytes within its page, nothing to complete, and
 * no extra but a hash, alone (@extra, copied out of the ring after @rsp;
 * NULL if not produced yet), which a backend sends with every packet once
 * we configured its hash (multi-queue). Such a packet is handed over
 * here, in one step of the receive loop, as the general path would; NULL
 * when @rsp (the response at rsp_cons, copied out of the ring) is not
 * one: the general path takes it then, from the same copies.
 */
static inline struct rte_mbuf *
rx_plain(struct netif_front_rx *rx, const netif_rx_response_t *rsp,
	 const struct netif_extra_info *extra)
{
	uint16_t slot = rx->ring.rsp_cons & (RING_SIZE(&rx->ring) - 1);
	struct netif_offload off = { .hashed = false };
	struct rte_mbuf *m;

	if ((rsp->flags & (NETRXF_csum_blank | NETRXF_more_data)) ||
	    rsp->status <= 0 || !rx_in_page(rsp))
		return NULL;
	if (rsp->flags & NETRXF_extra_info) {
		if (extra == NULL || extra->type != XEN_NETIF_EXTRA_TYPE_HASH ||
		    (extra->flags & XEN_NETIF_EXTRA_FLAG_MORE))
			return NULL;
		netif_offload_hash_extra(&off, extra);
	}
	m = rx_zc_take(rx, slot);
	m->data_off = rsp->offset;
	m->data_len = rsp->status;
	m->pkt_len = rsp->status;
	rx_set_hash(rx, m, &off);
	if (rx->offloads & NETIF_RX_PTYPES)
		netif_l2_classify(m);
	return m;
}

uint16_t
netif_front_rx_receive(struct netif_front_rx *rx, struct rte_mempool *mp,
		       struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	bool plain = rx->zc != NULL && !netif_offload_rx_checks(rx->offloads);
	unsigned int nb_plain = 0;
	uint64_t plain_bytes = 0;
	struct rx_chain c;
	uint16_t nb = 0;
	RING_IDX prod;
	int slots;

	if (rx->error != NULL)
		return 0;
	prod = netif_ring_peer_prod(&rx->ring.sring->rsp_prod);
	if (prod - rx->ring.rsp_cons >
	    rx->ring.req_prod_pvt - rx->ring.rsp_cons) {
		rx->error = "RX response producer beyond the posted requests";
		return 0;
	}
	while (nb < nb_pkts && rx->ring.rsp_cons != prod) {
		const struct netif_extra_info *first_extra = NULL;
		struct netif_extra_info extra;
		struct rte_mbuf *m = NULL;
		netif_rx_response_t rsp;

		/* Copied out of shared memory once: never read there again. */
		RING_COPY_RESPONSE(&rx->ring, rx->ring.rsp_cons, &rsp);
		if (plain && (rsp.flags & NETRXF_extra_info) &&
		    rx->ring.rsp_cons + 1 != prod) {
			rx_extra_at(rx, rx->ring.rsp_cons + 1, &extra);
			first_extra = &extra;
		}
		if (plain && (m = rx_plain(rx, &rsp, first_extra)) != NULL) {
			pkts[nb++] = m;
			nb_plain++;
			plain_bytes += m->pkt_len;
			rx->ring.rsp_cons += first_extra != NULL ? 2 : 1;
			continue;
		}
		slots = rx_copy_chain(rx, prod, &rsp, first_extra, &c);
		if (slots <= 0)
			break;
		if (unlikely(c.bad_extra)) {
			rx->stats.malformed++;
			if (rx->zc != NULL)
				rx_drop_posted(rx, &c);
		} else if (rx->zc != NULL) {
			m = rx_chain2zc(rx, &c);
		} else {
			m = rx_chain2mbuf(rx, mp, &c);
		}
		rx->ring.rsp_cons += slots;
		if (m == NULL)
			continue;
		if (likely(rx_deliverable(rx, m, &c.off)))
			pkts[nb++] = m;
		else
			rte_pktmbuf_free(m);
	}
	rx->stats.packets += nb_plain;
	rx->stats.bytes += plain_bytes;
	rx->stats.zero_copy_packets += nb_plain;
	return nb;
}

/*
 * Zero copy: mbufs for the @n slots from @prod on, as many as the pool
 * has (the rest are posted by a later push); returns how many. A slot an
 * extra took still holds the mbuf it was posted with: it is posted again.
 */
static unsigned int
rx_post_zc(struct netif_front_rx *rx, RING_IDX prod, unsigned int n)
{
	struct rte_mbuf *m[NETIF_RX_RING_SIZE];
	unsigned int mask = RING_SIZE(&rx->ring) - 1, want = 0, got, i;

	for (i = 0; i < n; i++)
		want += rx->posted[(prod + i) & mask] == NULL;
	got = want;
	/* Not reset: rx_zc_take() sets what the reset would. */
	if (rte_mempool_get_bulk(rx->zc->mp, (void **)m, want) != 0) {
		for (got = 0; got < want; got++)
			if (rte_mempool_get(rx->zc->mp, (void **)&m[got]) != 0)
				break;
		rx->stats.post_short++;
	}
	for (i = 0; i < n; i++) {
		struct rte_mbuf **slot = &rx->posted[(prod + i) & mask];

		if (*slot != NULL)
			continue;
		if (got == 0)
			break;
		*slot = m[--got];
	}
	return i;
}

unsigned int
netif_front_rx_push(struct netif_front_rx *rx, bool *notify)
{
	RING_IDX end = rx->ring.rsp_cons + RING_SIZE(&rx->ring);
	RING_IDX prod = rx->ring.req_prod_pvt;
	unsigned int n = end - prod;

	*notify = false;
	if (n == 0 || rx->error != NULL)
		return 0;
	if (rx->zc != NULL) {
		end = prod + rx_post_zc(rx, prod, n);
		n = end - prod;
		if (n == 0)
			return 0;
	}
	/* Request id = ring slot, so the page of a response is its slot's. */
	for (; prod != end; prod++) {
		uint16_t id = prod & (RING_SIZE(&rx->ring) - 1);
		netif_rx_request_t req = {
			.id = id,
			.gref = rx->zc != NULL ?
				netif_front_pool_gref(rx->zc, rx->posted[id]) :
				rx->grefs[id],
		};

		*RING_GET_REQUEST(&rx->ring, prod) = req;
	}
	rx->ring.req_prod_pvt = end;
	*notify = NETIF_PUSH_REQUESTS(&rx->ring);
	return n;
}

uint16_t
netif_front_rx_pull(struct netif_front_rx *rx, struct rte_mbuf **pkts,
		    uint16_t max, enum netif_doorbell *doorbell)
{
	uint16_t nb;
	bool notify;

	nb = netif_front_rx_receive(rx, rx->mp, pkts, max);
	*doorbell = netif_front_rx_push(rx, &notify) > 0 ?
		    netif_doorbell(notify) : NETIF_DOORBELL_NONE;
	return nb;
}

bool
netif_front_rx_arm(struct netif_front_rx *rx)
{
	return netif_ring_arm(&rx->ring.sring->rsp_event, rx->ring.rsp_cons,
			      &rx->ring.sring->rsp_prod);
}

