/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * One queue's static grants as the data path sees them: a table from grant
 * reference to the page the backend keeps mapped, found in a few probes.
 * A table never changes once published: the control thread builds a new
 * one for every change and frees the old one only after the queue's bursts
 * are done with it (netif_statics.h), so a burst reads it without a lock.
 */

#ifndef NETIF_GREF_MAP_H
#define NETIF_GREF_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include <xen/grant_table.h>

struct netif_gref_entry {
	grant_ref_t ref;
	uint32_t writable;
	uint8_t *page;			/* NULL: an empty entry */
};

struct netif_gref_map {
	uint32_t mask;			/* entries - 1, a power of two minus 1 */
	uint32_t count;			/* entries in use: at most half */
	struct netif_gref_entry e[];
};

static inline uint32_t
netif_gref_hash(grant_ref_t ref)
{
	/* Frontends hand out references in runs: spread them. */
	return ref * 0x9e3779b1u;
}

/*
 * The page of grant @ref, mapped writable if @write asks; NULL when it is
 * not in @map (or @map is NULL), or mapped read-only and @write asks.
 */
static inline uint8_t *
netif_gref_map_find(const struct netif_gref_map *map, grant_ref_t ref,
		    bool write)
{
	uint32_t i;

	if (map == NULL)
		return NULL;
	for (i = netif_gref_hash(ref) & map->mask;; i = (i + 1) & map->mask) {
		const struct netif_gref_entry *e = &map->e[i];

		if (e->page == NULL)
			return NULL;
		if (e->ref == ref)
			return write && !e->writable ? NULL : e->page;
	}
}

/*
 * A new table for @count entries (empty), sized so that at least half of
 * it stays empty; NULL when out of memory. Free it with free().
 */
struct netif_gref_map *netif_gref_map_create(uint32_t count);

/* Add @ref (not in @map yet, room left) mapped at @page. */
void netif_gref_map_add(struct netif_gref_map *map, grant_ref_t ref,
			uint8_t *page, bool writable);

#endif /* NETIF_GREF_MAP_H */
