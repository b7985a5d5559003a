/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * What a port shows an operator, as Linux netback's debugfs io_ring does:
 * the peer, the xenbus states, what was negotiated, and each queue's ring
 * indexes. One description feeds two outputs: DPDK's telemetry (the
 * commands /<pmd>/vifs and /<pmd>/vif,<port id>) and ethdev's private
 * dump (rte_eth_dev_priv_dump()).
 */

#ifndef XN_INFO_H
#define XN_INFO_H

#include <stdint.h>
#include <stdio.h>

struct rte_eth_dev;
struct xn_port;

/*
 * Where a description goes: named values, grouped in sections one level
 * deep (telemetry's dictionaries nest no deeper).
 */
struct xn_info {
	void (*str)(struct xn_info *w, const char *key, const char *val);
	void (*u64)(struct xn_info *w, const char *key, uint64_t val);
	/* What follows goes in section @name; NULL: back to the top. */
	void (*section)(struct xn_info *w, const char *name);
};

/*
 * Describe port @p into @w, under its lock: the PMD's part (its peer,
 * states, features: xn_port_ops.info), then, with @rings, each connected
 * queue's ring indexes.
 */
void xn_info_port(struct xn_port *p, struct xn_info *w, bool rings);

/* eth_dev_ops.eth_dev_priv_dump: the whole description, as text. */
int xn_info_dump(struct rte_eth_dev *dev, FILE *f);

/*
 * Register the telemetry commands <prefix>/vifs (every port of @pmd, in
 * short) and <prefix>/vif (one port, whole) for @pmd's ports.
 */
struct xn_pmd;
void xn_info_register(const struct xn_pmd *pmd, const char *prefix);

#endif /* XN_INFO_H */
