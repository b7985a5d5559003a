/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Layer 1 of the simulated hypervisor (see xsim_shm.h), the segment:
 * creating or attaching the named shared memory /dev/shm/xsim-<instance>,
 * its versioned header, the process-shared robust mutex that serializes
 * control operations, the datagrams that carry doorbells between handles,
 * xsim_instance_destroy(), the rule for instance names (xa.h's
 * xa_sim_instance_valid()) and the names of private instances. It knows
 * the layout but none of the rules the layers above keep in it: what a
 * new segment must hold besides its header comes from the creator's boot
 * function.
 */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "xsim.h"
#include "xsim_shm.h"

/* How long an opener waits for a concurrent creator to finish. */
#define XSIM_CREATE_WAIT_NS	(2ull * 1000 * 1000 * 1000)

static pthread_mutex_t xsim_attach_lock = PTHREAD_MUTEX_INITIALIZER;
static struct xsim_attach *xsim_attachments;

static size_t
xsim_pool_offset(void)
{
	return (sizeof(struct xsim_shared) + XA_PAGE_SIZE - 1) &
		~(size_t)(XA_PAGE_SIZE - 1);
}

static size_t
xsim_segment_size(void)
{
	return xsim_pool_offset() + (size_t)XSIM_POOL_PAGES * XA_PAGE_SIZE;
}

static int
xsim_shm_name(const char *instance, char *buf, size_t size)
{
	size_t len = strlen(instance);

	if (len == 0 || len > XSIM_NAME_MAX || strchr(instance, '/') != NULL) {
		errno = EINVAL;
		return -1;
	}
	snprintf(buf, size, "/xsim-%s", instance);
	return 0;
}

uint64_t
xsim_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int
xsim_init_shared(struct xsim_shared *sh, size_t size, xsim_boot_t *boot)
{
	pthread_mutexattr_t attr;
	int rc;

	sh->version = XSIM_VERSION;
	sh->layout_size = sizeof(*sh);
	sh->size = size;
	sh->pool_offset = xsim_pool_offset();
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	/* A process killed inside a control operation must not wedge the rest. */
	pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
	rc = pthread_mutex_init(&sh->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	boot(sh);
	__atomic_store_n(&sh->magic, XSIM_MAGIC, __ATOMIC_RELEASE);
	return 0;
}

/* Wait for the creator to size the segment and publish its header. */
static int
xsim_wait_created(int fd, struct xsim_shared **shp, size_t size)
{
	uint64_t deadline = xsim_now_ns() + XSIM_CREATE_WAIT_NS;
	struct xsim_shared *sh;
	struct stat st;

	for (;;) {
		if (fstat(fd, &st) < 0)
			return -1;
		if ((size_t)st.st_size == size)
			break;
		if (st.st_size != 0) {
			errno = EPROTO;
			return -1;
		}
		if (xsim_now_ns() > deadline) {
			errno = ETIMEDOUT;
			return -1;
		}
		usleep(1000);
	}
	sh = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (sh == MAP_FAILED)
		return -1;
	while (__atomic_load_n(&sh->magic, __ATOMIC_ACQUIRE) != XSIM_MAGIC) {
		if (xsim_now_ns() > deadline) {
			munmap(sh, size);
			errno = ETIMEDOUT;
			return -1;
		}
		usleep(1000);
	}
	if (sh->version != XSIM_VERSION || sh->layout_size != sizeof(*sh) ||
	    sh->size != size) {
		munmap(sh, size);
		errno = EPROTO;
		return -1;
	}
	*shp = sh;
	return 0;
}

static int
xsim_open_segment(const char *shm_name, xsim_boot_t *boot, int *fdp,
		  struct xsim_shared **shp)
{
	size_t size = xsim_segment_size();
	struct xsim_shared *sh;
	int fd, attempt;

	for (attempt = 0; attempt < 3; attempt++) {
		fd = shm_open(shm_name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
			      0600);
		if (fd >= 0) {
			/* Sparse: only the pages someone touches cost memory. */
			if (ftruncate(fd, size) < 0)
				goto fail_created;
			sh = mmap(NULL, size, PROT_READ | PROT_WRITE,
				  MAP_SHARED, fd, 0);
			if (sh == MAP_FAILED)
				goto fail_created;
			if (xsim_init_shared(sh, size, boot) < 0) {
				munmap(sh, size);
				goto fail_created;
			}
			*fdp = fd;
			*shp = sh;
			return 0;
		}
		if (errno != EEXIST)
			return -1;
		fd = shm_open(shm_name, O_RDWR | O_CLOEXEC, 0);
		if (fd < 0) {
			/* Destroyed between our two opens: try to create it. */
			if (errno == ENOENT)
				continue;
			return -1;
		}
		if (xsim_wait_created(fd, shp, size) < 0) {
			int err = errno;

			close(fd);
			errno = err;
			return -1;
		}
		*fdp = fd;
		return 0;
	}
	errno = EAGAIN;
	return -1;

fail_created: {
		int err = errno;

		shm_unlink(shm_name);
		close(fd);
		errno = err;
		return -1;
	}
}

struct xsim_attach *
xsim_attach(const char *instance, xsim_boot_t *boot)
{
	char shm_name[XSIM_NAME_MAX + 8];
	struct xsim_attach *at;

	if (instance == NULL)
		instance = "default";
	if (xsim_shm_name(instance, shm_name, sizeof(shm_name)) < 0)
		return NULL;
	pthread_mutex_lock(&xsim_attach_lock);
	for (at = xsim_attachments; at != NULL; at = at->next) {
		if (!at->unlinked && strcmp(at->name, instance) == 0) {
			at->refs++;
			goto out;
		}
	}
	at = calloc(1, sizeof(*at));
	if (at == NULL)
		goto out;
	if (xsim_open_segment(shm_name, boot, &at->fd, &at->sh) < 0) {
		int err = errno;

		free(at);
		at = NULL;
		errno = err;
		goto out;
	}
	snprintf(at->name, sizeof(at->name), "%s", instance);
	at->refs = 1;
	at->next = xsim_attachments;
	xsim_attachments = at;
out:
	pthread_mutex_unlock(&xsim_attach_lock);
	return at;
}

void
xsim_attach_hold(struct xsim_attach *at)
{
	pthread_mutex_lock(&xsim_attach_lock);
	at->refs++;
	pthread_mutex_unlock(&xsim_attach_lock);
}

void
xsim_detach(struct xsim_attach *at)
{
	struct xsim_attach **pp;

	pthread_mutex_lock(&xsim_attach_lock);
	if (--at->refs == 0) {
		for (pp = &xsim_attachments; *pp != at; pp = &(*pp)->next)
			;
		*pp = at->next;
		munmap(at->sh, at->sh->size);
		close(at->fd);
		free(at);
	}
	pthread_mutex_unlock(&xsim_attach_lock);
}

int
xsim_instance_destroy(const char *instance)
{
	char shm_name[XSIM_NAME_MAX + 8];
	struct xsim_attach *at;

	if (instance == NULL)
		instance = "default";
	if (xsim_shm_name(instance, shm_name, sizeof(shm_name)) < 0)
		return -1;
	pthread_mutex_lock(&xsim_attach_lock);
	for (at = xsim_attachments; at != NULL; at = at->next)
		if (strcmp(at->name, instance) == 0)
			at->unlinked = true;
	pthread_mutex_unlock(&xsim_attach_lock);
	return shm_unlink(shm_name);
}

bool
xa_sim_instance_valid(const char *name)
{
	size_t i, len = strlen(name);

	if (len == 0 || len > XA_SIM_INSTANCE_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '-' &&
		    name[i] != '_')
			return false;
	return true;
}

int
xsim_instance_name_private(char *buf, size_t size, const char *prefix)
{
	int len = snprintf(buf, size, "%s-%d-%" PRIu64, prefix, (int)getpid(),
			   xsim_now_ns());
	bool fits = len >= 0 && (size_t)len < size;

	if (fits && xa_sim_instance_valid(buf))
		return 0;
	errno = fits ? EINVAL : ENAMETOOLONG;
	if (size > 0)
		buf[0] = '\0';
	return -1;
}

void
xsim_lock(struct xsim_shared *sh)
{
	/*
	 * The previous owner died mid-operation. Its handle is reaped at the
	 * next open; the tables themselves are updated in an order that
	 * leaves them usable, so carry on.
	 */
	if (pthread_mutex_lock(&sh->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&sh->lock);
}

void
xsim_unlock(struct xsim_shared *sh)
{
	pthread_mutex_unlock(&sh->lock);
}

int
xsim_send(int fd, const void *buf, size_t len,
	  const struct sockaddr_un *addr, socklen_t addrlen)
{
	if (sendto(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL,
		   (const struct sockaddr *)addr, addrlen) >= 0)
		return 0;
	/* The receiving process is gone; Xen drops events to a dead guest. */
	if (errno == ECONNREFUSED || errno == ENOENT)
		return 0;
	return -1;
}
