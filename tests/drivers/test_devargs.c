/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A bad devarg fails probe, and the log names the argument and what it
 * accepts, for both PMDs; a mempool whose mbufs are too small for the
 * largest frame is refused at queue set-up (by ethdev, from the netback's
 * min_rx_bufsize), with the sizes in the log. The batch bound (1-64) and
 * EtherType grouping (0 or 1) refuse anything else, on both PMDs, and so
 * does the queue pair count (1-8). Both PMDs read numbers by one rule
 * (decimal, no sign, no leading zeros: 010 and 0x20 are refused, not read
 * two ways), name an unknown key or a key without a value, and keep the
 * simulator's keys for provider=sim. A port does not start until every
 * queue it configured is set up, and says which one is not. On a machine
 * faked under XA_SYSROOT (xen_access/fake_root.h): in a Xen domain that
 * lacks a device the probe fails naming the device and its module, unless
 * provider=sim asks for the simulator; provider=xen where there is no Xen
 * fails saying so; the provider a port gets is logged at NOTICE.
 */

#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "xen_access/fake_root.h"
#include "xsim.h"

/*
 * The instances are written "sim=test-<tag>" here, for reading; each probe
 * makes them this run's, "sim=<pair_sim_instance()>-<tag>": a fixed name
 * would open the store a killed run left under it.
 */
static int
probe(const char *name, const char *args)
{
	static const char fixed[] = "sim=test-";
	const char *at = strstr(args, fixed);
	char own[512];

	if (at == NULL)
		return rte_vdev_init(name, args);
	snprintf(own, sizeof(own), "%.*ssim=%s-%s", (int)(at - args), args,
		 pair_sim_instance(), at + strlen(fixed));
	return rte_vdev_init(name, own);
}

static void
sim_destroy(const char *tag)
{
	char inst[XA_SIM_INSTANCE_MAX + 1];

	snprintf(inst, sizeof(inst), "%s-%s", pair_sim_instance(), tag);
	xsim_instance_destroy(inst);
}

/* Probe @name with @args; true if it failed and the log has @needles. */
static bool
refused(const char *name, const char *args, const char *needle1,
	const char *needle2)
{
	bool failed;
	size_t start;
	const char *log;

	start = test_log_mark();
	failed = probe(name, args) != 0;
	log = test_log_since(start);
	if (!failed) {
		fprintf(stderr, "%s,%s was accepted\n", name, args);
		rte_vdev_uninit(name);
		return false;
	}
	if (strstr(log, needle1) == NULL ||
	    (needle2 != NULL && strstr(log, needle2) == NULL)) {
		fprintf(stderr, "%s,%s: log lacks \"%s\"/\"%s\":\n%s\n", name,
			args, needle1, needle2 ? needle2 : "", log);
		return false;
	}
	return true;
}

#define NB "net_xen_netback0"
#define NF "net_xen_netfront0"

static void
test_netback_requires_one_guest(void)
{
	CHECK(refused(NB, "provider=sim", "domid=", "domain="));
	CHECK(refused(NB, "domid=1,domain=guest,provider=sim", "domid=",
		      "domain="));
}

static void
test_netback_rejects_bad_guest_name(void)
{
	char long_name[128];

	CHECK(refused(NB, "domain=,provider=sim", "domain=", "1-63"));
	CHECK(refused(NB, "domain=a/b,provider=sim", "domain=a/b", "'/'"));
	snprintf(long_name, sizeof(long_name), "domain=%064d,provider=sim", 0);
	CHECK(refused(NB, long_name, "1-63", NULL));
}

static void
test_netback_rejects_bad_domid(void)
{
	CHECK(refused(NB, "domid=0,provider=sim", "domid=0", "[1, 32751]"));
	CHECK(refused(NB, "domid=abc,provider=sim", "domid=abc", "[1, 32751]"));
	CHECK(refused(NB, "domid=32752,provider=sim", "domid=32752", NULL));
}

static void
test_netback_rejects_bad_handle(void)
{
	CHECK(refused(NB, "domid=1,handle=-1,provider=sim", "handle=-1",
		      "[0, 65535]"));
	CHECK(refused(NB, "domid=1,handle=65536,provider=sim", "handle=65536",
		      NULL));
}

static void
test_netback_rejects_unknown_provider(void)
{
	CHECK(refused(NB, "domid=1,provider=kvm", "provider=kvm", "xen or sim"));
}

static void
test_netback_rejects_sim_instance_without_sim(void)
{
	CHECK(refused(NB, "domid=1,provider=xen,sim=x", "sim=", "provider=sim"));
	CHECK(refused(NB, "domid=1,provider=sim,sim=../etc", "sim=../etc",
		      NULL));
}

static void
test_netback_rejects_unknown_key(void)
{
	CHECK(refused(NB, "domid=1,colour=blue", "domid", "provider"));
}

static void
test_netback_zero_copy_is_0_or_1(void)
{
	CHECK(refused(NB, "domid=1,provider=sim,zero_copy=2", "zero_copy=2",
		      "[0, 1]"));
	CHECK(refused(NB, "domid=1,provider=sim,zero_copy=", "zero_copy",
		      NULL));
}

static void
test_netfront_rejects_bad_devargs(void)
{
	CHECK(refused(NF, "provider=kvm", "provider", "sim"));
	CHECK(refused(NF, "handle=70000,provider=sim", "handle", NULL));
	CHECK(refused(NF, "domid=0,provider=sim", "domid", NULL));
	CHECK(refused(NF, "colour=blue", "handle", NULL));
	/* The switches of static grants and zero copy: 0 or 1 only. */
	CHECK(refused(NF, "provider=sim,static_grants=2", "static_grants=2",
		      "[0, 1]"));
	CHECK(refused(NF, "provider=sim,zero_copy=01", "zero_copy=01", NULL));
	CHECK(refused(NF, "provider=sim,zero_copy=", "zero_copy", NULL));
}

/* What batch= and group_ethertype= refuse, the same on both PMDs. */
static const char *const bad_batch[] = {
	"batch=0", "batch=65", "batch=-1", "batch=abc", "batch=32x",
	"batch=", "batch=99999999999999999999999",
};
static const char *const bad_group[] = {
	"group_ethertype=2", "group_ethertype=yes", "group_ethertype=1x",
	"group_ethertype=-1", "group_ethertype=",
};

static const char *const bad_queues[] = {
	"queues=0", "queues=9", "queues=-1", "queues=two", "queues=",
};

static void
refuses_bad_batching_args(const char *name, const char *base)
{
	char args[256];

	for (size_t i = 0; i < RTE_DIM(bad_queues); i++) {
		snprintf(args, sizeof(args), "%s,%s", base, bad_queues[i]);
		CHECK(refused(name, args, "queues", "[1, 8]"));
	}

	for (size_t i = 0; i < RTE_DIM(bad_batch); i++) {
		snprintf(args, sizeof(args), "%s,%s", base, bad_batch[i]);
		CHECK(refused(name, args, "batch", "[1, 64]"));
	}
	for (size_t i = 0; i < RTE_DIM(bad_group); i++) {
		snprintf(args, sizeof(args), "%s,%s", base, bad_group[i]);
		CHECK(refused(name, args, "group_ethertype", "[0, 1]"));
	}
}

/* Probe with @args, then remove; true if the probe succeeded. */
static bool
accepted(const char *name, const char *args)
{
	if (probe(name, args) != 0) {
		fprintf(stderr, "%s,%s was refused\n", name, args);
		return false;
	}
	rte_vdev_uninit(name);
	return true;
}

static void
test_netback_rejects_bad_batch_and_grouping(void)
{
	refuses_bad_batching_args(NB, "domid=1,provider=sim,sim=test-args");
}

static void
test_netfront_rejects_bad_batch_and_grouping(void)
{
	refuses_bad_batching_args(NF, "provider=sim,sim=test-args");
}

static void
test_netback_stall_timeout_is_0_to_an_hour(void)
{
	CHECK(refused(NB, "domid=1,provider=sim,stall_timeout_ms=3600001",
		      "stall_timeout_ms=3600001", "[0, 3600000]"));
	CHECK(refused(NB, "domid=1,provider=sim,stall_timeout_ms=-1",
		      "stall_timeout_ms=-1", NULL));
	CHECK(refused(NB, "domid=1,provider=sim,stall_timeout_ms=1s",
		      "stall_timeout_ms=1s", NULL));
	CHECK(accepted(NB, "domid=1,provider=sim,sim=test-args,stall_timeout_ms=0"));
	CHECK(accepted(NB, "domid=1,provider=sim,sim=test-args,stall_timeout_ms=3600000"));
	/* The key is the netback's: a netfront has no guest RX to watch. */
	CHECK(refused(NF, "provider=sim,stall_timeout_ms=100",
		      "stall_timeout_ms", NULL));
}

static void
test_netback_fatal_slots_is_17_to_30(void)
{
	CHECK(refused(NB, "domid=1,provider=sim,fatal_slots=16",
		      "fatal_slots=16", "[17, 30]"));
	CHECK(refused(NB, "domid=1,provider=sim,fatal_slots=31",
		      "fatal_slots=31", "[17, 30]"));
	CHECK(accepted(NB, "domid=1,provider=sim,sim=test-args,fatal_slots=17"));
	CHECK(accepted(NB, "domid=1,provider=sim,sim=test-args,fatal_slots=30"));
	CHECK(refused(NF, "provider=sim,fatal_slots=20", "fatal_slots", NULL));
}

static void
test_netback_fail_backoff_is_0_to_10_s(void)
{
	CHECK(refused(NB, "domid=1,provider=sim,fail_backoff_ms=10001",
		      "fail_backoff_ms=10001", "[0, 10000]"));
	CHECK(accepted(NB, "domid=1,provider=sim,sim=test-args,fail_backoff_ms=0"));
	CHECK(refused(NF, "provider=sim,fail_backoff_ms=5", "fail_backoff_ms",
		      NULL));
}

/* The ceilings on static grants' mapped pages: 0 (none) to 4194304. */
static void
test_netback_static_grant_ceilings_are_0_to_4194304(void)
{
	CHECK(refused(NB, "domid=1,provider=sim,static_grants_max=4194305",
		      "static_grants_max=4194305", "[0, 4194304]"));
	CHECK(refused(NB, "domid=1,provider=sim,static_grants_max=-1",
		      "static_grants_max=-1", NULL));
	CHECK(refused(NB, "domid=1,provider=sim,static_grants_max=",
		      "static_grants_max", NULL));
	CHECK(refused(NB, "domid=1,provider=sim,static_grants_process_max=1k",
		      "static_grants_process_max=1k", "[0, 4194304]"));
	CHECK(refused(NB, "domid=1,provider=sim,static_grants_process_max=010",
		      "static_grants_process_max=010", "leading zeros"));
	CHECK(accepted(
		NB, "domid=1,provider=sim,sim=test-args,static_grants_max=0"));
	CHECK(accepted(
		NB,
		"domid=1,provider=sim,sim=test-args,static_grants_max=4194304,static_grants_process_max=4194304"));
	CHECK(accepted(
		NB,
		"domid=1,provider=sim,sim=test-args,static_grants_process_max=0"));
}

/* gso= and ol_flags= take their words, on both PMDs, and nothing else. */
static void
test_gso_and_ol_flags_take_their_words(void)
{
	static const char *const pmds[] = { NB, NF };
	unsigned int i;

	for (i = 0; i < RTE_DIM(pmds); i++) {
		CHECK(refused(pmds[i], "domid=1,provider=sim,gso=1", "gso=1",
			      "auto, on or off"));
		CHECK(refused(pmds[i], "domid=1,provider=sim,gso=ON", "gso=ON",
			      NULL));
		CHECK(refused(pmds[i], "domid=1,provider=sim,ol_flags=new",
			      "ol_flags=new", "legacy or compliant"));
		CHECK(refused(pmds[i], "domid=1,provider=sim,ol_flags=",
			      "ol_flags", NULL));
		CHECK(accepted(pmds[i],
			       "domid=1,provider=sim,sim=test-args,gso=off,ol_flags=compliant"));
		CHECK(accepted(pmds[i],
			       "domid=1,provider=sim,sim=test-args,gso=on,ol_flags=legacy"));
		CHECK(accepted(pmds[i],
			       "domid=1,provider=sim,sim=test-args,gso=auto"));
	}
}

/*
 * static_grants_max= takes effect: a vif allowed fewer pages than our
 * netfront asks for a queue pair has its lists refused, the refusals
 * counted in rx_q0_static_grant_over_limit; by default all is mapped and
 * rx_q0_static_grant_pages says how many pages.
 */
static void
test_netback_static_grants_max_refuses_and_counts(void)
{
	struct rte_mempool *mp;
	struct pair pr;

	mp = rte_pktmbuf_pool_create("statics_max", 4096, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	REQUIRE(mp != NULL);
	if (pair_open(&pr, "statics-max", "static_grants_max=300", "", mp)) {
		/* Each list: 512 entries, then 256: one is over the ceiling. */
		CHECK(pair_xstat(pr.back, "rx_q0_static_grant_over_limit") >=
		      1);
		CHECK(pair_xstat(pr.back, "rx_q0_static_grant_pages") <= 300);
		CHECK(pair_xstat(pr.front, "rx_q0_static_grants") <
		      PAIR_STATIC_GRANTS);
		pair_close(&pr);
	} else {
		CHECK(!"pair_open with static_grants_max=300");
	}
	if (pair_open(&pr, "statics-max", "", "", mp)) {
		CHECK(pair_xstat(pr.back, "rx_q0_static_grant_over_limit") ==
		      0);
		CHECK(pair_xstat_settled(pr.back, "rx_q0_static_grant_pages",
					 PAIR_STATIC_GRANTS,
					 1000) == PAIR_STATIC_GRANTS);
		pair_close(&pr);
	} else {
		CHECK(!"pair_open by default");
	}
	rte_mempool_free(mp);
}

static void
test_netback_gso_contiguous_is_0_or_1(void)
{
	CHECK(refused(NB, "domid=1,provider=sim,gso_contiguous=2",
		      "gso_contiguous=2", "[0, 1]"));
	CHECK(refused(NB, "domid=1,provider=sim,gso_contiguous=on",
		      "gso_contiguous=on", NULL));
	CHECK(accepted(NB,
		       "domid=1,provider=sim,sim=test-args,gso_contiguous=0"));
	CHECK(accepted(NB,
		       "domid=1,provider=sim,sim=test-args,gso_contiguous=1"));
}

static void
test_netback_tx_map_min_is_0_to_65535_bytes(void)
{
	CHECK(refused(NB, "domid=1,provider=sim,tx_map_min=65536",
		      "tx_map_min=65536", "[0, 65535]"));
	CHECK(refused(NB, "domid=1,provider=sim,tx_map_min=1k", "tx_map_min=1k",
		      NULL));
	CHECK(refused(NF, "provider=sim,tx_map_min=512", "tx_map_min", NULL));
	CHECK(accepted(NB, "domid=1,provider=sim,sim=test-args,tx_map_min=0"));
	CHECK(accepted(NB,
		       "domid=1,provider=sim,sim=test-args,tx_map_min=65535"));
}

static void
test_netback_tx_map_hold_ms_is_0_to_an_hour(void)
{
	CHECK(refused(NB, "domid=1,provider=sim,tx_map_hold_ms=3600001",
		      "tx_map_hold_ms=3600001", "[0, 3600000]"));
	CHECK(refused(NB, "domid=1,provider=sim,tx_map_hold_ms=-1",
		      "tx_map_hold_ms=-1", NULL));
	CHECK(refused(NF, "provider=sim,tx_map_hold_ms=5", "tx_map_hold_ms",
		      NULL));
	CHECK(accepted(NB,
		       "domid=1,provider=sim,sim=test-args,tx_map_hold_ms=0"));
	CHECK(accepted(NB, "domid=1,provider=sim,sim=test-args,"
			   "tx_map_hold_ms=3600000"));
}

static void
test_netback_on_removal_is_wait_or_remove(void)
{
	CHECK(refused(NB, "domid=1,provider=sim,on_removal=drop",
		      "on_removal=drop", "wait or remove"));
	CHECK(accepted(NB, "domid=1,provider=sim,sim=test-args,on_removal=wait"));
	CHECK(accepted(NB, "domid=1,provider=sim,sim=test-args,on_removal=remove"));
}

static void
test_netback_on_close_is_close_or_detach(void)
{
	CHECK(refused(NB, "domid=1,provider=sim,on_close=keep",
		      "on_close=keep", "close or detach"));
	CHECK(accepted(NB, "domid=1,provider=sim,sim=test-args,on_close=close"));
	CHECK(accepted(NB, "domid=1,provider=sim,sim=test-args,on_close=detach"));
}

static void
test_batch_bounds_and_grouping_are_accepted(void)
{
	const char *const ok[] = {
		"batch=1", "batch=64", "batch=32,group_ethertype=0",
		"batch=8,group_ethertype=1", "group_ethertype=1",
		"queues=1", "queues=8",
	};
	char args[256];

	for (size_t i = 0; i < RTE_DIM(ok); i++) {
		snprintf(args, sizeof(args), "domid=1,provider=sim,sim=test-args,%s",
			 ok[i]);
		CHECK(accepted(NB, args));
		snprintf(args, sizeof(args), "provider=sim,sim=test-args,%s",
			 ok[i]);
		CHECK(accepted(NF, args));
	}
	/* Grouping registered the flag applications look up. */
	CHECK(rte_mbuf_dynflag_lookup("xen_netif_dynflag_single_ethertype",
				      NULL) >= 0);
	sim_destroy("args");
}

static void
test_netback_refuses_mbufs_too_small_for_64k_frames(void)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_mempool *small, *big;
	uint16_t port;
	size_t start;

	small = rte_pktmbuf_pool_create("small", 512, 0, 0,
					RTE_PKTMBUF_HEADROOM + 512,
					SOCKET_ID_ANY);
	big = rte_pktmbuf_pool_create("big", 512, 0, 0,
				      RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	REQUIRE(small != NULL && big != NULL);
	REQUIRE(probe(NB, "domid=5,provider=sim,sim=test-pool") == 0);
	REQUIRE(rte_eth_dev_get_port_by_name(NB, &port) == 0);
	REQUIRE(rte_eth_dev_configure(port, 1, 1, &conf) == 0);
	start = test_log_mark();
	CHECK(rte_eth_rx_queue_setup(port, 0, 256, SOCKET_ID_ANY, NULL,
				     small) != 0);
	CHECK(strstr(test_log_since(start), "mbuf_data_room_size 640") !=
	      NULL);
	CHECK(rte_eth_rx_queue_setup(port, 0, 256, SOCKET_ID_ANY, NULL,
				     big) == 0);
	rte_eth_dev_close(port);
	rte_vdev_uninit(NB);
	sim_destroy("pool");
	rte_mempool_free(small);
	rte_mempool_free(big);
}

/* The one numeric rule, on both PMDs, for shared and own keys alike. */
static void
test_numbers_are_decimal_without_sign_or_leading_zeros(void)
{
	static const char *const bad[] = {
		"batch=010", "batch=0x20", "batch=+8", "batch= 8", "batch=8 ",
		"handle=00", "handle=0x1", "queues=01", "group_ethertype=00",
	};
	static const char *const names[] = { NB, NF };
	static const char *const bases[] = {
		"domid=1,provider=sim,sim=test-args", "provider=sim,sim=test-args",
	};
	char args[256];

	for (size_t n = 0; n < RTE_DIM(names); n++) {
		for (size_t i = 0; i < RTE_DIM(bad); i++) {
			snprintf(args, sizeof(args), "%s,%s", bases[n], bad[i]);
			CHECK(refused(names[n], args, "decimal integer",
				      "without leading zeros"));
		}
		snprintf(args, sizeof(args), "%s,batch=10,handle=0,queues=2",
			 bases[n]);
		CHECK(accepted(names[n], args));
	}
	CHECK(refused(NB, "domid=0x1,provider=sim", "domid=0x1", "decimal"));
	CHECK(refused(NB, "domid=01,provider=sim", "domid=01", "decimal"));
	CHECK(refused(NF, "domid=01,provider=sim", "domid=01", "decimal"));
	sim_destroy("args");
}

static void
test_unknown_key_and_missing_value_are_named(void)
{
	CHECK(refused(NB, "domid=1,provider=sim,colour=blue", "'colour'",
		      "accepted: handle, provider, sim, batch"));
	CHECK(refused(NF, "provider=sim,colour=blue", "'colour'",
		      "accepted: handle, provider, sim, batch"));
	CHECK(refused(NB, "domid=1,provider=sim,batch", "batch needs a value",
		      NULL));
	CHECK(refused(NF, "provider=sim,queues", "queues needs a value",
		      NULL));
}

static void
test_simulator_keys_need_provider_sim(void)
{
	CHECK(refused(NF, "provider=xen,domid=2", "domid=",
		      "only applies to provider=sim"));
	CHECK(refused(NF, "sim=x,provider=xen", "sim=",
		      "only applies to provider=sim"));
	CHECK(refused(NB, "domid=1,provider=xen,sim_domid=5",
		      "sim_domid=", "only applies to provider=sim"));
	CHECK(refused(NB, "domid=1,provider=sim,sim_domid=64", "sim_domid=64",
		      "[0, 63]"));
	CHECK(refused("net_xen_netback_w", "vifs=*,provider=sim,sim_domid=x",
		      "sim_domid=x", "[0, 63]"));
}

/* A Xen domain (by /sys/hypervisor/type) without gntdev and gntalloc. */
static void
test_xen_domain_without_a_device_fails_probe_naming_it(struct fake_root *r)
{
	REQUIRE(fake_root_put(r, "/sys/hypervisor/type", "xen\n") &&
		fake_root_put(r, "/dev/xen/evtchn", "") &&
		fake_root_put(r, "/dev/xen/xenbus", ""));
	CHECK(refused(NB, "domid=1", "net_xen_netback0: cannot use Xen",
		      "/dev/xen/gntdev (load the xen_gntdev module)"));
	CHECK(refused(NB, "domid=1,provider=xen",
		      "/dev/xen/gntdev (load the xen_gntdev module)", NULL));
	CHECK(refused("net_xen_netback_w", "vifs=guest-*",
		      "net_xen_netback_w: cannot use Xen",
		      "/dev/xen/gntdev (load the xen_gntdev module)"));
	CHECK(refused(NF, "", "net_xen_netfront0: cannot use Xen",
		      "/dev/xen/gntalloc (load the xen_gntalloc module)"));
	/* Asked for, the simulator serves in a Xen domain all the same. */
	CHECK(accepted(NB, "domid=1,provider=sim,sim=test-provider"));
	CHECK(accepted(NF, "provider=sim,sim=test-provider"));
	sim_destroy("provider");
}

static void
test_provider_xen_without_xen_fails_probe(struct fake_root *r)
{
	(void)r;
	CHECK(refused(NB, "domid=1,provider=xen", "not a Xen domain",
		      "/dev/xen/evtchn (load the xen_evtchn module)"));
	CHECK(refused(NF, "provider=xen", "not a Xen domain",
		      "/dev/xen/gntalloc (load the xen_gntalloc module)"));
}

/* The provider line, with the PMDs' log at NOTICE (INFO lines not shown). */
static bool
logs_provider_at_notice(const char *name, const char *args, const char *line)
{
	size_t start;
	bool ok;

	rte_log_set_level_pattern("pmd.net.xen_net*", RTE_LOG_NOTICE);
	start = test_log_mark();
	ok = accepted(name, args);
	ok = ok && strstr(test_log_since(start), line) != NULL &&
	     strstr(test_log_since(start), "queue pair") == NULL;
	if (!ok)
		fprintf(stderr, "%s,%s: log lacks \"%s\":\n%s\n", name, args,
			line, test_log_since(start));
	rte_log_set_level_pattern("pmd.net.xen_net*", RTE_LOG_WARNING);
	return ok;
}

static void
test_provider_is_logged_at_notice(struct fake_root *r)
{
	(void)r;
	CHECK(logs_provider_at_notice(
		NB, "domid=1,sim=test-provider",
		"net_xen_netback0: provider sim (nothing says this is a Xen domain"));
	CHECK(logs_provider_at_notice(
		NF, "provider=sim,sim=test-provider",
		"net_xen_netfront0: provider sim (asked for)"));
	REQUIRE(fake_root_put(r, "/proc/xen/capabilities", ""));
	CHECK(logs_provider_at_notice(
		NB, "domid=1,provider=sim,sim=test-provider",
		"net_xen_netback0: provider sim (asked for)"));
	sim_destroy("provider");
}

/* Probe @name, configure 2 queue pairs and set up all but Tx queue 1. */
static bool
start_with_tx_queue_1_missing(const char *name, const char *args,
			      uint16_t *port)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_mempool *mp = rte_mempool_lookup("start");

	if (mp == NULL)
		mp = rte_pktmbuf_pool_create("start", 1024, 0, 0,
					     RTE_MBUF_DEFAULT_BUF_SIZE,
					     SOCKET_ID_ANY);
	if (mp == NULL || probe(name, args) != 0 ||
	    rte_eth_dev_get_port_by_name(name, port) != 0 ||
	    rte_eth_dev_configure(*port, 2, 2, &conf) != 0)
		return false;
	for (uint16_t q = 0; q < 2; q++)
		if (rte_eth_rx_queue_setup(*port, q, 256, SOCKET_ID_ANY, NULL,
					   mp) != 0)
			return false;
	return rte_eth_tx_queue_setup(*port, 0, 256, SOCKET_ID_ANY, NULL) == 0;
}

/* Both Rx queues and the first @nb_tx Tx queues are in @state. */
static bool
queue_states_are(uint16_t port, uint16_t nb_tx, uint8_t state)
{
	struct rte_eth_rxq_info rx;
	struct rte_eth_txq_info tx;

	for (uint16_t q = 0; q < 2; q++)
		if (rte_eth_rx_queue_info_get(port, q, &rx) != 0 ||
		    rx.queue_state != state)
			return false;
	for (uint16_t q = 0; q < nb_tx; q++)
		if (rte_eth_tx_queue_info_get(port, q, &tx) != 0 ||
		    tx.queue_state != state)
			return false;
	return true;
}

static void
test_start_waits_for_every_queue_to_be_set_up(void)
{
	static const char *const names[] = { NB, NF };
	static const char *const args[] = {
		"domid=1,provider=sim,sim=test-start,queues=2",
		"provider=sim,sim=test-start,queues=2",
	};
	uint16_t port;
	size_t start;

	for (size_t n = 0; n < RTE_DIM(names); n++) {
		REQUIRE(start_with_tx_queue_1_missing(names[n], args[n], &port));
		start = test_log_mark();
		CHECK(rte_eth_dev_start(port) != 0);
		CHECK(strstr(test_log_since(start),
			     "Tx queue 1 is not set up") != NULL);
		CHECK(queue_states_are(port, 1, RTE_ETH_QUEUE_STATE_STOPPED));
		REQUIRE(rte_eth_tx_queue_setup(port, 1, 256, SOCKET_ID_ANY,
					       NULL) == 0);
		CHECK(rte_eth_dev_start(port) == 0);
		CHECK(queue_states_are(port, 2, RTE_ETH_QUEUE_STATE_STARTED));
		CHECK(rte_eth_dev_stop(port) == 0);
		CHECK(queue_states_are(port, 2, RTE_ETH_QUEUE_STATE_STOPPED));
		rte_eth_dev_close(port);
		rte_vdev_uninit(names[n]);
	}
	sim_destroy("start");
}

static int
setup(const char *argv0)
{
	return test_eal_setup(argv0) == 0 ? test_log_capture() : -1;
}

static void
teardown(void)
{
	test_log_release();
	rte_eal_cleanup();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_netback_requires_one_guest);
	RUN(test_netback_rejects_bad_guest_name);
	RUN(test_netback_rejects_bad_domid);
	RUN(test_netback_zero_copy_is_0_or_1);
	RUN(test_netback_static_grant_ceilings_are_0_to_4194304);
	RUN(test_netback_static_grants_max_refuses_and_counts);
	RUN(test_gso_and_ol_flags_take_their_words);
	RUN(test_netback_stall_timeout_is_0_to_an_hour);
	RUN(test_netback_fatal_slots_is_17_to_30);
	RUN(test_netback_fail_backoff_is_0_to_10_s);
	RUN(test_netback_gso_contiguous_is_0_or_1);
	RUN(test_netback_tx_map_min_is_0_to_65535_bytes);
	RUN(test_netback_tx_map_hold_ms_is_0_to_an_hour);
	RUN(test_netback_on_close_is_close_or_detach);
	RUN(test_netback_on_removal_is_wait_or_remove);
	RUN(test_netback_rejects_bad_handle);
	RUN(test_netback_rejects_unknown_provider);
	RUN(test_netback_rejects_sim_instance_without_sim);
	RUN(test_netback_rejects_unknown_key);
	RUN(test_netfront_rejects_bad_devargs);
	RUN(test_netback_rejects_bad_batch_and_grouping);
	RUN(test_netfront_rejects_bad_batch_and_grouping);
	RUN(test_batch_bounds_and_grouping_are_accepted);
	RUN(test_netback_refuses_mbufs_too_small_for_64k_frames);
	RUN(test_numbers_are_decimal_without_sign_or_leading_zeros);
	RUN(test_unknown_key_and_missing_value_are_named);
	RUN(test_simulator_keys_need_provider_sim);
	RUN(test_start_waits_for_every_queue_to_be_set_up);
	RUN_WITH(fake_root,
		 test_xen_domain_without_a_device_fails_probe_naming_it);
	RUN_WITH(fake_root, test_provider_xen_without_xen_fails_probe);
	RUN_WITH(fake_root, test_provider_is_logged_at_notice);
}
