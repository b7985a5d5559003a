/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The ports of xen-adaptive-fwd: those the EAL options create, set up at
 * start, and those a vdev announces later (a net_xen_netback watcher's,
 * one per new vif), set up by the forwarding loop between two rounds. A
 * port told removed (its guest's vif is gone) is stopped, closed and
 * detached there too, as testpmd does. ethdev raises both events on its
 * interrupt thread, where a port cannot be set up (the watcher's probe of
 * it is still running) and the loop may be polling it: the callbacks only
 * note the port and wake the loop from its sleep.
 *
 * A port is announced, and may be told removed, before its probe has
 * returned: ethdev raises RTE_ETH_EVENT_NEW before it marks the port
 * attached, and the bus sets the device's driver, which
 * rte_eth_dev_info_get() reads, only after. So both events reach the
 * loop through an EAL alarm: alarms run on the interrupt thread too,
 * after the callback that probes (the watcher's) has returned.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_dev.h>
#include <rte_ethdev.h>

#include "ports.h"

#define RING_SIZE 256

/*
 * What --gso enables on a port that offers it: guests' TCP segments of up
 * to 64 KiB cross whole (Rx LRO in, Tx TSO out), with checksums left for
 * the next hop to finish, as the kernel's bridge passes them between two
 * netback vifs.
 */
#define GSO_RX_OFFLOADS \
	(RTE_ETH_RX_OFFLOAD_TCP_LRO | RTE_ETH_RX_OFFLOAD_SCATTER | \
	 RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM | \
	 RTE_ETH_RX_OFFLOAD_UDP_CKSUM)
#define GSO_TX_OFFLOADS \
	(RTE_ETH_TX_OFFLOAD_TCP_TSO | RTE_ETH_TX_OFFLOAD_MULTI_SEGS | \
	 RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_TCP_CKSUM | \
	 RTE_ETH_TX_OFFLOAD_UDP_CKSUM)

struct queue queues[PORTS_MAX_QUEUES];
unsigned int nb_queues;

static struct rte_mempool *pool;
static bool gso;
/* The queue pairs of each port served now; 0: not served. */
static uint16_t serving[RTE_MAX_ETHPORTS];
/* Set by the interrupt thread, taken by the loop. */
static bool announced[RTE_MAX_ETHPORTS], removed[RTE_MAX_ETHPORTS];
static bool changed;
/* In the loop's epoll set: an event wakes it. */
static int wake_fd = -1;
static struct rte_epoll_event wake_event = { .epdata.event = EPOLLIN };

/* @port's queues out of the loop's list and epoll set. */
static void
drop_queues(uint16_t port)
{
	unsigned int i = 0;

	while (i < nb_queues) {
		if (queues[i].port != port) {
			i++;
			continue;
		}
		rte_eth_dev_rx_intr_ctl_q(port, queues[i].qid,
					  RTE_EPOLL_PER_THREAD,
					  RTE_INTR_EVENT_DEL, NULL);
		queues[i] = queues[--nb_queues];
	}
	serving[port] = 0;
}

/* Every queue of @port set up with Rx interrupts, started, registered. */
static int
port_start(uint16_t port)
{
	struct rte_eth_conf conf = { .intr_conf = { .rxq = 1 } };
	struct rte_eth_dev_info info;
	uint16_t q, nb;
	int ret;

	ret = rte_eth_dev_info_get(port, &info);
	if (ret != 0)
		return ret;
	nb = info.default_rxportconf.nb_queues ?
		     info.default_rxportconf.nb_queues :
		     1;
	nb = RTE_MIN(nb, RTE_MIN(info.max_rx_queues, info.max_tx_queues));
	if (nb_queues + nb > PORTS_MAX_QUEUES)
		return -ENOSPC;
	if (gso) {
		conf.rxmode.offloads = info.rx_offload_capa & GSO_RX_OFFLOADS;
		conf.txmode.offloads = info.tx_offload_capa & GSO_TX_OFFLOADS;
		if (conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_TCP_LRO)
			conf.rxmode.max_lro_pkt_size = info.max_lro_pkt_size;
	}
	ret = rte_eth_dev_configure(port, nb, nb, &conf);
	for (q = 0; ret == 0 && q < nb; q++) {
		ret = rte_eth_rx_queue_setup(port, q, RING_SIZE,
					     rte_eth_dev_socket_id(port), NULL,
					     pool);
		if (ret == 0)
			ret = rte_eth_tx_queue_setup(
				port, q, RING_SIZE, rte_eth_dev_socket_id(port),
				NULL);
	}
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	for (q = 0; ret == 0 && q < nb; q++) {
		ret = rte_eth_dev_rx_intr_ctl_q(port, q, RTE_EPOLL_PER_THREAD,
						RTE_INTR_EVENT_ADD, NULL);
		queues[nb_queues++] = (struct queue){ port, q };
	}
	if (ret != 0) {
		drop_queues(port);
		return ret;
	}
	serving[port] = nb;
	printf("port %u (%s): serving, %u queues%s\n", port,
	       rte_dev_name(info.device), nb,
	       conf.txmode.offloads & RTE_ETH_TX_OFFLOAD_TCP_TSO ? ", GSO" :
								   "");
	fflush(stdout);
	return 0;
}

/* Out of the loop's queues and epoll set, stopped, closed, detached. */
static void
port_remove(uint16_t port)
{
	struct rte_eth_dev_info info;
	char name[RTE_DEV_NAME_MAX_LEN];
	struct rte_device *dev;

	drop_queues(port);
	if (rte_eth_dev_info_get(port, &info) != 0)
		return;
	dev = info.device;
	snprintf(name, sizeof(name), "%s", rte_dev_name(dev));
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	/* The device may have other ports, or be gone already. */
	if (rte_dev_remove(dev) == 0)
		printf("port %u (%s): removed\n", port, name);
	else
		printf("port %u (%s): closed\n", port, name);
	fflush(stdout);
}

void
ports_wake(void)
{
	uint64_t one = 1;
	ssize_t n;

	/*
	 * It fails only with a full counter, when a wake-up is pending, or
	 * before ports_open(), when there is no sleep to end.
	 */
	n = write(wake_fd, &one, sizeof(one));
	RTE_SET_USED(n);
}

/* Tell the loop of @port in @noted. */
static void
note(bool *noted, uint16_t port)
{
	__atomic_store_n(&noted[port], true, __ATOMIC_RELAXED);
	__atomic_store_n(&changed, true, __ATOMIC_RELEASE);
	ports_wake();
}

/* An event's port, and whether it is new, as an alarm's argument. */
#define EVENT_ARG(port, is_new) ((void *)(uintptr_t)((port) << 1 | (is_new)))

/* The alarm of an event: the probe that raised it, if any, is done. */
static void
on_event_after(void *arg)
{
	uintptr_t a = (uintptr_t)arg;

	note(a & 1 ? announced : removed, a >> 1);
}

static int
on_port_event(uint16_t port, enum rte_eth_event_type type,
	      void *arg __rte_unused, void *ret __rte_unused)
{
	void *event = EVENT_ARG(port, type == RTE_ETH_EVENT_NEW);

	if (port >= RTE_MAX_ETHPORTS)
		return 0;
	/* Out of memory: the loop hears it at once. */
	if (rte_eal_alarm_set(1, on_event_after, event) != 0)
		on_event_after(event);
	return 0;
}

int
ports_open(struct rte_mempool *mp, bool with_gso)
{
	uint16_t port;
	int ret;

	pool = mp;
	gso = with_gso;
	wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (wake_fd < 0)
		return -errno;
	ret = rte_epoll_ctl(RTE_EPOLL_PER_THREAD, EPOLL_CTL_ADD, wake_fd,
			    &wake_event);
	/* Before the ports there: one probed meanwhile is announced. */
	if (ret == 0)
		ret = rte_eth_dev_callback_register(
			RTE_ETH_ALL, RTE_ETH_EVENT_NEW, on_port_event, NULL);
	if (ret == 0)
		ret = rte_eth_dev_callback_register(RTE_ETH_ALL,
						    RTE_ETH_EVENT_INTR_RMV,
						    on_port_event, NULL);
	RTE_ETH_FOREACH_DEV (port) {
		if (ret != 0)
			break;
		ret = port_start(port);
		if (ret != 0)
			fprintf(stderr, "port %u: %s\n", port, strerror(-ret));
	}
	return ret;
}

void
ports_update(void)
{
	uint64_t wakeups;
	uint16_t port;
	ssize_t n;
	int ret;

	if (!__atomic_exchange_n(&changed, false, __ATOMIC_ACQUIRE))
		return;
	/* Drained (EAGAIN when the loop was not asleep to be woken). */
	n = read(wake_fd, &wakeups, sizeof(wakeups));
	RTE_SET_USED(n);
	for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
		if (__atomic_exchange_n(&removed[port], false,
					__ATOMIC_RELAXED)) {
			__atomic_store_n(&announced[port], false,
					 __ATOMIC_RELAXED);
			port_remove(port);
			continue;
		}
		if (!__atomic_exchange_n(&announced[port], false,
					 __ATOMIC_RELAXED) ||
		    serving[port] != 0 || !rte_eth_dev_is_valid_port(port))
			continue;
		ret = port_start(port);
		if (ret != 0)
			printf("port %u: not served: %s\n", port,
			       strerror(-ret));
	}
}

uint16_t
ports_queues(uint16_t port)
{
	return port < RTE_MAX_ETHPORTS ? serving[port] : 0;
}

void
ports_close(void)
{
	uint16_t port;

	for (port = 0; port < RTE_MAX_ETHPORTS; port++)
		if (serving[port] != 0) {
			rte_eth_dev_stop(port);
			rte_eth_dev_close(port);
		}
}
