/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A vif's hash: the control requests that configure it and the Toeplitz
 * hash of a frame (see netif_hash.h).
 */

#include <string.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_tcp.h>

#include "netif_hash.h"
#include "netif_l2.h"

void
netif_hash_reset(struct netif_hash *h, unsigned int nb_queues)
{
	memset(h->live, 0, sizeof(h->live));
	h->cur = 0;
	h->active = NULL;
	h->nb_queues = nb_queues;
}

/*
 * The configuration to change: a copy of the latest, in the one of the two
 * no burst reads (commit() waited them out of it).
 */
static struct netif_hash_live *
begin(struct netif_hash *h)
{
	struct netif_hash_live *next = &h->live[!h->cur];

	*next = h->live[h->cur];
	return next;
}

/* Publish the change, then wait until no burst reads the one it replaced. */
static void
commit(struct netif_hash *h)
{
	const struct netif_hash_live *l = &h->live[!h->cur];
	bool on = l->cfg.alg == XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ &&
		  l->cfg.flags != 0;

	h->cur = !h->cur;
	__atomic_store_n(&h->active, on ? l : NULL, __ATOMIC_SEQ_CST);
	if (h->quiesce != NULL)
		h->quiesce(h->opaque);
}

static uint32_t
set_algorithm(struct netif_hash *h, uint32_t alg)
{
	if (alg != XEN_NETIF_CTRL_HASH_ALGORITHM_NONE &&
	    alg != XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ)
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	begin(h)->cfg.alg = alg;
	commit(h);
	return XEN_NETIF_CTRL_STATUS_SUCCESS;
}

static uint32_t
set_flags(struct netif_hash *h, uint32_t flags)
{
	if ((flags & ~NETIF_HASH_TYPES) != 0 ||
	    h->live[h->cur].cfg.alg == XEN_NETIF_CTRL_HASH_ALGORITHM_NONE)
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	begin(h)->cfg.flags = flags;
	commit(h);
	return XEN_NETIF_CTRL_STATUS_SUCCESS;
}

static uint32_t
set_key(struct netif_hash *h, grant_ref_t ref, uint32_t len)
{
	uint8_t key[NETIF_HASH_KEY_MAX] = { 0 };
	struct netif_hash_live *next;

	if (len > NETIF_HASH_KEY_MAX)
		return XEN_NETIF_CTRL_STATUS_BUFFER_OVERFLOW;
	if (len > 0 && !h->read(h->opaque, ref, key, len))
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	next = begin(h);
	memcpy(next->cfg.key, key, sizeof(key));
	netif_toeplitz_init(&next->toeplitz, key);
	commit(h);
	return XEN_NETIF_CTRL_STATUS_SUCCESS;
}

static uint32_t
set_mapping_size(struct netif_hash *h, uint32_t size)
{
	struct netif_hash_config *next;

	if (size > NETIF_HASH_MAPPING_MAX)
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	next = &begin(h)->cfg;
	next->size = size;
	memset(next->mapping, 0, sizeof(next->mapping));
	commit(h);
	return XEN_NETIF_CTRL_STATUS_SUCCESS;
}

/* XSA-270: read into a copy, check every entry, then take it. */
static uint32_t
set_mapping(struct netif_hash *h, grant_ref_t ref, uint32_t len, uint32_t off)
{
	uint32_t entries[NETIF_HASH_MAPPING_MAX];
	uint32_t i;

	if (off + len < off || off + len > h->live[h->cur].cfg.size ||
	    len > NETIF_PAGE_SIZE / sizeof(entries[0]))
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	if (len == 0)
		return XEN_NETIF_CTRL_STATUS_SUCCESS;
	if (!h->read(h->opaque, ref, entries, len * sizeof(entries[0])))
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	for (i = 0; i < len; i++)
		if (entries[i] >= h->nb_queues)
			return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	memcpy(&begin(h)->cfg.mapping[off], entries, len * sizeof(entries[0]));
	commit(h);
	return XEN_NETIF_CTRL_STATUS_SUCCESS;
}

bool
netif_hash_serve(struct netif_hash *h, const struct xen_netif_ctrl_request *req,
		 struct xen_netif_ctrl_response *rsp)
{
	rsp->data = 0;
	switch (req->type) {
	case XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM:
		rsp->status = set_algorithm(h, req->data[0]);
		return true;
	case XEN_NETIF_CTRL_TYPE_GET_HASH_FLAGS:
		/* As Linux: whatever the algorithm, what we can hash. */
		rsp->status = XEN_NETIF_CTRL_STATUS_SUCCESS;
		rsp->data = NETIF_HASH_TYPES;
		return true;
	case XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS:
		rsp->status = set_flags(h, req->data[0]);
		return true;
	case XEN_NETIF_CTRL_TYPE_SET_HASH_KEY:
		rsp->status = set_key(h, req->data[0], req->data[1]);
		return true;
	case XEN_NETIF_CTRL_TYPE_GET_HASH_MAPPING_SIZE:
		rsp->status = XEN_NETIF_CTRL_STATUS_SUCCESS;
		rsp->data = NETIF_HASH_MAPPING_MAX;
		return true;
	case XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE:
		rsp->status = set_mapping_size(h, req->data[0]);
		return true;
	case XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING:
		rsp->status = set_mapping(h, req->data[0], req->data[1],
					  req->data[2]);
		return true;
	}
	return false;
}

/*
 * The type of @cfg for an IPv4 (@v6 false) or IPv6 frame, TCP (@tcp) or
 * not: the most specific asked, false when none is. @tcp is left saying
 * whether the ports go in.
 */
static inline bool
hash_type(const struct netif_hash_config *cfg, bool v6, bool *tcp,
	  uint8_t *type)
{
	uint32_t ip = v6 ? XEN_NETIF_CTRL_HASH_TYPE_IPV6 :
			   XEN_NETIF_CTRL_HASH_TYPE_IPV4;
	uint32_t ip_tcp = v6 ? XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP :
			       XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP;

	*tcp &= (cfg->flags & ip_tcp) != 0;
	if (!*tcp && !(cfg->flags & ip))
		return false;
	if (v6)
		*type = *tcp ? _XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP :
			       _XEN_NETIF_CTRL_HASH_TYPE_IPV6;
	else
		*type = *tcp ? _XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP :
			       _XEN_NETIF_CTRL_HASH_TYPE_IPV4;
	return true;
}

/* The two ports at the start of a TCP header, as the hash reads them. */
#define PORTS_LEN 4

/*
 * The frames nearly all traffic is made of, read where they lie with no
 * walk: untagged IPv4 without options, untagged IPv6 carrying TCP or UDP
 * directly, the IP header and the ports in the first segment. They get
 * the hash the walk (hash_walked()) would give them: TCP when not a
 * fragment and its whole header is in the frame. Returns 1 when hashed,
 * 0 when no type applies, -1 when the frame is not one of these.
 */
static inline int
hash_common(const struct netif_hash_live *live, const struct rte_mbuf *m,
	    uint32_t *value, uint8_t *type)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const void *);
	const void *l3 = eth + 1;
	/* A first segment longer than its frame is not read past the frame. */
	uint32_t head = RTE_MIN(m->data_len, m->pkt_len);
	uint32_t addrs, l4_off;
	bool tcp;

	if (head < RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr) + PORTS_LEN)
		return -1;
	if (eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4)) {
		const struct rte_ipv4_hdr *ip = l3;

		if (ip->version_ihl != RTE_IPV4_VHL_DEF)
			return -1;
		l4_off = RTE_ETHER_HDR_LEN + sizeof(*ip);
		tcp = ip->next_proto_id == IPPROTO_TCP &&
		      !netif_l2_ipv4_fragment(ip) &&
		      m->pkt_len >= l4_off + sizeof(struct rte_tcp_hdr);
		if (!hash_type(&live->cfg, false, &tcp, type))
			return 0;
		addrs = 8;
		*value = netif_toeplitz(&live->toeplitz, 0,
					(const uint8_t *)&ip->src_addr, addrs);
	} else if (eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV6)) {
		const struct rte_ipv6_hdr *ip = l3;

		l4_off = RTE_ETHER_HDR_LEN + sizeof(*ip);
		if (head < l4_off + PORTS_LEN ||
		    (*(const uint8_t *)l3 >> 4) != 6 ||
		    (ip->proto != IPPROTO_TCP && ip->proto != IPPROTO_UDP))
			return -1;
		tcp = ip->proto == IPPROTO_TCP &&
		      m->pkt_len >= l4_off + sizeof(struct rte_tcp_hdr);
		if (!hash_type(&live->cfg, true, &tcp, type))
			return 0;
		addrs = 32;
		*value =
			netif_toeplitz(&live->toeplitz, 0, ip->src_addr, addrs);
	} else {
		return -1;
	}
	if (tcp)
		*value ^= netif_toeplitz(
			&live->toeplitz, addrs,
			rte_pktmbuf_mtod_offset(m, const uint8_t *, l4_off),
			PORTS_LEN);
	return 1;
}

/*
 * Any other frame: walked (netif_l2_classify(), its types and lengths
 * into @m), then its fields read wherever they lie. Out of line, so that
 * the common frames' path saves and restores no registers for it.
 */
static __rte_noinline bool
hash_walked(const struct netif_hash_live *live, struct rte_mbuf *m,
	    uint32_t *value, uint8_t *type)
{
	uint8_t addr_buf[32], ports_buf[PORTS_LEN]; /* two IPv6 addresses */
	uint32_t ptype, addrs, addrs_off;
	const uint8_t *p;
	bool tcp;

	netif_l2_classify(m);
	ptype = m->packet_type;
	tcp = (ptype & RTE_PTYPE_L4_MASK) == RTE_PTYPE_L4_TCP;
	if (RTE_ETH_IS_IPV4_HDR(ptype)) {
		addrs = 8;
		addrs_off = offsetof(struct rte_ipv4_hdr, src_addr);
	} else if (RTE_ETH_IS_IPV6_HDR(ptype)) {
		addrs = 32;
		addrs_off = offsetof(struct rte_ipv6_hdr, src_addr);
	} else {
		return false;
	}
	if (!hash_type(&live->cfg, addrs == 32, &tcp, type))
		return false;
	/*
	 * The hash is the XOR of what each byte adds at its position: the
	 * addresses and the ports are hashed where they are, not gathered.
	 */
	p = rte_pktmbuf_read(m, m->l2_len + addrs_off, addrs, addr_buf);
	if (p == NULL)
		return false;
	*value = netif_toeplitz(&live->toeplitz, 0, p, addrs);
	if (tcp) {
		p = rte_pktmbuf_read(m, m->l2_len + m->l3_len,
				     sizeof(ports_buf), ports_buf);
		if (p == NULL)
			return false;
		*value ^= netif_toeplitz(&live->toeplitz, addrs, p,
					 sizeof(ports_buf));
	}
	return true;
}

bool
netif_hash_frame(const struct netif_hash_live *live, struct rte_mbuf *m,
		 uint32_t *value, uint8_t *type)
{
	int hashed = hash_common(live, m, value, type);

	if (likely(hashed >= 0))
		return hashed;
	return hash_walked(live, m, value, type);
}

uint32_t
netif_hash_queue(const struct netif_hash_config *cfg, unsigned int nb_queues,
		 uint32_t value)
{
	if (cfg->size == 0)
		return value % nb_queues;
	return cfg->mapping[value % cfg->size];
}
