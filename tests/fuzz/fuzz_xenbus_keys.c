/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The xenbus key readers of both ends against a hostile peer's xenstore
 * directory, on the simulator: the input writes any of the keys a
 * frontend or a backend publishes (ring references, event channels, queue
 * counts and queue-N/ keys, features, mtu, rate, the multicast request)
 * with values of any bytes and length. The netback then reads the
 * frontend's keys, its XDP headroom and the vif's mtu and rate, the
 * netfront the backend's features. Whatever the values, each reader
 * returns, a frontend accepted has 1 to 8 queues, the mtu and the headroom
 * are within their bounds, and a rate accepted is one neither 0 nor
 * absurd.
 *
 * Only the last record of a key counts, and the store is brought to the
 * input's keys from the previous input's by writing the keys whose value
 * changed and removing those the input lacks, so that an input costs at
 * most one write or removal per key whatever its length. The readers see
 * exactly the keys the input names, as if the store had been empty.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "fuzz_sim.h"
#include "netif_ring.h"
#include "xenbus.h"
#include "xenbus_back.h"
#include "xenbus_front.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FRONTEND 1
#define MAX_QUEUES 8

/* Keys a frontend writes in its directory, then a backend in its own. */
static const char *const fe_keys[] = {
	"tx-ring-ref", "rx-ring-ref", "event-channel", "event-channel-tx",
	"event-channel-rx", "request-rx-copy", "feature-rx-notify",
	"feature-sg", "feature-gso-tcpv4", "feature-gso-tcpv6",
	"feature-ipv6-csum-offload", "feature-no-csum-offload",
	"multi-queue-num-queues", "queue-0/tx-ring-ref", "queue-0/rx-ring-ref",
	"queue-0/event-channel", "queue-1/tx-ring-ref", "queue-1/rx-ring-ref",
	"queue-1/event-channel-tx", "queue-1/event-channel-rx",
	"queue-7/tx-ring-ref", "ctrl-ring-ref", "event-channel-ctrl",
	"request-multicast-control", "mtu", "xdp-headroom",
};
static const char *const be_keys[] = {
	"feature-rx-copy", "feature-split-event-channels",
	"multi-queue-max-queues", "feature-gso-tcpv4", "feature-gso-tcpv6",
	"feature-ipv6-csum-offload", "feature-ctrl-ring",
	"feature-multicast-control", "feature-dynamic-multicast-control",
	"rate",
};
#define NB_KEYS (RTE_DIM(fe_keys) + RTE_DIM(be_keys))

/* What the store holds now for each key: the previous input's value. */
struct key_value {
	bool set;
	uint8_t len;
	uint8_t value[UINT8_MAX];
};

static struct key_value stored[NB_KEYS];
static struct xa_handle *dom0, *domu;
static char fe_dir[64], be_dir[64];

int
LLVMFuzzerInitialize(int *argc __rte_unused, char ***argv __rte_unused)
{
	fuzz_sim_open("xenbus", FRONTEND, &dom0, &domu);
	if (xsim_vif_plug(fuzz_sim_instance, 0, FRONTEND, 0,
			  "00:16:3e:00:00:01") != 0)
		abort();
	snprintf(fe_dir, sizeof(fe_dir), "/local/domain/%u/device/vif/0",
		 FRONTEND);
	snprintf(be_dir, sizeof(be_dir), "/local/domain/0/backend/vif/%u/0",
		 FRONTEND);
	return 0;
}

/* Write key @k (an index into fe_keys then be_keys) as its owner would. */
static bool
write_key(unsigned int k, const uint8_t *value, unsigned int len)
{
	bool fe = k < RTE_DIM(fe_keys);
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", fe ? fe_dir : be_dir,
		 fe ? fe_keys[k] : be_keys[k - RTE_DIM(fe_keys)]);
	return xa_xs_write(fe ? domu : dom0, XBT_NULL, path, value, len);
}

static void
remove_key(unsigned int k)
{
	bool fe = k < RTE_DIM(fe_keys);
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", fe ? fe_dir : be_dir,
		 fe ? fe_keys[k] : be_keys[k - RTE_DIM(fe_keys)]);
	xa_xs_rm(fe ? domu : dom0, XBT_NULL, path);
}

/* Bring key @k to @value (@len bytes), or remove it if @value is NULL. */
static void
set_key(unsigned int k, const uint8_t *value, unsigned int len)
{
	struct key_value *kv = &stored[k];

	if (value == NULL) {
		if (kv->set)
			remove_key(k);
		kv->set = false;
		return;
	}
	if (kv->set && kv->len == len && memcmp(kv->value, value, len) == 0)
		return;
	if (!write_key(k, value, len)) {
		/* Not expected (the values fit); then the key is absent. */
		set_key(k, NULL, 0);
		return;
	}
	kv->set = true;
	kv->len = len;
	memcpy(kv->value, value, len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *want[NB_KEYS] = { NULL };
	unsigned int want_len[NB_KEYS];
	struct xenbus_back_frontend fe;
	struct xenbus_front_backend be;
	struct xenbus_back_rate rate;
	char why[XENBUS_WHY_MAX];
	const char *reason;
	unsigned int mtu, k;
	uint16_t headroom;
	char path[128];
	char *value;

	/* Records: key, length, that many bytes of value. */
	while (size >= 2) {
		unsigned int len = RTE_MIN((size_t)data[1], size - 2);

		k = data[0] % NB_KEYS;
		want[k] = data + 2;
		want_len[k] = len;
		data += 2 + len;
		size -= 2 + len;
	}
	for (k = 0; k < NB_KEYS; k++)
		set_key(k, want[k], want[k] != NULL ? want_len[k] : 0);
	if (xenbus_back_read_frontend(dom0, fe_dir, MAX_QUEUES, &fe, why) &&
	    (fe.nb_queues < 1 || fe.nb_queues > MAX_QUEUES))
		abort();
	xenbus_back_read_mcast_control(dom0, fe_dir);
	xenbus_back_read_xdp_headroom(dom0, fe_dir, NETIF_XDP_HEADROOM_MAX,
				      &headroom, why);
	if (headroom > NETIF_XDP_HEADROOM_MAX)
		abort();
	if (xenbus_vif_read_mtu(dom0, fe_dir, 68, 65521, &mtu) &&
	    (mtu < 68 || mtu > 65521))
		abort();
	xenbus_front_read_backend(domu, be_dir, &be, &reason);
	snprintf(path, sizeof(path), "%s/rate", be_dir);
	value = xa_xs_read(dom0, XBT_NULL, path, NULL);
	if (xenbus_back_parse_rate(value, UINT64_C(1) << 40, 1u << 24, &rate,
				   why) &&
	    rate.bytes != 0 && (rate.usec == 0 || rate.usec > 1u << 24))
		abort();
	free(value);
	return 0;
}
