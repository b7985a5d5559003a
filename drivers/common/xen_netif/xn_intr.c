/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Rx interrupt mode (see xn_intr.h): the interrupt fds the ethdev hands
 * the application, and arming a queue's ring before it sleeps.
 */

#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_interrupts.h>

#include "netif_ring_ops.h"
#include "xn_intr.h"

static struct xn_rxq *
rxq_of(struct xn_port *p, uint16_t qid)
{
	return (struct xn_rxq *)p->rxq[qid];
}

static void
rxq_intr_close(struct xn_rxq *q)
{
	if (q->intr_fd >= 0)
		close(q->intr_fd);
	if (q->kick_fd >= 0)
		close(q->kick_fd);
	q->intr_fd = q->kick_fd = -1;
}

/* The epoll set a sleeper waits on: the pair's endpoint and the kick. */
static int
rxq_intr_open(struct xn_rxq *q)
{
	struct epoll_event ev = { .events = EPOLLIN };

	q->intr_fd = epoll_create1(EPOLL_CLOEXEC);
	q->kick_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (q->intr_fd < 0 || q->kick_fd < 0)
		goto fail;
	ev.data.fd = q->kick_fd;
	if (epoll_ctl(q->intr_fd, EPOLL_CTL_ADD, q->kick_fd, &ev) < 0)
		goto fail;
	ev.data.fd = xa_evtchn_fd(q->q.endpoint);
	if (epoll_ctl(q->intr_fd, EPOLL_CTL_ADD, ev.data.fd, &ev) < 0)
		goto fail;
	return 0;
fail:
	rxq_intr_close(q);
	return -errno;
}

void
xn_intr_uninstall(struct xn_port *p)
{
	struct rte_eth_dev *dev = p->dev;
	unsigned int i;

	/* The pairs registered so far (init may have stopped half way). */
	for (i = 0; i < p->cfg.queues && p->rxq[i] != NULL; i++)
		rxq_intr_close(rxq_of(p, i));
	if (dev->intr_handle == NULL)
		return;
	rte_intr_vec_list_free(dev->intr_handle);
	rte_intr_instance_free(dev->intr_handle);
	dev->intr_handle = NULL;
}

int
xn_intr_install(struct xn_port *p)
{
	struct rte_eth_dev *dev = p->dev;
	uint16_t nb = dev->data->nb_rx_queues, i;
	struct rte_intr_handle *ih;
	int ret;

	xn_intr_uninstall(p);
	if (!dev->data->dev_conf.intr_conf.rxq)
		return 0;
	ih = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (ih == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	dev->intr_handle = ih;
	/* EAL reads nothing after a wakeup: enable and disable drain. */
	if (rte_intr_type_set(ih, RTE_INTR_HANDLE_VDEV) != 0 ||
	    rte_intr_efd_counter_size_set(ih, 0) != 0 ||
	    rte_intr_vec_list_alloc(ih, NULL, nb) != 0 ||
	    rte_intr_nb_efd_set(ih, nb) != 0 ||
	    rte_intr_max_intr_set(ih, nb + 1) != 0) {
		ret = -rte_errno;
		goto fail;
	}
	for (i = 0; i < nb; i++) {
		struct xn_rxq *q = rxq_of(p, i);

		ret = rxq_intr_open(q);
		if (ret != 0)
			goto fail;
		if (rte_intr_vec_list_index_set(ih, i,
						RTE_INTR_VEC_RXTX_OFFSET + i) != 0 ||
		    rte_intr_efds_index_set(ih, i, q->intr_fd) != 0) {
			ret = -rte_errno;
			goto fail;
		}
	}
	return 0;
fail:
	XN_LOG(p, ERR, "cannot set up Rx interrupts: %s", strerror(-ret));
	xn_intr_uninstall(p);
	return ret;
}

/* Events a drain takes at most: a guest's storm cannot hold its caller. */
#define XN_INTR_DRAIN_MAX 64

/*
 * Under the lock: take the events delivered to the pair's endpoint and
 * the kicks, so that the interrupt fd reads empty; unmask the ports the
 * pair has bound now (a port of an earlier connection stays closed).
 */
static void
rxq_drain(struct xn_rxq *q)
{
	struct xn_queue *txq = q->q.port->txq[q->q.queue_id];
	unsigned int n = 0;
	uint64_t kicks;
	int port;

	if (read(q->kick_fd, &kicks, sizeof(kicks)) < 0 && errno != EAGAIN)
		XN_LOG(q->q.port, ERR, "Rx queue %u: cannot read its kicks: %s",
		       q->q.queue_id, strerror(errno));
	while (n++ < XN_INTR_DRAIN_MAX &&
	       (port = xa_evtchn_pending(q->q.endpoint)) >= 0) {
		q->q.notify.received++;
		if ((evtchn_port_t)port == q->q.evtchn ||
		    (evtchn_port_t)port == txq->evtchn)
			xa_evtchn_unmask(q->q.endpoint, port);
	}
}

/* Under the lock: whether the queue has work although armed. */
static bool
rxq_arm(struct xn_rxq *q)
{
	struct xn_port *p = q->q.port;

	if (!netif_rx_stash_empty(&q->batching.stash))
		return true;
	if (!__atomic_load_n(&p->datapath_ready, __ATOMIC_RELAXED) ||
	    q->q.queue_id >= p->nb_pairs)
		return false;	/* the gate opening wakes the sleeper */
	return netif_ring_ops(q->q.kind)->arm(q->q.ring);
}

static struct xn_rxq *
intr_rxq(struct rte_eth_dev *dev, uint16_t qid)
{
	struct xn_rxq *q = rxq_of(xn_port(dev), qid);

	return q->kick_fd >= 0 ? q : NULL;
}

int
xn_intr_enable(struct rte_eth_dev *dev, uint16_t qid)
{
	struct xn_rxq *q = intr_rxq(dev, qid);
	struct xn_port *p = xn_port(dev);

	if (q == NULL)
		return -EINVAL;	/* intr_conf.rxq was not set at start */
	pthread_mutex_lock(&p->lock);
	rxq_drain(q);
	if (rxq_arm(q))
		xn_rxq_kick(q);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

int
xn_intr_disable(struct rte_eth_dev *dev, uint16_t qid)
{
	struct xn_rxq *q = intr_rxq(dev, qid);
	struct xn_port *p = xn_port(dev);

	if (q == NULL)
		return -EINVAL;
	/*
	 * The event index stays: at most one more notification comes, then
	 * it is behind the peer and asks for nothing while the queue polls.
	 */
	pthread_mutex_lock(&p->lock);
	rxq_drain(q);
	pthread_mutex_unlock(&p->lock);
	return 0;
}
