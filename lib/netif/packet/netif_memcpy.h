/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The copy of a packet's bytes, both ends' data path. DPDK's rte_memcpy()
 * is inline and compiled for the baseline the installed DPDK was built
 * for (Debian's: -march=corei7, 16-byte moves); the C library's memcpy()
 * chooses at run time the widest moves the CPU has (AVX2, AVX-512, rep
 * movsb), at the cost of a call. Short copies, most packets, stay inline;
 * longer ones go to the C library: at 512 and 1518 bytes the netfront's
 * sending testpmd spent 235 and 352 cycles a packet with rte_memcpy(),
 * 175 and 270 with memcpy(), on a CPU with AVX-512.
 */

#ifndef NETIF_MEMCPY_H
#define NETIF_MEMCPY_H

#include <stddef.h>
#include <string.h>

#include <rte_memcpy.h>

/* Longer copies than this go to the C library's memcpy(). */
#define NETIF_MEMCPY_INLINE_MAX 256

static inline void
netif_memcpy(void *dst, const void *src, size_t n)
{
	if (n <= NETIF_MEMCPY_INLINE_MAX)
		rte_memcpy(dst, src, n);
	else
		memcpy(dst, src, n);
}

#endif /* NETIF_MEMCPY_H */
