/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Layer 1 of the simulated hypervisor, the segment: its shared-memory
 * layout and the calls every layer above uses to reach it. One instance is
 * one segment: a control area (header, robust mutex, handle slots, domains
 * with their grant tables and event channel ports, page pool bookkeeping,
 * grant mappings, xenstore nodes and watches) followed, page aligned, by the
 * pool of pages that domains share. Every process maps the whole segment
 * once per instance; that mapping is the hypervisor's view, used for grant
 * copies. Everything but the data path calls (grant copy, event notify,
 * pending and unmask) runs under the mutex.
 *
 * The layers, each calling only the ones below it, so that a service can be
 * read and tested without the lifecycle that drives it:
 *   1 segment   xsim_shm.c      attach, lock, send (this header)
 *   2 services  xsim_gnttab.c, xsim_evtchn.c, xsim_xenstore.c
 *   3 domains   xsim_domain.c   instance boot, domain registration, reaping
 *   4 toolstack xsim_toolstack.c  what xl does (xsim.h)
 *   5 provider  xsim_provider.c xa_sim_open() and the xa_ops table
 * A file includes the headers of its own layer and below only, so a call
 * upwards does not compile.
 */

#ifndef XSIM_SHM_H
#define XSIM_SHM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <xenstore_lib.h>

#include "xa_provider.h"

#define XSIM_MAGIC		0x7873696d2d736861ull	/* "xsim-sha" */
#define XSIM_VERSION		5u
#define XSIM_NAME_MAX		64

#define XSIM_MAX_DOMAINS	64
#define XSIM_MAX_HANDLES	512
#define XSIM_POOL_PAGES		32768
#define XSIM_GRANT_ENTRIES	8192
#define XSIM_MAX_MAPS		XSIM_POOL_PAGES
#define XSIM_PORTS		1024

#define XSIM_XS_NODES		4096
#define XSIM_XS_WATCHES		256
#define XSIM_XS_PATH_MAX	255
#define XSIM_XS_VALUE_MAX	1023
#define XSIM_XS_TOKEN_MAX	127
#define XSIM_XS_PERMS_MAX	8
#define XSIM_XS_EVENTS		128

/*
 * The owner of a resource: a handle slot index plus one, 0 for none. An
 * event channel endpoint opened besides a handle's own takes a slot too.
 */
typedef uint16_t xsim_owner_t;

enum xsim_port_state {
	XSIM_PORT_FREE,
	XSIM_PORT_UNBOUND,	/* waiting for remote_dom to bind to it */
	XSIM_PORT_INTERDOMAIN,	/* connected to remote_dom:remote_port */
};

/*
 * An event channel port. state, pending, masked and queued are only touched
 * with atomics because notify and unmask run lock-free; the remote fields
 * are written before state is released and read after state is acquired.
 */
struct xsim_port {
	uint32_t state;
	xsim_owner_t owner;
	uint16_t remote_dom;
	uint32_t remote_port;
	uint32_t pending;
	uint32_t masked;
	/* Delivered to the owner and not yet returned by pending(). */
	uint32_t queued;
	/* Its peer notifies without end: pending again at each unmask. */
	uint32_t storm;
};

/* A grant entry, loaded and stored as one 64-bit word. */
union xsim_grant {
	struct grant_entry_v1 e;
	uint64_t raw;
};

struct xsim_domain {
	uint32_t exists;
	/*
	 * Grant copies in flight against this domain's grant table, counted
	 * in one of two counters selected by copy_epoch: unshare flips the
	 * epoch and waits for the old counter to drain, so a stream of copies
	 * cannot starve it (the role GTF_reading/GTF_writing play in Xen).
	 */
	uint32_t copy_epoch __attribute__((aligned(64)));
	uint32_t copy_inflight[2];
	union xsim_grant gnt[XSIM_GRANT_ENTRIES] __attribute__((aligned(64)));
	uint32_t gnt_hint;
	/*
	 * The domain's gntalloc `limit` (0: XA_GNT_SHARE_LIMIT_DEFAULT), and
	 * whether its processes may not change it (not root in the DomU).
	 */
	uint32_t gntalloc_limit;
	uint32_t gntalloc_fixed;
	struct xsim_port ports[XSIM_PORTS];
};

enum xsim_page_state {
	XSIM_PAGE_FREE,
	XSIM_PAGE_SHARED,	/* granted by owner_dom through ref */
	XSIM_PAGE_ORPHANED,	/* unshared but still mapped: freed at last unmap */
};

struct xsim_page {
	uint16_t state;
	uint16_t owner_dom;
	xsim_owner_t owner;
	uint16_t pad;
	uint32_t ref;
	uint32_t maps;
};

/* One foreign page mapped by one handle; owner 0 means a free entry. */
struct xsim_map {
	xsim_owner_t owner;
	uint16_t dom;		/* the mapping domain */
	uint32_t page;
};

struct xsim_xs_event {
	char path[XSIM_XS_PATH_MAX + 1];
	char token[XSIM_XS_TOKEN_MAX + 1];
};

/*
 * A handle (one xa_open) or a further event channel endpoint of one (one
 * xa_evtchn_open, which uses only the ev_ fields) as the other processes
 * see it.
 */
struct xsim_slot {
	int32_t pid;		/* 0: free */
	uint16_t domid;
	uint16_t pad;
	/* Set when an event datagram could not be queued: scan the ports. */
	uint32_t ev_overflow;
	struct sockaddr_un ev_addr;
	socklen_t ev_addrlen;
	struct sockaddr_un xs_addr;
	socklen_t xs_addrlen;
	/* Watch events waiting for xs_check_watch(), under the mutex. */
	uint32_t xs_head;
	uint32_t xs_count;
	struct xsim_xs_event xs_events[XSIM_XS_EVENTS];
};

struct xsim_xs_node {
	uint16_t in_use;
	uint16_t nperms;
	uint32_t len;
	/* Of the path, so that lookups compare a string only when they match. */
	uint32_t path_hash;
	uint32_t path_len;
	char path[XSIM_XS_PATH_MAX + 1];
	struct xs_permissions perms[XSIM_XS_PERMS_MAX];
	uint8_t value[XSIM_XS_VALUE_MAX + 1];
};

struct xsim_xs_watch {
	xsim_owner_t owner;	/* 0: free */
	uint16_t domid;
	/* Length of the "/local/domain/<id>/" prefix a relative watch hides. */
	uint16_t rel_len;
	char path[XSIM_XS_PATH_MAX + 1];	/* absolute, or "@..." */
	char token[XSIM_XS_TOKEN_MAX + 1];
};

struct xsim_shared {
	uint64_t magic;		/* stored last by the creator */
	uint32_t version;
	uint32_t layout_size;	/* sizeof(struct xsim_shared) of the creator */
	uint64_t size;
	uint64_t pool_offset;
	pthread_mutex_t lock;
	uint32_t next_handle_id;
	uint32_t page_hint;
	uint32_t map_hint;
	uint64_t xs_generation;
	/*
	 * Every node in use is below this index, so that the xenstore scans
	 * stop there instead of walking all XSIM_XS_NODES (5 MiB) each call.
	 */
	uint32_t xs_nodes_top;
	uint32_t xs_watches_top;	/* the same for the watches */
	struct xsim_slot slots[XSIM_MAX_HANDLES];
	struct xsim_domain domains[XSIM_MAX_DOMAINS];
	struct xsim_page pages[XSIM_POOL_PAGES];
	struct xsim_map maps[XSIM_MAX_MAPS];
	struct xsim_xs_watch watches[XSIM_XS_WATCHES];
	struct xsim_xs_node nodes[XSIM_XS_NODES];
};

/* A process's attachment to one instance, shared by its handles. */
struct xsim_attach {
	struct xsim_attach *next;
	char name[XSIM_NAME_MAX + 1];
	bool unlinked;		/* destroyed: new opens must not find it */
	unsigned int refs;
	int fd;
	struct xsim_shared *sh;
};

struct xsim_local_map;
struct xsim_local_share;
struct xsim_tx;

/*
 * An event channel endpoint of this process: the handle slot @owner whose
 * ports it holds, and the socket bound to that slot's ev_addr, on which
 * they are delivered. The provider (layer 5) makes it, a handle's own with
 * the handle; the event channel service (layer 2) works on it alone.
 */
struct xsim_evtchn {
	struct xa_evtchn base;
	struct xsim_attach *at;
	xsim_owner_t owner;
	int fd;
};

/*
 * One xa_open() of this process. The provider (layer 5) makes it; the
 * services keep their process-local state in it (mappings and shares of
 * the grant tables, open xenstore transactions), so it is defined here,
 * where all of them see it.
 */
struct xsim_handle {
	struct xa_handle base;
	struct xsim_attach *at;
	xsim_owner_t owner;
	struct xsim_evtchn ev;	/* the handle's own endpoint, same slot */
	int xs_fd;
	struct xsim_local_map *maps;
	struct xsim_local_share *shares;
	struct xsim_tx *txs;
	uint32_t next_tx;
};

static inline struct xsim_handle *
xsim_handle(struct xa_handle *h)
{
	return (struct xsim_handle *)h;
}

static inline struct xsim_evtchn *
xsim_evtchn(struct xa_evtchn *e)
{
	return (struct xsim_evtchn *)e;
}

static inline struct xsim_slot *
xsim_slot(struct xsim_shared *sh, xsim_owner_t owner)
{
	return &sh->slots[owner - 1];
}

static inline uint8_t *
xsim_page_addr(struct xsim_shared *sh, uint32_t page)
{
	return (uint8_t *)sh + sh->pool_offset + (uint64_t)page * XA_PAGE_SIZE;
}

/*
 * Whether @domid exists. The flag lives in the domain table, which the
 * services check on every call naming a foreign domain; it is set only by
 * domain registration (layer 3), after the domain's xenstore home exists.
 */
static inline bool
xsim_domain_exists(struct xsim_shared *sh, domid_t domid)
{
	return domid < XSIM_MAX_DOMAINS &&
		__atomic_load_n(&sh->domains[domid].exists, __ATOMIC_ACQUIRE);
}

/*
 * Run by the process that creates a segment, on the zeroed control area,
 * before the header is published: no other process sees the segment
 * without what @boot lays out.
 */
typedef void xsim_boot_t(struct xsim_shared *sh);

/*
 * Join @instance (NULL: "default"), creating its segment with @boot if it
 * does not exist. A process attaches each instance once; its handles share
 * that attachment.
 */
struct xsim_attach *xsim_attach(const char *instance, xsim_boot_t *boot);
/* One more reference to an attachment, for xsim_detach() to drop. */
void xsim_attach_hold(struct xsim_attach *at);
void xsim_detach(struct xsim_attach *at);
uint64_t xsim_now_ns(void);
void xsim_lock(struct xsim_shared *sh);
void xsim_unlock(struct xsim_shared *sh);
/* Send one datagram to a handle's socket; a vanished peer is not an error. */
int xsim_send(int fd, const void *buf, size_t len,
	      const struct sockaddr_un *addr, socklen_t addrlen);

#endif /* XSIM_SHM_H */
