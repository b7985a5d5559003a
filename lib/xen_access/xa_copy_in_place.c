/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * xa_gnt_detach()'s step common to both providers (xa_provider.h): a
 * mapping replaced by a private copy of itself, at the same address. Its
 * own file, below the dispatch in xa.c, so that a provider calling it
 * calls down, never back up into the layer that dispatches to it.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mremap()'s MREMAP_FIXED */
#endif

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "xa_provider.h"

int
xa_replace_with_copy(void *addr, uint32_t count)
{
	size_t len = (size_t)count * XA_PAGE_SIZE;
	void *copy;
	int err;

	copy = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (copy == MAP_FAILED)
		return -1;
	memcpy(copy, addr, len);
	/*
	 * Moving the copy over @addr unmaps what was there and puts the copy
	 * in its place under the one lock a page fault takes: a reader sees
	 * the old page or the copy, never nothing.
	 */
	if (mprotect(copy, len, PROT_READ) != 0 ||
	    mremap(copy, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, addr) ==
		    MAP_FAILED) {
		err = errno;
		munmap(copy, len);
		errno = err;
		return -1;
	}
	return 0;
}
