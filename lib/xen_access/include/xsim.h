/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The simulated hypervisor's own API, beside the xa_* interface it
 * provides: what the toolstack (xl/libxl on real Xen) does, and what a test
 * reads to check that nothing was left behind.
 *
 * An instance is a named shared-memory segment (/dev/shm/xsim-<name>) that
 * holds the domains' grant tables, event channels, xenstore and the pages
 * that frontends share. Any process that opens it, through xa_open() or the
 * functions below, sees the same hypervisor state. It is created by the
 * first opener and lives until xsim_instance_destroy().
 */

#ifndef XSIM_H
#define XSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xen/xen.h>
#include <xen/event_channel.h>

/* Remove the instance's shared memory (handles already open keep it). */
int xsim_instance_destroy(const char *instance);

/*
 * Name an instance private to this process: "<prefix>-<pid>-<ns>", the
 * pid and the monotonic clock's nanoseconds, into @buf of @size bytes.
 * Of the pid alone, the name would be a dead process's whose pid this one
 * has now, and its instance may still be there (a process killed before
 * xsim_instance_destroy()): the first open would find that store, its
 * guests and vifs, not an empty one. Returns 0, or -1 with errno
 * ENAMETOOLONG (@buf too small) or EINVAL (not a valid instance name)
 * and @buf empty.
 */
int xsim_instance_name_private(char *buf, size_t size, const char *prefix);

/*
 * The toolstack's part of "xl create" with a vif, as libxl does it: the
 * frontend domain exists, /local/domain/<frontend>/device/vif/<handle>/ and
 * /local/domain/<backend>/backend/vif/<frontend>/<handle>/ hold the keys of
 * a fresh vif (state 1, mac, handle, frontend/backend links, mtu, online)
 * with the permissions libxl gives them (each end owns its directory, the
 * other end may read it), and the domain is named "xsim-guest-<frontend>"
 * unless it has a name. Does nothing if the vif is already there; if it
 * fails halfway (ENOSPC: xenstore is full), it removes the vif's
 * directories again. @mac: "xx:xx:xx:xx:xx:xx". Returns 0 or -1 with errno
 * set.
 */
int xsim_vif_plug(const char *instance, domid_t backend, domid_t frontend,
		  unsigned int handle, const char *mac);
/* "xl network-detach": remove both directories. */
int xsim_vif_unplug(const char *instance, domid_t backend, domid_t frontend,
		    unsigned int handle);

/*
 * The toolstack names a domain (/local/domain/<domid>/name, readable by
 * dom0), or with @name NULL removes the name, as the domain goes away.
 */
int xsim_domain_name(const char *instance, domid_t domid, const char *name);

/*
 * The administrator of DomU @domid loads xen_gntalloc with limit=@limit and
 * keeps its processes from changing it: xa_gnt_share_set_limit() on that
 * domain then fails with EACCES. Without this call every domain's limit is
 * XA_GNT_SHARE_LIMIT_DEFAULT and its processes may raise it, as root can.
 */
int xsim_gntalloc_limit(const char *instance, domid_t domid, uint32_t limit);

/*
 * Domain @domid notifies the peer of its interdomain port @port without
 * end (XSA-332's storm), or with @on false stops: from then on the peer's
 * port is pending again each time its owner unmasks it, so the owner takes
 * an event after every unmask, as fast as it unmasks; a notification
 * starts it. Fails with ENOTCONN if @port is not bound to a peer.
 */
int xsim_evtchn_storm(const char *instance, domid_t domid,
		      evtchn_port_t port, bool on);

/* What a domain holds in the simulated hypervisor, for leak checks. */
struct xsim_usage {
	uint32_t grants;	/* grant entries it offers (shared pages) */
	uint32_t maps;		/* foreign pages it has mapped */
	uint32_t ports;		/* event channel ports not free */
	uint32_t watches;	/* xenstore watches registered */
};
int xsim_domain_usage(const char *instance, domid_t domid,
		      struct xsim_usage *usage);

#endif /* XSIM_H */
