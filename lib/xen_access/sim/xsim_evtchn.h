/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Layer 2 of the simulated hypervisor (see xsim_shm.h): the event channels,
 * as the provider's ops table and the layers that release or count what a
 * handle slot holds call them. They work on an endpoint (struct
 * xsim_evtchn), whatever opened it. Calls only the segment below it.
 */

#ifndef XSIM_EVTCHN_H
#define XSIM_EVTCHN_H

#include "xsim.h"
#include "xsim_shm.h"

/* Close every port handle slot @owner holds; under the mutex. */
void xsim_evtchn_release(struct xsim_shared *sh, xsim_owner_t owner);
void xsim_evtchn_usage(struct xsim_shared *sh, domid_t domid,
		       struct xsim_usage *usage);
/* See xsim_evtchn_storm() (xsim.h); under the mutex. */
int xsim_evtchn_set_storm(struct xsim_shared *sh, domid_t domid,
			  evtchn_port_t port, bool on);

int xsim_evtchn_fd(struct xa_evtchn *xe);
evtchn_port_t xsim_evtchn_bind_unbound(struct xa_evtchn *xe, domid_t remote);
evtchn_port_t xsim_evtchn_bind_interdomain(struct xa_evtchn *xe,
					   domid_t remote,
					   evtchn_port_t remote_port);
int xsim_evtchn_unbind(struct xa_evtchn *xe, evtchn_port_t port);
int xsim_evtchn_notify(struct xa_evtchn *xe, evtchn_port_t port);
int xsim_evtchn_pending(struct xa_evtchn *xe);
int xsim_evtchn_unmask(struct xa_evtchn *xe, evtchn_port_t port);

#endif /* XSIM_EVTCHN_H */
