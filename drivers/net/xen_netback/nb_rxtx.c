/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The burst functions of xen_netback. Each burst reads the frontend's
 * producer index once, turns the requests it covers into grant copies,
 * submits them in one call, checks every segment's status, publishes its
 * responses once and notifies the frontend at most once, only if the
 * frontend's event index asks for it. Frontend errors never stop the
 * process: the queue is marked failed and the control plane disconnects.
 * An Rx burst takes at most `batch` packets from the ring and, with
 * EtherType grouping, returns them in runs (netif_rx_group.h).
 */

#include <errno.h>
#include <unistd.h>

#include <rte_mbuf.h>

#include "nb.h"
#include "netif_csum.h"
#include "netif_rx_group.h"

void
nb_fail(struct nb_port *p, uint64_t *malformed, const char *why)
{
	uint64_t one = 1;

	(*malformed)++;
	if (__atomic_exchange_n(&p->failed, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	p->fail_reason = why;
	/* Wake the control thread; it logs and disconnects. */
	if (write(p->fail_fd, &one, sizeof(one)) != sizeof(one))
		NB_LOG(ERR, "cannot signal a frontend failure: %s",
		       strerror(errno));
}

static bool
rxq_take_mbufs(struct nb_rxq *q, struct rte_mbuf **m, unsigned int n)
{
	if (q->nb_spare < n) {
		unsigned int want = NB_SPARE_MBUFS - q->nb_spare;

		if (rte_pktmbuf_alloc_bulk(q->mp, &q->spare[q->nb_spare],
					   want) == 0)
			q->nb_spare += want;
		if (q->nb_spare < n)
			return false;
	}
	q->nb_spare -= n;
	memcpy(m, &q->spare[q->nb_spare], n * sizeof(*m));
	return true;
}

/* Give back mbufs taken for a packet that will not be built now. */
static void
rxq_return_mbufs(struct nb_rxq *q, struct rte_mbuf **m, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rte_pktmbuf_reset(m[i]);	/* undo the chaining */
	memcpy(&q->spare[q->nb_spare], m, n * sizeof(*m));
	q->nb_spare += n;
}

void
nb_rxq_release_spares(struct nb_rxq *q)
{
	rte_pktmbuf_free_bulk(q->spare, q->nb_spare);
	q->nb_spare = 0;
}

/*
 * True when every copy of segments [first, last) succeeded. When the copy
 * call itself went through, a failed segment can only mean a grant the
 * frontend gave us is unusable (never granted, revoked, read-only, wrong
 * domain): Xen reports most of these as GNTST_general_error, so any status
 * counts. A failed call is our side's problem and blames nobody.
 */
static bool
segs_ok(struct nb_port *p, const xengnttab_grant_copy_segment_t *segs,
	unsigned int first, unsigned int last, bool call_ok, uint64_t *failed,
	uint64_t *malformed)
{
	unsigned int i, bad = 0;

	for (i = first; i < last; i++)
		bad += segs[i].status != GNTST_okay;
	if (likely(bad == 0))
		return true;
	*failed += bad;
	if (call_ok)
		nb_fail(p, malformed, "bad grant reference");
	return false;
}

static void
push_and_notify(struct nb_port *p, bool notify, evtchn_port_t evtchn,
		uint64_t *sent, uint64_t *suppressed)
{
	if (!notify) {
		(*suppressed)++;
		return;
	}
	xa_evtchn_notify(p->xa, evtchn);
	(*sent)++;
}

/*
 * Parse, allocate and build copies for as many guest TX packets as the
 * burst allows; returns how many wait for the copy.
 */
static unsigned int
rx_collect(struct nb_rxq *q, struct nb_pair *pr, uint16_t nb_pkts,
	   unsigned int *nb_segs)
{
	struct nb_port *p = q->port;
	struct rte_mbuf *mbufs[NB_SPARE_MBUFS];
	unsigned int n = 0, segs = 0;
	int avail;

	*nb_segs = 0;
	avail = netif_back_tx_requests(&pr->tx_ring);
	if (unlikely(avail < 0)) {
		nb_fail(p, &q->stats.malformed,
			"TX request producer index beyond the ring");
		return 0;
	}
	while (avail > 0 && n < nb_pkts) {
		struct netif_tx_packet *pkt = &q->pkts[n];
		enum netif_tx_verdict verdict;
		unsigned int nb_mbufs;
		const char *why;
		int built;

		verdict = netif_back_tx_parse(&pr->tx_ring, avail, pkt, &why);
		if (unlikely(verdict == NETIF_TX_FATAL)) {
			nb_fail(p, &q->stats.malformed, why);
			break;
		}
		if (unlikely(verdict == NETIF_TX_DROP)) {
			netif_back_tx_respond(&pr->tx_ring, pkt, NETIF_RSP_ERROR);
			q->stats.drop_bad_frame++;
		} else {
			/* At most NB_SPARE_MBUFS: see nb_rx_queue_setup(). */
			nb_mbufs = netif_mbufs_for(pkt->len, q->mbuf_room);
			if (!rxq_take_mbufs(q, mbufs, nb_mbufs)) {
				q->stats.nombuf++;
				break;
			}
			built = netif_back_tx_build_copy(pkt, mbufs, nb_mbufs,
							 p->fe_domid,
							 &q->segs[segs],
							 NB_SEGS_MAX - segs);
			if (built < 0) {
				/* No room left in this burst's copy batch. */
				rxq_return_mbufs(q, mbufs, nb_mbufs);
				break;
			}
			q->first_seg[n] = segs;
			q->heads[n++] = mbufs[0];
			segs += built;
		}
		pr->tx_ring.req_cons += netif_tx_packet_ring_slots(pkt);
		avail -= netif_tx_packet_ring_slots(pkt);
	}
	q->first_seg[n] = segs;
	*nb_segs = segs;
	return n;
}

/*
 * One pull from the guest TX ring: at most @max packets into @pkts, their
 * responses published once with at most one notification.
 */
static uint16_t
rx_pull(void *qp, struct rte_mbuf **pkts, uint16_t max)
{
	struct nb_rxq *q = qp;
	struct nb_port *p = q->port;
	struct nb_pair *pr = &p->pairs[q->queue_id];
	unsigned int i, n, nb_segs, nb_rx = 0;
	uint64_t bytes = 0;
	bool call_ok = true;
	bool notify;

	if (unlikely(__atomic_load_n(&p->failed, __ATOMIC_RELAXED)))
		return 0;
	n = rx_collect(q, pr, max, &nb_segs);
	if (nb_segs > 0) {
		call_ok = xa_gnt_copy(p->xa, nb_segs, q->segs) == 0;
		q->stats.copy_calls++;
		q->stats.copy_segs += nb_segs;
	}
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = q->heads[i];
		int16_t status = NETIF_RSP_OKAY;

		if (unlikely(!segs_ok(p, q->segs, q->first_seg[i],
				      q->first_seg[i + 1], call_ok,
				      &q->stats.copy_failed,
				      &q->stats.malformed))) {
			rte_pktmbuf_free(m);
			q->stats.drop_copy_failed++;
			status = NETIF_RSP_ERROR;
		} else if ((q->pkts[i].flags & NETTXF_csum_blank) &&
			   netif_csum_complete(m) != 0) {
			/* Blank checksum on a frame that has none: as Linux. */
			rte_pktmbuf_free(m);
			q->stats.drop_bad_csum++;
			status = NETIF_RSP_ERROR;
		} else {
			m->port = p->dev->data->port_id;
			bytes += m->pkt_len;
			pkts[nb_rx++] = m;
		}
		netif_back_tx_respond(&pr->tx_ring, &q->pkts[i], status);
	}
	if (pr->tx_ring.rsp_prod_pvt != pr->tx_ring.sring->rsp_prod) {
		notify = NETIF_PUSH_RESPONSES(&pr->tx_ring);
		push_and_notify(p, notify, pr->evtchn_tx,
				&q->stats.notify_sent,
				&q->stats.notify_suppressed);
	}
	q->stats.packets += nb_rx;
	q->stats.bytes += bytes;
	return nb_rx;
}

uint16_t
nb_rx_burst(void *qp, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct nb_rxq *q = qp;
	uint16_t n;

	if (unlikely(!nb_queue_enter(q->port, &q->busy)))
		return 0;
	/* A queue pair the frontend did not connect has no ring. */
	if (unlikely(q->queue_id >= q->port->nb_pairs)) {
		nb_queue_leave(&q->busy);
		return 0;
	}
	n = netif_rx_burst(&q->stash, rx_pull, q, pkts, nb_pkts, q->batch,
			   q->group, q->single_flag);
	nb_queue_leave(&q->busy);
	return n;
}

uint16_t
nb_tx_burst(void *qp, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct nb_txq *q = qp;
	struct nb_port *p = q->port;
	struct nb_pair *pr = &p->pairs[q->queue_id];
	unsigned int i, s, n = 0, sent = 0, nb_slots = 0, nb_segs = 0;
	uint64_t bytes = 0;
	bool call_ok = true;
	bool notify;
	int avail;

	if (unlikely(!nb_queue_enter(p, &q->busy)))
		return 0;
	if (unlikely(__atomic_load_n(&p->failed, __ATOMIC_RELAXED) ||
		     q->queue_id >= p->nb_pairs))
		goto out;
	avail = netif_back_rx_requests(&pr->rx_ring);
	if (unlikely(avail < 0)) {
		nb_fail(p, &q->stats.malformed,
			"RX request producer index beyond the ring");
		goto out;
	}
	nb_pkts = RTE_MIN(nb_pkts, NB_BURST_MAX);
	for (n = 0; n < nb_pkts; n++) {
		struct rte_mbuf *m = pkts[n];
		unsigned int need = netif_rx_slots_for(m->pkt_len);
		int used;

		q->first_slot[n] = nb_slots;
		if (unlikely(need > NETIF_MAX_SLOTS ||
			     m->pkt_len > XEN_NETIF_MAX_TX_SIZE)) {
			/* No frontend can take it; drop, don't block. */
			q->stats.drop_too_long++;
			continue;
		}
		if ((unsigned int)avail < need) {
			q->stats.ring_full++;
			break;
		}
		used = netif_back_rx_build_copy(&pr->rx_ring, m,
						p->fe_domid, q->segs,
						&nb_segs, NB_SEGS_MAX,
						&q->slots[nb_slots]);
		if (used < 0)
			break;
		nb_slots += used;
		avail -= used;
	}
	q->first_slot[n] = nb_slots;
	if (nb_segs > 0) {
		call_ok = xa_gnt_copy(p->xa, nb_segs, q->segs) == 0;
		q->stats.copy_calls++;
		q->stats.copy_segs += nb_segs;
	}
	for (i = 0; i < n; i++) {
		bool pkt_ok = true;

		if (q->first_slot[i] == q->first_slot[i + 1])
			continue;	/* dropped as too long */
		for (s = q->first_slot[i]; s < q->first_slot[i + 1]; s++) {
			const struct netif_rx_slot *slot = &q->slots[s];
			bool ok = segs_ok(p, q->segs, slot->first_seg,
					  slot->first_seg + slot->nr_segs,
					  call_ok, &q->stats.copy_failed,
					  &q->stats.malformed);

			netif_back_rx_respond(&pr->rx_ring, slot, ok);
			pkt_ok &= ok;
		}
		if (likely(pkt_ok)) {
			sent++;
			bytes += pkts[i]->pkt_len;
		} else {
			q->stats.drop_copy_failed++;
		}
	}
	if (nb_slots > 0) {
		pr->rx_ring.rsp_prod_pvt = pr->rx_ring.req_cons;
		notify = NETIF_PUSH_RESPONSES(&pr->rx_ring);
		push_and_notify(p, notify, pr->evtchn_rx,
				&q->stats.notify_sent,
				&q->stats.notify_suppressed);
	}
	rte_pktmbuf_free_bulk(pkts, n);
	q->stats.packets += sent;
	q->stats.bytes += bytes;
out:
	nb_queue_leave(&q->busy);
	return n;
}
