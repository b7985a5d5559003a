/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Which provider a port gets (xa_provider_choose()), on machines faked
 * under XA_SYSROOT. Where nothing says this is a Xen domain, the
 * simulator; where something does (/sys/hypervisor/type reading xen,
 * /proc/xen, /dev/xen), real Xen, and only with every device its role
 * opens: a backend gntdev, a frontend gntalloc, both evtchn and a way to
 * xenstore. A missing device refuses the choice, naming the device and the
 * module to load, rather than falling back to the simulator. provider=sim
 * is honoured in a Xen domain; provider=xen without Xen is refused, saying
 * this is no Xen domain.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "xa.h"
#include "xen_access/fake_root.h"

struct choice {
	int ret;
	enum xa_provider provider;
	char why[XA_PROVIDER_WHY_MAX];
};

static struct choice
choose(const char *asked, enum xa_role role)
{
	struct choice c = { .provider = XA_PROVIDER_XEN + XA_PROVIDER_SIM + 1 };
	enum xa_provider a;

	if (asked != NULL && xa_provider_parse(asked, &a) != 0)
		abort();
	c.ret = xa_provider_choose(asked != NULL ? &a : NULL, role, &c.provider,
				   c.why, sizeof(c.why));
	printf("# %s, %s: %d %s: %s\n", asked != NULL ? asked : "default",
	       role == XA_ROLE_BACKEND ? "backend" : "frontend", c.ret,
	       c.ret == 0 ? xa_provider_name(c.provider) : "-", c.why);
	return c;
}

static bool
chose(struct choice c, enum xa_provider provider, const char *why)
{
	return c.ret == 0 && c.provider == provider &&
	       strstr(c.why, why) != NULL;
}

static bool
refused(struct choice c, const char *why1, const char *why2)
{
	return c.ret == -ENODEV && strstr(c.why, why1) != NULL &&
	       (why2 == NULL || strstr(c.why, why2) != NULL);
}

static void
test_no_sign_of_xen_gives_the_simulator(struct fake_root *r)
{
	CHECK(xa_provider_default() == XA_PROVIDER_SIM);
	CHECK(chose(choose(NULL, XA_ROLE_BACKEND), XA_PROVIDER_SIM,
		    "nothing says this is a Xen domain"));
	CHECK(chose(choose(NULL, XA_ROLE_FRONTEND), XA_PROVIDER_SIM,
		    "no /sys/hypervisor/type reading xen, no /proc/xen"));
	/* Another hypervisor's type is no sign of Xen. */
	REQUIRE(fake_root_put(r, "/sys/hypervisor/type", "kvm\n"));
	CHECK(chose(choose(NULL, XA_ROLE_BACKEND), XA_PROVIDER_SIM,
		    "nothing says"));
}

static void
test_each_sign_makes_a_xen_domain(struct fake_root *r)
{
	REQUIRE(fake_root_put(r, "/sys/hypervisor/type", "xen\n"));
	CHECK(xa_provider_default() == XA_PROVIDER_XEN);
	CHECK(refused(choose(NULL, XA_ROLE_BACKEND),
		      "/sys/hypervisor/type reads xen", NULL));
	REQUIRE(fake_root_rm(r, "/sys/hypervisor/type"));
	REQUIRE(fake_root_put(r, "/proc/xen/capabilities", ""));
	CHECK(xa_provider_default() == XA_PROVIDER_XEN);
	CHECK(refused(choose(NULL, XA_ROLE_BACKEND), "/proc/xen exists", NULL));
	REQUIRE(fake_root_rm(r, "/proc/xen/capabilities") &&
		fake_root_rm(r, "/proc/xen"));
	REQUIRE(fake_root_put(r, "/dev/xen/privcmd", ""));
	CHECK(xa_provider_default() == XA_PROVIDER_XEN);
	CHECK(refused(choose(NULL, XA_ROLE_BACKEND), "/dev/xen exists", NULL));
}

static void
test_xen_domain_with_every_device_gives_xen(struct fake_root *r)
{
	REQUIRE(fake_root_xen_domain(r));
	CHECK(chose(choose(NULL, XA_ROLE_BACKEND), XA_PROVIDER_XEN,
		    "/sys/hypervisor/type reads xen"));
	CHECK(chose(choose(NULL, XA_ROLE_FRONTEND), XA_PROVIDER_XEN,
		    "/sys/hypervisor/type reads xen"));
	CHECK(chose(choose("xen", XA_ROLE_BACKEND), XA_PROVIDER_XEN,
		    "asked for"));
}

static void
test_missing_device_is_refused_naming_it_and_its_module(struct fake_root *r)
{
	struct choice c;

	REQUIRE(fake_root_xen_domain(r));
	REQUIRE(fake_root_rm(r, "/dev/xen/gntdev"));
	c = choose(NULL, XA_ROLE_BACKEND);
	CHECK(refused(c, "/dev/xen/gntdev (load the xen_gntdev module)",
		      "provider=sim"));
	CHECK(strstr(c.why, "evtchn") == NULL);
	REQUIRE(fake_root_rm(r, "/dev/xen/evtchn"));
	c = choose(NULL, XA_ROLE_BACKEND);
	CHECK(refused(c, "/dev/xen/gntdev (load the xen_gntdev module)",
		      "/dev/xen/evtchn (load the xen_evtchn module)"));
	/* Asked for, real Xen is refused the same, without the hint. */
	c = choose("xen", XA_ROLE_BACKEND);
	CHECK(refused(c, "/dev/xen/gntdev (load the xen_gntdev module)",
		      "/dev/xen/evtchn (load the xen_evtchn module)"));
	CHECK(strstr(c.why, "provider=sim") == NULL);
}

static void
test_backend_needs_gntdev_and_frontend_gntalloc(struct fake_root *r)
{
	REQUIRE(fake_root_xen_domain(r));
	REQUIRE(fake_root_rm(r, "/dev/xen/gntalloc"));
	CHECK(chose(choose(NULL, XA_ROLE_BACKEND), XA_PROVIDER_XEN, "xen"));
	CHECK(refused(choose(NULL, XA_ROLE_FRONTEND),
		      "/dev/xen/gntalloc (load the xen_gntalloc module)",
		      "for a frontend"));
	REQUIRE(fake_root_put(r, "/dev/xen/gntalloc", "") &&
		fake_root_rm(r, "/dev/xen/gntdev"));
	CHECK(chose(choose(NULL, XA_ROLE_FRONTEND), XA_PROVIDER_XEN, "xen"));
	CHECK(refused(choose(NULL, XA_ROLE_BACKEND),
		      "/dev/xen/gntdev (load the xen_gntdev module)",
		      "for a backend"));
}

static void
test_xenstore_is_reached_by_any_of_its_paths(struct fake_root *r)
{
	REQUIRE(fake_root_xen_domain(r));
	REQUIRE(fake_root_rm(r, "/dev/xen/xenbus"));
	CHECK(refused(choose(NULL, XA_ROLE_BACKEND), "xenstore (none of",
		      "/var/run/xenstored/socket"));
	REQUIRE(fake_root_put(r, "/var/run/xenstored/socket", ""));
	CHECK(chose(choose(NULL, XA_ROLE_BACKEND), XA_PROVIDER_XEN, "xen"));
	REQUIRE(fake_root_rm(r, "/var/run/xenstored/socket"));
	REQUIRE(fake_root_put(r, "/proc/xen/xenbus", ""));
	CHECK(chose(choose(NULL, XA_ROLE_BACKEND), XA_PROVIDER_XEN, "xen"));
	/* XENSTORED_PATH is the one place libxenstore tries. */
	REQUIRE(setenv("XENSTORED_PATH", "/elsewhere/xs", 1) == 0);
	CHECK(refused(choose(NULL, XA_ROLE_BACKEND),
		      "xenstore (no XENSTORED_PATH /elsewhere/xs)", NULL));
	REQUIRE(fake_root_put(r, "/elsewhere/xs", ""));
	CHECK(chose(choose(NULL, XA_ROLE_BACKEND), XA_PROVIDER_XEN, "xen"));
}

static void
test_sim_asked_for_in_a_xen_domain_gives_sim(struct fake_root *r)
{
	REQUIRE(fake_root_put(r, "/sys/hypervisor/type", "xen\n"));
	CHECK(chose(choose("sim", XA_ROLE_BACKEND), XA_PROVIDER_SIM,
		    "asked for"));
	CHECK(chose(choose("sim", XA_ROLE_FRONTEND), XA_PROVIDER_SIM,
		    "asked for"));
}

static void
test_xen_asked_for_without_xen_is_refused(struct fake_root *r)
{
	struct choice c = choose("xen", XA_ROLE_FRONTEND);

	(void)r;
	CHECK(refused(c, "not a Xen domain",
		      "/dev/xen/gntalloc (load the xen_gntalloc module)"));
	CHECK(strstr(c.why, "/dev/xen/evtchn (load the xen_evtchn module)") !=
	      NULL);
	CHECK(strstr(c.why, "xenstore") != NULL);
	CHECK(strstr(c.why, "provider=sim") == NULL);
}

TEST_MAIN(NULL, NULL)
{
	RUN_WITH(fake_root, test_no_sign_of_xen_gives_the_simulator);
	RUN_WITH(fake_root, test_each_sign_makes_a_xen_domain);
	RUN_WITH(fake_root, test_xen_domain_with_every_device_gives_xen);
	RUN_WITH(fake_root,
		 test_missing_device_is_refused_naming_it_and_its_module);
	RUN_WITH(fake_root, test_backend_needs_gntdev_and_frontend_gntalloc);
	RUN_WITH(fake_root, test_xenstore_is_reached_by_any_of_its_paths);
	RUN_WITH(fake_root, test_sim_asked_for_in_a_xen_domain_gives_sim);
	RUN_WITH(fake_root, test_xen_asked_for_without_xen_is_refused);
}
