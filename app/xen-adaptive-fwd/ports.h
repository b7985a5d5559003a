/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The ports xen-adaptive-fwd serves and their Rx queues (ports.c): the
 * ports there at start and those announced later, which come and go
 * between two rounds of the forwarding loop.
 */

#ifndef ADAPTIVE_FWD_PORTS_H
#define ADAPTIVE_FWD_PORTS_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_epoll.h>
#include <rte_mempool.h>

#define PORTS_MAX_QUEUES 64

struct queue {
	uint16_t port;
	uint16_t qid;
};

/* Every Rx queue of the ports served now, in no particular order. */
extern struct queue queues[PORTS_MAX_QUEUES];
extern unsigned int nb_queues;

/*
 * Serve every port there is with Rx interrupts in this thread's epoll
 * set, and every port announced later (RTE_ETH_EVENT_NEW) from a
 * ports_update() after its probe returned; 0, or -errno. With @gso,
 * each with the large-segment and checksum offloads it offers enabled.
 */
int ports_open(struct rte_mempool *mp, bool gso);
/*
 * In the forwarding loop, between rounds: set up the ports announced
 * since the last call, and stop, close and detach those told removed
 * (RTE_ETH_EVENT_INTR_RMV).
 */
void ports_update(void);
/*
 * End the loop's sleep in its epoll set, or its next one, at once: a
 * signal handler's call (async-signal-safe).
 */
void ports_wake(void);
/* How many queue pairs @port has, 0 when it is not served. */
uint16_t ports_queues(uint16_t port);
/* Stop and close every port served. */
void ports_close(void);

#endif /* ADAPTIVE_FWD_PORTS_H */
