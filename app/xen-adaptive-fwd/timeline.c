/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The --timeline file (timeline.h). One line per echo reply:
 *
 *   <id> <seq> <rx_us> <tx_us|->
 *
 * "-" when the reply was dropped (the Tx ring was full). Echo requests are
 * rare next to what the app forwards (a ping's rate), so a buffered stdio
 * stream is cheap enough; it is flushed at close.
 */

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <time.h>

#include <rte_ether.h>
#include <rte_icmp.h>
#include <rte_ip.h>

#include "timeline.h"

static FILE *out;

int
timeline_open(const char *path)
{
	out = fopen(path, "w");
	return out != NULL ? 0 : -errno;
}

bool
timeline_on(void)
{
	return out != NULL;
}

uint64_t
timeline_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t
timeline_echo_key(const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eth =
		rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eth + 1);
	const struct rte_icmp_hdr *icmp;

	/* The app made this reply: its headers are in the first segment. */
	if (eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
	    m->data_len < sizeof(*eth) + sizeof(*ip) ||
	    ip->next_proto_id != IPPROTO_ICMP ||
	    m->data_len < sizeof(*eth) + rte_ipv4_hdr_len(ip) + sizeof(*icmp))
		return -1;
	icmp = (const struct rte_icmp_hdr *)((const uint8_t *)ip +
					     rte_ipv4_hdr_len(ip));
	if (icmp->icmp_type != RTE_IP_ICMP_ECHO_REPLY)
		return -1;
	return (int64_t)rte_be_to_cpu_16(icmp->icmp_ident) << 16 |
	       rte_be_to_cpu_16(icmp->icmp_seq_nb);
}

void
timeline_burst(const int64_t *keys, uint16_t n, uint16_t sent,
	       uint64_t rx_us, uint64_t tx_us)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (keys[i] < 0)
			continue;
		fprintf(out, "%" PRId64 " %" PRId64 " %" PRIu64, keys[i] >> 16,
			keys[i] & 0xffff, rx_us);
		if (i < sent)
			fprintf(out, " %" PRIu64 "\n", tx_us);
		else
			fputs(" -\n", out);
	}
}

int
timeline_close(void)
{
	int bad;

	if (out == NULL)
		return 0;
	bad = ferror(out);
	if (fclose(out) != 0)
		bad = 1;
	out = NULL;
	return bad ? -EIO : 0;
}
