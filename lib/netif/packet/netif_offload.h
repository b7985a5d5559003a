/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Checksum and segmentation offloads between a netif ring and mbufs, for
 * both ends and both ways. On the receiving side (guest TX at the
 * backend, guest RX at the frontend) what the sender's flags and GSO extra
 * say about a packet becomes mbuf offload flags: netif_offload_rx(). On
 * the sending side an mbuf's offload requests become the flags and GSO
 * extra a peer takes, or are carried out in software for a peer that
 * takes none: netif_offload_tx().
 *
 * A received packet that still needs work (a checksum left blank, a large
 * segment) is flagged the way DPDK's vhost library flags a virtio-net
 * packet in its legacy mode: with the Rx flag that says what it is and
 * with the Tx requests that finish it, so an application that forwards it
 * as it is (testpmd io, OVS) hands the work to the next hop, another guest
 * or a NIC, instead of doing it. The pseudo-header sum in the checksum
 * field is always written here from the IP header, never taken from the
 * sender: a partial sum may be wrong by accident or by design, and the two
 * sides want it in different forms (Linux with the L4 length, DPDK's TSO
 * without).
 */

#ifndef NETIF_OFFLOAD_H
#define NETIF_OFFLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "netif_ring.h"

/* A packet's offload as the netif ring carries it. */
struct netif_offload {
	bool csum_blank;	/* the L4 checksum field holds a partial sum */
	bool data_validated;	/* the sender vouches for the data */
	uint8_t gso_type;	/* XEN_NETIF_GSO_TYPE_* */
	uint16_t gso_size;	/* the MSS of the segments, for a GSO type */
	bool hashed;		/* a hash extra (netif_hash.h) goes with it */
	uint8_t hash_type;	/* _XEN_NETIF_CTRL_HASH_TYPE_* */
	uint32_t hash;
	/* guest RX: where the frame starts in its first page, told in an XDP extra */
	uint16_t xdp_headroom;
};

/* What an application enabled on a receiving queue. */
#define NETIF_RX_TCP_CSUM	RTE_BIT32(0)	/* RTE_ETH_RX_OFFLOAD_TCP_CKSUM */
#define NETIF_RX_UDP_CSUM	RTE_BIT32(1)	/* RTE_ETH_RX_OFFLOAD_UDP_CKSUM */
/*
 * Large segments taken: Rx LRO enabled, or Tx TSO (an application that
 * sends TSO mbufs forwards them too; OVS enables TSO and never LRO), or
 * the port told so (gso=on). The peer's GSO packets arrive whole.
 */
#define NETIF_RX_GSO		RTE_BIT32(2)
#define NETIF_RX_IP_CSUM	RTE_BIT32(3)	/* RTE_ETH_RX_OFFLOAD_IPV4_CKSUM */
/*
 * Blank checksums of that protocol left for the application to finish:
 * it enabled the protocol's Rx and Tx checksum offloads (see
 * netif_offload_rx_apply()).
 */
#define NETIF_RX_TCP_CSUM_BLANK	RTE_BIT32(4)
#define NETIF_RX_UDP_CSUM_BLANK	RTE_BIT32(5)
/*
 * The form of what a received packet still needs (a blank checksum, a
 * large segment). Without this bit, the legacy form of DPDK 22.11's vhost
 * library: the Tx requests that finish it, which OVS 3.1-3.5 and testpmd
 * io forward as they are. With it, DPDK's compliant form: Rx flags only
 * (RTE_MBUF_F_RX_L4_CKSUM_NONE, RTE_MBUF_F_RX_LRO with tso_segsz), for
 * OVS 3.6 and later, which drop a received mbuf that carries Tx requests.
 */
#define NETIF_RX_COMPLIANT	RTE_BIT32(6)
/*
 * Every received packet classified (netif_l2_classify()): the application
 * has not cleared the port's packet types (rte_eth_dev_set_ptypes() with
 * RTE_PTYPE_UNKNOWN, which testpmd does) or the queue groups by
 * EtherType. Without it, only a packet an offload needs walked is.
 */
#define NETIF_RX_PTYPES RTE_BIT32(7)

/*
 * What a peer takes, from its feature keys: blank checksums over IPv4
 * (unless feature-no-csum-offload) and IPv6 (feature-ipv6-csum-offload),
 * GSO packets (feature-gso-tcpv4, feature-gso-tcpv6).
 */
#define NETIF_PEER_CSUM_IPV4	RTE_BIT32(0)
#define NETIF_PEER_CSUM_IPV6	RTE_BIT32(1)
#define NETIF_PEER_GSO_TCPV4	RTE_BIT32(2)
#define NETIF_PEER_GSO_TCPV6	RTE_BIT32(3)

/* The NETIF_PEER_GSO_* bit of a XEN_NETIF_GSO_TYPE_*, 0 for none. */
static inline uint32_t
netif_peer_gso_bit(uint8_t gso_type)
{
	switch (gso_type) {
	case XEN_NETIF_GSO_TYPE_TCPV4:
		return NETIF_PEER_GSO_TCPV4;
	case XEN_NETIF_GSO_TYPE_TCPV6:
		return NETIF_PEER_GSO_TCPV6;
	}
	return 0;
}

/* The hash a hash extra @e says its packet has, into @o. */
static inline void
netif_offload_hash_extra(struct netif_offload *o,
			 const struct netif_extra_info *e)
{
	o->hashed = true;
	o->hash_type = e->u.hash.type;
	/* Least significant byte first (netif.h). */
	o->hash = (uint32_t)e->u.hash.value[0] |
		  (uint32_t)e->u.hash.value[1] << 8 |
		  (uint32_t)e->u.hash.value[2] << 16 |
		  (uint32_t)e->u.hash.value[3] << 24;
}

/*
 * Apply the offload @o a received packet @m came with, @m classified by
 * netif_l2_classify(), under what the application enabled (@enabled,
 * NETIF_RX_*):
 * - a GSO packet (NETIF_RX_GSO required) becomes one large segment,
 *   its headers all in the first segment, l2/l3/l4_len set, tso_segsz
 *   its MSS, the pseudo-header sum without the length as DPDK's TSO
 *   contract says, flagged RTE_MBUF_F_RX_LRO | RTE_MBUF_F_RX_L4_CKSUM_NONE
 *   and, in the legacy form, with the requests that finish it, as vhost's
 *   legacy form has them: RTE_MBUF_F_TX_TCP_SEG | TX_TCP_CKSUM and
 *   TX_IPV4 | TX_IP_CKSUM or TX_IPV6 (the IPv4 header checksum left
 *   valid, for next hops that forward the header as it is);
 * - a blank checksum is flagged RTE_MBUF_F_RX_L4_CKSUM_NONE, in the
 *   legacy form with the request TX_TCP_CKSUM or TX_UDP_CKSUM and
 *   TX_IPV4 or TX_IPV6, under NETIF_RX_TCP_CSUM_BLANK or
 *   NETIF_RX_UDP_CSUM_BLANK, and computed in software without it: an
 *   application that does not deal in Tx checksum requests may forward
 *   the mbuf where nobody finishes it (OVS 3.1 without userspace TSO
 *   drops a packet with a request its egress port was not set up for);
 * - data_validated becomes RTE_MBUF_F_RX_L4_CKSUM_GOOD under the same;
 * - under NETIF_RX_IP_CSUM, the IPv4 header checksum is verified:
 *   RTE_MBUF_F_RX_IP_CKSUM_GOOD or _BAD.
 * Returns 0, or -1 with @why when the packet must be dropped: the offload
 * does not fit the frame (no TCP or UDP header, a GSO type of the other IP
 * version, a GSO size whose segments would exceed the largest frame) or
 * was not enabled.
 */
int netif_offload_rx_apply(struct rte_mbuf *m, const struct netif_offload *o,
			   uint32_t enabled, const char **why);

/*
 * Nothing for the receiver to be told but, perhaps, the packet's hash: no
 * flag, no GSO or XDP extra.
 */
static inline bool
netif_offload_at_most_hash(const struct netif_offload *o)
{
	return !o->csum_blank && !o->data_validated &&
	       o->gso_type == XEN_NETIF_GSO_TYPE_NONE && o->xdp_headroom == 0;
}

/* Nothing for the receiver to be told: no flag, no extra. */
static inline bool
netif_offload_plain(const struct netif_offload *o)
{
	return netif_offload_at_most_hash(o) && !o->hashed;
}

/* The application has the checksums of every received packet checked. */
static inline bool
netif_offload_rx_checks(uint32_t enabled)
{
	return enabled &
	       (NETIF_RX_TCP_CSUM | NETIF_RX_UDP_CSUM | NETIF_RX_IP_CSUM);
}

/* Most packets: nothing to flag, nothing to complete. */
static inline bool
netif_offload_rx_none(const struct netif_offload *o, uint32_t enabled)
{
	return o->gso_type == XEN_NETIF_GSO_TYPE_NONE && !o->csum_blank &&
	       !netif_offload_rx_checks(enabled);
}

static inline int
netif_offload_rx(struct rte_mbuf *m, const struct netif_offload *o,
		 uint32_t enabled, const char **why)
{
	if (likely(netif_offload_rx_none(o, enabled)))
		return 0;
	return netif_offload_rx_apply(m, o, enabled, why);
}

/*
 * A received packet with offload @o is to be classified before
 * netif_offload_rx(): the application wants packet types
 * (NETIF_RX_PTYPES) or the offload needs its headers. The walk is a fifth
 * of a small packet's cost; an application that clears the packet types
 * and enables no Rx offload is spared it.
 */
static inline bool
netif_offload_rx_walks(const struct netif_offload *o, uint32_t enabled)
{
	return (enabled & NETIF_RX_PTYPES) ||
	       !netif_offload_rx_none(o, enabled);
}

enum netif_offload_verdict {
	NETIF_OFFLOAD_SEND,	/* send with @o */
	NETIF_OFFLOAD_DROP,	/* an offload request the frame cannot take */
	NETIF_OFFLOAD_SEGMENT,	/* a large segment the peer cannot take */
};

/*
 * Turn the offload requests of an mbuf about to be sent into the offload
 * @o for a peer that takes @peer (NETIF_PEER_*) on a link of MTU @mtu,
 * classifying @m on the way when it asks for any:
 * - RTE_MBUF_F_TX_TCP_SEG: a GSO packet (csum_blank, data_validated) when
 *   the peer takes that GSO type; a frame with no more payload than one
 *   segment is sent as a checksum request; otherwise SEGMENT. A segment
 *   size (tso_segsz) whose frames the MTU cannot carry is lowered to the
 *   largest it can, in @m too, so that a cut makes frames within it;
 * - RTE_MBUF_F_TX_TCP_CKSUM / TX_UDP_CKSUM: csum_blank and data_validated
 *   when the peer takes blank checksums of that IP version, else the
 *   checksum is computed here;
 * - RTE_MBUF_F_TX_IP_CKSUM: the IPv4 header checksum is computed here;
 * - RTE_MBUF_F_RX_L4_CKSUM_GOOD (a verified packet forwarded): data_validated;
 * - without any Tx request, an mbuf forwarded as another port received it:
 *   RTE_MBUF_F_RX_LRO with a tso_segsz is taken for a TSO request, and
 *   RTE_MBUF_F_RX_L4_CKSUM_NONE for a checksum request.
 * A partial checksum is written with the L4 length, as Linux expects.
 * DROP for a request the frame cannot take (no TCP or UDP header of the
 * kind asked, a TSO segment size of 0, headers that leave no payload
 * within the MTU).
 */
enum netif_offload_verdict netif_offload_tx_apply(struct rte_mbuf *m,
						  uint32_t peer, uint16_t mtu,
						  struct netif_offload *o);

/*
 * Most packets: no Tx request, nothing vouched for; sent as they are, with
 * no offload (what netif_offload_tx() gives them).
 */
static inline bool
netif_offload_tx_none(const struct rte_mbuf *m)
{
	return !(m->ol_flags &
		 (RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_L4_MASK |
		  RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_RX_L4_CKSUM_MASK));
}

static inline enum netif_offload_verdict
netif_offload_tx(struct rte_mbuf *m, uint32_t peer, uint16_t mtu,
		 struct netif_offload *o)
{
	if (likely(netif_offload_tx_none(m))) {
		*o = (struct netif_offload){
			.gso_type = XEN_NETIF_GSO_TYPE_NONE,
		};
		return NETIF_OFFLOAD_SEND;
	}
	return netif_offload_tx_apply(m, peer, mtu, o);
}

#endif /* NETIF_OFFLOAD_H */
