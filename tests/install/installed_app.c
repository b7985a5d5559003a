/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * An application built the way a user builds one against an installed
 * xen-dpdk-pmd: `pkg-config --cflags xen-dpdk-pmd`, the public header for
 * the names, and the PMDs found by EAL as plugins. It probes the vdev
 * given on its command line and checks that every name of the header is
 * one the PMD really uses. Prints TAP.
 *
 * usage: installed_app <EAL arguments with one --vdev> -- <vdev name>
 */

#include <stdio.h>
#include <stdlib.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_pmd_xen_netif.h>

static int n, failed;

static void
check(int ok, const char *what)
{
	printf("%s %d - %s\n", ok ? "ok" : "not ok", ++n, what);
	failed |= !ok;
}

static int
has_xstat(uint16_t port, const char *dir, const char *name)
{
	char full[RTE_ETH_XSTATS_NAME_SIZE];
	uint64_t id;

	snprintf(full, sizeof(full), "%s_q0_%s", dir, name);
	return rte_eth_xstats_get_id_by_name(port, full, &id) == 0;
}

int
main(int argc, char **argv)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_mempool *mp;
	uint16_t port;
	int args = rte_eal_init(argc, argv);

	if (args < 0 || args + 2 > argc) {
		printf("1..0 # SKIP EAL did not start\n");
		return EXIT_FAILURE;
	}
	check(rte_eth_dev_get_port_by_name(argv[args + 1], &port) == 0,
	      "the installed plugin probed the vdev");
	if (failed)
		return EXIT_FAILURE;
	mp = rte_pktmbuf_pool_create("app", 1024, 0, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	check(mp != NULL && rte_eth_dev_configure(port, 1, 1, &conf) == 0 &&
	      rte_eth_rx_queue_setup(port, 0, 256, SOCKET_ID_ANY, NULL,
				     mp) == 0 &&
	      rte_eth_tx_queue_setup(port, 0, 256, SOCKET_ID_ANY, NULL) == 0,
	      "one queue pair set up");
	check(rte_mbuf_dynflag_lookup(RTE_PMD_XEN_NETIF_DYNFLAG_SINGLE_ETHERTYPE,
				      NULL) >= 0,
	      "the grouping flag is found by the header's name");
	check(has_xstat(port, "rx", RTE_PMD_XEN_NETIF_XSTAT_NOTIFICATIONS_SENT) &&
	      has_xstat(port, "tx", RTE_PMD_XEN_NETIF_XSTAT_NOTIFICATIONS_SUPPRESSED) &&
	      has_xstat(port, "rx", RTE_PMD_XEN_NETIF_XSTAT_NOTIFICATIONS_FAILED) &&
	      has_xstat(port, "rx", RTE_PMD_XEN_NETIF_XSTAT_NOTIFICATIONS_RECEIVED),
	      "the notification xstats are found by the header's names");
	if (argc > args + 2)	/* the netback: its own counters too */
		check(has_xstat(port, "rx", RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_CALLS) &&
		      has_xstat(port, "tx", RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_OPS) &&
		      has_xstat(port, "rx", RTE_PMD_XEN_NETIF_XSTAT_GRANT_COPY_FAILURES) &&
		      has_xstat(port, "tx", RTE_PMD_XEN_NETIF_XSTAT_MALFORMED_REQUESTS),
		      "the netback's xstats are found by the header's names");
	rte_eth_dev_close(port);
	rte_eal_cleanup();
	printf("1..%d\n", n);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
