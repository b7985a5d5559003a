/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The vdev probe and the dev_ops both PMDs share (see xn_ethdev.h).
 */

#include <errno.h>
#include <string.h>

#include <ethdev_driver.h>
#include <ethdev_vdev.h>
#include <rte_ether.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "netif_gso.h"
#include "netif_l2.h"
#include "netif_ring_ops.h"
#include "xn_burst.h"
#include "xn_control.h"
#include "xn_ethdev.h"
#include "xn_intr.h"
#include "xn_provider.h"
#include "xn_rss.h"
#include "xn_stats.h"

static void
configured(struct xn_port *p)
{
	p->configured = true;
	xn_port_apply_rx_offloads(p);
	xn_ops_of(p)->update(p);
}

/*
 * Every queue pair the peer may connect needs its two queues: the
 * application configures as many of each as the devarg queues says, or
 * packets would wait in a ring nobody polls.
 */
static int
xn_dev_configure(struct rte_eth_dev *dev)
{
	struct xn_port *p = xn_port(dev);
	int ret;

	if (dev->data->nb_rx_queues != p->cfg.queues ||
	    dev->data->nb_tx_queues != p->cfg.queues) {
		XN_LOG(p, ERR, "%u Rx and %u Tx queues configured: the port has %u queue pair%s (devarg " XN_ARG_QUEUES "), configure that many of each",
		       dev->data->nb_rx_queues, dev->data->nb_tx_queues,
		       p->cfg.queues, p->cfg.queues == 1 ? "" : "s");
		return -EINVAL;
	}
	ret = xn_rss_configure(p);
	if (ret != 0)
		return ret;
	xn_control_call(p, configured);
	return 0;
}

static int
xn_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	const struct xn_pmd *pmd = xn_pmd_of(dev);
	struct xn_port *p = xn_port(dev);

	info->max_mac_addrs = 1;
	info->max_rx_queues = p->cfg.queues;
	info->max_tx_queues = p->cfg.queues;
	/* A frame's length must fit the 16-bit size of a TX request. */
	info->max_rx_pktlen = XEN_NETIF_MAX_TX_SIZE;
	info->min_mtu = RTE_ETHER_MIN_MTU;
	info->max_mtu = XEN_NETIF_MAX_TX_SIZE - RTE_ETHER_HDR_LEN;
	/* ethdev refuses smaller mbufs before rx_queue_setup. */
	info->min_rx_bufsize = pmd->min_rx_bufsize;
	/*
	 * The netif offloads, both ways (lib/netif/packet/netif_offload.h): LRO,
	 * or TSO, is the peer's GSO packets delivered whole, as large as any
	 * frame.
	 */
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_SCATTER |
				RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
				RTE_ETH_RX_OFFLOAD_TCP_CKSUM |
				RTE_ETH_RX_OFFLOAD_UDP_CKSUM |
				RTE_ETH_RX_OFFLOAD_TCP_LRO;
	info->max_lro_pkt_size = XEN_NETIF_MAX_TX_SIZE;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
				RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
				RTE_ETH_TX_OFFLOAD_TCP_CKSUM |
				RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
				RTE_ETH_TX_OFFLOAD_TCP_TSO;
	/* The rings are one page each, whatever nb_desc asks for. */
	info->default_rxportconf.ring_size = NETIF_RX_RING_SIZE;
	info->default_txportconf.ring_size = NETIF_TX_RING_SIZE;
	info->default_rxportconf.nb_queues = p->cfg.queues;
	info->default_txportconf.nb_queues = p->cfg.queues;
	info->speed_capa = RTE_ETH_LINK_SPEED_10G;
	if (pmd->ops->rss != NULL) {
		/*
		 * A netback's guest configures it, a netfront's application:
		 * either way the hash arrives with the frames (RSS_HASH).
		 */
		info->reta_size = NETIF_HASH_MAPPING_MAX;
		info->hash_key_size = NETIF_HASH_KEY_MAX;
		info->flow_type_rss_offloads = XN_RSS_OFFLOADS;
		info->rx_offload_capa |= RTE_ETH_RX_OFFLOAD_RSS_HASH;
	}
	return 0;
}

static void
set_queue_states(struct rte_eth_dev *dev, uint8_t state)
{
	unsigned int i;

	/* testpmd forwards only on queues it sees started. */
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		dev->data->rx_queue_state[i] = state;
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = state;
}

static void
start(struct xn_port *p)
{
	p->started = true;
	xn_port_refresh(p);
}

static void
stop(struct xn_port *p)
{
	p->started = false;
	xn_port_refresh(p);
	if (xn_ops_of(p)->stopped != NULL)
		xn_ops_of(p)->stopped(p);
}

/* Refused, naming the queue, until every configured queue is set up. */
static int
xn_dev_start(struct rte_eth_dev *dev)
{
	struct xn_port *p = xn_port(dev);
	unsigned int i;
	int ret;

	/* A queue never set up has no mempool: its ring would go unpolled. */
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		if (dev->data->rx_queues[i] == NULL) {
			XN_LOG(p, ERR, "cannot start: Rx queue %u is not set up",
			       i);
			return -EINVAL;
		}
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		if (dev->data->tx_queues[i] == NULL) {
			XN_LOG(p, ERR, "cannot start: Tx queue %u is not set up",
			       i);
			return -EINVAL;
		}
	/* Under the lock: the control thread wakes sleepers through them. */
	pthread_mutex_lock(&p->lock);
	ret = xn_intr_install(p);
	pthread_mutex_unlock(&p->lock);
	if (ret != 0)
		return ret;
	xn_control_call(p, start);
	set_queue_states(dev, RTE_ETH_QUEUE_STATE_STARTED);
	return 0;
}

static int
xn_dev_stop(struct rte_eth_dev *dev)
{
	xn_control_call(xn_port(dev), stop);
	set_queue_states(dev, RTE_ETH_QUEUE_STATE_STOPPED);
	return 0;
}

/* Descriptor counts are ignored: a ring is one page, 256 slots. */
static int
xn_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid,
		  uint16_t nb_desc __rte_unused, unsigned int socket __rte_unused,
		  const struct rte_eth_rxconf *conf __rte_unused,
		  struct rte_mempool *mp)
{
	struct xn_port *p = xn_port(dev);
	struct xn_rxq *q = (struct xn_rxq *)p->rxq[qid];
	int ret;

	netif_rx_stash_flush(&q->batching.stash);
	ret = xn_ops_of(p)->rx_setup(p, qid, mp);
	if (ret != 0)
		return ret;
	q->mp = mp;
	dev->data->rx_queues[qid] = q;
	return 0;
}

/* Where the ring of a Tx queue keeps its segmenter. */
static struct netif_gso **
txq_gso(struct xn_queue *q)
{
	return netif_ring_gso(netif_ring_ops(q->kind), q->ring);
}

/*
 * An application that enabled TSO may send a large segment to a peer that
 * takes none: the queue gets its own pools to cut it in software. The
 * ring reads the port's MTU where ethdev keeps it, as it changes.
 */
static int
xn_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid,
		  uint16_t nb_desc __rte_unused, unsigned int socket,
		  const struct rte_eth_txconf *conf)
{
	struct xn_port *p = xn_port(dev);
	struct netif_gso **gso = txq_gso(p->txq[qid]);
	char name[RTE_MEMPOOL_NAMESIZE - 2];	/* netif_gso adds "_h", "_i" */

	*netif_ring_mtu(netif_ring_ops(p->txq[qid]->kind), p->txq[qid]->ring) =
		&dev->data->mtu;
	netif_gso_free(*gso);
	*gso = NULL;
	if ((dev->data->dev_conf.txmode.offloads | conf->offloads) &
	    RTE_ETH_TX_OFFLOAD_TCP_TSO) {
		snprintf(name, sizeof(name), "xn_gso%u_%u",
			 dev->data->port_id, qid);
		*gso = netif_gso_create(name, socket);
		if (*gso == NULL) {
			XN_LOG(p, ERR, "Tx queue %u: no memory to cut large segments: %s",
			       qid, rte_strerror(rte_errno));
			return -ENOMEM;
		}
	}
	dev->data->tx_queues[qid] = p->txq[qid];
	return 0;
}

static void
xn_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct xn_port *p = xn_port(dev);
	struct xn_rxq *q = (struct xn_rxq *)p->rxq[qid];

	/* Held packets go back to their pool while it still exists. */
	netif_rx_stash_flush(&q->batching.stash);
	q->mp = NULL;
	if (xn_ops_of(p)->rx_release != NULL)
		xn_ops_of(p)->rx_release(p, qid);
	dev->data->rx_queues[qid] = NULL;
}

static void
xn_tx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct netif_gso **gso = txq_gso(xn_port(dev)->txq[qid]);

	netif_gso_free(*gso);
	*gso = NULL;
	dev->data->tx_queues[qid] = NULL;
}

static void
xn_rxq_info_get(struct rte_eth_dev *dev, uint16_t qid,
		struct rte_eth_rxq_info *info)
{
	const struct xn_rxq *q = dev->data->rx_queues[qid];
	struct xn_port *p = xn_port(dev);
	const struct xn_port_ops *ops = xn_ops_of(p);

	info->mp = ops->rx_pool != NULL ? ops->rx_pool(p, qid) : NULL;
	if (info->mp == NULL)
		info->mp = q->mp;
	info->nb_desc = NETIF_RX_RING_SIZE;
	info->scattered_rx = 1;
	info->conf.offloads = dev->data->dev_conf.rxmode.offloads;
}

static void
xn_txq_info_get(struct rte_eth_dev *dev, uint16_t qid __rte_unused,
		struct rte_eth_txq_info *info)
{
	info->nb_desc = NETIF_TX_RING_SIZE;
	info->conf.offloads = dev->data->dev_conf.txmode.offloads;
}

static int
xn_dev_close(struct rte_eth_dev *dev)
{
	struct xn_port *p = xn_port(dev);
	const struct rte_eth_dev_data *d = dev->data;
	unsigned int i;

	if (p->xa == NULL)
		return 0;	/* closed already, or never opened */
	xn_control_stop(p);
	xn_intr_uninstall(p);
	xn_ops_of(p)->uninit(p);
	/* As ethdev does: release the queues that were set up. */
	for (i = 0; i < d->nb_rx_queues; i++)
		if (d->rx_queues[i] != NULL)
			xn_rx_queue_release(dev, i);
	for (i = 0; i < d->nb_tx_queues; i++)
		if (d->tx_queues[i] != NULL)
			xn_tx_queue_release(dev, i);
	xn_port_close(p);
	return 0;
}

static int
xn_link_update(struct rte_eth_dev *dev __rte_unused,
	       int wait_to_complete __rte_unused)
{
	/* The control thread keeps dev_link current. */
	return 0;
}

static const uint32_t *
xn_dev_supported_ptypes_get(struct rte_eth_dev *dev __rte_unused)
{
	return netif_l2_ptypes();
}

/*
 * The packet types the application wants (ethdev keeps the list): with
 * none, as testpmd asks by default, a received packet is walked only when
 * grouping or an offload needs its headers, which saves about a fifth of
 * a small packet's instructions (app/xen-bench --instructions).
 */
static int
xn_dev_ptypes_set(struct rte_eth_dev *dev, uint32_t ptype_mask)
{
	struct xn_port *p = xn_port(dev);

	pthread_mutex_lock(&p->lock);
	p->ptypes_cleared = ptype_mask == RTE_PTYPE_UNKNOWN;
	if (p->connected)
		xn_port_apply_rx_offloads(p);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

static void
mtu_chosen(struct xn_port *p)
{
	p->mtu_chosen = true;
}

/*
 * The application's MTU (ethdev checked it against min_mtu and max_mtu)
 * replaces the vif's from now on; neither end of a vif enforces it on
 * the wire, as in Linux: it is what the port tells the application.
 */
static int
xn_mtu_set(struct rte_eth_dev *dev, uint16_t mtu __rte_unused)
{
	xn_control_call(xn_port(dev), mtu_chosen);
	return 0;
}

/*
 * A vif has no address filter: the backend delivers whatever is sent to
 * the vif, so the port's own address is the application's to choose.
 */
static int
xn_mac_addr_set(struct rte_eth_dev *dev __rte_unused,
		struct rte_ether_addr *addr __rte_unused)
{
	return 0;
}

/*
 * The application's receive filter: a vif filters no unicast address, and
 * multicast only where the PMD can ask its peer to (ops->rx_filter).
 */
static int
rx_filter(struct rte_eth_dev *dev, bool promiscuous, bool all_multicast,
	  struct rte_ether_addr *mc, uint32_t nb_mc)
{
	struct xn_port *p = xn_port(dev);
	int ret = 0;

	pthread_mutex_lock(&p->lock);
	p->filter.promiscuous = promiscuous;
	p->filter.all_multicast = all_multicast;
	if (mc != NULL) {
		memcpy(p->filter.mc, mc, nb_mc * sizeof(*mc));
		p->filter.nb_mc = nb_mc;
	}
	if (xn_ops_of(p)->rx_filter != NULL)
		ret = xn_ops_of(p)->rx_filter(p);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

static int
xn_promiscuous_enable(struct rte_eth_dev *dev)
{
	return rx_filter(dev, true, dev->data->all_multicast, NULL, 0);
}

static int
xn_promiscuous_disable(struct rte_eth_dev *dev)
{
	return rx_filter(dev, false, dev->data->all_multicast, NULL, 0);
}

static int
xn_allmulticast_enable(struct rte_eth_dev *dev)
{
	return rx_filter(dev, dev->data->promiscuous, true, NULL, 0);
}

static int
xn_allmulticast_disable(struct rte_eth_dev *dev)
{
	return rx_filter(dev, dev->data->promiscuous, false, NULL, 0);
}

static int
xn_set_mc_addr_list(struct rte_eth_dev *dev, struct rte_ether_addr *mc,
		    uint32_t nb_mc)
{
	struct xn_port *p = xn_port(dev);
	uint32_t i;

	if (xn_ops_of(p)->rx_filter == NULL)
		return -ENOTSUP;
	if (nb_mc > XN_MAX_MC_ADDRS) {
		XN_LOG(p, ERR, "%u multicast groups: a vif filters at most %u",
		       nb_mc, XN_MAX_MC_ADDRS);
		return -ENOSPC;
	}
	for (i = 0; i < nb_mc; i++)
		if (!rte_is_multicast_ether_addr(&mc[i]) ||
		    rte_is_broadcast_ether_addr(&mc[i]))
			return -EINVAL;
	return rx_filter(dev, dev->data->promiscuous, dev->data->all_multicast,
			 mc != NULL ? mc : p->filter.mc, nb_mc);
}

static const struct eth_dev_ops xn_ops = {
	.dev_configure = xn_dev_configure,
	.dev_infos_get = xn_dev_infos_get,
	.dev_start = xn_dev_start,
	.dev_stop = xn_dev_stop,
	.dev_close = xn_dev_close,
	.link_update = xn_link_update,
	.dev_supported_ptypes_get = xn_dev_supported_ptypes_get,
	.dev_ptypes_set = xn_dev_ptypes_set,
	.promiscuous_enable = xn_promiscuous_enable,
	.promiscuous_disable = xn_promiscuous_disable,
	.allmulticast_enable = xn_allmulticast_enable,
	.allmulticast_disable = xn_allmulticast_disable,
	.set_mc_addr_list = xn_set_mc_addr_list,
	.rss_hash_update = xn_rss_hash_update,
	.rss_hash_conf_get = xn_rss_hash_conf_get,
	.reta_update = xn_reta_update,
	.reta_query = xn_reta_query,
	.mtu_set = xn_mtu_set,
	.mac_addr_set = xn_mac_addr_set,
	.rx_queue_setup = xn_rx_queue_setup,
	.tx_queue_setup = xn_tx_queue_setup,
	.rx_queue_release = xn_rx_queue_release,
	.tx_queue_release = xn_tx_queue_release,
	.rx_queue_intr_enable = xn_intr_enable,
	.rx_queue_intr_disable = xn_intr_disable,
	.rxq_info_get = xn_rxq_info_get,
	.txq_info_get = xn_txq_info_get,
	.stats_get = xn_stats_get,
	.stats_reset = xn_stats_reset,
	.xstats_get = xn_xstats_get,
	.xstats_get_names = xn_xstats_get_names,
	.xstats_reset = xn_stats_reset,
	.eth_dev_priv_dump = xn_info_dump,
};

/*
 * What a secondary process (dpdk-proc-info, for one) may do with a
 * port: read its information, link and counters, all in the shared port
 * data. The rings, event channels and xenstore are mapped and watched in
 * the primary alone, so the data path and every change stay there, and
 * resetting counters too (it takes the port's lock, a process-private
 * mutex).
 */
static const struct eth_dev_ops xn_secondary_ops = {
	.dev_infos_get = xn_dev_infos_get,
	.link_update = xn_link_update,
	.dev_supported_ptypes_get = xn_dev_supported_ptypes_get,
	.stats_get = xn_stats_get,
	.xstats_get = xn_xstats_get,
	.xstats_get_names = xn_xstats_get_names,
};

struct xn_port *
xn_port_by_id(uint16_t port_id, const struct xn_pmd *pmd)
{
	struct rte_eth_dev *dev;

	if (!rte_eth_dev_is_valid_port(port_id))
		return NULL;
	dev = &rte_eth_devices[port_id];
	if (dev->dev_ops != &xn_ops || xn_pmd_of(dev) != pmd)
		return NULL;
	return xn_port(dev);
}

/*
 * A vdev's NUMA node is SOCKET_ID_ANY: the port takes the node of the
 * thread probing it, as DPDK's vhost and af_xdp PMDs do, so its memory
 * (and its queue pairs', xn_port_open()) is in one place, and
 * rte_eth_dev_socket_id() tells the application where to poll it from.
 * The interrupt thread (a watcher's ports) may span nodes: then the main
 * lcore's.
 */
static int
probe_socket(void)
{
	int socket = (int)rte_socket_id();

	if (socket == SOCKET_ID_ANY)
		socket = (int)rte_lcore_to_socket_id(rte_get_main_lcore());
	return socket;
}

/* The ethdev side of a new port; its Xen side comes next. */
static struct rte_eth_dev *
allocate(struct rte_vdev_device *vdev, const struct xn_pmd *pmd)
{
	struct rte_eth_dev *dev;
	struct xn_port *p;

	if (vdev->device.numa_node == SOCKET_ID_ANY)
		vdev->device.numa_node = probe_socket();
	dev = rte_eth_vdev_allocate(vdev, pmd->port_size);
	if (dev == NULL)
		return NULL;
	/* ethdev frees mac_addrs with the port: it must be its own block. */
	dev->data->mac_addrs = rte_zmalloc(rte_vdev_device_name(vdev),
					   RTE_ETHER_ADDR_LEN, 0);
	if (dev->data->mac_addrs == NULL) {
		rte_eth_dev_release_port(dev);
		return NULL;
	}
	dev->data->mtu = RTE_ETHER_MTU;
	dev->data->dev_flags |= RTE_ETH_DEV_INTR_LSC |
				RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS;
	dev->dev_ops = &xn_ops;
	dev->rx_pkt_burst = xn_rx_burst;
	dev->tx_pkt_burst = xn_tx_burst;
	xn_pmd_bind(dev, pmd);
	p = dev->data->dev_private;
	p->dev = dev;
	p->logtype = *pmd->logtype;
	p->fail_fd = -1;
	p->ctrl_evtchn = XN_NO_EVTCHN;
	return dev;
}

/* The primary's port, seen from a secondary process. */
static int
probe_secondary(struct rte_vdev_device *vdev, const struct xn_pmd *pmd)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rte_eth_dev *dev = rte_eth_dev_attach_secondary(name);
	const char *args = rte_vdev_device_args(vdev);

	/*
	 * The primary's vdevs reach a secondary by name alone (the vdev
	 * bus): one without a port there is a netback's watcher (vifs=).
	 */
	if (dev == NULL && (args == NULL || args[0] == '\0')) {
		rte_log(RTE_LOG_INFO, *pmd->logtype,
			"%s: no port in the primary process (a watcher): nothing to attach\n",
			name);
		return 0;
	}
	if (dev == NULL) {
		rte_log(RTE_LOG_ERR, *pmd->logtype,
			"%s: no such port in the primary process\n", name);
		return -ENODEV;
	}
	dev->device = &vdev->device;
	dev->dev_ops = &xn_secondary_ops;
	dev->rx_pkt_burst = rte_eth_pkt_burst_dummy;
	dev->tx_pkt_burst = rte_eth_pkt_burst_dummy;
	xn_pmd_bind(dev, pmd);
	rte_eth_dev_probing_finish(dev);
	rte_log(RTE_LOG_NOTICE, *pmd->logtype,
		"%s: port %u seen from a secondary process: information and statistics; its data path and configuration are the primary's\n",
		name, dev->data->port_id);
	return 0;
}

int
xn_probe(struct rte_vdev_device *vdev, const struct xn_pmd *pmd)
{
	struct rte_kvargs *kv;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return probe_secondary(vdev, pmd);
	kv = xn_devargs_split(rte_vdev_device_args(vdev), *pmd->logtype);
	ret = xn_probe_kv(vdev, pmd, kv);
	rte_kvargs_free(kv);
	return ret;
}

int
xn_probe_kv(struct rte_vdev_device *vdev, const struct xn_pmd *pmd,
	    const struct rte_kvargs *kv)
{
	struct xa_open_args args;
	struct rte_eth_dev *dev;
	struct xn_port *p;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return probe_secondary(vdev, pmd);
	if (kv == NULL)
		return -EINVAL;
	dev = allocate(vdev, pmd);
	if (dev == NULL)
		return -ENOMEM;
	p = xn_port(dev);
	if (xn_ops_of(p)->defaults != NULL)
		xn_ops_of(p)->defaults(p);
	ret = xn_devargs_parse(kv, pmd->args, pmd->nb_args, p, &p->cfg,
			       p->logtype);
	if (ret == 0)
		ret = xn_provider_choose(&p->cfg, pmd->role, p->logtype,
					 rte_vdev_device_name(vdev));
	if (ret != 0)
		goto fail;
	args = (struct xa_open_args){
		.provider = p->cfg.provider,
		.sim_instance = p->cfg.sim_instance,
	};
	ret = xn_ops_of(p)->configure(p, &args);
	if (ret != 0)
		goto fail;
	ret = xn_port_open(p, &args);
	if (ret != 0)
		goto fail;
	ret = xn_ops_of(p)->init(p);
	if (ret == 0)
		ret = xn_control_start(p);
	if (ret != 0) {
		xn_dev_close(dev);
		goto fail;
	}
	rte_eth_dev_probing_finish(dev);
	/* Found gone while probing (its events may all have come by now). */
	xn_port_announce_removal(p);
	XN_LOG(p, INFO, "port %u: vif %u on the %s provider, %u queue pair%s, batch %u%s",
	       dev->data->port_id, p->cfg.handle,
	       xa_provider_name(p->cfg.provider), p->cfg.queues,
	       p->cfg.queues == 1 ? "" : "s", p->cfg.batch,
	       p->cfg.group_ethertype ? ", EtherType grouping" : "");
	return 0;
fail:
	rte_eth_dev_release_port(dev);
	return ret;
}

int
xn_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev =
		rte_eth_dev_allocated(rte_vdev_device_name(vdev));

	if (dev == NULL)
		return 0;
	/* The port is the primary's: a secondary lets go of its view. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return rte_eth_dev_release_port(dev);
	if (dev->data->dev_started)
		rte_eth_dev_stop(dev->data->port_id);
	/* Closing also releases the port. */
	return rte_eth_dev_close(dev->data->port_id);
}
