/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * What a provider of the Xen access interface implements. xa.c dispatches
 * every xa_* call through the ops table of the handle or event channel
 * endpoint; a provider embeds struct xa_handle at the start of its own
 * handle structure, and struct xa_evtchn at the start of its endpoint's.
 */

#ifndef XA_PROVIDER_H
#define XA_PROVIDER_H

#include "xa.h"

/*
 * A NUMA node mask as get_mempolicy(), set_mempolicy() and mbind() take
 * it: room for 1024 nodes (a kernel's NODES_SHIFT of 10), passed with a
 * maxnode of XA_NODE_BITS + 1 as libnuma does.
 */
#define XA_NODE_BITS 1024
#define XA_NODE_LONG_BITS (8 * sizeof(unsigned long))
#define XA_NODE_LONGS (XA_NODE_BITS / XA_NODE_LONG_BITS)

struct xa_ops {
	void (*close)(struct xa_handle *h);

	void *(*gnt_map)(struct xa_handle *h, domid_t domid, uint32_t count,
			 const grant_ref_t *refs, bool writable);
	int (*gnt_unmap)(struct xa_handle *h, void *addr, uint32_t count);
	/* Called with a range the handle mapped: the provider checks that. */
	int (*gnt_detach)(struct xa_handle *h, void *addr, uint32_t count);
	int (*gnt_copy)(struct xa_handle *h, uint32_t count,
			xengnttab_grant_copy_segment_t *segs);
	void *(*gnt_share)(struct xa_handle *h, domid_t domid, uint32_t count,
			   grant_ref_t *refs, bool writable);
	int (*gnt_unshare)(struct xa_handle *h, void *addr, uint32_t count);
	int (*gnt_share_limit)(struct xa_handle *h, uint32_t *limit,
			       uint32_t *used);
	int (*gnt_share_set_limit)(struct xa_handle *h, uint32_t limit);

	/* A further endpoint of @h's domain, and closing it. */
	struct xa_evtchn *(*evtchn_open)(struct xa_handle *h);
	void (*evtchn_close)(struct xa_evtchn *e);
	int (*evtchn_fd)(struct xa_evtchn *e);
	evtchn_port_t (*evtchn_bind_unbound)(struct xa_evtchn *e,
					     domid_t remote);
	evtchn_port_t (*evtchn_bind_interdomain)(struct xa_evtchn *e,
						 domid_t remote,
						 evtchn_port_t remote_port);
	int (*evtchn_unbind)(struct xa_evtchn *e, evtchn_port_t port);
	int (*evtchn_notify)(struct xa_evtchn *e, evtchn_port_t port);
	int (*evtchn_pending)(struct xa_evtchn *e);
	int (*evtchn_unmask)(struct xa_evtchn *e, evtchn_port_t port);

	int (*xs_fileno)(struct xa_handle *h);
	void *(*xs_read)(struct xa_handle *h, xs_transaction_t t,
			 const char *path, unsigned int *len);
	bool (*xs_write)(struct xa_handle *h, xs_transaction_t t,
			 const char *path, const void *data, unsigned int len);
	bool (*xs_rm)(struct xa_handle *h, xs_transaction_t t, const char *path);
	char **(*xs_directory)(struct xa_handle *h, xs_transaction_t t,
			       const char *path, unsigned int *num);
	bool (*xs_set_permissions)(struct xa_handle *h, xs_transaction_t t,
				   const char *path,
				   struct xs_permissions *perms,
				   unsigned int num);
	bool (*xs_watch)(struct xa_handle *h, const char *path,
			 const char *token);
	bool (*xs_unwatch)(struct xa_handle *h, const char *path,
			   const char *token);
	char **(*xs_check_watch)(struct xa_handle *h);
	xs_transaction_t (*xs_transaction_start)(struct xa_handle *h);
	bool (*xs_transaction_end)(struct xa_handle *h, xs_transaction_t t,
				   bool abort);
};

/*
 * An event channel endpoint: one connection to the event channel service
 * with its own fd, in the domain @domid of the handle it was opened from.
 */
struct xa_evtchn {
	const struct xa_ops *ops;
	domid_t domid;
};

struct xa_handle {
	const struct xa_ops *ops;
	domid_t domid;
	/*
	 * The handle's own endpoint, which the provider embeds in its handle
	 * structure, opens with the handle and closes with it.
	 */
	struct xa_evtchn *evtchn;
};

/*
 * xa_gnt_detach()'s step common to providers: put a private read-only copy
 * of the @count pages at @addr in their place. 0, or -1 (errno) with the
 * range untouched.
 */
int xa_replace_with_copy(void *addr, uint32_t count);

/* Provider constructors; NULL with errno set on failure. */
struct xa_handle *xa_xen_open(const struct xa_open_args *args);
struct xa_handle *xa_sim_open(const struct xa_open_args *args);

#endif /* XA_PROVIDER_H */
