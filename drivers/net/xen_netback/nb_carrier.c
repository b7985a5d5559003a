/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The carrier of a netback port, as Linux netback keeps its vif's: while
 * connected, an alarm looks at each queue's guest RX ring; when one has
 * kept a packet waiting for buffers, none taken, for a timeout
 * (devarg stall_timeout_ms; "Guest Rx stalled") the link goes down, so that the application stops
 * sending to a guest that takes nothing; once every stalled ring has
 * buffers again for the packet that waited ("Guest Rx ready") it comes
 * back up. A frontend without feature-rx-notify is never found stalled:
 * it does not tell us when it posts buffers, so a ring without them says
 * nothing about it (Linux disables the watch for it too).
 */

#include <inttypes.h>

#include <rte_alarm.h>
#include <rte_cycles.h>

#include "nb.h"

/* Between 10 ms and 1 s, four looks per timeout. */
static uint64_t
nb_carrier_period_us(const struct nb_port *p)
{
	return RTE_MIN(RTE_MAX(p->cfg.stall_timeout_ms * 1000ull / 4,
			       10000ull), 1000000ull);
}

/* Under the lock: the link follows the stalled queues. */
static void
nb_carrier_look(struct nb_port *p)
{
	uint64_t timeout = p->cfg.stall_timeout_ms * rte_get_timer_hz() /
			   1000;
	uint64_t now = rte_get_timer_cycles();
	unsigned int i, stalled = p->carrier.stalled_queues;

	for (i = 0; i < p->xn.nb_pairs; i++) {
		struct nb_txq *txq = &nb_pair(p, i)->txq;

		if (!txq->carrier.stalled &&
		    netif_back_rx_stalled(&txq->ring, now, timeout)) {
			txq->carrier.stalled = true;
			txq->carrier.stalls++;
			p->carrier.stalled_queues++;
		} else if (txq->carrier.stalled &&
			   netif_back_rx_ready(&txq->ring)) {
			txq->carrier.stalled = false;
			p->carrier.stalled_queues--;
		}
	}
	if ((stalled == 0) == (p->carrier.stalled_queues == 0))
		return;
	xn_port_carrier(&p->xn, p->carrier.stalled_queues == 0);
	NB_LOG(NOTICE, "%s: guest RX %s: link %s", p->be_dir,
	       p->carrier.stalled_queues > 0 ? "stalled" : "ready",
	       p->carrier.stalled_queues > 0 ? "down" : "up");
	xn_port_refresh(&p->xn);
}

static void
nb_carrier_alarm(void *arg)
{
	struct nb_port *p = arg;
	bool was_up;

	pthread_mutex_lock(&p->xn.lock);
	was_up = xn_port_link_up(&p->xn);
	p->carrier.armed = false;
	if (p->xn.connected) {
		nb_carrier_look(p);
		nb_carrier_watch(p);
	}
	pthread_mutex_unlock(&p->xn.lock);
	xn_port_lsc(&p->xn, was_up);
}

void
nb_carrier_watch(struct nb_port *p)
{
	unsigned int i;

	if (!p->xn.connected) {
		for (i = 0; i < p->xn.cfg.queues; i++)
			nb_pair(p, i)->txq.carrier.stalled = false;
		p->carrier.stalled_queues = 0;
		xn_port_carrier(&p->xn, true);
		return;
	}
	if (p->carrier.armed || p->cfg.stall_timeout_ms == 0 ||
	    !p->fe.rx_notify)
		return;
	if (rte_eal_alarm_set(nb_carrier_period_us(p), nb_carrier_alarm, p) ==
	    0)
		p->carrier.armed = true;
	else
		NB_LOG(WARNING, "%s: cannot arm the alarm that watches guest RX for stalls: the link stays up",
		       p->be_dir);
}

void
nb_carrier_uninit(struct nb_port *p)
{
	/* Disconnected already: a running alarm does not arm another. */
	rte_eal_alarm_cancel(nb_carrier_alarm, p);
}
