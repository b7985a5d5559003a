/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * xen-adaptive-fwd's --timeline FILE (icmpecho): a line for every ICMP
 * echo reply it made, with when the guest sent the request (the time
 * iputils ping writes at the start of its data, in the guest's clock),
 * when the request's burst arrived and when the reply's burst went (in
 * Dom0's CLOCK_REALTIME), all in microseconds. Joined with the guest's
 * ping output (tests/xen/scenarios/ping-timeline.awk), it tells where a
 * late reply spent its time: on the way to the backend, in it, or on the
 * way back.
 */

#ifndef ADAPTIVE_FWD_TIMELINE_H
#define ADAPTIVE_FWD_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

/* What the timeline says of one echo reply. */
struct timeline_echo {
	bool reply;		/* an echo reply (not ARP's): in the timeline */
	uint16_t id, seq;	/* the echo's identifier and sequence number */
	bool sent_known;	/* the data starts with ping's send time */
	uint64_t sent_us;	/* that time (the guest's clock) */
};

/* Write the timeline to @path (created or emptied); 0, or -errno. */
int timeline_open(const char *path);
/* Whether there is a timeline to write. */
bool timeline_on(void);
/* CLOCK_REALTIME now, in microseconds. */
uint64_t timeline_now_us(void);
/*
 * What @m says in @e (e->reply: whether it is an IPv4 echo reply). Read
 * before the transmit: after it, the mbuf is the driver's.
 */
void timeline_echo_read(const struct rte_mbuf *m, struct timeline_echo *e);
/*
 * A burst of @n answers, echo replies or not (@e, as read): their
 * requests arrived at @rx_us, the transmit call began at @tx_us and
 * returned at @done_us having taken the first @sent of them (the rest
 * were dropped). A reply can reach the guest anywhere in that call: the
 * vCPU that made it may be descheduled once its notification woke the
 * guest's.
 */
void timeline_burst(const struct timeline_echo *e, uint16_t n, uint16_t sent,
		    uint64_t rx_us, uint64_t tx_us, uint64_t done_us);
/* Flush and close; 0, or -errno when a write failed. */
int timeline_close(void);

#endif /* ADAPTIVE_FWD_TIMELINE_H */
