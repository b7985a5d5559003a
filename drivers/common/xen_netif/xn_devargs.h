/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The devargs both Xen netif PMDs take (handle, provider, sim, batch,
 * group_ethertype, queues, gso, ol_flags), parsed once at probe with one rte_kvargs
 * handler per key, and the one numeric rule every key follows: a decimal
 * integer without sign, spaces or leading zeros, within the key's range.
 * "010" and "0x20" are refused rather than read as 8 and 32: C's base-0
 * rule and a reader's eye disagree on them. Each PMD adds its own keys
 * (struct xn_devarg) and gets an error naming the key and what it accepts
 * for anything else.
 */

#ifndef XN_DEVARGS_H
#define XN_DEVARGS_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_kvargs.h>

#include "xa.h"

#define XN_ARG_HANDLE "handle"
#define XN_ARG_PROVIDER "provider"
#define XN_ARG_SIM "sim"
#define XN_ARG_BATCH "batch"
#define XN_ARG_GROUP "group_ethertype"
#define XN_ARG_QUEUES "queues"
#define XN_ARG_GSO "gso"
#define XN_ARG_OL_FLAGS "ol_flags"

/* The highest domain id a port may act as on the simulator (its sim_domid). */
#define XN_SIM_DOMID_MAX 63

/* The shared keys as RTE_PMD_REGISTER_PARAM_STRING lists them. */
#define XN_PARAM_STRING \
	XN_ARG_HANDLE "=<0-65535> " \
	XN_ARG_PROVIDER "=xen|sim " \
	XN_ARG_SIM "=<simulator instance> " \
	XN_ARG_BATCH "=<1-64> " \
	XN_ARG_GROUP "=0|1 " \
	XN_ARG_QUEUES "=<1-8> " \
	XN_ARG_GSO "=auto|on|off " \
	XN_ARG_OL_FLAGS "=legacy|compliant"

/*
 * Whether the port takes its peer's GSO packets, and so offers GSO: as
 * the application's offloads say (Rx LRO or Tx TSO), always, or never.
 */
enum xn_gso {
	XN_GSO_AUTO,
	XN_GSO_ON,
	XN_GSO_OFF,
};

struct xn_devargs {
	uint16_t handle;		/* the vif's device handle */
	enum xa_provider provider;	/* see xn_provider.h */
	bool provider_asked;		/* given as provider= */
	char sim_instance[XA_SIM_INSTANCE_MAX + 1];
	uint16_t queues;		/* queue pairs */
	uint16_t batch;			/* see netif_rx_group.h */
	bool group_ethertype;
	uint64_t single_flag;		/* registered when group_ethertype */
	enum xn_gso gso;
	bool compliant_ol_flags;	/* ol_flags=compliant: NETIF_RX_COMPLIANT */
};

/* A key of one PMD's own. */
struct xn_devarg {
	const char *key;
	arg_handler_t handler;		/* called with the PMD's opaque */
	bool sim_only;			/* refused unless provider=sim */
};

/*
 * A probe's devargs @args (NULL: none) cut into key=value pairs, the one
 * time they are read as text: what the probe hands on to
 * xn_devargs_parse(). NULL, with a log line at @logtype, when they are not
 * key=value pairs. rte_kvargs_free() it.
 */
struct rte_kvargs *xn_devargs_split(const char *args, int logtype);

/*
 * Parse @kv: the shared keys into @cfg (defaults first), the PMD's
 * @own[@nb_own] through their handlers with @opaque. Refuses, with a log
 * line at @logtype naming the key and the accepted values: an unknown key,
 * a key without a value, a value out of its rule, a simulator-only key
 * (sim= or an own key marked so) without provider=sim. Registers the
 * single-EtherType mbuf flag when grouping is asked for. 0 or -EINVAL.
 */
int xn_devargs_parse(const struct rte_kvargs *kv, const struct xn_devarg *own,
		     unsigned int nb_own, void *opaque, struct xn_devargs *cfg,
		     int logtype);

/*
 * The numeric rule, for a PMD's own keys: @value as a decimal integer in
 * [@min, @max] into *@out, or -EINVAL with a log line naming @key.
 */
int xn_devarg_uint(int logtype, const char *key, const char *value,
		   unsigned long min, unsigned long max, unsigned long *out);

/* The same for a switch: 0 or 1 into *@on. */
int xn_devarg_flag(int logtype, const char *key, const char *value,
		   bool *on);

/*
 * The same for a choice of words: the index of @value in @words[@nb_words]
 * into *@out, or -EINVAL with a log line listing the words.
 */
int xn_devarg_word(int logtype, const char *key, const char *value,
		   const char *const words[], unsigned int nb_words,
		   unsigned int *out);

#endif /* XN_DEVARGS_H */
