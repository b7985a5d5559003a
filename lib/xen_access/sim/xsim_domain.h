/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Layer 3 of the simulated hypervisor (see xsim_shm.h): the lifecycle that
 * drives the services, as the toolstack and the provider call it. Calls
 * the services and the segment below it.
 */

#ifndef XSIM_DOMAIN_H
#define XSIM_DOMAIN_H

#include "xsim_evtchn.h"
#include "xsim_gnttab.h"
#include "xsim_shm.h"
#include "xsim_xenstore.h"

/* Join @instance, booting it (an empty xenstore) if this creates it. */
struct xsim_attach *xsim_instance_attach(const char *instance);
/*
 * Make @domid exist with the xenstore home libxl gives a new domain;
 * nothing if it exists already. Under the mutex; -1 with errno set.
 */
int xsim_domain_register(struct xsim_attach *at, int send_fd, domid_t domid);
/* Release what handles of dead processes still hold; under the mutex. */
void xsim_reap_dead(struct xsim_attach *at);

#endif /* XSIM_DOMAIN_H */
