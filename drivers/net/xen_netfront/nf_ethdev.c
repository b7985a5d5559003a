/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The ethdev face of net_xen_netfront: what it does its own way on top of
 * drivers/common/xen_netif, which holds what both Xen netif PMDs do alike.
 * Its own devargs (the simulator domain it acts as), its statistics, its
 * queues on the lib/netif frontend operations, and the registration. The
 * vif itself is driven by nf_xenbus.c.
 */

#include <errno.h>
#include <stddef.h>

#include <rte_ether.h>

#include "nf.h"
#include "xn_ethdev.h"
#include "xn_stats.h"

RTE_LOG_REGISTER_DEFAULT(nf_logtype, NOTICE);

#define NF_ARG_DOMID "domid"
#define NF_ARG_STATIC_GRANTS "static_grants"
#define NF_ARG_ZERO_COPY "zero_copy"

/* Domains the simulator lets a frontend act as. */
#define NF_SIM_DOMID_MIN 1

/* The smallest mbuf data room worth chaining packets into. */
#define NF_MIN_RX_BUFSIZE 64

static int
nf_arg_domid(const char *key, const char *value, void *opaque)
{
	struct nf_port *ad = opaque;
	unsigned long v;

	if (xn_devarg_uint(nf_logtype, key, value, NF_SIM_DOMID_MIN,
			   XN_SIM_DOMID_MAX, &v) != 0)
		return -EINVAL;
	ad->cfg.domid = v;
	return 0;
}

/* A switch that is on unless its devarg says 0. */
static int
nf_arg_unless_zero(const char *key, const char *value, bool *off)
{
	bool on;

	if (xn_devarg_flag(nf_logtype, key, value, &on) != 0)
		return -EINVAL;
	*off = !on;
	return 0;
}

static int
nf_arg_static_grants(const char *key, const char *value, void *opaque)
{
	return nf_arg_unless_zero(key, value,
				  &((struct nf_port *)opaque)->cfg.no_statics);
}

static int
nf_arg_zero_copy(const char *key, const char *value, void *opaque)
{
	return nf_arg_unless_zero(
		key, value, &((struct nf_port *)opaque)->cfg.no_zero_copy);
}

/* On Xen the domain is the one we run in, told by xenstore. */
static const struct xn_devarg nf_args[] = {
	{ NF_ARG_DOMID, nf_arg_domid, true },
	{ NF_ARG_STATIC_GRANTS, nf_arg_static_grants, false },
	{ NF_ARG_ZERO_COPY, nf_arg_zero_copy, false },
};

static int
nf_configure(struct xn_port *xn, struct xa_open_args *args)
{
	struct nf_port *ad = nf_port(xn);

	args->sim_domid = ad->cfg.domid != 0 ? ad->cfg.domid :
			  NF_SIM_DOMID_MIN;
	return 0;
}

static int
nf_init(struct xn_port *xn)
{
	struct nf_port *ad = nf_port(xn);
	unsigned int i;

	/* Until the toolstack's mac key says otherwise. */
	rte_eth_random_addr(xn->dev->data->mac_addrs->addr_bytes);
	for (i = 0; i < xn->cfg.queues; i++) {
		struct nf_pair *pr = nf_pair(ad, i);

		int ret = xn_queue_pair_init(xn, i, &pr->rxq.x,
					     NETIF_RING_FRONT_RX, &pr->rxq.ring,
					     &pr->txq.x, NETIF_RING_FRONT_TX,
					     &pr->txq.ring);

		if (ret != 0)
			return ret;
	}
	return nf_xenbus_init(ad);
}

static int
nf_rx_setup(struct xn_port *xn, uint16_t qid, struct rte_mempool *mp)
{
	netif_front_rx_setup(&nf_pair(nf_port(xn), qid)->rxq.ring, mp);
	return 0;
}

/* Zero copy: the granted pool the queue receives into (and sends from). */
static struct rte_mempool *
nf_rx_pool(struct xn_port *xn, uint16_t qid)
{
	const struct netif_front_pool *zc = __atomic_load_n(
		&nf_pair(nf_port(xn), qid)->rxq.ring.zc, __ATOMIC_RELAXED);

	return zc != NULL ? zc->mp : NULL;
}

static void
nf_uninit(struct xn_port *xn)
{
	nf_xenbus_uninit(nf_port(xn));
}

/* The application's multicast list or modes changed: tell the backend. */
static int
nf_rx_filter(struct xn_port *xn)
{
	int ret = nf_mcast_sync(nf_port(xn));

	xn_port_refresh(xn);
	return ret;
}

/* xn_port_ops.ctrl: each of the backend's answers to what asked it. */
static unsigned int
nf_ctrl_answers(struct xn_port *xn, bool *more)
{
	struct xen_netif_ctrl_response rsp[NETIF_CTRL_RING_SIZE];
	struct nf_port *ad = nf_port(xn);
	unsigned int j, n;

	/* Answers only to what we asked: never more than a ring holds. */
	*more = false;
	n = nf_ctrl_ring_take(ad, rsp, RTE_DIM(rsp));
	for (j = 0; j < n; j++)
		if (!nf_rss_answered(ad, &rsp[j]))
			nf_ctrl_ring_answered(ad, &rsp[j]);
	return n;
}

static const struct xn_port_ops nf_ops = {
	.configure = nf_configure,
	.init = nf_init,
	.uninit = nf_uninit,
	.rx_setup = nf_rx_setup,
	.update = nf_xenbus_update,
	.failed = nf_xenbus_backend_failed,
	.stopped = nf_xenbus_drain,
	.ctrl = nf_ctrl_answers,
	.rx_pool = nf_rx_pool,
	.rx_filter = nf_rx_filter,
	.rss = nf_rss_get,
	.rss_set = nf_rss_set,
	.info = nf_xenbus_info,
};

/* How many of @n pointers at @v are set, read while a burst may set them. */
static unsigned int
nf_count_set(struct rte_mbuf *const *v, unsigned int n)
{
	unsigned int i, set = 0;

	for (i = 0; i < n; i++)
		set += __atomic_load_n(&v[i], __ATOMIC_RELAXED) != NULL;
	return set;
}

/*
 * Xstat rx_q<n>_zero_copy_held: the mbufs of the pair's zero-copy pool
 * the application holds, those out of the pool less the ones posted on
 * the RX ring and those sent and not answered yet (packets stashed
 * between two bursts count as held). What a closing port leaves to the
 * application (nf_xenbus.c says it at close). Read while the queues run,
 * it may be off by what a burst moves meanwhile; the pool is in DPDK
 * memory, so secondary processes read it too.
 */
static uint64_t
nf_zero_copy_held(const void *q)
{
	const struct nf_rxq *rxq = container_of(q, const struct nf_rxq, x.q);
	const struct nf_pair *pr = container_of(rxq, const struct nf_pair, rxq);
	const struct netif_front_pool *zc =
		__atomic_load_n(&pr->zc, __ATOMIC_ACQUIRE);
	uint32_t out = netif_front_pool_out(zc);
	uint32_t driver;

	if (out == 0)
		return 0;
	driver = nf_count_set(pr->rxq.ring.posted,
			      RTE_DIM(pr->rxq.ring.posted)) +
		 nf_count_set(pr->txq.ring.held, RTE_DIM(pr->txq.ring.held));
	return out > driver ? out - driver : 0;
}

/* The levels the queues do not keep (XN_BASIC_READ), by key. */
enum {
	NF_READ_ZERO_COPY_HELD,
};

static uint64_t
nf_read_stat(const void *q, size_t key)
{
	switch (key) {
	case NF_READ_ZERO_COPY_HELD:
		return nf_zero_copy_held(q);
	}
	return 0;
}

#define RXQ(f) offsetof(struct nf_rxq, ring.stats.f)
#define TXQ(f) offsetof(struct nf_txq, ring.stats.f)
static const struct xn_stat nf_rx_stats[] = {
	{ NULL, RXQ(packets), XN_BASIC_PACKETS },
	{ NULL, RXQ(bytes), XN_BASIC_BYTES },
	{ "error_responses", RXQ(errors), XN_BASIC_ERRORS },
	{ "malformed", RXQ(malformed), XN_BASIC_ERRORS },
	{ "mbuf_alloc_failed", RXQ(mbuf_alloc_failed), XN_BASIC_NOMBUF },
	{ "drop_bad_offload", RXQ(drop_bad_offload), XN_BASIC_ERRORS },
	{ "gso_packets", RXQ(gso_packets), XN_BASIC_NONE },
	{ "zero_copy_packets", RXQ(zero_copy_packets), XN_BASIC_NONE },
	{ "zero_copy_post_short", RXQ(post_short), XN_BASIC_NONE },
	{ "zero_copy_held", NF_READ_ZERO_COPY_HELD, XN_BASIC_READ },
	{ "hashed_packets", RXQ(hashed_packets), XN_BASIC_NONE },
	{ "static_grants", offsetof(struct nf_rxq, static_grants),
	  XN_BASIC_GAUGE },
};

static const struct xn_stat nf_tx_stats[] = {
	{ NULL, TXQ(packets), XN_BASIC_PACKETS },
	{ NULL, TXQ(bytes), XN_BASIC_BYTES },
	{ "error_responses", TXQ(errors), XN_BASIC_ERRORS },
	{ "ring_full", TXQ(ring_full), XN_BASIC_NONE },
	{ "too_many_slots", TXQ(too_many_slots), XN_BASIC_ERRORS },
	{ "drop_bad_offload", TXQ(drop_bad_offload), XN_BASIC_ERRORS },
	{ "drop_no_gso", TXQ(drop_no_gso), XN_BASIC_ERRORS },
	{ "gso_packets", TXQ(gso_packets), XN_BASIC_NONE },
	{ "gso_cut", TXQ(gso_cut), XN_BASIC_NONE },
	{ "zero_copy_packets", TXQ(zero_copy_packets), XN_BASIC_NONE },
	{ "multicast_requests", TXQ(multicast_requests), XN_BASIC_NONE },
	{ "multicast_refused", TXQ(multicast_refused), XN_BASIC_NONE },
};
#undef RXQ
#undef TXQ

static const struct xn_pmd nf_pmd = {
	.logtype = &nf_logtype,
	.port_size = sizeof(struct nf_port),
	.pair_size = sizeof(struct nf_pair),
	.args = nf_args,
	.nb_args = RTE_DIM(nf_args),
	.role = XA_ROLE_FRONTEND,
	.min_rx_bufsize = NF_MIN_RX_BUFSIZE,
	.ops = &nf_ops,
	.stats = XN_STATS_TABLE_READ(nf_rx_stats, nf_tx_stats, nf_read_stat),
	.info_prefix = "/xen_netfront",
};

XN_PMD_REGISTER(net_xen_netfront, nf_pmd);
RTE_PMD_REGISTER_PARAM_STRING(net_xen_netfront,
	NF_ARG_DOMID "=<1-63> "
	NF_ARG_STATIC_GRANTS "=<0|1> "
	NF_ARG_ZERO_COPY "=<0|1> "
	XN_PARAM_STRING);
