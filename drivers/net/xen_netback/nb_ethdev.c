/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The ethdev face of xen_netback (vdev net_xen_netback): what it does its
 * own way on top of drivers/common/xen_netif, which holds what both Xen
 * netif PMDs do alike. Its own devargs (which guest), its statistics, its
 * queues on the lib/netif backend operations, and the registration. The
 * conversation with the frontend is in nb_xenbus.c.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_kvargs.h>
#include <rte_pmd_xen_netif.h>

#include "nb.h"
#include "nb_watch.h"
#include "netif_gso_bufs.h"
#include "netif_lend.h"
#include "xn_ethdev.h"
#include "xn_provider.h"
#include "xn_stats.h"

RTE_LOG_REGISTER_DEFAULT(nb_logtype, NOTICE);

#define ARG_DOMID "domid"
#define ARG_DOMAIN "domain"
#define ARG_ZERO_COPY "zero_copy"
#define ARG_STALL_TIMEOUT "stall_timeout_ms"
#define ARG_FATAL_SLOTS "fatal_slots"
#define ARG_FAIL_BACKOFF "fail_backoff_ms"
#define ARG_ON_CLOSE "on_close"
#define ARG_ON_REMOVAL "on_removal"
#define ARG_VIFS "vifs"
#define ARG_STATICS_MAX "static_grants_max"
#define ARG_STATICS_PROCESS_MAX "static_grants_process_max"
#define ARG_GSO_CONTIGUOUS "gso_contiguous"
#define ARG_TX_MAP_MIN "tx_map_min"
#define ARG_TX_MAP_HOLD "tx_map_hold_ms"
#define ARG_SIM_DOMID "sim_domid"
#define DEFAULT_FAIL_BACKOFF_MS 100
#define MAX_FAIL_BACKOFF_MS 10000

/*
 * How long the application may hold a mapped packet of a guest before the
 * netback copies it out and answers the guest: far beyond what forwarding
 * takes, and short enough for a guest's TCP not to notice.
 */
#define DEFAULT_TX_MAP_HOLD_MS 100
#define MAX_TX_MAP_HOLD_MS 3600000

/* Linux netback's rx_stall_timeout_msecs, and the most we take: an hour. */
#define DEFAULT_STALL_TIMEOUT_MS 60000
#define MAX_STALL_TIMEOUT_MS 3600000

/* Domain ids a guest can have: DOMID_FIRST_RESERVED is Xen's own. */
#define MAX_GUEST_DOMID (DOMID_FIRST_RESERVED - 1)

static int
nb_arg_domid(const char *key, const char *value, void *opaque)
{
	struct nb_port *p = opaque;
	unsigned long v;

	if (xn_devarg_uint(nb_logtype, key, value, 1, MAX_GUEST_DOMID,
			   &v) != 0)
		return -EINVAL;
	p->cfg.frontend_domid = v;
	return 0;
}

/*
 * A guest name as xl takes it, or a pattern of them; '/' would escape
 * xenstore paths.
 */
static int
nb_guest_name(const char *key, const char *value, char *out)
{
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
	memcpy(out, value, len + 1);
	return 0;
}

static int
nb_arg_domain(const char *key, const char *value, void *opaque)
{
	return nb_guest_name(key, value,
			     ((struct nb_port *)opaque)->cfg.domain);
}

static int
nb_arg_zero_copy(const char *key, const char *value, void *opaque)
{
	return xn_devarg_flag(nb_logtype, key, value,
			      &((struct nb_port *)opaque)->cfg.zero_copy);
}

static int
nb_arg_stall_timeout(const char *key, const char *value, void *opaque)
{
	unsigned long v;

	if (xn_devarg_uint(nb_logtype, key, value, 0, MAX_STALL_TIMEOUT_MS,
			   &v) != 0)
		return -EINVAL;
	((struct nb_port *)opaque)->cfg.stall_timeout_ms = v;
	return 0;
}

/* Linux's fatal_skb_slots: from "fatal past 18 slots" to our most. */
static int
nb_arg_fatal_slots(const char *key, const char *value, void *opaque)
{
	unsigned long v;

	if (xn_devarg_uint(nb_logtype, key, value, NETIF_MAX_SLOTS - 1,
			   NETIF_TX_FATAL_SLOTS_MAX, &v) != 0)
		return -EINVAL;
	((struct nb_port *)opaque)->cfg.fatal_slots = v;
	return 0;
}

static int
nb_arg_fail_backoff(const char *key, const char *value, void *opaque)
{
	unsigned long v;

	if (xn_devarg_uint(nb_logtype, key, value, 0, MAX_FAIL_BACKOFF_MS,
			   &v) != 0)
		return -EINVAL;
	((struct nb_port *)opaque)->cfg.fail_backoff_ms = v;
	return 0;
}

/* What closing the port tells the guest: "close" (as Linux) or nothing. */
static int
nb_arg_on_close(const char *key, const char *value, void *opaque)
{
	static const char *const words[] = { "close", "detach" };
	unsigned int i;

	if (xn_devarg_word(nb_logtype, key, value, words, RTE_DIM(words), &i) !=
	    0)
		return -EINVAL;
	((struct nb_port *)opaque)->cfg.detach_on_close = i == 1;
	return 0;
}

/* What the vif's removal does to the port: wait for the next, or remove it. */
static int
nb_arg_on_removal(const char *key, const char *value, void *opaque)
{
	static const char *const words[] = { "wait", "remove" };
	unsigned int i;

	if (xn_devarg_word(nb_logtype, key, value, words, RTE_DIM(words), &i) !=
	    0)
		return -EINVAL;
	((struct nb_port *)opaque)->cfg.remove_with_vif = i == 1;
	return 0;
}

/*
 * The ceilings on the guest's pages kept mapped as static grants: the
 * vif's, and the whole process's (each port checks the process's pages
 * against its own value; give every port the same). 0 maps none.
 */
static int
nb_arg_statics_max(const char *key, const char *value, void *opaque)
{
	unsigned long v;

	if (xn_devarg_uint(nb_logtype, key, value, 0, NETIF_STATICS_CEILING_MAX,
			   &v) != 0)
		return -EINVAL;
	((struct nb_port *)opaque)->cfg.statics_limits.vif = v;
	return 0;
}

static int
nb_arg_statics_process_max(const char *key, const char *value, void *opaque)
{
	unsigned long v;

	if (xn_devarg_uint(nb_logtype, key, value, 0, NETIF_STATICS_CEILING_MAX,
			   &v) != 0)
		return -EINVAL;
	((struct nb_port *)opaque)->cfg.statics_limits.process = v;
	return 0;
}

static int
nb_arg_gso_contiguous(const char *key, const char *value, void *opaque)
{
	return xn_devarg_flag(nb_logtype, key, value,
			      &((struct nb_port *)opaque)->cfg.gso_contiguous);
}

/* Guest packets of at least this many bytes are mapped; 0: none. */
static int
nb_arg_tx_map_min(const char *key, const char *value, void *opaque)
{
	unsigned long v;

	if (xn_devarg_uint(nb_logtype, key, value, 0, XEN_NETIF_MAX_TX_SIZE,
			   &v) != 0)
		return -EINVAL;
	((struct nb_port *)opaque)->cfg.tx_map_min = v;
	return 0;
}

static int
nb_arg_tx_map_hold(const char *key, const char *value, void *opaque)
{
	unsigned long v;

	if (xn_devarg_uint(nb_logtype, key, value, 0, MAX_TX_MAP_HOLD_MS, &v) !=
	    0)
		return -EINVAL;
	((struct nb_port *)opaque)->cfg.tx_map_hold_ms = v;
	return 0;
}

static int
nb_arg_vifs(const char *key, const char *value, void *opaque)
{
	return nb_guest_name(key, value, ((struct nb_port *)opaque)->cfg.vifs);
}

/*
 * Simulator only: the backend acts as this domain, a driver domain unless
 * 0, under the permissions libxl gives one (on Xen, the domain we run in).
 */
static int
nb_arg_sim_domid(const char *key, const char *value, void *opaque)
{
	unsigned long v;

	if (xn_devarg_uint(nb_logtype, key, value, 0, XN_SIM_DOMID_MAX, &v) !=
	    0)
		return -EINVAL;
	((struct nb_port *)opaque)->cfg.sim_domid = v;
	return 0;
}

static const struct xn_devarg nb_args[] = {
	{ ARG_DOMID, nb_arg_domid, false },
	{ ARG_DOMAIN, nb_arg_domain, false },
	{ ARG_ZERO_COPY, nb_arg_zero_copy, false },
	{ ARG_STALL_TIMEOUT, nb_arg_stall_timeout, false },
	{ ARG_FATAL_SLOTS, nb_arg_fatal_slots, false },
	{ ARG_FAIL_BACKOFF, nb_arg_fail_backoff, false },
	{ ARG_ON_CLOSE, nb_arg_on_close, false },
	{ ARG_ON_REMOVAL, nb_arg_on_removal, false },
	{ ARG_STATICS_MAX, nb_arg_statics_max, false },
	{ ARG_STATICS_PROCESS_MAX, nb_arg_statics_process_max, false },
	{ ARG_GSO_CONTIGUOUS, nb_arg_gso_contiguous, false },
	{ ARG_TX_MAP_MIN, nb_arg_tx_map_min, false },
	{ ARG_TX_MAP_HOLD, nb_arg_tx_map_hold, false },
	{ ARG_VIFS, nb_arg_vifs, false },
	{ ARG_SIM_DOMID, nb_arg_sim_domid, true },
};

static void
nb_defaults(struct xn_port *xn)
{
	nb_port(xn)->cfg.stall_timeout_ms = DEFAULT_STALL_TIMEOUT_MS;
	nb_port(xn)->cfg.tx_map_hold_ms = DEFAULT_TX_MAP_HOLD_MS;
	nb_port(xn)->cfg.fatal_slots = NETIF_TX_FATAL_SLOTS_DEFAULT;
	nb_port(xn)->cfg.fail_backoff_ms = DEFAULT_FAIL_BACKOFF_MS;
	netif_statics_limits_default(&nb_port(xn)->cfg.statics_limits);
}

static int
nb_configure(struct xn_port *xn, struct xa_open_args *args)
{
	struct nb_port *p = nb_port(xn);

	args->sim_domid = p->cfg.sim_domid;
	if ((p->cfg.frontend_domid != 0) == (p->cfg.domain[0] != '\0')) {
		NB_LOG(ERR, "the guest is required, once: %s=<its domain id> or %s=<its name>",
		       ARG_DOMID, ARG_DOMAIN);
		return -EINVAL;
	}
	/*
	 * No xl in the simulator: a guest named by id gets its vif from the
	 * simulator's toolstack, as "xl create" would. By name, the toolstack
	 * is the caller's (xsim_domain_name, xsim_vif_plug), and so is the
	 * vif of a port that goes with it.
	 */
	if (xn->cfg.provider == XA_PROVIDER_SIM && p->cfg.frontend_domid != 0 &&
	    !p->cfg.remove_with_vif) {
		args->sim_plug_vif = true;
		args->sim_vif_frontend = p->cfg.frontend_domid;
		args->sim_vif_handle = xn->cfg.handle;
	}
	return 0;
}

/*
 * Zero copy, from static grants or from mappings (tx_map_min=): each queue
 * pair's lender (netif_lend.h), for the port's life.
 */
static int
nb_lend_init(struct nb_port *p)
{
	bool lends = p->cfg.zero_copy || p->cfg.tx_map_min > 0;
	char name[RTE_RING_NAMESIZE];
	unsigned int i;

	for (i = 0; lends && i < p->xn.cfg.queues; i++) {
		snprintf(name, sizeof(name), "xnb%u_lend%u",
			 p->xn.dev->data->port_id, i);
		nb_pair(p, i)->rxq.ring.map_min = p->cfg.tx_map_min;
		nb_pair(p, i)->rxq.ring.lend =
			netif_lend_create(name, p->xn.dev->device->numa_node);
		if (nb_pair(p, i)->rxq.ring.lend == NULL) {
			NB_LOG(ERR, "cannot allocate queue %u's zero-copy state: %s",
			       i, rte_strerror(rte_errno));
			while (i-- > 0)
				netif_lend_destroy(
					nb_pair(p, i)->rxq.ring.lend);
			return -ENOMEM;
		}
		netif_lend_set_hold(nb_pair(p, i)->rxq.ring.lend,
				    p->cfg.tx_map_hold_ms * rte_get_timer_hz() /
					    1000);
	}
	return 0;
}

static int
nb_init(struct xn_port *xn)
{
	struct nb_port *p = nb_port(xn);
	unsigned int i;
	int ret;

	/* Linux netback's MAC for its end of every vif. */
	rte_ether_unformat_addr("fe:ff:ff:ff:ff:ff", xn->dev->data->mac_addrs);
	for (i = 0; i < xn->cfg.queues; i++) {
		struct nb_pair *pr = nb_pair(p, i);

		ret = xn_queue_pair_init(xn, i, &pr->rxq.x, NETIF_RING_BACK_TX,
					 &pr->rxq.ring, &pr->txq.x,
					 NETIF_RING_BACK_RX, &pr->txq.ring);
		if (ret != 0)
			return ret;
		pr->rxq.ring.credit = &p->rate.credit;
		pr->rxq.ring.mcast = &p->mcast.filter;
		pr->txq.ring.mcast = &p->mcast.filter;
	}
	netif_mcast_reset(&p->mcast.filter);
	/* It tells of its removal (nb_xenbus.c): ethdev's removal event. */
	if (p->cfg.remove_with_vif)
		xn->dev->data->dev_flags |= RTE_ETH_DEV_INTR_RMV;
	nb_ctrl_ring_init(p);
	netif_credit_init(&p->rate.credit, rte_get_timer_hz());
	ret = nb_lend_init(p);
	if (ret == 0) {
		ret = nb_xenbus_init(p);
		if (ret != 0)
			nb_ctrl_ring_uninit(p);
	}
	return ret;
}

/*
 * Rx queue @qid's buffers for large segments, if the application takes
 * them whole in one mbuf (gso_contiguous=1): made once, kept across
 * setups.
 */
static int
nb_gso_bufs_setup(struct nb_port *p, uint16_t qid, struct netif_back_tx *tx)
{
	char name[RTE_MEMPOOL_NAMESIZE];

	if (!p->cfg.gso_contiguous || tx->gso_bufs != NULL ||
	    !(xn_rx_offloads(&p->xn) & NETIF_RX_GSO))
		return 0;
	snprintf(name, sizeof(name), "nb_gso%u_%u", p->xn.dev->data->port_id,
		 qid);
	tx->gso_bufs = netif_gso_bufs_create(name, NETIF_GSO_BUFS,
					     p->xn.dev->data->numa_node);
	if (tx->gso_bufs == NULL) {
		NB_LOG(ERR, "Rx queue %u: no memory for %u buffers of 64 KiB: %s",
		       qid, NETIF_GSO_BUFS, rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}

static int
nb_rx_setup(struct xn_port *xn, uint16_t qid, struct rte_mempool *mp)
{
	struct netif_back_tx *tx = &nb_pair(nb_port(xn), qid)->rxq.ring;
	int ret = nb_gso_bufs_setup(nb_port(xn), qid, tx);

	if (ret != 0)
		return ret;
	netif_back_tx_setup(tx, mp, xn->dev->data->port_id);
	tx->fatal_slots = nb_port(xn)->cfg.fatal_slots;
	return 0;
}

static void
nb_rx_release(struct xn_port *xn, uint16_t qid)
{
	struct netif_back_tx *tx = &nb_pair(nb_port(xn), qid)->rxq.ring;
	unsigned int out;

	netif_back_tx_release(tx);
	/* Freed with the last buffer the application still holds. */
	out = netif_gso_bufs_release(tx->gso_bufs);
	if (out != 0)
		NB_LOG(DEBUG, "Rx queue %u: %u large segments still held by the application",
		       qid, out);
	tx->gso_bufs = NULL;
}

static void
nb_uninit(struct xn_port *xn)
{
	nb_xenbus_uninit(nb_port(xn));
	nb_backoff_uninit(nb_port(xn));
	nb_carrier_uninit(nb_port(xn));
	nb_ctrl_ring_uninit(nb_port(xn));
}

static const struct xn_port_ops nb_ops = {
	.defaults = nb_defaults,
	.configure = nb_configure,
	.init = nb_init,
	.uninit = nb_uninit,
	.rx_setup = nb_rx_setup,
	.rx_release = nb_rx_release,
	.update = nb_xenbus_update,
	.failed = nb_xenbus_frontend_failed,
	.ctrl = nb_ctrl_ring_serve,
	.rss = nb_ctrl_ring_rss,
	.info = nb_xenbus_info,
};

#define RXQ(f) offsetof(struct nb_rxq, ring.f)
#define TXQ(f) offsetof(struct nb_txq, ring.f)
static const struct xn_stat nb_rx_stats[] = {
	{ NULL, RXQ(stats.packets), XN_BASIC_PACKETS },
	{ NULL, RXQ(stats.bytes), XN_BASIC_BYTES },
	{ "mbuf_alloc_failed", RXQ(stats.mbuf_alloc_failed), XN_BASIC_NOMBUF },
	{ "mbuf_refill_short", RXQ(stats.mbuf_refill_short), XN_BASIC_NONE },
	{ RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_CALLS, RXQ(copy.stats.calls),
	  XN_BASIC_NONE },
	{ RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_OPS, RXQ(copy.stats.segs),
	  XN_BASIC_NONE },
	{ RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_PAGE_SPLITS,
	  RXQ(copy.stats.page_splits), XN_BASIC_NONE },
	{ RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_FAILURES, RXQ(copy.stats.failed),
	  XN_BASIC_NONE },
	{ "drop_bad_frame", RXQ(stats.drop_bad_frame), XN_BASIC_ERRORS },
	{ "drop_bad_csum", RXQ(stats.drop_bad_csum), XN_BASIC_ERRORS },
	{ "drop_bad_gso", RXQ(stats.drop_bad_gso), XN_BASIC_ERRORS },
	{ "drop_copy_failed", RXQ(stats.drop_copy_failed), XN_BASIC_ERRORS },
	{ "gso_packets", RXQ(stats.gso_packets), XN_BASIC_NONE },
	{ "gso_checksum_fixup", RXQ(stats.gso_checksum_fixup), XN_BASIC_NONE },
	{ "gso_buf_short", RXQ(stats.gso_buf_short), XN_BASIC_NONE },
	{ "static_packets", RXQ(stats.static_packets), XN_BASIC_NONE },
	{ "zero_copy_packets", RXQ(stats.zero_copy_packets), XN_BASIC_NONE },
	{ "zero_copy_slots", RXQ(stats.zero_copy_slots), XN_BASIC_GAUGE },
	{ "zero_copy_failed", RXQ(stats.zero_copy_failed), XN_BASIC_NONE },
	{ "map_packets", RXQ(stats.map_packets), XN_BASIC_NONE },
	{ "map_calls", RXQ(stats.map_calls), XN_BASIC_NONE },
	{ "map_failed", RXQ(stats.map_failed), XN_BASIC_NONE },
	{ "unmaps", RXQ(stats.unmaps), XN_BASIC_NONE },
	{ "unmap_failed", RXQ(stats.unmap_failed), XN_BASIC_ERRORS },
	{ "map_expired", RXQ(stats.map_expired), XN_BASIC_NONE },
	{ "map_expire_failed", RXQ(stats.map_expire_failed), XN_BASIC_ERRORS },
	{ "rate_limited", RXQ(stats.rate_limited), XN_BASIC_NONE },
	{ "hashed_packets", RXQ(stats.hashed_packets), XN_BASIC_NONE },
	{ "multicast_requests", RXQ(stats.multicast_requests), XN_BASIC_NONE },
	{ "multicast_refused", RXQ(stats.multicast_refused), XN_BASIC_NONE },
	{ "static_grants", offsetof(struct nb_rxq, statics.grants),
	  XN_BASIC_GAUGE },
	{ "static_grant_maps", offsetof(struct nb_rxq, statics.maps),
	  XN_BASIC_NONE },
	{ "static_grant_unmaps", offsetof(struct nb_rxq, statics.unmaps),
	  XN_BASIC_NONE },
	{ "static_grant_pages", offsetof(struct nb_rxq, statics.pages),
	  XN_BASIC_GAUGE },
	{ "static_grant_over_limit",
	  offsetof(struct nb_rxq, statics.over_limit), XN_BASIC_NONE },
	{ RTE_PMD_XEN_NETIF_XSTAT_MALFORMED_REQUESTS, RXQ(stats.malformed),
	  XN_BASIC_NONE },
};

static const struct xn_stat nb_tx_stats[] = {
	{ NULL, TXQ(stats.packets), XN_BASIC_PACKETS },
	{ NULL, TXQ(stats.bytes), XN_BASIC_BYTES },
	{ RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_CALLS, TXQ(copy.stats.calls),
	  XN_BASIC_NONE },
	{ RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_OPS, TXQ(copy.stats.segs),
	  XN_BASIC_NONE },
	{ RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_PAGE_SPLITS,
	  TXQ(copy.stats.page_splits), XN_BASIC_NONE },
	{ RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_FAILURES, TXQ(copy.stats.failed),
	  XN_BASIC_NONE },
	{ "ring_full", TXQ(stats.ring_full), XN_BASIC_NONE },
	{ "guest_stalls", offsetof(struct nb_txq, carrier.stalls),
	  XN_BASIC_NONE },
	{ "drop_multicast", TXQ(stats.drop_multicast), XN_BASIC_NONE },
	{ "hashed_packets", TXQ(stats.hashed_packets), XN_BASIC_NONE },
	{ "drop_too_long", TXQ(stats.drop_too_long), XN_BASIC_ERRORS },
	{ "drop_bad_offload", TXQ(stats.drop_bad_offload), XN_BASIC_ERRORS },
	{ "drop_no_gso", TXQ(stats.drop_no_gso), XN_BASIC_ERRORS },
	{ "drop_copy_failed", TXQ(stats.drop_copy_failed), XN_BASIC_ERRORS },
	{ "gso_packets", TXQ(stats.gso_packets), XN_BASIC_NONE },
	{ "gso_cut", TXQ(stats.gso_cut), XN_BASIC_NONE },
	{ "static_packets", TXQ(stats.static_packets), XN_BASIC_NONE },
	{ RTE_PMD_XEN_NETIF_XSTAT_MALFORMED_REQUESTS, TXQ(stats.malformed),
	  XN_BASIC_NONE },
};
#undef RXQ
#undef TXQ

static const struct xn_pmd nb_pmd = {
	.logtype = &nb_logtype,
	.port_size = sizeof(struct nb_port),
	.pair_size = sizeof(struct nb_pair),
	.args = nb_args,
	.nb_args = RTE_DIM(nb_args),
	.role = XA_ROLE_BACKEND,
	/* A guest may send frames of up to 64 KiB: chains of at most 64. */
	.min_rx_bufsize = NETIF_BACK_MIN_MBUF_ROOM,
	.ops = &nb_ops,
	.stats = XN_STATS_TABLE(nb_rx_stats, nb_tx_stats),
	.info_prefix = "/xen_netback",
};

/* Keys a watcher's ports get from it, not from the application. */
static const char *const nb_port_own_keys[] = {
	ARG_DOMID, ARG_DOMAIN, XN_ARG_HANDLE, ARG_ON_REMOVAL,
};

/*
 * A watcher's devargs but vifs=, as each of its ports gets them (@out): a
 * port's own keys are refused, for it gets its own.
 */
static int
nb_watcher_port_args(const struct rte_kvargs *kv, char *out, size_t size)
{
	unsigned int i, k;
	size_t len = 0;

	out[0] = '\0';
	for (i = 0; i < kv->count; i++) {
		const struct rte_kvargs_pair *kp = &kv->pairs[i];

		for (k = 0; k < RTE_DIM(nb_port_own_keys); k++)
			if (strcmp(kp->key, nb_port_own_keys[k]) == 0) {
				NB_LOG(ERR, "%s= is not for a watcher (%s=): each port it makes gets its own",
				       kp->key, ARG_VIFS);
				return -EINVAL;
			}
		if (strcmp(kp->key, ARG_VIFS) == 0)
			continue;
		len += snprintf(out + len, len < size ? size - len : 0,
				"%s%s=%s", len > 0 ? "," : "", kp->key,
				kp->value != NULL ? kp->value : "");
	}
	if (len >= size) {
		NB_LOG(ERR, "a watcher's devargs take at most %zu characters",
		       size - 1);
		return -EINVAL;
	}
	return 0;
}

/*
 * The watcher @vdev, its devargs cut into @kv: checked once here as each
 * of its ports would check them, and where Xen is chosen and logged for
 * the watcher as for a port.
 */
static int
nb_watcher_probe(struct rte_vdev_device *vdev, const struct rte_kvargs *kv)
{
	const char *name = rte_vdev_device_name(vdev);
	char args[NB_WATCH_ARGS_MAX];
	struct xa_open_args xa_args;
	struct nb_port *scratch;
	int ret;

	if (rte_kvargs_count(kv, ARG_VIFS) != 1) {
		NB_LOG(ERR, "%s= is given more than once", ARG_VIFS);
		return -EINVAL;
	}
	ret = nb_watcher_port_args(kv, args, sizeof(args));
	if (ret != 0)
		return ret;
	scratch = calloc(1, sizeof(*scratch));
	if (scratch == NULL)
		return -ENOMEM;
	nb_defaults(&scratch->xn);
	ret = xn_devargs_parse(kv, nb_args, RTE_DIM(nb_args), scratch,
			       &scratch->xn.cfg, nb_logtype);
	if (ret == 0)
		ret = xn_provider_choose(&scratch->xn.cfg, XA_ROLE_BACKEND,
					 nb_logtype, name);
	if (ret == 0) {
		xa_args = (struct xa_open_args){
			.provider = scratch->xn.cfg.provider,
			.sim_instance = scratch->xn.cfg.sim_instance,
			.sim_domid = scratch->cfg.sim_domid,
		};
		ret = nb_watch_probe(vdev, scratch->cfg.vifs, args, &xa_args);
	}
	free(scratch);
	return ret;
}

/*
 * vifs=<pattern> makes the vdev a watcher (nb_watch.h), not a port. Its
 * devargs are cut into pairs once, here, for either.
 */
static int
nb_probe(struct rte_vdev_device *vdev)
{
	struct rte_kvargs *kv;
	int ret;

	kv = xn_devargs_split(rte_vdev_device_args(vdev), nb_logtype);
	if (kv != NULL && rte_kvargs_get(kv, ARG_VIFS) != NULL)
		ret = nb_watcher_probe(vdev, kv);
	else
		ret = xn_probe_kv(vdev, &nb_pmd, kv);
	rte_kvargs_free(kv);
	return ret;
}

static int
nb_remove(struct rte_vdev_device *vdev)
{
	return nb_watch_remove(vdev) ? 0 : xn_remove(vdev);
}

XN_PMD_REGISTER_PROBE(net_xen_netback, nb_pmd, nb_probe, nb_remove);
/* One key a line, as tests/doc/test_guide.py reads them. */
/* clang-format off */
RTE_PMD_REGISTER_PARAM_STRING(net_xen_netback,
	ARG_DOMID "=<1-32751> "
	ARG_DOMAIN "=<guest name> "
	ARG_ZERO_COPY "=<0|1> "
	ARG_STALL_TIMEOUT "=<0-3600000> "
	ARG_FATAL_SLOTS "=<17-30> "
	ARG_FAIL_BACKOFF "=<0-10000> "
	ARG_ON_CLOSE "=<close|detach> "
	ARG_ON_REMOVAL "=<wait|remove> "
	ARG_VIFS "=<guest name pattern> "
	ARG_STATICS_MAX "=<0-4194304> "
	ARG_STATICS_PROCESS_MAX "=<0-4194304> "
	ARG_GSO_CONTIGUOUS "=<0|1> "
	ARG_TX_MAP_MIN "=<0-65535> "
	ARG_TX_MAP_HOLD "=<0-3600000> "
	ARG_SIM_DOMID "=<0-63> "
	XN_PARAM_STRING);
/* clang-format on */
