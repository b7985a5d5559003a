/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Building the grant reference tables of netif_gref_map.h.
 */

#include <stdlib.h>

#include <rte_common.h>

#include "netif_gref_map.h"

struct netif_gref_map *
netif_gref_map_create(uint32_t count)
{
	uint32_t size = rte_align32pow2(RTE_MAX(count, 1u) * 2);
	struct netif_gref_map *map;

	map = calloc(1, sizeof(*map) + size * sizeof(map->e[0]));
	if (map != NULL)
		map->mask = size - 1;
	return map;
}

void
netif_gref_map_add(struct netif_gref_map *map, grant_ref_t ref,
		   uint8_t *page, bool writable)
{
	uint32_t i = netif_gref_hash(ref) & map->mask;

	while (map->e[i].page != NULL)
		i = (i + 1) & map->mask;
	map->e[i] = (struct netif_gref_entry){
		.ref = ref,
		.writable = writable,
		.page = page,
	};
	map->count++;
}
