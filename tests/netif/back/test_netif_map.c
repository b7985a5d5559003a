/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest TX lent from a pull's mapping (netif_back_tx's map_min, the
 * netback's tx_map_min=), with pages a frontend domain really grants
 * through the simulated hypervisor, which maps them as Xen does: the page
 * is shared while mapped and gone once unmapped. A packet of at least
 * map_min bytes is mapped, with the pull's others in one mapping, its head
 * copied and the rest lent; only the copied head is safe from the guest,
 * and a blank checksum is completed there, headers past it pulled in
 * first; the mapping is undone, then its packets answered, once the
 * application has freed them all; a mapping Xen refuses falls back to
 * mapping each packet alone, and one refused alone to the copy;
 * the application holds at most half the ring; a reconnect or a lender
 * destroyed under held mbufs unmaps what was lent without answering it on
 * the wrong ring; a packet held past the hold is let go: copied where it
 * lies, unmapped and answered while the application still reads it.
 */

#include <string.h>
#include <sys/mman.h>

#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_tcp.h>

#include "netif_back.h"
#include "netif_gso_bufs.h"
#include "netif_lend.h"
#include "test.h"
#include "test_eal.h"
#include "tx_guest.h"
#include "xsim/xsim_test.h"

#define BACKEND 0
#define FRONTEND 1
#define PAGES 8
#define MAP_MIN 512

static struct xa_handle *be, *fe;
static uint8_t *pages; /* the frontend's granted pages */
static grant_ref_t refs[PAGES];

static struct netif_lend *l;

/* Pages the backend has mapped in the simulated hypervisor; -1: unknown. */
static int64_t
backend_maps(void)
{
	struct xsim_usage u;

	return usage_of(BACKEND, &u) == 0 ? (int64_t)u.maps : -1;
}

/* A fresh lender, a fresh ring, no static grants. */
static void
start(void)
{
	l = netif_lend_create("test_map", SOCKET_ID_ANY);
	REQUIRE(l != NULL);
	tx_guest_ring_reset();
	memset(&tx, 0, sizeof(tx));
	netif_back_tx_setup(&tx, test_pool, 0);
	tx.lend = l;
	tx.map_min = MAP_MIN;
	REQUIRE(netif_back_tx_connect(&tx, &shared.sring, be, FRONTEND) == 0);
}

static void
stop(void)
{
	netif_back_tx_release(&tx);
	CHECK(netif_lend_destroy(l) == 0);
	CHECK(backend_maps() == 0);
}

/* A pull that finds no packet, only loans to answer. */
static void
pull_none(void)
{
	enum netif_doorbell bell;
	struct rte_mbuf *m;

	CHECK(netif_back_tx_pull(&tx, &m, 1, &bell) == 0);
}

static void
test_a_long_packet_is_mapped_and_unmapped_before_its_answer(void)
{
	start();
	struct rte_mbuf *m;
	uint8_t copy[1000];

	fill(0, 1);
	send_frame(refs[0], 1000, 7, 0);
	m = pull_one();
	REQUIRE(m != NULL);
	CHECK(tx.stats.map_packets == 1 && tx.stats.zero_copy_packets == 1);
	CHECK(tx.stats.static_packets == 0 && tx.copy.stats.calls == 0);
	CHECK(backend_maps() == 1);
	CHECK(m->nb_segs == 2 && m->data_len == NETIF_LEND_HEAD &&
	      m->pkt_len == 1000 && RTE_MBUF_HAS_EXTBUF(m->next));
	CHECK(memcmp(rte_pktmbuf_read(m, 0, 1000, copy), pages, 1000) == 0);
	/*
	 * The guest rewrites its page: the mapped rest shows it, the copied
	 * head, all the backend parsed, does not.
	 */
	pages[12] ^= 0xff;
	pages[600] ^= 0xff;
	CHECK(rte_pktmbuf_mtod(m, uint8_t *)[12] == (uint8_t)(12 * 7 + 1));
	CHECK(*rte_pktmbuf_mtod_offset(m->next, uint8_t *,
				       600 - NETIF_LEND_HEAD) ==
	      (uint8_t) ~(uint8_t)(600 * 7 + 1));
	pull_none();
	CHECK(answered() == 0 && tx.stats.unmaps == 0);
	rte_pktmbuf_free(m);
	/* Still mapped until the queue's next pull, which then answers. */
	CHECK(backend_maps() == 1 && answered() == 0);
	pull_none();
	CHECK(backend_maps() == 0 && tx.stats.unmaps == 1);
	CHECK(answered() == 1);
	CHECK(RING_GET_RESPONSE(&front, 0)->id == 7 &&
	      RING_GET_RESPONSE(&front, 0)->status == NETIF_RSP_OKAY);
	CHECK(tx.stats.zero_copy_slots == 0 && tx.stats.zero_copy_failed == 0);
	stop();
}

/* Three slots on three pages: one mapping of three pages. */
static void
test_a_packet_of_three_slots_takes_one_mapping(void)
{
	start();
	netif_tx_request_t *req;
	static uint8_t copy[9000], want[9000];
	struct rte_mbuf *m;
	unsigned int s;

	for (s = 0; s < 3; s++)
		fill(s, (uint8_t)(s + 3));
	memcpy(want, pages, 4000);
	memcpy(want + 4000, pages + NETIF_PAGE_SIZE, 4000);
	memcpy(want + 8000, pages + 2 * NETIF_PAGE_SIZE, 1000);
	for (s = 0; s < 3; s++) {
		req = RING_GET_REQUEST(&front, front.req_prod_pvt++);
		*req = (netif_tx_request_t){
			.gref = refs[s],
			.id = s,
			.size = s == 0 ? 9000 :
				s == 1 ? 4000 :
					 1000,
			.flags = s < 2 ? NETTXF_more_data : 0,
		};
	}
	RING_PUSH_REQUESTS(&front);
	m = pull_one();
	REQUIRE(m != NULL);
	CHECK(m->nb_segs == 4 && m->pkt_len == 9000);
	CHECK(memcmp(rte_pktmbuf_read(m, 0, 9000, copy), want, 9000) == 0);
	CHECK(tx.stats.map_packets == 1 && backend_maps() == 3);
	rte_pktmbuf_free(m);
	pull_none();
	CHECK(answered() == 3 && tx.stats.unmaps == 1);
	stop();
}

static void
test_short_packets_are_copied(void)
{
	start();
	struct rte_mbuf *m;

	fill(0, 0);
	send_frame(refs[0], MAP_MIN - 1, 1, 0);
	m = pull_one();
	CHECK(m != NULL && m->nb_segs == 1 && !RTE_MBUF_HAS_EXTBUF(m));
	rte_pktmbuf_free(m);
	CHECK(tx.stats.map_packets == 0 && backend_maps() == 0);
	CHECK(tx.copy.stats.calls == 1 && answered() == 1);
	stop();
}

/*
 * A TCP/IPv4 frame of @len bytes on page @page with @ip_opt bytes of IP
 * options and a TCP header of @tcp_len bytes, its checksum left blank.
 */
static void
write_tcp_frame(unsigned int page, uint16_t len, uint8_t ip_opt,
		uint8_t tcp_len)
{
	uint8_t *f = pages + page * NETIF_PAGE_SIZE;
	struct rte_ipv4_hdr *ip = (void *)(f + RTE_ETHER_HDR_LEN);
	struct rte_tcp_hdr *tcp;
	uint16_t i;

	for (i = 0; i < len; i++)
		f[i] = (uint8_t)(i * 13);
	memset(f, 0x02, 12);
	f[12] = 0x08;
	f[13] = 0x00;
	*ip = (struct rte_ipv4_hdr){
		.version_ihl = RTE_IPV4_VHL_DEF + ip_opt / 4,
		.total_length = rte_cpu_to_be_16(len - RTE_ETHER_HDR_LEN),
		.time_to_live = 64,
		.next_proto_id = IPPROTO_TCP,
		.src_addr = rte_cpu_to_be_32(0x0a000001),
		.dst_addr = rte_cpu_to_be_32(0x0a000002),
	};
	memset(ip + 1, 1, ip_opt); /* NOPs */
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	tcp = (void *)((uint8_t *)(ip + 1) + ip_opt);
	*tcp = (struct rte_tcp_hdr){
		.src_port = rte_cpu_to_be_16(1000),
		.dst_port = rte_cpu_to_be_16(2000),
		.data_off = (uint8_t)((tcp_len / 4) << 4),
		.tcp_flags = RTE_TCP_ACK_FLAG,
	};
	memset(tcp + 1, 1, tcp_len - sizeof(*tcp));
	/* The partial sum a guest leaves: the pseudo-header's. */
	tcp->cksum = rte_ipv4_phdr_cksum(ip, 0);
}

/* Whether lent @m's TCP checksum, now completed, is right. */
static bool
tcp_checksum_ok(const struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
		m, const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);

	return rte_ipv4_udptcp_cksum_mbuf_verify(
		       m, ip, RTE_ETHER_HDR_LEN + rte_ipv4_hdr_len(ip)) == 0;
}

/* A blank checksum is completed in the copied head, the rest lent. */
static void
test_a_blank_checksum_is_completed_in_the_head(void)
{
	start();
	struct rte_mbuf *m;

	write_tcp_frame(0, 1000, 0, 20);
	send_frame(refs[0], 1000, 1, NETTXF_csum_blank | NETTXF_data_validated);
	m = pull_one();
	REQUIRE(m != NULL);
	CHECK(tx.stats.map_packets == 1 && RTE_MBUF_HAS_EXTBUF(m->next));
	CHECK(m->data_len == NETIF_LEND_HEAD && tcp_checksum_ok(m));
	CHECK(m->packet_type ==
	      (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_TCP));
	rte_pktmbuf_free(m);
	pull_none();
	CHECK(answered() == 1 && backend_maps() == 0);
	stop();
}

/*
 * Headers past the copied 128 bytes (60 of IP, 60 of TCP): pulled into
 * the head before the checksum is written there.
 */
static void
test_headers_past_the_head_are_pulled_into_it(void)
{
	start();
	static uint8_t copy[3000], want[3000];
	struct rte_mbuf *m;

	write_tcp_frame(0, 3000, 40, 60);
	memcpy(want, pages, 3000);
	send_frame(refs[0], 3000, 1, NETTXF_csum_blank);
	m = pull_one();
	REQUIRE(m != NULL);
	CHECK(m->data_len == RTE_ETHER_HDR_LEN + 60 + 60);
	CHECK(m->l2_len == RTE_ETHER_HDR_LEN && m->l3_len == 60 &&
	      m->l4_len == 60);
	CHECK(m->nb_segs == 2 && tcp_checksum_ok(m));
	/* Nothing else changed but the checksum. */
	rte_pktmbuf_read(m, 0, 3000, copy);
	memcpy(want + RTE_ETHER_HDR_LEN + 60 + 16,
	       copy + RTE_ETHER_HDR_LEN + 60 + 16, 2);
	CHECK(memcmp(copy, want, 3000) == 0);
	rte_pktmbuf_free(m);
	pull_none();
	CHECK(answered() == 1 && backend_maps() == 0);
	stop();
}

static void send_large_segment(void);

/*
 * A large segment over two pages: lent, with the flags a copied one gets
 * and its partial sum in the head; gso_contiguous=1 (a queue with GSO
 * buffers) wants it whole in one mbuf, so there it is copied.
 */
static void
test_a_large_segment_is_lent_unless_wanted_whole(void)
{
	start();
	struct rte_mbuf *m;

	tx.gso_offered = NETIF_PEER_GSO_TCPV4;
	tx.offloads = NETIF_RX_GSO;
	write_tcp_frame(0, 4096, 0, 32);
	send_large_segment();
	m = pull_one();
	REQUIRE(m != NULL);
	CHECK(tx.stats.map_packets == 1 && tx.stats.gso_packets == 1);
	CHECK(m->nb_segs == 3 && m->pkt_len == 6000 && m->tso_segsz == 1448);
	CHECK((m->ol_flags & (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_RX_LRO)) ==
	      (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_RX_LRO));
	CHECK(m->data_len == NETIF_LEND_HEAD && backend_maps() == 2);
	rte_pktmbuf_free(m);
	pull_none();
	/* Its two requests and the GSO extra's NETIF_RSP_NULL. */
	CHECK(answered() == 3 && backend_maps() == 0);
	tx.gso_bufs = netif_gso_bufs_create("test_map_gso", 4, SOCKET_ID_ANY);
	REQUIRE(tx.gso_bufs != NULL);
	send_large_segment();
	m = pull_one();
	REQUIRE(m != NULL);
	CHECK(m->nb_segs == 1 && m->pkt_len == 6000 && m->tso_segsz == 1448);
	CHECK(tx.stats.map_packets == 1 && tx.stats.gso_packets == 2);
	rte_pktmbuf_free(m);
	CHECK(netif_gso_bufs_release(tx.gso_bufs) == 0);
	stop();
}

/* A 6000-byte large segment (GSO TCPv4) from pages 0 and 1. */
static void
send_large_segment(void)
{
	struct netif_extra_info *extra;
	netif_tx_request_t *req;

	req = RING_GET_REQUEST(&front, front.req_prod_pvt++);
	*req = (netif_tx_request_t){
		.gref = refs[0],
		.size = 6000,
		.id = 1,
		.flags = NETTXF_csum_blank | NETTXF_extra_info |
			 NETTXF_more_data,
	};
	extra = (void *)RING_GET_REQUEST(&front, front.req_prod_pvt++);
	*extra = (struct netif_extra_info){ .type = XEN_NETIF_EXTRA_TYPE_GSO };
	extra->u.gso.size = 1448;
	extra->u.gso.type = XEN_NETIF_GSO_TYPE_TCPV4;
	req = RING_GET_REQUEST(&front, front.req_prod_pvt++);
	*req = (netif_tx_request_t){ .gref = refs[1], .size = 1904, .id = 2 };
	RING_PUSH_REQUESTS(&front);
}

/* A grant the guest never gave: Xen refuses the map, the copy finds it. */
static void
test_a_refused_mapping_falls_back_to_the_copy(void)
{
	start();

	send_frame(refs[PAGES - 1] + 100, 1000, 4, 0);
	pull_none();
	CHECK(tx.stats.map_failed == 1 && tx.stats.map_packets == 0);
	CHECK(tx.stats.drop_copy_failed == 1 && backend_maps() == 0);
	CHECK(answered() == 1 &&
	      RING_GET_RESPONSE(&front, 0)->status == NETIF_RSP_ERROR);
	/* The next packet is mapped as before. */
	send_frame(refs[0], 1000, 5, 0);
	rte_pktmbuf_free(pull_one());
	pull_none();
	CHECK(tx.stats.map_packets == 1 && answered() == 2);
	stop();
}

/* Freed together: one pull unmaps them all, then publishes their answers. */
static void
test_one_pull_unmaps_and_answers_every_freed_packet(void)
{
	start();
	struct rte_mbuf *held[4];
	enum netif_doorbell bell;
	unsigned int i;

	for (i = 0; i < 4; i++)
		send_frame(refs[i], 1000, i, 0);
	CHECK(netif_back_tx_pull(&tx, held, 4, &bell) == 4);
	CHECK(tx.stats.map_packets == 4 && tx.stats.map_calls == 1);
	CHECK(backend_maps() == 4);
	rte_pktmbuf_free_bulk(held, 4);
	CHECK(answered() == 0);
	pull_none();
	CHECK(tx.stats.unmaps == 1 && backend_maps() == 0 && answered() == 4);
	stop();
}

/* A pull's mapping stays until its last packet is freed: none answered before. */
static void
test_a_pull_is_unmapped_and_answered_when_its_last_packet_is_freed(void)
{
	start();
	struct rte_mbuf *held[3];
	enum netif_doorbell bell;
	unsigned int i;

	for (i = 0; i < 3; i++)
		send_frame(refs[i], 1000, i, 0);
	CHECK(netif_back_tx_pull(&tx, held, 3, &bell) == 3);
	CHECK(tx.stats.map_calls == 1 && backend_maps() == 3);
	rte_pktmbuf_free(held[0]);
	rte_pktmbuf_free(held[2]);
	pull_none();
	CHECK(answered() == 0 && backend_maps() == 3 && tx.stats.unmaps == 0);
	rte_pktmbuf_free(held[1]);
	pull_none();
	CHECK(answered() == 3 && backend_maps() == 0 && tx.stats.unmaps == 1);
	CHECK(tx.stats.zero_copy_slots == 0 && l->nb_free == NETIF_LEND_SLOTS);
	stop();
}

/*
 * One grant Xen refuses fails the pull's mapping: the others are then
 * mapped each alone and lent, the refused one copied, which answers it
 * with an error.
 */
static void
test_a_refused_grant_in_a_pull_leaves_the_others_lent(void)
{
	start();
	struct rte_mbuf *held[3];
	enum netif_doorbell bell;
	uint8_t copy[1000];

	fill(0, 1);
	fill(2, 2);
	send_frame(refs[0], 1000, 0, 0);
	send_frame(refs[PAGES - 1] + 100, 1000, 1, 0);
	send_frame(refs[2], 1000, 2, 0);
	CHECK(netif_back_tx_pull(&tx, held, 3, &bell) == 2);
	CHECK(tx.stats.map_failed == 2 && tx.stats.map_calls == 2);
	CHECK(tx.stats.map_packets == 2 && tx.stats.drop_copy_failed == 1);
	CHECK(answered() == 1 && RING_GET_RESPONSE(&front, 0)->id == 1 &&
	      RING_GET_RESPONSE(&front, 0)->status == NETIF_RSP_ERROR);
	CHECK(memcmp(rte_pktmbuf_read(held[0], 0, 1000, copy), pages, 1000) ==
	      0);
	CHECK(memcmp(rte_pktmbuf_read(held[1], 0, 1000, copy),
		     pages + 2 * NETIF_PAGE_SIZE, 1000) == 0);
	rte_pktmbuf_free_bulk(held, 2);
	pull_none();
	CHECK(answered() == 3 && backend_maps() == 0 && tx.stats.unmaps == 2);
	stop();
}

static void
test_the_application_holds_at_most_half_the_ring(void)
{
	start();
	static struct rte_mbuf *held[NETIF_TX_RING_SIZE];
	enum netif_doorbell bell;
	unsigned int i, n = 0;
	uint16_t got;

	for (i = 0; i < NETIF_TX_RING_SIZE - 1; i++)
		send_frame(refs[i % PAGES], 1000, i, 0);
	while ((got = netif_back_tx_pull(&tx, &held[n], 32, &bell)) > 0)
		n += got;
	CHECK(n == NETIF_TX_RING_SIZE - 1);
	CHECK(tx.stats.map_packets == NETIF_LEND_SLOTS);
	CHECK(backend_maps() == NETIF_LEND_SLOTS);
	CHECK(answered() == NETIF_TX_RING_SIZE - 1 - NETIF_LEND_SLOTS);
	rte_pktmbuf_free_bulk(held, n);
	pull_none();
	CHECK(answered() == NETIF_TX_RING_SIZE - 1 && backend_maps() == 0);
	stop();
}

static void
test_a_reconnect_unmaps_but_answers_no_old_loan(void)
{
	start();
	struct rte_mbuf *m;

	send_frame(refs[0], 1000, 1, 0);
	m = pull_one();
	REQUIRE(m != NULL);
	tx_guest_ring_reset();
	REQUIRE(netif_back_tx_connect(&tx, &shared.sring, be, FRONTEND) == 0);
	rte_pktmbuf_free(m);
	pull_none();
	CHECK(answered() == 0 && l->nb_free == NETIF_LEND_SLOTS);
	CHECK(tx.stats.unmaps == 1 && backend_maps() == 0);
	stop();
}

static void
test_a_lender_destroyed_under_held_mbufs_unmaps_at_the_last_free(void)
{
	start();
	struct rte_mbuf *m;

	fill(0, 9);
	send_frame(refs[0], 1000, 1, 0);
	m = pull_one();
	REQUIRE(m != NULL);
	netif_back_tx_release(&tx);
	CHECK(netif_lend_held(l) == 1);
	CHECK(netif_lend_destroy(l) == 1);
	/* The application still reads the guest's page. */
	CHECK(backend_maps() == 1);
	CHECK(*rte_pktmbuf_mtod(m->next, uint8_t *) ==
	      (uint8_t)(NETIF_LEND_HEAD * 7 + 9));
	rte_pktmbuf_free(m);
	CHECK(backend_maps() == 0);
}

/* The shortest hold there is: past it at the next pull. */
#define HOLD_NONE 1

static void
test_a_packet_held_past_the_hold_is_copied_and_answered(void)
{
	start();
	union xengnttab_copy_ptr src;
	struct rte_mbuf *m;
	uint8_t copy[1000];

	netif_lend_set_hold(l, HOLD_NONE);
	fill(0, 3);
	send_frame(refs[0], 1000, 5, 0);
	m = pull_one();
	REQUIRE(m != NULL);
	CHECK(netif_lend_source(m->next, 0, &src));
	pull_none();
	CHECK(tx.stats.map_expired == 1 && tx.stats.map_expire_failed == 0);
	CHECK(backend_maps() == 0 && answered() == 1);
	CHECK(RING_GET_RESPONSE(&front, 0)->id == 5 &&
	      RING_GET_RESPONSE(&front, 0)->status == NETIF_RSP_OKAY);
	CHECK(tx.stats.zero_copy_slots == 0);
	/* Answered, the guest reuses its page: the packet stays as it was. */
	memset(pages, 0xee, NETIF_PAGE_SIZE);
	fill(0, 3);
	CHECK(memcmp(rte_pktmbuf_read(m, 0, 1000, copy), pages, 1000) == 0);
	memset(pages, 0xee, NETIF_PAGE_SIZE);
	CHECK(memcmp(rte_pktmbuf_read(m, 0, 1000, copy), pages, 1000) != 0);
	/* Our own memory now: sent on, it is copied from, not by grant. */
	CHECK(!netif_lend_source(m->next, 0, &src));
	rte_pktmbuf_free(m);
	pull_none();
	CHECK(answered() == 1 && tx.stats.unmaps == 0);
	CHECK(l->nb_free == NETIF_LEND_SLOTS);
	stop();
}

static void
test_a_packet_held_within_the_hold_stays_mapped(void)
{
	start();
	struct rte_mbuf *m;

	netif_lend_set_hold(l, 60 * rte_get_timer_hz());
	send_frame(refs[0], 1000, 5, 0);
	m = pull_one();
	REQUIRE(m != NULL);
	pull_none();
	CHECK(tx.stats.map_expired == 0 && backend_maps() == 1);
	CHECK(answered() == 0);
	rte_pktmbuf_free(m);
	pull_none();
	CHECK(answered() == 1 && tx.stats.unmaps == 1 && backend_maps() == 0);
	stop();
}

/*
 * A packet held past the hold lets go of its whole pull's mapping: its
 * pull-mates the application gave back are answered then too.
 */
static void
test_a_held_packet_lets_go_of_its_whole_pull(void)
{
	start();
	struct rte_mbuf *held[2];
	enum netif_doorbell bell;

	netif_lend_set_hold(l, HOLD_NONE);
	fill(1, 6);
	send_frame(refs[0], 1000, 0, 0);
	send_frame(refs[1], 1000, 1, 0);
	CHECK(netif_back_tx_pull(&tx, held, 2, &bell) == 2);
	CHECK(tx.stats.map_calls == 1);
	rte_pktmbuf_free(held[0]);
	pull_none();
	CHECK(tx.stats.map_expired == 2 && answered() == 2);
	CHECK(backend_maps() == 0 && tx.stats.zero_copy_slots == 0);
	CHECK(*rte_pktmbuf_mtod(held[1]->next, uint8_t *) ==
	      (uint8_t)(NETIF_LEND_HEAD * 7 + 6));
	rte_pktmbuf_free(held[1]);
	pull_none();
	CHECK(answered() == 2 && tx.stats.unmaps == 0);
	CHECK(l->nb_free == NETIF_LEND_SLOTS);
	stop();
}

/* A loan of a connection gone is let go too, its guest not answered. */
static void
test_a_packet_of_an_old_connection_is_let_go_unanswered(void)
{
	start();
	struct rte_mbuf *m;

	netif_lend_set_hold(l, HOLD_NONE);
	send_frame(refs[0], 1000, 1, 0);
	m = pull_one();
	REQUIRE(m != NULL);
	tx_guest_ring_reset();
	REQUIRE(netif_back_tx_connect(&tx, &shared.sring, be, FRONTEND) == 0);
	pull_none();
	CHECK(tx.stats.map_expired == 1 && backend_maps() == 0);
	CHECK(answered() == 0);
	rte_pktmbuf_free(m);
	pull_none();
	CHECK(answered() == 0 && l->nb_free == NETIF_LEND_SLOTS);
	stop();
}

/* Loans the hold let go free their copies with the lender's last reference. */
static void
test_a_lender_destroyed_under_a_packet_let_go_frees_its_copy(void)
{
	start();
	struct rte_mbuf *m;

	netif_lend_set_hold(l, HOLD_NONE);
	fill(0, 4);
	send_frame(refs[0], 1000, 1, 0);
	m = pull_one();
	REQUIRE(m != NULL);
	pull_none();
	CHECK(tx.stats.map_expired == 1 && answered() == 1);
	netif_back_tx_release(&tx);
	CHECK(netif_lend_destroy(l) == 1);
	CHECK(*rte_pktmbuf_mtod(m->next, uint8_t *) ==
	      (uint8_t)(NETIF_LEND_HEAD * 7 + 4));
	rte_pktmbuf_free(m);
	CHECK(backend_maps() == 0);
}

static int
setup(const char *argv0)
{
	if (test_eal_pool_setup(argv0) != 0 || xsim_test_setup(argv0) != 0)
		return -1;
	be = open_dom(BACKEND);
	fe = open_dom(FRONTEND);
	if (be == NULL || fe == NULL)
		return -1;
	pages = xa_gnt_share(fe, BACKEND, PAGES, refs, true);
	return pages != NULL ? 0 : -1;
}

static void
teardown(void)
{
	xa_gnt_unshare(fe, pages, PAGES);
	xa_close(fe);
	xa_close(be);
	xsim_test_teardown();
	test_eal_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_a_long_packet_is_mapped_and_unmapped_before_its_answer);
	RUN(test_a_packet_of_three_slots_takes_one_mapping);
	RUN(test_short_packets_are_copied);
	RUN(test_a_blank_checksum_is_completed_in_the_head);
	RUN(test_headers_past_the_head_are_pulled_into_it);
	RUN(test_a_large_segment_is_lent_unless_wanted_whole);
	RUN(test_a_refused_mapping_falls_back_to_the_copy);
	RUN(test_one_pull_unmaps_and_answers_every_freed_packet);
	RUN(test_a_pull_is_unmapped_and_answered_when_its_last_packet_is_freed);
	RUN(test_a_refused_grant_in_a_pull_leaves_the_others_lent);
	RUN(test_the_application_holds_at_most_half_the_ring);
	RUN(test_a_reconnect_unmaps_but_answers_no_old_loan);
	RUN(test_a_lender_destroyed_under_held_mbufs_unmaps_at_the_last_free);
	RUN(test_a_packet_held_past_the_hold_is_copied_and_answered);
	RUN(test_a_packet_held_within_the_hold_stays_mapped);
	RUN(test_a_held_packet_lets_go_of_its_whole_pull);
	RUN(test_a_packet_of_an_old_connection_is_let_go_unanswered);
	RUN(test_a_lender_destroyed_under_a_packet_let_go_frees_its_copy);
}
