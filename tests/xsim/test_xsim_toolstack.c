/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The simulator playing xl behind xa_open(): a handle opened with
 * sim_plug_vif makes the vif exist as libxl would, with libxl's keys and
 * permissions, before the backend looks; it leaves a vif already in use
 * alone; it refuses a frontend that cannot be a domain before doing
 * anything; a plug that runs out of xenstore fails the open and leaves no
 * half-made vif; and the real-Xen provider, where the toolstack is xl
 * itself, refuses the option. Domain 0 is the privileged reader that checks
 * what exists; the others are unprivileged guests.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "xsim_test.h"

#define BACKEND 3	/* a driver domain, unprivileged like a guest */
#define FRONTEND 5
#define BYSTANDER 7	/* neither end of any vif */
#define HANDLE 0x0102
/* 00:16:3e, then the frontend's low byte and the handle's two bytes. */
#define MAC "00:16:3e:05:01:02"

static struct xa_handle *
open_plugging(domid_t self, domid_t frontend, uint16_t handle)
{
	struct xa_open_args args = {
		.provider = XA_PROVIDER_SIM,
		.sim_instance = xsim_test_instance,
		.sim_domid = self,
		.sim_plug_vif = true,
		.sim_vif_frontend = frontend,
		.sim_vif_handle = handle,
	};

	return xa_open(&args);
}

static bool
value_is(struct xa_handle *h, const char *path, const char *expect)
{
	unsigned int len;
	char *v = xa_xs_read(h, XBT_NULL, path, &len);
	bool ok = v != NULL && len == strlen(expect) && strcmp(v, expect) == 0;

	if (!ok)
		fprintf(stderr, "%s: \"%s\", expected \"%s\"\n", path,
			v != NULL ? v : strerror(errno), expect);
	free(v);
	return ok;
}

static bool
read_fails(struct xa_handle *h, const char *path, int err)
{
	unsigned int len;
	char *v;

	errno = 0;
	v = xa_xs_read(h, XBT_NULL, path, &len);
	free(v);
	return v == NULL && errno == err;
}

static bool
write_str(struct xa_handle *h, const char *path, const char *value)
{
	return xa_xs_write(h, XBT_NULL, path, value, strlen(value));
}

static bool
write_fails(struct xa_handle *h, const char *path, int err)
{
	errno = 0;
	return !write_str(h, path, "x") && errno == err;
}

static void
vif_dirs(domid_t backend, domid_t frontend, unsigned int handle,
	 char *be, char *fe, size_t size)
{
	snprintf(be, size, "/local/domain/%u/backend/vif/%u/%u", backend,
		 frontend, handle);
	snprintf(fe, size, "/local/domain/%u/device/vif/%u", frontend, handle);
}

static void
test_open_with_plug_vif_writes_what_libxl_writes(void)
{
	struct xa_handle *b = open_plugging(BACKEND, FRONTEND, HANDLE);
	struct xa_handle *f = open_dom(FRONTEND), *o = open_dom(BYSTANDER);
	char be[128], fe[128], path[192];

	REQUIRE(b != NULL && f != NULL && o != NULL);
	vif_dirs(BACKEND, FRONTEND, HANDLE, be, fe, sizeof(be));
	/* Each key read through both ends: the other end may read it. */
#define FE_KEY(k, v) do { \
	snprintf(path, sizeof(path), "%s/%s", fe, k); \
	CHECK(value_is(f, path, v)); \
	CHECK(value_is(b, path, v)); \
} while (0)
#define BE_KEY(k, v) do { \
	snprintf(path, sizeof(path), "%s/%s", be, k); \
	CHECK(value_is(b, path, v)); \
	CHECK(value_is(f, path, v)); \
} while (0)
	FE_KEY("backend", be);
	FE_KEY("backend-id", "3");
	FE_KEY("state", "1");
	FE_KEY("handle", "258");
	FE_KEY("mac", MAC);
	FE_KEY("mtu", "1500");
	BE_KEY("frontend", fe);
	BE_KEY("frontend-id", "5");
	BE_KEY("state", "1");
	BE_KEY("handle", "258");
	BE_KEY("mac", MAC);
	BE_KEY("online", "1");
#undef FE_KEY
#undef BE_KEY
	CHECK(value_is(f, "name", "xsim-guest-5"));

	/* Each end owns its directory: it writes there, the other cannot. */
	snprintf(path, sizeof(path), "%s/state", be);
	CHECK(write_fails(f, path, EACCES));
	snprintf(path, sizeof(path), "%s/feature-rx-copy", be);
	CHECK(write_fails(f, path, EACCES));
	CHECK(write_str(b, "backend/vif/5/258/state", "2"));
	snprintf(path, sizeof(path), "%s/state", fe);
	CHECK(write_fails(b, path, EACCES));
	CHECK(write_str(f, "device/vif/258/state", "3"));
	/* And only the two ends may read it. */
	CHECK(read_fails(o, fe, EACCES));
	CHECK(read_fails(o, be, EACCES));

	xa_close(o);
	xa_close(f);
	xa_close(b);
	CHECK(xsim_vif_unplug(xsim_test_instance, BACKEND, FRONTEND,
			      HANDLE) == 0);
}

static void
test_open_without_plug_vif_plugs_nothing(void)
{
	struct xa_handle *b = open_dom(BYSTANDER), *dom0 = open_dom(0);

	REQUIRE(b != NULL && dom0 != NULL);
	CHECK(read_fails(dom0, "/local/domain/7/backend", ENOENT));
	xa_close(b);
	xa_close(dom0);
}

static void
test_second_open_leaves_vif_in_use_alone(void)
{
	struct xa_handle *b = open_plugging(BACKEND, FRONTEND, 0);
	struct xa_handle *f = open_dom(FRONTEND), *again;

	REQUIRE(b != NULL && f != NULL);
	REQUIRE(write_str(b, "backend/vif/5/0/state", "2"));
	REQUIRE(write_str(f, "device/vif/0/state", "4"));
	REQUIRE(xa_xs_rm(b, XBT_NULL, "backend/vif/5/0/hotplug-status"));

	again = open_plugging(BACKEND, FRONTEND, 0);
	CHECK(again != NULL);
	CHECK(value_is(b, "backend/vif/5/0/state", "2"));
	CHECK(value_is(f, "device/vif/0/state", "4"));
	CHECK(read_fails(b, "backend/vif/5/0/hotplug-status", ENOENT));
	xa_close(again);

	/* The vif outlives the handles, as under xl it outlives a backend. */
	xa_close(b);
	CHECK(value_is(f, "/local/domain/3/backend/vif/5/0/state", "2"));
	xa_close(f);
	CHECK(xsim_vif_unplug(xsim_test_instance, BACKEND, FRONTEND, 0) == 0);
}

static void
test_out_of_range_frontend_is_einval_and_leaves_nothing(void)
{
	static const domid_t bad[] = { DOMID_FIRST_RESERVED, DOMID_INVALID };
	const domid_t backend = 9;	/* never opened before */
	struct xa_handle *dom0 = open_dom(0), *h;
	char path[64];
	unsigned int i;

	REQUIRE(dom0 != NULL);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		h = open_plugging(backend, bad[i], 0);
		CHECK(h == NULL && errno == EINVAL);
		xa_close(h);
		snprintf(path, sizeof(path), "/local/domain/%u", bad[i]);
		CHECK(read_fails(dom0, path, ENOENT));
	}
	/* Refused before the backend's domain was even made. */
	CHECK(read_fails(dom0, "/local/domain/9", ENOENT));
	CHECK(usage_is_zero(backend));
	xa_close(dom0);
}

/*
 * Enough free nodes for the frontend's directory and the backend's
 * directory itself, not for the backend's keys: the plug fails after both
 * directories exist.
 */
#define FREE_NODES 15

static void
test_plug_failing_halfway_fails_open_and_leaves_no_vif(void)
{
	const domid_t backend = 10, frontend = 6;
	struct xa_handle *dom0 = open_dom(0), *f = open_dom(frontend);
	struct xa_handle *b = open_dom(backend), *h;
	char be[128], fe[128], path[192];
	unsigned int n, i;

	REQUIRE(dom0 != NULL && f != NULL && b != NULL);
	xa_close(b);
	vif_dirs(backend, frontend, 0, be, fe, sizeof(be));
	for (n = 0;; n++) {
		snprintf(path, sizeof(path), "/filler/%u", n);
		if (!write_str(dom0, path, ""))
			break;
	}
	REQUIRE(errno == ENOSPC && n > FREE_NODES);
	for (i = n - FREE_NODES; i < n; i++) {
		snprintf(path, sizeof(path), "/filler/%u", i);
		REQUIRE(xa_xs_rm(dom0, XBT_NULL, path));
	}

	/* More times than the simulator has handle slots: none is kept. */
	for (i = 0; i < 200; i++) {
		errno = 0;
		h = open_plugging(backend, frontend, 0);
		CHECK(h == NULL && errno == ENOSPC);
		xa_close(h);
	}
	CHECK(read_fails(dom0, fe, ENOENT));
	CHECK(read_fails(dom0, be, ENOENT));
	CHECK(usage_is_zero(backend));

	/* With room again, the plug is whole: nothing half-made stopped it. */
	REQUIRE(xa_xs_rm(dom0, XBT_NULL, "/filler"));
	h = open_plugging(backend, frontend, 0);
	CHECK(h != NULL);
	snprintf(path, sizeof(path), "%s/hotplug-status", be);
	CHECK(value_is(dom0, path, "connected"));
	snprintf(path, sizeof(path), "%s/mac", fe);
	CHECK(value_is(f, path, "00:16:3e:06:00:00"));
	xa_close(h);
	xa_close(f);
	xa_close(dom0);
	CHECK(xsim_vif_unplug(xsim_test_instance, backend, frontend, 0) == 0);
}

static void
test_xen_provider_refuses_plug_vif(void)
{
	struct xa_open_args args = {
		.provider = XA_PROVIDER_XEN,
		.sim_plug_vif = true,
		.sim_vif_frontend = FRONTEND,
		.sim_vif_handle = 0,
	};
	struct xa_handle *h;

	/*
	 * EINVAL, not what opening /dev/xen/evtchn gives (ENOENT where
	 * there is no Xen), because the option is refused first.
	 */
	errno = 0;
	h = xa_open(&args);
	CHECK(h == NULL && errno == EINVAL);
	xa_close(h);
}

TEST_MAIN(xsim_test_setup, xsim_test_teardown)
{
	RUN(test_open_with_plug_vif_writes_what_libxl_writes);
	RUN(test_open_without_plug_vif_plugs_nothing);
	RUN(test_second_open_leaves_vif_in_use_alone);
	RUN(test_out_of_range_frontend_is_einval_and_leaves_nothing);
	RUN(test_plug_failing_halfway_fails_open_and_leaves_no_vif);
	RUN(test_xen_provider_refuses_plug_vif);
}
