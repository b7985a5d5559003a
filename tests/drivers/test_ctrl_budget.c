/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Control-ring work has a budget on the interrupt thread that every port
 * of the process shares. FLOODERS guests, frontends written here directly
 * on the Xen access interface, each keep their netback port's control
 * ring full of ADD_GREF_MAPPING and DEL_GREF_MAPPING requests naming a
 * whole page of grants each (every one maps or unmaps 512 grants), and
 * notify every 100 us. While they do, guest B's netback and netfront
 * ports are created in the same process: B's handshake runs on the same
 * thread, and B must reach Connected and move traffic within 10 s (before
 * the budget, each of its steps waited behind every flooder's turn of a
 * ring's worth of requests, about a second each here, and it took more).
 * The flooders are served meanwhile, and every request they posted is
 * answered, in order, successfully; their turns that spent their budget
 * are counted and logged. A ring already full when the backend connects
 * (no event announces it) is answered whole. A request is charged what it
 * did where that is more than its list says (a DEL emptying a batch), and
 * a new connection's ring is not paced for what the last one did.
 */

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "netif_ctrl_front.h"
#include "netif_ring.h"
#include "netif_statics.h"
#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "xsim.h"
#include "xenbus.h"
#include "xsim.h"

/* Flooding guests: domains FLOOD_DOMID and on. */
#define FLOODERS 3
#define FLOOD_DOMID 2
#define HONEST_DOMID 1
/* One page of grants: the longest list an ADD or DEL may name. */
#define FLOOD_GRANTS NETIF_STATICS_LIST_MAX
/* How long the honest guest may take to connect and move its packets. */
#define HONEST_BOUND_S 10

/* Guest A: the rings of a netfront and a control ring it floods. */
struct flooder {
	struct xa_handle *xa;
	char dir[64];
	char be_dir[64];
	void *rings; /* tx ring page, then rx ring page */
	grant_ref_t ring_refs[2];
	evtchn_port_t port;
	xen_netif_ctrl_sring_t *ctrl_sring;
	grant_ref_t ctrl_ref;
	evtchn_port_t ctrl_port;
	struct netif_ctrl_front ctrl;
	void *pages; /* FLOOD_GRANTS pages, named by the list */
	grant_ref_t *page_refs;
	struct xen_netif_gref *list;
	grant_ref_t list_ref;
	int victim; /* its netback port */
	pthread_t thread;
	/* Written by the flooding thread, read by the test. */
	bool stop;
	uint64_t posted;
	uint64_t answered;
	uint64_t wrong; /* out of order, or not SUCCESS */
};

static struct flooder floods[FLOODERS];

static bool
wait_backend_state(struct flooder *f, enum xenbus_state want)
{
	for (unsigned int ms = 0; ms < 10000; ms++) {
		if (xenbus_read_state(f->xa, f->be_dir) == want)
			return true;
		rte_delay_us_sleep(1000);
	}
	fprintf(stderr, "backend stuck in %s, waiting for %s\n",
		xenbus_state_name(xenbus_read_state(f->xa, f->be_dir)),
		xenbus_state_name(want));
	return false;
}

/* Request @k of the flood: ADD the list, then DEL it, and again. */
static uint16_t
flood_type(uint64_t k)
{
	return k % 2 == 0 ? XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING :
			    XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING;
}

/* Fill every free slot of the control ring with the flood's requests. */
static void
flood_post(struct flooder *f)
{
	uint16_t id;

	while (netif_ctrl_front_free(&f->ctrl) > 0 &&
	       netif_ctrl_front_queue(&f->ctrl, flood_type(f->posted), 0,
				      f->list_ref, FLOOD_GRANTS, &id))
		__atomic_store_n(&f->posted, f->posted + 1, __ATOMIC_RELEASE);
}

/* Collect the answers; each must be the next one, and a success. */
static bool
flood_collect(struct flooder *f)
{
	struct xen_netif_ctrl_response rsp[NETIF_CTRL_RING_SIZE];
	int n, i;

	n = netif_ctrl_front_responses(&f->ctrl, rsp, RTE_DIM(rsp));
	if (n < 0)
		return false;
	for (i = 0; i < n; i++) {
		uint64_t k = f->answered;

		if (rsp[i].id != (uint16_t)k || rsp[i].type != flood_type(k) ||
		    rsp[i].status != XEN_NETIF_CTRL_STATUS_SUCCESS ||
		    (flood_type(k) == XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING &&
		     rsp[i].data != FLOOD_GRANTS))
			__atomic_store_n(&f->wrong, f->wrong + 1,
					 __ATOMIC_RELAXED);
		__atomic_store_n(&f->answered, k + 1, __ATOMIC_RELEASE);
	}
	return true;
}

/*
 * Without another notification, collect the answers until every request
 * posted has one, for 20 s at most.
 */
static void
flood_await_answers(struct flooder *f)
{
	uint64_t deadline = rte_get_timer_cycles() + 20 * rte_get_timer_hz();

	while (f->answered != f->posted && rte_get_timer_cycles() < deadline &&
	       flood_collect(f))
		rte_delay_us_sleep(1000);
}

/*
 * A flooding guest: keep the ring full and notify every 100 us whether
 * asked or not, until told to stop; then, without another notification,
 * wait up to 20 s for the answers still owed. (It pauses so that three
 * of them leave the CPUs to the backend: what it costs is its requests.)
 */
static void *
flood(void *arg)
{
	struct flooder *f = arg;

	while (!__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE)) {
		flood_post(f);
		netif_ctrl_front_push(&f->ctrl);
		xa_evtchn_notify(xa_evtchn(f->xa), f->ctrl_port);
		if (!flood_collect(f))
			return NULL;
		rte_delay_us_sleep(100);
	}
	flood_await_answers(f);
	return NULL;
}

/*
 * Share the rings and the pages the list names, and write the keys; the
 * backend waits in InitWait until we say Connected.
 */
static bool
flooder_offer(struct flooder *f)
{
	char path[128];
	unsigned int i;

	if (!wait_backend_state(f, XenbusStateInitWait))
		return false;
	f->rings = xa_gnt_share(f->xa, 0, 2, f->ring_refs, true);
	f->ctrl_sring = xa_gnt_share(f->xa, 0, 1, &f->ctrl_ref, true);
	f->list = xa_gnt_share(f->xa, 0, 1, &f->list_ref, true);
	f->pages = xa_gnt_share(f->xa, 0, FLOOD_GRANTS, f->page_refs, true);
	if (f->rings == NULL || f->ctrl_sring == NULL || f->list == NULL ||
	    f->pages == NULL)
		return false;
	SHARED_RING_INIT((netif_tx_sring_t *)f->rings);
	SHARED_RING_INIT(
		(netif_rx_sring_t *)((char *)f->rings + NETIF_PAGE_SIZE));
	netif_ctrl_front_attach(&f->ctrl, f->ctrl_sring);
	for (i = 0; i < FLOOD_GRANTS; i++)
		f->list[i] = (struct xen_netif_gref){ .ref = f->page_refs[i] };
	f->port = xa_evtchn_bind_unbound(xa_evtchn(f->xa), 0);
	f->ctrl_port = xa_evtchn_bind_unbound(xa_evtchn(f->xa), 0);
	if (f->port == (evtchn_port_t)-1 || f->ctrl_port == (evtchn_port_t)-1)
		return false;
#define KEY(k, fmt, v) \
	(snprintf(path, sizeof(path), "%s/" k, f->dir), \
	 xa_xs_printf(f->xa, XBT_NULL, path, fmt, v))
	return KEY("tx-ring-ref", "%u", f->ring_refs[0]) &&
	       KEY("rx-ring-ref", "%u", f->ring_refs[1]) &&
	       KEY("event-channel", "%u", f->port) &&
	       KEY("request-rx-copy", "%u", 1u) &&
	       KEY("ctrl-ring-ref", "%u", f->ctrl_ref) &&
	       KEY("event-channel-ctrl", "%u", f->ctrl_port);
#undef KEY
}

/*
 * Offer, with the ring already full of the flood's requests if @full
 * (which no event announces), and say Connected; the backend follows.
 */
static bool
flooder_connect_ring(struct flooder *f, bool full)
{
	f->stop = false;
	f->posted = f->answered = f->wrong = 0;
	if (!flooder_offer(f))
		return false;
	if (full) {
		flood_post(f);
		netif_ctrl_front_push(&f->ctrl);
	}
	return xenbus_switch_state(f->xa, f->dir, XenbusStateConnected) &&
	       wait_backend_state(f, XenbusStateConnected);
}

static bool
flooder_connect(struct flooder *f)
{
	return flooder_connect_ring(f, false) &&
	       pair_wait_link(f->victim, true, 10000);
}

/* Connect with the ring already full. */
static bool
flooder_connect_full(struct flooder *f)
{
	return flooder_connect_ring(f, true);
}

static void
flooder_disconnect(struct flooder *f)
{
	char path[128];

	xenbus_switch_state(f->xa, f->dir, XenbusStateClosed);
	wait_backend_state(f, XenbusStateClosed);
	xa_evtchn_unbind(xa_evtchn(f->xa), f->port);
	xa_evtchn_unbind(xa_evtchn(f->xa), f->ctrl_port);
	xa_gnt_unshare(f->xa, f->rings, 2);
	xa_gnt_unshare(f->xa, f->ctrl_sring, 1);
	xa_gnt_unshare(f->xa, f->list, 1);
	xa_gnt_unshare(f->xa, f->pages, FLOOD_GRANTS);
	snprintf(path, sizeof(path), "%s/ctrl-ring-ref", f->dir);
	xa_xs_rm(f->xa, XBT_NULL, path);
	snprintf(path, sizeof(path), "%s/event-channel-ctrl", f->dir);
	xa_xs_rm(f->xa, XBT_NULL, path);
	xenbus_switch_state(f->xa, f->dir, XenbusStateInitialising);
}

static double
seconds_since(uint64_t t0)
{
	return (double)(rte_get_timer_cycles() - t0) / rte_get_timer_hz();
}

/*
 * The scenario: while the flooders flood, B's netback and netfront
 * are created, connect and move 2000 packets each way within the bound,
 * on the thread the flooders' requests also need; the flooders are
 * answered meanwhile and, once they stop posting, every request, without
 * another notification.
 */
static void
test_flooding_guests_delay_no_other_handshake(void)
{
	uint64_t t0, answered0[FLOODERS], seq = 0;
	int back = -1, front = -1;
	unsigned int i, up = 0;
	char args[128];
	size_t start;
	double took;

	for (i = 0; i < FLOODERS; i++)
		REQUIRE(flooder_connect(&floods[i]));
	start = test_log_mark();
	for (i = 0; i < FLOODERS; i++, up++)
		if (pthread_create(&floods[i].thread, NULL, flood,
				   &floods[i]) != 0)
			break;
	CHECK(up == FLOODERS);
	rte_delay_us_sleep(300 * 1000);
	for (i = 0; i < up; i++)
		answered0[i] =
			__atomic_load_n(&floods[i].answered, __ATOMIC_ACQUIRE);
	t0 = rte_get_timer_cycles();
	snprintf(args, sizeof(args), "domid=%d,provider=sim,sim=%s",
		 HONEST_DOMID, pair_sim_instance());
	back = pair_create("net_xen_netback9", args, test_pool);
	front = pair_create("net_xen_netfront0", args, test_pool);
	CHECK(back >= 0 && front >= 0);
	if (back >= 0 && front >= 0) {
		CHECK(pair_wait_link(front, true, HONEST_BOUND_S * 1000) &&
		      pair_wait_link(back, true, HONEST_BOUND_S * 1000));
		printf("# the honest guest connected %.3f s after it was created\n",
		       seconds_since(t0));
		CHECK(pair_traffic_both_ways(back, front, test_pool, &seq,
					     2000));
	}
	took = seconds_since(t0);
	printf("# ... and moved 2000 packets each way %.3f s after\n", took);
	CHECK(took < HONEST_BOUND_S);
	for (i = 0; i < up; i++) {
		struct flooder *f = &floods[i];

		/* Served meanwhile. */
		CHECK(__atomic_load_n(&f->answered, __ATOMIC_ACQUIRE) >
		      answered0[i]);
		__atomic_store_n(&f->stop, true, __ATOMIC_RELEASE);
	}
	for (i = 0; i < up; i++) {
		struct flooder *f = &floods[i];

		pthread_join(f->thread, NULL);
		printf("# flooding guest %u: %" PRIu64
		       " requests posted, %" PRIu64 " answered, %" PRIu64
		       " wrong; %" PRIu64 " turns spent their budget, %" PRIu64
		       " events\n",
		       i, f->posted, f->answered, f->wrong,
		       pair_xstat(f->victim, "ctrl_budget_exhausted"),
		       pair_xstat(f->victim, "ctrl_events"));
		CHECK(f->posted > NETIF_CTRL_RING_SIZE);
		CHECK(f->answered == f->posted && f->wrong == 0);
		CHECK(pair_xstat(f->victim, "ctrl_budget_exhausted") !=
			      UINT64_MAX &&
		      pair_xstat(f->victim, "ctrl_budget_exhausted") > 0);
		CHECK(xenbus_read_state(f->xa, f->be_dir) ==
		      XenbusStateConnected);
	}
	CHECK(strstr(test_log_since(start),
		     "keeps its control ring's budget full") != NULL);
	if (front >= 0)
		pair_destroy("net_xen_netfront0", front);
	if (back >= 0)
		pair_destroy("net_xen_netback9", back);
	for (i = 0; i < FLOODERS; i++)
		flooder_disconnect(&floods[i]);
}

/*
 * A ring already full when the backend connects is more than a turn's
 * budget, and no event will announce what is left: all of it is answered
 * all the same.
 */
static void
test_a_ring_full_at_connect_is_answered_whole(void)
{
	struct flooder *f = &floods[0];

	REQUIRE(flooder_connect_full(f));
	flood_await_answers(f);
	printf("# %" PRIu64 " requests posted before connecting, %" PRIu64
	       " answered, %" PRIu64 " wrong\n",
	       f->posted, f->answered, f->wrong);
	CHECK(f->posted == NETIF_CTRL_RING_SIZE);
	CHECK(f->answered == f->posted && f->wrong == 0);
	flooder_disconnect(f);
}

/* Queue a request of @type for queue pair 0 naming @n entries of the list. */
static bool
ctrl_queue(struct flooder *f, uint16_t type, uint32_t n)
{
	uint16_t id;

	return netif_ctrl_front_queue(&f->ctrl, type, 0, f->list_ref, n, &id);
}

/* Push what was queued, notify, and collect @n answers within 10 s. */
static bool
ctrl_answers(struct flooder *f, struct xen_netif_ctrl_response *rsp, int n)
{
	int got = 0, k;

	netif_ctrl_front_push(&f->ctrl);
	xa_evtchn_notify(xa_evtchn(f->xa), f->ctrl_port);
	for (unsigned int ms = 0; got < n && ms < 10000; ms++) {
		k = netif_ctrl_front_responses(&f->ctrl, rsp + got, n - got);
		if (k < 0)
			return false;
		got += k;
		if (got < n)
			rte_delay_us_sleep(1000);
	}
	return got == n;
}

/*
 * A DEL naming only the last live grant of a batch unmaps the whole batch
 * (a page of grants) and waits out the pair's bursts: it is charged that,
 * not the three operations its one entry costs, so the requests behind it
 * wait for a turn of their own.
 */
static void
test_a_del_emptying_a_batch_is_charged_its_pages(void)
{
	struct flooder *f = &floods[0];
	struct xen_netif_ctrl_response rsp[4];
	uint64_t spent0;
	int i;

	REQUIRE(flooder_connect(f));
	/* A batch of a page of grants, all but its last deleted. */
	CHECK(ctrl_queue(f, XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING,
			 FLOOD_GRANTS) &&
	      ctrl_answers(f, rsp, 1) &&
	      rsp[0].status == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(ctrl_queue(f, XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING,
			 FLOOD_GRANTS - 1) &&
	      ctrl_answers(f, rsp, 1) &&
	      rsp[0].status == XEN_NETIF_CTRL_STATUS_SUCCESS &&
	      rsp[0].data == FLOOD_GRANTS - 1);
	spent0 = pair_xstat(f->victim, "ctrl_budget_exhausted");
	/* Its last grant deleted, then three requests costing one each. */
	f->list[0].ref = f->page_refs[FLOOD_GRANTS - 1];
	CHECK(ctrl_queue(f, XEN_NETIF_CTRL_TYPE_DEL_GREF_MAPPING, 1));
	for (i = 0; i < 3; i++)
		CHECK(ctrl_queue(f, XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE,
				 0));
	CHECK(ctrl_answers(f, rsp, 4));
	CHECK(rsp[0].status == XEN_NETIF_CTRL_STATUS_SUCCESS &&
	      rsp[0].data == 1);
	for (i = 1; i < 4; i++)
		CHECK(rsp[i].status == XEN_NETIF_CTRL_STATUS_SUCCESS);
	printf("# turns that spent their budget: %" PRIu64 " before, %" PRIu64
	       " after\n",
	       spent0, pair_xstat(f->victim, "ctrl_budget_exhausted"));
	CHECK(spent0 != UINT64_MAX &&
	      pair_xstat(f->victim, "ctrl_budget_exhausted") == spent0 + 1);
	f->list[0].ref = f->page_refs[0];
	flooder_disconnect(f);
}

/* What a spurious event costs a channel at first (xn_control.c). */
#define SPURIOUS_FIRST_US 1000
/* A pace only turns that kept the budget full reach. */
#define BUSY_PACE_US 10000

/*
 * A guest that keeps its ring's budget full is paced (ctrl_backoff_us
 * grows to 20 ms); once it disconnects in the middle of it and connects
 * again (a reboot, say), the new ring starts at full speed: at most the
 * first pace of a spurious event, as binding a channel raises an event
 * (Xen marks a newly bound port pending) that finds nothing. Idle, a
 * channel's pace then stays where it is: an alarm only unmasks it, and
 * counts no spurious event the guest never sent.
 */
static void
test_a_new_connection_starts_unpaced(void)
{
	struct flooder *f = &floods[0];
	uint64_t deadline, paced = 0, spurious, events;
	unsigned int ms;

	REQUIRE(flooder_connect(f));
	deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	while (paced < BUSY_PACE_US && rte_get_timer_cycles() < deadline) {
		flood_post(f);
		netif_ctrl_front_push(&f->ctrl);
		xa_evtchn_notify(xa_evtchn(f->xa), f->ctrl_port);
		if (!flood_collect(f))
			break;
		rte_delay_us_sleep(1000);
		paced = pair_xstat(f->victim, "ctrl_backoff_us");
	}
	printf("# paced at %" PRIu64 " us after %" PRIu64 " requests\n", paced,
	       f->answered);
	CHECK(paced != UINT64_MAX && paced >= BUSY_PACE_US);
	/* Gone with requests still waiting; the last alarm has fired. */
	flooder_disconnect(f);
	rte_delay_us_sleep(50 * 1000);
	events = pair_xstat(f->victim, "ctrl_events");
	REQUIRE(flooder_connect(f));
	/* The event binding raised, once it is counted and served. */
	for (ms = 0;
	     ms < 1000 && pair_xstat(f->victim, "ctrl_events") == events; ms++)
		rte_delay_us_sleep(1000);
	rte_delay_us_sleep(20 * 1000);
	paced = pair_xstat(f->victim, "ctrl_backoff_us");
	spurious = pair_xstat(f->victim, "ctrl_spurious_events");
	printf("# connected again: paced at %" PRIu64 " us\n", paced);
	CHECK(paced <= SPURIOUS_FIRST_US);
	rte_delay_us_sleep(300 * 1000);
	CHECK(pair_xstat(f->victim, "ctrl_spurious_events") == spurious);
	flooder_disconnect(f);
}

/* The longest a channel notified in vain stays masked (xn_control.c). */
#define SPURIOUS_MAX_US 250000

/* Notify in vain until the channel is heard only every 250 ms. */
static bool
flooder_pace_to_max(struct flooder *f)
{
	uint64_t deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();

	while (rte_get_timer_cycles() < deadline) {
		xa_evtchn_notify(xa_evtchn(f->xa), f->ctrl_port);
		rte_delay_us_sleep(1000);
		if (pair_xstat(f->victim, "ctrl_backoff_us") == SPURIOUS_MAX_US)
			return true;
	}
	return false;
}

/*
 * A guest notifies in vain until its channel is heard only every 250 ms,
 * then reconnects at once with its ring already full: the connect answers
 * a turn's budget, and the rest must still be served (the alarm that was
 * to unmask the old channel serves too), without a further event. The
 * alarm was set when the pace was seen; a reconnect that took 200 ms or
 * more came after it and proves nothing, so the guest tries again.
 */
static void
test_a_full_ring_reconnected_while_backed_off_is_answered_whole(void)
{
	struct flooder *f = &floods[0];
	unsigned int attempt;
	double took = 1;
	uint64_t t;

	for (attempt = 0; attempt < 5 && took >= 0.2; attempt++) {
		REQUIRE(flooder_connect(f));
		REQUIRE(flooder_pace_to_max(f));
		t = rte_get_timer_cycles();
		flooder_disconnect(f);
		REQUIRE(flooder_connect_full(f));
		took = seconds_since(t);
		printf("# paced at 250 ms, reconnected %.3f s later\n", took);
		flood_await_answers(f);
		printf("# %" PRIu64
		       " requests posted before connecting again, %" PRIu64
		       " answered, %" PRIu64 " wrong\n",
		       f->posted, f->answered, f->wrong);
		CHECK(f->posted == NETIF_CTRL_RING_SIZE);
		CHECK(f->answered == f->posted && f->wrong == 0);
		flooder_disconnect(f);
	}
	CHECK(took < 0.2);
}

static int
setup(const char *argv0)
{
	struct xa_open_args xa_args = {
		.provider = XA_PROVIDER_SIM,
		.sim_instance = pair_sim_instance(),
	};
	char args[128], name[32];
	unsigned int i;

	if (pair_setup(argv0) != 0 || test_log_capture() != 0)
		return -1;
	for (i = 0; i < FLOODERS; i++) {
		struct flooder *f = &floods[i];
		domid_t domid = FLOOD_DOMID + i;

		f->victim = -1;
		f->page_refs = calloc(FLOOD_GRANTS, sizeof(*f->page_refs));
		snprintf(name, sizeof(name), "net_xen_netback%u", i);
		snprintf(args, sizeof(args), "domid=%u,provider=sim,sim=%s",
			 domid, pair_sim_instance());
		f->victim = pair_create(name, args, test_pool);
		xa_args.sim_domid = domid;
		f->xa = xa_open(&xa_args);
		if (f->page_refs == NULL || f->victim < 0 || f->xa == NULL)
			return -1;
		snprintf(f->dir, sizeof(f->dir),
			 "/local/domain/%u/device/vif/0", domid);
		snprintf(f->be_dir, sizeof(f->be_dir),
			 "/local/domain/0/backend/vif/%u/0", domid);
	}
	return 0;
}

static void
teardown(void)
{
	char name[32];
	unsigned int i;

	for (i = 0; i < FLOODERS; i++) {
		xa_close(floods[i].xa);
		free(floods[i].page_refs);
		snprintf(name, sizeof(name), "net_xen_netback%u", i);
		pair_destroy(name, floods[i].victim);
	}
	test_log_release();
	pair_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_flooding_guests_delay_no_other_handshake);
	RUN(test_a_ring_full_at_connect_is_answered_whole);
	RUN(test_a_del_emptying_a_batch_is_charged_its_pages);
	RUN(test_a_new_connection_starts_unpaced);
	RUN(test_a_full_ring_reconnected_while_backed_off_is_answered_whole);
}
