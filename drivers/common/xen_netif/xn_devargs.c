/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Parsing the devargs both PMDs share (see xn_devargs.h).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_log.h>
#include <rte_pmd_xen_netif.h>
#include <rte_string_fns.h>

#include "netif_rx_group.h"
#include "xenbus.h"
#include "xn_devargs.h"

/* The handlers' opaque: where values go, and where errors are logged. */
struct shared_args {
	struct xn_devargs *cfg;
	int logtype;
};

#define ARG_LOG(logtype, fmt, ...) \
	rte_log(RTE_LOG_ERR, logtype, "devargs: " fmt "\n", ##__VA_ARGS__)

int
xn_devarg_uint(int logtype, const char *key, const char *value,
	       unsigned long min, unsigned long max, unsigned long *out)
{
	size_t i, len = value != NULL ? strlen(value) : 0;
	char *end;

	for (i = 0; i < len; i++)
		if (value[i] < '0' || value[i] > '9')
			break;
	errno = 0;
	*out = len > 0 && i == len && (value[0] != '0' || len == 1) ?
	       strtoul(value, &end, 10) : 0;
	if (len == 0 || i < len || (value[0] == '0' && len > 1) ||
	    errno != 0 || *out < min || *out > max) {
		ARG_LOG(logtype, "invalid %s=%s: expected a decimal integer in [%lu, %lu], without leading zeros",
			key, value != NULL ? value : "", min, max);
		return -EINVAL;
	}
	return 0;
}

int
xn_devarg_flag(int logtype, const char *key, const char *value, bool *on)
{
	unsigned long v;

	if (xn_devarg_uint(logtype, key, value, 0, 1, &v) != 0)
		return -EINVAL;
	*on = v;
	return 0;
}

int
xn_devarg_word(int logtype, const char *key, const char *value,
	       const char *const words[], unsigned int nb_words,
	       unsigned int *out)
{
	char expected[128] = "";
	unsigned int i;

	for (i = 0; i < nb_words; i++) {
		if (value != NULL && strcmp(value, words[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	for (i = 0; i < nb_words; i++)
		snprintf(expected + strlen(expected),
			 sizeof(expected) - strlen(expected), "%s%s",
			 i == 0		   ? "" :
			 i + 1 == nb_words ? " or " :
					     ", ",
			 words[i]);
	ARG_LOG(logtype, "invalid %s=%s: expected %s", key,
		value != NULL ? value : "", expected);
	return -EINVAL;
}

static int
arg_handle(const char *key, const char *value, void *opaque)
{
	struct shared_args *a = opaque;
	unsigned long v;

	if (xn_devarg_uint(a->logtype, key, value, 0, UINT16_MAX, &v) != 0)
		return -EINVAL;
	a->cfg->handle = v;
	return 0;
}

static int
arg_provider(const char *key, const char *value, void *opaque)
{
	struct shared_args *a = opaque;

	if (xa_provider_parse(value, &a->cfg->provider) != 0) {
		ARG_LOG(a->logtype, "invalid %s=%s: expected xen or sim", key,
			value);
		return -EINVAL;
	}
	a->cfg->provider_asked = true;
	return 0;
}

static int
arg_sim(const char *key, const char *value, void *opaque)
{
	struct shared_args *a = opaque;

	if (!xa_sim_instance_valid(value)) {
		ARG_LOG(a->logtype, "invalid %s=%s: expected 1-%d letters, digits, - or _",
			key, value, XA_SIM_INSTANCE_MAX);
		return -EINVAL;
	}
	strlcpy(a->cfg->sim_instance, value, sizeof(a->cfg->sim_instance));
	return 0;
}

static int
arg_batch(const char *key, const char *value, void *opaque)
{
	struct shared_args *a = opaque;
	unsigned long v;

	if (xn_devarg_uint(a->logtype, key, value, NETIF_BATCH_MIN,
			   NETIF_BATCH_MAX, &v) != 0)
		return -EINVAL;
	a->cfg->batch = v;
	return 0;
}

static int
arg_group(const char *key, const char *value, void *opaque)
{
	struct shared_args *a = opaque;

	return xn_devarg_flag(a->logtype, key, value,
			      &a->cfg->group_ethertype);
}

static int
arg_queues(const char *key, const char *value, void *opaque)
{
	struct shared_args *a = opaque;
	unsigned long v;

	if (xn_devarg_uint(a->logtype, key, value, 1, XENBUS_VIF_MAX_QUEUES,
			   &v) != 0)
		return -EINVAL;
	a->cfg->queues = v;
	return 0;
}

static int
arg_gso(const char *key, const char *value, void *opaque)
{
	static const char *const words[] = {
		[XN_GSO_AUTO] = "auto",
		[XN_GSO_ON] = "on",
		[XN_GSO_OFF] = "off",
	};
	struct shared_args *a = opaque;
	unsigned int i;

	if (xn_devarg_word(a->logtype, key, value, words, RTE_DIM(words), &i) !=
	    0)
		return -EINVAL;
	a->cfg->gso = i;
	return 0;
}

static int
arg_ol_flags(const char *key, const char *value, void *opaque)
{
	static const char *const words[] = { "legacy", "compliant" };
	struct shared_args *a = opaque;
	unsigned int i;

	if (xn_devarg_word(a->logtype, key, value, words, RTE_DIM(words), &i) !=
	    0)
		return -EINVAL;
	a->cfg->compliant_ol_flags = i == 1;
	return 0;
}

static const struct xn_devarg shared_keys[] = {
	{ XN_ARG_HANDLE, arg_handle, false },
	{ XN_ARG_PROVIDER, arg_provider, false },
	{ XN_ARG_SIM, arg_sim, true },
	{ XN_ARG_BATCH, arg_batch, false },
	{ XN_ARG_GROUP, arg_group, false },
	{ XN_ARG_QUEUES, arg_queues, false },
	{ XN_ARG_GSO, arg_gso, false },
	{ XN_ARG_OL_FLAGS, arg_ol_flags, false },
};

static const struct xn_devarg *
find_key(const char *key, const struct xn_devarg *own, unsigned int nb_own)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(shared_keys); i++)
		if (strcmp(key, shared_keys[i].key) == 0)
			return &shared_keys[i];
	for (i = 0; i < nb_own; i++)
		if (strcmp(key, own[i].key) == 0)
			return &own[i];
	return NULL;
}

/* "handle, provider, ..., <own keys>" for the error messages. */
static void
accepted_keys(const struct xn_devarg *own, unsigned int nb_own, char *buf,
	      size_t size)
{
	unsigned int i;
	size_t len = 0;

	buf[0] = '\0';
	for (i = 0; i < RTE_DIM(shared_keys) + nb_own && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
				i < RTE_DIM(shared_keys) ? shared_keys[i].key :
				own[i - RTE_DIM(shared_keys)].key);
}

static bool
is_shared(const struct xn_devarg *arg)
{
	return arg >= shared_keys && arg < shared_keys + RTE_DIM(shared_keys);
}

/* Every key known and given a value, or -EINVAL naming the first that is not. */
static int
check_keys(const struct rte_kvargs *kv, const struct xn_devarg *own,
	   unsigned int nb_own, int logtype)
{
	char accepted[384];
	unsigned int i;

	for (i = 0; i < kv->count; i++) {
		const struct rte_kvargs_pair *pair = &kv->pairs[i];

		if (find_key(pair->key, own, nb_own) == NULL) {
			accepted_keys(own, nb_own, accepted, sizeof(accepted));
			ARG_LOG(logtype, "unknown key '%s' (accepted: %s)",
				pair->key, accepted);
			return -EINVAL;
		}
		if (pair->value == NULL) {
			ARG_LOG(logtype, "%s needs a value (%s=...)", pair->key,
				pair->key);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Each key's handler, once per occurrence: provider= first, since whether
 * the simulator-only keys apply depends on it.
 */
static int
process_keys(const struct rte_kvargs *kv, const struct xn_devarg *own,
	     unsigned int nb_own, void *opaque, struct shared_args *shared)
{
	unsigned int pass, i;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < kv->count; i++) {
			const struct rte_kvargs_pair *pair = &kv->pairs[i];
			const struct xn_devarg *arg =
				find_key(pair->key, own, nb_own);

			if ((arg->handler == arg_provider) != (pass == 0))
				continue;
			if (arg->sim_only &&
			    shared->cfg->provider != XA_PROVIDER_SIM) {
				ARG_LOG(shared->logtype, "%s= only applies to " XN_ARG_PROVIDER "=sim",
					arg->key);
				return -EINVAL;
			}
			if (arg->handler(pair->key, pair->value,
					 is_shared(arg) ? shared : opaque) != 0)
				return -EINVAL;
		}
	}
	return 0;
}

struct rte_kvargs *
xn_devargs_split(const char *args, int logtype)
{
	struct rte_kvargs *kv;

	/* Keys are checked by the parse, so that an error can name the bad one. */
	kv = rte_kvargs_parse(args != NULL ? args : "", NULL);
	if (kv == NULL)
		ARG_LOG(logtype, "cannot parse \"%s\": expected key=value pairs separated by ','",
			args);
	return kv;
}

int
xn_devargs_parse(const struct rte_kvargs *kv, const struct xn_devarg *own,
		 unsigned int nb_own, void *opaque, struct xn_devargs *cfg,
		 int logtype)
{
	struct shared_args shared = { cfg, logtype };
	int ret;

	*cfg = (struct xn_devargs){
		.provider = xa_provider_default(),
		.queues = 1,
		.batch = NETIF_BATCH_DEFAULT,
	};
	strlcpy(cfg->sim_instance, "default", sizeof(cfg->sim_instance));
	ret = check_keys(kv, own, nb_own, logtype);
	if (ret == 0)
		ret = process_keys(kv, own, nb_own, opaque, &shared);
	if (ret != 0)
		return -EINVAL;
	if (cfg->group_ethertype) {
		cfg->single_flag = netif_single_ethertype_flag();
		if (cfg->single_flag == 0) {
			ARG_LOG(logtype, "cannot register mbuf flag %s: %s",
				RTE_PMD_XEN_NETIF_DYNFLAG_SINGLE_ETHERTYPE,
				rte_strerror(rte_errno));
			return -EINVAL;
		}
	}
	return 0;
}
