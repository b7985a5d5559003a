/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Offloads end to end, a netfront port and a netback port over one
 * simulator instance: each side offers GSO only once its application has
 * enabled LRO or TSO (or gso=on; never with gso=off), so the handshake
 * waits for dev_configure, and a backend reconfigured before its frontend
 * connects rewrites its keys; a TSO mbuf crosses as one GSO packet both
 * ways and arrives as one large segment ready to be sent on (its TSO
 * request, MSS and headers in the first segment) with every byte intact;
 * OVS's configuration (Tx TSO, no LRO) receives a guest's large segment in
 * the form ol_flags= asks for, in one contiguous mbuf with
 * gso_contiguous=1 (one that finds no free buffer waits for one; by
 * default a chain), and
 * sending it on reaches a guest that takes
 * GSO unsplit and one that does not cut; a checksum request crosses as a blank
 * checksum and arrives flagged where the checksum offload is enabled and
 * complete where it is not; a TSO mbuf for a peer that takes no GSO is
 * cut into frames of its MSS when the sender enabled TSO, and dropped and
 * counted when it did not.
 */

#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>
#include <xen/io/netif.h>
#include <xen/io/xenbus.h>

#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "xa.h"
#include "xsim.h"

#define BACK "net_xen_netback0"
#define FRONT "net_xen_netfront0"
#define HDRS (RTE_ETHER_HDR_LEN + 20 + 20)
#define MSS 1448

static const struct rte_eth_conf offloading = {
	.rxmode = {
		.offloads = RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
			    RTE_ETH_RX_OFFLOAD_UDP_CKSUM |
			    RTE_ETH_RX_OFFLOAD_TCP_LRO,
		.max_lro_pkt_size = XEN_NETIF_MAX_TX_SIZE,
	},
	.txmode = {
		.offloads = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
			    RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
			    RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
			    RTE_ETH_TX_OFFLOAD_TCP_TSO |
			    RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
	},
};
static const struct rte_eth_conf plain;
static const struct rte_eth_conf rx_csum_only = {
	.rxmode.offloads = RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
			   RTE_ETH_RX_OFFLOAD_UDP_CKSUM,
};

static char inst[64];
static int back = -1, front = -1;

static uint8_t
pattern(uint32_t pos)
{
	return (uint8_t)(pos * 13 + 5);
}

/*
 * A TCP (or UDP) over IPv4 frame of @len bytes in mbufs of the pool's
 * size, pattern bytes after the headers, L4 checksum garbage.
 */
static struct rte_mbuf *
tcp_frame(uint32_t len, uint8_t proto)
{
	static uint8_t buf[XEN_NETIF_MAX_TX_SIZE];
	struct rte_ether_hdr *eth = (void *)buf;
	struct rte_ipv4_hdr *ip = (void *)(eth + 1);
	struct rte_mbuf *head = NULL;
	uint32_t off, i;

	memset(buf, 0, HDRS);
	memset(eth, 0x02, 2 * RTE_ETHER_ADDR_LEN);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16(len - RTE_ETHER_HDR_LEN);
	ip->time_to_live = 64;
	ip->next_proto_id = proto;
	ip->src_addr = rte_cpu_to_be_32(0x0a000001);
	ip->dst_addr = rte_cpu_to_be_32(0x0a000002);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	if (proto == IPPROTO_TCP) {
		struct rte_tcp_hdr *tcp = (void *)(ip + 1);

		tcp->data_off = 5 << 4;
		tcp->cksum = 0xbeef;
	} else {
		struct rte_udp_hdr *udp = (void *)(ip + 1);

		udp->dgram_len = rte_cpu_to_be_16(len - RTE_ETHER_HDR_LEN - 20);
		udp->dgram_cksum = 0xbeef;
	}
	for (i = HDRS; i < len; i++)
		buf[i] = pattern(i);
	for (off = 0; off < len;) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(test_pool);
		uint16_t n;

		if (m == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
		n = RTE_MIN(len - off, (uint32_t)rte_pktmbuf_tailroom(m));
		memcpy(rte_pktmbuf_append(m, n), buf + off, n);
		off += n;
		if (head == NULL)
			head = m;
		else
			rte_pktmbuf_chain(head, m);
	}
	return head;
}

static struct rte_mbuf *
tso_frame(uint32_t len)
{
	struct rte_mbuf *m = tcp_frame(len, IPPROTO_TCP);

	if (m != NULL) {
		m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4 |
			      RTE_MBUF_F_TX_IP_CKSUM;
		m->l2_len = RTE_ETHER_HDR_LEN;
		m->l3_len = 20;
		m->l4_len = 20;
		m->tso_segsz = MSS;
	}
	return m;
}

/* Every byte after the headers is the sender's. */
static bool
payload_intact(const struct rte_mbuf *m, uint32_t len)
{
	uint32_t pos = 0;

	if (m->pkt_len != len)
		return false;
	for (; m != NULL; m = m->next) {
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
		uint16_t i;

		for (i = 0; i < m->data_len; i++, pos++)
			if (pos >= HDRS && p[i] != pattern(pos))
				return false;
	}
	return pos == len;
}

/* Send @m from @tx and take what arrives at @rx within a second. */
static struct rte_mbuf *
cross(uint16_t tx, uint16_t rx, struct rte_mbuf *m)
{
	struct rte_mbuf *got = NULL;
	unsigned int i;

	if (m == NULL || rte_eth_tx_burst(tx, 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	for (i = 0; i < 1000 && got == NULL; i++) {
		rte_eth_tx_burst(tx, 0, NULL, 0);	/* collect answers */
		if (rte_eth_rx_burst(rx, 0, &got, 1) == 0)
			rte_delay_us_sleep(1000);
	}
	return got;
}

/* A pair; @back_args and @front_args are added to each one's devargs. */
static void
open_pair_args(const char *tag, const struct rte_eth_conf *back_conf,
	       const char *back_args, const struct rte_eth_conf *front_conf,
	       const char *front_args)
{
	char args[192];

	snprintf(inst, sizeof(inst), "%s-%s", pair_sim_instance(), tag);
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s%s", inst,
		 back_args);
	back = pair_create_conf(BACK, args, test_pool, 1, back_conf);
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s%s", inst,
		 front_args);
	front = back < 0 ? -1 :
		pair_create_conf(FRONT, args, test_pool, 1, front_conf);
	REQUIRE(front >= 0);
	REQUIRE(pair_wait_link(back, true, 10000));
	REQUIRE(pair_wait_link(front, true, 10000));
}

static void
open_pair(const char *tag, const struct rte_eth_conf *back_conf,
	  const struct rte_eth_conf *front_conf)
{
	open_pair_args(tag, back_conf, "", front_conf, "");
}

static void
close_pair(void)
{
	if (front >= 0)
		pair_destroy(FRONT, front);
	if (back >= 0)
		pair_destroy(BACK, back);
	xsim_instance_destroy(inst);
	back = front = -1;
}

/* A key of vif 1/0 as the toolstack sees it; -1 when absent. */
static long
key(struct xa_handle *xs, const char *dir, const char *name)
{
	char path[160];
	unsigned long v;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return xa_xs_read_uint(xs, XBT_NULL, path, &v) ? (long)v : -1;
}

#define BE_DIR "/local/domain/0/backend/vif/1/0"
#define FE_DIR "/local/domain/1/device/vif/0"

static const struct rte_eth_conf tso_only = {
	.txmode = {
		.offloads = RTE_ETH_TX_OFFLOAD_TCP_TSO |
			    RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
	},
};

/* Both ends configured @conf with @args: each offers GSO as @want says. */
static void
check_gso_keys(const char *tag, const struct rte_eth_conf *conf,
	       const char *args, long want)
{
	struct xa_open_args xa_args = { .provider = XA_PROVIDER_SIM };
	struct xa_handle *xs;

	open_pair_args(tag, conf, args, conf, args);
	xa_args.sim_instance = inst;
	xs = xa_open(&xa_args);
	REQUIRE(xs != NULL);
	CHECK(key(xs, BE_DIR, "feature-gso-tcpv4") == want);
	CHECK(key(xs, BE_DIR, "feature-gso-tcpv6") == want);
	CHECK(key(xs, FE_DIR, "feature-gso-tcpv4") == want);
	CHECK(key(xs, FE_DIR, "feature-gso-tcpv6") == want);
	CHECK(key(xs, FE_DIR, "feature-no-csum-offload") == 0);
	CHECK(key(xs, FE_DIR, "feature-ipv6-csum-offload") == 1);
	xa_close(xs);
	close_pair();
}

static void
test_gso_is_offered_to_applications_that_take_large_segments(void)
{
	struct xa_open_args xa_args = { .provider = XA_PROVIDER_SIM };
	struct xa_handle *xs;
	char args[160];
	uint16_t port;

	snprintf(inst, sizeof(inst), "%s-offer", pair_sim_instance());
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s", inst);
	REQUIRE(rte_vdev_init(BACK, args) == 0);
	xa_args.sim_instance = inst;
	xs = xa_open(&xa_args);
	REQUIRE(xs != NULL);
	REQUIRE(rte_eth_dev_get_port_by_name(BACK, &port) == 0);
	/* Not configured: what to offer is not known yet. */
	rte_delay_us_sleep(100 * 1000);
	CHECK(key(xs, BE_DIR, "state") == XenbusStateInitialising);
	CHECK(key(xs, BE_DIR, "feature-gso-tcpv4") == -1);
	REQUIRE(rte_eth_dev_configure(port, 1, 1, &plain) == 0);
	CHECK(key(xs, BE_DIR, "state") == XenbusStateInitWait);
	CHECK(key(xs, BE_DIR, "feature-gso-tcpv4") == 0);
	/* Reconfigured before the frontend came: the keys follow. */
	REQUIRE(rte_eth_dev_configure(port, 1, 1, &offloading) == 0);
	CHECK(key(xs, BE_DIR, "state") == XenbusStateInitWait);
	CHECK(key(xs, BE_DIR, "feature-gso-tcpv4") == 1);
	CHECK(key(xs, BE_DIR, "feature-gso-tcpv6") == 1);
	CHECK(key(xs, BE_DIR, "feature-ipv6-csum-offload") == 1);
	/* And back: TSO alone is enough. */
	REQUIRE(rte_eth_dev_configure(port, 1, 1, &plain) == 0);
	CHECK(key(xs, BE_DIR, "feature-gso-tcpv4") == 0);
	REQUIRE(rte_eth_dev_configure(port, 1, 1, &tso_only) == 0);
	CHECK(key(xs, BE_DIR, "feature-gso-tcpv4") == 1);
	rte_eth_dev_close(port);
	rte_vdev_uninit(BACK);
	xa_close(xs);
	xsim_instance_destroy(inst);

	/* Without LRO or TSO: no GSO, either way. */
	check_gso_keys("plain", &plain, "", 0);
	/* TSO alone takes large segments: OVS-DPDK with userspace TSO. */
	check_gso_keys("tso", &tso_only, "", 1);
	/* The devarg overrides what the application enabled. */
	check_gso_keys("off", &offloading, ",gso=off", 0);
	check_gso_keys("on", &plain, ",gso=on", 1);
}

/* A large TSO mbuf, as one GSO packet, from @tx to @rx. */
static void
check_tso_crossing(uint16_t tx, uint16_t rx)
{
	const uint32_t len = 60000;
	struct rte_mbuf *m = cross(tx, rx, tso_frame(len));
	const struct rte_ipv4_hdr *ip;

	REQUIRE(m != NULL);
	CHECK(payload_intact(m, len));
	CHECK((m->ol_flags & (RTE_MBUF_F_RX_LRO | RTE_MBUF_F_TX_TCP_SEG |
			      RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM)) ==
	      (RTE_MBUF_F_RX_LRO | RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4 |
	       RTE_MBUF_F_TX_IP_CKSUM));
	CHECK(m->tso_segsz == MSS);
	CHECK(m->l2_len == RTE_ETHER_HDR_LEN && m->l3_len == 20 &&
	      m->l4_len == 20);
	CHECK(rte_pktmbuf_data_len(m) >= HDRS);
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *,
				     RTE_ETHER_HDR_LEN);
	CHECK(rte_be_to_cpu_16(ip->total_length) == len - RTE_ETHER_HDR_LEN);
	rte_pktmbuf_free(m);
}

static void
test_tso_crosses_whole_both_ways(void)
{
	open_pair("tso", &offloading, &offloading);
	check_tso_crossing(front, back);
	CHECK(pair_xstat(front, "tx_q0_gso_packets") == 1);
	CHECK(pair_xstat(back, "rx_q0_gso_packets") == 1);
	check_tso_crossing(back, front);
	CHECK(pair_xstat(back, "tx_q0_gso_packets") == 1);
	CHECK(pair_xstat(front, "rx_q0_gso_packets") == 1);
	close_pair();
}

/* The L4 checksum of a one-segment IPv4 frame verifies. */
static bool
l4_valid(const struct rte_mbuf *m)
{
	const struct rte_ipv4_hdr *ip;
	uint32_t sum;

	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *,
				     RTE_ETHER_HDR_LEN);
	sum = rte_raw_cksum(ip + 1, rte_be_to_cpu_16(ip->total_length) - 20);
	sum += rte_ipv4_phdr_cksum(ip, 0);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

static struct rte_mbuf *
csum_frame(uint8_t proto)
{
	struct rte_mbuf *m = tcp_frame(1000, proto);

	if (m != NULL)
		m->ol_flags = RTE_MBUF_F_TX_IPV4 |
			      (proto == IPPROTO_TCP ? RTE_MBUF_F_TX_TCP_CKSUM :
						      RTE_MBUF_F_TX_UDP_CKSUM);
	return m;
}

static void
test_checksum_requests_cross_blank_or_complete(void)
{
	struct rte_mbuf *m;

	/* Offload enabled on the receiver: flagged, left for the next hop. */
	open_pair("csum", &offloading, &offloading);
	m = cross(front, back, csum_frame(IPPROTO_TCP));
	REQUIRE(m != NULL);
	CHECK((m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) ==
	      RTE_MBUF_F_RX_L4_CKSUM_NONE);
	CHECK(m->ol_flags & RTE_MBUF_F_TX_TCP_CKSUM);
	rte_pktmbuf_free(m);
	m = cross(back, front, csum_frame(IPPROTO_UDP));
	REQUIRE(m != NULL);
	CHECK((m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) ==
	      RTE_MBUF_F_RX_L4_CKSUM_NONE);
	CHECK(m->ol_flags & RTE_MBUF_F_TX_UDP_CKSUM);
	rte_pktmbuf_free(m);
	close_pair();

	/*
	 * The Rx offload without the Tx one (OVS 3.1): the application would
	 * not finish it, so it arrives complete, with no request.
	 */
	open_pair("rx-only", &rx_csum_only, &offloading);
	m = cross(front, back, csum_frame(IPPROTO_TCP));
	REQUIRE(m != NULL);
	CHECK(!(m->ol_flags & (RTE_MBUF_F_TX_L4_MASK | RTE_MBUF_F_TX_IPV4)));
	CHECK((m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) !=
	      RTE_MBUF_F_RX_L4_CKSUM_NONE && l4_valid(m));
	rte_pktmbuf_free(m);
	close_pair();

	/*
	 * Not enabled: complete on arrival, whichever side computed it, and
	 * no offload flag (the netfront's zero-copy mbufs are external).
	 */
	open_pair("sw", &plain, &plain);
	m = cross(front, back, csum_frame(IPPROTO_TCP));
	REQUIRE(m != NULL);
	CHECK(m->ol_flags == 0 && l4_valid(m));
	rte_pktmbuf_free(m);
	m = cross(back, front, csum_frame(IPPROTO_UDP));
	REQUIRE(m != NULL);
	CHECK((m->ol_flags & ~RTE_MBUF_F_EXTERNAL) == 0 && l4_valid(m));
	rte_pktmbuf_free(m);
	close_pair();

	/*
	 * Packet types cleared (testpmd's default): a packet is then walked
	 * only for an offload, and a blank checksum is one.
	 */
	open_pair("sw-untyped", &plain, &plain);
	REQUIRE(rte_eth_dev_set_ptypes(front, RTE_PTYPE_UNKNOWN, NULL, 0) == 0);
	REQUIRE(rte_eth_dev_set_ptypes(back, RTE_PTYPE_UNKNOWN, NULL, 0) == 0);
	m = cross(front, back, csum_frame(IPPROTO_TCP));
	REQUIRE(m != NULL);
	CHECK(m->ol_flags == 0 && l4_valid(m));
	CHECK(m->packet_type ==
	      (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_TCP));
	rte_pktmbuf_free(m);
	m = cross(back, front, csum_frame(IPPROTO_UDP));
	REQUIRE(m != NULL);
	CHECK((m->ol_flags & ~RTE_MBUF_F_EXTERNAL) == 0 && l4_valid(m));
	CHECK(m->packet_type ==
	      (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_UDP));
	rte_pktmbuf_free(m);
	close_pair();
}

/* The frames of a TSO mbuf of @len bytes cut at @tx arrive whole at @rx. */
static void
expect_cut(uint16_t tx, uint16_t rx, uint32_t len)
{
	const uint32_t payload = len - HDRS;
	const unsigned int frames = (payload + MSS - 1) / MSS;
	uint32_t seq = 0, pos = HDRS;
	struct rte_mbuf *got[64];
	unsigned int n = 0, i, k;
	bool intact = true;

	REQUIRE(frames <= RTE_DIM(got));
	for (i = 0; i < 1000 && n < frames; i++) {
		rte_eth_tx_burst(tx, 0, NULL, 0);
		n += rte_eth_rx_burst(rx, 0, got + n, RTE_DIM(got) - n);
		rte_delay_us_sleep(1000);
	}
	CHECK(n == frames);
	for (i = 0; i < n; i++) {
		const struct rte_tcp_hdr *tcp;
		uint32_t seg = RTE_MIN((uint32_t)MSS, payload - (pos - HDRS));

		CHECK(got[i]->pkt_len == HDRS + seg);
		CHECK(l4_valid(got[i]));
		tcp = rte_pktmbuf_mtod_offset(got[i], const struct rte_tcp_hdr *,
					      RTE_ETHER_HDR_LEN + 20);
		CHECK(rte_be_to_cpu_32(tcp->sent_seq) == seq);
		for (k = 0; k < seg; k++)
			intact &= *rte_pktmbuf_mtod_offset(got[i], uint8_t *,
							   HDRS + k) ==
				  pattern(pos + k);
		seq += seg;
		pos += seg;
		rte_pktmbuf_free(got[i]);
	}
	CHECK(intact);
}

/* A 30000-byte TSO mbuf sent at @tx arrives at @rx cut. */
static void
check_cut(uint16_t tx, uint16_t rx)
{
	struct rte_mbuf *m = tso_frame(30000);

	REQUIRE(m != NULL);
	REQUIRE(rte_eth_tx_burst(tx, 0, &m, 1) == 1);
	expect_cut(tx, rx, 30000);
}

static void
test_tso_for_a_peer_without_gso_is_cut_or_counted(void)
{
	struct rte_mbuf *m;

	/* The senders enabled TSO; the receivers take no GSO (gso=off). */
	open_pair_args("cut", &tso_only, ",gso=off", &tso_only, ",gso=off");
	check_cut(front, back);
	CHECK(pair_xstat(front, "tx_q0_gso_cut") == 1);
	check_cut(back, front);
	CHECK(pair_xstat(back, "tx_q0_gso_cut") == 1);
	close_pair();

	/* Without TSO enabled there is nothing to cut with. */
	open_pair("nogso", &plain, &plain);
	m = tso_frame(30000);
	REQUIRE(m != NULL);
	CHECK(rte_eth_tx_burst(front, 0, &m, 1) == 1);
	CHECK(pair_xstat(front, "tx_q0_drop_no_gso") == 1);
	m = tso_frame(30000);
	REQUIRE(m != NULL);
	CHECK(rte_eth_tx_burst(back, 0, &m, 1) == 1);
	CHECK(pair_xstat(back, "tx_q0_drop_no_gso") == 1);
	close_pair();
}

/* OVS-DPDK 3.1 with userspace-tso-enable: Rx checksums, Tx TSO, no LRO. */
static const struct rte_eth_conf ovs_tso = {
	.rxmode.offloads = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
			   RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
			   RTE_ETH_RX_OFFLOAD_UDP_CKSUM,
	.txmode.offloads = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
			   RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
			   RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
			   RTE_ETH_TX_OFFLOAD_TCP_TSO |
			   RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
};

/*
 * A guest's 60000-byte segment at a netback port configured as OVS
 * configures it, in the form @form asks for (@flags exactly), in one mbuf
 * of the application's pool on a buffer of the port's, then sent back to
 * the guest: whole when the guest takes GSO, cut otherwise.
 */
static void
check_large_segment_form(const char *form, uint64_t flags)
{
	const uint32_t len = 60000;
	/* Without static grants, so that the netback grant-copies. */
	static const char *const guest_gso[] = {
		",static_grants=0",
		",static_grants=0,gso=off",
	};
	char back_args[64], tag[32];
	unsigned int i;

	flags |= RTE_MBUF_F_EXTERNAL;
	snprintf(back_args, sizeof(back_args), ",ol_flags=%s,gso_contiguous=1",
		 form);
	for (i = 0; i < RTE_DIM(guest_gso); i++) {
		struct rte_mbuf *m;

		snprintf(tag, sizeof(tag), "%s%u", form, i);
		open_pair_args(tag, &ovs_tso, back_args, &tso_only,
			       guest_gso[i]);
		m = cross(front, back, tso_frame(len));
		REQUIRE(m != NULL);
		CHECK(payload_intact(m, len));
		CHECK(m->nb_segs == 1 && m->data_len == len);
		CHECK(m->pool == test_pool);
		CHECK(rte_pktmbuf_headroom(m) == RTE_PKTMBUF_HEADROOM);
		CHECK(m->ol_flags == flags);
		CHECK(m->tso_segsz == MSS);
		CHECK(m->l2_len == RTE_ETHER_HDR_LEN && m->l3_len == 20 &&
		      m->l4_len == 20);
		CHECK(rte_pktmbuf_data_len(m) >= HDRS);
		/*
		 * Its guest's slots are whole pages: the frame starts in the
		 * buffer where each lands on one page of ours.
		 */
		CHECK(pair_xstat(back, "rx_q0_grant_copy_ops") >= len / 4096);
		CHECK(pair_xstat(back, "rx_q0_grant_copy_page_splits") == 0);
		if (i == 0) {
			m = cross(back, front, m);
			REQUIRE(m != NULL);
			CHECK(payload_intact(m, len));
			CHECK(pair_xstat(back, "tx_q0_gso_packets") == 1);
			CHECK(pair_xstat(back, "tx_q0_grant_copy_ops") >=
			      len / 4096);
			CHECK(pair_xstat(back,
					 "tx_q0_grant_copy_page_splits") == 0);
			rte_pktmbuf_free(m);
		} else {
			REQUIRE(rte_eth_tx_burst(back, 0, &m, 1) == 1);
			expect_cut(back, front, len);
			CHECK(pair_xstat(back, "tx_q0_gso_cut") == 1);
		}
		close_pair();
	}
}

static void
test_ovs_receives_a_large_segment_in_either_form(void)
{
	const uint64_t aggregate = RTE_MBUF_F_RX_IP_CKSUM_GOOD |
				   RTE_MBUF_F_RX_LRO |
				   RTE_MBUF_F_RX_L4_CKSUM_NONE;

	/* As vhost's legacy form, TX_TCP_CKSUM included (OVS 3.1-3.5). */
	check_large_segment_form("legacy", aggregate | RTE_MBUF_F_TX_TCP_SEG |
				 RTE_MBUF_F_TX_TCP_CKSUM | RTE_MBUF_F_TX_IPV4 |
				 RTE_MBUF_F_TX_IP_CKSUM);
	/* DPDK's current contract: no Tx flag (OVS 3.6). */
	check_large_segment_form("compliant", aggregate);
}

/* By default: a chain of the pool's mbufs. */
static void
test_large_segment_is_chained_by_default(void)
{
	const uint32_t len = 60000;
	struct rte_mbuf *m;

	open_pair("chained", &ovs_tso, &tso_only);
	m = cross(front, back, tso_frame(len));
	REQUIRE(m != NULL);
	CHECK(payload_intact(m, len));
	CHECK(m->nb_segs > 1 && !RTE_MBUF_HAS_EXTBUF(m));
	CHECK(m->ol_flags & RTE_MBUF_F_TX_TCP_SEG);
	rte_pktmbuf_free(m);
	close_pair();
}

/*
 * The application holds every buffer of the queue (NETIF_GSO_BUFS, 128):
 * the guest's next large segment waits in its ring, counted, and arrives
 * once one is freed.
 */
static void
test_large_segment_waits_for_a_buffer(void)
{
	struct rte_mbuf *held[128], *m = NULL;
	unsigned int i, n;

	open_pair_args("short", &ovs_tso, ",gso_contiguous=1", &tso_only, "");
	for (n = 0; n < RTE_DIM(held); n++) {
		held[n] = cross(front, back, tso_frame(30000));
		if (held[n] == NULL || !RTE_MBUF_HAS_EXTBUF(held[n]))
			break;
	}
	CHECK(n == RTE_DIM(held));
	CHECK(cross(front, back, tso_frame(30000)) == NULL);
	CHECK(pair_xstat(back, "rx_q0_gso_buf_short") >= 1);
	rte_pktmbuf_free(held[--n]);
	for (i = 0; i < 1000 && m == NULL; i++)
		if (rte_eth_rx_burst(back, 0, &m, 1) == 0)
			rte_delay_us_sleep(1000);
	CHECK(m != NULL && payload_intact(m, 30000) && m->nb_segs == 1);
	rte_pktmbuf_free(m);
	while (n > 0)
		rte_pktmbuf_free(held[--n]);
	close_pair();
}

/* Reconfigured without LRO: the connected peer's GSO is refused, counted. */
static void
test_gso_after_lro_is_switched_off_is_dropped(void)
{
	struct rte_mbuf *m;

	open_pair("relro", &offloading, &offloading);
	REQUIRE(rte_eth_dev_stop(back) == 0);
	REQUIRE(rte_eth_dev_configure(back, 1, 1, &plain) == 0);
	REQUIRE(rte_eth_dev_start(back) == 0);
	REQUIRE(pair_wait_link(back, true, 10000));
	m = cross(front, back, tso_frame(30000));
	CHECK(m == NULL);
	rte_pktmbuf_free(m);
	CHECK(pair_xstat(back, "rx_q0_drop_bad_gso") == 1);
	close_pair();
}

/*
 * A backend restarted under a connected frontend (on_close=detach, then a
 * port that takes the vif over before its application configures it, as
 * a watcher's does) keeps to the GSO its directory offered when the
 * frontend connected: the frontend's large segments still arrive whole.
 */
static void
test_restarted_backend_keeps_the_gso_its_peer_negotiated(void)
{
	char args[192];
	uint16_t port;
	struct rte_mbuf *m;

	open_pair_args("restart", &offloading, ",on_close=detach", &offloading,
		       "");
	pair_destroy(BACK, back);
	snprintf(args, sizeof(args),
		 "domid=1,provider=sim,sim=%s,on_close=detach,on_removal=remove",
		 inst);
	REQUIRE(rte_vdev_init(BACK, args) == 0);
	REQUIRE(rte_eth_dev_get_port_by_name(BACK, &port) == 0);
	back = port;
	/* Long enough to connect again before the application configures. */
	rte_delay_ms(300);
	REQUIRE(pair_start(back, test_pool, 1, &offloading) == 0);
	REQUIRE(pair_wait_link(back, true, 10000));
	m = cross(front, back, tso_frame(30000));
	CHECK(m != NULL && payload_intact(m, 30000) &&
	      (m->ol_flags & RTE_MBUF_F_RX_LRO));
	rte_pktmbuf_free(m);
	CHECK(pair_xstat(back, "rx_q0_drop_bad_gso") == 0);
	close_pair();
}

TEST_MAIN(pair_setup, pair_teardown)
{
	RUN(test_gso_is_offered_to_applications_that_take_large_segments);
	RUN(test_tso_crosses_whole_both_ways);
	RUN(test_checksum_requests_cross_blank_or_complete);
	RUN(test_tso_for_a_peer_without_gso_is_cut_or_counted);
	RUN(test_ovs_receives_a_large_segment_in_either_form);
	RUN(test_large_segment_is_chained_by_default);
	RUN(test_large_segment_waits_for_a_buffer);
	RUN(test_gso_after_lro_is_switched_off_is_dropped);
	RUN(test_restarted_backend_keeps_the_gso_its_peer_negotiated);
}
