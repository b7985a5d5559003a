/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The ports of xen-adaptive-fwd (app/xen-adaptive-fwd/ports.c) against
 * ethdev's order of events. A netback watcher probes a new vif's port on
 * EAL's interrupt thread, and ethdev announces the port
 * (RTE_ETH_EVENT_NEW) before the probe is done: the port is not attached
 * yet, and rte_eth_dev_info_get() would read a driver the bus has not set.
 * Here a netback port is probed on the interrupt thread, as the watcher
 * does, and the loop's round runs inside the announcement: the port is
 * not set up there, and is served from a round after the probe returned
 * (the systemd unit's test left a guest created while it ran unserved
 * when the loop looked just then).
 */

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "ports.h"
#include "test.h"
#include "vdev_pair.h"

#define BACK "net_xen_netback0"

static uint16_t announced_port = RTE_MAX_ETHPORTS;
static uint16_t served_inside = UINT16_MAX;
static int probed = 1;			/* rte_vdev_init()'s result, once done */

/* The loop's round between ethdev's announcement and the probe's end. */
static int
round_inside_probe(uint16_t port, enum rte_eth_event_type type __rte_unused,
		   void *arg __rte_unused, void *ret __rte_unused)
{
	announced_port = port;
	ports_update();
	served_inside = ports_queues(port);
	return 0;
}

/* On the interrupt thread, as the watcher probes. */
static void
probe_backend(void *arg __rte_unused)
{
	char args[128];

	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s",
		 pair_sim_instance());
	__atomic_store_n(&probed, rte_vdev_init(BACK, args) == 0 ? 0 : -1,
			 __ATOMIC_RELEASE);
}

/*
 * A round of the loop outside the probe; what it tells the operator on
 * stdout is added to @said (not to the test's own TAP lines).
 */
static void
round_told(char *said, size_t size)
{
	size_t used = strlen(said), n;
	FILE *f = tmpfile();
	int saved;

	REQUIRE(f != NULL);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	REQUIRE(saved >= 0 && dup2(fileno(f), STDOUT_FILENO) >= 0);
	ports_update();
	fflush(stdout);
	REQUIRE(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	rewind(f);
	n = fread(said + used, 1, size - 1 - used, f);
	said[used + n] = '\0';
	fclose(f);
}

static void
test_port_announced_while_probed_is_served_after(void)
{
	char said[512] = "";
	uint64_t end;

	REQUIRE(rte_eth_dev_callback_register(RTE_ETH_ALL, RTE_ETH_EVENT_NEW,
					      round_inside_probe, NULL) == 0);
	REQUIRE(rte_eal_alarm_set(1, probe_backend, NULL) == 0);
	end = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	while (__atomic_load_n(&probed, __ATOMIC_ACQUIRE) == 1 &&
	       rte_get_timer_cycles() < end)
		rte_delay_ms(1);
	rte_eth_dev_callback_unregister(RTE_ETH_ALL, RTE_ETH_EVENT_NEW,
					round_inside_probe, NULL);
	REQUIRE(probed == 0 && announced_port < RTE_MAX_ETHPORTS);
	/* Not set up inside the probe. */
	CHECK(served_inside == 0);
	/* The announcement comes once the probe is done: a round serves it. */
	end = rte_get_timer_cycles() + rte_get_timer_hz();
	while (ports_queues(announced_port) == 0 &&
	       rte_get_timer_cycles() < end) {
		round_told(said, sizeof(said));
		rte_delay_ms(1);
	}
	CHECK(ports_queues(announced_port) == 1);
	CHECK(nb_queues == 1 && queues[0].port == announced_port);
	/* And the operator is told. */
	CHECK(strstr(said, "(" BACK "): serving, 1 queues\n") != NULL);
}

static int
setup(const char *argv0)
{
	return pair_setup(argv0) != 0 ? -1 : ports_open(test_pool, false);
}

static void
teardown(void)
{
	ports_close();
	pair_teardown();
}

TEST_MAIN(setup, teardown)
{
	RUN(test_port_announced_while_probed_is_served_after);
}
