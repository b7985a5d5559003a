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
#define R XenbusStateReconfiguring
#define Rd XenbusStateReconfigured

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

/*
 * Linux netfront changes its XDP headroom through Reconfiguring and waits
 * for Reconfigured without a timeout: a connected backend answers each
 * time, goes back to Connected when the frontend does, and treats
 * Reconfigured as Connected otherwise.
 */
static void
test_frontend_reconfiguring_is_answered(void)
{
	CHECK(xenbus_back_next(C, R) == XENBUS_BACK_RECONFIGURE);
	CHECK(xenbus_back_next(Rd, R) == XENBUS_BACK_RECONFIGURE);
	CHECK(xenbus_back_next(Rd, C) == XENBUS_BACK_RESUME);
	CHECK(xenbus_back_next(Rd, D) == XENBUS_BACK_NONE);
	CHECK(xenbus_back_next(Rd, I) == XENBUS_BACK_RESET);
	CHECK(xenbus_back_next(Rd, G) == XENBUS_BACK_CLOSE);
	CHECK(xenbus_back_next(Rd, X) == XENBUS_BACK_CLOSED);
	/* A restarted backend re-attaches first. */
	CHECK(xenbus_back_next(I, R) == XENBUS_BACK_CONNECT);
	CHECK(xenbus_back_next(W, R) == XENBUS_BACK_CONNECT);
	/* Closing or closed, we stay away; a frontend never is Reconfigured. */
	CHECK(xenbus_back_next(G, R) == XENBUS_BACK_NONE);
	CHECK(xenbus_back_next(X, R) == XENBUS_BACK_NONE);
	CHECK(xenbus_back_next(C, Rd) == XENBUS_BACK_NONE);
}

static void
test_state_names_cover_garbage(void)
{
	CHECK(strcmp(xenbus_state_name(C), "Connected") == 0);
	CHECK(strcmp(xenbus_state_name((enum xenbus_state)99), "Invalid") == 0);
}

/* The toolstack's `rate` key, as libxl writes it and as it must not be. */
static const struct {
	const char *value;
	bool ok;
	uint64_t bytes, usec;
} rate_cases[] = {
	{ NULL, true, 0, 0 },			/* absent: no limit */
	{ "", true, 0, 0 },
	{ "125000,20000", true, 125000, 20000 },	/* libxl: 50 Mb/s@20ms */
	{ "1000,16777215", true, 1000, 16777215 },
	{ "1099511627775,1", true, 1099511627775, 1 },
	{ "0,20000", false, 0, 0 },		/* nothing ever passes */
	{ "125000,0", false, 0, 0 },		/* a window of no time */
	{ "125000", false, 0, 0 },
	{ "125000,", false, 0, 0 },
	{ ",20000", false, 0, 0 },
	{ "125000,20000x", false, 0, 0 },
	{ "125000, 20000", false, 0, 0 },
	{ "-1,20000", false, 0, 0 },
	{ "1099511627776,20000", false, 0, 0 },	/* beyond the bytes max */
	{ "125000,16777216", false, 0, 0 },	/* a window of 16.8 s */
	{ "99999999999999999999999,1", false, 0, 0 },	/* overflows */
};

static void
test_rate_key_is_parsed_and_bad_values_refused(void)
{
	struct xenbus_back_rate r;
	char why[XENBUS_WHY_MAX];
	unsigned int i;

	for (i = 0; i < sizeof(rate_cases) / sizeof(rate_cases[0]); i++) {
		bool ok;

		why[0] = '\0';
		ok = xenbus_back_parse_rate(rate_cases[i].value,
					    (UINT64_C(1) << 40) - 1,
					    (UINT64_C(1) << 24) - 1, &r, why);
		CHECK(ok == rate_cases[i].ok);
		CHECK(r.bytes == rate_cases[i].bytes);
		CHECK(r.usec == rate_cases[i].usec);
		/* A refusal says why, for the log line. */
		CHECK(ok || strncmp(why, "rate: ", 6) == 0);
	}
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
	RUN(test_frontend_reconfiguring_is_answered);
	RUN(test_state_names_cover_garbage);
	RUN(test_rate_key_is_parsed_and_bad_values_refused);
}
