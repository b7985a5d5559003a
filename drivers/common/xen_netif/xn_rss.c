/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The RSS dev_ops both PMDs share (see xn_rss.h): ethdev's RSS terms
 * translated to netif's hash (lib/netif/packet/netif_hash.h) and back.
 */

#include <errno.h>
#include <string.h>

#include "netif_hash.h"
#include "xn_rss.h"

/*
 * Microsoft's key ("Verifying the RSS Hash Calculation"), the one most
 * NICs and Windows start from: the key of a netfront whose application
 * gives none.
 */
static const uint8_t default_key[NETIF_HASH_KEY_MAX] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static const struct {
	uint64_t rss_hf;
	uint32_t flag;
} types[] = {
	{ RTE_ETH_RSS_IPV4, XEN_NETIF_CTRL_HASH_TYPE_IPV4 },
	{ RTE_ETH_RSS_NONFRAG_IPV4_TCP, XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP },
	{ RTE_ETH_RSS_IPV6, XEN_NETIF_CTRL_HASH_TYPE_IPV6 },
	{ RTE_ETH_RSS_NONFRAG_IPV6_TCP, XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP },
};

static uint32_t
flags_of(uint64_t rss_hf)
{
	uint32_t flags = 0;
	unsigned int i;

	for (i = 0; i < RTE_DIM(types); i++)
		if (rss_hf & types[i].rss_hf)
			flags |= types[i].flag;
	return flags;
}

static uint64_t
rss_hf_of(uint32_t flags)
{
	uint64_t rss_hf = 0;
	unsigned int i;

	for (i = 0; i < RTE_DIM(types); i++)
		if (flags & types[i].flag)
			rss_hf |= types[i].rss_hf;
	return rss_hf;
}

/*
 * The hash of the port (xn_rss.h), under the lock; false when none (then
 * a netback's is all zeros, a netfront's what it would be if turned on).
 */
static bool
current(struct xn_port *p, struct netif_hash_config *cfg)
{
	bool on;

	*cfg = (struct netif_hash_config){ .alg = 0 };
	pthread_mutex_lock(&p->lock);
	on = xn_ops_of(p)->rss(p, cfg);
	pthread_mutex_unlock(&p->lock);
	return on;
}

/*
 * @rss_hf and @key (NULL: keep the one in @cfg) into @cfg: no hash types
 * turn the hash off. -EINVAL (logged) for a key netif cannot carry or
 * types it does not have (ethdev checked them against dev_infos).
 */
static int
take_conf(struct xn_port *p, struct netif_hash_config *cfg, uint64_t rss_hf,
	  const uint8_t *key, uint8_t key_len)
{
	if (rss_hf & ~XN_RSS_OFFLOADS) {
		XN_LOG(p, ERR, "RSS hash types 0x%" PRIx64 ": a vif hashes IPv4, IPv4+TCP, IPv6 and IPv6+TCP only",
		       rss_hf);
		return -EINVAL;
	}
	if (key != NULL && (key_len == 0 || key_len > NETIF_HASH_KEY_MAX)) {
		XN_LOG(p, ERR, "RSS key of %u bytes: a vif's takes 1 to %u",
		       key_len, NETIF_HASH_KEY_MAX);
		return -EINVAL;
	}
	cfg->flags = flags_of(rss_hf);
	cfg->alg = cfg->flags != 0 ? XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ :
				     XEN_NETIF_CTRL_HASH_ALGORITHM_NONE;
	if (key != NULL) {
		/* netif.h: the bytes a shorter key leaves are zero. */
		memset(cfg->key, 0, sizeof(cfg->key));
		memcpy(cfg->key, key, key_len);
	}
	return 0;
}

static int
set(struct xn_port *p, const struct netif_hash_config *cfg)
{
	int ret;

	pthread_mutex_lock(&p->lock);
	ret = xn_ops_of(p)->rss_set(p, cfg);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

int
xn_rss_configure(struct xn_port *p)
{
	const struct rte_eth_conf *conf = &p->dev->data->dev_conf;
	const struct rte_eth_rss_conf *rss = &conf->rx_adv_conf.rss_conf;
	struct netif_hash_config cfg = { .alg = 0 };
	unsigned int i;
	int ret;

	if (xn_ops_of(p)->rss_set == NULL)
		return 0;
	memcpy(cfg.key, default_key, sizeof(cfg.key));
	cfg.size = NETIF_HASH_MAPPING_MAX;
	for (i = 0; i < cfg.size; i++)
		cfg.mapping[i] = i % p->dev->data->nb_rx_queues;
	if (conf->rxmode.mq_mode & RTE_ETH_MQ_RX_RSS_FLAG) {
		ret = take_conf(p, &cfg, rss->rss_hf, rss->rss_key,
				rss->rss_key_len);
		if (ret != 0)
			return ret;
	}
	return set(p, &cfg);
}

int
xn_rss_hash_update(struct rte_eth_dev *dev, struct rte_eth_rss_conf *conf)
{
	struct xn_port *p = xn_port(dev);
	struct netif_hash_config cfg;
	int ret;

	/* A netback's hash is its guest's to choose. */
	if (xn_ops_of(p)->rss_set == NULL)
		return -ENOTSUP;
	current(p, &cfg);
	ret = take_conf(p, &cfg, conf->rss_hf, conf->rss_key,
			conf->rss_key_len);
	return ret != 0 ? ret : set(p, &cfg);
}

int
xn_rss_hash_conf_get(struct rte_eth_dev *dev, struct rte_eth_rss_conf *conf)
{
	struct netif_hash_config cfg;

	if (xn_pmd_of(dev)->ops->rss == NULL)
		return -ENOTSUP;
	if (!current(xn_port(dev), &cfg)) {
		conf->rss_hf = 0;
		return 0;
	}
	conf->rss_hf = rss_hf_of(cfg.flags);
	if (conf->rss_key != NULL) {
		if (conf->rss_key_len < NETIF_HASH_KEY_MAX)
			return -EINVAL;
		memcpy(conf->rss_key, cfg.key, NETIF_HASH_KEY_MAX);
	}
	conf->rss_key_len = NETIF_HASH_KEY_MAX;
	return 0;
}

/*
 * The table is NETIF_HASH_MAPPING_MAX entries, as dev_infos says; ethdev
 * checked that each entry names a configured queue.
 */
int
xn_reta_update(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *reta,
	       uint16_t reta_size)
{
	struct xn_port *p = xn_port(dev);
	struct netif_hash_config cfg;
	unsigned int i;

	if (xn_ops_of(p)->rss_set == NULL)
		return -ENOTSUP;
	if (reta_size != NETIF_HASH_MAPPING_MAX)
		return -EINVAL;
	current(p, &cfg);
	for (i = 0; i < reta_size; i++) {
		const struct rte_eth_rss_reta_entry64 *e =
			&reta[i / RTE_ETH_RETA_GROUP_SIZE];

		if (!(e->mask & RTE_BIT64(i % RTE_ETH_RETA_GROUP_SIZE)))
			continue;
		if (e->reta[i % RTE_ETH_RETA_GROUP_SIZE] >= p->cfg.queues)
			return -EINVAL;
		cfg.mapping[i] = e->reta[i % RTE_ETH_RETA_GROUP_SIZE];
	}
	cfg.size = reta_size;
	return set(p, &cfg);
}

/*
 * A netback's guest may size its table smaller: it repeats, as a hash
 * indexes it modulo its size, and without one a hash maps to its queue
 * modulo the queues.
 */
int
xn_reta_query(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *reta,
	      uint16_t reta_size)
{
	struct xn_port *p = xn_port(dev);
	struct netif_hash_config cfg;
	unsigned int i;

	if (xn_ops_of(p)->rss == NULL)
		return -ENOTSUP;
	if (reta_size != NETIF_HASH_MAPPING_MAX)
		return -EINVAL;
	current(p, &cfg);
	for (i = 0; i < reta_size; i++) {
		struct rte_eth_rss_reta_entry64 *e =
			&reta[i / RTE_ETH_RETA_GROUP_SIZE];

		if (e->mask & RTE_BIT64(i % RTE_ETH_RETA_GROUP_SIZE))
			e->reta[i % RTE_ETH_RETA_GROUP_SIZE] =
				netif_hash_queue(&cfg, p->nb_pairs > 0 ?
						 p->nb_pairs : 1, i);
	}
	return 0;
}
