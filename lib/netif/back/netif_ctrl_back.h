/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control ring of a vif (netif.h, feature-ctrl-ring), the backend's
 * end. It is event driven, not polled: the backend answers every request
 * waiting when the frontend's event arrives and re-arms its event index
 * before it stops (the RING_FINAL_CHECK pattern), so that no request waits
 * for an event that never comes. As on the data rings, each request is
 * copied once out of shared memory and the frontend's producer index is
 * checked against the ring, so a corrupt index is an error instead of a
 * loop over garbage (XSA-39). Control thread only, nothing here calls the
 * hypervisor.
 *
 * The backend's thread is shared with every other port's control work,
 * and a request's cost is the guest's choice (an ADD or DEL names up to a
 * page of grants to map or unmap): so each serve is given a budget in
 * grant operations, charges each request its cost before answering it,
 * and leaves what does not fit for the caller's next turn.
 */

#ifndef NETIF_CTRL_BACK_H
#define NETIF_CTRL_BACK_H

#include <stdbool.h>
#include <stdint.h>

#include "netif_ring.h"
#include "netif_statics.h"

/*
 * A serve's budget in grant operations: one ADD or DEL of a whole list
 * (a page of grants, each mapped or unmapped, plus copying the list in and
 * the statuses out) fits, so that every request can be answered, and not
 * two, so that one turn of a guest's costs at most about one batched map
 * call of a page of grants (about a millisecond of mmap work) before the
 * thread serves the other ports.
 */
#define NETIF_CTRL_BACK_BUDGET (NETIF_STATICS_LIST_MAX + 2u)

/*
 * The grant operations answering @req (read once into our memory) may
 * take: for ADD_ and DEL_GREF_MAPPING one per grant of its list (the
 * count the guest gives, taken at least 1 and at most a page's worth, as
 * the serve will refuse a longer one) and one per copy of the list; 1 for
 * any other request (a key or table copy, or none). At most
 * NETIF_CTRL_BACK_BUDGET.
 */
uint32_t netif_ctrl_request_cost(const struct xen_netif_ctrl_request *req);

/*
 * Answer @req into @rsp (status and data) and return true, or return false
 * when its type is not served (it is then answered NOT_SUPPORTED). *@ops
 * (0 on entry): the grant operations the answer took, where it knows them
 * and they may exceed netif_ctrl_request_cost(); a DEL naming the last
 * live grant of a batch unmaps the whole batch, up to a page's worth of
 * grants for one entry.
 */
typedef bool (*netif_ctrl_serve_t)(void *opaque,
				   const struct xen_netif_ctrl_request *req,
				   struct xen_netif_ctrl_response *rsp,
				   uint32_t *ops);

struct netif_ctrl_back {
	xen_netif_ctrl_back_ring_t ring;
	const char *error;		/* first protocol violation seen */
	/*
	 * The last serve stopped with requests still waiting (its budget
	 * spent, or a ring's worth answered), its event index not re-armed:
	 * serve again soon.
	 */
	bool more;
	uint32_t spent; /* by the last serve, grant operations */
	uint64_t requests;		/* answered */
	uint64_t not_supported;		/* of which of a type not served */
};

/*
 * Attach to the frontend's control ring @sring where it stands; -EPROTO
 * when its indexes are impossible.
 */
int netif_ctrl_back_attach(struct netif_ctrl_back *c,
			   xen_netif_ctrl_sring_t *sring);

/*
 * Answer the requests waiting, in ring order, through @serve, publish the
 * responses and re-arm the event index. A call answers requests costing
 * at most @budget grant operations (netif_ctrl_request_cost() before
 * answering, the larger of it and what @serve says it took after; the
 * first one always, whatever its cost) and at most a ring's worth, so that a
 * frontend posting without pause cannot keep the caller's thread: then
 * @more is set and the index not re-armed. Returns whether the frontend
 * asked to be notified. A producer index beyond the ring sets @error and
 * stops.
 */
bool netif_ctrl_back_serve(struct netif_ctrl_back *c, netif_ctrl_serve_t serve,
			   void *opaque, uint32_t budget);

#endif /* NETIF_CTRL_BACK_H */
