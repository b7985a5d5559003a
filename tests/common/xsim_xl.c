/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * xsim-xl: what "xl create" and "xl destroy" do for a guest's vif, and
 * what xenstore-read, -write and -rm do in domain 0, from the shell, on a
 * simulator instance: for scripts and demos of a backend that finds its
 * guests as they come (net_xen_netback's vifs=), and for the hotplug
 * scripts of config/xen.
 *
 *   xsim-xl <instance> create <domid> <name> [<bridge>]
 *                                      names the domain, plugs vif 0 (with
 *                                      the bridge key xl writes for bridge=)
 *   xsim-xl <instance> destroy <domid> unplugs vif 0, drops the name
 *   xsim-xl <instance> read <path>     prints the value
 *   xsim-xl <instance> write <path> <value>
 *   xsim-xl <instance> rm <path>
 *
 * The vif's backend is domain 0; its MAC is 00:16:3e:00:01:<domid>. A
 * path not beginning with '/' is domain 0's (/local/domain/0/<path>), as
 * for xenstore-read. Exit status 0, or 1 with a line on stderr saying why.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xa.h"
#include "xsim.h"

static int
usage(void)
{
	fprintf(stderr, "usage: xsim-xl <instance> create <domid 1-63> <name> [<bridge>]\n"
			"       xsim-xl <instance> destroy <domid 1-63>\n"
			"       xsim-xl <instance> read|rm <path>\n"
			"       xsim-xl <instance> write <path> <value>\n");
	return 1;
}

/* What xenstore-read, -write, -rm do in domain 0; 0 or 1. */
static int
xenstore(const char *instance, const char *op, const char *rel,
	 const char *value)
{
	struct xa_open_args args = {
		.provider = XA_PROVIDER_SIM,
		.sim_instance = instance,
	};
	char path[512];
	struct xa_handle *xa;
	unsigned int len;
	char *v = NULL;
	bool ok;

	snprintf(path, sizeof(path), "%s%s", rel[0] == '/' ? "" :
		 "/local/domain/0/", rel);
	xa = xa_open(&args);
	if (xa == NULL) {
		fprintf(stderr, "xsim-xl: instance %s: %s\n", instance,
			strerror(errno));
		return 1;
	}
	if (strcmp(op, "read") == 0) {
		v = xa_xs_read(xa, XBT_NULL, path, &len);
		ok = v != NULL;
		if (ok)
			printf("%.*s\n", (int)len, v);
		free(v);
	} else if (strcmp(op, "write") == 0) {
		ok = xa_xs_write(xa, XBT_NULL, path, value, strlen(value));
	} else {
		ok = xa_xs_rm(xa, XBT_NULL, path);
	}
	if (!ok)
		fprintf(stderr, "xsim-xl: %s %s: %s\n", op, path,
			strerror(errno));
	xa_close(xa);
	return ok ? 0 : 1;
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
	char path[sizeof("backend/vif/65535/0/bridge")];
	unsigned long domid;
	char *end;

	if (argc == 4 && (strcmp(argv[2], "read") == 0 ||
			  strcmp(argv[2], "rm") == 0))
		return xenstore(argv[1], argv[2], argv[3], NULL);
	if (argc == 5 && strcmp(argv[2], "write") == 0)
		return xenstore(argv[1], argv[2], argv[3], argv[4]);
	if (argc < 4)
		return usage();
	domid = strtoul(argv[3], &end, 10);
	if (*end != '\0' || domid < 1 || domid > 63)
		return usage();
	if (strcmp(argv[2], "create") == 0 && (argc == 5 || argc == 6)) {
		snprintf(mac, sizeof(mac), "00:16:3e:00:01:%02lx", domid);
		snprintf(path, sizeof(path), "backend/vif/%lu/0/bridge", domid);
		if (xsim_domain_name(argv[1], domid, argv[4]) != 0)
			return failed("naming", domid);
		if (xsim_vif_plug(argv[1], 0, domid, 0, mac) != 0)
			return failed("plugging vif 0", domid);
		return argc == 6 ? xenstore(argv[1], "write", path, argv[5]) : 0;
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
