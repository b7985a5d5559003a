/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * For the fuzz targets that run on the simulated hypervisor: an instance
 * of the process's own, removed at exit, with a handle for domain 0 and
 * one for a guest domain.
 */

#ifndef FUZZ_SIM_H
#define FUZZ_SIM_H

#include <stdio.h>
#include <stdlib.h>

#include "xa.h"
#include "xsim.h"

static char fuzz_sim_instance[XA_SIM_INSTANCE_MAX + 1];

static void
fuzz_sim_remove(void)
{
	xsim_instance_destroy(fuzz_sim_instance);
}

/*
 * Open a private instance ("fuzz-@tag-<pid>-<ns>") as domains 0 and
 * @guest; aborts on failure.
 */
static inline void
fuzz_sim_open(const char *tag, domid_t guest, struct xa_handle **dom0,
	      struct xa_handle **domu)
{
	struct xa_open_args args = { .provider = XA_PROVIDER_SIM };
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "fuzz-%s", tag);
	if (xsim_instance_name_private(fuzz_sim_instance,
				       sizeof(fuzz_sim_instance), prefix) != 0)
		abort();
	args.sim_instance = fuzz_sim_instance;
	*dom0 = xa_open(&args);
	args.sim_domid = guest;
	*domu = xa_open(&args);
	if (*dom0 == NULL || *domu == NULL)
		abort();
	atexit(fuzz_sim_remove);
}

#endif /* FUZZ_SIM_H */
