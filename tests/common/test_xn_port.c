/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * What both PMDs' ports do alike (drivers/common/xen_netif/xn_port.h),
 * specified on a port over the simulated hypervisor: each publish of a
 * ring index is counted exactly once, as a notification sent, suppressed
 * or failed; the first protocol violation of a connection is kept and
 * wakes the control thread once; a burst enters a queue only while the
 * gate is open and only if the peer connected its pair.
 */

#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "test.h"
#include "xn_port.h"
#include "xsim/xsim_test.h"

#define BACKEND 0
#define FRONTEND 1

static uint64_t
publishes(const struct xn_notify_stats *st)
{
	return st->sent + st->suppressed + st->failed;
}

static void
test_each_publish_is_counted_once(void)
{
	struct xa_handle *be = open_dom(BACKEND), *fe = open_dom(FRONTEND);
	struct xn_port port = { 0 };
	struct xn_queue q = { .port = &port };
	evtchn_port_t remote;

	REQUIRE(be != NULL && fe != NULL);
	q.endpoint = xa_evtchn(be);
	remote = xa_evtchn_bind_unbound(xa_evtchn(fe), BACKEND);
	REQUIRE(remote != (evtchn_port_t)-1);
	q.evtchn = xa_evtchn_bind_interdomain(xa_evtchn(be), FRONTEND, remote);
	REQUIRE(q.evtchn != (evtchn_port_t)-1);

	xn_doorbell(&q, NETIF_DOORBELL_NONE);
	CHECK(publishes(&q.notify) == 0);
	xn_doorbell(&q, NETIF_DOORBELL_QUIET);
	CHECK(q.notify.suppressed == 1 && publishes(&q.notify) == 1);
	xn_doorbell(&q, NETIF_DOORBELL_RING);
	CHECK(q.notify.sent == 1 && publishes(&q.notify) == 2);
	CHECK(xa_evtchn_pending(xa_evtchn(fe)) == (int)remote);
	/* A port we do not hold: the notify fails, and is not "sent". */
	q.evtchn = q.evtchn + 100;
	xn_doorbell(&q, NETIF_DOORBELL_RING);
	CHECK(q.notify.failed == 1 && q.notify.sent == 1);
	CHECK(publishes(&q.notify) == 3);
	xa_close(fe);
	xa_close(be);
}

static void
test_first_violation_is_kept_and_reported_once(void)
{
	struct xn_port port = { .fail_fd = eventfd(0, EFD_NONBLOCK) };
	uint64_t n = 0;

	REQUIRE(port.fail_fd >= 0);
	xn_fail(&port, "first");
	xn_fail(&port, "second");
	CHECK(port.failed != NULL && strcmp(port.failed, "first") == 0);
	CHECK(read(port.fail_fd, &n, sizeof(n)) == sizeof(n) && n == 1);
	/* A new connection forgets it; the next violation is reported. */
	port.connected = false;
	xn_port_connected(&port, 1);
	CHECK(port.failed == NULL && port.connected && port.nb_pairs == 1);
	xn_fail(&port, "third");
	CHECK(read(port.fail_fd, &n, sizeof(n)) == sizeof(n) && n == 1);
	close(port.fail_fd);
}

static void
test_bursts_enter_only_open_connected_queues(void)
{
	struct xn_port port = { .nb_pairs = 1 };
	struct xn_queue q0 = { .port = &port, .queue_id = 0 };
	struct xn_queue q1 = { .port = &port, .queue_id = 1 };

	CHECK(!xn_queue_enter(&q0) && q0.busy == 0);
	port.datapath_ready = 1;
	CHECK(xn_queue_enter(&q0) && q0.busy == 1);
	xn_queue_leave(&q0);
	CHECK(q0.busy == 0);
	/* Pair 1 was not connected by the peer: it has no rings. */
	CHECK(!xn_queue_enter(&q1) && q1.busy == 0);
}

TEST_MAIN(xsim_test_setup, xsim_test_teardown)
{
	RUN(test_each_publish_is_counted_once);
	RUN(test_first_violation_is_kept_and_reported_once);
	RUN(test_bursts_enter_only_open_connected_queues);
}
