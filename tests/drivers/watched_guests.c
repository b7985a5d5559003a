/* SPDX-License-Identifier: BSD-3-Clause */

/* Guests served by a netback watcher, as its tests drive them (watched_guests.h). */

#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_dev.h>

#include "vdev_pair.h"
#include "watched_guests.h"

/* The events each port heard, counted on the interrupt thread. */
static uint32_t heard[RTE_MAX_ETHPORTS][RTE_ETH_EVENT_MAX];

static int
on_event(uint16_t port, enum rte_eth_event_type type, void *arg,
	 void *ret_param)
{
	(void)arg;
	(void)ret_param;
	__atomic_fetch_add(&heard[port][type], 1, __ATOMIC_RELAXED);
	return 0;
}

int
watched_setup(void)
{
	static const enum rte_eth_event_type types[] = {
		RTE_ETH_EVENT_NEW, RTE_ETH_EVENT_INTR_RMV, RTE_ETH_EVENT_DESTROY
	};

	for (unsigned int i = 0; i < RTE_DIM(types); i++)
		if (rte_eth_dev_callback_register(RTE_ETH_ALL, types[i],
						  on_event, NULL) != 0)
			return -1;
	return 0;
}

uint32_t
watched_events(uint16_t port, enum rte_eth_event_type type)
{
	return __atomic_load_n(&heard[port][type], __ATOMIC_RELAXED);
}

int
watched_vif_port(domid_t domid, unsigned int ms)
{
	char name[RTE_DEV_NAME_MAX_LEN];
	uint16_t port;

	snprintf(name, sizeof(name), "net_xen_netback_vif%u.0", domid);
	for (;;) {
		if (rte_eth_dev_get_port_by_name(name, &port) == 0)
			return port;
		if (ms < 10)
			return -1;
		ms -= 10;
		rte_delay_ms(10);
	}
}

int
watched_frontend(domid_t domid, struct rte_mempool *mp)
{
	char name[32], args[128];

	snprintf(name, sizeof(name), "net_xen_netfront_g%u", domid);
	snprintf(args, sizeof(args), "domid=%u,provider=sim,sim=%s", domid,
		 pair_sim_instance());
	return pair_create(name, args, mp);
}

void
watched_frontend_close(domid_t domid, int port)
{
	char name[32];

	snprintf(name, sizeof(name), "net_xen_netfront_g%u", domid);
	pair_destroy(name, port);
	if (port >= 0)
		watched_forget(port);
}

bool
watched_guest_served(domid_t domid, struct rte_mempool *mp, int *back,
		     int *front, uint64_t *seq, uint64_t packets)
{
	static const struct rte_eth_conf no_conf;

	*front = -1;
	*back = watched_vif_port(domid, 5000);
	if (*back < 0 || watched_events(*back, RTE_ETH_EVENT_NEW) != 1 ||
	    pair_start(*back, mp, 1, &no_conf) != 0)
		return false;
	*front = watched_frontend(domid, mp);
	return *front >= 0 &&
	       pair_traffic_both_ways(*back, *front, mp, seq, packets);
}

bool
watched_removal_handled(int port)
{
	struct rte_eth_dev_info info;
	unsigned int ms;

	for (ms = 0; watched_events(port, RTE_ETH_EVENT_INTR_RMV) == 0;
	     ms += 10) {
		if (ms >= 10000)
			return false;
		rte_delay_ms(10);
	}
	if (rte_eth_dev_info_get(port, &info) != 0 ||
	    rte_eth_dev_stop(port) != 0 || rte_eth_dev_close(port) != 0 ||
	    rte_dev_remove(info.device) != 0 ||
	    watched_events(port, RTE_ETH_EVENT_DESTROY) != 1)
		return false;
	watched_forget(port);
	return true;
}

void
watched_forget(uint16_t port)
{
	/* The port id is free for the next port. */
	memset(heard[port], 0, sizeof(heard[port]));
}
