/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Ring memory ordering under real concurrency: a backend process and a
 * frontend process, each pinned to its own CPU, share one simulator
 * instance as two domains. The frontend sends packets (60 to 9000 bytes,
 * mixed EtherTypes) each carrying its sequence number, its length and a
 * checksum of every other byte; the backend checks each one and sends it
 * back; the frontend checks the echo. A slot or page read before the
 * index that published it, or rewritten before its peer was done with
 * it, shows up as a bad checksum, a wrong length or a gap in the
 * sequence. Both ends group by EtherType with an odd batch bound, so the
 * stash is exercised too.
 *
 * XEN_STRESS_PACKETS (else XEN_TEST_PACKETS, else 2 million) sets how many
 * packets make the round trip.
 */

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "xsim.h"

#define BURST 32
#define IN_FLIGHT 512
#define HDR 14
/* Sequence number, length, checksum: right after the Ethernet header. */
#define OFF_SEQ HDR
#define OFF_LEN (OFF_SEQ + 8)
#define OFF_SUM (OFF_LEN + 4)
#define MIN_LEN 60
#define STALL_MS 20000

static const uint16_t types[] = { 0x0800, 0x86dd, 0x0806, 0x88b5, 0x0040 };

static uint64_t packets = 2000000;
static char inst[48];
static char devargs[160];

static uint32_t
stress_len(uint64_t seq)
{
	/* Mostly up to a standard frame; every 16th up to 9000 bytes. */
	if (seq % 16 == 15)
		return 1515 + (seq * 7919) % (9000 - 1515 + 1);
	return MIN_LEN + (seq * 7919) % (1514 - MIN_LEN + 1);
}

/* FNV-1a over the packet, the checksum field counted as zero. */
static uint32_t
stress_sum(const struct rte_mbuf *m)
{
	uint32_t h = 2166136261u, off = 0;

	for (const struct rte_mbuf *s = m; s != NULL; s = s->next) {
		const uint8_t *d = rte_pktmbuf_mtod(s, const uint8_t *);

		for (uint16_t i = 0; i < s->data_len; i++, off++) {
			uint8_t b = off >= OFF_SUM && off < OFF_SUM + 4 ? 0 :
								      d[i];

			h = (h ^ b) * 16777619u;
		}
	}
	return h;
}

static struct rte_mbuf *
stress_packet(struct rte_mempool *mp, uint64_t seq)
{
	uint32_t len = stress_len(seq), off = 0, x = (uint32_t)seq * 2654435761u;
	struct rte_mbuf *head = NULL;
	uint32_t sum;
	uint8_t hdr[OFF_SUM + 4];

	while (off < len) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
		uint16_t n;
		uint8_t *d;

		if (m == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
		n = RTE_MIN(len - off, (uint32_t)rte_pktmbuf_tailroom(m));
		d = (uint8_t *)rte_pktmbuf_append(m, n);
		for (uint16_t i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			d[i] = (uint8_t)x;
		}
		if (head == NULL)
			head = m;
		else
			rte_pktmbuf_chain(head, m);
		off += n;
	}
	memset(hdr, 0xff, 6);
	memset(hdr + 6, 0x02, 6);
	hdr[12] = types[seq % RTE_DIM(types)] >> 8;
	hdr[13] = types[seq % RTE_DIM(types)] & 0xff;
	memcpy(hdr + OFF_SEQ, &seq, 8);
	memcpy(hdr + OFF_LEN, &len, 4);
	memset(hdr + OFF_SUM, 0, 4);
	memcpy(rte_pktmbuf_mtod(head, uint8_t *), hdr, sizeof(hdr));
	sum = stress_sum(head);
	memcpy(rte_pktmbuf_mtod_offset(head, uint8_t *, OFF_SUM), &sum, 4);
	return head;
}

/* True when @m is packet @seq, whole and unchanged. */
static bool
stress_check(const struct rte_mbuf *m, uint64_t seq, const char *who)
{
	uint8_t buf[OFF_SUM + 4];
	const uint8_t *h = rte_pktmbuf_read(m, 0, sizeof(buf), buf);
	uint64_t got;
	uint32_t len, sum;

	if (h == NULL) {
		fprintf(stderr, "%s: packet %" PRIu64 ": %u bytes\n", who, seq,
			m->pkt_len);
		return false;
	}
	memcpy(&got, h + OFF_SEQ, 8);
	memcpy(&len, h + OFF_LEN, 4);
	memcpy(&sum, h + OFF_SUM, 4);
	if (got != seq || len != stress_len(seq) || m->pkt_len != len ||
	    sum != stress_sum(m)) {
		fprintf(stderr, "%s: packet %" PRIu64 " arrived as %" PRIu64
			", %u bytes (header says %u), checksum %s\n", who, seq,
			got, m->pkt_len, len,
			sum == stress_sum(m) ? "good" : "BAD");
		return false;
	}
	return true;
}

/*
 * The backend process: check each packet, send it back, until @packets
 * went back; then wait for the frontend to say it has them all.
 */
static int
backend_main(const char *prog, int done_fd)
{
	struct rte_mbuf *pkts[BURST], *out[BURST * 2];
	struct rte_mempool *mp;
	uint64_t next = 0, echoed = 0;
	unsigned int nb_out = 0;
	uint64_t idle_since = 0;
	char eal[96], c;
	int port;

	snprintf(eal, sizeof(eal), "--file-prefix %s-be", inst);
	if (test_eal_init_on(prog, 1, eal) < 0)
		return 2;
	mp = rte_pktmbuf_pool_create("be", 8192, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	port = mp == NULL ? -1 : pair_create("net_xen_netback0", devargs, mp);
	if (port < 0)
		return 2;
	while (echoed < packets) {
		uint16_t n = 0, i, k;

		if (nb_out <= BURST)
			n = rte_eth_rx_burst(port, 0, pkts, BURST);
		for (i = 0; i < n; i++) {
			if (!stress_check(pkts[i], next, "backend"))
				return 1;
			next++;
			out[nb_out++] = pkts[i];
		}
		k = nb_out > 0 ? rte_eth_tx_burst(port, 0, out, nb_out) : 0;
		memmove(out, out + k, (nb_out - k) * sizeof(out[0]));
		nb_out -= k;
		echoed += k;
		if (n > 0 || k > 0)
			idle_since = 0;
		else if (idle_since == 0)
			idle_since = rte_get_timer_cycles();
		else if (rte_get_timer_cycles() - idle_since >
			 rte_get_timer_hz() / 1000 * STALL_MS) {
			fprintf(stderr, "backend: stalled at %" PRIu64 "\n",
				next);
			return 1;
		}
	}
	/* Keep the rings up until the frontend has read everything. */
	if (read(done_fd, &c, 1) != 1)
		return 1;
	pair_destroy("net_xen_netback0", port);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return 0;
}

static pid_t child;
static int done_pipe[2];
static const char *program;

static void
test_two_processes_pass_every_packet_intact_both_ways(void)
{
	struct rte_mbuf *pkts[BURST], *out[BURST];
	struct rte_mempool *mp;
	uint64_t next_tx = 0, next_rx = 0, idle_since = 0;
	unsigned int nb_out = 0;
	int port, status;
	char eal[96];

	snprintf(eal, sizeof(eal), "--file-prefix %s-fe", inst);
	REQUIRE(test_eal_init_on(program, 0, eal) >= 0);
	mp = rte_pktmbuf_pool_create("fe", 8192, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	REQUIRE(mp != NULL);
	port = pair_create("net_xen_netfront0", devargs, mp);
	REQUIRE(port >= 0);
	while (next_rx < packets) {
		uint16_t i, n, k = 0;

		while (nb_out < BURST && next_tx + nb_out < packets &&
		       next_tx + nb_out - next_rx < IN_FLIGHT) {
			out[nb_out] = stress_packet(mp, next_tx + nb_out);
			if (out[nb_out] == NULL)
				break;
			nb_out++;
		}
		if (nb_out > 0) {
			k = rte_eth_tx_burst(port, 0, out, nb_out);
			memmove(out, out + k, (nb_out - k) * sizeof(out[0]));
			nb_out -= k;
			next_tx += k;
		}
		n = rte_eth_rx_burst(port, 0, pkts, BURST);
		for (i = 0; i < n; i++) {
			bool ok = stress_check(pkts[i], next_rx, "frontend");

			CHECK(ok);
			if (!ok)
				break;
			next_rx++;
		}
		rte_pktmbuf_free_bulk(pkts, n);
		if (i < n)
			break;
		if (n > 0 || k > 0) {
			idle_since = 0;
		} else if (idle_since == 0) {
			idle_since = rte_get_timer_cycles();
		} else if (rte_get_timer_cycles() - idle_since >
			   rte_get_timer_hz() / 1000 * STALL_MS) {
			fprintf(stderr, "frontend: stalled at %" PRIu64
				" of %" PRIu64 " (sent %" PRIu64 ")\n",
				next_rx, packets, next_tx);
			break;
		}
		/* The backend gave up: its status says why. */
		if (waitpid(child, &status, WNOHANG) == child) {
			child = 0;
			break;
		}
	}
	CHECK(next_rx == packets);
	rte_pktmbuf_free_bulk(out, nb_out);
	if (child > 0) {
		if (write(done_pipe[1], "x", 1) != 1)
			kill(child, SIGKILL);
		REQUIRE(waitpid(child, &status, 0) == child);
		child = 0;
	}
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	printf("# %" PRIu64 " packets each way, checked on both ends\n",
	       next_rx);
	pair_destroy("net_xen_netfront0", port);
	rte_mempool_free(mp);
	rte_eal_cleanup();
}

int
main(int argc, char **argv)
{
	const char *env = getenv("XEN_STRESS_PACKETS");

	/* Its own main(): the backend is forked before any EAL exists. */
	test_init(argc, argv);
	program = argv[0];
	if (env == NULL)
		env = getenv("XEN_TEST_PACKETS");
	if (env != NULL)
		packets = strtoull(env, NULL, 0);
	snprintf(inst, sizeof(inst), "%s-2p", pair_sim_instance());
	snprintf(devargs, sizeof(devargs),
		 "domid=1,provider=sim,sim=%s,batch=23,group_ethertype=1",
		 inst);
	if (pipe(done_pipe) != 0)
		return EXIT_FAILURE;
	/* Fork before either EAL exists: each process is a domain. */
	child = fork();
	if (child < 0)
		return EXIT_FAILURE;
	if (child == 0) {
		close(done_pipe[1]);
		_exit(backend_main(argv[0], done_pipe[0]));
	}
	close(done_pipe[0]);
	RUN(test_two_processes_pass_every_packet_intact_both_ways);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	xsim_instance_destroy(inst);
	TEST_DONE();
}
