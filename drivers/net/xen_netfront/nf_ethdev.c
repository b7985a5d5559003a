/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The ethdev face of net_xen_netfront: devargs parsed once at probe into
 * struct nf_config, the dev_ops (up to NF_MAX_QUEUES queue pairs, link
 * from the backend's state, stats and per-queue xstats) and the vdev driver registration. The
 * vif itself is driven by nf_xenbus.c, the packets by nf_rxtx.c.
 */

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bus_vdev_driver.h>
#include <ethdev_vdev.h>
#include <rte_errno.h>
#include <rte_kvargs.h>
#include <rte_malloc.h>
#include <rte_string_fns.h>

#include "nf.h"
#include "netif_ethertype.h"

RTE_LOG_REGISTER_DEFAULT(nf_logtype, NOTICE);

#define NF_ARG_HANDLE "handle"
#define NF_ARG_PROVIDER "provider"
#define NF_ARG_SIM "sim"
#define NF_ARG_DOMID "domid"
#define NF_ARG_BATCH "batch"
#define NF_ARG_GROUP "group_ethertype"
#define NF_ARG_QUEUES "queues"
#define NF_ARGS_ACCEPTED \
	NF_ARG_HANDLE ", " NF_ARG_PROVIDER ", " NF_ARG_SIM ", " NF_ARG_DOMID \
	", " NF_ARG_BATCH ", " NF_ARG_GROUP ", " NF_ARG_QUEUES

/* Domains the simulator lets a frontend act as. */
#define NF_SIM_DOMID_MIN 1
#define NF_SIM_DOMID_MAX 63

/* The smallest mbuf data room worth chaining packets into. */
#define NF_MIN_RX_BUFSIZE 64

static int
nf_parse_uint(const char *key, const char *value, unsigned long min,
	      unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(value, &end, 10);
	if (!isdigit((unsigned char)value[0]) || *end != '\0' || errno != 0 ||
	    *out < min || *out > max) {
		NF_LOG(ERR, "%s=%s: expected an integer in [%lu, %lu]",
		       key, value, min, max);
		return -EINVAL;
	}
	return 0;
}

static int
nf_parse_sim(const char *value, struct nf_config *cfg)
{
	if (!xa_sim_instance_valid(value)) {
		NF_LOG(ERR, "%s=%s: expected 1 to %d letters, digits, '_' or '-'",
		       NF_ARG_SIM, value, XA_SIM_INSTANCE_MAX);
		return -EINVAL;
	}
	strlcpy(cfg->sim_instance, value, sizeof(cfg->sim_instance));
	return 0;
}

/* Which simulator-only keys the devargs gave. */
struct nf_sim_keys {
	bool sim;
	bool domid;
};

static int
nf_parse_pair(const char *key, const char *value, struct nf_config *cfg,
	      struct nf_sim_keys *given)
{
	unsigned long v;

	if (strcmp(key, NF_ARG_HANDLE) == 0) {
		if (nf_parse_uint(key, value, 0, UINT16_MAX, &v) < 0)
			return -EINVAL;
		cfg->handle = v;
	} else if (strcmp(key, NF_ARG_PROVIDER) == 0) {
		if (xa_provider_parse(value, &cfg->provider) < 0) {
			NF_LOG(ERR, "%s=%s: accepted values are xen, sim",
			       key, value);
			return -EINVAL;
		}
	} else if (strcmp(key, NF_ARG_SIM) == 0) {
		given->sim = true;
		return nf_parse_sim(value, cfg);
	} else if (strcmp(key, NF_ARG_BATCH) == 0) {
		if (nf_parse_uint(key, value, NETIF_BATCH_MIN, NETIF_BATCH_MAX,
				  &v) < 0)
			return -EINVAL;
		cfg->batch = v;
	} else if (strcmp(key, NF_ARG_GROUP) == 0) {
		if (nf_parse_uint(key, value, 0, 1, &v) < 0)
			return -EINVAL;
		cfg->group_ethertype = v;
	} else if (strcmp(key, NF_ARG_QUEUES) == 0) {
		if (nf_parse_uint(key, value, 1, NF_MAX_QUEUES, &v) < 0)
			return -EINVAL;
		cfg->queues = v;
	} else if (strcmp(key, NF_ARG_DOMID) == 0) {
		if (nf_parse_uint(key, value, NF_SIM_DOMID_MIN,
				  NF_SIM_DOMID_MAX, &v) < 0)
			return -EINVAL;
		cfg->domid = v;
		given->domid = true;
	} else {
		NF_LOG(ERR, "unknown devarg '%s' (accepted: " NF_ARGS_ACCEPTED ")",
		       key);
		return -EINVAL;
	}
	return 0;
}

static int
nf_parse_devargs(const char *args, struct nf_config *cfg)
{
	struct rte_kvargs *kvlist;
	struct nf_sim_keys given = { false, false };
	unsigned int i;
	int ret = 0;

	cfg->handle = 0;
	cfg->provider = xa_provider_default();
	strcpy(cfg->sim_instance, "default");
	cfg->domid = 1;
	cfg->batch = NETIF_BATCH_DEFAULT;
	cfg->group_ethertype = false;
	cfg->single_flag = 0;
	cfg->queues = 1;
	if (args == NULL || args[0] == '\0')
		return 0;
	/* Keys are checked here, so that the error can name the bad one. */
	kvlist = rte_kvargs_parse(args, NULL);
	if (kvlist == NULL) {
		NF_LOG(ERR, "cannot parse devargs '%s' (accepted: "
		       NF_ARGS_ACCEPTED ")", args);
		return -EINVAL;
	}
	for (i = 0; i < kvlist->count && ret == 0; i++) {
		const struct rte_kvargs_pair *p = &kvlist->pairs[i];

		if (p->value == NULL) {
			NF_LOG(ERR, "devarg '%s' needs a value", p->key);
			ret = -EINVAL;
		} else {
			ret = nf_parse_pair(p->key, p->value, cfg, &given);
		}
	}
	rte_kvargs_free(kvlist);
	if (ret == 0 && cfg->provider == XA_PROVIDER_XEN &&
	    (given.sim || given.domid)) {
		/* On Xen the domain is the one we run in, told by xenstore. */
		NF_LOG(ERR, "%s= is for provider=sim only",
		       given.sim ? NF_ARG_SIM : NF_ARG_DOMID);
		ret = -EINVAL;
	}
	return ret;
}

static struct nf_adapter *
nf_adapter(struct rte_eth_dev *dev)
{
	return dev->data->dev_private;
}

/*
 * The rings are connected at probe with the queue pairs the devargs ask
 * for: the application configures that many queues of each kind, or
 * packets would wait in a ring nobody polls.
 */
static int
nf_dev_configure(struct rte_eth_dev *dev)
{
	struct nf_adapter *ad = nf_adapter(dev);

	if (dev->data->nb_rx_queues != ad->cfg.queues ||
	    dev->data->nb_tx_queues != ad->cfg.queues) {
		NF_LOG(ERR, "%u Rx and %u Tx queues configured: the port has %u queue pair%s (devarg " NF_ARG_QUEUES "), configure that many of each",
		       dev->data->nb_rx_queues, dev->data->nb_tx_queues,
		       ad->cfg.queues, ad->cfg.queues == 1 ? "" : "s");
		return -EINVAL;
	}
	return 0;
}

static int
nf_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct nf_adapter *ad = nf_adapter(dev);

	info->max_mac_addrs = 1;
	info->max_rx_queues = ad->cfg.queues;
	info->max_tx_queues = ad->cfg.queues;
	info->max_rx_pktlen = NETIF_FRONT_MAX_PKT_LEN;
	info->min_rx_bufsize = NF_MIN_RX_BUFSIZE;
	info->min_mtu = RTE_ETHER_MIN_MTU;
	info->max_mtu = NF_MAX_MTU;
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_SCATTER;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	info->default_rxportconf.ring_size = NETIF_RX_RING_SIZE;
	info->default_txportconf.ring_size = NETIF_TX_RING_SIZE;
	info->default_rxportconf.nb_queues = ad->cfg.queues;
	info->default_txportconf.nb_queues = ad->cfg.queues;
	info->speed_capa = RTE_ETH_LINK_SPEED_FIXED;
	return 0;
}

static void
nf_set_queue_states(struct rte_eth_dev *dev, uint8_t state)
{
	unsigned int i;

	/* testpmd 22.11 forwards only on queues it sees started. */
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		if (dev->data->rx_queues[i] != NULL)
			dev->data->rx_queue_state[i] = state;
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		if (dev->data->tx_queues[i] != NULL)
			dev->data->tx_queue_state[i] = state;
}

static int
nf_dev_start(struct rte_eth_dev *dev)
{
	nf_xenbus_set_started(nf_adapter(dev), true);
	nf_set_queue_states(dev, RTE_ETH_QUEUE_STATE_STARTED);
	return 0;
}

static int
nf_dev_stop(struct rte_eth_dev *dev)
{
	nf_xenbus_set_started(nf_adapter(dev), false);
	nf_set_queue_states(dev, RTE_ETH_QUEUE_STATE_STOPPED);
	return 0;
}

static int
nf_dev_close(struct rte_eth_dev *dev)
{
	struct nf_adapter *ad = nf_adapter(dev);
	unsigned int i;

	/* Ports exist in the primary process only (see nf_probe). */
	nf_xenbus_uninit(ad);
	/* Held packets go back to their pool while it still exists. */
	for (i = 0; i < NF_MAX_QUEUES; i++)
		netif_rx_stash_flush(&ad->pairs[i].rxq.stash);
	return 0;
}

static int
nf_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid,
		  uint16_t nb_desc __rte_unused, unsigned int socket __rte_unused,
		  const struct rte_eth_rxconf *conf __rte_unused,
		  struct rte_mempool *mp)
{
	struct nf_rxq *q = &nf_adapter(dev)->pairs[qid].rxq;

	/* The ring has a fixed 256 slots, whatever nb_desc asks for. */
	if (rte_pktmbuf_data_room_size(mp) <
	    RTE_PKTMBUF_HEADROOM + NF_MIN_RX_BUFSIZE) {
		NF_LOG(ERR, "mempool %s: data room below %u bytes", mp->name,
		       RTE_PKTMBUF_HEADROOM + NF_MIN_RX_BUFSIZE);
		return -EINVAL;
	}
	netif_rx_stash_flush(&q->stash);
	q->mp = mp;
	dev->data->rx_queues[qid] = q;
	return 0;
}

static int
nf_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid,
		  uint16_t nb_desc __rte_unused, unsigned int socket __rte_unused,
		  const struct rte_eth_txconf *conf __rte_unused)
{
	dev->data->tx_queues[qid] = &nf_adapter(dev)->pairs[qid].txq;
	return 0;
}

static int
nf_link_update(struct rte_eth_dev *dev, int wait __rte_unused)
{
	struct nf_adapter *ad = nf_adapter(dev);
	bool changed;

	pthread_mutex_lock(&ad->lock);
	changed = nf_link_refresh(ad);
	pthread_mutex_unlock(&ad->lock);
	return changed ? 0 : -1;
}

static const uint32_t *
nf_supported_ptypes(struct rte_eth_dev *dev __rte_unused)
{
	return netif_ethertype_ptypes();
}

static int
nf_filter_accept(struct rte_eth_dev *dev __rte_unused)
{
	/* The backend delivers everything addressed to the vif anyway. */
	return 0;
}

static int
nf_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct nf_adapter *ad = nf_adapter(dev);
	unsigned int i;

	for (i = 0; i < ad->cfg.queues; i++) {
		const struct netif_front_rx_stats *rx =
			&ad->pairs[i].rxq.ring.stats;
		const struct netif_front_tx_stats *tx =
			&ad->pairs[i].txq.ring.stats;

		st->ipackets += rx->packets;
		st->ibytes += rx->bytes;
		st->ierrors += rx->errors + rx->malformed;
		st->rx_nombuf += rx->mbuf_alloc_failed;
		st->opackets += tx->packets;
		st->obytes += tx->bytes;
		st->oerrors += tx->errors + tx->too_many_slots;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			st->q_ipackets[i] = rx->packets;
			st->q_ibytes[i] = rx->bytes;
			st->q_errors[i] = rx->errors + rx->malformed;
			st->q_opackets[i] = tx->packets;
			st->q_obytes[i] = tx->bytes;
		}
	}
	return 0;
}

static int
nf_stats_reset(struct rte_eth_dev *dev)
{
	struct nf_adapter *ad = nf_adapter(dev);
	unsigned int i;

	for (i = 0; i < NF_MAX_QUEUES; i++) {
		struct nf_pair *pr = &ad->pairs[i];

		memset(&pr->rxq.ring.stats, 0, sizeof(pr->rxq.ring.stats));
		memset(&pr->txq.ring.stats, 0, sizeof(pr->txq.ring.stats));
		memset(&pr->rxq.notify, 0, sizeof(pr->rxq.notify));
		memset(&pr->txq.notify, 0, sizeof(pr->txq.notify));
	}
	return 0;
}

/*
 * Per-queue counters, by name and place in a queue pair: rx_q<n>_<name>
 * of every queue pair, then tx_q<n>_<name> of every queue pair.
 */
struct nf_xstat {
	const char *name;
	size_t offset;
};

static const struct nf_xstat nf_rx_xstats[] = {
#define NF_RX(name, field) { name, offsetof(struct nf_pair, rxq.field) }
	NF_RX("packets", ring.stats.packets),
	NF_RX("bytes", ring.stats.bytes),
	NF_RX("errors", ring.stats.errors),
	NF_RX("malformed", ring.stats.malformed),
	NF_RX("mbuf_alloc_failed", ring.stats.mbuf_alloc_failed),
	NF_RX("notifications_sent", notify.sent),
	NF_RX("notifications_suppressed", notify.suppressed),
	NF_RX("notifications_received", notify.received),
#undef NF_RX
};

static const struct nf_xstat nf_tx_xstats[] = {
#define NF_TX(name, field) { name, offsetof(struct nf_pair, txq.field) }
	NF_TX("packets", ring.stats.packets),
	NF_TX("bytes", ring.stats.bytes),
	NF_TX("errors", ring.stats.errors),
	NF_TX("ring_full", ring.stats.ring_full),
	NF_TX("too_many_slots", ring.stats.too_many_slots),
	NF_TX("notifications_sent", notify.sent),
	NF_TX("notifications_suppressed", notify.suppressed),
	NF_TX("notifications_received", notify.received),
#undef NF_TX
};

static unsigned int
nf_xstats_count(const struct nf_adapter *ad)
{
	return ad->cfg.queues * (RTE_DIM(nf_rx_xstats) + RTE_DIM(nf_tx_xstats));
}

/* Entry @i of the list: its counter, direction and queue pair. */
static const struct nf_xstat *
nf_xstat_at(const struct nf_adapter *ad, unsigned int i, char *dir,
	    unsigned int *qid)
{
	unsigned int n_rx = ad->cfg.queues * RTE_DIM(nf_rx_xstats);

	if (i < n_rx) {
		*dir = 'r';
		*qid = i / RTE_DIM(nf_rx_xstats);
		return &nf_rx_xstats[i % RTE_DIM(nf_rx_xstats)];
	}
	i -= n_rx;
	*dir = 't';
	*qid = i / RTE_DIM(nf_tx_xstats);
	return &nf_tx_xstats[i % RTE_DIM(nf_tx_xstats)];
}

static int
nf_xstats_get_names(struct rte_eth_dev *dev,
		    struct rte_eth_xstat_name *names, unsigned int size)
{
	const struct nf_adapter *ad = nf_adapter(dev);
	unsigned int i, qid, n = nf_xstats_count(ad);
	const struct nf_xstat *x;
	char dir;

	if (names != NULL)
		for (i = 0; i < n && i < size; i++) {
			x = nf_xstat_at(ad, i, &dir, &qid);
			snprintf(names[i].name, sizeof(names[i].name),
				 "%cx_q%u_%s", dir, qid, x->name);
		}
	return n;
}

static int
nf_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xstats,
	      unsigned int size)
{
	const struct nf_adapter *ad = nf_adapter(dev);
	unsigned int i, qid, n = nf_xstats_count(ad);
	const struct nf_xstat *x;
	char dir;

	if (xstats == NULL || size < n)
		return n;
	for (i = 0; i < n; i++) {
		x = nf_xstat_at(ad, i, &dir, &qid);
		xstats[i].id = i;
		xstats[i].value = *(const uint64_t *)
			((const uint8_t *)&ad->pairs[qid] + x->offset);
	}
	return n;
}

static const struct eth_dev_ops nf_ops = {
	.dev_configure = nf_dev_configure,
	.dev_infos_get = nf_dev_infos_get,
	.dev_start = nf_dev_start,
	.dev_stop = nf_dev_stop,
	.dev_close = nf_dev_close,
	.rx_queue_setup = nf_rx_queue_setup,
	.tx_queue_setup = nf_tx_queue_setup,
	.link_update = nf_link_update,
	.dev_supported_ptypes_get = nf_supported_ptypes,
	.promiscuous_enable = nf_filter_accept,
	.promiscuous_disable = nf_filter_accept,
	.allmulticast_enable = nf_filter_accept,
	.allmulticast_disable = nf_filter_accept,
	.stats_get = nf_stats_get,
	.stats_reset = nf_stats_reset,
	.xstats_get = nf_xstats_get,
	.xstats_get_names = nf_xstats_get_names,
	.xstats_reset = nf_stats_reset,
};

static int
nf_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rte_eth_dev *dev;
	struct nf_adapter *ad;
	struct nf_config cfg;
	unsigned int i;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		NF_LOG(ERR, "%s: secondary processes are not supported", name);
		return -ENOTSUP;
	}
	ret = nf_parse_devargs(rte_vdev_device_args(vdev), &cfg);
	if (ret < 0)
		return ret;
	if (cfg.group_ethertype) {
		cfg.single_flag = netif_single_ethertype_flag();
		if (cfg.single_flag == 0) {
			NF_LOG(ERR, "%s: cannot register mbuf flag %s: %s", name,
			       NETIF_DYNFLAG_SINGLE_ETHERTYPE,
			       rte_strerror(rte_errno));
			return rte_errno != 0 ? -rte_errno : -EINVAL;
		}
	}
	dev = rte_eth_vdev_allocate(vdev, sizeof(*ad));
	if (dev == NULL)
		return -ENOMEM;
	/* ethdev frees mac_addrs with the port: it must be its own block. */
	dev->data->mac_addrs = rte_zmalloc(name, RTE_ETHER_ADDR_LEN, 0);
	if (dev->data->mac_addrs == NULL) {
		rte_eth_dev_release_port(dev);
		return -ENOMEM;
	}
	rte_eth_random_addr(dev->data->mac_addrs->addr_bytes);
	dev->data->mtu = RTE_ETHER_MTU;
	dev->data->dev_flags |= RTE_ETH_DEV_INTR_LSC;
	dev->dev_ops = &nf_ops;
	dev->rx_pkt_burst = nf_rx_burst;
	dev->tx_pkt_burst = nf_tx_burst;

	ad = nf_adapter(dev);
	ad->dev = dev;
	ad->cfg = cfg;
	for (i = 0; i < NF_MAX_QUEUES; i++) {
		ad->pairs[i].rxq.ad = ad;
		ad->pairs[i].rxq.queue_id = i;
		ad->pairs[i].txq.ad = ad;
		ad->pairs[i].txq.queue_id = i;
	}
	ret = nf_xenbus_init(ad);
	if (ret < 0) {
		rte_eth_dev_release_port(dev);
		return ret;
	}
	rte_eth_dev_probing_finish(dev);
	NF_LOG(INFO, "%s: port %u, vif %u, provider %s, %u queue pair%s, batch %u%s",
	       name, dev->data->port_id, cfg.handle,
	       xa_provider_name(cfg.provider), cfg.queues,
	       cfg.queues == 1 ? "" : "s", cfg.batch,
	       cfg.group_ethertype ? ", EtherType grouping" : "");
	return 0;
}

static int
nf_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev =
		rte_eth_dev_allocated(rte_vdev_device_name(vdev));

	if (dev == NULL)
		return 0;
	if (dev->data->dev_started)
		rte_eth_dev_stop(dev->data->port_id);
	/* Closing also releases the port. */
	return rte_eth_dev_close(dev->data->port_id);
}

static struct rte_vdev_driver nf_vdev_driver = {
	.probe = nf_probe,
	.remove = nf_remove,
};

RTE_PMD_REGISTER_VDEV(net_xen_netfront, nf_vdev_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_xen_netfront,
	NF_ARG_HANDLE "=<0..65535> "
	NF_ARG_PROVIDER "=xen|sim "
	NF_ARG_SIM "=<instance> "
	NF_ARG_DOMID "=<1..63> "
	NF_ARG_BATCH "=<1..64> "
	NF_ARG_GROUP "=0|1 "
	NF_ARG_QUEUES "=<1..8>");
