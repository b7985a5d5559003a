/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The RSS dev_ops of both PMDs. A netback reports the hash its guest
 * configured over the control ring (the guest's to change); a netfront
 * takes the application's (rte_eth_dev_configure()'s rss_conf,
 * rte_eth_dev_rss_hash_update(), rte_eth_dev_rss_reta_update()) and
 * configures it in its backend. Both through xn_port_ops.rss and rss_set.
 */

#ifndef XN_RSS_H
#define XN_RSS_H

#include <ethdev_driver.h>

#include "xn_port.h"

/* The RSS hash types a vif's hash covers (netif.h's four). */
#define XN_RSS_OFFLOADS \
	(RTE_ETH_RSS_IPV4 | RTE_ETH_RSS_NONFRAG_IPV4_TCP | \
	 RTE_ETH_RSS_IPV6 | RTE_ETH_RSS_NONFRAG_IPV6_TCP)

/*
 * dev_configure, before the handshake may use it: the hash the
 * application's rxmode and rss_conf ask for (none without RSS in
 * mq_mode), its table spread over the queues. 0 or -EINVAL (logged).
 */
int xn_rss_configure(struct xn_port *p);

int xn_rss_hash_update(struct rte_eth_dev *dev, struct rte_eth_rss_conf *conf);
int xn_rss_hash_conf_get(struct rte_eth_dev *dev,
			 struct rte_eth_rss_conf *conf);
int xn_reta_update(struct rte_eth_dev *dev,
		   struct rte_eth_rss_reta_entry64 *reta, uint16_t reta_size);
int xn_reta_query(struct rte_eth_dev *dev,
		  struct rte_eth_rss_reta_entry64 *reta, uint16_t reta_size);

#endif /* XN_RSS_H */
