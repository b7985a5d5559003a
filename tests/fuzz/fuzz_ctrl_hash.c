/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The control ring as a hostile frontend (a Windows guest's RSS set-up)
 * fills it: the input is the frontend's queue count, the bytes of the one
 * page it grants (a key or a mapping table, reference 8) and the requests
 * of its control ring, published at once. The backend answers them with
 * the hash service, then maps values to queues with what was configured.
 * Whatever the input, every request is answered in its slot, a table
 * entry never names a queue the frontend does not have (XSA-270), and a
 * configured table never outgrows its bounds.
 */

#include <stdlib.h>
#include <string.h>

#include "netif_ctrl_back.h"
#include "netif_hash.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define GRANT 8

static union {
	xen_netif_ctrl_sring_t sring;
	uint8_t page[NETIF_PAGE_SIZE];
} shared;
static uint8_t granted[NETIF_PAGE_SIZE];
static struct netif_hash hash;

/* The frontend's one grant; any other reference is refused. */
static bool
read_grant(void *opaque __rte_unused, grant_ref_t ref, void *dst,
	   uint32_t len)
{
	if (ref != GRANT || len > sizeof(granted))
		return false;
	memcpy(dst, granted, len);
	return true;
}

static void
quiesce(void *opaque __rte_unused)
{
}

static bool
serve(void *opaque __rte_unused, const struct xen_netif_ctrl_request *req,
      struct xen_netif_ctrl_response *rsp, uint32_t *ops __rte_unused)
{
	return netif_hash_serve(&hash, req, rsp);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t entry = sizeof(shared.sring.ring[0]);
	const struct netif_hash_config *on;
	struct netif_ctrl_back back;
	unsigned int nb_queues, i;
	size_t n, page;

	if (size < 3)
		return 0;
	nb_queues = 1 + data[0] % 8;
	page = RTE_MIN((size_t)data[1] * 16, size - 2);
	memset(granted, 0, sizeof(granted));
	memcpy(granted, data + 2, page);
	data += 2 + page;
	size -= 2 + page;
	n = RTE_MIN(size / entry, (size_t)NETIF_CTRL_RING_SIZE);
	memset(&shared, 0, sizeof(shared));
	SHARED_RING_INIT(&shared.sring);
	for (i = 0; i < n; i++)
		memcpy(&shared.sring.ring[i].req, data + i * entry,
		       sizeof(shared.sring.ring[i].req));
	shared.sring.req_prod = n;
	hash.read = read_grant;
	hash.quiesce = quiesce;
	hash.opaque = NULL;
	netif_hash_reset(&hash, nb_queues);
	memset(&back, 0, sizeof(back));
	if (netif_ctrl_back_attach(&back, &shared.sring) != 0)
		abort();
	/*
	 * A serve answers a budget's worth (at least one request) and says
	 * whether more waits: n serves answer everything.
	 */
	for (i = 0; i < n && back.error == NULL; i++) {
		uint64_t before = back.requests;

		netif_ctrl_back_serve(&back, serve, NULL,
				      NETIF_CTRL_BACK_BUDGET);
		if (back.error == NULL && back.requests == before && n > 0)
			abort();
		if (back.requests == n ? back.more : !back.more)
			abort();
		if (back.requests == n)
			break;
	}
	if (back.error != NULL || back.requests != n ||
	    shared.sring.rsp_prod != n)
		abort();
	for (i = 0; i < n; i++) {
		struct xen_netif_ctrl_request req;

		memcpy(&req, data + i * entry, sizeof(req));
		if (shared.sring.ring[i].rsp.id != req.id)
			abort();
	}
	if (hash.active == NULL)
		return 0;
	on = &hash.active->cfg;
	if (on->size > NETIF_HASH_MAPPING_MAX)
		abort();
	for (i = 0; i < on->size; i++)
		if (on->mapping[i] >= nb_queues)
			abort();
	for (i = 0; i < 64; i++)
		if (netif_hash_queue(on, nb_queues, i * 0x9e3779b9u) >=
		    nb_queues)
			abort();
	return 0;
}
