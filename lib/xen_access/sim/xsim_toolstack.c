/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The toolstack of the simulated hypervisor: what xl/libxl do for a vif
 * (the frontend and backend xenstore directories with libxl's keys and
 * permissions) and a per-domain account of what a domain holds, for leak
 * checks. Everything here acts with dom0's privilege. Layer 4 (see
 * xsim_shm.h): calls the domains' lifecycle, the services and the segment.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include <xen/io/xenbus.h>

#include "xsim_toolstack.h"

struct xsim_toolstack {
	struct xsim_attach *at;
	int send_fd;		/* the socket watch doorbells leave from */
};

static int
xsim_toolstack_begin(struct xsim_toolstack *ts, const char *instance)
{
	ts->at = xsim_instance_attach(instance);
	if (ts->at == NULL)
		return -1;
	ts->send_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (ts->send_fd < 0) {
		int err = errno;

		xsim_detach(ts->at);
		errno = err;
		return -1;
	}
	xsim_lock(ts->at->sh);
	xsim_reap_dead(ts->at);
	return 0;
}

static int
xsim_toolstack_end(struct xsim_toolstack *ts, int rc)
{
	int err = errno;

	xsim_unlock(ts->at->sh);
	close(ts->send_fd);
	xsim_detach(ts->at);
	errno = err;
	return rc;
}

static int
xsim_toolstack_write(struct xsim_toolstack *ts, const char *dir,
		     const char *key, const char *fmt, ...)
{
	char path[XSIM_XS_PATH_MAX + 1];
	char value[XSIM_XS_VALUE_MAX + 1];
	va_list ap;
	int n;

	snprintf(path, sizeof(path), "%s/%s", dir, key);
	va_start(ap, fmt);
	n = vsnprintf(value, sizeof(value), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(value)) {
		errno = E2BIG;
		return -1;
	}
	return xsim_xs_write_locked(ts->at->sh, ts->send_fd, 0, path, value, n);
}

/* A directory owned by @owner that @reader may read, as libxl makes it. */
static int
xsim_toolstack_mkdir(struct xsim_toolstack *ts, const char *dir,
		     domid_t owner, domid_t reader)
{
	struct xs_permissions perms[2] = {
		{ .id = owner, .perms = XS_PERM_NONE },
		{ .id = reader, .perms = XS_PERM_READ },
	};

	if (xsim_xs_write_locked(ts->at->sh, ts->send_fd, 0, dir, "", 0) < 0)
		return -1;
	return xsim_xs_set_perms_locked(ts->at->sh, ts->send_fd, 0, dir,
					perms, 2);
}

static bool
xsim_mac_valid(const char *mac)
{
	unsigned int b[6];
	char end;

	return mac != NULL &&
		sscanf(mac, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2],
		       &b[3], &b[4], &b[5], &end) == 6;
}

int
xsim_vif_plug(const char *instance, domid_t backend, domid_t frontend,
	      unsigned int handle, const char *mac)
{
	char be_dir[XSIM_XS_PATH_MAX + 1], fe_dir[XSIM_XS_PATH_MAX + 1];
	char fe_home[sizeof("/local/domain/65535")];
	char name[XSIM_XS_PATH_MAX + 1];
	struct xsim_toolstack ts;
	struct xsim_shared *sh;
	bool fe_existed;
	int err;

	if (backend >= XSIM_MAX_DOMAINS || frontend >= XSIM_MAX_DOMAINS ||
	    !xsim_mac_valid(mac)) {
		errno = EINVAL;
		return -1;
	}
	if (xsim_toolstack_begin(&ts, instance) < 0)
		return -1;
	sh = ts.at->sh;
	snprintf(be_dir, sizeof(be_dir), "/local/domain/%u/backend/vif/%u/%u",
		 backend, frontend, handle);
	snprintf(fe_home, sizeof(fe_home), "/local/domain/%u", frontend);
	snprintf(fe_dir, sizeof(fe_dir), "/local/domain/%u/device/vif/%u",
		 frontend, handle);
	if (xsim_domain_register(ts.at, ts.send_fd, backend) < 0 ||
	    xsim_domain_register(ts.at, ts.send_fd, frontend) < 0)
		return xsim_toolstack_end(&ts, -1);
	if (xsim_xs_exists(sh, be_dir))
		return xsim_toolstack_end(&ts, 0);
	fe_existed = xsim_xs_exists(sh, fe_dir);

	snprintf(name, sizeof(name), "%s/name", fe_home);
	if (xsim_toolstack_write(&ts, fe_home, "domid", "%u", frontend) < 0 ||
	    (!xsim_xs_exists(sh, name) &&
	     xsim_toolstack_write(&ts, fe_home, "name", "xsim-guest-%u",
				  frontend) < 0) ||
	    xsim_toolstack_mkdir(&ts, fe_dir, frontend, backend) < 0 ||
	    xsim_toolstack_write(&ts, fe_dir, "backend", "%s", be_dir) < 0 ||
	    xsim_toolstack_write(&ts, fe_dir, "backend-id", "%u", backend) < 0 ||
	    xsim_toolstack_write(&ts, fe_dir, "state", "%d",
				 XenbusStateInitialising) < 0 ||
	    xsim_toolstack_write(&ts, fe_dir, "handle", "%u", handle) < 0 ||
	    xsim_toolstack_write(&ts, fe_dir, "mac", "%s", mac) < 0 ||
	    xsim_toolstack_write(&ts, fe_dir, "mtu", "1500") < 0 ||
	    xsim_toolstack_write(&ts, fe_dir, "trusted", "1") < 0 ||
	    xsim_toolstack_mkdir(&ts, be_dir, backend, frontend) < 0 ||
	    xsim_toolstack_write(&ts, be_dir, "frontend", "%s", fe_dir) < 0 ||
	    xsim_toolstack_write(&ts, be_dir, "frontend-id", "%u",
				 frontend) < 0 ||
	    xsim_toolstack_write(&ts, be_dir, "online", "1") < 0 ||
	    xsim_toolstack_write(&ts, be_dir, "state", "%d",
				 XenbusStateInitialising) < 0 ||
	    xsim_toolstack_write(&ts, be_dir, "script", "%s", "") < 0 ||
	    xsim_toolstack_write(&ts, be_dir, "mac", "%s", mac) < 0 ||
	    xsim_toolstack_write(&ts, be_dir, "handle", "%u", handle) < 0 ||
	    xsim_toolstack_write(&ts, be_dir, "type", "vif") < 0 ||
	    /* No hotplug script runs in the simulator: report it done. */
	    xsim_toolstack_write(&ts, be_dir, "hotplug-status",
				 "connected") < 0) {
		/*
		 * A write failed (xenstore is full): leave no half-made vif,
		 * which a backend would take for a device and a later plug
		 * for one in use.
		 */
		err = errno;
		xsim_xs_rm_locked(sh, ts.send_fd, 0, be_dir);
		if (!fe_existed)
			xsim_xs_rm_locked(sh, ts.send_fd, 0, fe_dir);
		errno = err;
		return xsim_toolstack_end(&ts, -1);
	}
	return xsim_toolstack_end(&ts, 0);
}

int
xsim_toolstack_plug_vif(const char *instance, domid_t backend,
			domid_t frontend, uint16_t handle)
{
	char mac[sizeof("00:16:3e:00:00:00")];

	snprintf(mac, sizeof(mac), "00:16:3e:%02x:%02x:%02x", frontend & 0xff,
		 handle >> 8, handle & 0xff);
	return xsim_vif_plug(instance, backend, frontend, handle, mac);
}

int
xsim_vif_unplug(const char *instance, domid_t backend, domid_t frontend,
		unsigned int handle)
{
	char be_dir[XSIM_XS_PATH_MAX + 1], fe_dir[XSIM_XS_PATH_MAX + 1];
	struct xsim_toolstack ts;

	if (backend >= XSIM_MAX_DOMAINS || frontend >= XSIM_MAX_DOMAINS) {
		errno = EINVAL;
		return -1;
	}
	if (xsim_toolstack_begin(&ts, instance) < 0)
		return -1;
	snprintf(be_dir, sizeof(be_dir), "/local/domain/%u/backend/vif/%u/%u",
		 backend, frontend, handle);
	snprintf(fe_dir, sizeof(fe_dir), "/local/domain/%u/device/vif/%u",
		 frontend, handle);
	/* A vif already gone, or never plugged, is detached. */
	if ((xsim_xs_rm_locked(ts.at->sh, ts.send_fd, 0, be_dir) < 0 &&
	     errno != ENOENT) ||
	    (xsim_xs_rm_locked(ts.at->sh, ts.send_fd, 0, fe_dir) < 0 &&
	     errno != ENOENT))
		return xsim_toolstack_end(&ts, -1);
	return xsim_toolstack_end(&ts, 0);
}

int
xsim_domain_name(const char *instance, domid_t domid, const char *name)
{
	char dir[sizeof("/local/domain/65535")], path[XSIM_XS_PATH_MAX + 1];
	struct xsim_toolstack ts;
	int rc;

	if (domid >= XSIM_MAX_DOMAINS) {
		errno = EINVAL;
		return -1;
	}
	if (xsim_toolstack_begin(&ts, instance) < 0)
		return -1;
	snprintf(dir, sizeof(dir), "/local/domain/%u", domid);
	snprintf(path, sizeof(path), "%s/name", dir);
	if (xsim_domain_register(ts.at, ts.send_fd, domid) < 0) {
		rc = -1;
	} else if (name == NULL) {
		rc = xsim_xs_rm_locked(ts.at->sh, ts.send_fd, 0, path);
		if (rc < 0 && errno == ENOENT)
			rc = 0;
	} else {
		rc = xsim_toolstack_write(&ts, dir, "name", "%s", name);
	}
	return xsim_toolstack_end(&ts, rc);
}

int
xsim_gntalloc_limit(const char *instance, domid_t domid, uint32_t limit)
{
	struct xsim_toolstack ts;
	int rc;

	if (domid >= XSIM_MAX_DOMAINS) {
		errno = EINVAL;
		return -1;
	}
	if (xsim_toolstack_begin(&ts, instance) < 0)
		return -1;
	rc = xsim_gntalloc_set_locked(ts.at->sh, domid, limit, true);
	return xsim_toolstack_end(&ts, rc);
}

int
xsim_evtchn_storm(const char *instance, domid_t domid, evtchn_port_t port,
		  bool on)
{
	struct xsim_toolstack ts;

	if (domid >= XSIM_MAX_DOMAINS) {
		errno = EINVAL;
		return -1;
	}
	if (xsim_toolstack_begin(&ts, instance) < 0)
		return -1;
	return xsim_toolstack_end(&ts, xsim_evtchn_set_storm(ts.at->sh, domid,
							   port, on));
}

int
xsim_domain_usage(const char *instance, domid_t domid,
		  struct xsim_usage *usage)
{
	struct xsim_toolstack ts;

	if (domid >= XSIM_MAX_DOMAINS || usage == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (xsim_toolstack_begin(&ts, instance) < 0)
		return -1;
	*usage = (struct xsim_usage){ 0 };
	xsim_gnt_usage(ts.at->sh, domid, usage);
	xsim_evtchn_usage(ts.at->sh, domid, usage);
	xsim_xs_usage(ts.at->sh, domid, usage);
	return xsim_toolstack_end(&ts, 0);
}
