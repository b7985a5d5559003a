/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A fake machine for the provider choice (lib/xen_access/xa_detect.c): an
 * empty directory standing for /, given as XA_SYSROOT, in which a test
 * makes the files that say Xen is there (/sys/hypervisor/type, /proc/xen)
 * and the devices real Xen opens. A RUN_WITH() fixture (test.h); the
 * files are empty, since only their existence and the hypervisor type
 * are read.
 */

#ifndef FAKE_ROOT_H
#define FAKE_ROOT_H

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct fake_root {
	char dir[64];
};

static inline int
fake_root_setup(struct fake_root *r)
{
	snprintf(r->dir, sizeof(r->dir), "/tmp/xa-detect-XXXXXX");
	if (mkdtemp(r->dir) == NULL)
		return -1;
	return setenv("XA_SYSROOT", r->dir, 1);
}

/* @path and all below it (files and directories only, as made here). */
static inline void
fake_root_remove(const char *path)
{
	char sub[512];
	struct dirent *e;
	DIR *d = opendir(path);

	if (d != NULL) {
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 ||
			    strcmp(e->d_name, "..") == 0)
				continue;
			if (snprintf(sub, sizeof(sub), "%s/%.200s", path,
				     e->d_name) < (int)sizeof(sub))
				fake_root_remove(sub);
		}
		closedir(d);
	}
	remove(path);
}

static inline void
fake_root_teardown(struct fake_root *r)
{
	unsetenv("XA_SYSROOT");
	unsetenv("XENSTORED_PATH");
	fake_root_remove(r->dir);
}

/* Make @path (with its directories) below the root, holding @text. */
static inline bool
fake_root_put(struct fake_root *r, const char *path, const char *text)
{
	char buf[512];
	size_t i, len;
	FILE *f;

	len = (size_t)snprintf(buf, sizeof(buf), "%s%s", r->dir, path);
	if (len >= sizeof(buf))
		return false;
	for (i = strlen(r->dir) + 1; i < len; i++) {
		if (buf[i] != '/')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0700) != 0 && errno != EEXIST)
			return false;
		buf[i] = '/';
	}
	f = fopen(buf, "w");
	if (f == NULL)
		return false;
	fputs(text, f);
	return fclose(f) == 0;
}

static inline bool
fake_root_rm(struct fake_root *r, const char *path)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s%s", r->dir, path);
	return remove(buf) == 0;
}

/* A Xen domain by its hypervisor type, with the devices both roles use. */
static inline bool
fake_root_xen_domain(struct fake_root *r)
{
	return fake_root_put(r, "/sys/hypervisor/type", "xen\n") &&
	       fake_root_put(r, "/dev/xen/evtchn", "") &&
	       fake_root_put(r, "/dev/xen/gntdev", "") &&
	       fake_root_put(r, "/dev/xen/gntalloc", "") &&
	       fake_root_put(r, "/dev/xen/xenbus", "");
}

#endif /* FAKE_ROOT_H */
