/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The frontend's xenbus state table: for each (our state, backend state)
 * the state we publish next and what we do first. Read top to bottom it is
 * the life of a vif: connect, serve, close, reconnect.
 */

#include "xenbus_front.h"
#include "test.h"

#define STEP_IS(fe, be, nx, act) do { \
	struct xenbus_front_step s_ = xenbus_front_next(fe, be); \
	CHECK(s_.next == (nx)); \
	CHECK(s_.action == (act)); \
} while (0)

static void
fresh_frontend_starts_initialising(void)
{
	STEP_IS(XenbusStateUnknown, XenbusStateInitialising,
		XenbusStateInitialising, XENBUS_FRONT_NONE);
	STEP_IS(XenbusStateUnknown, XenbusStateConnected,
		XenbusStateInitialising, XENBUS_FRONT_NONE);
}

static void
initialising_waits_for_the_backend(void)
{
	STEP_IS(XenbusStateInitialising, XenbusStateUnknown,
		XenbusStateInitialising, XENBUS_FRONT_NONE);
	STEP_IS(XenbusStateInitialising, XenbusStateInitialising,
		XenbusStateInitialising, XENBUS_FRONT_NONE);
	STEP_IS(XenbusStateInitialising, XenbusStateClosed,
		XenbusStateInitialising, XENBUS_FRONT_NONE);
}

static void
backend_initwait_makes_us_connect(void)
{
	STEP_IS(XenbusStateInitialising, XenbusStateInitWait,
		XenbusStateConnected, XENBUS_FRONT_CONNECT);
}

static void
backend_still_serving_an_earlier_instance_is_closed_first(void)
{
	STEP_IS(XenbusStateInitialising, XenbusStateConnected,
		XenbusStateClosing, XENBUS_FRONT_NONE);
}

static void
connected_link_follows_the_backend(void)
{
	STEP_IS(XenbusStateConnected, XenbusStateInitWait,
		XenbusStateConnected, XENBUS_FRONT_LINK_DOWN);
	STEP_IS(XenbusStateConnected, XenbusStateConnected,
		XenbusStateConnected, XENBUS_FRONT_LINK_UP);
	/* A restarted backend maps our rings again from the start. */
	STEP_IS(XenbusStateConnected, XenbusStateInitialising,
		XenbusStateConnected, XENBUS_FRONT_LINK_DOWN);
}

static void
backend_closing_makes_us_disconnect(void)
{
	STEP_IS(XenbusStateConnected, XenbusStateClosing,
		XenbusStateClosed, XENBUS_FRONT_DISCONNECT);
	STEP_IS(XenbusStateConnected, XenbusStateClosed,
		XenbusStateClosed, XENBUS_FRONT_DISCONNECT);
	STEP_IS(XenbusStateInitialising, XenbusStateClosing,
		XenbusStateClosed, XENBUS_FRONT_DISCONNECT);
}

static void
backend_vanishing_makes_us_disconnect(void)
{
	STEP_IS(XenbusStateConnected, XenbusStateUnknown,
		XenbusStateClosed, XENBUS_FRONT_DISCONNECT);
}

static void
our_closing_waits_until_the_backend_lets_go(void)
{
	STEP_IS(XenbusStateClosing, XenbusStateConnected,
		XenbusStateClosing, XENBUS_FRONT_NONE);
	STEP_IS(XenbusStateClosing, XenbusStateInitWait,
		XenbusStateClosing, XENBUS_FRONT_NONE);
	STEP_IS(XenbusStateClosing, XenbusStateClosing,
		XenbusStateClosed, XENBUS_FRONT_DISCONNECT);
	STEP_IS(XenbusStateClosing, XenbusStateClosed,
		XenbusStateClosed, XENBUS_FRONT_DISCONNECT);
	STEP_IS(XenbusStateClosing, XenbusStateUnknown,
		XenbusStateClosed, XENBUS_FRONT_DISCONNECT);
}

static void
closed_reconnects_when_the_backend_is_ready(void)
{
	STEP_IS(XenbusStateClosed, XenbusStateClosing,
		XenbusStateClosed, XENBUS_FRONT_NONE);
	STEP_IS(XenbusStateClosed, XenbusStateConnected,
		XenbusStateClosed, XENBUS_FRONT_NONE);
	STEP_IS(XenbusStateClosed, XenbusStateUnknown,
		XenbusStateClosed, XENBUS_FRONT_NONE);
	STEP_IS(XenbusStateClosed, XenbusStateClosed,
		XenbusStateInitialising, XENBUS_FRONT_NONE);
	STEP_IS(XenbusStateClosed, XenbusStateInitialising,
		XenbusStateInitialising, XENBUS_FRONT_NONE);
	STEP_IS(XenbusStateClosed, XenbusStateInitWait,
		XenbusStateInitialising, XENBUS_FRONT_NONE);
}

static void
reconfiguring_is_never_asked_for_and_ignored(void)
{
	STEP_IS(XenbusStateConnected, XenbusStateReconfiguring,
		XenbusStateConnected, XENBUS_FRONT_LINK_DOWN);
	STEP_IS(XenbusStateInitialising, XenbusStateReconfigured,
		XenbusStateInitialising, XENBUS_FRONT_NONE);
}

/* From any pair of states, following the table settles in a few steps. */
static void
every_state_pair_settles(void)
{
	int fe, be;

	for (fe = XenbusStateUnknown; fe <= XenbusStateReconfigured; fe++) {
		for (be = XenbusStateUnknown; be <= XenbusStateReconfigured;
		     be++) {
			enum xenbus_state s = fe;
			int steps = 0;

			for (;;) {
				struct xenbus_front_step st =
					xenbus_front_next(s, be);

				if (st.next == s)
					break;
				s = st.next;
				if (++steps > 4)
					break;
			}
			CHECK(steps <= 4);
		}
	}
}

TEST_MAIN(NULL, NULL)
{
	RUN(fresh_frontend_starts_initialising);
	RUN(initialising_waits_for_the_backend);
	RUN(backend_initwait_makes_us_connect);
	RUN(backend_still_serving_an_earlier_instance_is_closed_first);
	RUN(connected_link_follows_the_backend);
	RUN(backend_closing_makes_us_disconnect);
	RUN(backend_vanishing_makes_us_disconnect);
	RUN(our_closing_waits_until_the_backend_lets_go);
	RUN(closed_reconnects_when_the_backend_is_ready);
	RUN(reconfiguring_is_never_asked_for_and_ignored);
	RUN(every_state_pair_settles);
}
