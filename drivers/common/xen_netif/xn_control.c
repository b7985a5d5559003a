/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The interrupt-thread callbacks of a port (see xn_control.h). Each takes
 * the port's lock for what it changes and reports a link change after
 * letting it go.
 *
 * Every port shares this thread, and a guest decides how often its
 * xenstore watches and its control ring's channel fire: so each callback
 * takes at most XN_EVENTS_PER_CALL events and returns, and the thread
 * comes back to a descriptor still readable after serving the others.
 * The control ring's channel is unmasked only once its event has been
 * served (Linux's late EOI), and after an event that found nothing to
 * serve only after a delay that doubles up to XN_CTRL_BACKOFF_MAX_US
 * (Linux's answer to spurious events, XSA-332): a guest notifying in a
 * loop is then heard a few times a second at most, and counted.
 *
 * A guest also decides how much work its control requests are (an ADD or
 * DEL maps or unmaps up to a page of grants and waits out the bursts of
 * its queue pair): each turn serves a budget of grant operations
 * (netif_ctrl_back.h) and leaves the rest to a turn of its own, on an alarm, so
 * that every other port's watches, events and alarms are served in
 * between (ports take turns). A ring that keeps its budget full turn
 * after turn is served less and less often, as a spurious event is, and
 * counted: a guest looping ADD and DEL cannot hold up another guest's
 * handshake beyond about one turn per step.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_cycles.h>
#include <rte_interrupts.h>

#include "xn_control.h"

#define XN_EVENTS_PER_CALL 32
#define XN_CTRL_BACKOFF_MIN_US 1000u
#define XN_CTRL_BACKOFF_MAX_US 250000u
/* A turn's budget spent and more waiting: serve the rest this soon. */
#define XN_CTRL_MORE_US 100u
/*
 * So many such turns in a row are a burst (an honest frontend adding the
 * static grants of a few queue pairs at connect); from the next one on,
 * the delay doubles up to XN_CTRL_BUSY_MAX_US, where a ring kept full
 * takes about a budget's work (a millisecond or so of mapping) every
 * 20 ms, some 5 % of the thread, and a ring full of whole-page requests
 * is still answered within about 3 s. It is served at full speed again
 * once a turn leaves part of its budget.
 */
#define XN_CTRL_BUSY_TURNS 4u
#define XN_CTRL_BUSY_MAX_US 20000u
/* A ring kept full is logged at most this often per port. */
#define XN_CTRL_BUSY_LOG_S 5u

void
xn_control_call(struct xn_port *p, void (*fn)(struct xn_port *p))
{
	bool was_up;

	pthread_mutex_lock(&p->lock);
	was_up = xn_port_link_up(p);
	fn(p);
	pthread_mutex_unlock(&p->lock);
	xn_port_lsc(p, was_up);
	xn_port_announce_removal(p);
}

static void
follow_peer(struct xn_port *p)
{
	xn_ops_of(p)->update(p);
}

static void
on_xenstore(void *arg)
{
	struct xn_port *p = arg;
	char **ev;

	unsigned int n = 0;

	/* Which watch fired does not matter: the PMD re-reads its states. */
	while (n++ < XN_EVENTS_PER_CALL &&
	       (ev = xa_xs_check_watch(p->xa)) != NULL)
		free(ev);
	xn_control_call(p, follow_peer);
}

static void serve_ctrl(struct xn_port *p, bool event);

/*
 * Under the lock: the alarm's delay is over. After a turn that left work
 * waiting, serve the next; after an event that found nothing, only listen
 * again: an event the guest sent meanwhile is pending, and unmasking
 * delivers it, while serving would count a guest's silence as spurious.
 */
static void
ctrl_alarm(struct xn_port *p)
{
	if (p->ctrl_serving.alarm_serves) {
		serve_ctrl(p, false);
		return;
	}
	p->ctrl_serving.alarm_armed = false;
	if (p->ctrl_evtchn != XN_NO_EVTCHN)
		xa_evtchn_unmask(xa_evtchn(p->xa), p->ctrl_evtchn);
}

static void
on_ctrl_alarm(void *arg)
{
	xn_control_call(arg, ctrl_alarm);
}

/*
 * A turn spent its budget with requests still waiting: how long before
 * the next one.
 */
static uint32_t
ctrl_busy_delay(struct xn_port *p)
{
	uint64_t now;

	p->ctrl_serving.budget_exhausted++;
	if (++p->ctrl_serving.busy_turns <= XN_CTRL_BUSY_TURNS) {
		p->ctrl_serving.backoff_us = 0;
		return XN_CTRL_MORE_US;
	}
	p->ctrl_serving.backoff_us = RTE_MIN(
		RTE_MAX(2 * p->ctrl_serving.backoff_us, 2 * XN_CTRL_MORE_US),
		XN_CTRL_BUSY_MAX_US);
	now = rte_get_timer_cycles();
	if (p->ctrl_serving.busy_turns == XN_CTRL_BUSY_TURNS + 1 &&
	    (p->ctrl_serving.busy_logged == 0 ||
	     now - p->ctrl_serving.busy_logged >=
		     XN_CTRL_BUSY_LOG_S * rte_get_timer_hz())) {
		p->ctrl_serving.busy_logged = now;
		XN_LOG(p, WARNING,
		       "the peer keeps its control ring's budget full (%" PRIu64
		       " turns so far, ctrl_budget_exhausted): its turns come up to %u ms apart until it lets up",
		       p->ctrl_serving.budget_exhausted,
		       XN_CTRL_BUSY_MAX_US / 1000);
	}
	/* At most XN_CTRL_BUSY_MAX_US. */
	return (uint32_t)p->ctrl_serving.backoff_us;
}

/*
 * Under the lock: @delay us from now, serve the control ring (@serves) or
 * unmask its channel.
 */
static bool
ctrl_later(struct xn_port *p, uint32_t delay, bool serves)
{
	if (p->ctrl_serving.alarm_armed) {
		/* One set only to unmask now serves what waits, too. */
		p->ctrl_serving.alarm_serves |= serves;
		return true;
	}
	if (rte_eal_alarm_set(delay, on_ctrl_alarm, p) != 0)
		return false;
	p->ctrl_serving.alarm_armed = true;
	p->ctrl_serving.alarm_serves = serves;
	return true;
}

/*
 * Under the lock: serve the control ring, on its channel's @event or on a
 * turn of its own, then decide when to hear it.
 */
static void
serve_ctrl(struct xn_port *p, bool event)
{
	evtchn_port_t port = p->ctrl_evtchn;
	unsigned int found;
	uint32_t delay;
	bool more;

	p->ctrl_serving.alarm_armed = false;
	found = xn_ops_of(p)->ctrl(p, &more);
	if (p->ctrl_evtchn != port || port == XN_NO_EVTCHN)
		return;		/* disconnected meanwhile */
	if (!more && (found > 0 || !event)) {
		/* Done, with budget left (or a turn found the rest gone). */
		p->ctrl_serving.backoff_us = 0;
		p->ctrl_serving.busy_turns = 0;
		xa_evtchn_unmask(xa_evtchn(p->xa), port);
		return;
	}
	if (more) {
		delay = ctrl_busy_delay(p);
	} else {
		p->ctrl_serving.spurious++;
		p->ctrl_serving.busy_turns = 0;
		p->ctrl_serving.backoff_us =
			RTE_MIN(RTE_MAX(2 * p->ctrl_serving.backoff_us,
					XN_CTRL_BACKOFF_MIN_US),
				XN_CTRL_BACKOFF_MAX_US);
		delay = p->ctrl_serving.backoff_us;
	}
	/*
	 * The alarm serves or unmasks later: until then the channel stays
	 * masked, and what the guest sends waits, pending; while its ring
	 * holds requests, notifying tells us nothing new.
	 */
	if (!ctrl_later(p, delay, more))
		xa_evtchn_unmask(xa_evtchn(p->xa), port);
}

/*
 * The channel's event, heard while no alarm will serve: an alarm armed
 * only to unmask (the last connection's, as this event came through) is
 * cancelled, as the serve sets its own, so that never two run at once (two
 * chains of turns would halve a busy ring's pace). On the interrupt
 * thread no alarm is running, so the cancel does not wait.
 */
static void
serve_ctrl_event(struct xn_port *p)
{
	if (p->ctrl_serving.alarm_armed) {
		rte_eal_alarm_cancel(on_ctrl_alarm, p);
		p->ctrl_serving.alarm_armed = false;
	}
	serve_ctrl(p, true);
}

void
xn_control_ctrl_connected(struct xn_port *p)
{
	p->ctrl_serving.busy_turns = 0;
	p->ctrl_serving.backoff_us = 0;
}

void
xn_control_ctrl_more(struct xn_port *p)
{
	if (!ctrl_later(p, ctrl_busy_delay(p), true))
		XN_LOG(p, WARNING,
		       "cannot arm the control ring's alarm: what waits there is served at the peer's next event");
}

static void
on_event_channel(void *arg)
{
	struct xn_port *p = arg;
	unsigned int n = 0;
	bool ctrl = false;
	int port;

	/*
	 * Only the control ring's channel is bound here: each queue pair
	 * has its own endpoint (xn_intr.h). Events arrive masked; a stale
	 * port (of an earlier connection) stays so. While an alarm will
	 * serve, it serves this too; one that will only unmask was set for
	 * the channel this event could not come through (it stays masked
	 * until then), so the event is a new connection's: served now.
	 */
	pthread_mutex_lock(&p->lock);
	while (n++ < XN_EVENTS_PER_CALL &&
	       (port = xa_evtchn_pending(xa_evtchn(p->xa))) >= 0)
		if ((evtchn_port_t)port == p->ctrl_evtchn) {
			p->ctrl_serving.events++;
			ctrl = !p->ctrl_serving.alarm_armed ||
			       !p->ctrl_serving.alarm_serves;
		}
	pthread_mutex_unlock(&p->lock);
	if (ctrl && xn_ops_of(p)->ctrl != NULL)
		xn_control_call(p, serve_ctrl_event);
}

static void
take_failure(struct xn_port *p)
{
	/* Acquire: the reason was stored before the flag was. */
	const char *why = __atomic_load_n(&p->failed, __ATOMIC_ACQUIRE);

	/* Already disconnected for another reason: nothing left to do. */
	if (why == NULL || !p->connected)
		return;
	XN_LOG(p, ERR, "the peer broke the protocol (%s): disconnecting",
	       why);
	xn_ops_of(p)->failed(p, why);
}

static void
on_failure(void *arg)
{
	struct xn_port *p = arg;
	uint64_t n;

	if (read(p->fail_fd, &n, sizeof(n)) != sizeof(n) && errno != EAGAIN)
		XN_LOG(p, ERR, "failure report: %s", strerror(errno));
	xn_control_call(p, take_failure);
}

static int
watch_fd(struct xn_port *p, struct rte_intr_handle **ih, int fd,
	 rte_intr_callback_fn cb)
{
	int ret;

	/* The descriptors are this process's own: private instances. */
	*ih = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (*ih == NULL)
		return -ENOMEM;
	ret = rte_intr_fd_set(*ih, fd);
	if (ret == 0)
		ret = rte_intr_type_set(*ih, RTE_INTR_HANDLE_EXT);
	if (ret == 0)
		ret = rte_intr_callback_register(*ih, cb, p);
	if (ret != 0) {
		rte_intr_instance_free(*ih);
		*ih = NULL;
	}
	return ret;
}

static void
unwatch_fd(struct xn_port *p, struct rte_intr_handle **ih,
	   rte_intr_callback_fn cb)
{
	if (*ih == NULL)
		return;
	/* Waits for a running callback to return. */
	rte_intr_callback_unregister_sync(*ih, cb, p);
	rte_intr_instance_free(*ih);
	*ih = NULL;
}

int
xn_control_start(struct xn_port *p)
{
	int ret;

	xn_control_call(p, follow_peer);
	ret = watch_fd(p, &p->xs_intr, xa_xs_fileno(p->xa), on_xenstore);
	if (ret == 0)
		ret = watch_fd(p, &p->evtchn_intr,
			       xa_evtchn_fd(xa_evtchn(p->xa)),
			       on_event_channel);
	if (ret == 0)
		ret = watch_fd(p, &p->fail_intr, p->fail_fd, on_failure);
	if (ret != 0) {
		XN_LOG(p, ERR, "cannot register with the interrupt thread: %s",
		       strerror(-ret));
		xn_control_stop(p);
	}
	return ret;
}

void
xn_control_stop(struct xn_port *p)
{
	unwatch_fd(p, &p->xs_intr, on_xenstore);
	unwatch_fd(p, &p->evtchn_intr, on_event_channel);
	unwatch_fd(p, &p->fail_intr, on_failure);
	/* Waits for a running one; the channel goes with the connection. */
	rte_eal_alarm_cancel(on_ctrl_alarm, p);
	p->ctrl_serving.alarm_armed = false;
}
