/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Xenstore of the simulated hypervisor, with xenstored's rules: node
 * permissions (dom0 privileged, a guest confined to what its permissions
 * allow), implicit parents, watches that fire for the node, its ancestors
 * and removed descendants only for watchers that may read the node, and
 * optimistic transactions. Also the toolstack's vif plug. Domains 1 and 2
 * are guests, 0 is the privileged toolstack domain.
 */

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "xsim_test.h"

#define GUEST 1
#define GUEST2 2

static bool
value_is(struct xa_handle *h, const char *path, const char *expect)
{
	unsigned int len;
	char *v = xa_xs_read(h, XBT_NULL, path, &len);
	bool ok = v != NULL && len == strlen(expect) && strcmp(v, expect) == 0;

	free(v);
	return ok;
}

static bool
read_fails(struct xa_handle *h, xs_transaction_t t, const char *path,
	   int err)
{
	unsigned int len;
	char *v;

	errno = 0;
	v = xa_xs_read(h, t, path, &len);
	free(v);
	return v == NULL && errno == err;
}

static bool
write_str(struct xa_handle *h, xs_transaction_t t, const char *path,
	  const char *value)
{
	return xa_xs_write(h, t, path, value, strlen(value));
}

/* The next watch event, if it is @path with @token. */
static bool
event_is(struct xa_handle *h, const char *path, const char *token)
{
	char **ev = xa_xs_check_watch(h);
	bool ok = ev != NULL && strcmp(ev[XS_WATCH_PATH], path) == 0 &&
		strcmp(ev[XS_WATCH_TOKEN], token) == 0;

	if (!ok && ev != NULL)
		fprintf(stderr, "event %s %s\n", ev[XS_WATCH_PATH],
			ev[XS_WATCH_TOKEN]);
	free(ev);
	return ok;
}

static bool
no_event(struct xa_handle *h)
{
	char **ev;

	errno = 0;
	ev = xa_xs_check_watch(h);
	free(ev);
	return ev == NULL && errno == EAGAIN;
}

static bool
readable(int fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, timeout_ms) == 1 && (pfd.revents & POLLIN);
}

static void
test_write_then_read_returns_value_and_length(void)
{
	static const char bin[5] = { 'a', 0, 'b', 0, 'c' };
	struct xa_handle *h = open_dom(GUEST);
	unsigned int len = 0;
	char *v;

	REQUIRE(h != NULL);
	CHECK(write_str(h, XBT_NULL, "data/key", "value"));
	CHECK(value_is(h, "data/key", "value"));
	CHECK(xa_xs_write(h, XBT_NULL, "data/bin", bin, sizeof(bin)));
	v = xa_xs_read(h, XBT_NULL, "data/bin", &len);
	CHECK(v != NULL && len == sizeof(bin) && memcmp(v, bin, len) == 0 &&
	      v[len] == '\0');
	free(v);
	CHECK(xa_xs_rm(h, XBT_NULL, "data/key"));
	CHECK(xa_xs_rm(h, XBT_NULL, "data/bin"));
	xa_close(h);
}

static void
test_relative_path_is_under_own_domain(void)
{
	struct xa_handle *g = open_dom(GUEST), *dom0 = open_dom(0);

	REQUIRE(g != NULL && dom0 != NULL);
	CHECK(write_str(g, XBT_NULL, "data/rel", "1"));
	CHECK(value_is(dom0, "/local/domain/1/data/rel", "1"));
	CHECK(xa_xs_rm(g, XBT_NULL, "/local/domain/1/data/rel"));
	xa_close(g);
	xa_close(dom0);
}

static void
test_read_of_missing_node_is_enoent(void)
{
	struct xa_handle *g = open_dom(GUEST);

	REQUIRE(g != NULL);
	CHECK(read_fails(g, XBT_NULL, "data/nothing", ENOENT));
	CHECK(read_fails(g, XBT_NULL, "data/no/such/thing", ENOENT));
	xa_close(g);
}

static void
test_unprivileged_domain_cannot_read_other_subtree(void)
{
	struct xa_handle *g = open_dom(GUEST), *g2 = open_dom(GUEST2);
	unsigned int num;

	REQUIRE(g != NULL && g2 != NULL);
	REQUIRE(write_str(g2, XBT_NULL, "data/secret", "42"));
	CHECK(read_fails(g, XBT_NULL, "/local/domain/2/data/secret", EACCES));
	/* Not even whether a node exists there. */
	CHECK(read_fails(g, XBT_NULL, "/local/domain/2/data/none", EACCES));
	errno = 0;
	CHECK(xa_xs_directory(g, XBT_NULL, "/local/domain/2/data", &num) == NULL);
	CHECK(errno == EACCES);
	CHECK(read_fails(g, XBT_NULL, "/local/domain", EACCES));
	CHECK(xa_xs_rm(g2, XBT_NULL, "data/secret"));
	xa_close(g);
	xa_close(g2);
}

static void
test_unprivileged_domain_cannot_write_outside_its_nodes(void)
{
	struct xa_handle *g = open_dom(GUEST);

	REQUIRE(g != NULL);
	errno = 0;
	CHECK(!write_str(g, XBT_NULL, "/local/domain/2/data/x", "1"));
	CHECK(errno == EACCES);
	errno = 0;
	CHECK(!write_str(g, XBT_NULL, "/tool/x", "1"));
	CHECK(errno == EACCES);
	/* Its home directory belongs to dom0; only the subdirectories are its. */
	errno = 0;
	CHECK(!write_str(g, XBT_NULL, "x", "1"));
	CHECK(errno == EACCES);
	errno = 0;
	CHECK(!xa_xs_rm(g, XBT_NULL, "/local/domain/1"));
	CHECK(errno == EACCES);
	xa_close(g);
}

static void
test_privileged_domain_bypasses_permissions(void)
{
	struct xa_handle *g2 = open_dom(GUEST2), *dom0 = open_dom(0);

	REQUIRE(g2 != NULL && dom0 != NULL);
	REQUIRE(write_str(g2, XBT_NULL, "data/p", "guest"));
	CHECK(value_is(dom0, "/local/domain/2/data/p", "guest"));
	CHECK(write_str(dom0, XBT_NULL, "/local/domain/2/data/p", "dom0"));
	CHECK(write_str(dom0, XBT_NULL, "/tool/xsim-test", "1"));
	CHECK(xa_xs_rm(dom0, XBT_NULL, "/tool"));
	CHECK(xa_xs_rm(dom0, XBT_NULL, "/local/domain/2/data/p"));
	xa_close(g2);
	xa_close(dom0);
}

static void
test_new_node_inherits_parent_perms_with_creator_as_owner(void)
{
	struct xa_handle *g = open_dom(GUEST), *g2 = open_dom(GUEST2);
	struct xa_handle *dom0 = open_dom(0);
	struct xs_permissions shared[3] = {
		{ .id = 0, .perms = XS_PERM_NONE },
		{ .id = GUEST, .perms = XS_PERM_READ | XS_PERM_WRITE },
		{ .id = GUEST2, .perms = XS_PERM_READ },
	};
	struct xs_permissions private[1] = {
		{ .id = GUEST, .perms = XS_PERM_NONE },
	};

	REQUIRE(g != NULL && g2 != NULL && dom0 != NULL);
	/* dom0 makes a directory guest 1 may write and guest 2 may read. */
	REQUIRE(write_str(dom0, XBT_NULL, "/local/domain/1/shared", ""));
	REQUIRE(xa_xs_set_permissions(dom0, XBT_NULL, "/local/domain/1/shared",
				      shared, 3));
	CHECK(write_str(g, XBT_NULL, "shared/a/b", "x"));
	/* Guest 1 owns what it created, guest 2 keeps its read access. */
	CHECK(value_is(g2, "/local/domain/1/shared/a/b", "x"));
	CHECK(!write_str(g2, XBT_NULL, "/local/domain/1/shared/a/b", "y"));
	CHECK(xa_xs_set_permissions(g, XBT_NULL, "shared/a/b", private, 1));
	CHECK(read_fails(g2, XBT_NULL, "/local/domain/1/shared/a/b", EACCES));
	CHECK(xa_xs_rm(dom0, XBT_NULL, "/local/domain/1/shared"));
	xa_close(g);
	xa_close(g2);
	xa_close(dom0);
}

static void
test_only_owner_changes_permissions_and_never_gives_node_away(void)
{
	struct xa_handle *g = open_dom(GUEST), *g2 = open_dom(GUEST2);
	struct xs_permissions perms[2] = {
		{ .id = GUEST, .perms = XS_PERM_NONE },
		{ .id = GUEST2, .perms = XS_PERM_READ },
	};

	REQUIRE(g != NULL && g2 != NULL);
	REQUIRE(write_str(g, XBT_NULL, "data/mine", "1"));
	CHECK(xa_xs_set_permissions(g, XBT_NULL, "data/mine", perms, 2));
	CHECK(value_is(g2, "/local/domain/1/data/mine", "1"));
	errno = 0;
	CHECK(!xa_xs_set_permissions(g2, XBT_NULL, "/local/domain/1/data/mine",
				     perms, 2));
	CHECK(errno == EACCES);
	perms[0].id = GUEST2;
	errno = 0;
	CHECK(!xa_xs_set_permissions(g, XBT_NULL, "data/mine", perms, 2));
	CHECK(errno == EPERM);
	errno = 0;
	CHECK(!xa_xs_set_permissions(g, XBT_NULL, "data/mine", perms, 0));
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(!xa_xs_set_permissions(g, XBT_NULL, "data/none", perms, 1));
	CHECK(errno == ENOENT);
	CHECK(xa_xs_rm(g, XBT_NULL, "data/mine"));
	xa_close(g);
	xa_close(g2);
}

static void
test_write_creates_missing_parents(void)
{
	struct xa_handle *g = open_dom(GUEST);
	unsigned int num = 99;
	char **dir;

	REQUIRE(g != NULL);
	CHECK(write_str(g, XBT_NULL, "data/p1/p2/leaf", "v"));
	CHECK(value_is(g, "data/p1", ""));
	CHECK(value_is(g, "data/p1/p2", ""));
	dir = xa_xs_directory(g, XBT_NULL, "data/p1", &num);
	CHECK(dir != NULL && num == 1 && strcmp(dir[0], "p2") == 0);
	free(dir);
	CHECK(xa_xs_rm(g, XBT_NULL, "data/p1"));
	xa_close(g);
}

static void
test_directory_lists_children_only(void)
{
	struct xa_handle *g = open_dom(GUEST);
	unsigned int num = 99, i;
	bool a = false, b = false;
	char **dir;

	REQUIRE(g != NULL);
	REQUIRE(write_str(g, XBT_NULL, "data/d/a", "1"));
	REQUIRE(write_str(g, XBT_NULL, "data/d/b/deep", "2"));
	dir = xa_xs_directory(g, XBT_NULL, "data/d", &num);
	REQUIRE(dir != NULL);
	CHECK(num == 2);
	for (i = 0; i < num; i++) {
		a |= strcmp(dir[i], "a") == 0;
		b |= strcmp(dir[i], "b") == 0;
	}
	CHECK(a && b);
	free(dir);
	dir = xa_xs_directory(g, XBT_NULL, "data/d/a", &num);
	CHECK(dir != NULL && num == 0);
	free(dir);
	errno = 0;
	CHECK(xa_xs_directory(g, XBT_NULL, "data/none", &num) == NULL);
	CHECK(errno == ENOENT);
	CHECK(xa_xs_rm(g, XBT_NULL, "data/d"));
	xa_close(g);
}

static void
test_rm_removes_whole_subtree(void)
{
	struct xa_handle *g = open_dom(GUEST);

	REQUIRE(g != NULL);
	REQUIRE(write_str(g, XBT_NULL, "data/t/x/y", "1"));
	REQUIRE(write_str(g, XBT_NULL, "data/t2", "keep"));
	CHECK(xa_xs_rm(g, XBT_NULL, "data/t"));
	CHECK(read_fails(g, XBT_NULL, "data/t", ENOENT));
	CHECK(read_fails(g, XBT_NULL, "data/t/x/y", ENOENT));
	CHECK(value_is(g, "data/t2", "keep"));
	/* A missing child of an existing node is already removed... */
	CHECK(xa_xs_rm(g, XBT_NULL, "data/t"));
	/* ...but not one whose parent is missing too. */
	errno = 0;
	CHECK(!xa_xs_rm(g, XBT_NULL, "data/t/x"));
	CHECK(errno == ENOENT);
	CHECK(xa_xs_rm(g, XBT_NULL, "data/t2"));
	xa_close(g);
}

/*
 * The scans stop at the highest slot in use: a full table is ENOSPC, a
 * hole below the top is reused, nodes above a lowered top are gone.
 */
static void
test_full_node_table_is_enospc_and_freed_slots_are_reused(void)
{
	struct xa_handle *g = open_dom(GUEST);
	unsigned int n, num = 0;
	char path[64];
	char **dir;

	REQUIRE(g != NULL);
	for (n = 0; ; n++) {
		snprintf(path, sizeof(path), "data/full/%u", n);
		errno = 0;
		if (!write_str(g, XBT_NULL, path, "x"))
			break;
	}
	CHECK(errno == ENOSPC);
	CHECK(n > 1000);
	CHECK(value_is(g, "data/full/0", "x"));
	snprintf(path, sizeof(path), "data/full/%u", n - 1);
	CHECK(value_is(g, path, "x"));
	/* A hole below the top takes the next node, and only one. */
	CHECK(xa_xs_rm(g, XBT_NULL, "data/full/1"));
	CHECK(read_fails(g, XBT_NULL, "data/full/1", ENOENT));
	CHECK(write_str(g, XBT_NULL, "data/full/again", "y"));
	CHECK(value_is(g, "data/full/again", "y"));
	errno = 0;
	CHECK(!write_str(g, XBT_NULL, "data/full/more", "z"));
	CHECK(errno == ENOSPC);
	dir = xa_xs_directory(g, XBT_NULL, "data/full", &num);
	CHECK(dir != NULL && num == n);
	free(dir);
	/* The whole subtree, top included, goes; its slots come back. */
	CHECK(xa_xs_rm(g, XBT_NULL, "data/full"));
	CHECK(read_fails(g, XBT_NULL, "data/full/0", ENOENT));
	CHECK(read_fails(g, XBT_NULL, path, ENOENT));
	CHECK(read_fails(g, XBT_NULL, "data/full/again", ENOENT));
	CHECK(write_str(g, XBT_NULL, "data/full/0", "w"));
	CHECK(value_is(g, "data/full/0", "w"));
	CHECK(xa_xs_rm(g, XBT_NULL, "data/full"));
	xa_close(g);
}

static void
test_oversized_value_is_e2big(void)
{
	struct xa_handle *g = open_dom(GUEST);
	char big[1024];

	REQUIRE(g != NULL);
	memset(big, 'v', sizeof(big));
	errno = 0;
	CHECK(!xa_xs_write(g, XBT_NULL, "data/big", big, sizeof(big)));
	CHECK(errno == E2BIG);
	CHECK(xa_xs_write(g, XBT_NULL, "data/big", big, sizeof(big) - 1));
	CHECK(xa_xs_rm(g, XBT_NULL, "data/big"));
	xa_close(g);
}

static void
test_malformed_or_long_path_is_einval(void)
{
	static const char *const bad[] = {
		"", "data//x", "data/x/", "data/x y", "data/\xc3\xa9",
	};
	struct xa_handle *g = open_dom(GUEST);
	char longpath[300];
	unsigned int i;

	REQUIRE(g != NULL);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		CHECK(!write_str(g, XBT_NULL, bad[i], "1"));
		CHECK(errno == EINVAL);
	}
	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	memcpy(longpath, "data/", 5);
	errno = 0;
	CHECK(!write_str(g, XBT_NULL, longpath, "1"));
	CHECK(errno == EINVAL);
	CHECK(read_fails(g, XBT_NULL, longpath, EINVAL));
	xa_close(g);
}

static void
test_watch_fires_once_on_registration(void)
{
	struct xa_handle *g = open_dom(GUEST);

	REQUIRE(g != NULL);
	CHECK(no_event(g));
	REQUIRE(xa_xs_watch(g, "/local/domain/1/data/w", "tok"));
	CHECK(readable(xa_xs_fileno(g), 0));
	CHECK(event_is(g, "/local/domain/1/data/w", "tok"));
	CHECK(no_event(g));
	CHECK(!readable(xa_xs_fileno(g), 0));
	xa_close(g);
}

static void
test_watch_fires_on_write(void)
{
	struct xa_handle *g = open_dom(GUEST), *w = open_dom(GUEST);

	REQUIRE(g != NULL && w != NULL);
	REQUIRE(xa_xs_watch(w, "/local/domain/1/data/w", "t"));
	CHECK(event_is(w, "/local/domain/1/data/w", "t"));
	REQUIRE(write_str(g, XBT_NULL, "data/w", "1"));
	CHECK(readable(xa_xs_fileno(w), 1000));
	CHECK(event_is(w, "/local/domain/1/data/w", "t"));
	/* Changes below the watched node fire it too, with their own path. */
	REQUIRE(write_str(g, XBT_NULL, "data/w/sub", "2"));
	CHECK(event_is(w, "/local/domain/1/data/w/sub", "t"));
	CHECK(no_event(w));
	/* Changes next to or above it do not. */
	REQUIRE(write_str(g, XBT_NULL, "data/wx", "3"));
	REQUIRE(write_str(g, XBT_NULL, "data", ""));
	CHECK(no_event(w));
	CHECK(xa_xs_rm(g, XBT_NULL, "data/wx"));
	CHECK(xa_xs_rm(g, XBT_NULL, "data/w"));
	CHECK(event_is(w, "/local/domain/1/data/w", "t"));
	xa_close(g);
	xa_close(w);
}

static void
test_watch_fires_for_removed_ancestor_with_its_own_path(void)
{
	struct xa_handle *g = open_dom(GUEST);

	REQUIRE(g != NULL);
	REQUIRE(write_str(g, XBT_NULL, "data/r/child/leaf", "1"));
	REQUIRE(xa_xs_watch(g, "data/r/child/leaf", "leaf"));
	CHECK(event_is(g, "data/r/child/leaf", "leaf"));
	CHECK(xa_xs_rm(g, XBT_NULL, "data/r"));
	CHECK(event_is(g, "data/r/child/leaf", "leaf"));
	CHECK(no_event(g));
	xa_close(g);
}

static void
test_relative_watch_reports_relative_paths(void)
{
	struct xa_handle *g = open_dom(GUEST);

	REQUIRE(g != NULL);
	REQUIRE(xa_xs_watch(g, "data/rel", "r"));
	CHECK(event_is(g, "data/rel", "r"));
	REQUIRE(write_str(g, XBT_NULL, "/local/domain/1/data/rel/x", "1"));
	CHECK(event_is(g, "data/rel/x", "r"));
	CHECK(xa_xs_rm(g, XBT_NULL, "data/rel"));
	xa_close(g);
}

static void
test_watch_needs_read_permission(void)
{
	struct xa_handle *g = open_dom(GUEST), *g2 = open_dom(GUEST2);

	REQUIRE(g != NULL && g2 != NULL);
	REQUIRE(xa_xs_watch(g2, "/local/domain/1/data", "spy"));
	CHECK(event_is(g2, "/local/domain/1/data", "spy"));
	REQUIRE(write_str(g, XBT_NULL, "data/private", "1"));
	CHECK(no_event(g2));
	CHECK(xa_xs_rm(g, XBT_NULL, "data/private"));
	CHECK(no_event(g2));
	xa_close(g);
	xa_close(g2);
}

static void
test_duplicate_watch_is_eexist_and_unwatch_stops_events(void)
{
	struct xa_handle *g = open_dom(GUEST);

	REQUIRE(g != NULL);
	REQUIRE(xa_xs_watch(g, "data/u", "u"));
	errno = 0;
	CHECK(!xa_xs_watch(g, "data/u", "u"));
	CHECK(errno == EEXIST);
	REQUIRE(write_str(g, XBT_NULL, "data/u", "1"));
	/* Unwatching drops the events still queued for the watch. */
	CHECK(xa_xs_unwatch(g, "data/u", "u"));
	CHECK(no_event(g));
	CHECK(!readable(xa_xs_fileno(g), 0));
	REQUIRE(write_str(g, XBT_NULL, "data/u", "2"));
	CHECK(no_event(g));
	errno = 0;
	CHECK(!xa_xs_unwatch(g, "data/u", "u"));
	CHECK(errno == ENOENT);
	CHECK(xa_xs_rm(g, XBT_NULL, "data/u"));
	xa_close(g);
}

/* Watch slots freed at and below the top are reused and stay silent. */
static void
test_unwatched_slots_are_reused(void)
{
	struct xa_handle *g = open_dom(GUEST);

	REQUIRE(g != NULL);
	REQUIRE(xa_xs_watch(g, "data/s1", "1"));
	REQUIRE(xa_xs_watch(g, "data/s2", "2"));
	CHECK(event_is(g, "data/s1", "1"));
	CHECK(event_is(g, "data/s2", "2"));
	CHECK(xa_xs_unwatch(g, "data/s2", "2"));
	CHECK(xa_xs_unwatch(g, "data/s1", "1"));
	REQUIRE(write_str(g, XBT_NULL, "data/s2", "1"));
	CHECK(no_event(g));
	REQUIRE(xa_xs_watch(g, "data/s3", "3"));
	REQUIRE(xa_xs_watch(g, "data/s2", "2b"));
	CHECK(event_is(g, "data/s3", "3"));
	CHECK(event_is(g, "data/s2", "2b"));
	REQUIRE(write_str(g, XBT_NULL, "data/s2", "2"));
	CHECK(event_is(g, "data/s2", "2b"));
	CHECK(no_event(g));
	CHECK(xa_xs_unwatch(g, "data/s3", "3"));
	REQUIRE(write_str(g, XBT_NULL, "data/s3", "1"));
	CHECK(no_event(g));
	CHECK(xa_xs_rm(g, XBT_NULL, "data/s2"));
	CHECK(event_is(g, "data/s2", "2b"));
	CHECK(xa_xs_rm(g, XBT_NULL, "data/s3"));
	CHECK(xa_xs_unwatch(g, "data/s2", "2b"));
	xa_close(g);
}

static void
test_watch_fires_across_processes(void)
{
	struct xa_handle *w = open_dom(0), *g;
	int status;
	pid_t pid;

	REQUIRE(w != NULL);
	REQUIRE(xa_xs_watch(w, "/local/domain/2/data/xp", "xp"));
	CHECK(event_is(w, "/local/domain/2/data/xp", "xp"));
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		g = open_dom(GUEST2);
		if (g == NULL || !write_str(g, XBT_NULL, "data/xp", "hi"))
			_exit(1);
		xa_close(g);
		_exit(0);
	}
	CHECK(readable(xa_xs_fileno(w), 5000));
	CHECK(event_is(w, "/local/domain/2/data/xp", "xp"));
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(value_is(w, "/local/domain/2/data/xp", "hi"));
	CHECK(xa_xs_rm(w, XBT_NULL, "/local/domain/2/data/xp"));
	xa_close(w);
}

static void
test_transaction_sees_own_writes_and_commits_atomically(void)
{
	struct xa_handle *g = open_dom(GUEST), *o = open_dom(GUEST);
	unsigned int num = 0;
	xs_transaction_t t;
	char **dir;

	REQUIRE(g != NULL && o != NULL);
	REQUIRE(write_str(g, XBT_NULL, "data/tx/old", "1"));
	t = xa_xs_transaction_start(g);
	REQUIRE(t != XBT_NULL);
	CHECK(write_str(g, t, "data/tx/new/leaf", "2"));
	CHECK(xa_xs_rm(g, t, "data/tx/old"));
	CHECK(read_fails(g, t, "data/tx/old", ENOENT));
	CHECK(read_fails(o, XBT_NULL, "data/tx/new/leaf", ENOENT));
	CHECK(value_is(o, "data/tx/old", "1"));
	{
		unsigned int len;
		char *v = xa_xs_read(g, t, "data/tx/new/leaf", &len);

		CHECK(v != NULL && strcmp(v, "2") == 0);
		free(v);
	}
	dir = xa_xs_directory(g, t, "data/tx", &num);
	CHECK(dir != NULL && num == 1 && strcmp(dir[0], "new") == 0);
	free(dir);
	CHECK(xa_xs_transaction_end(g, t, false));
	CHECK(value_is(o, "data/tx/new/leaf", "2"));
	CHECK(read_fails(o, XBT_NULL, "data/tx/old", ENOENT));
	CHECK(xa_xs_rm(g, XBT_NULL, "data/tx"));
	xa_close(g);
	xa_close(o);
}

static void
test_transaction_conflict_returns_eagain(void)
{
	struct xa_handle *g = open_dom(GUEST), *o = open_dom(GUEST);
	xs_transaction_t t;

	REQUIRE(g != NULL && o != NULL);
	t = xa_xs_transaction_start(g);
	REQUIRE(t != XBT_NULL);
	CHECK(write_str(g, t, "data/c", "mine"));
	REQUIRE(write_str(o, XBT_NULL, "data/c", "theirs"));
	errno = 0;
	CHECK(!xa_xs_transaction_end(g, t, false));
	CHECK(errno == EAGAIN);
	CHECK(value_is(o, "data/c", "theirs"));
	/* The retry, with nothing in between, goes through. */
	t = xa_xs_transaction_start(g);
	CHECK(write_str(g, t, "data/c", "mine"));
	CHECK(xa_xs_transaction_end(g, t, false));
	CHECK(value_is(o, "data/c", "mine"));
	CHECK(xa_xs_rm(g, XBT_NULL, "data/c"));
	xa_close(g);
	xa_close(o);
}

static void
test_transaction_abort_discards(void)
{
	struct xa_handle *g = open_dom(GUEST);
	xs_transaction_t t;

	REQUIRE(g != NULL);
	t = xa_xs_transaction_start(g);
	REQUIRE(t != XBT_NULL);
	CHECK(write_str(g, t, "data/ab", "1"));
	CHECK(xa_xs_transaction_end(g, t, true));
	CHECK(read_fails(g, XBT_NULL, "data/ab", ENOENT));
	errno = 0;
	CHECK(!xa_xs_transaction_end(g, t, false));
	CHECK(errno == ENOENT);
	CHECK(read_fails(g, t, "data/ab", ENOENT));
	xa_close(g);
}

static void
test_transaction_refuses_write_without_permission(void)
{
	struct xa_handle *g = open_dom(GUEST);
	xs_transaction_t t;

	REQUIRE(g != NULL);
	t = xa_xs_transaction_start(g);
	REQUIRE(t != XBT_NULL);
	errno = 0;
	CHECK(!write_str(g, t, "/local/domain/2/data/x", "1"));
	CHECK(errno == EACCES);
	CHECK(xa_xs_transaction_end(g, t, true));
	xa_close(g);
}

static void
test_vif_plug_writes_what_libxl_writes(void)
{
	static const char *const fe = "/local/domain/1/device/vif/0";
	static const char *const be = "/local/domain/2/backend/vif/1/0";
	struct xa_handle *g = open_dom(GUEST), *b = open_dom(GUEST2);
	char path[128];

	REQUIRE(g != NULL && b != NULL);
	REQUIRE(xsim_vif_plug(xsim_test_instance, GUEST2, GUEST, 0,
			      "00:16:3e:00:00:01") == 0);
#define FE_KEY(k, v) do { \
	snprintf(path, sizeof(path), "%s/%s", fe, k); \
	CHECK(value_is(g, path, v)); \
	CHECK(value_is(b, path, v)); \
} while (0)
#define BE_KEY(k, v) do { \
	snprintf(path, sizeof(path), "%s/%s", be, k); \
	CHECK(value_is(b, path, v)); \
	CHECK(value_is(g, path, v)); \
} while (0)
	FE_KEY("backend", be);
	FE_KEY("backend-id", "2");
	FE_KEY("state", "1");
	FE_KEY("handle", "0");
	FE_KEY("mac", "00:16:3e:00:00:01");
	FE_KEY("mtu", "1500");
	FE_KEY("trusted", "1");
	BE_KEY("frontend", fe);
	BE_KEY("frontend-id", "1");
	BE_KEY("online", "1");
	BE_KEY("state", "1");
	BE_KEY("script", "");
	BE_KEY("mac", "00:16:3e:00:00:01");
	BE_KEY("handle", "0");
	BE_KEY("type", "vif");
	BE_KEY("hotplug-status", "connected");
#undef FE_KEY
#undef BE_KEY
	CHECK(value_is(g, "domid", "1"));
	/* Each end writes only its own directory. */
	CHECK(write_str(g, XBT_NULL, "device/vif/0/state", "4"));
	CHECK(!write_str(b, XBT_NULL, "/local/domain/1/device/vif/0/state",
			 "4"));
	CHECK(write_str(b, XBT_NULL, "backend/vif/1/0/state", "2"));
	CHECK(!write_str(g, XBT_NULL, "/local/domain/2/backend/vif/1/0/state",
			 "2"));
	/* Plugging again changes nothing. */
	CHECK(xsim_vif_plug(xsim_test_instance, GUEST2, GUEST, 0,
			    "00:16:3e:00:00:01") == 0);
	CHECK(value_is(g, "device/vif/0/state", "4"));
	CHECK(xsim_vif_unplug(xsim_test_instance, GUEST2, GUEST, 0) == 0);
	CHECK(read_fails(g, XBT_NULL, "device/vif/0", ENOENT));
	CHECK(read_fails(b, XBT_NULL, "backend/vif/1/0", ENOENT));
	CHECK(xsim_vif_unplug(xsim_test_instance, GUEST2, GUEST, 0) == 0);
	errno = 0;
	CHECK(xsim_vif_plug(xsim_test_instance, GUEST2, GUEST, 0, "bad") == -1);
	CHECK(errno == EINVAL);
	xa_close(g);
	xa_close(b);
}

static void
test_vif_plug_fires_backend_watch(void)
{
	struct xa_handle *b = open_dom(GUEST2);
	char **ev;
	int n = 0;

	REQUIRE(b != NULL);
	REQUIRE(xa_xs_watch(b, "backend/vif", "be"));
	CHECK(event_is(b, "backend/vif", "be"));
	REQUIRE(xsim_vif_plug(xsim_test_instance, GUEST2, GUEST, 3,
			      "00:16:3e:00:00:03") == 0);
	CHECK(readable(xa_xs_fileno(b), 1000));
	while ((ev = xa_xs_check_watch(b)) != NULL) {
		CHECK(strncmp(ev[XS_WATCH_PATH], "backend/vif/1/3", 15) == 0);
		free(ev);
		n++;
	}
	CHECK(n > 0);
	CHECK(xsim_vif_unplug(xsim_test_instance, GUEST2, GUEST, 3) == 0);
	xa_close(b);
}

static void
test_close_releases_watches(void)
{
	struct xa_handle *g = open_dom(GUEST);
	struct xsim_usage u;

	REQUIRE(g != NULL);
	REQUIRE(xa_xs_watch(g, "data", "a"));
	REQUIRE(xa_xs_watch(g, "device", "b"));
	CHECK(usage_of(GUEST, &u) == 0 && u.watches == 2);
	xa_close(g);
	CHECK(usage_is_zero(GUEST));
}

TEST_MAIN(xsim_test_setup, xsim_test_teardown)
{
	RUN(test_write_then_read_returns_value_and_length);
	RUN(test_relative_path_is_under_own_domain);
	RUN(test_read_of_missing_node_is_enoent);
	RUN(test_unprivileged_domain_cannot_read_other_subtree);
	RUN(test_unprivileged_domain_cannot_write_outside_its_nodes);
	RUN(test_privileged_domain_bypasses_permissions);
	RUN(test_new_node_inherits_parent_perms_with_creator_as_owner);
	RUN(test_only_owner_changes_permissions_and_never_gives_node_away);
	RUN(test_write_creates_missing_parents);
	RUN(test_directory_lists_children_only);
	RUN(test_rm_removes_whole_subtree);
	RUN(test_full_node_table_is_enospc_and_freed_slots_are_reused);
	RUN(test_oversized_value_is_e2big);
	RUN(test_malformed_or_long_path_is_einval);
	RUN(test_watch_fires_once_on_registration);
	RUN(test_watch_fires_on_write);
	RUN(test_watch_fires_for_removed_ancestor_with_its_own_path);
	RUN(test_relative_watch_reports_relative_paths);
	RUN(test_watch_needs_read_permission);
	RUN(test_duplicate_watch_is_eexist_and_unwatch_stops_events);
	RUN(test_unwatched_slots_are_reused);
	RUN(test_watch_fires_across_processes);
	RUN(test_transaction_sees_own_writes_and_commits_atomically);
	RUN(test_transaction_conflict_returns_eagain);
	RUN(test_transaction_abort_discards);
	RUN(test_transaction_refuses_write_without_permission);
	RUN(test_vif_plug_writes_what_libxl_writes);
	RUN(test_vif_plug_fires_backend_watch);
	RUN(test_close_releases_watches);
}
