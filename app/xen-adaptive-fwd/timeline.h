/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * xen-adaptive-fwd's --timeline FILE (icmpecho): a line for every ICMP
 * echo reply it made, with when the request's burst arrived and when the
 * reply's burst went, in CLOCK_REALTIME microseconds, the clock iputils
 * ping -D prints. Joined with a guest's ping output (tests/xen/scenarios/
 * ping-timeline.awk), it tells where a late reply spent its time: on the
 * way to the backend, in it, or on the way back.
 */

#ifndef ADAPTIVE_FWD_TIMELINE_H
#define ADAPTIVE_FWD_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

/* Write the timeline to @path (created or emptied); 0, or -errno. */
int timeline_open(const char *path);
/* Whether there is a timeline to write. */
bool timeline_on(void);
/* CLOCK_REALTIME now, in microseconds. */
uint64_t timeline_now_us(void);
/*
 * The echo reply @m's identifier and sequence number (id << 16 | seq), or
 * -1 when @m is no IPv4 echo reply. Read before the transmit: after it,
 * the mbuf is the driver's.
 */
int64_t timeline_echo_key(const struct rte_mbuf *m);
/*
 * A burst of replies (their keys, -1 for what is no echo reply): the
 * first @sent of them went at @tx_us, the rest were dropped; their
 * requests arrived at @rx_us.
 */
void timeline_burst(const int64_t *keys, uint16_t n, uint16_t sent,
		    uint64_t rx_us, uint64_t tx_us);
/* Flush and close; 0, or -errno when a write failed. */
int timeline_close(void);

#endif /* ADAPTIVE_FWD_TIMELINE_H */
