/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The connection keys in xenstore (on a simulator instance): what the
 * frontend writes for one queue and for several, the backend reads back
 * unchanged; a layout left by an earlier connection does not survive the
 * next; and the backend refuses a queue count it does not offer, or a
 * queue whose keys are missing, naming the key. A state is published only
 * when it changes, and never into a device directory the toolstack removed.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "xenbus_back.h"
#include "xenbus_front.h"
#include "xsim/xsim_test.h"

#define FE_DIR "/local/domain/1/device/vif/0"
#define BE_DIR "/local/domain/0/backend/vif/1/0"

static struct xa_handle *xs;

static struct xenbus_front_keys
keys_for(unsigned int nb_queues, bool split)
{
	struct xenbus_front_keys k = { .nb_queues = nb_queues,
				       .split_evtchn = split };
	unsigned int i;

	for (i = 0; i < nb_queues; i++)
		k.queue[i] = (struct xenbus_front_queue){
			.tx_ring_ref = 100 + 2 * i,
			.rx_ring_ref = 101 + 2 * i,
			.evtchn_tx = 10 + 2 * i,
			.evtchn_rx = 11 + 2 * i,
		};
	return k;
}

static bool
exists(const char *key)
{
	char path[XENBUS_PATH_MAX];
	unsigned int len;
	char *v;

	snprintf(path, sizeof(path), FE_DIR "/%s", key);
	v = xa_xs_read(xs, XBT_NULL, path, &len);
	free(v);
	return v != NULL;
}

/* Whether the backend's key @key says @want. */
static bool
backend_says(const char *key, const char *want)
{
	char path[XENBUS_PATH_MAX];
	unsigned int len;
	bool same;
	char *v;

	snprintf(path, sizeof(path), BE_DIR "/%s", key);
	v = xa_xs_read(xs, XBT_NULL, path, &len);
	same = v != NULL && strcmp(v, want) == 0;
	free(v);
	return same;
}

static void
set_key(const char *key, const char *value)
{
	char path[XENBUS_PATH_MAX];

	snprintf(path, sizeof(path), FE_DIR "/%s", key);
	REQUIRE(xa_xs_write(xs, XBT_NULL, path, value, strlen(value)));
}

static void
remove_key(const char *key)
{
	char path[XENBUS_PATH_MAX];

	snprintf(path, sizeof(path), FE_DIR "/%s", key);
	REQUIRE(xa_xs_rm(xs, XBT_NULL, path));
}

/* The frontend writes @k; true if the backend reads it back exactly. */
static bool
round_trip(const struct xenbus_front_keys *k, unsigned int max_queues)
{
	struct xenbus_back_frontend fe;
	char why[XENBUS_WHY_MAX];
	unsigned int i;

	if (!xenbus_front_write_keys(xs, FE_DIR, k))
		return false;
	memset(&fe, 0xa5, sizeof(fe));
	if (!xenbus_back_read_frontend(xs, FE_DIR, max_queues, &fe, why)) {
		fprintf(stderr, "refused: %s\n", why);
		return false;
	}
	if (fe.nb_queues != k->nb_queues || !fe.rx_notify)
		return false;
	for (i = 0; i < k->nb_queues; i++) {
		const struct xenbus_back_queue *b = &fe.queue[i];
		const struct xenbus_front_queue *f = &k->queue[i];

		if (b->tx_ring_ref != f->tx_ring_ref ||
		    b->rx_ring_ref != f->rx_ring_ref ||
		    b->split_evtchn != k->split_evtchn ||
		    b->evtchn_tx != f->evtchn_tx ||
		    b->evtchn_rx != (k->split_evtchn ? f->evtchn_rx :
						       f->evtchn_tx))
			return false;
	}
	return true;
}

/* True if the backend refuses the keys, naming @needle. */
static bool
refused(unsigned int max_queues, const char *needle)
{
	struct xenbus_back_frontend fe;
	char why[XENBUS_WHY_MAX] = "";

	if (xenbus_back_read_frontend(xs, FE_DIR, max_queues, &fe, why)) {
		fprintf(stderr, "accepted, expected \"%s\"\n", needle);
		return false;
	}
	if (strstr(why, needle) == NULL) {
		fprintf(stderr, "refused with \"%s\", expected \"%s\"\n", why,
			needle);
		return false;
	}
	return true;
}

static void
test_one_queue_keys_sit_at_the_top(void)
{
	struct xenbus_front_keys k = keys_for(1, false);

	CHECK(round_trip(&k, 1));
	CHECK(round_trip(&k, 4));
	CHECK(exists("tx-ring-ref") && exists("event-channel"));
	CHECK(!exists("queue-0"));
	k = keys_for(1, true);
	CHECK(round_trip(&k, 1));
	CHECK(exists("event-channel-tx") && !exists("event-channel"));
}

static void
test_queue_keys_sit_in_queue_directories(void)
{
	struct xenbus_front_keys k = keys_for(4, true);

	CHECK(round_trip(&k, 4));
	CHECK(round_trip(&k, XENBUS_VIF_MAX_QUEUES));
	CHECK(exists("queue-3/rx-ring-ref") && exists("queue-0/event-channel-rx"));
	/* netif.h: no top-level ring or event channel keys then. */
	CHECK(!exists("tx-ring-ref") && !exists("event-channel-tx"));
	k = keys_for(2, false);
	CHECK(round_trip(&k, 2));
	CHECK(exists("queue-1/event-channel"));
	CHECK(!exists("queue-1/event-channel-tx"));
	CHECK(!exists("queue-2") && !exists("queue-3"));
}

static void
test_back_to_one_queue_drops_the_directories(void)
{
	struct xenbus_front_keys k = keys_for(3, false);

	CHECK(round_trip(&k, 3));
	k = keys_for(1, false);
	CHECK(round_trip(&k, 3));
	CHECK(!exists("queue-0") && !exists("queue-2"));
}

static void
test_a_frontend_without_multi_queue_has_one_queue(void)
{
	struct xenbus_front_keys k = keys_for(1, false);
	struct xenbus_back_frontend fe;
	char why[XENBUS_WHY_MAX];

	REQUIRE(xenbus_front_write_keys(xs, FE_DIR, &k));
	remove_key("multi-queue-num-queues");
	CHECK(xenbus_back_read_frontend(xs, FE_DIR, 2, &fe, why));
	CHECK(fe.nb_queues == 1 && fe.queue[0].tx_ring_ref == 100);
}

static void
test_queue_counts_not_offered_are_refused(void)
{
	struct xenbus_front_keys k = keys_for(4, false);

	REQUIRE(xenbus_front_write_keys(xs, FE_DIR, &k));
	CHECK(refused(2, "multi-queue-num-queues is 4, not 1..2"));
	set_key("multi-queue-num-queues", "0");
	CHECK(refused(8, "multi-queue-num-queues is 0"));
}

static void
test_a_queue_missing_its_keys_is_named(void)
{
	struct xenbus_front_keys k = keys_for(2, true);

	REQUIRE(xenbus_front_write_keys(xs, FE_DIR, &k));
	remove_key("queue-1/rx-ring-ref");
	CHECK(refused(2, "queue-1/rx-ring-ref missing"));
	REQUIRE(xenbus_front_write_keys(xs, FE_DIR, &k));
	remove_key("queue-0/event-channel-rx");
	CHECK(refused(2, "queue-0/event-channel-tx without"));
	REQUIRE(xenbus_front_write_keys(xs, FE_DIR, &k));
	set_key("queue-1/tx-ring-ref", "-1");
	CHECK(refused(2, "queue-1/tx-ring-ref"));
}

static void
test_backend_offers_its_queue_count(void)
{
	struct xenbus_front_backend be;
	const char *why;

	REQUIRE(xa_xs_write(xs, XBT_NULL, BE_DIR "/state", "2", 1));
	REQUIRE(xenbus_back_write_features(xs, BE_DIR, 4, false));
	CHECK(xenbus_front_read_backend(xs, BE_DIR, &be, &why));
	CHECK(be.max_queues == 4 && be.split_evtchn);
	REQUIRE(xa_xs_write(xs, XBT_NULL, BE_DIR "/multi-queue-max-queues",
			    "1000", 4));
	CHECK(xenbus_front_read_backend(xs, BE_DIR, &be, &why));
	CHECK(be.max_queues == XENBUS_VIF_MAX_QUEUES);
	REQUIRE(xa_xs_rm(xs, XBT_NULL, BE_DIR "/multi-queue-max-queues"));
	CHECK(xenbus_front_read_backend(xs, BE_DIR, &be, &why));
	CHECK(be.max_queues == 1);
}

static void
test_backend_offers_gso_when_asked(void)
{
	struct xenbus_front_backend be;
	const char *why;

	REQUIRE(xenbus_back_write_features(xs, BE_DIR, 1, true));
	CHECK(xenbus_front_read_backend(xs, BE_DIR, &be, &why));
	CHECK(be.gso_tcpv4 && be.gso_tcpv6 && be.csum_ipv6);
	/* What a restarted backend finds its predecessor offered. */
	CHECK(xenbus_back_offered_gso(xs, BE_DIR));
	REQUIRE(xenbus_back_write_features(xs, BE_DIR, 1, false));
	CHECK(xenbus_front_read_backend(xs, BE_DIR, &be, &why));
	CHECK(!be.gso_tcpv4 && !be.gso_tcpv6 && be.csum_ipv6);
	CHECK(!xenbus_back_offered_gso(xs, BE_DIR));
	REQUIRE(xa_xs_rm(xs, XBT_NULL, BE_DIR "/feature-gso-tcpv4"));
	CHECK(!xenbus_back_offered_gso(xs, BE_DIR));
}

/* The frontend's offload keys, as the backend reads them back. */
static void
test_frontend_offloads_round_trip(void)
{
	struct xenbus_front_keys k = { .nb_queues = 1 };
	struct xenbus_back_frontend fe;
	char why[XENBUS_WHY_MAX];

	REQUIRE(xenbus_front_write_keys(xs, FE_DIR, &k));
	REQUIRE(xenbus_back_read_frontend(xs, FE_DIR, 1, &fe, why));
	CHECK(!fe.csum_ipv4 && !fe.csum_ipv6 && !fe.gso_tcpv4 &&
	      !fe.gso_tcpv6);
	k.csum_ipv4 = k.csum_ipv6 = k.gso_tcpv4 = true;
	REQUIRE(xenbus_front_write_keys(xs, FE_DIR, &k));
	REQUIRE(xenbus_back_read_frontend(xs, FE_DIR, 1, &fe, why));
	CHECK(fe.csum_ipv4 && fe.csum_ipv6 && fe.gso_tcpv4 && !fe.gso_tcpv6);
	/* A frontend that writes no offload key (netif.h's defaults). */
	remove_key("feature-no-csum-offload");
	remove_key("feature-ipv6-csum-offload");
	remove_key("feature-gso-tcpv4");
	remove_key("feature-gso-tcpv6");
	REQUIRE(xenbus_back_read_frontend(xs, FE_DIR, 1, &fe, why));
	CHECK(fe.csum_ipv4 && !fe.csum_ipv6 && !fe.gso_tcpv4 &&
	      !fe.gso_tcpv6);
}

/*
 * Multicast control: offered always, dynamic, and read so by a frontend;
 * the frontend's request is on only when it says 1, written at connect
 * and changed later.
 */
static void
test_multicast_control_offered_and_requested(void)
{
	struct xenbus_front_keys k = { .nb_queues = 1 };
	struct xenbus_front_backend be;
	const char *why;

	REQUIRE(xenbus_back_write_features(xs, BE_DIR, 1, false));
	CHECK(backend_says("feature-multicast-control", "1"));
	CHECK(backend_says("feature-dynamic-multicast-control", "1"));
	CHECK(xenbus_front_read_backend(xs, BE_DIR, &be, &why));
	CHECK(be.mcast_control && be.mcast_dynamic);
	REQUIRE(xenbus_front_write_keys(xs, FE_DIR, &k));
	CHECK(!xenbus_back_read_mcast_control(xs, FE_DIR));
	k.mcast_control = true;
	REQUIRE(xenbus_front_write_keys(xs, FE_DIR, &k));
	CHECK(xenbus_back_read_mcast_control(xs, FE_DIR));
	REQUIRE(xenbus_front_request_mcast(xs, FE_DIR, false));
	CHECK(!xenbus_back_read_mcast_control(xs, FE_DIR));
	remove_key("request-multicast-control");
	CHECK(!xenbus_back_read_mcast_control(xs, FE_DIR));
	set_key("request-multicast-control", "1");
	CHECK(xenbus_back_read_mcast_control(xs, FE_DIR));
	set_key("request-multicast-control", "yes");
	CHECK(!xenbus_back_read_mcast_control(xs, FE_DIR));
	set_key("request-multicast-control", "0");
	CHECK(!xenbus_back_read_mcast_control(xs, FE_DIR));
	remove_key("request-multicast-control");
}

/* The control ring: offered always, its two keys or none. */
/*
 * XDP headroom: offered always; the frontend's xdp-headroom read as a
 * number, absent as none, garbage as none and refused, too much as the
 * most we leave, refused.
 */
static void
test_xdp_headroom_offered_and_read(void)
{
	char why[XENBUS_WHY_MAX] = "";
	uint16_t headroom = 1;

	REQUIRE(xenbus_back_write_features(xs, BE_DIR, 1, false));
	CHECK(backend_says("feature-xdp-headroom", "1"));
	remove_key("xdp-headroom");
	CHECK(xenbus_back_read_xdp_headroom(xs, FE_DIR, 2048, &headroom, why));
	CHECK(headroom == 0);
	set_key("xdp-headroom", "256");
	CHECK(xenbus_back_read_xdp_headroom(xs, FE_DIR, 2048, &headroom, why));
	CHECK(headroom == 256);
	set_key("xdp-headroom", "2048");
	CHECK(xenbus_back_read_xdp_headroom(xs, FE_DIR, 2048, &headroom, why));
	CHECK(headroom == 2048);
	set_key("xdp-headroom", "32767");
	CHECK(!xenbus_back_read_xdp_headroom(xs, FE_DIR, 2048, &headroom, why));
	CHECK(headroom == 2048 && strstr(why, "32767") != NULL);
	set_key("xdp-headroom", "256 bytes");
	CHECK(!xenbus_back_read_xdp_headroom(xs, FE_DIR, 2048, &headroom, why));
	CHECK(headroom == 0 && strstr(why, "not a number") != NULL);
	set_key("xdp-headroom", "-1");
	CHECK(!xenbus_back_read_xdp_headroom(xs, FE_DIR, 2048, &headroom, why));
	CHECK(headroom == 0);
	remove_key("xdp-headroom");
}

static void
test_control_ring_keys_round_trip(void)
{
	struct xenbus_front_keys k = keys_for(2, true);
	struct xenbus_front_backend be;
	struct xenbus_back_frontend fe;
	char why[XENBUS_WHY_MAX];
	const char *bad;

	REQUIRE(xenbus_back_write_features(xs, BE_DIR, 2, false));
	CHECK(xenbus_front_read_backend(xs, BE_DIR, &be, &bad));
	CHECK(be.ctrl_ring);
	k.ctrl_ring = true;
	k.ctrl_ring_ref = 4242;
	k.evtchn_ctrl = 77;
	REQUIRE(xenbus_front_write_keys(xs, FE_DIR, &k));
	REQUIRE(xenbus_back_read_frontend(xs, FE_DIR, 2, &fe, why));
	CHECK(fe.ctrl_ring && fe.ctrl_ring_ref == 4242 &&
	      fe.evtchn_ctrl == 77);
	/* Reconnecting without one leaves no stale key behind. */
	k.ctrl_ring = false;
	REQUIRE(xenbus_front_write_keys(xs, FE_DIR, &k));
	CHECK(!exists("ctrl-ring-ref") && !exists("event-channel-ctrl"));
	REQUIRE(xenbus_back_read_frontend(xs, FE_DIR, 2, &fe, why));
	CHECK(!fe.ctrl_ring);
	/* A ring without its event channel is refused, by name. */
	set_key("ctrl-ring-ref", "12");
	CHECK(refused(2, "event-channel-ctrl"));
	set_key("event-channel-ctrl", "-1");
	CHECK(refused(2, "event-channel-ctrl"));
	remove_key("ctrl-ring-ref");
	remove_key("event-channel-ctrl");
}

/*
 * The watch events the test's handle @xs queued for @path; every queued
 * event is taken off.
 */
static unsigned int
events_for(const char *path)
{
	unsigned int n = 0;
	char **ev;

	while ((ev = xa_xs_check_watch(xs)) != NULL) {
		n += strcmp(ev[XS_WATCH_PATH], path) == 0;
		free(ev);
	}
	return n;
}

/*
 * A state is written when it differs, not written again when it is the
 * same (each write fires the peer's watch), and never into a directory
 * the toolstack has removed: that write would create it again, with a
 * "state" that makes the next vif at this path look in use.
 */
static void
test_state_is_published_only_where_the_device_is(void)
{
	const char *dir = "/local/domain/0/backend/vif/9/0";
	const char *state = "/local/domain/0/backend/vif/9/0/state";
	unsigned int len;
	char *v;

	REQUIRE(xa_xs_write(xs, XBT_NULL, state, "1", 1));
	REQUIRE(xa_xs_watch(xs, state, "t"));
	CHECK(events_for(state) == 1);	/* the one a new watch fires */
	CHECK(xenbus_switch_state(xs, dir, XenbusStateInitWait));
	CHECK(xenbus_read_state(xs, dir) == XenbusStateInitWait);
	CHECK(events_for(state) == 1);
	CHECK(xenbus_switch_state(xs, dir, XenbusStateInitWait));
	CHECK(events_for(state) == 0);
	CHECK(xenbus_switch_state(xs, dir, XenbusStateConnected));
	CHECK(events_for(state) == 1);
	/* xl destroy */
	REQUIRE(xa_xs_rm(xs, XBT_NULL, dir));
	CHECK(events_for(state) == 1);
	CHECK(xenbus_switch_state(xs, dir, XenbusStateClosed));
	v = xa_xs_read(xs, XBT_NULL, dir, &len);
	CHECK(v == NULL && errno == ENOENT);
	free(v);
	CHECK(events_for(state) == 0);
	CHECK(xa_xs_unwatch(xs, state, "t"));
}

/* Domain 0's handle, for both ends' keys: each case reads what it wrote. */
static int
setup(const char *argv0)
{
	if (xsim_test_setup(argv0) != 0)
		return -1;
	xs = open_dom(0);
	if (xs == NULL) {
		perror("cannot open the simulator");
		return -1;
	}
	/* The toolstack creates the frontend's directory. */
	if (!xa_xs_write(xs, XBT_NULL, FE_DIR "/state", "1", 1))
		return -1;
	return 0;
}

static void
teardown(void)
{
	xa_close(xs);
	xsim_test_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_one_queue_keys_sit_at_the_top);
	RUN(test_queue_keys_sit_in_queue_directories);
	RUN(test_back_to_one_queue_drops_the_directories);
	RUN(test_a_frontend_without_multi_queue_has_one_queue);
	RUN(test_queue_counts_not_offered_are_refused);
	RUN(test_a_queue_missing_its_keys_is_named);
	RUN(test_backend_offers_its_queue_count);
	RUN(test_backend_offers_gso_when_asked);
	RUN(test_frontend_offloads_round_trip);
	RUN(test_control_ring_keys_round_trip);
	RUN(test_multicast_control_offered_and_requested);
	RUN(test_xdp_headroom_offered_and_read);
	RUN(test_state_is_published_only_where_the_device_is);
}
