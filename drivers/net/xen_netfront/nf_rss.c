/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Receive-side scaling of xen_netfront: the application's hash (ethdev's
 * RSS configuration: the header fields, a Toeplitz key and a 128-entry
 * table) configured in the backend over the control ring, as Windows's PV
 * drivers configure it (netif.h, "Hash algorithms" and the hash control
 * messages). A backend that takes it hashes every frame it sends us and
 * says the value in a hash extra, which becomes the mbuf's RSS hash; Linux
 * netback also sends each frame on the queue its table names, and our
 * netback lets its application read the table to do the same.
 *
 * The requests go once the backend says Connected, and again whenever the
 * application changes the hash while connected. Not earlier, as static
 * grants' requests do: Linux netback serves the control ring before it
 * sets its number of queues, so a table sent with the connection is
 * refused (every entry names a queue it does not have yet); Windows's
 * drivers also wait. The key and the table travel in two pages granted
 * read-only, read by the backend when it serves the request: each change
 * writes them anew and sends every request again, so the backend ends
 * with the latest whatever order it read the pages in. Control thread
 * and ethdev calls, under the port's lock.
 */

#include <errno.h>
#include <string.h>

#include "nf.h"

bool
nf_rss_get(struct xn_port *xn, struct netif_hash_config *cfg)
{
	struct nf_port *ad = nf_port(xn);

	*cfg = ad->rss.cfg;
	return ad->rss.cfg.alg == XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ;
}

bool
nf_rss_connect(struct nf_port *ad)
{
	ad->rss.pages = xa_gnt_share_on_node(ad->xn.xa, ad->backend_id,
					     NF_RSS_PAGES, ad->rss.refs, false,
					     ad->xn.dev->data->numa_node);
	if (ad->rss.pages == NULL)
		return false;
	ad->rss.nb_ids = 0;
	ad->rss.unsent = ad->rss.cfg.alg != XEN_NETIF_CTRL_HASH_ALGORITHM_NONE;
	return true;
}

void
nf_rss_release(struct nf_port *ad)
{
	if (ad->rss.pages != NULL &&
	    xa_gnt_unshare(ad->xn.xa, ad->rss.pages, NF_RSS_PAGES) < 0)
		NF_LOG(WARNING, "%s: cannot unshare the hash pages: %s",
		       ad->fe_dir, strerror(errno));
	ad->rss.pages = NULL;
	ad->rss.nb_ids = 0;
}

/*
 * The table as the backend may take it: an entry naming a queue pair it
 * does not serve (it serves fewer than we configured) would have the whole
 * table refused, so such entries fold onto the pairs it serves.
 */
static void
nf_rss_write_table(struct nf_port *ad, uint32_t *table)
{
	unsigned int i, folded = 0;

	for (i = 0; i < ad->rss.cfg.size; i++) {
		table[i] = ad->rss.cfg.mapping[i];
		if (table[i] >= ad->xn.nb_pairs) {
			table[i] %= ad->xn.nb_pairs;
			folded++;
		}
	}
	if (folded > 0)
		NF_LOG(WARNING, "%s: the backend serves %u queue pairs: %u hash table entries folded onto them",
		       ad->fe_dir, ad->xn.nb_pairs, folded);
}

/* Queue one request, its id kept to match its answer. */
static bool
nf_rss_queue(struct nf_port *ad, uint16_t type, uint32_t d0, uint32_t d1,
	     uint32_t d2)
{
	uint16_t id;

	if (!nf_ctrl_ring_queue(ad, type, d0, d1, d2, &id))
		return false;
	ad->rss.ids[ad->rss.nb_ids] = id;
	ad->rss.types[ad->rss.nb_ids++] = type;
	return true;
}

void
nf_rss_send(struct nf_port *ad)
{
	const struct netif_hash_config *h = &ad->rss.cfg;
	uint8_t *key = ad->rss.pages;
	uint32_t *table = (uint32_t *)(key + XA_PAGE_SIZE);
	bool toeplitz = h->alg == XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ;

	RTE_BUILD_BUG_ON(NETIF_HASH_MAPPING_MAX * sizeof(*table) >
			 XA_PAGE_SIZE);
	if (!ad->rss.unsent || ad->rss.pages == NULL || !ad->xn.connected ||
	    !xn_port_peer_serves(&ad->xn))
		return;
	/* Answers still to come would be taken for this round's. */
	if (ad->rss.nb_ids > 0)
		return;
	if (nf_ctrl_ring_free(ad) < (toeplitz ? NF_RSS_REQUESTS : 1))
		return;	/* sent once answers have made room */
	ad->rss.unsent = false;
	ad->rss.refused = false;
	memcpy(key, h->key, NETIF_HASH_KEY_MAX);
	nf_rss_write_table(ad, table);
	/*
	 * In this order: flags need an algorithm, the table a size (which
	 * also clears it). Queued together, the ring had room for all.
	 */
	nf_rss_queue(ad, XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM, h->alg, 0, 0);
	if (toeplitz) {
		nf_rss_queue(ad, XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS, h->flags,
			     0, 0);
		nf_rss_queue(ad, XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
			     ad->rss.refs[0], NETIF_HASH_KEY_MAX, 0);
		nf_rss_queue(ad, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE,
			     h->size, 0, 0);
		nf_rss_queue(ad, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
			     ad->rss.refs[1], h->size, 0);
	}
	nf_ctrl_ring_kick(ad);
}

int
nf_rss_set(struct xn_port *xn, const struct netif_hash_config *cfg)
{
	struct nf_port *ad = nf_port(xn);

	ad->rss.cfg = *cfg;
	ad->rss.unsent = true;
	if (ad->rss.pages != NULL)
		nf_rss_send(ad);
	else if (xn->connected &&
		 cfg->alg != XEN_NETIF_CTRL_HASH_ALGORITHM_NONE)
		NF_LOG(NOTICE, "%s: the backend has no control ring: frames come unhashed, on the queues it chooses",
		       ad->fe_dir);
	return 0;
}

static const char *
nf_rss_type_name(uint16_t type)
{
	switch (type) {
	case XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM:
		return "SET_HASH_ALGORITHM";
	case XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS:
		return "SET_HASH_FLAGS";
	case XEN_NETIF_CTRL_TYPE_SET_HASH_KEY:
		return "SET_HASH_KEY";
	case XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE:
		return "SET_HASH_MAPPING_SIZE";
	}
	return "SET_HASH_MAPPING";
}

bool
nf_rss_answered(struct nf_port *ad, const struct xen_netif_ctrl_response *rsp)
{
	unsigned int i;

	for (i = 0; i < ad->rss.nb_ids; i++)
		if (rsp->id == ad->rss.ids[i] &&
		    rsp->type == ad->rss.types[i])
			break;
	if (i == ad->rss.nb_ids)
		return false;
	/* One line per configuration: the first refusal says it all. */
	if (rsp->status != XEN_NETIF_CTRL_STATUS_SUCCESS && !ad->rss.refused) {
		ad->rss.refused = true;
		NF_LOG(NOTICE,
		       "%s: the backend refused %s (status %u): frames come unhashed or hashed otherwise",
		       ad->fe_dir, nf_rss_type_name(rsp->type), rsp->status);
	}
	ad->rss.ids[i] = ad->rss.ids[--ad->rss.nb_ids];
	ad->rss.types[i] = ad->rss.types[ad->rss.nb_ids];
	if (ad->rss.nb_ids > 0)
		return true;
	if (!ad->rss.refused &&
	    ad->rss.cfg.alg == XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ)
		NF_LOG(NOTICE, "%s: the backend takes our hash: Toeplitz over hash types 0x%x, our key and table of %u entries",
		       ad->fe_dir, ad->rss.cfg.flags, ad->rss.cfg.size);
	/* A change made while this round was out goes now. */
	nf_rss_send(ad);
	return true;
}
