/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * How soon a frontend that keeps failing may connect again. A guest can
 * break the protocol, go through Closing and Initialising, connect and
 * break it again, forever: each round maps and unmaps its rings and logs.
 * So after its second failure in a row the backend waits before it offers
 * InitWait again, fail_backoff_ms (devarg, default 100 ms; 0: never),
 * doubling with each further failure up to 30 s; a connection that lasted
 * NB_BACKOFF_FORGIVE_S before it failed starts the count afresh. An
 * alarm re-runs the handshake when the wait is over.
 */

#include <rte_alarm.h>
#include <rte_cycles.h>

#include "nb.h"
#include "xn_info.h"
#include "xn_control.h"

#define NB_BACKOFF_MAX_MS 30000u
#define NB_BACKOFF_FORGIVE_S 10u

static void
nb_backoff_retry(struct xn_port *xn)
{
	nb_port(xn)->backoff.armed = false;
	xn_ops_of(xn)->update(xn);
}

static void
nb_backoff_on_retry_alarm(void *arg)
{
	xn_control_call(arg, nb_backoff_retry);
}

void
nb_backoff_connected(struct nb_port *p)
{
	p->backoff.connected_at = rte_get_timer_cycles();
}

void
nb_backoff_failed(struct nb_port *p, const char *why)
{
	uint64_t now = rte_get_timer_cycles(), hz = rte_get_timer_hz();
	uint32_t ms = 0;

	if (p->backoff.connected_at != 0 &&
	    now - p->backoff.connected_at >= NB_BACKOFF_FORGIVE_S * hz)
		p->backoff.failures = 0;
	p->backoff.connected_at = 0;
	p->backoff.failures++;
	if (p->backoff.failures >= 2)
		ms = RTE_MIN((uint64_t)p->cfg.fail_backoff_ms <<
			     RTE_MIN(p->backoff.failures - 2, 16u),
			     (uint64_t)NB_BACKOFF_MAX_MS);
	p->backoff.retry_at = now + ms * hz / 1000;
	NB_LOG(WARNING, "%s: frontend failed (%s), %u time%s in a row: next connect in %u ms",
	       p->fe_dir, why, p->backoff.failures, p->backoff.failures == 1 ? "" : "s", ms);
}

bool
nb_backoff_wait(struct nb_port *p)
{
	uint64_t now = rte_get_timer_cycles();

	if (now >= p->backoff.retry_at)
		return false;
	if (!p->backoff.armed &&
	    rte_eal_alarm_set(
		    (p->backoff.retry_at - now) * 1000000 / rte_get_timer_hz() + 1,
		    nb_backoff_on_retry_alarm, &p->xn) == 0)
		p->backoff.armed = true;
	return p->backoff.armed;
}

void
nb_backoff_uninit(struct nb_port *p)
{
	rte_eal_alarm_cancel(nb_backoff_on_retry_alarm, &p->xn);
	p->backoff.armed = false;
}

void
nb_backoff_info(const struct nb_port *p, struct xn_info *w)
{
	w->u64(w, "failures_in_a_row", p->backoff.failures);
}
