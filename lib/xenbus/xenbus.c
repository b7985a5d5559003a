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
xenbus_abort(struct xa_handle *h, xs_transaction_t t)
{
	int err = errno;

	xa_xs_transaction_end(h, t, true);
	errno = err;
	return false;
}

/*
 * One transaction reads the key and writes it only if it is there and
 * differs, as Linux's xenbus_switch_state() does. A write fires the
 * peer's watches, so the same state is not written again. And once the
 * toolstack has removed the device's directory (a vif unplugged, a
 * domain destroyed), a late step of ours must not create it again: the
 * leftover "state" would make the vif of the next domain given this
 * domid look already in use.
 *
 * One attempt; false with errno EAGAIN when xenstore asks for another.
 */
static bool
switch_state_once(struct xa_handle *h, const char *path, const char *want)
{
	xs_transaction_t t = xa_xs_transaction_start(h);
	unsigned int len;
	bool write;
	char *now;

	if (t == XBT_NULL)
		return false;
	now = xa_xs_read(h, t, path, &len);
	if (now == NULL && errno != ENOENT)
		return xenbus_abort(h, t);
	write = now != NULL && strcmp(now, want) != 0;
	free(now);
	if (!write) {
		xa_xs_transaction_end(h, t, true);
		return true;
	}
	if (!xa_xs_write(h, t, path, want, strlen(want)))
		return xenbus_abort(h, t);
	return xa_xs_transaction_end(h, t, false);
}

bool
xenbus_switch_state(struct xa_handle *h, const char *dir,
		    enum xenbus_state state)
{
	char path[XENBUS_PATH_MAX], want[4];

	snprintf(path, sizeof(path), "%s/state", dir);
	snprintf(want, sizeof(want), "%d", (int)state);
	while (!switch_state_once(h, path, want))
		if (errno != EAGAIN)
			return false;
	return true;
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
