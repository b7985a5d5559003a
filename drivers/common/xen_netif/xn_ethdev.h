/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The ethdev face both Xen netif PMDs share: probe and remove of the vdev,
 * and the dev_ops (configuration checks, device information, start and
 * stop with the gate, the link and the queue states, queue set-up and
 * release, close, link, packet types, statistics, and the receive filters
 * a vif does not have). A PMD is a struct xn_pmd: its devargs, its hooks
 * (struct xn_port_ops) and its statistics.
 */

#ifndef XN_ETHDEV_H
#define XN_ETHDEV_H

#include <bus_vdev_driver.h>

#include "xn_info.h"
#include "xn_port.h"

/*
 * Parse the devargs, allocate the port, open Xen access and start the
 * control thread, as @pmd says. 0 or -errno, with a log line saying why.
 */
int xn_probe(struct rte_vdev_device *vdev, const struct xn_pmd *pmd);

/*
 * xn_probe() for a PMD whose own probe has cut @vdev's devargs into @kv
 * already (xn_devargs_split(); NULL when that failed), so that they are
 * read as text once.
 */
int xn_probe_kv(struct rte_vdev_device *vdev, const struct xn_pmd *pmd,
		const struct rte_kvargs *kv);
/* Stop, close and release the port of @vdev. */
int xn_remove(struct rte_vdev_device *vdev);

/* Port @port_id if it is one of @pmd's, else NULL. */
struct xn_port *xn_port_by_id(uint16_t port_id, const struct xn_pmd *pmd);

/*
 * Register vdev driver @drv as the PMD @pmd with a probe and a remove of
 * its own, which end in xn_probe() and xn_remove() for a port.
 */
#define XN_PMD_REGISTER_PROBE(drv, pmd, probe_fn, remove_fn) \
	RTE_INIT(drv ## _info) \
	{ \
		xn_info_register(&(pmd), (pmd).info_prefix); \
	} \
	static struct rte_vdev_driver drv ## _driver = { \
		.probe = probe_fn, \
		.remove = remove_fn, \
	}; \
	RTE_PMD_REGISTER_VDEV(drv, drv ## _driver)

/*
 * Register vdev driver @drv (a bare name, e.g. net_xen_netback) as the
 * PMD @pmd: its probe and remove are xn_probe() and xn_remove().
 */
#define XN_PMD_REGISTER(drv, pmd) \
	static int \
	drv ## _probe(struct rte_vdev_device *vdev) \
	{ \
		return xn_probe(vdev, &(pmd)); \
	} \
	XN_PMD_REGISTER_PROBE(drv, pmd, drv ## _probe, xn_remove)

#endif /* XN_ETHDEV_H */
