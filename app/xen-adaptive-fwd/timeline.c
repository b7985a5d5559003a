/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The --timeline file (timeline.h). One line per echo reply:
 *
 *   <id> <seq> <sent_us|-> <rx_us> <tx_us> <done_us|->
 *
 * sent_us "-" when the request's data does not start with a send time,
 * done_us "-" when the reply was dropped (the Tx ring was full). Echo
 * requests are rare next to what the app forwards (a ping's rate), so a
 * buffered stdio stream is cheap enough; it is flushed at close.
 */

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_ether.h>
#include <rte_icmp.h>
#include <rte_ip.h>

#include "timeline.h"

/*
 * iputils ping's data starts with its struct timeval of the send, in the
 * guest's byte order (x86: little-endian, 64-bit seconds and
 * microseconds), when the data is at least that long (the default 56
 * bytes are).
 */
struct ping_stamp {
	uint64_t sec, usec;
};

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

void
timeline_echo_read(const struct rte_mbuf *m, struct timeline_echo *e)
{
	const struct rte_ether_hdr *eth =
		rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eth + 1);
	const struct rte_icmp_hdr *icmp;
	struct ping_stamp stamp;
	size_t at;

	/* The app made this reply: its headers are in the first segment. */
	e->reply = false;
	if (eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
	    m->data_len < sizeof(*eth) + sizeof(*ip) ||
	    ip->next_proto_id != IPPROTO_ICMP)
		return;
	at = sizeof(*eth) + rte_ipv4_hdr_len(ip);
	if (m->data_len < at + sizeof(*icmp))
		return;
	icmp = rte_pktmbuf_mtod_offset(m, const struct rte_icmp_hdr *, at);
	if (icmp->icmp_type != RTE_IP_ICMP_ECHO_REPLY)
		return;
	e->reply = true;
	e->id = rte_be_to_cpu_16(icmp->icmp_ident);
	e->seq = rte_be_to_cpu_16(icmp->icmp_seq_nb);
	at += sizeof(*icmp);
	e->sent_known = m->data_len >= at + sizeof(stamp);
	if (e->sent_known) {
		memcpy(&stamp, rte_pktmbuf_mtod_offset(m, const void *, at),
		       sizeof(stamp));
		e->sent_us = rte_le_to_cpu_64(stamp.sec) * 1000000 +
			     rte_le_to_cpu_64(stamp.usec);
	}
}

void
timeline_burst(const struct timeline_echo *e, uint16_t n, uint16_t sent,
	       uint64_t rx_us, uint64_t tx_us, uint64_t done_us)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (!e[i].reply)
			continue;
		fprintf(out, "%u %u ", e[i].id, e[i].seq);
		if (e[i].sent_known)
			fprintf(out, "%" PRIu64, e[i].sent_us);
		else
			fputc('-', out);
		fprintf(out, " %" PRIu64 " %" PRIu64, rx_us, tx_us);
		if (i < sent)
			fprintf(out, " %" PRIu64 "\n", done_us);
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
