/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Backend side of the vif handshake. The transitions follow Linux
 * netback's, which every frontend has been tested against, with two
 * additions: a frontend that restarts without closing (its new instance
 * writes Initialising while we are Connected) is reset, not ignored, so a
 * crashed guest application can reconnect; and a backend process that
 * restarts re-attaches to a frontend that is still connected.
 */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "xenbus_back.h"

/*
 * The backend's states and what moves them ("fe": the frontend's state as
 * read from its directory; "we": this backend):
 *
 *                       fe Initialising
 *   Initialising ------------------------------+
 *       |                                      v
 *       | fe Initialised or Connected   +--> InitWait <---------------+
 *       | (we restarted: re-attach to   |       |                     |
 *       |  the rings it still has)      |       | fe Initialised      |
 *       |                               |       | or Connected: map,  |
 *       |                               |       | bind                |
 *       |                               |       v                     |
 *       +-------------------------------|--> Connected ---------------+
 *                                       |       |    fe Initialising
 *                                       |       |    (it restarted
 *                                       |       |     without closing)
 *                                       |       | fe Closing, a burst's
 *                                       |       | violation, or its keys
 *                                       |       | refused at connect
 *                                       |       v
 *       any state but Closed --------------> Closing
 *       on fe Closing                   |       |
 *                                       |       | fe Closed, or its
 *       any state on fe Closed ---------|---+   | directory gone
 *       or gone                         |   v   v
 *                                       +--- Closed
 *                         fe Initialising: it reconnects
 *
 *   Connected <---- fe Connected ---- Reconfigured
 *       |                              ^   |
 *       +------- fe Reconfiguring -----+   | fe Reconfiguring: read again
 *                (read xdp-headroom)       +-> (Linux netfront waits for
 *                                               Reconfigured, unbounded)
 * Reconfigured is Connected with the rings still served: Initialising,
 * Closing and Closed act on it as on Connected. A restarted backend that
 * finds the frontend Reconfiguring re-attaches, then answers it.
 *
 * The violation and the refusal are the PMD's (they are not in xenstore);
 * everything else is the table below.
 */
enum xenbus_back_action
xenbus_back_next(enum xenbus_state be, enum xenbus_state fe)
{
	switch (fe) {
	case XenbusStateInitialising:
		if (be == XenbusStateConnected || be == XenbusStateReconfigured)
			return XENBUS_BACK_RESET;
		/* Closed -> InitWait is how a frontend reconnects. */
		if (be != XenbusStateInitWait)
			return XENBUS_BACK_INIT_WAIT;
		return XENBUS_BACK_NONE;
	case XenbusStateInitialised:
	case XenbusStateConnected:
		/*
		 * A fresh backend (Initialising) finding a connected frontend
		 * is a restarted backend process: re-attach to the rings the
		 * running guest still has. After Closing/Closed we stay away.
		 */
		if (be == XenbusStateInitWait ||
		    be == XenbusStateInitialising || be == XenbusStateUnknown)
			return XENBUS_BACK_CONNECT;
		/* The frontend reconfigured: done. */
		if (fe == XenbusStateConnected && be == XenbusStateReconfigured)
			return XENBUS_BACK_RESUME;
		return XENBUS_BACK_NONE;
	case XenbusStateReconfiguring:
		if (be == XenbusStateConnected || be == XenbusStateReconfigured)
			return XENBUS_BACK_RECONFIGURE;
		/* Its rings are up: re-attach first (see above). */
		if (be == XenbusStateInitWait ||
		    be == XenbusStateInitialising || be == XenbusStateUnknown)
			return XENBUS_BACK_CONNECT;
		return XENBUS_BACK_NONE;
	case XenbusStateClosing:
		if (be == XenbusStateClosing || be == XenbusStateClosed)
			return XENBUS_BACK_NONE;
		return XENBUS_BACK_CLOSE;
	case XenbusStateClosed:
	case XenbusStateUnknown:
		/* Unknown: the frontend's directory is gone or garbage. */
		return be == XenbusStateClosed ? XENBUS_BACK_NONE :
						 XENBUS_BACK_CLOSED;
	case XenbusStateInitWait:
	case XenbusStateReconfigured:
		break;
	}
	return XENBUS_BACK_NONE;
}

bool
xenbus_back_write_features(struct xa_handle *h, const char *dir,
			   unsigned int max_queues, bool gso)
{
	const char *const features[][2] = {
		{ "feature-sg", "1" },
		{ "feature-rx-copy", "1" },
		/* Page flipping is long gone; say so (Linux does). */
		{ "feature-rx-flip", "0" },
		{ "feature-split-event-channels", "1" },
		{ "feature-ipv6-csum-offload", "1" },
		/* Written either way: a restarted backend may change its mind. */
		{ "feature-gso-tcpv4", gso ? "1" : "0" },
		{ "feature-gso-tcpv6", gso ? "1" : "0" },
		{ "feature-ctrl-ring", "1" },
		/* Filtered per group, request-multicast-control watched. */
		{ "feature-multicast-control", "1" },
		{ "feature-dynamic-multicast-control", "1" },
		/* Linux's: xdp-headroom, then Reconfiguring to change it. */
		{ "feature-xdp-headroom", "1" },
	};
	char path[XENBUS_PATH_MAX];
	unsigned int i;

	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, features[i][0]);
		if (!xa_xs_write(h, XBT_NULL, path, features[i][1], 1))
			return false;
	}
	snprintf(path, sizeof(path), "%s/multi-queue-max-queues", dir);
	return xa_xs_printf(h, XBT_NULL, path, "%u", max_queues);
}

bool
xenbus_back_offered_gso(struct xa_handle *h, const char *dir)
{
	char path[XENBUS_PATH_MAX];
	unsigned long v;

	snprintf(path, sizeof(path), "%s/feature-gso-tcpv4", dir);
	return xa_xs_read_uint(h, XBT_NULL, path, &v) && v == 1;
}

static bool
read_key(struct xa_handle *h, const char *dir, const char *key,
	 unsigned long max, unsigned long *val)
{
	char path[XENBUS_KEY_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, key);
	return xa_xs_read_uint(h, XBT_NULL, path, val) && *val <= max;
}

/* One queue's keys from @dir; NULL, or the key that is missing or bad. */
static const char *
read_queue(struct xa_handle *h, const char *dir, struct xenbus_back_queue *q)
{
	unsigned long v;

	if (!read_key(h, dir, "tx-ring-ref", UINT32_MAX, &v))
		return "tx-ring-ref missing or invalid";
	q->tx_ring_ref = v;
	if (!read_key(h, dir, "rx-ring-ref", UINT32_MAX, &v))
		return "rx-ring-ref missing or invalid";
	q->rx_ring_ref = v;
	if (read_key(h, dir, "event-channel-tx", UINT32_MAX, &v)) {
		q->evtchn_tx = v;
		if (!read_key(h, dir, "event-channel-rx", UINT32_MAX, &v))
			return "event-channel-tx without a valid event-channel-rx";
		q->evtchn_rx = v;
		q->split_evtchn = true;
	} else if (read_key(h, dir, "event-channel", UINT32_MAX, &v)) {
		q->evtchn_tx = q->evtchn_rx = v;
		q->split_evtchn = false;
	} else {
		return "event-channel missing or invalid";
	}
	return NULL;
}

bool
xenbus_back_read_frontend(struct xa_handle *h, const char *fe_dir,
			  unsigned int max_queues,
			  struct xenbus_back_frontend *fe,
			  char why[XENBUS_WHY_MAX])
{
	char dir[XENBUS_PATH_MAX];
	const char *bad;
	unsigned long n;
	unsigned int i;

	/* Absent: a frontend that knows nothing of multi-queue, one queue. */
	n = xenbus_read_feature(h, fe_dir, "multi-queue-num-queues", 1);
	if (n == 0 || n > max_queues) {
		snprintf(why, XENBUS_WHY_MAX,
			 "multi-queue-num-queues is %lu, not 1..%u", n,
			 max_queues);
		return false;
	}
	fe->nb_queues = n;
	if (xenbus_read_feature(h, fe_dir, "request-rx-copy", 0) != 1) {
		snprintf(why, XENBUS_WHY_MAX,
			 "request-rx-copy is not 1 (only copy mode exists)");
		return false;
	}
	for (i = 0; i < fe->nb_queues; i++) {
		if (fe->nb_queues == 1)
			snprintf(dir, sizeof(dir), "%s", fe_dir);
		else
			snprintf(dir, sizeof(dir), "%s/queue-%u", fe_dir, i);
		bad = read_queue(h, dir, &fe->queue[i]);
		if (bad != NULL) {
			if (fe->nb_queues == 1)
				snprintf(why, XENBUS_WHY_MAX, "%s", bad);
			else
				snprintf(why, XENBUS_WHY_MAX, "queue-%u/%s", i,
					 bad);
			return false;
		}
	}
	fe->rx_notify = xenbus_read_feature(h, fe_dir, "feature-rx-notify", 0);
	/* Absent keys: IPv4 checksum offload on, the rest off (netif.h). */
	fe->csum_ipv4 = !xenbus_read_feature(h, fe_dir,
					     "feature-no-csum-offload", 0);
	fe->csum_ipv6 = xenbus_read_feature(h, fe_dir,
					    "feature-ipv6-csum-offload", 0);
	fe->gso_tcpv4 = xenbus_read_feature(h, fe_dir, "feature-gso-tcpv4", 0);
	fe->gso_tcpv6 = xenbus_read_feature(h, fe_dir, "feature-gso-tcpv6", 0);
	/* netif.h: both keys, or no control ring. */
	fe->ctrl_ring = read_key(h, fe_dir, "ctrl-ring-ref", UINT32_MAX, &n);
	if (fe->ctrl_ring) {
		fe->ctrl_ring_ref = n;
		if (!read_key(h, fe_dir, "event-channel-ctrl", UINT32_MAX, &n)) {
			snprintf(why, XENBUS_WHY_MAX,
				 "ctrl-ring-ref without a valid event-channel-ctrl");
			return false;
		}
		fe->evtchn_ctrl = n;
	}
	return true;
}

bool
xenbus_back_read_xdp_headroom(struct xa_handle *h, const char *fe_dir,
			       unsigned int max, uint16_t *headroom,
			       char why[XENBUS_WHY_MAX])
{
	char path[XENBUS_KEY_PATH_MAX];
	unsigned long v;

	*headroom = 0;
	snprintf(path, sizeof(path), "%s/xdp-headroom", fe_dir);
	if (!xa_xs_read_uint(h, XBT_NULL, path, &v)) {
		if (errno == ENOENT)
			return true;
		snprintf(why, XENBUS_WHY_MAX, "xdp-headroom is not a number");
		return false;
	}
	if (v > max) {
		*headroom = max;
		snprintf(why, XENBUS_WHY_MAX,
			 "xdp-headroom %lu is above %u, the most we leave", v,
			 max);
		return false;
	}
	*headroom = v;
	return true;
}

/* One decimal number in 1..@max at *@s, moving *@s past it. */
static bool
parse_rate_number(const char **s, uint64_t max, const char *name,
		  char why[XENBUS_WHY_MAX], uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)**s)) {
		snprintf(why, XENBUS_WHY_MAX, "rate: %s is not a number", name);
		return false;
	}
	errno = 0;
	*v = strtoull(*s, &end, 10);
	if (errno != 0 || *v == 0 || *v > max) {
		snprintf(why, XENBUS_WHY_MAX, "rate: %s not in 1..%llu", name,
			 (unsigned long long)max);
		return false;
	}
	*s = end;
	return true;
}

bool
xenbus_back_parse_rate(const char *s, uint64_t max_bytes, uint64_t max_usec,
		       struct xenbus_back_rate *rate, char why[XENBUS_WHY_MAX])
{
	struct xenbus_back_rate r;

	*rate = (struct xenbus_back_rate){ 0 };
	if (s == NULL || *s == '\0')
		return true;
	if (!parse_rate_number(&s, max_bytes, "bytes", why, &r.bytes))
		return false;
	if (*s++ != ',') {
		snprintf(why, XENBUS_WHY_MAX, "rate: not <bytes>,<usec>");
		return false;
	}
	if (!parse_rate_number(&s, max_usec, "usec", why, &r.usec))
		return false;
	if (*s != '\0') {
		snprintf(why, XENBUS_WHY_MAX, "rate: junk after <bytes>,<usec>");
		return false;
	}
	*rate = r;
	return true;
}

bool
xenbus_back_read_mcast_control(struct xa_handle *h, const char *fe_dir)
{
	return xenbus_read_feature(h, fe_dir, "request-multicast-control", 0) ==
	       1;
}
