/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Xen access: the one interface through which both PMDs reach the
 * hypervisor. It covers grant tables (map, unmap, batched copy), grant
 * sharing (what a frontend offers its backend), event channels and
 * xenstore, with the semantics of Xen's own libraries (libxengnttab,
 * libxengntshr, libxenevtchn, libxenstore), whose types it reuses.
 *
 * Two providers implement it: real Xen (xa_xen.c) and a simulated
 * hypervisor in shared memory (sim/), chosen per handle at open time.
 * A handle is one domain's view: the domain it acts as, plus its
 * connections to each service. Functions report failure like the Xen
 * libraries do: NULL or -1 with errno set, and per-segment GNTST_* status
 * for grant copies.
 *
 * Thread safety: xa_gnt_copy() and xa_evtchn_notify() may be called from a
 * data-plane lcore while the control thread uses the other functions of the
 * same handle (of the same endpoint, for event channels: see below);
 * everything else belongs to one thread at a time.
 */

#ifndef XA_H
#define XA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xen/xen.h>
#include <xen/grant_table.h>
#include <xen/event_channel.h>
#include <xengnttab.h>
#include <xenstore.h>

#define XA_PAGE_SIZE 4096u

enum xa_provider {
	XA_PROVIDER_XEN,	/* libxengnttab/-gntshr/-evtchn/-store */
	XA_PROVIDER_SIM,	/* simulated hypervisor in shared memory */
};

struct xa_open_args {
	enum xa_provider provider;
	/* Simulator only: the instance (shared memory segment) to join. */
	const char *sim_instance;
	/* Simulator only: the domain this handle acts as (0 is privileged). */
	domid_t sim_domid;
	/*
	 * Simulator only: play the toolstack's part ("xl create" with a vif,
	 * see xsim_vif_plug()) for vif @sim_vif_handle of domain
	 * @sim_vif_frontend, served by domain @sim_domid as its backend,
	 * unless the vif is there already: a vif in use is left as it is.
	 * Its MAC is the simulator's choice, 00:16:3e:FF:HH:hh from the low
	 * byte of the frontend's domid and the two bytes of the handle. The
	 * plug happens once the handle is open; if it fails, so does
	 * xa_open(), releasing the handle. There is no xl in the simulator;
	 * on Xen the toolstack does this, and xa_open() refuses the option
	 * with EINVAL.
	 */
	bool sim_plug_vif;
	domid_t sim_vif_frontend;
	uint16_t sim_vif_handle;
};

struct xa_handle;

/* Name of a provider as used in devargs ("xen", "sim"). */
const char *xa_provider_name(enum xa_provider provider);
/* Parse "xen" or "sim"; -1 if neither. */
int xa_provider_parse(const char *name, enum xa_provider *provider);
/*
 * The provider a port gets unless it names one (xa_detect.c): real Xen
 * wherever something says this is a Xen domain (/sys/hypervisor/type
 * reads "xen", /proc/xen or /dev/xen exists), the simulator only where
 * nothing does. Whether real Xen can work here is xa_provider_choose()'s.
 */
enum xa_provider xa_provider_default(void);

/*
 * What the caller does on real Xen, which decides the devices it opens
 * besides event channels and xenstore: a backend maps and copies its
 * guest's grants (gntdev), a frontend shares its own pages (gntalloc).
 */
enum xa_role {
	XA_ROLE_BACKEND,
	XA_ROLE_FRONTEND,
};

/* Room for xa_provider_choose()'s explanation, with its terminating NUL. */
#define XA_PROVIDER_WHY_MAX 512

/*
 * The provider for a port: *@asked if the port names one, else
 * xa_provider_default(). Real Xen, asked for or not, must have every
 * device @role opens, or the port would fail on first use; the simulator
 * is never put in its place, since in a Xen domain it would carry nothing.
 * 0 with *@provider set and @why saying why (for the log), or -ENODEV
 * with @why naming each missing device and the module that provides it.
 * Every path it reads is taken below $XA_SYSROOT when that is set (tests
 * fake a machine's /sys, /proc, /dev and /var/run with it).
 */
int xa_provider_choose(const enum xa_provider *asked, enum xa_role role,
		       enum xa_provider *provider, char *why, size_t size);

/*
 * A simulator instance names a file in /dev/shm, so it is a plain name:
 * 1 to XA_SIM_INSTANCE_MAX letters, digits, '-' or '_'.
 */
#define XA_SIM_INSTANCE_MAX 63
bool xa_sim_instance_valid(const char *name);

struct xa_handle *xa_open(const struct xa_open_args *args);
void xa_close(struct xa_handle *h);
/* The domain this handle acts as. */
domid_t xa_domid(const struct xa_handle *h);

/*
 * Grant tables, as a backend uses them. Map @count grants of @domid into
 * one contiguous range; @writable selects PROT_READ|PROT_WRITE.
 */
void *xa_gnt_map(struct xa_handle *h, domid_t domid, uint32_t count,
		 const grant_ref_t *refs, bool writable);
int xa_gnt_unmap(struct xa_handle *h, void *addr, uint32_t count);
/*
 * End a mapping of xa_gnt_map() and leave in its place, at the same
 * address, a private read-only copy of its pages as they are: the grants
 * are released (the granting domain may reuse or end them) while a reader
 * of the range on another thread goes on reading the same bytes, never a
 * hole, since the copy replaces the mapping in one step. The range is then
 * the caller's own memory, freed with munmap() (not xa_gnt_unmap()). On
 * failure the mapping is left as it was. How a backend lets go of a
 * guest's pages that the application holds too long (netif_lend.h).
 */
int xa_gnt_detach(struct xa_handle *h, void *addr, uint32_t count);
/*
 * Batched grant copy. Returns 0 when the batch was submitted; each
 * segment's status must still be checked (GNTST_okay or a GNTST_* error).
 */
int xa_gnt_copy(struct xa_handle *h, uint32_t count,
		xengnttab_grant_copy_segment_t *segs);

/*
 * Grant sharing, as a frontend uses it: @count new zeroed pages granted to
 * @domid, mapped contiguously here; their references are written to @refs.
 */
void *xa_gnt_share(struct xa_handle *h, domid_t domid, uint32_t count,
		   grant_ref_t *refs, bool writable);
/*
 * As xa_gnt_share(), with the pages on NUMA node @node: the kernel's
 * gntalloc allocates them under the calling thread's memory policy, so the
 * share runs with @node preferred (set_mempolicy() through libnuma) and the
 * thread's own policy is restored after. XA_NODE_ANY, or a kernel without
 * NUMA, leaves the placement to the kernel; a node this process may not use
 * fails with EINVAL.
 */
#define XA_NODE_ANY (-1)
void *xa_gnt_share_on_node(struct xa_handle *h, domid_t domid, uint32_t count,
			   grant_ref_t *refs, bool writable, int node);
int xa_gnt_unshare(struct xa_handle *h, void *addr, uint32_t count);

/*
 * The grant budget of the domain this handle acts as: how many pages it may
 * share at once (@limit: Linux gntalloc's `limit` module parameter, one
 * count for the whole DomU, 1024 unless its administrator changed it) and
 * how many are shared now (@used: on Xen only this process's, since
 * gntalloc does not tell). xa_gnt_share() past the limit fails with ENOSPC.
 */
#define XA_GNT_SHARE_LIMIT_DEFAULT 1024u
int xa_gnt_share_limit(struct xa_handle *h, uint32_t *limit, uint32_t *used);
/*
 * Change the limit, as root in the DomU may; -1 with EACCES or EPERM when
 * this process is not allowed to.
 */
int xa_gnt_share_set_limit(struct xa_handle *h, uint32_t limit);

/*
 * Event channels. Events arrive on xa_evtchn_fd() already masked, as with
 * libxenevtchn: read them with xa_evtchn_pending() (-1 and EAGAIN when
 * none is pending) and unmask each after handling it.
 *
 * They are reached through endpoints, each the analogue of one open of
 * /dev/xen/evtchn: a port bound through an endpoint delivers its events to
 * that endpoint's fd only, and only that endpoint may notify, unmask or
 * unbind it (through any other, these fail with EINVAL). One fd per queue
 * is what lets each queue sleep on its own channels (DPDK Rx interrupt
 * mode) without waking the others. Thread safety is as above, per
 * endpoint: xa_evtchn_notify() may run on a data-plane lcore while another
 * thread uses the endpoint's other functions; otherwise one thread at a
 * time per endpoint. Different endpoints of a handle are independent of
 * each other and of the handle's other services.
 */
struct xa_evtchn;

/* The endpoint every handle has (opened with it, closed with it). */
struct xa_evtchn *xa_evtchn(struct xa_handle *h);
/*
 * A further endpoint of @h's domain with its own fd (real Xen: one more
 * xenevtchn_open()); NULL with errno set. Close it before @h.
 */
struct xa_evtchn *xa_evtchn_open(struct xa_handle *h);
/*
 * Close an endpoint from xa_evtchn_open(): the ports still bound through
 * it are unbound (an interdomain peer goes back to unbound, as in Xen).
 * NULL is a no-op.
 */
void xa_evtchn_close(struct xa_evtchn *e);
int xa_evtchn_fd(struct xa_evtchn *e);
evtchn_port_t xa_evtchn_bind_unbound(struct xa_evtchn *e, domid_t remote);
evtchn_port_t xa_evtchn_bind_interdomain(struct xa_evtchn *e, domid_t remote,
					 evtchn_port_t remote_port);
int xa_evtchn_unbind(struct xa_evtchn *e, evtchn_port_t port);
int xa_evtchn_notify(struct xa_evtchn *e, evtchn_port_t port);
int xa_evtchn_pending(struct xa_evtchn *e);
int xa_evtchn_unmask(struct xa_evtchn *e, evtchn_port_t port);

/*
 * Xenstore, with libxenstore's semantics. Returned strings and arrays are
 * malloc()ed and freed by the caller. xa_xs_check_watch() never blocks: it
 * returns NULL with errno EAGAIN when no event is queued; otherwise a
 * vector indexed by XS_WATCH_PATH and XS_WATCH_TOKEN. Registering a watch
 * queues one event for it at once, as xenstored does.
 */
int xa_xs_fileno(struct xa_handle *h);
void *xa_xs_read(struct xa_handle *h, xs_transaction_t t, const char *path,
		 unsigned int *len);
bool xa_xs_write(struct xa_handle *h, xs_transaction_t t, const char *path,
		 const void *data, unsigned int len);
bool xa_xs_rm(struct xa_handle *h, xs_transaction_t t, const char *path);
char **xa_xs_directory(struct xa_handle *h, xs_transaction_t t,
		       const char *path, unsigned int *num);
bool xa_xs_set_permissions(struct xa_handle *h, xs_transaction_t t,
			   const char *path, struct xs_permissions *perms,
			   unsigned int num);
bool xa_xs_watch(struct xa_handle *h, const char *path, const char *token);
bool xa_xs_unwatch(struct xa_handle *h, const char *path, const char *token);
char **xa_xs_check_watch(struct xa_handle *h);
xs_transaction_t xa_xs_transaction_start(struct xa_handle *h);
/* false with errno EAGAIN when the transaction must be retried. */
bool xa_xs_transaction_end(struct xa_handle *h, xs_transaction_t t,
			   bool abort);

/* Convenience: printf-style path, string value. */
bool xa_xs_printf(struct xa_handle *h, xs_transaction_t t, const char *path,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Read an unsigned integer; false (errno set) if absent or malformed. */
bool xa_xs_read_uint(struct xa_handle *h, xs_transaction_t t,
		     const char *path, unsigned long *val);

#endif /* XA_H */
