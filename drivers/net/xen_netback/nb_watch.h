/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A netback vdev that makes a port of each vif of the guests whose names
 * match a pattern (vifs=<pattern>), rather than being a port itself: see
 * nb_watch.c.
 */

#ifndef NB_WATCH_H
#define NB_WATCH_H

#include <stdbool.h>

#include <bus_vdev_driver.h>

#include "xa.h"

/* The longest devargs a watcher passes on to each of its ports. */
#define NB_WATCH_ARGS_MAX 256

/*
 * Watch the backend directory of @xa_args's domain and probe a port, with
 * @port_args (checked by the caller) after its own, for each vif of a
 * guest whose name matches @pattern; the vifs there now before returning.
 * 0 or -errno, logged. In a secondary process, nothing: 0.
 */
int nb_watch_probe(const struct rte_vdev_device *vdev, const char *pattern,
		   const char *port_args, const struct xa_open_args *xa_args);

/* Stop watching if @vdev is a watcher (its ports stay); false if not. */
bool nb_watch_remove(const struct rte_vdev_device *vdev);

#endif /* NB_WATCH_H */
