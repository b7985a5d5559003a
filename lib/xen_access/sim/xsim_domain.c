/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Layer 3 of the simulated hypervisor (see xsim_shm.h), the domains'
 * lifecycle: booting a new instance (xenstore's root), making a domain
 * exist with the xenstore home libxl gives it, and reaping the handles of
 * processes that died, which is the hypervisor closing a dead process's
 * gntdev, gntalloc, evtchn and xenbus files. It drives the services (grant
 * tables, event channels, xenstore) and is driven by the toolstack and the
 * provider; nothing below it calls it.
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_common.h>

#include "xsim_domain.h"

/* A hypervisor starts with an empty xenstore; nothing else needs setting. */
static void
xsim_boot(struct xsim_shared *sh)
{
	xsim_xs_init(sh);
}

struct xsim_attach *
xsim_instance_attach(const char *instance)
{
	return xsim_attach(instance, xsim_boot);
}

/*
 * The xenstore home libxl gives a new domain: /local/domain/<id> readable by
 * the domain but owned by dom0, and the directories the domain owns.
 */
static const char *const xsim_domain_dirs[] = {
	"device", "control", "data", "drivers", "feature", "attr", "error",
};

int
xsim_domain_register(struct xsim_attach *at, int send_fd, domid_t domid)
{
	struct xsim_shared *sh = at->sh;
	struct xs_permissions perms[2];
	char path[XSIM_XS_PATH_MAX + 1];
	unsigned int i;

	if (domid >= XSIM_MAX_DOMAINS) {
		errno = EINVAL;
		return -1;
	}
	if (xsim_domain_exists(sh, domid))
		return 0;
	snprintf(path, sizeof(path), "/local/domain/%u", domid);
	perms[0].id = 0;
	perms[0].perms = XS_PERM_NONE;
	perms[1].id = domid;
	perms[1].perms = XS_PERM_READ;
	if (xsim_xs_write_locked(sh, send_fd, 0, path, "", 0) < 0 ||
	    xsim_xs_set_perms_locked(sh, send_fd, 0, path, perms, 2) < 0)
		return -1;
	perms[0].id = domid;
	for (i = 0; i < RTE_DIM(xsim_domain_dirs); i++) {
		snprintf(path, sizeof(path), "/local/domain/%u/%s", domid,
			 xsim_domain_dirs[i]);
		if (xsim_xs_write_locked(sh, send_fd, 0, path, "", 0) < 0 ||
		    xsim_xs_set_perms_locked(sh, send_fd, 0, path, perms, 1) < 0)
			return -1;
	}
	/* Last: the services accept the domain once its home is complete. */
	__atomic_store_n(&sh->domains[domid].exists, 1, __ATOMIC_RELEASE);
	return 0;
}

void
xsim_reap_dead(struct xsim_attach *at)
{
	struct xsim_shared *sh = at->sh;
	xsim_owner_t owner;
	struct xsim_slot *slot;

	for (owner = 1; owner <= XSIM_MAX_HANDLES; owner++) {
		slot = xsim_slot(sh, owner);
		if (slot->pid == 0 || slot->pid == getpid() ||
		    kill(slot->pid, 0) == 0 || errno != ESRCH)
			continue;
		xsim_gnt_release(at, owner);
		xsim_evtchn_release(sh, owner);
		xsim_xs_release(sh, owner);
		slot->pid = 0;
	}
}
