/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Which provider a port gets. The simulator is a hypervisor of its own, so
 * it must never stand in for a Xen that is there but cannot be used: a
 * Dom0 without gntdev would get a port that comes up and carries nothing.
 * So the default is real Xen wherever something says this is a Xen domain,
 * and the simulator only where nothing does. The signs, any one enough:
 * /sys/hypervisor/type reading "xen" (the kernel's sys-hypervisor, made in
 * every Xen domain when sysfs is mounted), /proc/xen (xenfs, loaded or
 * mounted) and /dev/xen (any Xen device). Real Xen, the default or asked
 * for, is then checked for the device files its libraries open, so that a
 * missing one fails the probe naming the device and the module to load,
 * instead of the first grant map failing later.
 *
 * XA_SYSROOT, when set, is put before every path this file reads, and only
 * here: tests fake a machine's /sys, /proc, /dev and /var/run with it.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xa_provider.h"

#define XA_SYSROOT_ENV "XA_SYSROOT"
#define XA_PATH_MAX 4096

/* A device the real provider's libraries open, and what provides it. */
struct xa_device {
	const char *path;
	const char *module;
};

static const struct xa_device evtchn = { "/dev/xen/evtchn", "xen_evtchn" };
static const struct xa_device gntdev = { "/dev/xen/gntdev", "xen_gntdev" };
static const struct xa_device gntalloc = { "/dev/xen/gntalloc",
					   "xen_gntalloc" };

/*
 * Where libxenstore 4.17's xs_open(0) connects: xenstored's socket (in
 * Dom0; $XENSTORED_RUNDIR/socket if that is set), else the kernel's xenbus
 * device (any domain; /proc/xen/xenbus is xenfs's older name for it).
 * XENSTORED_PATH, when set, is the one place it tries.
 */
#define XENSTORED_RUNDIR "/var/run/xenstored"
#define XENBUS_DEV "/dev/xen/xenbus"
#define XENBUS_PROC "/proc/xen/xenbus"

#define XA_DIM(a) (sizeof(a) / sizeof((a)[0]))

/* @path below $XA_SYSROOT into @buf; false if it does not fit. */
static bool
sys_path(char *buf, size_t size, const char *path)
{
	const char *root = getenv(XA_SYSROOT_ENV);
	int n;

	n = snprintf(buf, size, "%s%s", root != NULL ? root : "", path);
	return n >= 0 && (size_t)n < size;
}

static bool
sys_exists(const char *path)
{
	char buf[XA_PATH_MAX];

	return sys_path(buf, sizeof(buf), path) && access(buf, F_OK) == 0;
}

/* Whether /sys/hypervisor/type's one line is "xen". */
static bool
hypervisor_is_xen(void)
{
	char buf[XA_PATH_MAX], type[16];
	bool xen = false;
	FILE *f;

	if (!sys_path(buf, sizeof(buf), "/sys/hypervisor/type"))
		return false;
	f = fopen(buf, "r");
	if (f == NULL)
		return false;
	if (fgets(type, sizeof(type), f) != NULL) {
		type[strcspn(type, "\n")] = '\0';
		xen = strcmp(type, "xen") == 0;
	}
	fclose(f);
	return xen;
}

/* The first sign that this is a Xen domain, or NULL if none. */
static const char *
xen_sign(void)
{
	if (hypervisor_is_xen())
		return "/sys/hypervisor/type reads xen";
	if (sys_exists("/proc/xen"))
		return "/proc/xen exists";
	if (sys_exists("/dev/xen"))
		return "/dev/xen exists";
	return NULL;
}

enum xa_provider
xa_provider_default(void)
{
	return xen_sign() != NULL ? XA_PROVIDER_XEN : XA_PROVIDER_SIM;
}

/* xenstored's socket, where libxenstore looks for it. */
static void
xenstored_socket(char *buf, size_t size)
{
	const char *rundir = getenv("XENSTORED_RUNDIR");

	snprintf(buf, size, "%s/socket",
		 rundir != NULL ? rundir : XENSTORED_RUNDIR);
}

static bool
xenstore_reachable(void)
{
	const char *path = getenv("XENSTORED_PATH");
	char socket[XA_PATH_MAX];

	if (path != NULL)
		return sys_exists(path);
	xenstored_socket(socket, sizeof(socket));
	return sys_exists(socket) || sys_exists(XENBUS_DEV) ||
	       sys_exists(XENBUS_PROC);
}

/* Append to @why at *@len, truncating rather than overflowing. */
static void
why_add(char *why, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(why + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
}

/*
 * The devices real Xen needs for @role that are not there, listed in @why
 * after @len characters; how many.
 */
static unsigned int
missing_devices(enum xa_role role, char *why, size_t size, size_t *len)
{
	const struct xa_device *need[] = {
		role == XA_ROLE_BACKEND ? &gntdev : &gntalloc,
		&evtchn,
	};
	char socket[XA_PATH_MAX];
	unsigned int i, missing = 0;

	for (i = 0; i < XA_DIM(need); i++) {
		if (sys_exists(need[i]->path))
			continue;
		why_add(why, size, len, "%s%s (load the %s module)",
			missing++ ? ", " : "", need[i]->path, need[i]->module);
	}
	if (xenstore_reachable())
		return missing;
	xenstored_socket(socket, sizeof(socket));
	if (getenv("XENSTORED_PATH") != NULL)
		why_add(why, size, len, "%sxenstore (no XENSTORED_PATH %s)",
			missing++ ? ", " : "", getenv("XENSTORED_PATH"));
	else
		why_add(why, size, len,
			"%sxenstore (none of %s, %s, %s: start xenstored, or mount xenfs on /proc/xen)",
			missing++ ? ", " : "", socket, XENBUS_DEV, XENBUS_PROC);
	return missing;
}

int
xa_provider_choose(const enum xa_provider *asked, enum xa_role role,
		   enum xa_provider *provider, char *why, size_t size)
{
	static const char no_sign[] =
		"no /sys/hypervisor/type reading xen, no /proc/xen, no /dev/xen";
	const char *sign = xen_sign();
	size_t len = 0;

	if (asked != NULL)
		*provider = *asked;
	else
		*provider = sign != NULL ? XA_PROVIDER_XEN : XA_PROVIDER_SIM;
	if (*provider == XA_PROVIDER_SIM && asked != NULL) {
		snprintf(why, size, "asked for");
		return 0;
	}
	if (*provider == XA_PROVIDER_SIM) {
		snprintf(why, size, "nothing says this is a Xen domain: %s",
			 no_sign);
		return 0;
	}
	if (sign == NULL)
		why_add(why, size, &len,
			"not a Xen domain (%s), and real Xen needs ", no_sign);
	else
		why_add(why, size, &len,
			"a Xen domain (%s) without what real Xen needs for a %s: ",
			sign, role == XA_ROLE_BACKEND ? "backend" : "frontend");
	if (missing_devices(role, why, size, &len) > 0) {
		if (asked == NULL)
			why_add(why, size, &len,
				"; provider=sim for the simulator instead");
		return -ENODEV;
	}
	snprintf(why, size, "%s", asked != NULL ? "asked for" : sign);
	return 0;
}
