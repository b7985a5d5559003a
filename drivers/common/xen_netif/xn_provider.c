/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Choosing and logging a vdev's provider (see xn_provider.h).
 */

#include <errno.h>

#include <rte_log.h>

#include "xn_provider.h"

int
xn_provider_choose(struct xn_devargs *cfg, enum xa_role role, int logtype,
		   const char *name)
{
	char why[XA_PROVIDER_WHY_MAX];
	int ret;

	ret = xa_provider_choose(cfg->provider_asked ? &cfg->provider : NULL,
				 role, &cfg->provider, why, sizeof(why));
	if (ret != 0) {
		rte_log(RTE_LOG_ERR, logtype, "%s: cannot use Xen: %s\n", name,
			why);
		return ret;
	}
	rte_log(RTE_LOG_NOTICE, logtype, "%s: provider %s (%s)\n", name,
		xa_provider_name(cfg->provider), why);
	return 0;
}
