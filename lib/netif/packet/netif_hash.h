/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A vif's hash (netif.h, "Hash types", "Hash algorithms" and the hash
 * control messages), the way Windows frontends use it for receive-side
 * scaling: over the control ring the frontend picks the Toeplitz algorithm,
 * the header fields hashed (IPv4, IPv4+TCP, IPv6, IPv6+TCP), a key of up
 * to 40 bytes and a table mapping hash values to its queues; the backend
 * then hashes what it sends the guest and says so in a hash extra.
 * Requests are answered as Linux netback answers them, with XSA-270's
 * bounds on the mapping table: an offset and size that wrap or pass the
 * table, or an entry naming a queue the frontend does not have, change
 * nothing and are refused.
 *
 * The data plane reads a configuration the control thread never changes
 * while it may be read: a change is made in the other of two, published,
 * and the caller waits out the bursts (@quiesce) before the next one.
 */

#ifndef NETIF_HASH_H
#define NETIF_HASH_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "netif_ring.h"
#include "netif_toeplitz.h"
#include "xa.h"

/* Linux netback's XEN_NETBK_MAX_HASH_KEY_SIZE and _MAPPING_SIZE. */
#define NETIF_HASH_KEY_MAX NETIF_TOEPLITZ_KEY_MAX
#define NETIF_HASH_MAPPING_MAX 128

/* The hash types a backend calculates. */
#define NETIF_HASH_TYPES \
	(XEN_NETIF_CTRL_HASH_TYPE_IPV4 | XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP | \
	 XEN_NETIF_CTRL_HASH_TYPE_IPV6 | XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP)

struct netif_hash_config {
	uint32_t alg;			/* XEN_NETIF_CTRL_HASH_ALGORITHM_* */
	uint32_t flags;			/* XEN_NETIF_CTRL_HASH_TYPE_* */
	uint8_t key[NETIF_HASH_KEY_MAX];	/* unset bytes 0 */
	uint32_t size;			/* mapping entries; 0: modulo */
	uint32_t mapping[NETIF_HASH_MAPPING_MAX];
};

/* What a burst reads: a configuration and its key as Toeplitz tables. */
struct netif_hash_live {
	struct netif_hash_config cfg;
	struct netif_toeplitz toeplitz;
};

/* Reads @len bytes from the start of the frontend's grant @ref. */
typedef bool (*netif_hash_read_t)(void *opaque, grant_ref_t ref, void *dst,
				  uint32_t len);

struct netif_hash {
	/* What the data plane reads: one of @live, or NULL when off. */
	const struct netif_hash_live *active;
	struct netif_hash_live live[2];
	unsigned int cur; /* the latest of @live: control thread */
	unsigned int nb_queues;		/* the frontend's */
	netif_hash_read_t read;
	void (*quiesce)(void *opaque);	/* wait out the bursts */
	void *opaque;
};

/*
 * A new connection of @nb_queues queue pairs: no algorithm, no key, no
 * table, nothing published. No burst may run.
 */
void netif_hash_reset(struct netif_hash *h, unsigned int nb_queues);

/*
 * Answer @req if it is a hash request (SET_HASH_ALGORITHM, GET_/
 * SET_HASH_FLAGS, SET_HASH_KEY, GET_/SET_HASH_MAPPING_SIZE,
 * SET_HASH_MAPPING): fills @rsp and returns true. Any other type: false.
 */
bool netif_hash_serve(struct netif_hash *h,
		      const struct xen_netif_ctrl_request *req,
		      struct xen_netif_ctrl_response *rsp);

/*
 * Data plane: the hash of the frame @m under @live: false when none of its
 * types applies to the frame; else its value and type
 * (_XEN_NETIF_CTRL_HASH_TYPE_*), the most specific the flags allow (TCP
 * over the address pair alone). The headers are found as
 * netif_l2_classify() finds them, whatever @m's packet type and lengths
 * say; a frame other than untagged IPv4 without options or IPv6 with TCP
 * or UDP, or whose first segment ends before its ports, is classified
 * (its packet type and lengths set) on the way.
 */
bool netif_hash_frame(const struct netif_hash_live *live, struct rte_mbuf *m,
		      uint32_t *value, uint8_t *type);

/* The frontend's queue for a hash @value under @cfg. */
uint32_t netif_hash_queue(const struct netif_hash_config *cfg,
			  unsigned int nb_queues, uint32_t value);

#endif /* NETIF_HASH_H */
