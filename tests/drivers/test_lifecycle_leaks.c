/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Nothing leaks over a guest's lifetimes: XEN_TEST_LIFETIMES (1000 by
 * default) cycles of connect, traffic both ways and disconnect, each
 * ending one of three ways in turn: the frontend port is closed (and
 * created again next cycle), the backend port is closed and created again
 * under a connected frontend, or the guest "reboots" (its netfront closes,
 * xl removes its vif and it comes back as a new domain with the same name,
 * which the backend, claiming it by name, follows). Afterwards the
 * simulator holds no grant, mapping, event channel port or watch for any
 * domain, the process has as many descriptors open with the backend alone
 * as after the first cycle, and its resident memory grew by less than
 * 8 MiB between the 100th cycle and the end (without AddressSanitizer,
 * whose quarantine keeps freed memory resident).
 */

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_ethdev.h>

#include "test.h"
#include "test_eal.h"
#include "vdev_pair.h"
#include "xsim.h"

#define BACK "net_xen_netback0"
#define FRONT "net_xen_netfront0"
#define GUEST "leak-guest"
#define PACKETS 64
/* Frontend domain ids the reboots go through, as Xen hands out new ones. */
#define DOMID_FIRST 2
#define DOMID_LAST 63

static int back = -1, front = -1;
static uint64_t seq;

static unsigned int
cycles_wanted(void)
{
	const char *s = getenv("XEN_TEST_LIFETIMES");

	return s != NULL ? (unsigned int)strtoul(s, NULL, 10) : 1000;
}

static unsigned int
open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned int n = 0;

	if (d == NULL)
		return 0;
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

static uint64_t
resident_bytes(void)
{
	unsigned long size, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f != NULL) {
		if (fscanf(f, "%lu %lu", &size, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return (uint64_t)resident * sysconf(_SC_PAGESIZE);
}

static int
start_backend(void)
{
	char args[128];

	snprintf(args, sizeof(args), "domain=%s,provider=sim,sim=%s", GUEST,
		 pair_sim_instance());
	return pair_create(BACK, args, test_pool);
}

static bool
traffic_flows(void)
{
	return pair_traffic_both_ways(back, front, test_pool, &seq, PACKETS);
}

static bool
nothing_held(domid_t domid)
{
	struct xsim_usage u;

	if (xsim_domain_usage(pair_sim_instance(), domid, &u) != 0)
		return false;
	if (u.grants == 0 && u.maps == 0 && u.ports == 0 && u.watches == 0)
		return true;
	fprintf(stderr, "domain %u holds %u grants, %u maps, %u ports, %u watches\n",
		domid, u.grants, u.maps, u.ports, u.watches);
	return false;
}

static void
test_a_thousand_lifetimes_leave_nothing_behind(void)
{
	unsigned int n = cycles_wanted(), i, failed = 0;
	unsigned int fds_first = 0, fds_last = 0;
	unsigned int ends[3] = { 0 };
	uint64_t rss100 = 0;
	domid_t domid = DOMID_FIRST;

	REQUIRE(pair_guest_create(domid, GUEST));
	back = start_backend();
	REQUIRE(back >= 0);
	for (i = 0; i < n && failed < 3; i++) {
		if (front < 0)
			front = pair_guest_frontend(domid, test_pool);
		REQUIRE(front >= 0);
		if (!traffic_flows()) {
			fprintf(stderr, "cycle %u: no traffic\n", i);
			failed++;
		}
		switch (i % 3) {
		case 0:		/* the frontend port closes */
			pair_destroy(FRONT, front);
			front = -1;
			/* Always the same ports open here: compare. */
			fds_last = open_fds();
			if (i == 0)
				fds_first = fds_last;
			break;
		case 1:		/* the backend restarts under it */
			pair_destroy(BACK, back);
			back = start_backend();
			REQUIRE(back >= 0);
			if (!traffic_flows())
				failed++;
			break;
		case 2:		/* the guest reboots: a new domain */
			pair_destroy(FRONT, front);
			front = -1;
			CHECK(pair_guest_destroy(domid));
			domid = domid == DOMID_LAST ? DOMID_FIRST : domid + 1;
			REQUIRE(pair_guest_create(domid, GUEST));
			break;
		}
		ends[i % 3]++;
		if (i == 99)
			rss100 = resident_bytes();
	}
	CHECK(failed == 0);
	if (front >= 0)
		pair_destroy(FRONT, front);
	pair_destroy(BACK, back);
	front = back = -1;
	CHECK(pair_guest_destroy(domid));
	printf("# %u cycles (%u frontend closes, %u backend restarts, %u reboots); "
	       "descriptors with the backend alone open: %u after the first "
	       "cycle, %u after the last; resident %" PRIu64 " KiB after the "
	       "100th, %" PRIu64 " KiB at the end\n", i, ends[0], ends[1],
	       ends[2], fds_first, fds_last, rss100 / 1024,
	       resident_bytes() / 1024);
	CHECK(i == n);
	for (domid_t d = 0; d <= DOMID_LAST; d++)
		CHECK(nothing_held(d));
	CHECK(fds_last == fds_first);
#ifndef __SANITIZE_ADDRESS__
	/*
	 * Under AddressSanitizer, freed memory waits in its quarantine (up
	 * to 256 MiB) and resident memory grows without a leak; there,
	 * LeakSanitizer checks what is left at exit instead.
	 */
	if (n > 100)
		CHECK(resident_bytes() < rss100 + 8 * 1024 * 1024);
#endif
}

TEST_MAIN(pair_setup, pair_teardown)
{
	RUN(test_a_thousand_lifetimes_leave_nothing_behind);
}
