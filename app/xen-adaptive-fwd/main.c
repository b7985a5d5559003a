/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * xen-adaptive-fwd: a DPDK application that polls its ports while they
 * are busy and sleeps on their Rx interrupts after an idle spell, the
 * pattern of DPDK's l3fwd-power, for a backend that shares its host with
 * the guests it serves. It runs on one lcore over every Rx queue of every
 * port the EAL options create and of every port announced later (a
 * net_xen_netback watcher makes one for each new vif; ports.c), in one of
 * three modes:
 *
 *   io        port 2k forwards to port 2k+1 and back (testpmd's io); while
 *             the other port of the pair is not there, drops
 *   rxonly    counts and frees what arrives (testpmd's rxonly)
 *   icmpecho  answers ARP requests and ICMP echo requests on the port
 *             they came from, as testpmd's icmpecho does
 *
 * --idle-polls N: after N rounds over all queues found nothing, enable
 * their interrupts and sleep in rte_epoll_wait() until one fires (N = 0:
 * never sleep, poll like testpmd). --idle-us T: the same once nothing
 * has arrived for T microseconds, whatever a round costs (it varies with
 * the queues, the CPU and what shares it); it replaces --idle-polls.
 * --gso: every port that offers them takes and sends TCP segments of up
 * to 64 KiB whole (Rx LRO, Tx TSO, checksum offloads), so that io
 * forwards two guests' TCP as the kernel's bridge does, a segment a
 * packet rather than its frames one by one; large segments forwarded to
 * a port without TSO are that PMD's to refuse. It
 * prints a line per --stats-period
 * and, on SIGINT/SIGTERM or after --duration, one summary line of JSON:
 * packets, sleeps, wakeups, and the CPU seconds the process used, which
 * is what an idle backend costs its host. --timeline FILE (icmpecho): a
 * line per echo reply, when its request came and when it went
 * (timeline.h).
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <rte_arp.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "ports.h"
#include "timeline.h"

#define BURST 32
#define POOL_MBUFS 8191

enum mode { MODE_IO, MODE_RXONLY, MODE_ICMPECHO };

static struct {
	enum mode mode;
	unsigned int idle_polls;
	unsigned int idle_us;		/* 0: count polls instead */
	unsigned int stats_period;	/* seconds, 0: none */
	unsigned int duration;		/* seconds, 0: until signalled */
	const char *timeline;		/* icmpecho's --timeline file */
	bool gso;
} opt = { .mode = MODE_IO, .idle_polls = 300, .stats_period = 1 };

static volatile sig_atomic_t quit;

struct counters {
	uint64_t rx, tx, dropped, sleeps, wakeups;
};

/*
 * The loop may be asleep with no timeout (--stats-period 0) or a long one
 * (the unit's 60 s), and rte_epoll_wait() goes back to sleep when a
 * signal interrupts it: the wake-up ends the sleep, even one the loop
 * enters just after it last looked at @quit.
 */
static void
on_signal(int sig __rte_unused)
{
	int saved = errno;

	quit = 1;
	ports_wake();
	errno = saved;
}

static void
usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [EAL options] -- [--mode io|rxonly|icmpecho]\n"
		"       [--idle-polls N | --idle-us T] [--stats-period S]\n"
		"       [--duration S] [--timeline FILE (icmpecho)] [--gso]\n",
		prog);
}

static int
parse_uint(const char *s, unsigned int *v)
{
	char *end;
	unsigned long n = strtoul(s, &end, 10);

	if (*s == '\0' || *end != '\0' || n > UINT32_MAX)
		return -1;
	*v = n;
	return 0;
}

static int
parse_args(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "idle-polls", required_argument, NULL, 'i' },
		{ "idle-us", required_argument, NULL, 'u' },
		{ "stats-period", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "timeline", required_argument, NULL, 't' },
		{ "gso", no_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (strcmp(optarg, "io") == 0)
				opt.mode = MODE_IO;
			else if (strcmp(optarg, "rxonly") == 0)
				opt.mode = MODE_RXONLY;
			else if (strcmp(optarg, "icmpecho") == 0)
				opt.mode = MODE_ICMPECHO;
			else
				return -1;
			break;
		case 'i':
			if (parse_uint(optarg, &opt.idle_polls) < 0)
				return -1;
			break;
		case 'u':
			if (parse_uint(optarg, &opt.idle_us) < 0)
				return -1;
			break;
		case 's':
			if (parse_uint(optarg, &opt.stats_period) < 0)
				return -1;
			break;
		case 'd':
			if (parse_uint(optarg, &opt.duration) < 0)
				return -1;
			break;
		case 't':
			opt.timeline = optarg;
			break;
		case 'g':
			opt.gso = true;
			break;
		default:
			return -1;
		}
	}
	if (opt.timeline != NULL && opt.mode != MODE_ICMPECHO)
		return -1;
	return optind == argc ? 0 : -1;
}

/* testpmd's icmpecho: turn an ARP or echo request into its answer. */
static bool
answer(struct rte_mbuf *m, const struct rte_ether_addr *mine)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	uint16_t type = rte_be_to_cpu_16(eth->ether_type);

	if (type == RTE_ETHER_TYPE_ARP &&
	    m->data_len >= sizeof(*eth) + sizeof(struct rte_arp_hdr)) {
		struct rte_arp_hdr *arp = (struct rte_arp_hdr *)(eth + 1);
		struct rte_arp_ipv4 *a = &arp->arp_data;
		uint32_t ip;

		if (arp->arp_opcode != rte_cpu_to_be_16(RTE_ARP_OP_REQUEST))
			return false;
		arp->arp_opcode = rte_cpu_to_be_16(RTE_ARP_OP_REPLY);
		a->arp_tha = a->arp_sha;
		a->arp_sha = *mine;
		ip = a->arp_tip;
		a->arp_tip = a->arp_sip;
		a->arp_sip = ip;
		eth->dst_addr = eth->src_addr;
		eth->src_addr = *mine;
		return true;
	}
	if (type == RTE_ETHER_TYPE_IPV4 &&
	    m->data_len >= sizeof(*eth) + sizeof(struct rte_ipv4_hdr) +
			   sizeof(struct rte_icmp_hdr)) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
		struct rte_icmp_hdr *icmp;
		uint32_t addr, sum;

		if (ip->next_proto_id != IPPROTO_ICMP ||
		    m->data_len < sizeof(*eth) + rte_ipv4_hdr_len(ip) +
				  sizeof(*icmp))
			return false;
		icmp = (struct rte_icmp_hdr *)((uint8_t *)ip +
					       rte_ipv4_hdr_len(ip));
		if (icmp->icmp_type != RTE_IP_ICMP_ECHO_REQUEST ||
		    icmp->icmp_code != 0)
			return false;
		icmp->icmp_type = RTE_IP_ICMP_ECHO_REPLY;
		/* RFC 1624: the type went from 8 to 0 in the high byte. */
		sum = (uint16_t)~rte_be_to_cpu_16(icmp->icmp_cksum) +
		      (uint16_t)~(RTE_IP_ICMP_ECHO_REQUEST << 8) +
		      (RTE_IP_ICMP_ECHO_REPLY << 8);
		sum = (sum & 0xffff) + (sum >> 16);
		sum = (sum & 0xffff) + (sum >> 16);
		icmp->icmp_cksum = rte_cpu_to_be_16(~sum & 0xffff);
		addr = ip->src_addr;
		ip->src_addr = ip->dst_addr;
		ip->dst_addr = addr;
		eth->dst_addr = eth->src_addr;
		eth->src_addr = *mine;
		return true;
	}
	return false;
}

/* What the transmit took; the rest is dropped. */
static uint16_t
send_or_drop(uint16_t port, uint16_t qid, struct rte_mbuf **pkts, uint16_t n,
	     struct counters *c)
{
	uint16_t sent = rte_eth_tx_burst(port, qid, pkts, n);

	c->tx += sent;
	c->dropped += n - sent;
	rte_pktmbuf_free_bulk(pkts + sent, n - sent);
	return sent;
}

/*
 * icmpecho's transmit of @q's answers, whose requests arrived at @rx_us:
 * noted in the timeline, when there is one.
 */
static void
send_answers(const struct queue *q, struct rte_mbuf **out, uint16_t n,
	     uint64_t rx_us, struct counters *c)
{
	struct timeline_echo echo[BURST];
	uint64_t tx_us;
	uint16_t j, sent;

	if (!timeline_on()) {
		send_or_drop(q->port, q->qid, out, n, c);
		return;
	}
	for (j = 0; j < n; j++)
		timeline_echo_read(out[j], &echo[j]);
	tx_us = timeline_now_us();
	sent = send_or_drop(q->port, q->qid, out, n, c);
	timeline_burst(echo, n, sent, rx_us, tx_us, timeline_now_us());
}

/* One round over every queue; the packets it received. */
static uint64_t
poll_round(struct counters *c)
{
	struct rte_mbuf *pkts[BURST], *out[BURST];
	uint64_t got = 0, rx_us;
	unsigned int i;

	for (i = 0; i < nb_queues; i++) {
		const struct queue *q = &queues[i];
		struct rte_ether_addr mine;
		uint16_t n, k = 0, j, out_queues;

		n = rte_eth_rx_burst(q->port, q->qid, pkts, BURST);
		if (n == 0)
			continue;
		got += n;
		c->rx += n;
		switch (opt.mode) {
		case MODE_IO:
			/* The peer port may be gone, or not come yet. */
			out_queues = ports_queues(q->port ^ 1);
			if (out_queues != 0) {
				send_or_drop(q->port ^ 1, q->qid % out_queues,
					     pkts, n, c);
				break;
			}
			c->dropped += n;
			rte_pktmbuf_free_bulk(pkts, n);
			break;
		case MODE_RXONLY:
			rte_pktmbuf_free_bulk(pkts, n);
			break;
		case MODE_ICMPECHO:
			rx_us = timeline_on() ? timeline_now_us() : 0;
			rte_eth_macaddr_get(q->port, &mine);
			for (j = 0; j < n; j++) {
				if (answer(pkts[j], &mine))
					out[k++] = pkts[j];
				else
					rte_pktmbuf_free(pkts[j]);
			}
			send_answers(q, out, k, rx_us, c);
			break;
		}
	}
	return got;
}

static void
intr_all(bool on)
{
	unsigned int i;

	for (i = 0; i < nb_queues; i++)
		if (on)
			rte_eth_dev_rx_intr_enable(queues[i].port,
						   queues[i].qid);
		else
			rte_eth_dev_rx_intr_disable(queues[i].port,
						    queues[i].qid);
}

static double
cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * Whether the queues have been idle long enough to sleep, after a round
 * (started at @now) found nothing: @polls empty rounds, or empty since
 * @since (0: the spell starts now).
 */
static bool
idle_enough(unsigned int *polls, uint64_t *since, uint64_t now, uint64_t hz)
{
	if (opt.idle_us != 0) {
		if (*since == 0)
			*since = now;
		return now - *since >= (uint64_t)opt.idle_us * hz / 1000000;
	}
	return opt.idle_polls != 0 && ++*polls >= opt.idle_polls;
}

static void
run(void)
{
	struct rte_epoll_event ev[PORTS_MAX_QUEUES + 1];
	uint64_t hz = rte_get_timer_hz(), start = rte_get_timer_cycles();
	uint64_t next_stats = start + opt.stats_period * hz, now;
	struct counters c = { 0 }, last = { 0 };
	double cpu0 = cpu_seconds(), cpu_last = cpu0;
	uint64_t idle_since = 0;
	unsigned int idle = 0;
	int n, wait_ms;

	while (!quit) {
		ports_update();
		now = rte_get_timer_cycles();
		if (opt.duration != 0 && now - start >= opt.duration * hz)
			break;
		if (opt.stats_period != 0 && now >= next_stats) {
			double cpu = cpu_seconds();

			printf("rx-pps %" PRIu64 " tx-pps %" PRIu64
			       " sleeps %" PRIu64 " cpu %.1f%%\n",
			       (c.rx - last.rx) / opt.stats_period,
			       (c.tx - last.tx) / opt.stats_period,
			       c.sleeps - last.sleeps,
			       100 * (cpu - cpu_last) / opt.stats_period);
			fflush(stdout);
			last = c;
			cpu_last = cpu;
			next_stats += opt.stats_period * hz;
		}
		if (poll_round(&c) > 0) {
			idle = 0;
			idle_since = 0;
			continue;
		}
		if (!idle_enough(&idle, &idle_since, now, hz))
			continue;
		/* Idle: sleep until a queue's event, a stats line or the end. */
		idle = 0;
		idle_since = 0;
		wait_ms = opt.stats_period != 0 ? (int)(opt.stats_period * 1000) :
			  -1;
		intr_all(true);
		/* The queues' events and ports_update()'s wake-up. */
		n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, nb_queues + 1,
				   wait_ms);
		intr_all(false);
		c.sleeps++;
		c.wakeups += n > 0;
	}
	now = rte_get_timer_cycles();
	printf("{\"rx\": %" PRIu64 ", \"tx\": %" PRIu64 ", \"dropped\": %"
	       PRIu64 ", \"sleeps\": %" PRIu64 ", \"wakeups\": %" PRIu64
	       ", \"wall_s\": %.3f, \"cpu_s\": %.3f}\n", c.rx, c.tx,
	       c.dropped, c.sleeps, c.wakeups, (double)(now - start) / hz,
	       cpu_seconds() - cpu0);
}

int
main(int argc, char **argv)
{
	struct rte_mempool *mp;
	int ret;

	/*
	 * Before anything else: systemd may stop the service while EAL is
	 * still setting up, and a stop is an ordinary end (status 0).
	 */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		rte_exit(EXIT_FAILURE, "cannot initialise EAL\n");
	if (parse_args(argc - ret, argv + ret) < 0) {
		usage(argv[0]);
		rte_exit(EXIT_FAILURE, "bad arguments\n");
	}
	if (opt.timeline != NULL && timeline_open(opt.timeline) != 0)
		rte_exit(EXIT_FAILURE, "cannot write the timeline %s: %s\n",
			 opt.timeline, strerror(errno));
	mp = rte_pktmbuf_pool_create("adaptive_fwd", POOL_MBUFS, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE,
				     rte_socket_id());
	if (mp == NULL)
		rte_exit(EXIT_FAILURE, "cannot create the mbuf pool: %s\n",
			 rte_strerror(rte_errno));
	ret = ports_open(mp, opt.gso);
	if (ret != 0)
		rte_exit(EXIT_FAILURE, "cannot serve the ports: %s\n",
			 strerror(-ret));
	if (nb_queues == 0)
		printf("no port yet: serving those announced (a net_xen_netback watcher's)\n");
	run();
	ports_close();
	ret = timeline_close();
	if (ret != 0)
		fprintf(stderr, "the timeline %s is incomplete: %s\n",
			opt.timeline, strerror(-ret));
	rte_eal_cleanup();
	return ret != 0 ? EXIT_FAILURE : 0;
}
