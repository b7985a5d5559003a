/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The statistics walk both PMDs share (see xn_stats.h).
 */

#include <stdio.h>

#include <rte_pmd_xen_netif.h>

#include "xn_port.h"
#include "xn_stats.h"

/* The counters every queue has, after the PMD's own. */
static const struct xn_stat queue_stats[] = {
#define QS(n, f) { n, offsetof(struct xn_queue, f), XN_BASIC_NONE }
	QS(RTE_PMD_XEN_NETIF_XSTAT_NOTIFICATIONS_SENT, notify.sent),
	QS(RTE_PMD_XEN_NETIF_XSTAT_NOTIFICATIONS_SUPPRESSED, notify.suppressed),
	QS(RTE_PMD_XEN_NETIF_XSTAT_NOTIFICATIONS_FAILED, notify.failed),
	QS(RTE_PMD_XEN_NETIF_XSTAT_GRANT_MAPS, grant.maps),
	QS(RTE_PMD_XEN_NETIF_XSTAT_GRANT_UNMAPS, grant.unmaps),
};

/*
 * And after those, the counters only Rx queues have: the pair's events are
 * taken on its Rx queue (xn_intr.h).
 */
static const struct xn_stat rx_queue_stats[] = {
	QS(RTE_PMD_XEN_NETIF_XSTAT_NOTIFICATIONS_RECEIVED, notify.received),
#undef QS
};

static unsigned int
nb_shared_stats(bool rx)
{
	return RTE_DIM(queue_stats) + (rx ? RTE_DIM(rx_queue_stats) : 0);
}

/* The shared counter @s (< nb_shared_stats(@rx)) of a queue. */
static const struct xn_stat *
shared_stat(unsigned int s)
{
	return s < RTE_DIM(queue_stats) ? &queue_stats[s] :
		&rx_queue_stats[s - RTE_DIM(queue_stats)];
}

/* The port's own counters, after every queue's, named without a prefix. */
static const struct xn_stat port_stats[] = {
	{ RTE_PMD_XEN_NETIF_XSTAT_CTRL_EVENTS,
	  offsetof(struct xn_port, ctrl_serving.events), XN_BASIC_NONE },
	{ RTE_PMD_XEN_NETIF_XSTAT_CTRL_SPURIOUS_EVENTS,
	  offsetof(struct xn_port, ctrl_serving.spurious), XN_BASIC_NONE },
	{ RTE_PMD_XEN_NETIF_XSTAT_CTRL_BUDGET_EXHAUSTED,
	  offsetof(struct xn_port, ctrl_serving.budget_exhausted),
	  XN_BASIC_NONE },
	{ RTE_PMD_XEN_NETIF_XSTAT_CTRL_BACKOFF_US,
	  offsetof(struct xn_port, ctrl_serving.backoff_us), XN_BASIC_NONE },
};

/* The counter @s of a queue or, for port_stats, of the port @base. */
static uint64_t *
counter(const void *base, const struct xn_stat *s)
{
	return (uint64_t *)((uintptr_t)base + s->offset);
}

static uint64_t
read_counter(const struct xn_stats_table *t, const void *base,
	     const struct xn_stat *s)
{
	if (s->basic == XN_BASIC_READ)
		return t->read(base, s->offset);
	return __atomic_load_n(counter(base, s), __ATOMIC_RELAXED);
}

/* Add one counter to the basic statistics of queue @qid. */
static void
add_basic(struct rte_eth_stats *st, bool rx, unsigned int qid,
	  enum xn_basic basic, uint64_t v)
{
	bool per_queue = qid < RTE_ETHDEV_QUEUE_STAT_CNTRS;

	switch (basic) {
	case XN_BASIC_NONE:
	case XN_BASIC_GAUGE:
	case XN_BASIC_READ:
		break;
	case XN_BASIC_PACKETS:
		*(rx ? &st->ipackets : &st->opackets) += v;
		if (per_queue)
			*(rx ? &st->q_ipackets[qid] : &st->q_opackets[qid]) += v;
		break;
	case XN_BASIC_BYTES:
		*(rx ? &st->ibytes : &st->obytes) += v;
		if (per_queue)
			*(rx ? &st->q_ibytes[qid] : &st->q_obytes[qid]) += v;
		break;
	case XN_BASIC_ERRORS:
		*(rx ? &st->ierrors : &st->oerrors) += v;
		if (rx && per_queue)
			st->q_errors[qid] += v;
		break;
	case XN_BASIC_NOMBUF:
		st->rx_nombuf += v;
		break;
	}
}

int
xn_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	const struct xn_port *p = xn_port(dev);
	const struct xn_stats_table *t = xn_pmd_of(dev)->stats;
	unsigned int i, s;

	for (i = 0; i < p->cfg.queues; i++) {
		for (s = 0; s < t->nb_rx; s++)
			add_basic(st, true, i, t->rx[s].basic,
				  read_counter(t, p->rxq[i], &t->rx[s]));
		for (s = 0; s < t->nb_tx; s++)
			add_basic(st, false, i, t->tx[s].basic,
				  read_counter(t, p->txq[i], &t->tx[s]));
	}
	return 0;
}

static void
reset_queue(struct xn_queue *q, bool rx, const struct xn_stat *table,
	    unsigned int n)
{
	unsigned int s;

	for (s = 0; s < n; s++)
		if (table[s].basic != XN_BASIC_GAUGE &&
		    table[s].basic != XN_BASIC_READ)
			__atomic_store_n(counter(q, &table[s]), 0,
					 __ATOMIC_RELAXED);
	for (s = 0; s < nb_shared_stats(rx); s++)
		__atomic_store_n(counter(q, shared_stat(s)), 0,
				 __ATOMIC_RELAXED);
}

int
xn_stats_reset(struct rte_eth_dev *dev)
{
	const struct xn_stats_table *t = xn_pmd_of(dev)->stats;
	struct xn_port *p = xn_port(dev);
	unsigned int i;

	for (i = 0; i < p->cfg.queues; i++) {
		reset_queue(p->rxq[i], true, t->rx, t->nb_rx);
		reset_queue(p->txq[i], false, t->tx, t->nb_tx);
	}
	pthread_mutex_lock(&p->lock);
	for (i = 0; i < RTE_DIM(port_stats); i++)
		*counter(p, &port_stats[i]) = 0;
	pthread_mutex_unlock(&p->lock);
	return 0;
}

/*
 * The extended counters in order: for each direction and queue, the
 * PMD's named ones, then the counters every queue has; then the port's.
 * Calls @fn for each with the queue (NULL: the port's), its direction and
 * place; returns how many there are.
 */
static unsigned int
walk(const struct xn_port *p, const struct xn_stats_table *t,
     void (*fn)(void *arg, unsigned int i, const struct xn_port *p,
		const struct xn_queue *q, bool rx, const struct xn_stat *s),
     void *arg)
{
	unsigned int dir, qid, s, i = 0;

	for (dir = 0; dir < 2; dir++) {
		const struct xn_stat *table = dir == 0 ? t->rx : t->tx;
		unsigned int n = dir == 0 ? t->nb_rx : t->nb_tx;

		for (qid = 0; qid < p->cfg.queues; qid++) {
			const struct xn_queue *q =
				dir == 0 ? p->rxq[qid] : p->txq[qid];

			for (s = 0; s < n + nb_shared_stats(dir == 0); s++) {
				const struct xn_stat *x = s < n ? &table[s] :
					shared_stat(s - n);

				if (x->name == NULL)
					continue;
				if (fn != NULL)
					fn(arg, i, p, q, dir == 0, x);
				i++;
			}
		}
	}
	for (s = 0; s < RTE_DIM(port_stats); s++, i++)
		if (fn != NULL)
			fn(arg, i, p, NULL, false, &port_stats[s]);
	return i;
}

static void
put_name(void *arg, unsigned int i, const struct xn_port *p __rte_unused,
	 const struct xn_queue *q, bool rx, const struct xn_stat *s)
{
	struct rte_eth_xstat_name *names = arg;

	if (q == NULL)
		snprintf(names[i].name, sizeof(names[i].name), "%s", s->name);
	else
		snprintf(names[i].name, sizeof(names[i].name), "%cx_q%u_%s",
			 rx ? 'r' : 't', q->queue_id, s->name);
}

struct values {
	const struct xn_stats_table *t;
	struct rte_eth_xstat *xstats;
};

static void
put_value(void *arg, unsigned int i, const struct xn_port *p,
	  const struct xn_queue *q, bool rx __rte_unused,
	  const struct xn_stat *s)
{
	const struct values *v = arg;

	v->xstats[i].id = i;
	v->xstats[i].value =
		q != NULL ? read_counter(v->t, q, s) : read_counter(v->t, p, s);
}

int
xn_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names,
		    unsigned int size)
{
	const struct xn_stats_table *t = xn_pmd_of(dev)->stats;
	const struct xn_port *p = xn_port(dev);
	unsigned int n = walk(p, t, NULL, NULL);

	/* Too small an array: say how large it must be, as ethdev expects. */
	if (names != NULL && size >= n)
		walk(p, t, put_name, names);
	return n;
}

int
xn_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xstats,
	      unsigned int size)
{
	const struct xn_stats_table *t = xn_pmd_of(dev)->stats;
	const struct xn_port *p = xn_port(dev);
	unsigned int n = walk(p, t, NULL, NULL);

	if (xstats != NULL && size >= n)
		walk(p, t, put_value, &(struct values){ t, xstats });
	return n;
}
