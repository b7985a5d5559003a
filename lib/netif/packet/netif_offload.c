/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Offloads between the netif ring and mbufs (see netif_offload.h). The
 * rules for GSO follow Linux netback and netfront, which every peer is
 * written against: a GSO packet is TCP of the IP version its type names,
 * its size is not 0 (the parsers enforce that on the ring), and its
 * headers are all in the first segment (XSA-423: a next hop that
 * segments or checksums reads them there). A GSO packet that comes
 * without a blank checksum is treated as blank, as Linux does.
 */

#include <rte_ip.h>
#include <rte_mbuf_ptype.h>

#include "netif_csum.h"
#include "netif_l2.h"
#include "netif_offload.h"

static inline uint32_t
headers_len(const struct rte_mbuf *m)
{
	return (uint32_t)m->l2_len + m->l3_len + m->l4_len;
}

static inline uint64_t
tx_ip_flags(const struct netif_l4_csum *c)
{
	return c->ipv6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4;
}

static int
rx_gso(struct rte_mbuf *m, const struct netif_offload *o, uint32_t enabled,
       const char **why)
{
	struct netif_l4_csum c;

	if (!(enabled & NETIF_RX_GSO)) {
		*why = "GSO packet while large segments are not taken";
		return -1;
	}
	if (netif_csum_locate(m, &c) != 0 || c.udp) {
		*why = "GSO packet without a TCP header";
		return -1;
	}
	if (c.ipv6 != (o->gso_type == XEN_NETIF_GSO_TYPE_TCPV6)) {
		*why = "GSO type of the other IP version";
		return -1;
	}
	if (headers_len(m) > rte_pktmbuf_data_len(m)) {
		*why = "GSO headers beyond the first segment";
		return -1;
	}
	if (headers_len(m) + o->gso_size > XEN_NETIF_MAX_TX_SIZE) {
		*why = "GSO size beyond the largest frame";
		return -1;
	}
	netif_csum_store(m, c.field, netif_csum_pseudo(&c, false));
	m->tso_segsz = o->gso_size;
	m->ol_flags |= RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_NONE;
	if (enabled & NETIF_RX_COMPLIANT)
		return 0;
	/*
	 * TX_TCP_CKSUM as vhost has it: OVS 3.1 sets l2_len and l3_len only
	 * on a packet with an L4 checksum request, and its conntrack verifies
	 * the checksum of one without, which here holds a partial sum.
	 */
	m->ol_flags |= RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_TCP_CKSUM |
		       tx_ip_flags(&c);
	/*
	 * The next hop computes each segment's IP checksum. The header's own
	 * stays valid, not zeroed as DPDK's TSO contract has it for the NICs
	 * whose rte_eth_tx_prepare() zeroes it anyway: forwarded without
	 * that (testpmd io) to virtio-user, the kernel drops a GSO packet
	 * whose header checksum is 0.
	 */
	if (!c.ipv6)
		m->ol_flags |= RTE_MBUF_F_TX_IP_CKSUM;
	return 0;
}

static int
rx_csum_blank(struct rte_mbuf *m, uint32_t enabled, const char **why)
{
	struct netif_l4_csum c;

	if (netif_csum_locate(m, &c) != 0) {
		*why = "blank checksum on a frame without TCP or UDP";
		return -1;
	}
	if (!(enabled & (c.udp ? NETIF_RX_UDP_CSUM_BLANK :
			     NETIF_RX_TCP_CSUM_BLANK))) {
		netif_csum_fill(m, &c);
		return 0;
	}
	netif_csum_store(m, c.field, netif_csum_pseudo(&c, true));
	m->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_NONE;
	if (!(enabled & NETIF_RX_COMPLIANT))
		m->ol_flags |= tx_ip_flags(&c) | (c.udp ? RTE_MBUF_F_TX_UDP_CKSUM :
							  RTE_MBUF_F_TX_TCP_CKSUM);
	return 0;
}

/* The IPv4 header checksum verified, as a NIC's Rx offload does. */
static void
rx_ip_csum(struct rte_mbuf *m)
{
	int ok = netif_csum_ipv4_header_ok(m);

	if (ok >= 0)
		m->ol_flags |= ok ? RTE_MBUF_F_RX_IP_CKSUM_GOOD :
				    RTE_MBUF_F_RX_IP_CKSUM_BAD;
}

int
netif_offload_rx_apply(struct rte_mbuf *m, const struct netif_offload *o,
		       uint32_t enabled, const char **why)
{
	uint32_t l4;

	if (enabled & NETIF_RX_IP_CSUM)
		rx_ip_csum(m);
	if (o->gso_type != XEN_NETIF_GSO_TYPE_NONE)
		return rx_gso(m, o, enabled, why);
	if (o->csum_blank)
		return rx_csum_blank(m, enabled, why);
	l4 = m->packet_type & RTE_PTYPE_L4_MASK;
	if (o->data_validated &&
	    ((l4 == RTE_PTYPE_L4_TCP && (enabled & NETIF_RX_TCP_CSUM)) ||
	     (l4 == RTE_PTYPE_L4_UDP && (enabled & NETIF_RX_UDP_CSUM))))
		m->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	return 0;
}

/* The L4 checksum request matches the frame's L4 header. */
static inline bool
tx_l4_request_fits(uint64_t flags, const struct netif_l4_csum *c)
{
	switch (flags & RTE_MBUF_F_TX_L4_MASK) {
	case RTE_MBUF_F_TX_TCP_CKSUM:
		return !c->udp;
	case RTE_MBUF_F_TX_UDP_CKSUM:
		return c->udp;
	}
	return false;	/* SCTP: no partial sum to leave */
}

enum netif_offload_verdict
netif_offload_tx_apply(struct rte_mbuf *m, uint32_t peer, uint16_t mtu,
		       struct netif_offload *o)
{
	const uint64_t l4_requests = RTE_MBUF_F_TX_TCP_SEG |
				     RTE_MBUF_F_TX_L4_MASK;
	uint64_t flags = m->ol_flags;
	bool received = false, lro = false;
	struct netif_l4_csum c;
	uint32_t csum_bit;

	*o = (struct netif_offload){ .gso_type = XEN_NETIF_GSO_TYPE_NONE };
	if (!(flags & (l4_requests | RTE_MBUF_F_TX_IP_CKSUM))) {
		uint64_t l4_rx = flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;

		lro = (flags & RTE_MBUF_F_RX_LRO) && m->tso_segsz != 0;
		if (!lro && l4_rx != RTE_MBUF_F_RX_L4_CKSUM_NONE) {
			o->data_validated = l4_rx == RTE_MBUF_F_RX_L4_CKSUM_GOOD;
			return NETIF_OFFLOAD_SEND;
		}
		received = true;
	}
	/* The application's header lengths are not trusted: walk. */
	netif_l2_classify(m);
	if (received) {
		/*
		 * Forwarded as another port received it, without a Tx
		 * request: an LRO aggregate with its MSS is a large segment,
		 * a checksum the receiver left out of the data
		 * (RTE_MBUF_F_RX_L4_CKSUM_NONE) one to finish. Sent as they
		 * are, the peer would get a frame beyond its MTU or a wrong
		 * checksum.
		 */
		if (netif_csum_locate(m, &c) != 0)
			return NETIF_OFFLOAD_SEND;	/* nothing to finish */
		flags |= lro && !c.udp ? RTE_MBUF_F_TX_TCP_SEG :
			 c.udp ? RTE_MBUF_F_TX_UDP_CKSUM :
				 RTE_MBUF_F_TX_TCP_CKSUM;
	} else if (!(flags & l4_requests)) {
		return netif_csum_ipv4_header(m) == 0 ? NETIF_OFFLOAD_SEND :
							NETIF_OFFLOAD_DROP;
	} else if (netif_csum_locate(m, &c) != 0) {
		return NETIF_OFFLOAD_DROP;
	}
	if (flags & RTE_MBUF_F_TX_TCP_SEG) {
		uint32_t headers = (uint32_t)m->l3_len + m->l4_len;

		if (c.udp || m->tso_segsz == 0 || headers >= mtu)
			return NETIF_OFFLOAD_DROP;
		/*
		 * The MSS the sender chose (an MTU elsewhere, a guest's GSO
		 * size) may not fit this link: the receiving guest would get
		 * frames beyond its MTU, or forward them.
		 */
		if (headers + m->tso_segsz > mtu)
			m->tso_segsz = mtu - headers;
		/* The IP header of each segment is the next hop's to fix. */
		if (!c.ipv6)
			flags |= RTE_MBUF_F_TX_IP_CKSUM;
		/* More payload than one segment takes: GSO, or segment. */
		if (c.l4_len - m->l4_len > m->tso_segsz) {
			uint8_t type = c.ipv6 ? XEN_NETIF_GSO_TYPE_TCPV6 :
						XEN_NETIF_GSO_TYPE_TCPV4;

			if (!(peer & netif_peer_gso_bit(type)))
				return NETIF_OFFLOAD_SEGMENT;
			o->gso_type = type;
			o->gso_size = m->tso_segsz;
		}
	} else if (!tx_l4_request_fits(flags, &c)) {
		return NETIF_OFFLOAD_DROP;
	}
	if ((flags & RTE_MBUF_F_TX_IP_CKSUM) && netif_csum_ipv4_header(m) != 0)
		return NETIF_OFFLOAD_DROP;
	csum_bit = c.ipv6 ? NETIF_PEER_CSUM_IPV6 : NETIF_PEER_CSUM_IPV4;
	if (o->gso_type == XEN_NETIF_GSO_TYPE_NONE && !(peer & csum_bit)) {
		netif_csum_fill(m, &c);
		return NETIF_OFFLOAD_SEND;
	}
	netif_csum_store(m, c.field, netif_csum_pseudo(&c, true));
	o->csum_blank = true;
	o->data_validated = true;
	return NETIF_OFFLOAD_SEND;
}
