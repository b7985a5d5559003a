/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The ethdev face of xen_netback (vdev net_xen_netback): devargs parsed
 * once at probe, device and queue configuration, start/stop/close, link,
 * statistics and extended statistics. The data path is in nb_rxtx.c, the
 * conversation with the frontend in nb_xenbus.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bus_vdev_driver.h>
#include <ethdev_driver.h>
#include <ethdev_vdev.h>
#include <rte_kvargs.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "nb.h"
#include "netif_ethertype.h"

RTE_LOG_REGISTER_DEFAULT(nb_logtype, NOTICE);

#define ARG_DOMID "domid"
#define ARG_DOMAIN "domain"
#define ARG_HANDLE "handle"
#define ARG_PROVIDER "provider"
#define ARG_SIM "sim"
#define ARG_BATCH "batch"
#define ARG_GROUP "group_ethertype"
#define ARG_QUEUES "queues"
#define ARGS_ACCEPTED ARG_DOMID ", " ARG_DOMAIN ", " ARG_HANDLE ", " \
	ARG_PROVIDER ", " \
	ARG_SIM ", " ARG_BATCH ", " ARG_GROUP ", " ARG_QUEUES

static const char *const valid_args[] = {
	ARG_DOMID, ARG_DOMAIN, ARG_HANDLE, ARG_PROVIDER, ARG_SIM, ARG_BATCH,
	ARG_GROUP, ARG_QUEUES, NULL
};

/* Domain ids a guest can have: DOMID_FIRST_RESERVED is Xen's own. */
#define MAX_GUEST_DOMID (DOMID_FIRST_RESERVED - 1)

static int
parse_uint(const char *key, const char *value, unsigned long min,
	   unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(value, &end, 0);
	if (errno != 0 || end == value || *end != '\0' || value[0] == '-' ||
	    *out < min || *out > max) {
		NB_LOG(ERR, "invalid %s=%s: expected an integer in [%lu, %lu]",
		       key, value, min, max);
		return -EINVAL;
	}
	return 0;
}

static int
arg_domid(const char *key, const char *value, void *opaque)
{
	struct nb_config *cfg = opaque;
	unsigned long v;

	if (parse_uint(key, value, 1, MAX_GUEST_DOMID, &v) != 0)
		return -EINVAL;
	cfg->frontend_domid = v;
	return 0;
}

/* A guest name as xl takes it; '/' would escape xenstore paths. */
static int
arg_domain(const char *key, const char *value, void *opaque)
{
	struct nb_config *cfg = opaque;
	size_t len = strlen(value);
	size_t i;

	for (i = 0; i < len; i++)
		if (value[i] <= ' ' || value[i] > '~' || value[i] == '/' ||
		    value[i] == ',')
			break;
	if (len == 0 || len > NB_DOMAIN_NAME_MAX || i < len) {
		NB_LOG(ERR, "invalid %s=%s: expected a guest name of 1-%d printable characters without spaces or '/'",
		       key, value, NB_DOMAIN_NAME_MAX);
		return -EINVAL;
	}
	memcpy(cfg->domain, value, len + 1);
	return 0;
}

static int
arg_handle(const char *key, const char *value, void *opaque)
{
	struct nb_config *cfg = opaque;
	unsigned long v;

	if (parse_uint(key, value, 0, UINT16_MAX, &v) != 0)
		return -EINVAL;
	cfg->handle = v;
	return 0;
}

static int
arg_batch(const char *key, const char *value, void *opaque)
{
	struct nb_config *cfg = opaque;
	unsigned long v;

	if (parse_uint(key, value, NETIF_BATCH_MIN, NETIF_BATCH_MAX, &v) != 0)
		return -EINVAL;
	cfg->batch = v;
	return 0;
}

static int
arg_group(const char *key, const char *value, void *opaque)
{
	struct nb_config *cfg = opaque;
	unsigned long v;

	if (parse_uint(key, value, 0, 1, &v) != 0)
		return -EINVAL;
	cfg->group_ethertype = v;
	return 0;
}

static int
arg_queues(const char *key, const char *value, void *opaque)
{
	struct nb_config *cfg = opaque;
	unsigned long v;

	if (parse_uint(key, value, 1, NB_MAX_QUEUES, &v) != 0)
		return -EINVAL;
	cfg->queues = v;
	return 0;
}

static int
arg_provider(const char *key, const char *value, void *opaque)
{
	struct nb_config *cfg = opaque;

	if (xa_provider_parse(value, &cfg->provider) != 0) {
		NB_LOG(ERR, "invalid %s=%s: expected xen or sim", key, value);
		return -EINVAL;
	}
	return 0;
}

static int
arg_sim(const char *key, const char *value, void *opaque)
{
	struct nb_config *cfg = opaque;

	if (!xa_sim_instance_valid(value)) {
		NB_LOG(ERR, "invalid %s=%s: expected 1-%d letters, digits, - or _",
		       key, value, XA_SIM_INSTANCE_MAX);
		return -EINVAL;
	}
	strlcpy(cfg->sim_instance, value, sizeof(cfg->sim_instance));
	return 0;
}

static int
parse_devargs(const char *args, struct nb_config *cfg)
{
	struct rte_kvargs *kv;
	bool have_sim;
	int ret = -EINVAL;

	*cfg = (struct nb_config){
		.provider = xa_provider_default(),
		.batch = NETIF_BATCH_DEFAULT,
		.queues = 1,
	};
	strcpy(cfg->sim_instance, "default");
	kv = rte_kvargs_parse(args != NULL ? args : "", valid_args);
	if (kv == NULL) {
		NB_LOG(ERR, "invalid devargs \"%s\": accepted keys are "
		       ARGS_ACCEPTED, args);
		return -EINVAL;
	}
	if (rte_kvargs_count(kv, ARG_DOMID) + rte_kvargs_count(kv, ARG_DOMAIN) != 1) {
		NB_LOG(ERR, "the guest is required, once: %s=<its domain id> or %s=<its name>",
		       ARG_DOMID, ARG_DOMAIN);
		goto out;
	}
	if (rte_kvargs_process(kv, ARG_DOMID, arg_domid, cfg) != 0 ||
	    rte_kvargs_process(kv, ARG_DOMAIN, arg_domain, cfg) != 0 ||
	    rte_kvargs_process(kv, ARG_HANDLE, arg_handle, cfg) != 0 ||
	    rte_kvargs_process(kv, ARG_PROVIDER, arg_provider, cfg) != 0 ||
	    rte_kvargs_process(kv, ARG_SIM, arg_sim, cfg) != 0 ||
	    rte_kvargs_process(kv, ARG_BATCH, arg_batch, cfg) != 0 ||
	    rte_kvargs_process(kv, ARG_GROUP, arg_group, cfg) != 0 ||
	    rte_kvargs_process(kv, ARG_QUEUES, arg_queues, cfg) != 0)
		goto out;
	have_sim = rte_kvargs_count(kv, ARG_SIM) > 0;
	if (have_sim && cfg->provider != XA_PROVIDER_SIM) {
		NB_LOG(ERR, "%s= only applies to " ARG_PROVIDER "=sim", ARG_SIM);
		goto out;
	}
	ret = 0;
out:
	rte_kvargs_free(kv);
	return ret;
}

/*
 * Every queue pair the frontend may connect needs its two queues: the
 * application configures as many as it offers, or packets would wait in a
 * ring nobody polls.
 */
static int
nb_dev_configure(struct rte_eth_dev *dev)
{
	struct nb_port *p = dev->data->dev_private;

	if (dev->data->nb_rx_queues != p->cfg.queues ||
	    dev->data->nb_tx_queues != p->cfg.queues) {
		NB_LOG(ERR, "%u Rx and %u Tx queues configured: the port offers %u queue pair%s (devarg " ARG_QUEUES "), configure that many of each",
		       dev->data->nb_rx_queues, dev->data->nb_tx_queues,
		       p->cfg.queues, p->cfg.queues == 1 ? "" : "s");
		return -EINVAL;
	}
	return 0;
}

static int
nb_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct nb_port *p = dev->data->dev_private;

	info->max_mac_addrs = 1;
	info->max_rx_queues = p->cfg.queues;
	info->max_tx_queues = p->cfg.queues;
	info->max_rx_pktlen = XEN_NETIF_MAX_TX_SIZE;
	/* ethdev refuses smaller mbufs before nb_rx_queue_setup(). */
	info->min_rx_bufsize = NB_MIN_MBUF_ROOM;
	info->max_mtu = XEN_NETIF_MAX_TX_SIZE - RTE_ETHER_HDR_LEN;
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_SCATTER;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	info->speed_capa = RTE_ETH_LINK_SPEED_10G;
	return 0;
}

/*
 * Descriptor counts are accepted and ignored: the rings are the guest's,
 * one page each (256 slots), whatever the application asks for.
 */
static int
nb_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid,
		  uint16_t nb_desc __rte_unused, unsigned int socket,
		  const struct rte_eth_rxconf *conf __rte_unused,
		  struct rte_mempool *mp)
{
	struct nb_port *p = dev->data->dev_private;
	uint16_t room = rte_pktmbuf_data_room_size(mp);
	struct nb_rxq *q;

	q = rte_zmalloc_socket("xen_netback_rxq", sizeof(*q),
			       RTE_CACHE_LINE_SIZE, socket);
	if (q == NULL)
		return -ENOMEM;
	q->port = p;
	q->mp = mp;
	q->queue_id = qid;
	q->mbuf_room = room - RTE_PKTMBUF_HEADROOM;
	q->batch = p->cfg.batch;
	q->group = p->cfg.group_ethertype;
	q->single_flag = p->cfg.single_flag;
	pthread_mutex_lock(&p->lock);
	p->rxq[qid] = q;
	pthread_mutex_unlock(&p->lock);
	dev->data->rx_queues[qid] = q;
	return 0;
}

static int
nb_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid,
		  uint16_t nb_desc __rte_unused, unsigned int socket,
		  const struct rte_eth_txconf *conf __rte_unused)
{
	struct nb_port *p = dev->data->dev_private;
	struct nb_txq *q;

	q = rte_zmalloc_socket("xen_netback_txq", sizeof(*q),
			       RTE_CACHE_LINE_SIZE, socket);
	if (q == NULL)
		return -ENOMEM;
	q->port = p;
	q->queue_id = qid;
	pthread_mutex_lock(&p->lock);
	p->txq[qid] = q;
	pthread_mutex_unlock(&p->lock);
	dev->data->tx_queues[qid] = q;
	return 0;
}

static void
nb_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct nb_port *p = dev->data->dev_private;
	struct nb_rxq *q;

	/* No queue array yet: closed before rte_eth_dev_configure(). */
	if (dev->data->rx_queues == NULL)
		return;
	q = dev->data->rx_queues[qid];
	if (q == NULL)
		return;
	pthread_mutex_lock(&p->lock);
	p->rxq[qid] = NULL;
	pthread_mutex_unlock(&p->lock);
	nb_rxq_release_spares(q);
	netif_rx_stash_flush(&q->stash);
	rte_free(q);
	dev->data->rx_queues[qid] = NULL;
}

static void
nb_tx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct nb_port *p = dev->data->dev_private;

	if (dev->data->tx_queues == NULL)
		return;
	pthread_mutex_lock(&p->lock);
	p->txq[qid] = NULL;
	pthread_mutex_unlock(&p->lock);
	rte_free(dev->data->tx_queues[qid]);
	dev->data->tx_queues[qid] = NULL;
}

static void
set_queue_states(struct rte_eth_dev *dev, uint8_t state)
{
	unsigned int i;

	for (i = 0; i < dev->data->nb_rx_queues; i++)
		dev->data->rx_queue_state[i] = state;
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = state;
}

static int
nb_dev_start(struct rte_eth_dev *dev)
{
	nb_xenbus_set_started(dev->data->dev_private, true);
	set_queue_states(dev, RTE_ETH_QUEUE_STATE_STARTED);
	return 0;
}

static int
nb_dev_stop(struct rte_eth_dev *dev)
{
	nb_xenbus_set_started(dev->data->dev_private, false);
	set_queue_states(dev, RTE_ETH_QUEUE_STATE_STOPPED);
	return 0;
}

static int
nb_dev_close(struct rte_eth_dev *dev)
{
	struct nb_port *p = dev->data->dev_private;
	unsigned int i;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	nb_xenbus_uninit(p);
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		nb_rx_queue_release(dev, i);
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		nb_tx_queue_release(dev, i);
	return 0;
}

static int
nb_link_update(struct rte_eth_dev *dev __rte_unused,
	       int wait_to_complete __rte_unused)
{
	/* dev_link is kept current by the control plane. */
	return 0;
}

static int
nb_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct nb_port *p = dev->data->dev_private;
	unsigned int i;

	for (i = 0; i < NB_MAX_QUEUES; i++) {
		const struct nb_rxq_stats *r;
		const struct nb_txq_stats *t;

		if (p->rxq[i] != NULL) {
			r = &p->rxq[i]->stats;
			st->ipackets += r->packets;
			st->ibytes += r->bytes;
			st->rx_nombuf += r->nombuf;
			st->ierrors += r->drop_bad_frame + r->drop_bad_csum +
				       r->drop_copy_failed;
			if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
				st->q_ipackets[i] = r->packets;
				st->q_ibytes[i] = r->bytes;
				st->q_errors[i] = r->drop_bad_frame +
						  r->drop_bad_csum +
						  r->drop_copy_failed;
			}
		}
		if (p->txq[i] != NULL) {
			t = &p->txq[i]->stats;
			st->opackets += t->packets;
			st->obytes += t->bytes;
			st->oerrors += t->drop_too_long + t->drop_copy_failed;
			if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
				st->q_opackets[i] = t->packets;
				st->q_obytes[i] = t->bytes;
			}
		}
	}
	return 0;
}

static int
nb_stats_reset(struct rte_eth_dev *dev)
{
	struct nb_port *p = dev->data->dev_private;
	unsigned int i;

	for (i = 0; i < NB_MAX_QUEUES; i++) {
		if (p->rxq[i] != NULL)
			memset(&p->rxq[i]->stats, 0, sizeof(p->rxq[i]->stats));
		if (p->txq[i] != NULL)
			memset(&p->txq[i]->stats, 0, sizeof(p->txq[i]->stats));
	}
	return 0;
}

/*
 * Driver-specific counters, per queue: rx_q<n>_<name> for every Rx queue,
 * then tx_q<n>_<name> for every Tx queue. ethdev adds the basic ones.
 */
struct nb_xstat {
	const char *name;
	size_t offset;
};

#define XS(n, f, type) { n, offsetof(type, f) }
static const struct nb_xstat nb_rx_xstats[] = {
#define RXS(n, f) XS(n, f, struct nb_rxq_stats)
	RXS("notifications_sent", notify_sent),
	RXS("notifications_suppressed", notify_suppressed),
	RXS("notifications_received", notify_received),
	RXS("grant_copy_calls", copy_calls),
	RXS("grant_copy_ops", copy_segs),
	RXS("grant_copy_failures", copy_failed),
	RXS("drop_bad_frame", drop_bad_frame),
	RXS("drop_bad_csum", drop_bad_csum),
	RXS("drop_copy_failed", drop_copy_failed),
	RXS("malformed_requests", malformed),
#undef RXS
};

static const struct nb_xstat nb_tx_xstats[] = {
#define TXS(n, f) XS(n, f, struct nb_txq_stats)
	TXS("notifications_sent", notify_sent),
	TXS("notifications_suppressed", notify_suppressed),
	TXS("notifications_received", notify_received),
	TXS("grant_copy_calls", copy_calls),
	TXS("grant_copy_ops", copy_segs),
	TXS("grant_copy_failures", copy_failed),
	TXS("ring_full", ring_full),
	TXS("drop_too_long", drop_too_long),
	TXS("drop_copy_failed", drop_copy_failed),
	TXS("malformed_requests", malformed),
#undef TXS
};
#undef XS

static unsigned int
nb_xstats_count(const struct rte_eth_dev *dev)
{
	return dev->data->nb_rx_queues * RTE_DIM(nb_rx_xstats) +
	       dev->data->nb_tx_queues * RTE_DIM(nb_tx_xstats);
}

/* Entry @i: its queue's counters (NULL if not set up), name and offset. */
static const struct nb_xstat *
nb_xstat_at(const struct nb_port *p, unsigned int i, const void **base,
	    char *dir, unsigned int *qid)
{
	unsigned int n_rx = p->dev->data->nb_rx_queues * RTE_DIM(nb_rx_xstats);

	if (i < n_rx) {
		*qid = i / RTE_DIM(nb_rx_xstats);
		*dir = 'r';
		*base = p->rxq[*qid] ? &p->rxq[*qid]->stats : NULL;
		return &nb_rx_xstats[i % RTE_DIM(nb_rx_xstats)];
	}
	i -= n_rx;
	*qid = i / RTE_DIM(nb_tx_xstats);
	*dir = 't';
	*base = p->txq[*qid] ? &p->txq[*qid]->stats : NULL;
	return &nb_tx_xstats[i % RTE_DIM(nb_tx_xstats)];
}

static int
nb_xstats_get_names(struct rte_eth_dev *dev,
		    struct rte_eth_xstat_name *names, unsigned int size)
{
	struct nb_port *p = dev->data->dev_private;
	unsigned int i, qid, n = nb_xstats_count(dev);
	const struct nb_xstat *x;
	const void *base;
	char dir;

	if (names != NULL && size >= n)
		for (i = 0; i < n; i++) {
			x = nb_xstat_at(p, i, &base, &dir, &qid);
			snprintf(names[i].name, sizeof(names[i].name),
				 "%cx_q%u_%s", dir, qid, x->name);
		}
	return n;
}

static int
nb_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xstats,
	      unsigned int size)
{
	struct nb_port *p = dev->data->dev_private;
	unsigned int i, qid, n = nb_xstats_count(dev);
	const struct nb_xstat *x;
	const void *base;
	char dir;

	if (xstats == NULL || size < n)
		return n;
	for (i = 0; i < n; i++) {
		x = nb_xstat_at(p, i, &base, &dir, &qid);
		xstats[i].id = i;
		xstats[i].value = base == NULL ? 0 :
			__atomic_load_n((const uint64_t *)
					((const char *)base + x->offset),
					__ATOMIC_RELAXED);
	}
	return n;
}

static const uint32_t *
nb_supported_ptypes(struct rte_eth_dev *dev __rte_unused)
{
	return netif_ethertype_ptypes();
}

static int
nb_promiscuous(struct rte_eth_dev *dev __rte_unused)
{
	/* The guest's vif sees every frame the application sends it. */
	return 0;
}

static const struct eth_dev_ops nb_ops = {
	.dev_configure = nb_dev_configure,
	.dev_infos_get = nb_dev_infos_get,
	.dev_start = nb_dev_start,
	.dev_stop = nb_dev_stop,
	.dev_close = nb_dev_close,
	.link_update = nb_link_update,
	.dev_supported_ptypes_get = nb_supported_ptypes,
	.promiscuous_enable = nb_promiscuous,
	.promiscuous_disable = nb_promiscuous,
	.allmulticast_enable = nb_promiscuous,
	.allmulticast_disable = nb_promiscuous,
	.rx_queue_setup = nb_rx_queue_setup,
	.tx_queue_setup = nb_tx_queue_setup,
	.rx_queue_release = nb_rx_queue_release,
	.tx_queue_release = nb_tx_queue_release,
	.stats_get = nb_stats_get,
	.stats_reset = nb_stats_reset,
	.xstats_get = nb_xstats_get,
	.xstats_get_names = nb_xstats_get_names,
	.xstats_reset = nb_stats_reset,
};

static int
nb_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rte_eth_dev *dev;
	char guest[sizeof("guest ") + NB_DOMAIN_NAME_MAX];
	struct nb_config cfg;
	struct nb_port *p;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		NB_LOG(ERR, "%s: secondary processes are not supported", name);
		return -ENOTSUP;
	}
	ret = parse_devargs(rte_vdev_device_args(vdev), &cfg);
	if (ret != 0)
		return ret;
	if (cfg.group_ethertype) {
		cfg.single_flag = netif_single_ethertype_flag();
		if (cfg.single_flag == 0) {
			NB_LOG(ERR, "%s: cannot register mbuf flag %s: %s", name,
			       NETIF_DYNFLAG_SINGLE_ETHERTYPE,
			       rte_strerror(rte_errno));
			return rte_errno != 0 ? -rte_errno : -EINVAL;
		}
	}
	dev = rte_eth_vdev_allocate(vdev, sizeof(*p));
	if (dev == NULL)
		return -ENOMEM;
	p = dev->data->dev_private;
	p->dev = dev;
	p->cfg = cfg;
	dev->data->mac_addrs = rte_zmalloc(name, sizeof(struct rte_ether_addr), 0);
	if (dev->data->mac_addrs == NULL) {
		rte_eth_dev_release_port(dev);
		return -ENOMEM;
	}
	/* Linux netback's MAC for its end of every vif. */
	rte_ether_unformat_addr("fe:ff:ff:ff:ff:ff", dev->data->mac_addrs);
	dev->data->dev_link = (struct rte_eth_link){
		.link_speed = RTE_ETH_SPEED_NUM_10G,
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_status = RTE_ETH_LINK_DOWN,
		.link_autoneg = RTE_ETH_LINK_FIXED,
	};
	dev->data->dev_flags |= RTE_ETH_DEV_INTR_LSC |
				RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS;
	dev->dev_ops = &nb_ops;
	dev->rx_pkt_burst = nb_rx_burst;
	dev->tx_pkt_burst = nb_tx_burst;
	ret = nb_xenbus_init(p);
	if (ret != 0) {
		rte_eth_dev_release_port(dev);
		return ret;
	}
	rte_eth_dev_probing_finish(dev);
	if (cfg.frontend_domid != 0)
		snprintf(guest, sizeof(guest), "domain %u", cfg.frontend_domid);
	else
		snprintf(guest, sizeof(guest), "guest %s", cfg.domain);
	NB_LOG(INFO, "%s: backend of vif %u of %s on the %s provider, %u queue pair%s, batch %u%s",
	       name, cfg.handle, guest, xa_provider_name(cfg.provider),
	       cfg.queues, cfg.queues == 1 ? "" : "s",
	       cfg.batch, cfg.group_ethertype ? ", EtherType grouping" : "");
	return 0;
}

static int
nb_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev;

	dev = rte_eth_dev_allocated(rte_vdev_device_name(vdev));
	if (dev == NULL)
		return 0;
	nb_dev_close(dev);
	rte_eth_dev_release_port(dev);
	return 0;
}

static struct rte_vdev_driver nb_driver = {
	.probe = nb_probe,
	.remove = nb_remove,
};

RTE_PMD_REGISTER_VDEV(net_xen_netback, nb_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_xen_netback,
	ARG_DOMID "=<1-32751> "
	ARG_DOMAIN "=<guest name> "
	ARG_HANDLE "=<0-65535> "
	ARG_PROVIDER "=xen|sim "
	ARG_SIM "=<simulator instance> "
	ARG_BATCH "=<1-64> "
	ARG_GROUP "=0|1 "
	ARG_QUEUES "=<1-8>");
