/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Layer 4 of the simulated hypervisor (see xsim_shm.h): what the provider
 * asks of the toolstack beyond xsim.h. Calls the domains' lifecycle, the
 * services and the segment below it.
 */

#ifndef XSIM_TOOLSTACK_H
#define XSIM_TOOLSTACK_H

#include "xsim.h"
#include "xsim_domain.h"

/*
 * xsim_vif_plug() with the MAC the toolstack chooses. xl draws
 * 00:16:3e:xx:xx:xx at random; here the last three bytes are the low byte
 * of @frontend and the two bytes of @handle, so every plug of one vif, in
 * any process, agrees on its address.
 */
int xsim_toolstack_plug_vif(const char *instance, domid_t backend,
			    domid_t frontend, uint16_t handle);

#endif /* XSIM_TOOLSTACK_H */
