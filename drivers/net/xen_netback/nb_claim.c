/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Which vif a port serves when it is named by guest (domain=<name>) rather
 * than by domain id: the vif <handle> of the domain of that name among the
 * vifs the toolstack has put in our backend directory. A rebooted guest
 * comes back under a new domain id with the same name, so the port follows
 * it; the control plane calls this again whenever the port has no vif.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nb.h"

/* A directory entry that is a guest's domain id, or 0. */
static domid_t
nb_parse_domid(const char *s)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '0' ||
	    v >= DOMID_FIRST_RESERVED)
		return 0;
	return v;
}

/*
 * In a driver domain (a backend outside Dom0), libxl lets only Dom0 and
 * the guest itself read /local/domain/<guest>/name: no vif can then be
 * claimed by its guest's name, silently. Said once per guest (the last
 * one said; the control and watch threads may race, to a repeated line).
 */
static void
nb_name_denied(struct xa_handle *xa, domid_t domid, const char *path)
{
	static unsigned int last = DOMID_FIRST_RESERVED;

	if (__atomic_exchange_n(&last, domid, __ATOMIC_RELAXED) == domid)
		return;
	NB_LOG(WARNING,
	       "%s: not readable from domain %u (%s): a vif of domain %u cannot be claimed by its name; in a driver domain, libxl lets only Dom0 and the guest read it: claim by domid=, watch with vifs=* (every vif of this domain), or have Dom0 grant read access (xenstore-chmod %s n0 r%u r%u)",
	       path, xa_domid(xa), strerror(EACCES), domid, path, domid,
	       xa_domid(xa));
}

char *
nb_domain_name(struct xa_handle *xa, domid_t domid)
{
	char path[sizeof("/local/domain/65535/name")];
	unsigned int len;
	char *name;

	snprintf(path, sizeof(path), "/local/domain/%u/name", domid);
	name = xa_xs_read(xa, XBT_NULL, path, &len);
	if (name == NULL && errno == EACCES)
		nb_name_denied(xa, domid, path);
	/* A NUL inside would make it another, shorter name. */
	if (name != NULL && strlen(name) != len) {
		free(name);
		name = NULL;
	}
	return name;
}

static bool
nb_domain_has_name(struct nb_port *p, domid_t domid)
{
	char *name = nb_domain_name(p->xn.xa, domid);
	bool match = name != NULL && strcmp(name, p->cfg.domain) == 0;

	free(name);
	return match;
}

/* Whether the toolstack has vif <domid>/<handle> in our backend directory. */
bool
nb_vif_present(struct nb_port *p, domid_t domid)
{
	char path[XENBUS_PATH_MAX + sizeof("/65535/65535/frontend")];
	unsigned int len;
	void *v;

	snprintf(path, sizeof(path), "%s/%u/%u/frontend", p->vif_root, domid,
		 p->xn.cfg.handle);
	v = xa_xs_read(p->xn.xa, XBT_NULL, path, &len);
	free(v);
	return v != NULL;
}

/* Sets p->fe_domid and p->be_dir and returns true when the guest's vif is there. */
bool
nb_claim_by_name(struct nb_port *p)
{
	unsigned int i, n = 0;
	domid_t domid = 0;
	char **ids;

	ids = xa_xs_directory(p->xn.xa, XBT_NULL, p->vif_root, &n);
	if (ids == NULL)
		return false;	/* no vif yet: the watch on vif_root tells us */
	for (i = 0; i < n && domid == 0; i++) {
		domid_t d = nb_parse_domid(ids[i]);

		if (d != 0 && nb_vif_present(p, d) && nb_domain_has_name(p, d))
			domid = d;
	}
	free(ids);
	if (domid == 0)
		return false;
	p->fe_domid = domid;
	snprintf(p->be_dir, sizeof(p->be_dir), "%s/%u/%u", p->vif_root,
		 domid, p->xn.cfg.handle);
	NB_LOG(INFO, "%s: vif %u of guest %s (domain %u)", p->be_dir,
	       p->xn.cfg.handle, p->cfg.domain, domid);
	return true;
}
