/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * What the simulator's tests share: a private instance per test program
 * (xsim_instance_name_private() after the program's name, destroyed at
 * the end: TEST_MAIN's hooks xsim_test_setup and xsim_test_teardown),
 * opening a handle as a domain of it, and the fixture most cases start
 * from, one handle for each of three domains (RUN_WITH(xsim_peers, fn),
 * see test.h).
 */

#ifndef XSIM_TEST_H
#define XSIM_TEST_H

#include <stdio.h>
#include <string.h>

#include "xa.h"
#include "xsim.h"

static char xsim_test_instance[XA_SIM_INSTANCE_MAX + 1];

/* TEST_MAIN setup: name the instance; its first opener creates it. */
static inline int
xsim_test_setup(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	return xsim_instance_name_private(xsim_test_instance,
					  sizeof(xsim_test_instance),
					  slash != NULL ? slash + 1 : argv0);
}

/* TEST_MAIN teardown: remove the instance's shared memory. */
static inline void
xsim_test_teardown(void)
{
	xsim_instance_destroy(xsim_test_instance);
}

static inline struct xa_handle *
open_dom(domid_t domid)
{
	struct xa_open_args args = {
		.provider = XA_PROVIDER_SIM,
		.sim_instance = xsim_test_instance,
		.sim_domid = domid,
	};

	return xa_open(&args);
}

static inline int
usage_of(domid_t domid, struct xsim_usage *u)
{
	return xsim_domain_usage(xsim_test_instance, domid, u);
}

static inline int
usage_is_zero(domid_t domid)
{
	struct xsim_usage u;

	return usage_of(domid, &u) == 0 && u.grants == 0 && u.maps == 0 &&
		u.ports == 0 && u.watches == 0;
}

/* Domain 1 plays the frontend, domain 2 the backend, 3 a third guest. */
#define XSIM_FE 1
#define XSIM_BE 2
#define XSIM_OTHER 3

struct xsim_peers {
	struct xa_handle *fe;
	struct xa_handle *be;
	struct xa_handle *other;
};

static inline void
xsim_peers_teardown(struct xsim_peers *p)
{
	xa_close(p->fe);
	xa_close(p->be);
	xa_close(p->other);
}

static inline int
xsim_peers_setup(struct xsim_peers *p)
{
	p->fe = open_dom(XSIM_FE);
	p->be = open_dom(XSIM_BE);
	p->other = open_dom(XSIM_OTHER);
	if (p->fe == NULL || p->be == NULL || p->other == NULL) {
		xsim_peers_teardown(p);
		return -1;
	}
	return 0;
}

#endif /* XSIM_TEST_H */
