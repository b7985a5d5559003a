/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Completing checksums a frontend left blank: TCP and UDP over IPv4 and
 * IPv6, with and without a VLAN tag, in one segment or several, end with
 * the checksum a full computation gives; frames that carry no such
 * checksum, or lie about their length, are refused.
 */

#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "netif_csum.h"
#include "test.h"
#include "test_eal.h"

static struct rte_mempool *pool;

/*
 * A frame of @payload bytes of L4 payload after Ethernet (+VLAN), IP and
 * TCP/UDP headers, split into segments of at most @seg bytes. The L4
 * checksum field holds garbage, as a blank one may.
 */
static struct rte_mbuf *
frame(bool v6, bool vlan, uint8_t proto, uint16_t payload, uint16_t seg)
{
	uint8_t buf[4096];
	uint16_t l3 = RTE_ETHER_HDR_LEN + (vlan ? 4 : 0);
	uint16_t l4hdr = proto == IPPROTO_TCP ? 20 : 8;
	uint16_t l3hdr = v6 ? 40 : 20;
	uint16_t len = l3 + l3hdr + l4hdr + payload, off;
	struct rte_mbuf *head = NULL;
	uint16_t i;

	memset(buf, 0, sizeof(buf));
	for (i = 0; i < len; i++)
		buf[i] = i * 13;
	buf[12] = vlan ? 0x81 : (v6 ? 0x86 : 0x08);
	buf[13] = vlan ? 0x00 : (v6 ? 0xdd : 0x00);
	if (vlan) {
		buf[16] = v6 ? 0x86 : 0x08;
		buf[17] = v6 ? 0xdd : 0x00;
	}
	if (v6) {
		struct rte_ipv6_hdr *h = (void *)(buf + l3);

		h->vtc_flow = rte_cpu_to_be_32(6u << 28);
		h->payload_len = rte_cpu_to_be_16(l4hdr + payload);
		h->proto = proto;
		h->hop_limits = 64;
	} else {
		struct rte_ipv4_hdr *h = (void *)(buf + l3);

		h->version_ihl = 0x45;
		h->total_length = rte_cpu_to_be_16(l3hdr + l4hdr + payload);
		h->fragment_offset = 0;
		h->time_to_live = 64;
		h->next_proto_id = proto;
	}
	for (off = 0; off < len; off += seg) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
		uint16_t n = RTE_MIN(seg, (uint16_t)(len - off));

		if (m == NULL)
			return NULL;
		memcpy(rte_pktmbuf_append(m, n), buf + off, n);
		if (head == NULL)
			head = m;
		else
			rte_pktmbuf_chain(head, m);
	}
	return head;
}

/* The checksum, computed independently over a linear copy. */
static bool
checksum_is_right(struct rte_mbuf *m, bool v6, bool vlan, uint8_t proto)
{
	uint8_t buf[4096];
	uint16_t l3 = RTE_ETHER_HDR_LEN + (vlan ? 4 : 0);
	uint16_t l4 = l3 + (v6 ? 40 : 20);
	uint16_t field = l4 + (proto == IPPROTO_TCP ? 16 : 6);
	const uint8_t *p = rte_pktmbuf_read(m, 0, m->pkt_len, buf);
	uint16_t got, want;

	memcpy(buf, p, m->pkt_len);
	memcpy(&got, buf + field, 2);
	memset(buf + field, 0, 2);
	want = v6 ? rte_ipv6_udptcp_cksum((void *)(buf + l3), buf + l4) :
		    rte_ipv4_udptcp_cksum((void *)(buf + l3), buf + l4);
	return got == want;
}

static void
check(bool v6, bool vlan, uint8_t proto, uint16_t payload, uint16_t seg)
{
	struct rte_mbuf *m = frame(v6, vlan, proto, payload, seg);

	REQUIRE(m != NULL);
	CHECK(netif_csum_complete(m) == 0);
	CHECK(checksum_is_right(m, v6, vlan, proto));
	rte_pktmbuf_free(m);
}

static void
test_tcp_over_ipv4_is_completed(void)
{
	check(false, false, IPPROTO_TCP, 1000, 2048);
}

static void
test_udp_over_ipv6_is_completed(void)
{
	check(true, false, IPPROTO_UDP, 333, 2048);
}

static void
test_vlan_tagged_frames_are_completed(void)
{
	check(false, true, IPPROTO_UDP, 100, 2048);
	check(true, true, IPPROTO_TCP, 100, 2048);
}

static void
test_multi_segment_frames_are_completed(void)
{
	check(false, false, IPPROTO_TCP, 3000, 1000);
	check(true, false, IPPROTO_UDP, 3000, 700);
}

static void
test_frames_without_l4_checksum_are_refused(void)
{
	struct rte_mbuf *m = frame(false, false, IPPROTO_ICMP, 60, 2048);

	REQUIRE(m != NULL);
	CHECK(netif_csum_complete(m) != 0);
	rte_pktmbuf_free(m);
	m = frame(false, false, IPPROTO_TCP, 60, 2048);
	REQUIRE(m != NULL);
	rte_pktmbuf_mtod_offset(m, uint8_t *, 12)[0] = 0x08;
	rte_pktmbuf_mtod_offset(m, uint8_t *, 13)[0] = 0x06;	/* ARP */
	CHECK(netif_csum_complete(m) != 0);
	rte_pktmbuf_free(m);
}

static void
test_ip_length_beyond_frame_is_refused(void)
{
	struct rte_mbuf *m = frame(false, false, IPPROTO_UDP, 60, 2048);
	struct rte_ipv4_hdr *h;

	REQUIRE(m != NULL);
	h = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, 14);
	h->total_length = rte_cpu_to_be_16(9000);
	CHECK(netif_csum_complete(m) != 0);
	h->total_length = rte_cpu_to_be_16(20 + 4);	/* shorter than UDP */
	CHECK(netif_csum_complete(m) != 0);
	rte_pktmbuf_free(m);
}

static void
test_truncated_headers_are_refused(void)
{
	struct rte_mbuf *m = frame(true, false, IPPROTO_TCP, 0, 2048);

	REQUIRE(m != NULL);
	rte_pktmbuf_trim(m, 10);
	CHECK(netif_csum_complete(m) != 0);
	rte_pktmbuf_free(m);
}

int
main(int argc, char **argv)
{
	(void)argc;
	pool = test_eal_pool(argv[0], 256);
	if (pool == NULL)
		return EXIT_FAILURE;
	RUN(test_tcp_over_ipv4_is_completed);
	RUN(test_udp_over_ipv6_is_completed);
	RUN(test_vlan_tagged_frames_are_completed);
	RUN(test_multi_segment_frames_are_completed);
	RUN(test_frames_without_l4_checksum_are_refused);
	RUN(test_ip_length_beyond_frame_is_refused);
	RUN(test_truncated_headers_are_refused);
	rte_mempool_free(pool);
	rte_eal_cleanup();
	TEST_DONE();
}
