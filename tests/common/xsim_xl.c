/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * xsim-xl: what "xl create" and "xl destroy" do for a guest's vif, from
 * the shell, on a simulator instance: for scripts and demos of a backend
 * that finds its guests as they come (net_xen_netback's vifs=).
 *
 *   xsim-xl <instance> create <domid> <name>   names the domain, plugs vif 0
 *   xsim-xl <instance> destroy <domid>         unplugs vif 0, drops the name
 *
 * The vif's backend is domain 0; its MAC is 00:16:3e:00:01:<domid>.
 * Exit status 0, or 1 with a line on stderr saying why.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xsim.h"

static int
usage(void)
{
	fprintf(stderr, "usage: xsim-xl <instance> create <domid 1-63> <name>\n"
			"       xsim-xl <instance> destroy <domid 1-63>\n");
	return 1;
}

static int
failed(const char *what, domid_t domid)
{
	fprintf(stderr, "xsim-xl: %s of domain %u: %s\n", what, domid,
		strerror(errno));
	return 1;
}

int
main(int argc, char **argv)
{
	char mac[sizeof("00:16:3e:00:01:00")];
	unsigned long domid;
	char *end;

	if (argc < 4)
		return usage();
	domid = strtoul(argv[3], &end, 10);
	if (*end != '\0' || domid < 1 || domid > 63)
		return usage();
	if (strcmp(argv[2], "create") == 0 && argc == 5) {
		snprintf(mac, sizeof(mac), "00:16:3e:00:01:%02lx", domid);
		if (xsim_domain_name(argv[1], domid, argv[4]) != 0)
			return failed("naming", domid);
		if (xsim_vif_plug(argv[1], 0, domid, 0, mac) != 0)
			return failed("plugging vif 0", domid);
		return 0;
	}
	if (strcmp(argv[2], "destroy") == 0 && argc == 4) {
		if (xsim_vif_unplug(argv[1], 0, domid, 0) != 0)
			return failed("unplugging vif 0", domid);
		if (xsim_domain_name(argv[1], domid, NULL) != 0)
			return failed("removing the name", domid);
		return 0;
	}
	return usage();
}
