/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A watcher (vifs=) at the ethdev port limit: a DPDK process holds at
 * most RTE_MAX_ETHPORTS ports (32 in Debian's DPDK 22.11), netbacks and
 * netfronts alike. Here the guests' netfronts share the process, so
 * RTE_MAX_ETHPORTS / 2 guests fill it:
 * - the watcher serves guests until every port id is taken, each guest
 *   passing verified traffic;
 * - the next vif gets no port: counted in the watcher's no_port
 *   (telemetry /xen_netback/watchers) and logged with a line that says
 *   the port limit is why;
 * - the guests already served keep passing verified traffic;
 * - once the application removed a departed guest's port, the next new
 *   guest gets a port again (the vif refused before does not wedge the
 *   watcher), and the refused vif left nothing held in the simulator;
 * - a port whose probe fails for another reason (here: no memory for its
 *   private data) leaves its vdev unprobed in EAL's list; the watcher
 *   does not mistake it for a probe in progress and serves the next vif.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "watched_guests.h"
#include "xa.h"
#include "xsim.h"

#define WATCHER "net_xen_netback_watch"
#define PACKETS 300
#define GUESTS (RTE_MAX_ETHPORTS / 2)
/* Enough mbufs for every netfront's Rx ring and every netback's spares. */
#define POOL_MBUFS 32768

static uint64_t seq;
static int back[GUESTS + 5], front[GUESTS + 5];
static size_t log_mark;

static bool
guest_create(domid_t domid)
{
	char name[16];

	snprintf(name, sizeof(name), "web-%u", domid);
	return pair_guest_create(domid, name);
}

/* The watcher's port for guest @domid, started, and its netfront. */
static bool
guest_served(domid_t domid)
{
	return watched_guest_served(domid, test_pool, &back[domid],
				    &front[domid], &seq, PACKETS);
}

/*
 * The watcher's no_port as an operator reads it: /xen_netback/watchers
 * over this process's telemetry socket. -1 if it cannot be read.
 */
static long
watcher_no_port(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	static const char cmd[] = "/xen_netback/watchers";
	char buf[16384];
	const char *at;
	long value = -1;
	ssize_t n;
	int fd;

	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/dpdk_telemetry.v2",
		 rte_eal_get_runtime_dir());
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return -1;
	/* The socket greets with its version and limits first. */
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
	    read(fd, buf, sizeof(buf) - 1) <= 0 ||
	    write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		goto out;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		goto out;
	buf[n] = '\0';
	at = strstr(buf, "\"" WATCHER "\"");
	at = at == NULL ? NULL : strstr(at, "\"no_port\":");
	if (at != NULL)
		value = strtol(at + strlen("\"no_port\":"), NULL, 10);
out:
	close(fd);
	return value;
}

static bool
everyone_passes_traffic(domid_t first, domid_t last)
{
	bool ok = true;
	domid_t d;

	for (d = first; d <= last; d++)
		if (back[d] >= 0)
			ok &= pair_traffic_both_ways(back[d], front[d],
						     test_pool, &seq, PACKETS);
	return ok;
}

static void
test_watcher_serves_guests_until_every_port_is_taken(void)
{
	char args[160];
	domid_t d;

	snprintf(args, sizeof(args), "vifs=web-*,provider=sim,sim=%s",
		 pair_sim_instance());
	REQUIRE(rte_vdev_init(WATCHER, args) == 0);
	for (d = 1; d <= GUESTS; d++) {
		REQUIRE(guest_create(d));
		REQUIRE(guest_served(d));
	}
	CHECK(rte_eth_dev_count_total() == RTE_MAX_ETHPORTS);
	CHECK(watcher_no_port() == 0);
}

static void
test_next_vif_gets_no_port_counted_and_logged(void)
{
	const char *log;
	char line[64];

	log_mark = test_log_mark();
	REQUIRE(guest_create(GUESTS + 1));
	/* The watcher's look is done once the count moves. */
	for (unsigned int ms = 0; watcher_no_port() != 1 && ms < 5000; ms += 10)
		rte_delay_ms(10);
	CHECK(watcher_no_port() == 1);
	CHECK(watched_vif_port(GUESTS + 1, 0) < 0);
	log = test_log_since(log_mark);
	snprintf(line, sizeof(line), "vif %u/0 gets no port", GUESTS + 1);
	CHECK(strstr(log, line) != NULL);
	CHECK(strstr(log, "RTE_MAX_ETHPORTS") != NULL);
	if (strstr(log, "RTE_MAX_ETHPORTS") == NULL)
		fprintf(stderr, "# the log said:\n%s", log);
}

static void
test_guests_served_keep_passing_traffic(void)
{
	CHECK(everyone_passes_traffic(1, GUESTS));
	CHECK(rte_eth_dev_count_total() == RTE_MAX_ETHPORTS);
}

static void
test_freed_port_goes_to_the_next_new_guest(void)
{
	struct xsim_usage be_before, be_after;

	/* Guest 1 shuts down; the application removes its port. */
	watched_frontend_close(1, front[1]);
	REQUIRE(pair_guest_destroy(1));
	CHECK(watched_removal_handled(back[1]));
	back[1] = -1;
	REQUIRE(xsim_domain_usage(pair_sim_instance(), 0, &be_before) == 0);
	REQUIRE(guest_create(GUESTS + 2));
	CHECK(guest_served(GUESTS + 2));
	CHECK(everyone_passes_traffic(2, GUESTS + 2));
	CHECK(watcher_no_port() == 1);
	/* The refused guest goes; it had nothing to give back. */
	REQUIRE(pair_guest_destroy(GUESTS + 1));
	watched_frontend_close(GUESTS + 2, front[GUESTS + 2]);
	REQUIRE(pair_guest_destroy(GUESTS + 2));
	CHECK(watched_removal_handled(back[GUESTS + 2]));
	back[GUESTS + 2] = -1;
	REQUIRE(xsim_domain_usage(pair_sim_instance(), 0, &be_after) == 0);
	CHECK(be_after.maps == be_before.maps &&
	      be_after.ports == be_before.ports &&
	      be_after.watches == be_before.watches);
	CHECK(rte_eth_dev_count_total() == RTE_MAX_ETHPORTS - 2);
}

static void
test_failed_probe_does_not_wedge_the_watcher(void)
{
	enum {
		MAX_CHUNKS = 8192
	};
	static void *hog[MAX_CHUNKS];
	static const size_t chunks[] = { 256 * 1024, 16 * 1024 };
	unsigned int n = 0, ms, i;
	char line[64];

	log_mark = test_log_mark();
	/*
	 * The heap too full for a port's private data (its hash tables take
	 * 72 KiB): large chunks, then small ones for the holes the ports of
	 * the tests before left.
	 */
	for (i = 0; i < RTE_DIM(chunks); i++)
		while (n < MAX_CHUNKS &&
		       (hog[n] = rte_malloc("hog", chunks[i], 0)) != NULL)
			n++;
	REQUIRE(n < MAX_CHUNKS);
	REQUIRE(guest_create(GUESTS + 3));
	snprintf(line, sizeof(line), "vif %u/0 gets no port", GUESTS + 3);
	for (ms = 0;
	     strstr(test_log_since(log_mark), line) == NULL && ms < 5000;
	     ms += 10)
		rte_delay_ms(10);
	while (n > 0)
		rte_free(hog[--n]);
	CHECK(strstr(test_log_since(log_mark), line) != NULL);
	CHECK(watcher_no_port() == 2);
	REQUIRE(pair_guest_destroy(GUESTS + 3));
	REQUIRE(guest_create(GUESTS + 4));
	CHECK(guest_served(GUESTS + 4));
}

static int
setup(const char *argv0)
{
	char prefix[64];

	memset(back, -1, sizeof(back));
	memset(front, -1, sizeof(front));
	/* The telemetry socket must be ours, not another test's. */
	snprintf(prefix, sizeof(prefix), "--file-prefix %s",
		 pair_sim_instance());
	if (test_eal_init(argv0, prefix) < 0)
		return -1;
	test_pool = rte_pktmbuf_pool_create("test", POOL_MBUFS, 256, 0,
					    RTE_MBUF_DEFAULT_BUF_SIZE,
					    SOCKET_ID_ANY);
	if (test_pool == NULL || test_log_capture() != 0)
		return -1;
	return watched_setup();
}

static void
teardown(void)
{
	uint16_t port;

	RTE_ETH_FOREACH_DEV (port) {
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
	rte_vdev_uninit(WATCHER);
	test_log_release();
	pair_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_watcher_serves_guests_until_every_port_is_taken);
	RUN(test_next_vif_gets_no_port_counted_and_logged);
	RUN(test_guests_served_keep_passing_traffic);
	RUN(test_freed_port_goes_to_the_next_new_guest);
	RUN(test_failed_probe_does_not_wedge_the_watcher);
}
