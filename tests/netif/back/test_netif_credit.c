/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The vif's rate limit (netif_credit.h) on a clock the test moves: one
 * window's bytes at once, then one window's more at each window; a frame
 * larger than a window waits until windows add up to it, up to a burst of
 * max(128 KiB, bytes); windows a poller missed still add their bytes,
 * up to that burst, so the rate holds when the host holds the poller up; a new rate cuts what is left, and a shorter window begins within
 * itself; credit spent on a frame that then
 * waits comes back; and without a rate everything passes.
 */

#include "netif_credit.h"
#include "test.h"

/* A clock of a million cycles a second: a cycle is a microsecond. */
#define HZ 1000000
#define T0 5000000		/* any time but 0 */

static struct netif_credit c;

static void
limit(uint64_t bytes, uint64_t usec)
{
	netif_credit_init(&c, HZ);
	netif_credit_set(&c, bytes, usec);
}

static void
test_without_a_rate_everything_passes(void)
{
	unsigned int i;

	netif_credit_init(&c, HZ);
	for (i = 0; i < 1000; i++)
		CHECK(netif_credit_take(&c, 65535, T0));
}

static void
test_a_window_of_bytes_passes_then_the_next_window(void)
{
	limit(1000, 1000);
	CHECK(netif_credit_take(&c, 600, T0));
	CHECK(netif_credit_take(&c, 400, T0));
	CHECK(!netif_credit_take(&c, 1, T0));
	CHECK(!netif_credit_take(&c, 1, T0 + 999));
	CHECK(netif_credit_take(&c, 1000, T0 + 1000));
	CHECK(!netif_credit_take(&c, 1, T0 + 1000));
	/* Windows keep their pace: the next begins at T0 + 2000. */
	CHECK(!netif_credit_take(&c, 1, T0 + 1999));
	CHECK(netif_credit_take(&c, 1, T0 + 2000));
}

static void
test_a_frame_larger_than_a_window_waits_for_enough_windows(void)
{
	unsigned int w;

	limit(1000, 1000);
	for (w = 0; w < 4; w++)
		CHECK(!netif_credit_take(&c, 5000, T0 + w * 1000));
	CHECK(netif_credit_take(&c, 5000, T0 + 4 * 1000));
	CHECK(!netif_credit_take(&c, 1, T0 + 4 * 1000));
}

static void
test_credit_stops_at_the_burst(void)
{
	limit(100000, 1000);
	CHECK(!netif_credit_take(&c, NETIF_CREDIT_MIN_BURST + 1, T0));
	/* 100000 + 100000 is cut to the burst, 128 KiB. */
	CHECK(!netif_credit_take(&c, NETIF_CREDIT_MIN_BURST + 1, T0 + 1000));
	CHECK(netif_credit_take(&c, NETIF_CREDIT_MIN_BURST, T0 + 1000));
}

static void
test_windows_a_poller_missed_still_count_up_to_the_burst(void)
{
	limit(1000, 1000);
	CHECK(netif_credit_take(&c, 1000, T0));
	/* Held up for ten windows: ten windows' bytes, the pace kept. */
	CHECK(netif_credit_take(&c, 10000, T0 + 10500));
	CHECK(!netif_credit_take(&c, 1, T0 + 10500));
	CHECK(!netif_credit_take(&c, 1, T0 + 10999));
	CHECK(netif_credit_take(&c, 1000, T0 + 11000));
	/* Idle for a long time: no more than the burst. */
	CHECK(netif_credit_take(&c, NETIF_CREDIT_MIN_BURST, T0 + 1000000000));
	CHECK(!netif_credit_take(&c, 1, T0 + 1000000000));
}

static void
test_a_new_rate_cuts_the_credit_left(void)
{
	limit(1000, 1000);
	CHECK(netif_credit_take(&c, 100, T0));
	netif_credit_set(&c, 500, 1000);
	CHECK(netif_credit_take(&c, 500, T0));
	CHECK(!netif_credit_take(&c, 1, T0));
	/* And its windows add its bytes. */
	CHECK(netif_credit_take(&c, 500, T0 + 1000));
	CHECK(!netif_credit_take(&c, 1, T0 + 1000));
	netif_credit_set(&c, 0, 0);
	CHECK(netif_credit_take(&c, 65535, T0 + 1000));
	/* Limited again: a fresh window's bytes. */
	netif_credit_set(&c, 2000, 1000);
	CHECK(netif_credit_take(&c, 2000, T0 + 1000));
	CHECK(!netif_credit_take(&c, 1, T0 + 1000));
}

static void
test_a_shorter_window_begins_within_itself(void)
{
	limit(1000, 16000000);
	CHECK(netif_credit_take(&c, 1000, T0));
	CHECK(!netif_credit_take(&c, 1, T0 + 500));
	netif_credit_set(&c, 1000, 1000);
	CHECK(!netif_credit_take(&c, 1, T0 + 500));
	CHECK(netif_credit_take(&c, 1000, T0 + 1500));
}

static void
test_a_refund_gives_back_what_a_waiting_frame_spent(void)
{
	limit(1000, 1000);
	CHECK(netif_credit_take(&c, 1000, T0));
	netif_credit_refund(&c, 1000);
	CHECK(netif_credit_take(&c, 1000, T0));
	CHECK(!netif_credit_take(&c, 1, T0));
}

TEST_MAIN(NULL, NULL)
{
	RUN(test_without_a_rate_everything_passes);
	RUN(test_a_window_of_bytes_passes_then_the_next_window);
	RUN(test_a_frame_larger_than_a_window_waits_for_enough_windows);
	RUN(test_credit_stops_at_the_burst);
	RUN(test_windows_a_poller_missed_still_count_up_to_the_burst);
	RUN(test_a_new_rate_cuts_the_credit_left);
	RUN(test_a_shorter_window_begins_within_itself);
	RUN(test_a_refund_gives_back_what_a_waiting_frame_spent);
}
