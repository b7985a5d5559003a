/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Layer 2 of the simulated hypervisor (see xsim_shm.h): the grant tables,
 * as the provider's ops table and the layers that release or count what a
 * handle holds call them. Calls only the segment below it.
 */

#ifndef XSIM_GNTTAB_H
#define XSIM_GNTTAB_H

#include "xsim.h"
#include "xsim_shm.h"

/* Everything handle slot @owner holds in the grant tables; under the mutex. */
void xsim_gnt_release(struct xsim_attach *at, xsim_owner_t owner);
/* The process-local side of a closing handle; before the release. */
void xsim_gnt_close(struct xsim_handle *h);
void xsim_gnt_usage(struct xsim_shared *sh, domid_t domid,
		    struct xsim_usage *usage);

void *xsim_gnt_map(struct xa_handle *xh, domid_t domid, uint32_t count,
		   const grant_ref_t *refs, bool writable);
int xsim_gnt_unmap(struct xa_handle *xh, void *addr, uint32_t count);
int xsim_gnt_detach(struct xa_handle *xh, void *addr, uint32_t count);
int xsim_gnt_copy(struct xa_handle *xh, uint32_t count,
		  xengnttab_grant_copy_segment_t *segs);
void *xsim_gnt_share(struct xa_handle *xh, domid_t domid, uint32_t count,
		     grant_ref_t *refs, bool writable);
int xsim_gnt_unshare(struct xa_handle *xh, void *addr, uint32_t count);
int xsim_gnt_share_limit(struct xa_handle *xh, uint32_t *limit,
			 uint32_t *used);
int xsim_gnt_share_set_limit(struct xa_handle *xh, uint32_t limit);
/*
 * Set @domid's gntalloc limit, under the mutex. @admin (the DomU's
 * administrator, loading xen_gntalloc with limit=N) also fixes it for the
 * domain's processes, which are then refused with EACCES as a non-root
 * process is by sysfs.
 */
int xsim_gntalloc_set_locked(struct xsim_shared *sh, domid_t domid,
			     uint32_t limit, bool admin);

#endif /* XSIM_GNTTAB_H */
