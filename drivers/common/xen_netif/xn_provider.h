/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The provider a vdev gets, chosen once at its probe from what provider=
 * asked (or did not) and what this machine has (xa_provider_choose()),
 * and said at NOTICE: a port on the simulator in a Xen domain is what an
 * operator must be able to see, and one on a Xen that lacks a device is
 * refused with the device and the module to load.
 */

#ifndef XN_PROVIDER_H
#define XN_PROVIDER_H

#include "xa.h"
#include "xn_devargs.h"

/*
 * Settle @cfg->provider for vdev @name doing @role, logging the choice
 * (NOTICE) or why there is none (ERR) at @logtype. 0 or -ENODEV.
 */
int xn_provider_choose(struct xn_devargs *cfg, enum xa_role role, int logtype,
		       const char *name);

#endif /* XN_PROVIDER_H */
