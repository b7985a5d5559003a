/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Reading and publishing xenbus states and feature keys, with everything
 * read from the peer treated as untrusted text.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xenbus.h"

static const char *const state_names[] = {
	[XenbusStateUnknown] = "Unknown",
	[XenbusStateInitialising] = "Initialising",
	[XenbusStateInitWait] = "InitWait",
	[XenbusStateInitialised] = "Initialised",
	[XenbusStateConnected] = "Connected",
	[XenbusStateClosing] = "Closing",
	[XenbusStateClosed] = "Closed",
	[XenbusStateReconfiguring] = "Reconfiguring",
	[XenbusStateReconfigured] = "Reconfigured",
};

const char *
xenbus_state_name(enum xenbus_state state)
{
	if ((unsigned int)state >= sizeof(state_names) / sizeof(state_names[0]))
		return "Invalid";
	return state_names[state];
}

enum xenbus_state
xenbus_read_state(struct xa_handle *h, const char *dir)
{
	char path[XENBUS_PATH_MAX];
	unsigned long v;

	snprintf(path, sizeof(path), "%s/state", dir);
	if (!xa_xs_read_uint(h, XBT_NULL, path, &v) ||
	    v > XenbusStateReconfigured)
		return XenbusStateUnknown;
	return (enum xenbus_state)v;
}

bool
xenbus_transact(struct xa_handle *h, xenbus_tx_body body, void *arg)
{
	for (;;) {
		xs_transaction_t t = xa_xs_transaction_start(h);
		int done, err;

		if (t == XBT_NULL)
			return false;
		done = body(h, t, arg);
		if (done <= 0) {
			/* The abort must not clobber the failed call's errno. */
			err = errno;
			xa_xs_transaction_end(h, t, true);
			errno = err;
			return done == 0;
		}
		if (xa_xs_transaction_end(h, t, false))
			return true;
		if (errno != EAGAIN)
			return false;
	}
}

struct switch_state {
	char path[XENBUS_PATH_MAX];
	char want[4];
};

/*
 * The transaction reads the key and writes it only if it is there and
 * differs, as Linux's xenbus_switch_state() does. A write fires the
 * peer's watches, so the same state is not written again. And once the
 * toolstack has removed the device's directory (a vif unplugged, a
 * domain destroyed), a late step of ours must not create it again: the
 * leftover "state" would make the vif of the next domain given this
 * domid look already in use.
 */
static int
switch_state_body(struct xa_handle *h, xs_transaction_t t, void *arg)
{
	const struct switch_state *ss = arg;
	unsigned int len;
	bool write;
	char *now;

	now = xa_xs_read(h, t, ss->path, &len);
	if (now == NULL && errno != ENOENT)
		return -1;
	write = now != NULL && strcmp(now, ss->want) != 0;
	free(now);
	if (!write)
		return 0;
	return xa_xs_write(h, t, ss->path, ss->want, strlen(ss->want)) ? 1 : -1;
}

bool
xenbus_switch_state(struct xa_handle *h, const char *dir,
		    enum xenbus_state state)
{
	struct switch_state ss;

	snprintf(ss.path, sizeof(ss.path), "%s/state", dir);
	snprintf(ss.want, sizeof(ss.want), "%d", (int)state);
	return xenbus_transact(h, switch_state_body, &ss);
}

unsigned long
xenbus_read_feature(struct xa_handle *h, const char *dir, const char *key,
		    unsigned long def)
{
	char path[XENBUS_PATH_MAX];
	unsigned long v;

	snprintf(path, sizeof(path), "%s/%s", dir, key);
	return xa_xs_read_uint(h, XBT_NULL, path, &v) ? v : def;
}

bool
xenbus_vif_read_mtu(struct xa_handle *h, const char *fe_dir, unsigned int min,
		    unsigned int max, unsigned int *mtu)
{
	char path[XENBUS_KEY_PATH_MAX];
	unsigned long v;

	*mtu = XENBUS_VIF_DEFAULT_MTU;
	snprintf(path, sizeof(path), "%s/mtu", fe_dir);
	if (!xa_xs_read_uint(h, XBT_NULL, path, &v))
		return errno == ENOENT;
	if (v < min || v > max)
		return false;
	*mtu = v;
	return true;
}
