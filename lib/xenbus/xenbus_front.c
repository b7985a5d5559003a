/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Frontend side of the vif handshake. Transitions follow Linux netfront
 * (connect on the backend's InitWait, follow it through Closing to Closed),
 * with two additions so that either end may restart: a frontend that finds
 * its backend still Connected to an earlier instance runs a close cycle
 * first, and a closed frontend whose backend is (again) ready goes back to
 * Initialising.
 */

#include <errno.h>
#include <stdio.h>

#include "xenbus_front.h"

struct xenbus_front_step
xenbus_front_next(enum xenbus_state fe, enum xenbus_state be)
{
	struct xenbus_front_step s = { fe, XENBUS_FRONT_NONE };

	switch (fe) {
	case XenbusStateInitialising:
		if (be == XenbusStateInitWait) {
			s.next = XenbusStateConnected;
			s.action = XENBUS_FRONT_CONNECT;
		} else if (be == XenbusStateConnected) {
			/* It serves rings of an earlier instance of us. */
			s.next = XenbusStateClosing;
		} else if (be == XenbusStateClosing) {
			s.next = XenbusStateClosed;
			s.action = XENBUS_FRONT_DISCONNECT;
		}
		break;
	case XenbusStateConnected:
		switch (be) {
		case XenbusStateConnected:
			s.action = XENBUS_FRONT_LINK_UP;
			break;
		case XenbusStateClosing:
		case XenbusStateClosed:
		case XenbusStateUnknown:
			/* Unknown: the backend's directory is gone or garbage. */
			s.next = XenbusStateClosed;
			s.action = XENBUS_FRONT_DISCONNECT;
			break;
		default:
			/* A restarted backend maps our rings again (as Linux's). */
			s.action = XENBUS_FRONT_LINK_DOWN;
			break;
		}
		break;
	case XenbusStateClosing:
		/* Our pages stay shared until the backend has let go of them. */
		if (be == XenbusStateClosing || be == XenbusStateClosed ||
		    be == XenbusStateUnknown) {
			s.next = XenbusStateClosed;
			s.action = XENBUS_FRONT_DISCONNECT;
		}
		break;
	case XenbusStateClosed:
		/* Reconnect: Closed -> Initialising is what backends expect. */
		if (be == XenbusStateClosed || be == XenbusStateInitialising ||
		    be == XenbusStateInitWait)
			s.next = XenbusStateInitialising;
		break;
	default:
		/* States a frontend never holds: start over. */
		s.next = XenbusStateInitialising;
		break;
	}
	return s;
}

const char *
xenbus_front_action_name(enum xenbus_front_action action)
{
	switch (action) {
	case XENBUS_FRONT_NONE:
		return "none";
	case XENBUS_FRONT_CONNECT:
		return "connect";
	case XENBUS_FRONT_LINK_UP:
		return "link up";
	case XENBUS_FRONT_LINK_DOWN:
		return "link down";
	case XENBUS_FRONT_DISCONNECT:
		return "disconnect";
	}
	return "invalid";
}

bool
xenbus_front_read_backend(struct xa_handle *h, const char *be_dir,
			  struct xenbus_front_backend *be, const char **why)
{
	unsigned long n;

	/* Page flipping is gone from every backend; copy is all we speak. */
	if (xenbus_read_feature(h, be_dir, "feature-rx-copy", 0) != 1) {
		*why = "backend does not offer feature-rx-copy=1";
		return false;
	}
	be->split_evtchn =
		xenbus_read_feature(h, be_dir, "feature-split-event-channels",
				    0) == 1;
	/* Absent or 0: a backend without multi-queue serves one queue. */
	n = xenbus_read_feature(h, be_dir, "multi-queue-max-queues", 1);
	be->max_queues = n == 0 ? 1 :
			 n > XENBUS_VIF_MAX_QUEUES ? XENBUS_VIF_MAX_QUEUES : n;
	be->csum_ipv6 = xenbus_read_feature(h, be_dir,
					    "feature-ipv6-csum-offload", 0);
	be->gso_tcpv4 = xenbus_read_feature(h, be_dir, "feature-gso-tcpv4", 0);
	be->gso_tcpv6 = xenbus_read_feature(h, be_dir, "feature-gso-tcpv6", 0);
	be->ctrl_ring = xenbus_read_feature(h, be_dir, "feature-ctrl-ring", 0);
	be->mcast_control = xenbus_read_feature(h, be_dir,
						"feature-multicast-control", 0);
	be->mcast_dynamic = be->mcast_control &&
		xenbus_read_feature(h, be_dir,
				    "feature-dynamic-multicast-control", 0);
	return true;
}

/* Remove "<dir>/<key>"; a key that is not there is fine. */
static bool
remove_key(struct xa_handle *h, xs_transaction_t t, const char *dir,
	   const char *key)
{
	char path[XENBUS_KEY_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, key);
	return xa_xs_rm(h, t, path) || errno == ENOENT;
}

/* One queue's keys in @dir; only the event channel form in use stays. */
static bool
write_queue(struct xa_handle *h, xs_transaction_t t, const char *dir,
	    const struct xenbus_front_queue *q, bool split)
{
	char path[XENBUS_KEY_PATH_MAX];

	snprintf(path, sizeof(path), "%s/tx-ring-ref", dir);
	if (!xa_xs_printf(h, t, path, "%u", q->tx_ring_ref))
		return false;
	snprintf(path, sizeof(path), "%s/rx-ring-ref", dir);
	if (!xa_xs_printf(h, t, path, "%u", q->rx_ring_ref))
		return false;
	/*
	 * Only one form of event channel keys may be present: a backend that
	 * finds stale keys of the other form from an earlier connection could
	 * bind the wrong ports.
	 */
	if (split) {
		snprintf(path, sizeof(path), "%s/event-channel-tx", dir);
		if (!xa_xs_printf(h, t, path, "%u", q->evtchn_tx))
			return false;
		snprintf(path, sizeof(path), "%s/event-channel-rx", dir);
		if (!xa_xs_printf(h, t, path, "%u", q->evtchn_rx))
			return false;
		return remove_key(h, t, dir, "event-channel");
	}
	snprintf(path, sizeof(path), "%s/event-channel", dir);
	if (!xa_xs_printf(h, t, path, "%u", q->evtchn_tx))
		return false;
	return remove_key(h, t, dir, "event-channel-tx") &&
	       remove_key(h, t, dir, "event-channel-rx");
}

/* Keys of the single-queue layout, at the top of @fe_dir. */
static bool
remove_top_queue_keys(struct xa_handle *h, xs_transaction_t t,
		      const char *fe_dir)
{
	static const char *const keys[] = {
		"tx-ring-ref", "rx-ring-ref", "event-channel",
		"event-channel-tx", "event-channel-rx",
	};
	unsigned int i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!remove_key(h, t, fe_dir, keys[i]))
			return false;
	return true;
}

static bool
write_keys(struct xa_handle *h, xs_transaction_t t, const char *fe_dir,
	   const struct xenbus_front_keys *k)
{
	const char *const features[][2] = {
		{ "request-rx-copy", "1" },
		{ "feature-rx-notify", "1" },
		{ "feature-sg", "1" },
		/* Every key either way: an earlier connection wrote its own. */
		{ "feature-no-csum-offload", k->csum_ipv4 ? "0" : "1" },
		{ "feature-ipv6-csum-offload", k->csum_ipv6 ? "1" : "0" },
		{ "feature-gso-tcpv4", k->gso_tcpv4 ? "1" : "0" },
		{ "feature-gso-tcpv6", k->gso_tcpv6 ? "1" : "0" },
		{ "request-multicast-control", k->mcast_control ? "1" : "0" },
	};
	char path[XENBUS_PATH_MAX];
	char dir[XENBUS_PATH_MAX];
	unsigned int i;

	/* The queue-<n> directories of an earlier multi-queue connection. */
	for (i = k->nb_queues == 1 ? 0 : k->nb_queues;
	     i < XENBUS_VIF_MAX_QUEUES; i++) {
		snprintf(dir, sizeof(dir), "%s/queue-%u", fe_dir, i);
		if (!xa_xs_rm(h, t, dir) && errno != ENOENT)
			return false;
	}
	if (k->nb_queues == 1) {
		if (!write_queue(h, t, fe_dir, &k->queue[0], k->split_evtchn))
			return false;
	} else {
		if (!remove_top_queue_keys(h, t, fe_dir))
			return false;
		for (i = 0; i < k->nb_queues; i++) {
			snprintf(dir, sizeof(dir), "%s/queue-%u", fe_dir, i);
			if (!write_queue(h, t, dir, &k->queue[i],
					 k->split_evtchn))
				return false;
		}
	}
	snprintf(path, sizeof(path), "%s/multi-queue-num-queues", fe_dir);
	if (!xa_xs_printf(h, t, path, "%u", k->nb_queues))
		return false;
	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", fe_dir, features[i][0]);
		if (!xa_xs_write(h, t, path, features[i][1], 1))
			return false;
	}
	/* Without a control ring, none of an earlier connection's keys. */
	if (!k->ctrl_ring)
		return remove_key(h, t, fe_dir, "ctrl-ring-ref") &&
		       remove_key(h, t, fe_dir, "event-channel-ctrl");
	snprintf(path, sizeof(path), "%s/ctrl-ring-ref", fe_dir);
	if (!xa_xs_printf(h, t, path, "%u", k->ctrl_ring_ref))
		return false;
	snprintf(path, sizeof(path), "%s/event-channel-ctrl", fe_dir);
	return xa_xs_printf(h, t, path, "%u", k->evtchn_ctrl);
}

struct write_keys {
	const char *fe_dir;
	const struct xenbus_front_keys *keys;
};

static int
write_keys_body(struct xa_handle *h, xs_transaction_t t, void *arg)
{
	const struct write_keys *wk = arg;

	return write_keys(h, t, wk->fe_dir, wk->keys) ? 1 : -1;
}

bool
xenbus_front_write_keys(struct xa_handle *h, const char *fe_dir,
			const struct xenbus_front_keys *keys)
{
	struct write_keys wk = { .fe_dir = fe_dir, .keys = keys };

	return xenbus_transact(h, write_keys_body, &wk);
}

bool
xenbus_front_request_mcast(struct xa_handle *h, const char *fe_dir, bool on)
{
	char path[XENBUS_PATH_MAX];

	snprintf(path, sizeof(path), "%s/request-multicast-control", fe_dir);
	return xa_xs_write(h, XBT_NULL, path, on ? "1" : "0", 1);
}
