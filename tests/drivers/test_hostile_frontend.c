/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A hostile frontend, written here directly on the Xen access interface,
 * connects to one netback port and writes garbage into its rings: a
 * producer index beyond the ring, a slot crossing a page, more slots than
 * Linux's fatal bound (1 + 20), an unknown extra type, and the same kinds
 * of garbage on the RX ring. Each time the backend must mark the queue
 * failed, log why, and disconnect, while the process and a second netback
 * port serving an honest netfront keep working; the hostile frontend may
 * then reconnect. What Linux tolerates is tolerated: a grant it never
 * gave (or gave read-only for a buffer), and 19 slots, are answered with
 * an error and counted, and its next packet arrives. A frontend asking for more queue
 * pairs than offered is refused, with the reason logged. The same raw
 * frontend also sends frames with a blank checksum, which the backend
 * completes, and GSO packets (the victim's application takes large
 * segments): a GSO size of 0 or a type outside the protocol disconnects
 * it as Linux does; a GSO extra on a frame without TCP, or with segments
 * no frame could hold, drops the packet (answered OKAY, as Linux answers a
 * copied frame); headers cut by a tiny first
 * slot still reach the application whole in its first segment. On its
 * control ring, a producer index beyond the ring disconnects it too, and
 * static grants it did not give (or gave read-only, asked writable) are
 * refused while it stays connected; those it did give serve its packets
 * without a grant copy. As a Windows frontend does, it asks for multicast
 * filtering and joins a group with a dummy request: the victim's frames
 * to other groups are dropped and counted, until it stops asking; and it
 * configures the Toeplitz hash, after which frames reach it with Microsoft's
 * verification hash in a hash extra, and the victim's application reads
 * the guest's key, hash types and table through ethdev's RSS calls. As a
 * Linux netfront with an XDP program does, it asks for headroom in front
 * of its frames (xdp-headroom at connect, changed through Reconfiguring,
 * which the backend answers with Reconfigured, its link staying up):
 * frames then start that far into their page, with an XDP extra; too much
 * headroom is cut to the most the backend leaves, logged; 50 changes in a
 * row, half of them garbage, are each answered, with at most 10 lines
 * logged.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_log.h>
#include <rte_tcp.h>

#include "ms_rss.h"
#include "netif_ctrl_front.h"
#include "netif_ring.h"
#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "xa.h"
#include "xenbus.h"
#include "xsim.h"

#define HOSTILE_DOMID 2
#define DATA_PAGES 4

struct hostile {
	struct xa_handle *xa;
	char dir[64];
	char be_dir[64];
	void *rings;			/* tx ring page, then rx ring page */
	grant_ref_t ring_refs[2];
	void *data;
	grant_ref_t data_refs[DATA_PAGES];
	evtchn_port_t port;
	netif_tx_front_ring_t tx;
	netif_rx_front_ring_t rx;
	/* With a control ring (hostile_offer_ctrl). */
	bool with_ctrl;
	xen_netif_ctrl_sring_t *ctrl_sring;
	grant_ref_t ctrl_ref;
	evtchn_port_t ctrl_port;
	struct netif_ctrl_front ctrl;
	struct xen_netif_gref *list;
	grant_ref_t list_ref;
};

static struct hostile evil;
static int victim, back, front;

/* The netback port the hostile frontend attacks, with @extra devargs. */
static int
create_victim(const char *extra)
{
	const struct rte_eth_conf lro = {
		.rxmode.offloads = RTE_ETH_RX_OFFLOAD_TCP_LRO,
	};
	char args[160];

	snprintf(args, sizeof(args), "domid=%d,provider=sim,sim=%s%s",
		 HOSTILE_DOMID, pair_sim_instance(), extra);
	return pair_create_conf("net_xen_netback0", args, test_pool, 1, &lro);
}

static bool
wait_backend_state(enum xenbus_state want)
{
	for (unsigned int ms = 0; ms < 10000; ms++) {
		if (xenbus_read_state(evil.xa, evil.be_dir) == want)
			return true;
		rte_delay_us_sleep(1000);
	}
	fprintf(stderr, "backend stuck in %s, waiting for %s\n",
		xenbus_state_name(xenbus_read_state(evil.xa, evil.be_dir)),
		xenbus_state_name(want));
	return false;
}

/* Share the rings, write the keys, say Connected. */
static bool
hostile_offer(void)
{
	char path[128];
	unsigned int i;

	if (!wait_backend_state(XenbusStateInitWait))
		return false;
	evil.rings = xa_gnt_share(evil.xa, 0, 2, evil.ring_refs, true);
	evil.data = xa_gnt_share(evil.xa, 0, DATA_PAGES, evil.data_refs, false);
	if (evil.rings == NULL || evil.data == NULL)
		return false;
	for (i = 0; i < DATA_PAGES * NETIF_PAGE_SIZE; i++)
		((uint8_t *)evil.data)[i] = i;
	SHARED_RING_INIT((netif_tx_sring_t *)evil.rings);
	SHARED_RING_INIT((netif_rx_sring_t *)((char *)evil.rings +
					      NETIF_PAGE_SIZE));
	FRONT_RING_INIT(&evil.tx, (netif_tx_sring_t *)evil.rings,
			NETIF_PAGE_SIZE);
	FRONT_RING_INIT(&evil.rx, (netif_rx_sring_t *)((char *)evil.rings +
						       NETIF_PAGE_SIZE),
			NETIF_PAGE_SIZE);
	evil.port = xa_evtchn_bind_unbound(xa_evtchn(evil.xa), 0);
	if (evil.port == (evtchn_port_t)-1)
		return false;
#define KEY(k, fmt, v) \
	(snprintf(path, sizeof(path), "%s/" k, evil.dir), \
	 xa_xs_printf(evil.xa, XBT_NULL, path, fmt, v))
	if (evil.with_ctrl) {
		evil.ctrl_sring = xa_gnt_share(evil.xa, 0, 1, &evil.ctrl_ref,
					       true);
		evil.list = xa_gnt_share(evil.xa, 0, 1, &evil.list_ref, true);
		evil.ctrl_port = xa_evtchn_bind_unbound(xa_evtchn(evil.xa), 0);
		if (evil.ctrl_sring == NULL || evil.list == NULL ||
		    evil.ctrl_port == (evtchn_port_t)-1)
			return false;
		netif_ctrl_front_attach(&evil.ctrl, evil.ctrl_sring);
		if (!KEY("ctrl-ring-ref", "%u", evil.ctrl_ref) ||
		    !KEY("event-channel-ctrl", "%u", evil.ctrl_port))
			return false;
	}
	if (!KEY("tx-ring-ref", "%u", evil.ring_refs[0]) ||
	    !KEY("rx-ring-ref", "%u", evil.ring_refs[1]) ||
	    !KEY("event-channel", "%u", evil.port) ||
	    !KEY("request-rx-copy", "%u", 1u) ||
	    !xenbus_switch_state(evil.xa, evil.dir, XenbusStateConnected))
		return false;
#undef KEY
	return true;
}

static bool
hostile_connect(void)
{
	return hostile_offer() && wait_backend_state(XenbusStateConnected) &&
	       pair_wait_link(victim, true, 10000);
}

static void
hostile_disconnect(void)
{
	xenbus_switch_state(evil.xa, evil.dir, XenbusStateClosed);
	wait_backend_state(XenbusStateClosed);
	xa_evtchn_unbind(xa_evtchn(evil.xa), evil.port);
	xa_gnt_unshare(evil.xa, evil.rings, 2);
	xa_gnt_unshare(evil.xa, evil.data, DATA_PAGES);
	if (evil.with_ctrl) {
		char path[128];

		xa_evtchn_unbind(xa_evtchn(evil.xa), evil.ctrl_port);
		xa_gnt_unshare(evil.xa, evil.ctrl_sring, 1);
		xa_gnt_unshare(evil.xa, evil.list, 1);
		snprintf(path, sizeof(path), "%s/ctrl-ring-ref", evil.dir);
		xa_xs_rm(evil.xa, XBT_NULL, path);
		snprintf(path, sizeof(path), "%s/event-channel-ctrl", evil.dir);
		xa_xs_rm(evil.xa, XBT_NULL, path);
		evil.with_ctrl = false;
	}
	xenbus_switch_state(evil.xa, evil.dir, XenbusStateInitialising);
}

static void
post_tx(uint16_t id, grant_ref_t gref, uint16_t offset, uint16_t size,
	uint16_t flags)
{
	netif_tx_request_t *req = RING_GET_REQUEST(&evil.tx,
						   evil.tx.req_prod_pvt++);

	req->id = id;
	req->gref = gref;
	req->offset = offset;
	req->size = size;
	req->flags = flags;
}

/*
 * Poll the victim until its control plane has disconnected us, then check
 * the counters and the log line (written after @log_start) naming @reason.
 */
static bool
victim_disconnects(const char *reason, size_t log_start)
{
	struct rte_mbuf *pkts[32], *m;
	uint64_t before = pair_xstat(victim, "rx_q0_malformed_requests") +
			  pair_xstat(victim, "tx_q0_malformed_requests");
	bool closing = false;
	uint16_t n;

	m = rte_pktmbuf_alloc(test_pool);
	if (m == NULL || rte_pktmbuf_append(m, 60) == NULL)
		return false;
	memset(rte_pktmbuf_mtod(m, void *), 0xff, 60);
	for (unsigned int ms = 0; ms < 10000 && !closing; ms++) {
		n = rte_eth_rx_burst(victim, 0, pkts, RTE_DIM(pkts));
		rte_pktmbuf_free_bulk(pkts, n);
		if (m != NULL && rte_eth_tx_burst(victim, 0, &m, 1) == 1)
			m = NULL;
		closing = xenbus_read_state(evil.xa, evil.be_dir) ==
			  XenbusStateClosing;
		rte_delay_us_sleep(1000);
	}
	rte_pktmbuf_free(m);
	if (!closing || strstr(test_log_since(log_start), reason) == NULL) {
		fprintf(stderr, "no disconnect for \"%s\"; log:\n%s\n", reason,
			test_log_since(log_start));
		return false;
	}
	return pair_xstat(victim, "rx_q0_malformed_requests") +
	       pair_xstat(victim, "tx_q0_malformed_requests") > before &&
	       pair_wait_link(victim, false, 10000);
}

static bool
honest_pair_still_works(void)
{
	static uint64_t seq;
	bool ok = pair_transfer(front, back, test_pool, seq, 2000, 64) == 2000;

	seq += 2000;
	return ok;
}

static void
check_attack(void (*attack)(void), const char *reason)
{
	size_t start;

	REQUIRE(hostile_connect());
	start = test_log_mark();
	attack();
	CHECK(victim_disconnects(reason, start));
	CHECK(honest_pair_still_works());
	hostile_disconnect();
}

/*
 * Poll the victim (its Rx pulls what the frontend sent, its Tx pushes a
 * frame into the frontend's buffers) until its counter @xstat grows.
 */
static bool
victim_counts(const char *xstat, uint64_t before)
{
	struct rte_mbuf *pkts[32], *m;
	uint16_t n;

	for (unsigned int ms = 0; ms < 5000; ms++) {
		n = rte_eth_rx_burst(victim, 0, pkts, RTE_DIM(pkts));
		rte_pktmbuf_free_bulk(pkts, n);
		m = rte_pktmbuf_alloc(test_pool);
		if (m == NULL || rte_pktmbuf_append(m, 60) == NULL)
			return false;
		memset(rte_pktmbuf_mtod(m, void *), 0xff, 60);
		if (rte_eth_tx_burst(victim, 0, &m, 1) == 0)
			rte_pktmbuf_free(m);
		if (pair_xstat(victim, xstat) > before)
			return true;
		rte_delay_us_sleep(1000);
	}
	fprintf(stderr, "%s stayed at %lu\n", xstat, (unsigned long)before);
	return false;
}

/*
 * What Linux tolerates: the victim answers the attack with errors, drops
 * what it concerns, counts it in @xstat, logs nothing fatal and stays
 * connected; the frontend's next packet arrives.
 */
static void
check_tolerated(void (*attack)(void), const char *xstat)
{
	uint64_t before;
	struct rte_mbuf *m = NULL;
	size_t start;

	REQUIRE(hostile_connect());
	before = pair_xstat(victim, xstat);
	start = test_log_mark();
	attack();
	CHECK(victim_counts(xstat, before));
	CHECK(strstr(test_log_since(start), "disconnecting") == NULL);
	CHECK(xenbus_read_state(evil.xa, evil.be_dir) == XenbusStateConnected);
	post_tx(40, evil.data_refs[0], 0, 60, 0);
	RING_PUSH_REQUESTS(&evil.tx);
	for (unsigned int ms = 0; ms < 5000 && m == NULL; ms++)
		if (rte_eth_rx_burst(victim, 0, &m, 1) == 0)
			rte_delay_us_sleep(1000);
	CHECK(m != NULL && rte_pktmbuf_pkt_len(m) == 60);
	rte_pktmbuf_free(m);
	CHECK(honest_pair_still_works());
	hostile_disconnect();
}

static void
tx_producer_beyond_ring(void)
{
	evil.tx.sring->req_prod = NETIF_TX_RING_SIZE + 7;
}

static void
tx_slot_crossing_page(void)
{
	post_tx(0, evil.data_refs[0], 0, 300, NETTXF_more_data);
	post_tx(1, evil.data_refs[1], 4000, 200, 0);
	RING_PUSH_REQUESTS(&evil.tx);
}

static void
tx_bad_grant_ref(void)
{
	post_tx(0, 7777, 0, 60, 0);
	RING_PUSH_REQUESTS(&evil.tx);
}

/* A packet of @n 20-byte slots. */
static void
tx_slots(uint16_t n)
{
	post_tx(0, evil.data_refs[0], 0, n * 20, NETTXF_more_data);
	for (uint16_t i = 1; i < n; i++)
		post_tx(i, evil.data_refs[i % DATA_PAGES], 0, 20,
			i < n - 1 ? NETTXF_more_data : 0);
	RING_PUSH_REQUESTS(&evil.tx);
}

static void
tx_too_many_slots(void)
{
	tx_slots(19);
}

/* Past Linux's fatal_skb_slots (20 after the first). */
static void
tx_slots_past_the_fatal_bound(void)
{
	tx_slots(22);
}

static void
tx_unknown_extra(void)
{
	struct netif_extra_info *extra;

	post_tx(0, evil.data_refs[0], 0, 60, NETTXF_extra_info);
	extra = (void *)RING_GET_REQUEST(&evil.tx, evil.tx.req_prod_pvt++);
	memset(extra, 0, sizeof(*extra));
	extra->type = 0x42;
	RING_PUSH_REQUESTS(&evil.tx);
}

static void
post_gso_extra(uint16_t size, uint8_t type)
{
	struct netif_extra_info *extra;

	extra = (void *)RING_GET_REQUEST(&evil.tx, evil.tx.req_prod_pvt++);
	memset(extra, 0, sizeof(*extra));
	extra->type = XEN_NETIF_EXTRA_TYPE_GSO;
	extra->u.gso.size = size;
	extra->u.gso.type = type;
}

static void
tx_gso_size_zero(void)
{
	post_tx(0, evil.data_refs[0], 0, 60,
		NETTXF_csum_blank | NETTXF_extra_info);
	post_gso_extra(0, XEN_NETIF_GSO_TYPE_TCPV4);
	RING_PUSH_REQUESTS(&evil.tx);
}

static void
tx_gso_unknown_type(void)
{
	post_tx(0, evil.data_refs[0], 0, 60,
		NETTXF_csum_blank | NETTXF_extra_info);
	post_gso_extra(1448, XEN_NETIF_GSO_TYPE_TCPV6 + 1);
	RING_PUSH_REQUESTS(&evil.tx);
}

static void
rx_producer_beyond_ring(void)
{
	evil.rx.sring->req_prod = 3 * NETIF_RX_RING_SIZE;
}

static void
rx_bad_grant_ref(void)
{
	netif_rx_request_t *req = RING_GET_REQUEST(&evil.rx,
						   evil.rx.req_prod_pvt++);

	req->id = 0;
	req->gref = 9999;
	RING_PUSH_REQUESTS(&evil.rx);
}

static void
rx_read_only_grant(void)
{
	netif_rx_request_t *req = RING_GET_REQUEST(&evil.rx,
						   evil.rx.req_prod_pvt++);

	/* A page the backend may read but not write. */
	req->id = 0;
	req->gref = evil.data_refs[0];
	RING_PUSH_REQUESTS(&evil.rx);
}

static void
test_tx_producer_beyond_ring_disconnects(void)
{
	check_attack(tx_producer_beyond_ring, "producer index beyond the ring");
}

static void
test_tx_slot_crossing_page_disconnects(void)
{
	check_attack(tx_slot_crossing_page, "crosses a page boundary");
}

static void
test_tx_bad_grant_ref_is_tolerated(void)
{
	check_tolerated(tx_bad_grant_ref, "rx_q0_drop_copy_failed");
}

static void
test_tx_too_many_slots_is_tolerated(void)
{
	check_tolerated(tx_too_many_slots, "rx_q0_drop_bad_frame");
}

static void
test_tx_slots_past_the_fatal_bound_disconnect(void)
{
	check_attack(tx_slots_past_the_fatal_bound,
		     "more slots than the fatal bound");
}

/* fatal_slots=17: 19 slots are fatal, as Linux with fatal_skb_slots=17. */
static void
test_fatal_slots_devarg_sets_the_bound(void)
{
	pair_destroy("net_xen_netback0", victim);
	victim = create_victim(",fatal_slots=17");
	REQUIRE(victim >= 0);
	check_attack(tx_too_many_slots, "more slots than the fatal bound");
	pair_destroy("net_xen_netback0", victim);
	victim = create_victim("");
	REQUIRE(victim >= 0);
}

/*
 * A frontend that fails again and again (fail, Closing, Initialising,
 * connect, fail...) is backed off: with fail_backoff_ms=50 the backend
 * offers InitWait again at once after the first failure, then after 50,
 * 100 and 200 ms, saying so; each time the frontend does connect again.
 */
static void
test_a_frontend_that_keeps_failing_is_backed_off(void)
{
	static const char *const waits[] = {
		"1 time in a row: next connect in 0 ms",
		"2 times in a row: next connect in 50 ms",
		"3 times in a row: next connect in 100 ms",
		"4 times in a row: next connect in 200 ms",
	};
	const char *log;
	size_t start;

	pair_destroy("net_xen_netback0", victim);
	victim = create_victim(",fail_backoff_ms=50");
	REQUIRE(victim >= 0);
	start = test_log_mark();
	for (size_t i = 0; i < RTE_DIM(waits); i++)
		check_attack(tx_producer_beyond_ring,
			     "producer index beyond the ring");
	log = test_log_since(start);
	for (size_t i = 0; i < RTE_DIM(waits); i++)
		CHECK(strstr(log, waits[i]) != NULL);
	/*
	 * The wait is kept: with 10 s to wait, the frontend that comes
	 * back at once finds no InitWait in the next second (a slower
	 * machine only makes that second shorter for the backend).
	 */
	pair_destroy("net_xen_netback0", victim);
	victim = create_victim(",fail_backoff_ms=10000");
	REQUIRE(victim >= 0);
	check_attack(tx_producer_beyond_ring, "producer index beyond the ring");
	check_attack(tx_producer_beyond_ring, "producer index beyond the ring");
	CHECK(strstr(test_log_since(start), "next connect in 10000 ms") != NULL);
	for (unsigned int ms = 0; ms < 1000; ms++) {
		CHECK(xenbus_read_state(evil.xa, evil.be_dir) !=
		      XenbusStateInitWait);
		rte_delay_us_sleep(1000);
	}
	pair_destroy("net_xen_netback0", victim);
	victim = create_victim("");
	REQUIRE(victim >= 0);
}

static void
test_tx_unknown_extra_disconnects(void)
{
	check_attack(tx_unknown_extra, "unknown extra info type");
}

static void
test_tx_gso_size_zero_disconnects(void)
{
	check_attack(tx_gso_size_zero, "GSO size 0");
}

static void
test_tx_gso_unknown_type_disconnects(void)
{
	check_attack(tx_gso_unknown_type, "unknown GSO type");
}

static void
test_rx_producer_beyond_ring_disconnects(void)
{
	check_attack(rx_producer_beyond_ring, "RX request producer index");
}

static void
test_rx_bad_grant_ref_is_tolerated(void)
{
	check_tolerated(rx_bad_grant_ref, "tx_q0_drop_copy_failed");
}

static void
test_rx_read_only_grant_is_tolerated(void)
{
	check_tolerated(rx_read_only_grant, "tx_q0_drop_copy_failed");
}

static void
test_hostile_frontend_can_reconnect_and_behave(void)
{
	struct rte_mbuf *pkts[4];
	unsigned int n = 0;

	REQUIRE(hostile_connect());
	post_tx(42, evil.data_refs[0], 0, 60, 0);
	RING_PUSH_REQUESTS(&evil.tx);
	for (unsigned int ms = 0; ms < 5000 && n == 0; ms++) {
		n = rte_eth_rx_burst(victim, 0, pkts, RTE_DIM(pkts));
		rte_delay_us_sleep(1000);
	}
	CHECK(n == 1 && pkts[0]->pkt_len == 60);
	CHECK(n == 1 && memcmp(rte_pktmbuf_mtod(pkts[0], void *), evil.data,
			       60) == 0);
	rte_pktmbuf_free_bulk(pkts, n);
	CHECK(evil.tx.sring->rsp_prod == 1);
	CHECK(RING_GET_RESPONSE(&evil.tx, 0)->id == 42);
	CHECK(RING_GET_RESPONSE(&evil.tx, 0)->status == NETIF_RSP_OKAY);
	hostile_disconnect();
}

static void
test_queue_count_not_offered_is_refused(void)
{
	char path[128];
	size_t start;

	snprintf(path, sizeof(path), "%s/multi-queue-num-queues", evil.dir);
	REQUIRE(xa_xs_printf(evil.xa, XBT_NULL, path, "%u", 5u));
	start = test_log_mark();
	REQUIRE(hostile_offer());
	CHECK(wait_backend_state(XenbusStateClosing));
	CHECK(strstr(test_log_since(start),
		     "multi-queue-num-queues is 5, not 1..1") != NULL);
	CHECK(honest_pair_still_works());
	REQUIRE(xa_xs_rm(evil.xa, XBT_NULL, path));
	hostile_disconnect();
}

/* Send one frame of @len bytes from data page 1 with @flags; get it back. */
static struct rte_mbuf *
send_one(uint16_t len, uint16_t flags, int16_t *status)
{
	struct rte_mbuf *m = NULL;
	RING_IDX rsp = evil.tx.rsp_cons;

	post_tx(7, evil.data_refs[1], 0, len, flags);
	RING_PUSH_REQUESTS(&evil.tx);
	for (unsigned int ms = 0; ms < 5000; ms++) {
		if (m == NULL && rte_eth_rx_burst(victim, 0, &m, 1) == 1)
			continue;
		if (evil.tx.sring->rsp_prod != rsp)
			break;
		rte_delay_us_sleep(1000);
	}
	*status = RING_GET_RESPONSE(&evil.tx, rsp)->status;
	evil.tx.rsp_cons = rsp + 1;
	return m;
}

static void
test_blank_checksum_is_completed(void)
{
	uint8_t *f = (uint8_t *)evil.data + NETIF_PAGE_SIZE;
	struct rte_ipv4_hdr *ip = (void *)(f + 14);
	uint16_t *csum = (uint16_t *)(f + 14 + 20 + 16), sent, want;
	struct rte_mbuf *m;
	int16_t status;

	REQUIRE(hostile_connect());
	memset(f, 0xab, 100);
	f[12] = 0x08;
	f[13] = 0x00;
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(86);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_TCP;
	*csum = 0x1234;		/* blank: anything at all */
	m = send_one(100, NETTXF_csum_blank, &status);
	CHECK(status == NETIF_RSP_OKAY);
	REQUIRE(m != NULL);
	sent = *rte_pktmbuf_mtod_offset(m, uint16_t *, 14 + 20 + 16);
	*rte_pktmbuf_mtod_offset(m, uint16_t *, 14 + 20 + 16) = 0;
	want = rte_ipv4_udptcp_cksum(rte_pktmbuf_mtod_offset(m, void *, 14),
				     rte_pktmbuf_mtod_offset(m, void *, 34));
	CHECK(sent == want);
	rte_pktmbuf_free(m);

	/* A blank checksum on a frame without one: dropped, answered OKAY. */
	f[12] = 0x08;
	f[13] = 0x06;
	m = send_one(100, NETTXF_csum_blank, &status);
	CHECK(m == NULL && status == NETIF_RSP_OKAY);
	rte_pktmbuf_free(m);
	CHECK(pair_xstat(victim, "rx_q0_drop_bad_csum") == 1);
	CHECK(xenbus_read_state(evil.xa, evil.be_dir) == XenbusStateConnected);
	hostile_disconnect();
}

#define GSO_LEN 3000
#define GSO_HDRS (14 + 20 + 20)

/*
 * A TCP/IPv4 frame of GSO_LEN bytes (EtherType @type) sent as a GSO packet
 * of size @gso_size in two slots, the first of @first bytes (data page 1)
 * and the rest (data page 2). Returns what the victim received, if
 * anything, with the status of the packet's first response.
 */
static struct rte_mbuf *
send_gso(uint16_t type, uint16_t first, uint16_t gso_size, int16_t *status)
{
	uint8_t frame[GSO_LEN];
	struct rte_ipv4_hdr *ip = (void *)(frame + 14);
	struct rte_tcp_hdr *tcp = (void *)(ip + 1);
	RING_IDX rsp = evil.tx.rsp_cons;
	struct rte_mbuf *m = NULL;

	for (unsigned int i = 0; i < GSO_LEN; i++)
		frame[i] = i * 3;
	frame[12] = type >> 8;
	frame[13] = type & 0xff;
	memset(ip, 0, sizeof(*ip) + sizeof(*tcp));
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(GSO_LEN - 14);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_TCP;
	tcp->data_off = 5 << 4;
	memcpy((uint8_t *)evil.data + NETIF_PAGE_SIZE, frame, first);
	memcpy((uint8_t *)evil.data + 2 * NETIF_PAGE_SIZE, frame + first,
	       GSO_LEN - first);
	post_tx(7, evil.data_refs[1], 0, GSO_LEN,
		NETTXF_csum_blank | NETTXF_data_validated | NETTXF_extra_info |
		NETTXF_more_data);
	post_gso_extra(gso_size, XEN_NETIF_GSO_TYPE_TCPV4);
	post_tx(8, evil.data_refs[2], 0, GSO_LEN - first, 0);
	RING_PUSH_REQUESTS(&evil.tx);
	for (unsigned int ms = 0; ms < 5000; ms++) {
		if (m == NULL && rte_eth_rx_burst(victim, 0, &m, 1) == 1)
			continue;
		if (evil.tx.sring->rsp_prod - rsp == 3)
			break;
		rte_delay_us_sleep(1000);
	}
	*status = RING_GET_RESPONSE(&evil.tx, rsp)->status;
	evil.tx.rsp_cons = rsp + 3;
	return m;
}

static void
test_gso_headers_cut_by_a_tiny_first_slot_arrive_whole(void)
{
	const uint8_t *last;
	struct rte_mbuf *m;
	int16_t status;
	uint8_t byte;

	REQUIRE(hostile_connect());
	m = send_gso(RTE_ETHER_TYPE_IPV4, 20, 1448, &status);
	CHECK(status == NETIF_RSP_OKAY);
	REQUIRE(m != NULL);
	CHECK(m->pkt_len == GSO_LEN && rte_pktmbuf_data_len(m) >= GSO_HDRS);
	CHECK(m->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
	CHECK(m->tso_segsz == 1448);
	CHECK(m->l2_len + m->l3_len + m->l4_len == GSO_HDRS);
	last = rte_pktmbuf_read(m, GSO_LEN - 1, 1, &byte);
	CHECK(last != NULL && *last == (uint8_t)((GSO_LEN - 1) * 3));
	rte_pktmbuf_free(m);
	CHECK(pair_xstat(victim, "rx_q0_gso_packets") == 1);
	hostile_disconnect();
}

static void
test_gso_packets_that_cannot_be_segments_are_dropped(void)
{
	struct rte_mbuf *m;
	int16_t status;

	REQUIRE(hostile_connect());
	/* No TCP header: an ARP frame. */
	m = send_gso(RTE_ETHER_TYPE_ARP, 200, 1448, &status);
	CHECK(m == NULL && status == NETIF_RSP_OKAY);
	/* Segments larger than the largest frame. */
	m = send_gso(RTE_ETHER_TYPE_IPV4, 200, UINT16_MAX, &status);
	CHECK(m == NULL && status == NETIF_RSP_OKAY);
	CHECK(pair_xstat(victim, "rx_q0_drop_bad_gso") == 2);
	CHECK(xenbus_read_state(evil.xa, evil.be_dir) == XenbusStateConnected);
	hostile_disconnect();
}

/* One control request, answered within 5 s; its status, or UINT32_MAX. */
static uint32_t
ctrl_request(uint16_t type, uint32_t d0, uint32_t d1, uint32_t d2,
	     uint32_t *data)
{
	struct xen_netif_ctrl_response rsp;
	uint16_t id;

	if (!netif_ctrl_front_queue(&evil.ctrl, type, d0, d1, d2, &id))
		return UINT32_MAX;
	if (netif_ctrl_front_push(&evil.ctrl))
		xa_evtchn_notify(xa_evtchn(evil.xa), evil.ctrl_port);
	for (unsigned int ms = 0; ms < 5000; ms++) {
		if (netif_ctrl_front_responses(&evil.ctrl, &rsp, 1) == 1 &&
		    rsp.id == id) {
			if (data != NULL)
				*data = rsp.data;
			return rsp.status;
		}
		rte_delay_us_sleep(1000);
	}
	return UINT32_MAX;
}

struct storm {
	evtchn_port_t port;
	bool stop;
	uint64_t sent;
};

/* A guest notifying its control ring's channel as fast as it can. */
static void *
storm(void *arg)
{
	struct storm *s = arg;

	while (!__atomic_load_n(&s->stop, __ATOMIC_RELAXED))
		if (xa_evtchn_notify(xa_evtchn(evil.xa), s->port) == 0)
			s->sent++;
	return NULL;
}

/*
 * An event storm on the control ring's channel (XSA-332) stalls no other
 * port on the interrupt thread every port shares: while it rages, the
 * honest pair's netfront is closed and created again, reconnects and
 * moves 2000 packets, and the storming guest's own request is answered.
 * Its serves that found nothing are counted, and its notifications reach
 * the victim as a few events only. The storm comes two ways: a guest
 * thread notifying as fast as a CPU can, and the simulator's knob, which
 * has the channel pending again at each unmask.
 */
static void
storm_check(bool knob)
{
	struct storm s = { .stop = false };
	uint64_t t0, hz = rte_get_timer_hz();
	uint64_t events0 = pair_xstat(victim, "ctrl_events");
	uint64_t spurious0 = pair_xstat(victim, "ctrl_spurious_events");
	const char *how = knob ? "knob" : "thread";
	char args[128];
	pthread_t thread;

	evil.with_ctrl = true;
	REQUIRE(hostile_connect());
	s.port = evil.ctrl_port;
	if (knob)
		REQUIRE(xsim_evtchn_storm(pair_sim_instance(), HOSTILE_DOMID,
					  s.port, true) == 0 &&
			xa_evtchn_notify(xa_evtchn(evil.xa), s.port) == 0);
	else
		REQUIRE(pthread_create(&thread, NULL, storm, &s) == 0);
	rte_delay_us_sleep(200 * 1000);
	t0 = rte_get_timer_cycles();
	pair_destroy("net_xen_netfront0", front);
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s",
		 pair_sim_instance());
	front = pair_create("net_xen_netfront0", args, test_pool);
	CHECK(front >= 0 && pair_wait_link(front, true, 10000) &&
	      pair_wait_link(back, true, 10000));
	CHECK(honest_pair_still_works());
	printf("# %s storm: honest netfront reconnected and moved 2000 packets in %.3f s\n",
	       how, (double)(rte_get_timer_cycles() - t0) / hz);
	t0 = rte_get_timer_cycles();
	CHECK(ctrl_request(XEN_NETIF_CTRL_TYPE_GET_HASH_FLAGS, 0, 0, 0,
			   NULL) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	printf("# %s storm: the storming guest's own request answered in %.3f s\n",
	       how, (double)(rte_get_timer_cycles() - t0) / hz);
	if (knob) {
		CHECK(xsim_evtchn_storm(pair_sim_instance(), HOSTILE_DOMID,
					s.port, false) == 0);
	} else {
		__atomic_store_n(&s.stop, true, __ATOMIC_RELAXED);
		pthread_join(thread, NULL);
	}
	printf("# %s storm: %" PRIu64 " notifications sent, %" PRIu64
	       " events taken, %" PRIu64 " spurious\n", how, s.sent,
	       pair_xstat(victim, "ctrl_events") - events0,
	       pair_xstat(victim, "ctrl_spurious_events") - spurious0);
	CHECK(pair_xstat(victim, "ctrl_spurious_events") > spurious0);
	/*
	 * Throttled: the channel stays masked between serves, for up to
	 * 250 ms after one that found nothing, so the tens of millions of
	 * notifications (or an event at every unmask) arrive as a few dozen
	 * events (unthrottled, the simulator delivers them by the ten
	 * thousand).
	 */
	CHECK(pair_xstat(victim, "ctrl_events") - events0 < 1000);
	hostile_disconnect();
}

static void
test_a_storming_guest_stalls_no_other_port(void)
{
	storm_check(false);
	storm_check(true);
}

static void
test_ctrl_producer_beyond_ring_disconnects(void)
{
	size_t start;

	evil.with_ctrl = true;
	REQUIRE(hostile_connect());
	start = test_log_mark();
	evil.ctrl_sring->req_prod = NETIF_CTRL_RING_SIZE + 3;
	xa_evtchn_notify(xa_evtchn(evil.xa), evil.ctrl_port);
	CHECK(wait_backend_state(XenbusStateClosing));
	CHECK(strstr(test_log_since(start),
		     "control request producer index beyond the ring") !=
	      NULL);
	CHECK(pair_wait_link(victim, false, 10000));
	CHECK(honest_pair_still_works());
	hostile_disconnect();
}

static void
test_ctrl_static_grants_it_did_not_give_are_refused(void)
{
	struct rte_mbuf *m;
	uint32_t size = 0;
	int16_t status;

	evil.with_ctrl = true;
	REQUIRE(hostile_connect());
	CHECK(ctrl_request(XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE, 0, 0, 0,
			   &size) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(size > 0);
	CHECK(ctrl_request(XEN_NETIF_CTRL_TYPE_GET_GREF_MAPPING_SIZE, 1, 0, 0,
			   NULL) == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	/* A grant never given, then a read-only one asked writable. */
	evil.list[0] = (struct xen_netif_gref){ .ref = 7777 };
	CHECK(ctrl_request(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 0,
			   evil.list_ref, 1, NULL) ==
	      XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	evil.list[0] = (struct xen_netif_gref){ .ref = evil.data_refs[1] };
	CHECK(ctrl_request(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 0,
			   evil.list_ref, 1, NULL) ==
	      XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	CHECK(pair_xstat(victim, "rx_q0_static_grants") == 0);
	/* A list longer than its page. */
	CHECK(ctrl_request(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 0,
			   evil.list_ref, 100000, NULL) ==
	      XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	/* A type outside the protocol: NOT_SUPPORTED, still connected. */
	CHECK(ctrl_request(42, 1, 0, 0, NULL) ==
	      XEN_NETIF_CTRL_STATUS_NOT_SUPPORTED);
	/* Given read-only and asked so: its packets skip the grant copy. */
	evil.list[0].flags = XEN_NETIF_CTRLF_GREF_readonly;
	CHECK(ctrl_request(XEN_NETIF_CTRL_TYPE_ADD_GREF_MAPPING, 0,
			   evil.list_ref, 1, NULL) ==
	      XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(pair_xstat(victim, "rx_q0_static_grants") == 1);
	m = send_one(60, 0, &status);
	CHECK(status == NETIF_RSP_OKAY && m != NULL &&
	      memcmp(rte_pktmbuf_mtod(m, uint8_t *),
		     (uint8_t *)evil.data + NETIF_PAGE_SIZE, 60) == 0);
	rte_pktmbuf_free(m);
	CHECK(pair_xstat(victim, "rx_q0_static_packets") >= 1);
	CHECK(xenbus_read_state(evil.xa, evil.be_dir) ==
	      XenbusStateConnected);
	CHECK(honest_pair_still_works());
	hostile_disconnect();
	CHECK(pair_xstat(victim, "rx_q0_static_grants") == 0);
}

/*
 * As a Windows frontend does over its control ring: Toeplitz over IPv4
 * and TCP with Microsoft's verification key, a table of one queue; a
 * table entry naming a queue it does not have is refused (XSA-270). The
 * victim's TCP frame of Microsoft's first row then reaches it with the
 * hash Microsoft gives, in a hash extra after its slot.
 */
static void
test_the_guests_hash_goes_with_its_frames(void)
{
	struct rte_eth_rss_reta_entry64 reta[2];
	const struct netif_extra_info *extra;
	const netif_rx_response_t *rsp;
	uint8_t conf_key[40];
	struct rte_eth_rss_conf conf = {
		.rss_key = conf_key, .rss_key_len = sizeof(conf_key),
	};
	netif_rx_request_t *req;
	struct rte_mbuf *m;
	grant_ref_t refs[2];
	uint32_t *entries;
	uint8_t *pages;

	evil.with_ctrl = true;
	REQUIRE(hostile_connect());
	pages = xa_gnt_share(evil.xa, 0, 2, refs, true);
	REQUIRE(pages != NULL);
	memcpy(pages, ms_rss_key, sizeof(ms_rss_key));
	CHECK(ctrl_request(XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM,
			   XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ, 0, 0, NULL) ==
	      XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(ctrl_request(XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS,
			   XEN_NETIF_CTRL_HASH_TYPE_IPV4 |
			   XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP, 0, 0, NULL) ==
	      XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(ctrl_request(XEN_NETIF_CTRL_TYPE_SET_HASH_KEY, refs[0], 40, 0,
			   NULL) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	CHECK(ctrl_request(XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE, 1, 0, 0,
			   NULL) == XEN_NETIF_CTRL_STATUS_SUCCESS);
	entries = (uint32_t *)(pages + NETIF_PAGE_SIZE);
	entries[0] = 1;		/* it has one queue: 0 */
	CHECK(ctrl_request(XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING, refs[1], 1, 0,
			   NULL) == XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER);
	/* The frame, into the second page. */
	req = RING_GET_REQUEST(&evil.rx, evil.rx.req_prod_pvt++);
	req->id = 3;
	req->gref = refs[1];
	req = RING_GET_REQUEST(&evil.rx, evil.rx.req_prod_pvt++);
	req->id = 4;
	req->gref = refs[1];
	RING_PUSH_REQUESTS(&evil.rx);
	m = rte_pktmbuf_alloc(test_pool);
	REQUIRE(m != NULL && rte_pktmbuf_append(m, 54) != NULL);
	memset(rte_pktmbuf_mtod(m, void *), 0, 54);
	memcpy(rte_pktmbuf_mtod(m, void *), ms_rss_row1, sizeof(ms_rss_row1));
	REQUIRE(rte_eth_tx_burst(victim, 0, &m, 1) == 1);
	REQUIRE(evil.rx.sring->rsp_prod - evil.rx.rsp_cons == 2);
	rsp = RING_GET_RESPONSE(&evil.rx, evil.rx.rsp_cons);
	CHECK(rsp->id == 3 && rsp->status == 54 &&
	      (rsp->flags & NETRXF_extra_info));
	extra = (const void *)RING_GET_RESPONSE(&evil.rx,
						evil.rx.rsp_cons + 1);
	CHECK(extra->type == XEN_NETIF_EXTRA_TYPE_HASH &&
	      extra->u.hash.type == _XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP);
	CHECK(extra->u.hash.value[0] == 0x78 && extra->u.hash.value[1] == 0xc1 &&
	      extra->u.hash.value[2] == 0xcc && extra->u.hash.value[3] == 0x51);
	CHECK(pair_xstat(victim, "tx_q0_hashed_packets") == 1);
	evil.rx.rsp_cons += 2;
	/* The victim's application sees the guest's configuration. */
	CHECK(rte_eth_dev_rss_hash_conf_get(victim, &conf) == 0);
	CHECK(conf.rss_hf == (RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP));
	CHECK(conf.rss_key_len == 40 && memcmp(conf_key, ms_rss_key, 40) == 0);
	for (unsigned int i = 0; i < RTE_DIM(reta); i++) {
		reta[i].mask = UINT64_MAX;
		memset(reta[i].reta, 0xff, sizeof(reta[i].reta));
	}
	CHECK(rte_eth_dev_rss_reta_query(victim, reta, 128) == 0);
	CHECK(reta[0].reta[0] == 0 && reta[1].reta[63] == 0);
	/* A netfront's hash is its application's, which asked for none. */
	CHECK(rte_eth_dev_rss_hash_conf_get(front, &conf) == 0 &&
	      conf.rss_hf == 0);
	hostile_disconnect();
	xa_gnt_unshare(evil.xa, pages, 2);
}

/* A frame of 60 bytes from the victim's application to @dst. */
static bool
victim_sends_to(const struct rte_ether_addr *dst)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);

	if (m == NULL || rte_pktmbuf_append(m, 60) == NULL) {
		rte_pktmbuf_free(m);
		return false;
	}
	memset(rte_pktmbuf_mtod(m, void *), 0x5a, 60);
	rte_ether_addr_copy(dst, rte_pktmbuf_mtod(m, struct rte_ether_addr *));
	if (rte_eth_tx_burst(victim, 0, &m, 1) == 1)
		return true;
	rte_pktmbuf_free(m);
	return false;
}

/* Windows's way to join a group: a dummy request with an MCAST_ADD extra. */
static bool
hostile_joins(const struct rte_ether_addr *group)
{
	RING_IDX rsp = evil.tx.rsp_cons;
	struct netif_extra_info *extra;
	struct rte_mbuf *m;

	post_tx(9, evil.data_refs[0], 0, 0, NETTXF_extra_info);
	extra = (void *)RING_GET_REQUEST(&evil.tx, evil.tx.req_prod_pvt++);
	memset(extra, 0, sizeof(*extra));
	extra->type = XEN_NETIF_EXTRA_TYPE_MCAST_ADD;
	memcpy(extra->u.mcast.addr, group, RTE_ETHER_ADDR_LEN);
	RING_PUSH_REQUESTS(&evil.tx);
	for (unsigned int ms = 0; ms < 5000; ms++) {
		if (rte_eth_rx_burst(victim, 0, &m, 1) == 1)
			rte_pktmbuf_free(m);	/* none is expected */
		if (evil.tx.sring->rsp_prod - rsp == 2)
			break;
		rte_delay_us_sleep(1000);
	}
	evil.tx.rsp_cons = rsp + 2;
	return evil.tx.sring->rsp_prod - rsp == 2 &&
	       RING_GET_RESPONSE(&evil.tx, rsp)->status == NETIF_RSP_OKAY;
}

static void
test_multicast_frames_follow_the_guests_groups(void)
{
	const struct rte_ether_addr a = {{ 0x01, 0, 0x5e, 0, 0, 0xa }};
	const struct rte_ether_addr b = {{ 0x01, 0, 0x5e, 0, 0, 0xb }};
	const struct rte_ether_addr bcast = {{ 0xff, 0xff, 0xff, 0xff, 0xff,
					       0xff }};
	char ask[128], offer[128];
	grant_ref_t refs[3];
	unsigned int len;
	uint64_t sent;
	void *bufs;
	char *v;

	snprintf(offer, sizeof(offer), "%s/feature-dynamic-multicast-control",
		 evil.be_dir);
	snprintf(ask, sizeof(ask), "%s/request-multicast-control", evil.dir);
	REQUIRE(xa_xs_write(evil.xa, XBT_NULL, ask, "1", 1));
	REQUIRE(hostile_connect());
	v = xa_xs_read(evil.xa, XBT_NULL, offer, &len);
	CHECK(v != NULL && strcmp(v, "1") == 0);
	free(v);
	CHECK(hostile_joins(&a));
	bufs = xa_gnt_share(evil.xa, 0, 3, refs, true);
	REQUIRE(bufs != NULL);
	for (uint16_t i = 0; i < 3; i++) {
		netif_rx_request_t *req = RING_GET_REQUEST(&evil.rx,
						evil.rx.req_prod_pvt++);

		req->id = i;
		req->gref = refs[i];
	}
	RING_PUSH_REQUESTS(&evil.rx);
	sent = pair_xstat(victim, "tx_q0_packets");
	CHECK(victim_sends_to(&b) && victim_sends_to(&a) &&
	      victim_sends_to(&bcast));
	CHECK(pair_xstat(victim, "tx_q0_drop_multicast") == 1);
	CHECK(pair_xstat(victim, "tx_q0_packets") == sent + 2);
	CHECK(pair_xstat(victim, "rx_q0_multicast_requests") == 1);
	/* Dynamic: the guest stops filtering while connected. */
	REQUIRE(xa_xs_write(evil.xa, XBT_NULL, ask, "0", 1));
	for (unsigned int ms = 0; ms < 5000; ms++) {
		if (pair_xstat(victim, "tx_q0_packets") == sent + 3)
			break;
		CHECK(victim_sends_to(&b));
		rte_delay_us_sleep(1000);
	}
	CHECK(pair_xstat(victim, "tx_q0_packets") == sent + 3);
	REQUIRE(xa_xs_rm(evil.xa, XBT_NULL, ask));
	hostile_disconnect();
	xa_gnt_unshare(evil.xa, bufs, 3);
}

/*
 * The victim's frame to @dst into a page of @refs, @slots requests of
 * them posted, its first response checked to start at @headroom, with an
 * XDP extra after it when there is headroom.
 */
static bool
frame_at_headroom(uint8_t *pages, const grant_ref_t *refs, uint16_t slots,
		  uint16_t headroom)
{
	const struct rte_ether_addr dst = {{ 0x02, 0, 0, 0, 0, 0x2 }};
	const struct netif_extra_info *extra;
	const netif_rx_response_t *rsp;
	bool ok;

	memset(pages, 0, (size_t)slots * NETIF_PAGE_SIZE);
	for (uint16_t i = 0; i < slots; i++) {
		netif_rx_request_t *req = RING_GET_REQUEST(&evil.rx,
						evil.rx.req_prod_pvt++);

		req->id = 20 + i;
		req->gref = refs[i];
	}
	RING_PUSH_REQUESTS(&evil.rx);
	if (!victim_sends_to(&dst) ||
	    evil.rx.sring->rsp_prod - evil.rx.rsp_cons != slots)
		return false;
	rsp = RING_GET_RESPONSE(&evil.rx, evil.rx.rsp_cons);
	extra = (const void *)RING_GET_RESPONSE(&evil.rx, evil.rx.rsp_cons + 1);
	ok = rsp->id == 20 && rsp->offset == headroom && rsp->status == 60 &&
	     memcmp(pages + headroom, &dst, sizeof(dst)) == 0 &&
	     pages[headroom + 59] == 0x5a &&
	     (headroom == 0 ? rsp->flags == 0 :
	      rsp->flags == NETRXF_extra_info &&
	      extra->type == XEN_NETIF_EXTRA_TYPE_XDP && extra->flags == 0 &&
	      extra->u.pad[0] == headroom);
	if (!ok)
		fprintf(stderr, "frame: id %u offset %u status %d flags %#x, want headroom %u\n",
			rsp->id, rsp->offset, rsp->status, rsp->flags, headroom);
	evil.rx.rsp_cons += slots;
	return ok;
}

/* The frontend's next headroom, through Reconfiguring as Linux's. */
static bool
hostile_reconfigures(const char *headroom)
{
	char key[128];

	snprintf(key, sizeof(key), "%s/xdp-headroom", evil.dir);
	return xa_xs_write(evil.xa, XBT_NULL, key, headroom, strlen(headroom)) &&
	       xenbus_switch_state(evil.xa, evil.dir,
				   XenbusStateReconfiguring) &&
	       wait_backend_state(XenbusStateReconfigured) &&
	       xenbus_switch_state(evil.xa, evil.dir, XenbusStateConnected) &&
	       wait_backend_state(XenbusStateConnected);
}

static void
test_xdp_headroom_follows_reconfiguring(void)
{
	struct rte_eth_link link;
	grant_ref_t refs[2];
	char key[128];
	unsigned int len, lines;
	uint8_t *pages;
	size_t start;
	char *v;

	snprintf(key, sizeof(key), "%s/xdp-headroom", evil.dir);
	REQUIRE(xa_xs_write(evil.xa, XBT_NULL, key, "256", 3));
	REQUIRE(hostile_connect());
	snprintf(key, sizeof(key), "%s/feature-xdp-headroom", evil.be_dir);
	v = xa_xs_read(evil.xa, XBT_NULL, key, &len);
	CHECK(v != NULL && strcmp(v, "1") == 0);
	free(v);
	pages = xa_gnt_share(evil.xa, 0, 2, refs, true);
	REQUIRE(pages != NULL);
	/* Asked at connect; then none, as when the guest's program goes. */
	CHECK(frame_at_headroom(pages, refs, 2, 256));
	CHECK(hostile_reconfigures("0"));
	CHECK(frame_at_headroom(pages, refs, 1, 0));
	CHECK(hostile_reconfigures("128"));
	CHECK(frame_at_headroom(pages, refs, 2, 128));
	/* Beyond what we leave: the most we leave, said in the extra. */
	start = test_log_mark();
	CHECK(hostile_reconfigures("32767"));
	CHECK(frame_at_headroom(pages, refs, 2, NETIF_XDP_HEADROOM_MAX));
	CHECK(strstr(test_log_since(start), "xdp-headroom 32767 is above") !=
	      NULL);
	/* Each of 50 more is answered; their lines are rate-limited. */
	start = test_log_mark();
	for (unsigned int i = 0; i < 50; i++)
		CHECK(hostile_reconfigures(i % 2 ? "256" : "garbage"));
	CHECK(frame_at_headroom(pages, refs, 2, 256));
	lines = 0;
	for (const char *l = test_log_since(start);
	     (l = strstr(l, "xdp-headroom is not a number")) != NULL; l++)
		lines++;
	printf("# 25 garbage values in 50 reconfigurations: %u lines\n", lines);
	CHECK(lines >= 1 && lines <= 10);
	/* The link never went down. */
	CHECK(rte_eth_link_get_nowait(victim, &link) == 0 && link.link_status);
	snprintf(key, sizeof(key), "%s/xdp-headroom", evil.dir);
	REQUIRE(xa_xs_rm(evil.xa, XBT_NULL, key));
	hostile_disconnect();
	xa_gnt_unshare(evil.xa, pages, 2);
}

/*
 * The victim port (served to the hostile domain, its application taking
 * large segments), an honest pair beside it, the hostile domain's own Xen
 * access, and EAL's log kept.
 */
static int
setup(const char *argv0)
{
	struct xa_open_args xa_args = {
		.provider = XA_PROVIDER_SIM,
		.sim_instance = pair_sim_instance(),
		.sim_domid = HOSTILE_DOMID,
	};
	char args[128];

	if (pair_setup(argv0) != 0 || test_log_capture() != 0)
		return -1;
	victim = create_victim("");
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s",
		 pair_sim_instance());
	back = pair_create("net_xen_netback1", args, test_pool);
	front = pair_create("net_xen_netfront0", args, test_pool);
	evil.xa = xa_open(&xa_args);
	if (victim < 0 || back < 0 || front < 0 || evil.xa == NULL)
		return -1;
	snprintf(evil.dir, sizeof(evil.dir), "/local/domain/%d/device/vif/0",
		 HOSTILE_DOMID);
	snprintf(evil.be_dir, sizeof(evil.be_dir),
		 "/local/domain/0/backend/vif/%d/0", HOSTILE_DOMID);
	return pair_wait_link(back, true, 10000) &&
	       pair_wait_link(front, true, 10000) ? 0 : -1;
}

static void
teardown(void)
{
	xa_close(evil.xa);
	pair_destroy("net_xen_netfront0", front);
	pair_destroy("net_xen_netback1", back);
	pair_destroy("net_xen_netback0", victim);
	test_log_release();
	pair_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_tx_producer_beyond_ring_disconnects);
	RUN(test_tx_slot_crossing_page_disconnects);
	RUN(test_tx_bad_grant_ref_is_tolerated);
	RUN(test_tx_too_many_slots_is_tolerated);
	RUN(test_tx_slots_past_the_fatal_bound_disconnect);
	RUN(test_fatal_slots_devarg_sets_the_bound);
	RUN(test_a_frontend_that_keeps_failing_is_backed_off);
	RUN(test_tx_unknown_extra_disconnects);
	RUN(test_rx_producer_beyond_ring_disconnects);
	RUN(test_rx_bad_grant_ref_is_tolerated);
	RUN(test_rx_read_only_grant_is_tolerated);
	RUN(test_queue_count_not_offered_is_refused);
	RUN(test_hostile_frontend_can_reconnect_and_behave);
	RUN(test_blank_checksum_is_completed);
	RUN(test_tx_gso_size_zero_disconnects);
	RUN(test_tx_gso_unknown_type_disconnects);
	RUN(test_gso_headers_cut_by_a_tiny_first_slot_arrive_whole);
	RUN(test_gso_packets_that_cannot_be_segments_are_dropped);
	RUN(test_ctrl_producer_beyond_ring_disconnects);
	RUN(test_a_storming_guest_stalls_no_other_port);
	RUN(test_ctrl_static_grants_it_did_not_give_are_refused);
	RUN(test_multicast_frames_follow_the_guests_groups);
	RUN(test_the_guests_hash_goes_with_its_frames);
	RUN(test_xdp_headroom_follows_reconfiguring);
}
