/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * What the simulator's tests share: a private instance per test program
 * (named after its pid, destroyed at the end) and opening a handle as a
 * domain of it.
 */

#ifndef XSIM_TEST_H
#define XSIM_TEST_H

#include <stdio.h>
#include <unistd.h>

#include "xa.h"
#include "xsim.h"

static char xsim_test_instance[64];

static void
xsim_test_init(const char *what)
{
	snprintf(xsim_test_instance, sizeof(xsim_test_instance), "test-%s-%d",
		 what, (int)getpid());
}

static struct xa_handle *
open_dom(domid_t domid)
{
	struct xa_open_args args = {
		.provider = XA_PROVIDER_SIM,
		.sim_instance = xsim_test_instance,
		.sim_domid = domid,
	};

	return xa_open(&args);
}

static int
usage_of(domid_t domid, struct xsim_usage *u)
{
	return xsim_domain_usage(xsim_test_instance, domid, u);
}

static int
usage_is_zero(domid_t domid)
{
	struct xsim_usage u;

	return usage_of(domid, &u) == 0 && u.grants == 0 && u.maps == 0 &&
		u.ports == 0 && u.watches == 0;
}

#endif /* XSIM_TEST_H */
