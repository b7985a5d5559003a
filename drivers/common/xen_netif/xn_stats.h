/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Statistics of both PMDs from one description per PMD: each counter of a
 * queue is a uint64_t at an offset in the queue's structure, written by
 * one thread and read relaxed. A counter may feed a basic statistic
 * (packets, bytes, errors, rx_nombuf), have an extended name, or both.
 * Extended statistics are listed per queue, "rx_q<n>_<name>" for every Rx
 * queue, then "tx_q<n>_<name>" for every Tx queue; ethdev adds the
 * per-queue basic ones (RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS). Every queue
 * also has the notification counters of xn_port.h.
 */

#ifndef XN_STATS_H
#define XN_STATS_H

#include <stddef.h>

#include <ethdev_driver.h>

enum xn_basic {
	XN_BASIC_NONE,
	XN_BASIC_PACKETS,
	XN_BASIC_BYTES,
	XN_BASIC_ERRORS,
	XN_BASIC_NOMBUF,	/* Rx only */
	XN_BASIC_GAUGE,		/* a level, not a count: never reset */
	/*
	 * A level the queue does not keep: the table's read() tells it,
	 * @offset its key.
	 */
	XN_BASIC_READ,
};

struct xn_stat {
	const char *name;	/* after "rx_q<n>_"; NULL: basic only */
	size_t offset;		/* of the counter in the queue */
	enum xn_basic basic;	/* what it adds to */
};

struct xn_stats_table {
	const struct xn_stat *rx;
	unsigned int nb_rx;
	const struct xn_stat *tx;
	unsigned int nb_tx;
	/*
	 * Optional: the level now of the XN_BASIC_READ counter @key of queue
	 * @q; secondary processes call it too.
	 */
	uint64_t (*read)(const void *q, size_t key);
};

/* The table of a PMD's Rx and Tx queue counters, arrays @rx and @tx. */
#define XN_STATS_TABLE(rx, tx) XN_STATS_TABLE_READ(rx, tx, NULL)
/* The same with levels told by @read. */
#define XN_STATS_TABLE_READ(rx_, tx_, read_) \
	(&(const struct xn_stats_table){ .rx = (rx_), \
					 .nb_rx = RTE_DIM(rx_), \
					 .tx = (tx_), \
					 .nb_tx = RTE_DIM(tx_), \
					 .read = (read_) })

int xn_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st);
int xn_stats_reset(struct rte_eth_dev *dev);
int xn_xstats_get_names(struct rte_eth_dev *dev,
			struct rte_eth_xstat_name *names, unsigned int size);
int xn_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xstats,
		  unsigned int n);

#endif /* XN_STATS_H */
