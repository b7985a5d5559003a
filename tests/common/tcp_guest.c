/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A guest's TCP stream in large segments, for the tests that put a switch
 * between two simulated guests (test_ovs_tso). Port 0 is the guest's vif
 * (a netfront given with --vdev); it enables Tx TSO, so it takes GSO too.
 *
 *   tcp-guest <EAL args> -- send <dst MAC> <frames> <frame bytes>
 *	sends one TCP/IPv4 stream (10.0.0.1:40000 -> 10.0.0.2:5001) in
 *	frames of that size with a TSO request (MSS 1448), each one whole
 *	in a chain of mbufs, the payload a pattern of the stream offset,
 *	one every 2 ms;
 *   tcp-guest <EAL args> -- recv <frames> <seconds>
 *	takes that stream's frames until that many came or time is up, and
 *	prints one JSON line: packets, bytes, large segments (gso), frames
 *	whose payload is not the sender's (bad_payload) and frames with a
 *	complete checksum that does not verify (bad_csum).
 * Exits 0 when it sent every frame, or received every frame intact.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>

#define MSS 1448
#define HDRS (RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr) + \
	      sizeof(struct rte_tcp_hdr))
#define SEQ0 1000u
#define SPORT 40000
#define DPORT 5001
#define PACE_US 2000

static struct rte_mempool *pool;

static uint8_t
pattern(uint32_t offset)
{
	return (uint8_t)(offset * 7 + 3);
}

static int
port_up(void)
{
	struct rte_eth_conf conf = {
		.txmode.offloads = RTE_ETH_TX_OFFLOAD_TCP_TSO |
				   RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
				   RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
				   RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
	};
	struct rte_eth_link link;
	unsigned int i;

	if (rte_eth_dev_configure(0, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(0, 0, 256, rte_socket_id(), NULL,
				   pool) != 0 ||
	    rte_eth_tx_queue_setup(0, 0, 256, rte_socket_id(), NULL) != 0 ||
	    rte_eth_dev_start(0) != 0)
		return -1;
	for (i = 0; i < 300; i++) {
		if (rte_eth_link_get_nowait(0, &link) == 0 && link.link_status)
			return 0;
		rte_delay_ms(100);
	}
	fprintf(stderr, "tcp-guest: the vif's link stayed down\n");
	return -1;
}

/* Frame @k of the stream, @len bytes, as a TSO request. */
static struct rte_mbuf *
tso_frame(const struct rte_ether_addr *dst, uint32_t k, uint32_t len)
{
	uint32_t payload = len - HDRS, offset = k * payload, pos;
	struct rte_mbuf *head = rte_pktmbuf_alloc(pool);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_tcp_hdr *tcp;

	if (head == NULL)
		return NULL;
	eth = (struct rte_ether_hdr *)rte_pktmbuf_append(head, HDRS);
	if (eth == NULL) {
		rte_pktmbuf_free(head);
		return NULL;
	}
	memset(eth, 0, HDRS);
	eth->dst_addr = *dst;
	rte_eth_macaddr_get(0, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eth + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(len - RTE_ETHER_HDR_LEN);
	ip->fragment_offset = rte_cpu_to_be_16(RTE_IPV4_HDR_DF_FLAG);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_TCP;
	ip->src_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, 0, 1));
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, 0, 2));
	tcp = (struct rte_tcp_hdr *)(ip + 1);
	tcp->src_port = rte_cpu_to_be_16(SPORT);
	tcp->dst_port = rte_cpu_to_be_16(DPORT);
	tcp->sent_seq = rte_cpu_to_be_32(SEQ0 + offset);
	tcp->recv_ack = rte_cpu_to_be_32(1);
	tcp->data_off = 5 << 4;
	tcp->tcp_flags = RTE_TCP_ACK_FLAG | RTE_TCP_PSH_FLAG;
	tcp->rx_win = rte_cpu_to_be_16(UINT16_MAX);
	for (pos = 0; pos < payload;) {
		struct rte_mbuf *last = rte_pktmbuf_lastseg(head);
		uint8_t *p;
		uint16_t n, i;

		if (rte_pktmbuf_tailroom(last) == 0) {
			struct rte_mbuf *next = rte_pktmbuf_alloc(pool);

			if (next == NULL || rte_pktmbuf_chain(head, next) != 0) {
				rte_pktmbuf_free(next);
				rte_pktmbuf_free(head);
				return NULL;
			}
			continue;
		}
		n = RTE_MIN(payload - pos, (uint32_t)rte_pktmbuf_tailroom(last));
		p = (uint8_t *)rte_pktmbuf_append(head, n);
		for (i = 0; i < n; i++)
			p[i] = pattern(offset + pos + i);
		pos += n;
	}
	head->l2_len = RTE_ETHER_HDR_LEN;
	head->l3_len = sizeof(*ip);
	head->l4_len = sizeof(*tcp);
	head->tso_segsz = MSS;
	head->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_TCP_CKSUM |
			 RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
	tcp->cksum = rte_ipv4_phdr_cksum(ip, head->ol_flags);
	return head;
}

static int
send_stream(const char *mac, uint32_t frames, uint32_t len)
{
	struct rte_ether_addr dst;
	uint64_t deadline;
	uint32_t k;

	if (rte_ether_unformat_addr(mac, &dst) != 0 || len <= HDRS ||
	    len > UINT16_MAX) {
		fprintf(stderr, "tcp-guest: send <dst MAC> <frames> <%zu-65535 bytes>\n",
			HDRS + 1);
		return 1;
	}
	deadline = rte_get_timer_cycles() + 30 * rte_get_timer_hz();
	for (k = 0; k < frames && rte_get_timer_cycles() < deadline;) {
		struct rte_mbuf *m = tso_frame(&dst, k, len);

		if (m == NULL) {
			rte_eth_tx_done_cleanup(0, 0, 0);
			rte_delay_ms(1);
			continue;
		}
		while (rte_eth_tx_burst(0, 0, &m, 1) == 0 &&
		       rte_get_timer_cycles() < deadline)
			rte_delay_us_sleep(100);
		k++;
		/*
		 * Paced, as TCP's window paces a sender: a switch drops what
		 * the receiving guest's ring has no room for, and the stream
		 * has no retransmission.
		 */
		rte_delay_us_sleep(PACE_US);
	}
	/* Let the last answers come before the port goes. */
	rte_delay_ms(500);
	rte_eth_tx_burst(0, 0, NULL, 0);
	printf("{\"sent\": %u}\n", k);
	return k == frames ? 0 : 1;
}

struct stream_stats {
	uint64_t packets, bytes, gso, bad_payload, bad_csum;
};

/* One frame of the stream: its payload checked against the pattern. */
static void
check_frame(struct rte_mbuf *m, struct stream_stats *s)
{
	const struct rte_ipv4_hdr *ip;
	const struct rte_tcp_hdr *tcp;
	uint32_t offset, pos = 0, i;
	const struct rte_mbuf *seg;
	bool intact = true;

	if (rte_pktmbuf_data_len(m) < HDRS)
		return;
	ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *,
				     RTE_ETHER_HDR_LEN);
	tcp = (const struct rte_tcp_hdr *)(ip + 1);
	if (ip->next_proto_id != IPPROTO_TCP ||
	    tcp->dst_port != rte_cpu_to_be_16(DPORT))
		return;
	s->packets++;
	s->bytes += m->pkt_len;
	if (m->tso_segsz != 0 &&
	    (m->ol_flags & (RTE_MBUF_F_RX_LRO | RTE_MBUF_F_TX_TCP_SEG)))
		s->gso++;
	else if ((m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) !=
		 RTE_MBUF_F_RX_L4_CKSUM_NONE &&
		 rte_ipv4_udptcp_cksum_mbuf_verify(m, ip, m->l2_len +
						   m->l3_len) != 0)
		s->bad_csum++;
	offset = rte_be_to_cpu_32(tcp->sent_seq) - SEQ0;
	for (seg = m; seg != NULL; seg = seg->next) {
		const uint8_t *p = rte_pktmbuf_mtod(seg, const uint8_t *);

		for (i = 0; i < seg->data_len; i++, pos++)
			if (pos >= HDRS && p[i] != pattern(offset + pos - HDRS))
				intact = false;
	}
	s->bad_payload += !intact;
}

static int
receive_stream(uint32_t frames, uint32_t seconds)
{
	uint64_t deadline = rte_get_timer_cycles() +
			    (uint64_t)seconds * rte_get_timer_hz();
	struct stream_stats s = { 0 };

	while (s.packets < frames && rte_get_timer_cycles() < deadline) {
		struct rte_mbuf *pkts[32];
		uint16_t n = rte_eth_rx_burst(0, 0, pkts, RTE_DIM(pkts)), i;

		for (i = 0; i < n; i++) {
			pkts[i]->l2_len = RTE_ETHER_HDR_LEN;
			pkts[i]->l3_len = sizeof(struct rte_ipv4_hdr);
			check_frame(pkts[i], &s);
		}
		rte_pktmbuf_free_bulk(pkts, n);
		if (n == 0)
			rte_delay_us_sleep(1000);
	}
	printf("{\"packets\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"gso\": %" PRIu64
	       ", \"bad_payload\": %" PRIu64 ", \"bad_csum\": %" PRIu64 "}\n",
	       s.packets, s.bytes, s.gso, s.bad_payload, s.bad_csum);
	return s.packets == frames && s.bad_payload == 0 && s.bad_csum == 0 ?
	       0 : 1;
}

static void
usage(void)
{
	fprintf(stderr, "usage: tcp-guest <EAL args> -- send <dst MAC> <frames> <frame bytes>\n"
			"       tcp-guest <EAL args> -- recv <frames> <seconds>\n");
}

int
main(int argc, char **argv)
{
	int n = rte_eal_init(argc, argv), ret;

	if (n < 0) {
		fprintf(stderr, "tcp-guest: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= n;
	argv += n;
	if (!((argc == 5 && strcmp(argv[1], "send") == 0) ||
	      (argc == 4 && strcmp(argv[1], "recv") == 0))) {
		usage();
		rte_eal_cleanup();
		return 2;
	}
	pool = rte_pktmbuf_pool_create("tcp_guest", 8192, 256, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       rte_socket_id());
	if (pool == NULL || rte_eth_dev_count_avail() == 0 || port_up() != 0) {
		fprintf(stderr, "tcp-guest: no port 0 to use\n");
		rte_eal_cleanup();
		return 1;
	}
	if (argv[1][0] == 's')
		ret = send_stream(argv[2], strtoul(argv[3], NULL, 10),
				  strtoul(argv[4], NULL, 10));
	else
		ret = receive_stream(strtoul(argv[2], NULL, 10),
				     strtoul(argv[3], NULL, 10));
	fflush(stdout);
	rte_eth_dev_stop(0);
	rte_eth_dev_close(0);
	rte_eal_cleanup();
	return ret;
}
