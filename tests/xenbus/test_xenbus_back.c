/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The backend's xenbus transitions, as a table: for each of our states and
 * each state the frontend may report, the step the backend takes.
 */

#include "xenbus_back.h"
#include <string.h>

#include "test.h"

#define I XenbusStateInitialising
#define W XenbusStateInitWait
#define D XenbusStateInitialised
#define C XenbusStateConnected
#define G XenbusStateClosing
#define X XenbusStateClosed
#define U XenbusStateUnknown

static void
test_frontend_initialising_gets_init_wait(void)
{
	CHECK(xenbus_back_next(I, I) == XENBUS_BACK_INIT_WAIT);
	CHECK(xenbus_back_next(X, I) == XENBUS_BACK_INIT_WAIT);
	CHECK(xenbus_back_next(W, I) == XENBUS_BACK_NONE);
}

static void
test_frontend_restarting_while_connected_is_reset(void)
{
	CHECK(xenbus_back_next(C, I) == XENBUS_BACK_RESET);
}

static void
test_frontend_connected_after_init_wait_connects(void)
{
	CHECK(xenbus_back_next(W, C) == XENBUS_BACK_CONNECT);
	CHECK(xenbus_back_next(W, D) == XENBUS_BACK_CONNECT);
	CHECK(xenbus_back_next(C, C) == XENBUS_BACK_NONE);
}

static void
test_restarted_backend_reattaches_to_connected_frontend(void)
{
	CHECK(xenbus_back_next(I, C) == XENBUS_BACK_CONNECT);
}

static void
test_closed_backend_ignores_a_frontend_still_connected(void)
{
	CHECK(xenbus_back_next(G, C) == XENBUS_BACK_NONE);
	CHECK(xenbus_back_next(X, C) == XENBUS_BACK_NONE);
}

static void
test_frontend_closing_closes(void)
{
	CHECK(xenbus_back_next(C, G) == XENBUS_BACK_CLOSE);
	CHECK(xenbus_back_next(W, G) == XENBUS_BACK_CLOSE);
	CHECK(xenbus_back_next(G, G) == XENBUS_BACK_NONE);
}

static void
test_frontend_closed_or_gone_closes_for_good(void)
{
	CHECK(xenbus_back_next(C, X) == XENBUS_BACK_CLOSED);
	CHECK(xenbus_back_next(G, X) == XENBUS_BACK_CLOSED);
	CHECK(xenbus_back_next(C, U) == XENBUS_BACK_CLOSED);
	CHECK(xenbus_back_next(X, X) == XENBUS_BACK_NONE);
}

static void
test_state_names_cover_garbage(void)
{
	CHECK(strcmp(xenbus_state_name(C), "Connected") == 0);
	CHECK(strcmp(xenbus_state_name((enum xenbus_state)99), "Invalid") == 0);
}

TEST_MAIN(NULL, NULL)
{
	RUN(test_frontend_initialising_gets_init_wait);
	RUN(test_frontend_restarting_while_connected_is_reset);
	RUN(test_frontend_connected_after_init_wait_connects);
	RUN(test_restarted_backend_reattaches_to_connected_frontend);
	RUN(test_closed_backend_ignores_a_frontend_still_connected);
	RUN(test_frontend_closing_closes);
	RUN(test_frontend_closed_or_gone_closes_for_good);
	RUN(test_state_names_cover_garbage);
}
