/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Xenstore of the simulated hypervisor, with xenstored's rules: a table of
 * nodes in shared memory, each with a binary value and xenstored's
 * permissions (owner and default first, then per-domain entries; dom0
 * bypasses them), implicit creation of parents, watches that fire on the
 * node, its ancestors and, on removal, its descendants, but only for
 * watchers allowed to read the node, and optimistic transactions buffered
 * in the process of the handle. Watch events wait in the watcher's slot;
 * a one-byte datagram on the handle's socket makes its fd readable while
 * any is queued, as libxenstore's watch pipe does.
 * Layer 2 (see xsim_shm.h): calls only the segment.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xsim_xenstore.h"

enum xsim_tx_op_type {
	XSIM_TX_WRITE,
	XSIM_TX_RM,
	XSIM_TX_PERMS,
};

struct xsim_tx_op {
	enum xsim_tx_op_type type;
	char path[XSIM_XS_PATH_MAX + 1];
	uint32_t len;
	uint8_t value[XSIM_XS_VALUE_MAX + 1];
	unsigned int nperms;
	struct xs_permissions perms[XSIM_XS_PERMS_MAX];
};

struct xsim_tx {
	struct xsim_tx *next;
	xs_transaction_t id;
	uint64_t generation;	/* of the store when the transaction began */
	uint32_t nops;
	uint32_t cap;
	struct xsim_tx_op *ops;
};

/* @a is a proper ancestor of @b. */
static bool
xsim_xs_is_ancestor(const char *a, const char *b)
{
	size_t la = strlen(a);

	if (strcmp(a, "/") == 0)
		return b[0] == '/' && b[1] != '\0';
	return strncmp(a, b, la) == 0 && b[la] == '/';
}

/* @a is @b or one of its ancestors. */
static bool
xsim_xs_covers(const char *a, const char *b)
{
	return strcmp(a, b) == 0 || xsim_xs_is_ancestor(a, b);
}

/*
 * What xenstored allows in a node name: [A-Za-z0-9-/_@], a table rather
 * than isalnum() and strchr(), for it is looked up for every character of
 * every path.
 */
static const bool xsim_xs_name_chars[256] = {
	['0' ... '9'] = true, ['A' ... 'Z'] = true, ['a' ... 'z'] = true,
	['-'] = true, ['/'] = true, ['_'] = true, ['@'] = true,
};

/*
 * The absolute form of @path for @domid, checked as xenstored checks node
 * names; *rel_len is the length of the prefix a relative path gained.
 */
static int
xsim_xs_canon(domid_t domid, const char *path, char *out, uint16_t *rel_len)
{
	size_t i, len;
	int n;

	if (path == NULL || path[0] == '\0') {
		errno = EINVAL;
		return -1;
	}
	if (path[0] == '/') {
		n = snprintf(out, XSIM_XS_PATH_MAX + 1, "%s", path);
		*rel_len = 0;
	} else {
		n = snprintf(out, XSIM_XS_PATH_MAX + 1, "/local/domain/%u/%s",
			     domid, path);
		*rel_len = n - strlen(path);
	}
	len = n;
	if (n < 0 || len > XSIM_XS_PATH_MAX ||
	    (len > 1 && out[len - 1] == '/')) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < len; i++) {
		if (!xsim_xs_name_chars[(unsigned char)out[i]] ||
		    (out[i] == '/' && out[i + 1] == '/')) {
			errno = EINVAL;
			return -1;
		}
	}
	return 0;
}

/* FNV-1a of @path, and its length in *len. */
static uint32_t
xsim_xs_hash(const char *path, uint32_t *len)
{
	uint32_t h = 2166136261u;
	const char *p;

	for (p = path; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	*len = p - path;
	return h;
}

static struct xsim_xs_node *
xsim_xs_find(struct xsim_shared *sh, const char *path)
{
	struct xsim_xs_node *n;
	uint32_t hash, len;
	unsigned int i;

	hash = xsim_xs_hash(path, &len);
	for (i = 0; i < sh->xs_nodes_top; i++) {
		n = &sh->nodes[i];
		if (n->in_use && n->path_hash == hash && n->path_len == len &&
		    strcmp(n->path, path) == 0)
			return n;
	}
	return NULL;
}

/*
 * xsim_xs_covers(@path, @n's path), with @len the length of @path: a
 * string comparison only for @path itself or a node right below a '/'.
 */
static bool
xsim_xs_covers_node(const char *path, uint32_t len,
		    const struct xsim_xs_node *n)
{
	if (len == 1)	/* "/" */
		return true;
	if (n->path_len < len ||
	    (n->path_len > len && n->path[len] != '/'))
		return false;
	return xsim_xs_covers(path, n->path);
}

static void
xsim_xs_parent(const char *path, char *out)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash == path ? 1 : (size_t)(slash - path);

	memcpy(out, path, len);
	out[len] = '\0';
}

/* The nearest existing ancestor of a missing node ("/" always exists). */
static struct xsim_xs_node *
xsim_xs_find_ancestor(struct xsim_shared *sh, const char *path)
{
	char buf[XSIM_XS_PATH_MAX + 1];
	struct xsim_xs_node *n;

	snprintf(buf, sizeof(buf), "%s", path);
	do {
		xsim_xs_parent(buf, buf);
		n = xsim_xs_find(sh, buf);
	} while (n == NULL);
	return n;
}

/* xenstored's perm_for_conn(). */
static unsigned int
xsim_xs_perm(const struct xsim_xs_node *n, domid_t domid)
{
	unsigned int i;

	if (domid == 0 || n->perms[0].id == domid)
		return XS_PERM_READ | XS_PERM_WRITE | XS_PERM_OWNER;
	for (i = 1; i < n->nperms; i++)
		if (n->perms[i].id == domid)
			return n->perms[i].perms;
	return n->perms[0].perms;
}

/*
 * Why a node is missing: EACCES if the caller could not even read where it
 * would be, so that a domain cannot probe other domains' subtrees.
 */
static void
xsim_xs_set_missing_errno(struct xsim_shared *sh, domid_t domid,
			  const char *path)
{
	struct xsim_xs_node *a = xsim_xs_find_ancestor(sh, path);

	errno = (xsim_xs_perm(a, domid) & XS_PERM_READ) ? ENOENT : EACCES;
}

/* The node at @path if @domid has the permissions @need on it. */
static struct xsim_xs_node *
xsim_xs_get(struct xsim_shared *sh, domid_t domid, const char *path,
	    unsigned int need)
{
	struct xsim_xs_node *n = xsim_xs_find(sh, path);

	if (n == NULL) {
		xsim_xs_set_missing_errno(sh, domid, path);
		return NULL;
	}
	if ((xsim_xs_perm(n, domid) & need) != need) {
		errno = EACCES;
		return NULL;
	}
	return n;
}

static void
xsim_xs_drain_doorbell(int fd)
{
	char buf[16];

	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

static void
xsim_xs_queue(struct xsim_shared *sh, int send_fd, xsim_owner_t owner,
	      const char *path, const char *token)
{
	struct xsim_slot *slot = xsim_slot(sh, owner);
	struct xsim_xs_event *ev;

	/* Past the queue, events are dropped as xenstored does past quota. */
	if (slot->xs_count == XSIM_XS_EVENTS)
		return;
	ev = &slot->xs_events[(slot->xs_head + slot->xs_count) %
			      XSIM_XS_EVENTS];
	snprintf(ev->path, sizeof(ev->path), "%s", path);
	snprintf(ev->token, sizeof(ev->token), "%s", token);
	if (slot->xs_count++ == 0)
		xsim_send(send_fd, "w", 1, &slot->xs_addr, slot->xs_addrlen);
}

/*
 * Fire the watches a change of @path concerns: on the node and its
 * ancestors, and for a removal (@recurse) on its descendants too, each with
 * the path it watches. @perms_of is the node as it was, so a watcher must be
 * allowed to read it.
 */
static void
xsim_xs_fire(struct xsim_shared *sh, int send_fd, const char *path,
	     const struct xsim_xs_node *perms_of, bool recurse)
{
	struct xsim_xs_watch *w;
	const char *ev;
	unsigned int i;

	for (i = 0; i < sh->xs_watches_top; i++) {
		w = &sh->watches[i];
		if (w->owner == 0)
			continue;
		if (xsim_xs_covers(w->path, path))
			ev = path;
		else if (recurse && xsim_xs_is_ancestor(path, w->path))
			ev = w->path;
		else
			continue;
		if (!(xsim_xs_perm(perms_of, w->domid) & XS_PERM_READ))
			continue;
		xsim_xs_queue(sh, send_fd, w->owner, ev + w->rel_len, w->token);
	}
}

static unsigned int
xsim_xs_free_nodes(struct xsim_shared *sh)
{
	unsigned int i, n = XSIM_XS_NODES - sh->xs_nodes_top;

	for (i = 0; i < sh->xs_nodes_top; i++)
		n += !sh->nodes[i].in_use;
	return n;
}

/*
 * A new node inherits its parent's permissions; an unprivileged creator
 * becomes its owner, as in xenstored.
 */
static struct xsim_xs_node *
xsim_xs_create(struct xsim_shared *sh, domid_t caller, const char *path,
	       const struct xsim_xs_node *parent)
{
	struct xsim_xs_node *n;
	unsigned int i;

	for (i = 0; sh->nodes[i].in_use; i++)
		;
	n = &sh->nodes[i];
	/*
	 * The top first: a process killed in between leaves a top too high,
	 * which only costs a longer scan, never a node the scans miss.
	 */
	if (i >= sh->xs_nodes_top)
		sh->xs_nodes_top = i + 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	snprintf(n->path, sizeof(n->path), "%s", path);
	n->path_hash = xsim_xs_hash(n->path, &n->path_len);
	n->nperms = parent->nperms;
	memcpy(n->perms, parent->perms, sizeof(n->perms));
	if (caller != 0)
		n->perms[0].id = caller;
	n->len = 0;
	n->value[0] = '\0';
	n->in_use = 1;
	return n;
}

int
xsim_xs_write_locked(struct xsim_shared *sh, int send_fd, domid_t caller,
		     const char *path, const void *data, uint32_t len)
{
	struct xsim_xs_node *n, *parent;
	char prefix[XSIM_XS_PATH_MAX + 1];
	unsigned int need = 1;
	size_t i, start;

	if (len > XSIM_XS_VALUE_MAX) {
		errno = E2BIG;
		return -1;
	}
	n = xsim_xs_find(sh, path);
	if (n != NULL && !(xsim_xs_perm(n, caller) & XS_PERM_WRITE)) {
		errno = EACCES;
		return -1;
	}
	if (n == NULL) {
		parent = xsim_xs_find_ancestor(sh, path);
		if (!(xsim_xs_perm(parent, caller) & XS_PERM_WRITE)) {
			errno = EACCES;
			return -1;
		}
		start = strcmp(parent->path, "/") == 0 ? 1 :
			strlen(parent->path) + 1;
		for (i = start; path[i] != '\0'; i++)
			need += path[i] == '/';
		if (xsim_xs_free_nodes(sh) < need) {
			errno = ENOSPC;
			return -1;
		}
		/* The missing parents too, as xenstored creates them. */
		for (i = start; ; i++) {
			if (path[i] != '/' && path[i] != '\0')
				continue;
			memcpy(prefix, path, i);
			prefix[i] = '\0';
			parent = xsim_xs_create(sh, caller, prefix, parent);
			if (path[i] == '\0')
				break;
		}
		n = parent;
	}
	if (len != 0)
		memcpy(n->value, data, len);
	n->value[len] = '\0';
	n->len = len;
	sh->xs_generation++;
	xsim_xs_fire(sh, send_fd, path, n, false);
	return 0;
}

int
xsim_xs_set_perms_locked(struct xsim_shared *sh, int send_fd, domid_t caller,
			 const char *path, const struct xs_permissions *perms,
			 unsigned int num)
{
	struct xsim_xs_node *n;
	unsigned int i;

	if (perms == NULL || num == 0) {
		errno = EINVAL;
		return -1;
	}
	if (num > XSIM_XS_PERMS_MAX) {
		errno = E2BIG;
		return -1;
	}
	for (i = 0; i < num; i++) {
		if (perms[i].perms & ~(XS_PERM_READ | XS_PERM_WRITE)) {
			errno = EINVAL;
			return -1;
		}
	}
	n = xsim_xs_get(sh, caller, path, XS_PERM_OWNER);
	if (n == NULL)
		return -1;
	/* Only the privileged toolstack gives a node away. */
	if (caller != 0 && perms[0].id != n->perms[0].id) {
		errno = EPERM;
		return -1;
	}
	memset(n->perms, 0, sizeof(n->perms));
	memcpy(n->perms, perms, num * sizeof(*perms));
	n->nperms = num;
	sh->xs_generation++;
	xsim_xs_fire(sh, send_fd, path, n, false);
	return 0;
}

int
xsim_xs_rm_locked(struct xsim_shared *sh, int send_fd, domid_t caller,
		  const char *path)
{
	char parent[XSIM_XS_PATH_MAX + 1];
	struct xsim_xs_node *n, old;
	unsigned int i;

	if (strcmp(path, "/") == 0) {
		errno = EINVAL;
		return -1;
	}
	n = xsim_xs_find(sh, path);
	if (n == NULL) {
		/* xenstored: removing a missing child of an existing node is fine. */
		xsim_xs_parent(path, parent);
		if (xsim_xs_get(sh, caller, parent, XS_PERM_READ) != NULL)
			return 0;
		return -1;
	}
	if (!(xsim_xs_perm(n, caller) & XS_PERM_WRITE)) {
		errno = EACCES;
		return -1;
	}
	old = *n;
	for (i = 0; i < sh->xs_nodes_top; i++)
		if (sh->nodes[i].in_use &&
		    xsim_xs_covers_node(path, old.path_len, &sh->nodes[i]))
			sh->nodes[i].in_use = 0;
	/* Lowered after the removal, for the same reason as in create. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	while (sh->xs_nodes_top > 1 && !sh->nodes[sh->xs_nodes_top - 1].in_use)
		sh->xs_nodes_top--;
	sh->xs_generation++;
	xsim_xs_fire(sh, send_fd, path, &old, true);
	return 0;
}

void
xsim_xs_init(struct xsim_shared *sh)
{
	struct xsim_xs_node *root = &sh->nodes[0];

	snprintf(root->path, sizeof(root->path), "/");
	root->path_hash = xsim_xs_hash(root->path, &root->path_len);
	root->perms[0].id = 0;
	root->perms[0].perms = XS_PERM_NONE;
	root->nperms = 1;
	root->in_use = 1;
	sh->xs_nodes_top = 1;
}

bool
xsim_xs_exists(struct xsim_shared *sh, const char *path)
{
	return xsim_xs_find(sh, path) != NULL;
}

static struct xsim_tx *
xsim_tx_find(struct xsim_handle *h, xs_transaction_t t)
{
	struct xsim_tx *tx;

	for (tx = h->txs; tx != NULL; tx = tx->next)
		if (tx->id == t)
			return tx;
	errno = ENOENT;
	return NULL;
}

/* Resolve a path and, if @t is not XBT_NULL, its transaction. */
static int
xsim_xs_prepare(struct xsim_handle *h, xs_transaction_t t, const char *path,
		char *abs, struct xsim_tx **tx)
{
	uint16_t rel_len;

	if (xsim_xs_canon(h->base.domid, path, abs, &rel_len) < 0)
		return -1;
	*tx = NULL;
	if (t != XBT_NULL) {
		*tx = xsim_tx_find(h, t);
		if (*tx == NULL)
			return -1;
	}
	return 0;
}

static struct xsim_tx_op *
xsim_tx_add(struct xsim_tx *tx, enum xsim_tx_op_type type, const char *abs)
{
	struct xsim_tx_op *ops;

	if (tx->nops == tx->cap) {
		ops = realloc(tx->ops, (tx->cap * 2 + 4) * sizeof(*ops));
		if (ops == NULL)
			return NULL;
		tx->ops = ops;
		tx->cap = tx->cap * 2 + 4;
	}
	ops = &tx->ops[tx->nops++];
	memset(ops, 0, sizeof(*ops));
	ops->type = type;
	snprintf(ops->path, sizeof(ops->path), "%s", abs);
	return ops;
}

void *
xsim_xs_read(struct xa_handle *xh, xs_transaction_t t, const char *path,
	     unsigned int *len)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;
	char abs[XSIM_XS_PATH_MAX + 1];
	const uint8_t *value = NULL;
	struct xsim_xs_node *n;
	struct xsim_tx_op *op;
	struct xsim_tx *tx;
	bool exists;
	uint32_t vlen = 0, i;
	char *out = NULL;

	if (xsim_xs_prepare(h, t, path, abs, &tx) < 0)
		return NULL;
	xsim_lock(sh);
	n = xsim_xs_find(sh, abs);
	if (n != NULL && !(xsim_xs_perm(n, xh->domid) & XS_PERM_READ)) {
		errno = EACCES;
		goto out;
	}
	exists = n != NULL;
	if (exists) {
		value = n->value;
		vlen = n->len;
	}
	/* The transaction's own changes, in the order it made them. */
	for (i = 0; tx != NULL && i < tx->nops; i++) {
		op = &tx->ops[i];
		if (op->type == XSIM_TX_WRITE && strcmp(op->path, abs) == 0) {
			exists = true;
			value = op->value;
			vlen = op->len;
		} else if (op->type == XSIM_TX_WRITE && !exists &&
			   xsim_xs_is_ancestor(abs, op->path)) {
			exists = true;
			value = (const uint8_t *)"";
			vlen = 0;
		} else if (op->type == XSIM_TX_RM &&
			   xsim_xs_covers(op->path, abs)) {
			exists = false;
		}
	}
	if (!exists) {
		xsim_xs_set_missing_errno(sh, xh->domid, abs);
		goto out;
	}
	out = malloc(vlen + 1);
	if (out == NULL)
		goto out;
	memcpy(out, value, vlen);
	out[vlen] = '\0';
	if (len != NULL)
		*len = vlen;
out:
	xsim_unlock(sh);
	return out;
}

bool
xsim_xs_write(struct xa_handle *xh, xs_transaction_t t, const char *path,
	      const void *data, unsigned int len)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;
	char abs[XSIM_XS_PATH_MAX + 1];
	struct xsim_xs_node *n;
	struct xsim_tx_op *op;
	struct xsim_tx *tx;
	int rc;

	if (xsim_xs_prepare(h, t, path, abs, &tx) < 0)
		return false;
	if (len > XSIM_XS_VALUE_MAX) {
		errno = E2BIG;
		return false;
	}
	xsim_lock(sh);
	if (tx == NULL) {
		rc = xsim_xs_write_locked(sh, h->xs_fd, xh->domid, abs, data,
					  len);
		xsim_unlock(sh);
		return rc == 0;
	}
	/* Refuse now what the commit would refuse. */
	n = xsim_xs_find(sh, abs);
	if (n == NULL)
		n = xsim_xs_find_ancestor(sh, abs);
	rc = xsim_xs_perm(n, xh->domid) & XS_PERM_WRITE;
	xsim_unlock(sh);
	if (!rc) {
		errno = EACCES;
		return false;
	}
	op = xsim_tx_add(tx, XSIM_TX_WRITE, abs);
	if (op == NULL)
		return false;
	if (len != 0)
		memcpy(op->value, data, len);
	op->len = len;
	return true;
}

bool
xsim_xs_rm(struct xa_handle *xh, xs_transaction_t t, const char *path)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;
	char abs[XSIM_XS_PATH_MAX + 1];
	struct xsim_xs_node *n;
	struct xsim_tx *tx;
	int rc = 0;

	if (xsim_xs_prepare(h, t, path, abs, &tx) < 0)
		return false;
	xsim_lock(sh);
	if (tx == NULL) {
		rc = xsim_xs_rm_locked(sh, h->xs_fd, xh->domid, abs);
		xsim_unlock(sh);
		return rc == 0;
	}
	n = xsim_xs_find(sh, abs);
	if (n != NULL && !(xsim_xs_perm(n, xh->domid) & XS_PERM_WRITE)) {
		errno = EACCES;
		rc = -1;
	}
	xsim_unlock(sh);
	return rc == 0 && xsim_tx_add(tx, XSIM_TX_RM, abs) != NULL;
}

bool
xsim_xs_set_permissions(struct xa_handle *xh, xs_transaction_t t,
			const char *path, struct xs_permissions *perms,
			unsigned int num)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;
	char abs[XSIM_XS_PATH_MAX + 1];
	struct xsim_xs_node *n;
	struct xsim_tx_op *op;
	struct xsim_tx *tx;
	int rc = 0;

	if (xsim_xs_prepare(h, t, path, abs, &tx) < 0)
		return false;
	if (perms == NULL || num == 0 || num > XSIM_XS_PERMS_MAX) {
		errno = perms == NULL || num == 0 ? EINVAL : E2BIG;
		return false;
	}
	xsim_lock(sh);
	if (tx == NULL) {
		rc = xsim_xs_set_perms_locked(sh, h->xs_fd, xh->domid, abs,
					      perms, num);
		xsim_unlock(sh);
		return rc == 0;
	}
	n = xsim_xs_find(sh, abs);
	if (n != NULL && !(xsim_xs_perm(n, xh->domid) & XS_PERM_OWNER)) {
		errno = EACCES;
		rc = -1;
	}
	xsim_unlock(sh);
	if (rc < 0)
		return false;
	op = xsim_tx_add(tx, XSIM_TX_PERMS, abs);
	if (op == NULL)
		return false;
	op->nperms = num;
	memcpy(op->perms, perms, num * sizeof(*perms));
	return true;
}

/* The name of @path's component right below @dir, if @path is under it. */
static const char *
xsim_xs_child(const char *dir, const char *path, size_t *len)
{
	const char *name, *end;

	if (!xsim_xs_is_ancestor(dir, path))
		return NULL;
	name = path + (strcmp(dir, "/") == 0 ? 1 : strlen(dir) + 1);
	end = strchr(name, '/');
	*len = end != NULL ? (size_t)(end - name) : strlen(name);
	return name;
}

struct xsim_names {
	unsigned int num;
	unsigned int cap;
	char **names;
};

static int
xsim_names_add(struct xsim_names *l, const char *name, size_t len)
{
	char **names;
	unsigned int i;

	for (i = 0; i < l->num; i++)
		if (strlen(l->names[i]) == len &&
		    strncmp(l->names[i], name, len) == 0)
			return 0;
	if (l->num == l->cap) {
		names = realloc(l->names, (l->cap * 2 + 8) * sizeof(*names));
		if (names == NULL)
			return -1;
		l->names = names;
		l->cap = l->cap * 2 + 8;
	}
	l->names[l->num] = strndup(name, len);
	if (l->names[l->num] == NULL)
		return -1;
	l->num++;
	return 0;
}

static void
xsim_names_del(struct xsim_names *l, const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < l->num; i++) {
		if (strlen(l->names[i]) == len &&
		    strncmp(l->names[i], name, len) == 0) {
			free(l->names[i]);
			l->names[i] = l->names[--l->num];
			return;
		}
	}
}

static void
xsim_names_clear(struct xsim_names *l)
{
	while (l->num > 0)
		free(l->names[--l->num]);
}

/* One allocation holding the vector and its strings, as libxenstore does. */
static char **
xsim_names_pack(const struct xsim_names *l)
{
	size_t size = (l->num + 1) * sizeof(char *);
	unsigned int i;
	char **vec, *p;

	for (i = 0; i < l->num; i++)
		size += strlen(l->names[i]) + 1;
	vec = malloc(size);
	if (vec == NULL)
		return NULL;
	p = (char *)&vec[l->num + 1];
	for (i = 0; i < l->num; i++) {
		vec[i] = p;
		p = stpcpy(p, l->names[i]) + 1;
	}
	vec[l->num] = NULL;
	return vec;
}

char **
xsim_xs_directory(struct xa_handle *xh, xs_transaction_t t, const char *path,
		  unsigned int *num)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;
	char abs[XSIM_XS_PATH_MAX + 1];
	struct xsim_names l = { 0, 0, NULL };
	struct xsim_xs_node *n;
	struct xsim_tx_op *op;
	struct xsim_tx *tx;
	char **vec = NULL;
	const char *name;
	bool exists;
	size_t len = 0;
	unsigned int i;

	if (xsim_xs_prepare(h, t, path, abs, &tx) < 0)
		return NULL;
	xsim_lock(sh);
	n = xsim_xs_find(sh, abs);
	if (n != NULL && !(xsim_xs_perm(n, xh->domid) & XS_PERM_READ)) {
		errno = EACCES;
		goto out;
	}
	exists = n != NULL;
	for (i = 0; exists && i < sh->xs_nodes_top; i++) {
		if (!sh->nodes[i].in_use)
			continue;
		name = xsim_xs_child(abs, sh->nodes[i].path, &len);
		if (name != NULL && name[len] == '\0' &&
		    xsim_names_add(&l, name, len) < 0)
			goto out;
	}
	for (i = 0; tx != NULL && i < tx->nops; i++) {
		op = &tx->ops[i];
		name = xsim_xs_child(abs, op->path, &len);
		if (op->type == XSIM_TX_RM && xsim_xs_covers(op->path, abs)) {
			exists = false;
			xsim_names_clear(&l);
		} else if (op->type == XSIM_TX_RM && name != NULL &&
			   name[len] == '\0') {
			xsim_names_del(&l, name, len);
		} else if (op->type == XSIM_TX_WRITE &&
			   strcmp(op->path, abs) == 0) {
			exists = true;
		} else if (op->type == XSIM_TX_WRITE && name != NULL) {
			exists = true;
			if (xsim_names_add(&l, name, len) < 0)
				goto out;
		}
	}
	if (!exists) {
		xsim_xs_set_missing_errno(sh, xh->domid, abs);
		goto out;
	}
	vec = xsim_names_pack(&l);
	if (vec != NULL && num != NULL)
		*num = l.num;
out:
	xsim_unlock(sh);
	xsim_names_clear(&l);
	free(l.names);
	return vec;
}

int
xsim_xs_fileno(struct xa_handle *xh)
{
	return xsim_handle(xh)->xs_fd;
}

static int
xsim_xs_watch_path(domid_t domid, const char *path, char *abs,
		   uint16_t *rel_len)
{
	/* "@introduceDomain" and friends are names, not paths. */
	if (path != NULL && path[0] == '@') {
		if (strlen(path) > XSIM_XS_PATH_MAX) {
			errno = EINVAL;
			return -1;
		}
		snprintf(abs, XSIM_XS_PATH_MAX + 1, "%s", path);
		*rel_len = 0;
		return 0;
	}
	return xsim_xs_canon(domid, path, abs, rel_len);
}

bool
xsim_xs_watch(struct xa_handle *xh, const char *path, const char *token)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;
	char abs[XSIM_XS_PATH_MAX + 1];
	struct xsim_xs_watch *w, *free_w = NULL;
	uint16_t rel_len;
	unsigned int i;
	bool ok = false;

	if (xsim_xs_watch_path(xh->domid, path, abs, &rel_len) < 0)
		return false;
	if (token == NULL || strlen(token) > XSIM_XS_TOKEN_MAX) {
		errno = EINVAL;
		return false;
	}
	xsim_lock(sh);
	for (i = 0; i < sh->xs_watches_top; i++) {
		w = &sh->watches[i];
		if (w->owner == 0) {
			if (free_w == NULL)
				free_w = w;
		} else if (w->owner == h->owner && strcmp(w->path, abs) == 0 &&
			   w->rel_len == rel_len && strcmp(w->token, token) == 0) {
			errno = EEXIST;
			goto out;
		}
	}
	if (free_w == NULL && sh->xs_watches_top < XSIM_XS_WATCHES)
		free_w = &sh->watches[sh->xs_watches_top];
	if (free_w == NULL) {
		errno = ENOSPC;
		goto out;
	}
	/* The top first, as for nodes (xsim_xs_create). */
	i = free_w - sh->watches;
	if (i >= sh->xs_watches_top)
		sh->xs_watches_top = i + 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	free_w->owner = h->owner;
	free_w->domid = xh->domid;
	free_w->rel_len = rel_len;
	snprintf(free_w->path, sizeof(free_w->path), "%s", abs);
	snprintf(free_w->token, sizeof(free_w->token), "%s", token);
	/* xenstored fires a new watch once, so the watcher reads the state. */
	xsim_xs_queue(sh, h->xs_fd, h->owner, path, token);
	ok = true;
out:
	xsim_unlock(sh);
	return ok;
}

/* Lower the watches' top past the free slots, after they were freed. */
static void
xsim_xs_trim_watches(struct xsim_shared *sh)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	while (sh->xs_watches_top > 0 &&
	       sh->watches[sh->xs_watches_top - 1].owner == 0)
		sh->xs_watches_top--;
}

/* Drop queued events of a removed watch, keeping the others in order. */
static void
xsim_xs_unqueue(struct xsim_handle *h, const char *path, const char *token)
{
	struct xsim_slot *slot = xsim_slot(h->at->sh, h->owner);
	struct xsim_xs_event *ev;
	uint32_t i, kept = 0;

	for (i = 0; i < slot->xs_count; i++) {
		ev = &slot->xs_events[(slot->xs_head + i) % XSIM_XS_EVENTS];
		if (strcmp(ev->token, token) == 0 &&
		    xsim_xs_covers(path, ev->path))
			continue;
		if (kept != i)
			slot->xs_events[(slot->xs_head + kept) %
					XSIM_XS_EVENTS] = *ev;
		kept++;
	}
	slot->xs_count = kept;
	if (kept == 0)
		xsim_xs_drain_doorbell(h->xs_fd);
}

bool
xsim_xs_unwatch(struct xa_handle *xh, const char *path, const char *token)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;
	char abs[XSIM_XS_PATH_MAX + 1];
	struct xsim_xs_watch *w;
	uint16_t rel_len;
	unsigned int i;
	bool ok = false;

	if (xsim_xs_watch_path(xh->domid, path, abs, &rel_len) < 0)
		return false;
	if (token == NULL) {
		errno = EINVAL;
		return false;
	}
	xsim_lock(sh);
	errno = ENOENT;
	for (i = 0; i < sh->xs_watches_top; i++) {
		w = &sh->watches[i];
		if (w->owner == h->owner && strcmp(w->path, abs) == 0 &&
		    w->rel_len == rel_len && strcmp(w->token, token) == 0) {
			w->owner = 0;
			xsim_xs_unqueue(h, path, token);
			ok = true;
			break;
		}
	}
	xsim_xs_trim_watches(sh);
	xsim_unlock(sh);
	return ok;
}

char **
xsim_xs_check_watch(struct xa_handle *xh)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;
	struct xsim_slot *slot = xsim_slot(sh, h->owner);
	struct xsim_xs_event ev;
	size_t plen, tlen;
	char **vec;

	xsim_lock(sh);
	if (slot->xs_count == 0) {
		xsim_unlock(sh);
		errno = EAGAIN;
		return NULL;
	}
	ev = slot->xs_events[slot->xs_head];
	slot->xs_head = (slot->xs_head + 1) % XSIM_XS_EVENTS;
	/* Under the mutex, so that a concurrent event's doorbell survives. */
	if (--slot->xs_count == 0)
		xsim_xs_drain_doorbell(h->xs_fd);
	xsim_unlock(sh);

	plen = strlen(ev.path) + 1;
	tlen = strlen(ev.token) + 1;
	vec = malloc(2 * sizeof(char *) + plen + tlen);
	if (vec == NULL)
		return NULL;
	vec[XS_WATCH_PATH] = (char *)&vec[2];
	vec[XS_WATCH_TOKEN] = vec[XS_WATCH_PATH] + plen;
	memcpy(vec[XS_WATCH_PATH], ev.path, plen);
	memcpy(vec[XS_WATCH_TOKEN], ev.token, tlen);
	return vec;
}

xs_transaction_t
xsim_xs_transaction_start(struct xa_handle *xh)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_tx *tx;

	tx = calloc(1, sizeof(*tx));
	if (tx == NULL)
		return XBT_NULL;
	/* Ids are never XBT_NULL, even when the counter wraps. */
	do {
		tx->id = ++h->next_tx;
	} while (tx->id == XBT_NULL);
	xsim_lock(h->at->sh);
	tx->generation = h->at->sh->xs_generation;
	xsim_unlock(h->at->sh);
	tx->next = h->txs;
	h->txs = tx;
	return tx->id;
}

static int
xsim_tx_apply(struct xsim_handle *h, const struct xsim_tx_op *op)
{
	struct xsim_shared *sh = h->at->sh;
	domid_t domid = h->base.domid;

	switch (op->type) {
	case XSIM_TX_WRITE:
		return xsim_xs_write_locked(sh, h->xs_fd, domid, op->path,
					    op->value, op->len);
	case XSIM_TX_RM:
		return xsim_xs_rm_locked(sh, h->xs_fd, domid, op->path);
	case XSIM_TX_PERMS:
		return xsim_xs_set_perms_locked(sh, h->xs_fd, domid, op->path,
						op->perms, op->nperms);
	}
	errno = EINVAL;
	return -1;
}

bool
xsim_xs_transaction_end(struct xa_handle *xh, xs_transaction_t t, bool abort)
{
	struct xsim_handle *h = xsim_handle(xh);
	struct xsim_shared *sh = h->at->sh;
	struct xsim_tx **pp, *tx;
	bool ok = true;
	uint32_t i;
	int err = 0;

	for (pp = &h->txs; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->id == t)
			break;
	tx = *pp;
	if (tx == NULL) {
		errno = ENOENT;
		return false;
	}
	*pp = tx->next;
	if (!abort) {
		xsim_lock(sh);
		/*
		 * Optimistic: any change to the store since the start is a
		 * conflict, and the caller retries the whole transaction.
		 */
		if (sh->xs_generation != tx->generation) {
			ok = false;
			err = EAGAIN;
		}
		for (i = 0; ok && i < tx->nops; i++) {
			if (xsim_tx_apply(h, &tx->ops[i]) < 0) {
				ok = false;
				err = errno;
			}
		}
		xsim_unlock(sh);
	}
	free(tx->ops);
	free(tx);
	if (!ok)
		errno = err;
	return ok;
}

void
xsim_xs_release(struct xsim_shared *sh, xsim_owner_t owner)
{
	unsigned int i;

	for (i = 0; i < sh->xs_watches_top; i++)
		if (sh->watches[i].owner == owner)
			sh->watches[i].owner = 0;
	xsim_xs_trim_watches(sh);
	xsim_slot(sh, owner)->xs_count = 0;
	xsim_slot(sh, owner)->xs_head = 0;
}

void
xsim_xs_close(struct xsim_handle *h)
{
	struct xsim_tx *tx;

	while ((tx = h->txs) != NULL) {
		h->txs = tx->next;
		free(tx->ops);
		free(tx);
	}
}

void
xsim_xs_usage(struct xsim_shared *sh, domid_t domid, struct xsim_usage *usage)
{
	unsigned int i;

	for (i = 0; i < sh->xs_watches_top; i++)
		if (sh->watches[i].owner != 0 && sh->watches[i].domid == domid)
			usage->watches++;
}
