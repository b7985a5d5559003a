/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Reading and publishing xenbus states and feature keys, with everything
 * read from the peer treated as untrusted text.
 */

#include <errno.h>
#include <stdio.h>

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
xenbus_switch_state(struct xa_handle *h, const char *dir,
		    enum xenbus_state state)
{
	char path[XENBUS_PATH_MAX];

	snprintf(path, sizeof(path), "%s/state", dir);
	return xa_xs_printf(h, XBT_NULL, path, "%d", (int)state);
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
