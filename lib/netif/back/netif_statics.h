/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Static grants, the backend's side (netif.h, XEN_NETIF_CTRL_TYPE_*_GREF_
 * MAPPING): a frontend names grants on its control ring and the backend
 * keeps them mapped, so that requests naming them are served with a plain
 * memory copy instead of a grant copy, with no hypercall per packet. Linux
 * netback never implemented it (it answers NOT_SUPPORTED); both our PMDs
 * do.
 *
 * Each ADD is mapped in one call per access mode and kept as a batch; the
 * data path looks grants up in an immutable table (netif_gref_map.h) that
 * every change replaces. The old table is freed, and a batch whose every
 * grant was deleted is unmapped, only after the caller's quiesce hook says
 * no burst of the queue pair can still be reading them. Everything read
 * from the frontend (the request, its grant list) is copied once into our
 * memory and validated there. A grant whose page is lent to the
 * application (netif_lend.h) is not deleted, and a batch is not unmapped
 * while any of its pages is lent. Control thread only.
 *
 * What the limits bound is what is mapped, not the entries: a batch stays
 * mapped while one of its grants is live or one of its pages lent, so a
 * frontend that adds and deletes in a pattern keeps pages mapped that are
 * no longer in the table. Each queue pair counts the pages of its batches
 * from map to real unmap (lent and parked ones included) and an ADD that
 * would map past the queue pair's, the vif's or the process's limit is
 * refused whole, as netif.h answers a failed ADD (INVALID_PARAMETER, no
 * grant added). Dom0's maptrack table is shared by every backend of Dom0
 * (blkback, the kernel's netback, each of our ports), so one guest must
 * not exhaust it. An entry deleted while its batch stays mapped is taken
 * again from that mapping when the frontend adds it back with the same
 * access, without a new map.
 */

#ifndef NETIF_STATICS_H
#define NETIF_STATICS_H

#include <stdbool.h>
#include <stdint.h>

#include <xen/xen.h>
#include <xen/io/netif.h>

#include "netif_gref_map.h"
#include "xa.h"

/* Queue pairs of one vif (XENBUS_VIF_MAX_QUEUES). */
#define NETIF_STATICS_MAX_QUEUES 8
/*
 * Pages one queue pair may keep mapped (GET_GREF_MAPPING_SIZE): twice what
 * our netfront asks for a pair (its 256 TX pages and the 512 of its zero
 * copy pool, or its 256 RX pages) rounded up, so that a frontend can add
 * new buffers before it deletes the old ones.
 */
#define NETIF_STATICS_PER_QUEUE 1024u
/*
 * Pages one vif may keep mapped, by default: every queue pair it may have
 * full, so that the default refuses no frontend that keeps to the size it
 * was told; a lower value shares a host among more vifs.
 */
#define NETIF_STATICS_PER_VIF_DEFAULT \
	(NETIF_STATICS_PER_QUEUE * NETIF_STATICS_MAX_QUEUES)
/*
 * Pages the whole process may keep mapped, by default: a quarter of what
 * Dom0's maptrack table holds with Xen's default gnttab_max_maptrack_frames
 * (1024 frames of 256 handles: 262144 mappings), for every backend of Dom0
 * together; 8 vifs with 8 full queue pairs, or 85 of our single-queue
 * netfronts. The rest is left to blkback, the kernel's netback and the
 * grant maps of the rings.
 */
#define NETIF_STATICS_PER_PROCESS_DEFAULT (262144u / 4)
/* The most either ceiling may be set to: Dom0's maptrack at 16 times its default. */
#define NETIF_STATICS_CEILING_MAX (16u * 262144u)
/* Entries one ADD or DEL may list: one page of struct xen_netif_gref. */
#define NETIF_STATICS_LIST_MAX \
	((uint32_t)(XA_PAGE_SIZE / sizeof(struct xen_netif_gref)))

struct netif_statics_batch;
struct netif_lend;

/* One queue pair's static grants. */
struct netif_statics_queue {
	/* Published with release order: what the queue pair's bursts read. */
	struct netif_gref_map *map;
	struct netif_statics_batch *batches;
	/* What lends the pages to the application (may be NULL). */
	const struct netif_lend *lend;
	/* Batches gone from the table, unmapped once no longer lent. */
	struct netif_statics_batch *lent;
	/* Entries in the table now. */
	uint64_t grants;
	/* Pages mapped now: batches kept for a live entry, lent ones too. */
	uint64_t pages;
	uint64_t maps;			/* map calls */
	uint64_t unmaps;		/* unmap calls */
	/* ADDs refused by a limit on pages. */
	uint64_t over_limit;
};

/* How many pages may stay mapped, each limit on its own. */
struct netif_statics_limits {
	/* Per queue pair; the vif's queue pairs; every vif of the process. */
	uint32_t queue;
	uint32_t vif;
	uint32_t process;
};

struct netif_statics_stats {
	uint64_t requests;		/* static grant requests answered */
	uint64_t refused;		/* of which not SUCCESS */
	uint64_t in_use;		/* DELs that named a lent page */
};

struct netif_statics {
	struct xa_handle *xa;
	domid_t frontend;
	unsigned int nb_queues;
	/* Return once no burst of queue pair @q can read its old table. */
	void (*quiesce)(void *opaque, unsigned int q);
	void *opaque;
	struct netif_statics_limits limits;
	struct netif_statics_queue *q[NETIF_STATICS_MAX_QUEUES];
	struct netif_statics_stats stats;
};

/* The limits by default: NETIF_STATICS_PER_{QUEUE,VIF,PROCESS}_DEFAULT. */
void netif_statics_limits_default(struct netif_statics_limits *lim);

/*
 * Serve @nb_queues queue pairs of frontend @frontend through @xa, each
 * queue's state in @queues[i] (empty, or pages still lent from an earlier
 * connection, which count), mapping no more than @lim allows.
 */
void netif_statics_connect(struct netif_statics *s, struct xa_handle *xa,
			   domid_t frontend, unsigned int nb_queues,
			   struct netif_statics_queue *const *queues,
			   const struct netif_statics_limits *lim);

/* Pages every vif of the process keeps mapped now. */
uint64_t netif_statics_process_pages(void);

/*
 * Answer @req if it is a static grant request (GET_GREF_MAPPING_SIZE,
 * ADD_GREF_MAPPING, DEL_GREF_MAPPING): fills @rsp's status and data and
 * returns true. Any other type is not ours: returns false.
 */
bool netif_statics_serve(struct netif_statics *s,
			 const struct xen_netif_ctrl_request *req,
			 struct xen_netif_ctrl_response *rsp);

/*
 * Unmap and forget every static grant; no burst may be running (the
 * port's gate is closed). Pages the application still holds stay mapped
 * until netif_statics_reap() finds them given back.
 */
void netif_statics_release(struct netif_statics *s);

/*
 * Unmap the batches that waited for the application to give their pages
 * back and now may go; returns how many still wait.
 */
unsigned int netif_statics_reap(struct netif_statics *s);

#endif /* NETIF_STATICS_H */
