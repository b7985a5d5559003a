/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Helpers for tests that run a netback and a netfront port in one process
 * over a private simulator instance: creating and starting the ports,
 * waiting for the link, and moving sequence-numbered packets whose every
 * byte is checked on arrival.
 */

#ifndef VDEV_PAIR_H
#define VDEV_PAIR_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>

#include "mixed_frames.h"
#include "netif_ring.h"
#include "test_eal.h"
#include "xa.h"
#include "xsim.h"

/*
 * Grants the netfront asks our netback to keep mapped per queue pair: its
 * TX pages and the pages of its zero-copy RX pool (twice the ring).
 */
#define PAIR_STATIC_GRANTS \
	((unsigned int)(NETIF_TX_RING_SIZE + 2 * NETIF_RX_RING_SIZE))

/* Packets carry this EtherType (IEEE local experimental 1). */
#define PAIR_ETHERTYPE 0x88b5
#define PAIR_MIN_LEN 60
#define PAIR_MAX_LEN 9000

/*
 * This process's simulator instance: a name no other process of this boot
 * had (xsim_instance_name_private()), so never a killed test's store.
 */
const char *pair_sim_instance(void);

/*
 * TEST_MAIN hooks of the driver tests: EAL and test_pool, a pool of
 * PAIR_POOL_MBUFS mbufs (test_eal.h); then the pool, the simulator
 * instance of pair_sim_instance() and EAL released. Inline: test_pool is
 * the test program's own.
 */
#define PAIR_POOL_MBUFS 8192

static inline int
pair_setup(const char *argv0)
{
	test_pool = test_eal_pool(argv0, PAIR_POOL_MBUFS);
	return test_pool != NULL ? 0 : -1;
}

static inline void
pair_teardown(void)
{
	xsim_instance_destroy(pair_sim_instance());
	test_eal_teardown();
}

/* rte_vdev_init() + configure + start; returns the port id or -1. */
int pair_create(const char *name, const char *args, struct rte_mempool *mp);
/* The same with @nb_queues Rx and Tx queues. */
int pair_create_queues(const char *name, const char *args,
		       struct rte_mempool *mp, uint16_t nb_queues);
/* The same configured with @conf (offloads). */
int pair_create_conf(const char *name, const char *args, struct rte_mempool *mp,
		     uint16_t nb_queues, const struct rte_eth_conf *conf);
/* Configure and start a probed port: 0, or -1 / -errno. */
int pair_start(uint16_t port, struct rte_mempool *mp, uint16_t nb_queues,
	       const struct rte_eth_conf *conf);
/* Stop, close and remove the vdev. */
void pair_destroy(const char *name, uint16_t port);

/* Wait up to @ms for the link of @port to become @up. */
bool pair_wait_link(uint16_t port, bool up, unsigned int ms);

/* Frame length of packet @seq: spread over [60, 9000], many multi-slot. */
uint32_t pair_len(uint64_t seq);

/*
 * Send @count packets from @tx to @rx, polling both, never more than
 * @in_flight outstanding, and check that they all arrive, in order, with
 * every byte intact. Returns the number of packets that arrived intact
 * and in order (== @count on success); @first_seq numbers the packets.
 */
uint64_t pair_transfer(uint16_t tx, uint16_t rx, struct rte_mempool *mp,
		       uint64_t first_seq, uint64_t count,
		       unsigned int in_flight);
/* The same through Tx queue @queue of @tx and Rx queue @queue of @rx. */
uint64_t pair_transfer_queue(uint16_t tx, uint16_t rx, uint16_t queue,
			     struct rte_mempool *mp, uint64_t first_seq,
			     uint64_t count, unsigned int in_flight);

/* An xstat of @port by name; UINT64_MAX if there is none. */
uint64_t pair_xstat(uint16_t port, const char *name);

/*
 * The xstat @name of @port once it reads @want, or its last value after
 * @ms: the control ring serves a guest's static grant lists in turns of
 * a budget (NETIF_CTRL_BACK_BUDGET), so some may still wait when the link
 * is up.
 */
uint64_t pair_xstat_settled(uint16_t port, const char *name, uint64_t want,
			    unsigned int ms);

/*
 * A netback and a netfront port over a simulator instance of their own
 * (named after @tag), each with its extra devargs (may be empty), with
 * the link up on both ends.
 */
struct pair {
	char inst[48];
	int back;
	int front;
	/* pair_open_keyed(): the toolstack's view of xenstore (domain 0). */
	struct xa_handle *toolstack;
};
bool pair_open(struct pair *pr, const char *tag, const char *back_args,
	       const char *front_args, struct rte_mempool *mp);
/* The same with @nb_queues queue pairs, both ports configured with @conf. */
bool pair_open_conf(struct pair *pr, const char *tag, const char *back_args,
		    const char *front_args, uint16_t nb_queues,
		    const struct rte_eth_conf *conf, struct rte_mempool *mp);
/*
 * The same with @nb_queues queue pairs, the toolstack having set the key
 * @key to @value (removed it, @value NULL) after the netback's probe wrote
 * the vif's keys and before the netfront's: what "xl" would have written
 * for a test. pr->toolstack stays open for the test to write more.
 */
bool pair_open_keyed(struct pair *pr, const char *tag, uint16_t nb_queues,
		     const char *key, const char *value,
		     struct rte_mempool *mp);
void pair_close(struct pair *pr);

/*
 * A guest's lifetime as the toolstack and its netfront make it, in the
 * instance of pair_sim_instance(): "xl create" names domain @domid @name
 * and plugs its vif 0 (served by domain 0); "xl destroy" (after its
 * netfront closed) removes both. pair_guest_frontend() starts the
 * guest's netfront (net_xen_netfront0).
 */
bool pair_guest_create(domid_t domid, const char *name);
bool pair_guest_destroy(domid_t domid);
int pair_guest_frontend(domid_t domid, struct rte_mempool *mp);
/*
 * Both links up within 10 s, then @n packets numbered from *@seq each way
 * between @back and @front, all intact (*@seq moves on).
 */
bool pair_traffic_both_ways(uint16_t back, uint16_t front,
			    struct rte_mempool *mp, uint64_t *seq, uint64_t n);

/* A one-segment packet holding a copy of @len bytes at @data. */
struct rte_mbuf *pair_frame(struct rte_mempool *mp, const void *data,
			    uint16_t len);

/*
 * Mixed traffic: frame @seq is of kind pair_mixed_kind(@seq), in runs of
 * 1-12 frames of one kind drawn at random (mixed_frames.h), MF_LEN bytes
 * with @seq in its last 8 bytes.
 */
enum mf_kind pair_mixed_kind(uint64_t seq);
/* Frames [@first, @first + @n) into @pkts; false if the pool ran dry. */
bool pair_mixed_frames(struct rte_mempool *mp, uint64_t first, unsigned int n,
		       struct rte_mbuf **pkts);

/*
 * Notifications a queue decided on: sent plus suppressed (one per publish
 * of its ring index), and sent alone. @q is "rx_q0" or "tx_q0".
 */
uint64_t pair_doorbells(uint16_t port, const char *q);
uint64_t pair_notified(uint16_t port, const char *q);

#endif /* VDEV_PAIR_H */
