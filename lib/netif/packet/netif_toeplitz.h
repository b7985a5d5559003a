/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The Toeplitz hash (netif.h's XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ) of a
 * key as tables, made once when the frontend sets its key: a frame is then
 * hashed with a load and an XOR per byte of its addresses and ports, not a
 * test and a shift per bit (rte_softrss(): about 450 instructions a frame,
 * the most of anything the netback did per packet for a guest with RSS).
 *
 * Each input bit set adds the 32 key bits that start at its position, so
 * what a byte adds depends only on its position and value: 256 values per
 * byte position, 36 KiB for the longest input (IPv6 addresses and TCP
 * ports), of which an IPv4 frame reads 8 or 12 cache lines. Tables per
 * nibble would take 4.5 KiB but three times the instructions.
 */

#ifndef NETIF_TOEPLITZ_H
#define NETIF_TOEPLITZ_H

#include <stdint.h>

/* The longest key a frontend sets (Linux's XEN_NETBK_MAX_HASH_KEY_SIZE). */
#define NETIF_TOEPLITZ_KEY_MAX 40
/* The longest input: two IPv6 addresses and two ports. */
#define NETIF_TOEPLITZ_INPUT_MAX 36

struct netif_toeplitz {
	uint32_t byte[NETIF_TOEPLITZ_INPUT_MAX][256];
};

/* The tables of @key (NETIF_TOEPLITZ_KEY_MAX bytes, unset ones 0). */
void netif_toeplitz_init(struct netif_toeplitz *t, const uint8_t *key);

/*
 * What @len bytes of @buf add to the hash at input position @pos (the
 * hash of a whole input is the XOR of its parts'): @pos and @len
 * multiples of 4 (netif.h's inputs are addresses and port pairs), their
 * sum at most NETIF_TOEPLITZ_INPUT_MAX.
 */
static inline uint32_t
netif_toeplitz(const struct netif_toeplitz *t, uint32_t pos, const uint8_t *buf,
	       uint32_t len)
{
	const uint32_t(*byte)[256] = &t->byte[pos];
	uint32_t h = 0, i;

	for (i = 0; i < len; i += 4, byte += 4)
		h ^= byte[0][buf[i]] ^ byte[1][buf[i + 1]] ^
		     byte[2][buf[i + 2]] ^ byte[3][buf[i + 3]];
	return h;
}

#endif /* NETIF_TOEPLITZ_H */
