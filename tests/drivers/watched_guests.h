/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * What the tests of a netback watcher (vifs=) do as the application and
 * as the guests: count the ports' NEW, INTR_RMV and DESTROY events, find
 * the port the watcher made for a guest's vif, start it and the guest's
 * netfront and pass traffic, and remove a port as testpmd does when told
 * of its removal. Guests are those of vdev_pair.h (pair_guest_create()).
 */

#ifndef WATCHED_GUESTS_H
#define WATCHED_GUESTS_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>

#include "xa.h"

/* Count every port's events from now on; 0 or -1. */
int watched_setup(void);
/* How many events of @type port @port heard since it got its id. */
uint32_t watched_events(uint16_t port, enum rte_eth_event_type type);
/* The port the watcher made for vif <domid>/0 within @ms, or -1. */
int watched_vif_port(domid_t domid, unsigned int ms);
/* Guest @domid's netfront (net_xen_netfront_g<domid>), started; or -1. */
int watched_frontend(domid_t domid, struct rte_mempool *mp);
void watched_frontend_close(domid_t domid, int port);
/*
 * Guest @domid served: the watcher's port for it (within 5 s, announced
 * once) and the guest's netfront started, @packets numbered from *@seq
 * passing each way intact. *@back and *@front are the ports, or -1.
 */
bool watched_guest_served(domid_t domid, struct rte_mempool *mp, int *back,
			  int *front, uint64_t *seq, uint64_t packets);
/*
 * What testpmd does on RTE_ETH_EVENT_INTR_RMV (within 10 s): stop, close
 * and remove the port, which then announces its destruction once; true
 * once it is gone and its id free.
 */
bool watched_removal_handled(int port);
/* The events heard by @port forgotten: a port the test removed itself. */
void watched_forget(uint16_t port);

#endif /* WATCHED_GUESTS_H */
