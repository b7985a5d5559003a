/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The simulated hypervisor's shared-memory layout and the internal API
 * between its files. One instance is one segment: a control area (header,
 * robust mutex, handle slots, domains with their grant tables and event
 * channel ports, page pool bookkeeping, grant mappings, xenstore nodes and
 * watches) followed, page aligned, by the pool of pages that domains share.
 * Every process maps the whole segment once per instance; that mapping is
 * the hypervisor's view, used for grant copies. Everything but the data
 * path calls (grant copy, event notify, pending and unmask) runs under the
 * mutex.
 */

#ifndef XSIM_INTERNAL_H
#define XSIM_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <xenstore_lib.h>

#include "xa_provider.h"
#include "xsim.h"

#define XSIM_MAGIC		0x7873696d2d736861ull	/* "xsim-sha" */
#define XSIM_VERSION		1u
#define XSIM_NAME_MAX		64

#define XSIM_MAX_DOMAINS	64
#define XSIM_MAX_HANDLES	128
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

/* The owner of a resource: a handle slot index plus one, 0 for none. */
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

/* A handle (one xa_open) as the other processes see it. */
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

struct xsim_handle {
	struct xa_handle base;
	struct xsim_attach *at;
	xsim_owner_t owner;
	int ev_fd;
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

/* xsim_shm.c */
struct xsim_attach *xsim_attach(const char *instance);
void xsim_detach(struct xsim_attach *at);
uint64_t xsim_now_ns(void);
void xsim_lock(struct xsim_shared *sh);
void xsim_unlock(struct xsim_shared *sh);
/* Mark @domid existing and give it its xenstore home; under the mutex. */
int xsim_domain_register(struct xsim_attach *at, int send_fd, domid_t domid);
bool xsim_domain_exists(struct xsim_shared *sh, domid_t domid);
/* Release what handles of dead processes still hold; under the mutex. */
void xsim_reap_dead(struct xsim_attach *at);
/* Send one datagram to a handle's socket; a vanished peer is not an error. */
int xsim_send(int fd, const void *buf, size_t len,
	      const struct sockaddr_un *addr, socklen_t addrlen);

/* xsim_gnttab.c: everything a handle slot holds in the grant tables. */
void xsim_gnt_release(struct xsim_attach *at, xsim_owner_t owner);
void xsim_gnt_close(struct xsim_handle *h);
void xsim_gnt_usage(struct xsim_shared *sh, domid_t domid,
		    struct xsim_usage *usage);
void *xsim_gnt_map(struct xa_handle *xh, domid_t domid, uint32_t count,
		   const grant_ref_t *refs, bool writable);
int xsim_gnt_unmap(struct xa_handle *xh, void *addr, uint32_t count);
int xsim_gnt_copy(struct xa_handle *xh, uint32_t count,
		  xengnttab_grant_copy_segment_t *segs);
void *xsim_gnt_share(struct xa_handle *xh, domid_t domid, uint32_t count,
		     grant_ref_t *refs, bool writable);
int xsim_gnt_unshare(struct xa_handle *xh, void *addr, uint32_t count);

/* xsim_evtchn.c */
void xsim_evtchn_release(struct xsim_shared *sh, xsim_owner_t owner);
void xsim_evtchn_usage(struct xsim_shared *sh, domid_t domid,
		       struct xsim_usage *usage);
int xsim_evtchn_fd(struct xa_handle *xh);
evtchn_port_t xsim_evtchn_bind_unbound(struct xa_handle *xh, domid_t remote);
evtchn_port_t xsim_evtchn_bind_interdomain(struct xa_handle *xh,
					   domid_t remote,
					   evtchn_port_t remote_port);
int xsim_evtchn_unbind(struct xa_handle *xh, evtchn_port_t port);
int xsim_evtchn_notify(struct xa_handle *xh, evtchn_port_t port);
int xsim_evtchn_pending(struct xa_handle *xh);
int xsim_evtchn_unmask(struct xa_handle *xh, evtchn_port_t port);

/* xsim_xenstore.c: the locked primitives take absolute paths. */
void xsim_xs_init(struct xsim_shared *sh);
bool xsim_xs_exists(struct xsim_shared *sh, const char *path);
int xsim_xs_write_locked(struct xsim_shared *sh, int send_fd, domid_t caller,
			 const char *path, const void *data, uint32_t len);
int xsim_xs_set_perms_locked(struct xsim_shared *sh, int send_fd,
			     domid_t caller, const char *path,
			     const struct xs_permissions *perms,
			     unsigned int num);
int xsim_xs_rm_locked(struct xsim_shared *sh, int send_fd, domid_t caller,
		      const char *path);
void xsim_xs_release(struct xsim_shared *sh, xsim_owner_t owner);
void xsim_xs_close(struct xsim_handle *h);
void xsim_xs_usage(struct xsim_shared *sh, domid_t domid,
		   struct xsim_usage *usage);
int xsim_xs_fileno(struct xa_handle *xh);
void *xsim_xs_read(struct xa_handle *xh, xs_transaction_t t, const char *path,
		   unsigned int *len);
bool xsim_xs_write(struct xa_handle *xh, xs_transaction_t t, const char *path,
		   const void *data, unsigned int len);
bool xsim_xs_rm(struct xa_handle *xh, xs_transaction_t t, const char *path);
char **xsim_xs_directory(struct xa_handle *xh, xs_transaction_t t,
			 const char *path, unsigned int *num);
bool xsim_xs_set_permissions(struct xa_handle *xh, xs_transaction_t t,
			     const char *path, struct xs_permissions *perms,
			     unsigned int num);
bool xsim_xs_watch(struct xa_handle *xh, const char *path, const char *token);
bool xsim_xs_unwatch(struct xa_handle *xh, const char *path,
		     const char *token);
char **xsim_xs_check_watch(struct xa_handle *xh);
xs_transaction_t xsim_xs_transaction_start(struct xa_handle *xh);
bool xsim_xs_transaction_end(struct xa_handle *xh, xs_transaction_t t,
			     bool abort);

#endif /* XSIM_INTERNAL_H */
