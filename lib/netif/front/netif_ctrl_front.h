/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control ring of a vif (netif.h, feature-ctrl-ring), the frontend's
 * end: requests queued and published, responses collected when the
 * backend's event arrives, the event index re-armed once none is left
 * (the RING_FINAL_CHECK pattern). Each response is copied once out of
 * shared memory, and a backend that answers more than we asked is an
 * error. Control thread only, nothing here calls the hypervisor.
 */

#ifndef NETIF_CTRL_FRONT_H
#define NETIF_CTRL_FRONT_H

#include <stdbool.h>
#include <stdint.h>

#include "netif_ring.h"

struct netif_ctrl_front {
	xen_netif_ctrl_front_ring_t ring;
	uint16_t next_id;
	const char *error;		/* first protocol violation seen */
};

/* Initialise the (shared, zeroed) page @sring as our control ring. */
void netif_ctrl_front_attach(struct netif_ctrl_front *c,
			     xen_netif_ctrl_sring_t *sring);

/*
 * Queue a request of @type with @data; its id in *@id. False when every
 * slot waits for a response.
 */
bool netif_ctrl_front_queue(struct netif_ctrl_front *c, uint16_t type,
			    uint32_t data0, uint32_t data1, uint32_t data2,
			    uint16_t *id);

/* How many requests may be queued before answers make room. */
static inline unsigned int
netif_ctrl_front_free(const struct netif_ctrl_front *c)
{
	return RING_FREE_REQUESTS(&c->ring);
}

/* Publish what was queued; whether the backend asked to be notified. */
bool netif_ctrl_front_push(struct netif_ctrl_front *c);

/*
 * Copy at most @max responses out into @rsp and re-arm the event index
 * once none is left; returns how many, or -1 (and @error set) when the
 * backend's producer index answers more than we asked.
 */
int netif_ctrl_front_responses(struct netif_ctrl_front *c,
			       struct xen_netif_ctrl_response *rsp,
			       unsigned int max);

#endif /* NETIF_CTRL_FRONT_H */
