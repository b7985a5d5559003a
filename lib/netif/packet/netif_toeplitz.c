/* SPDX-License-Identifier: BSD-3-Clause */

/* The Toeplitz hash of a key as tables (see netif_toeplitz.h). */

#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>

#include "netif_toeplitz.h"

void
netif_toeplitz_init(struct netif_toeplitz *t, const uint8_t *key)
{
	/* Zeros past the key: the last byte's windows read 8 bytes on. */
	uint8_t k[NETIF_TOEPLITZ_KEY_MAX + 8] = { 0 };
	unsigned int n, v, b;

	memcpy(k, key, NETIF_TOEPLITZ_KEY_MAX);
	for (n = 0; n < RTE_DIM(t->byte); n++) {
		uint32_t window[8];

		uint64_t bits;

		/* The 32 key bits from input bit 8n + b, most significant
		 * bit first as netif.h numbers them. */
		memcpy(&bits, &k[n], sizeof(bits));
		bits = rte_be_to_cpu_64(bits);
		for (b = 0; b < 8; b++)
			window[b] = (uint32_t)((bits << b) >> 32);
		for (v = 0; v < 256; v++) {
			uint32_t h = 0;

			for (b = 0; b < 8; b++)
				if (v & (0x80 >> b))
					h ^= window[b];
			t->byte[n][v] = h;
		}
	}
}
