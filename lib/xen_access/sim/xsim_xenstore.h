/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Layer 2 of the simulated hypervisor (see xsim_shm.h): xenstore, as the
 * provider's ops table calls it, plus the locked primitives with which the
 * layers above act on it with a given domain's rights (domain registration
 * and the toolstack act as dom0). Those take absolute paths. Calls only
 * the segment below it.
 */

#ifndef XSIM_XENSTORE_H
#define XSIM_XENSTORE_H

#include "xsim.h"
#include "xsim_shm.h"

/* The root node of a new instance: owned by dom0, readable by nobody else. */
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
/* Drop the watches and queued events of handle slot @owner; under the mutex. */
void xsim_xs_release(struct xsim_shared *sh, xsim_owner_t owner);
/* The process-local side of a closing handle (its open transactions). */
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

#endif /* XSIM_XENSTORE_H */
