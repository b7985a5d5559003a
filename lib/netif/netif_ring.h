/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The netif wire format, as Xen's public headers define it, for userspace
 * built with DPDK, and the loads and stores of the shared ring indexes.
 * Every file that touches a netif ring includes this header instead of
 * xen/io/netif.h.
 *
 * ring.h leaves its barriers to the includer; they map to DPDK's SMP
 * barriers for the macros that still use them (ring set-up). The data path
 * reads and publishes indexes through the functions below instead of
 * RING_PUSH_*_AND_CHECK_NOTIFY: those store the index with a plain write
 * after xen_wmb(), a barrier that orders earlier stores only. A producer
 * index also tells the peer that we are done *reading* the slots it
 * covers (a backend's responses free the request slots the frontend
 * refills), so it must be a release store, which orders earlier loads
 * too; and the peer's index is an acquire load, so that no slot is read
 * before the index that published it. The rule of ring.h's comments is
 * kept: a full barrier between publishing our index and reading the peer's
 * event index, or both ends may decide the other needs no notification.
 */

#ifndef NETIF_RING_H
#define NETIF_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_atomic.h>

#define xen_mb()  rte_smp_mb()
#define xen_rmb() rte_smp_rmb()
#define xen_wmb() rte_smp_wmb()

#include <xen/xen.h>
#include <xen/grant_table.h>
#include <xen/io/netif.h>

#define NETIF_PAGE_SIZE 4096u
#define NETIF_TX_RING_SIZE __CONST_RING_SIZE(netif_tx, NETIF_PAGE_SIZE)
#define NETIF_RX_RING_SIZE __CONST_RING_SIZE(netif_rx, NETIF_PAGE_SIZE)
#define NETIF_CTRL_RING_SIZE \
	__CONST_RING_SIZE(xen_netif_ctrl, NETIF_PAGE_SIZE)

/* Slots (pages) a frame of @len bytes takes, packed densely, either ring. */
static inline unsigned int
netif_slots_for(uint32_t len)
{
	return len == 0 ? 1 : (len + NETIF_PAGE_SIZE - 1) / NETIF_PAGE_SIZE;
}

/*
 * Debian's Xen 4.17 netif.h predates the XDP extra of Linux's copy: type
 * 5, whose first 16 bits say at which offset of its first page a frame
 * sent to the guest starts (the headroom the frontend asked for with its
 * xdp-headroom key, at most 0x7FFF). Beyond the header's
 * XEN_NETIF_EXTRA_TYPE_MAX: only a backend that offers
 * feature-xdp-headroom sends it.
 */
#ifndef XEN_NETIF_EXTRA_TYPE_XDP
#define XEN_NETIF_EXTRA_TYPE_XDP 5
#endif
#ifndef XEN_NETIF_MAX_XDP_HEADROOM
#define XEN_NETIF_MAX_XDP_HEADROOM 0x7FFF
#endif
/*
 * The most headroom we leave: half a page, so that a standard frame
 * still fits the first slot.
 */
#define NETIF_XDP_HEADROOM_MAX (NETIF_PAGE_SIZE / 2)

/* Every backend must accept packets of up to this many slots (netif.h). */
#define NETIF_MAX_SLOTS XEN_NETIF_NR_SLOTS_MIN

/* The peer's producer index, before any slot it covers is read. */
static inline RING_IDX
netif_ring_peer_prod(const RING_IDX *prod)
{
	return __atomic_load_n(prod, __ATOMIC_ACQUIRE);
}

/*
 * Publish @new_prod as our producer index @prod (we are its only writer)
 * and tell whether the peer's event index @event lies in the range just
 * published, i.e. whether the peer asked to be notified: the test of
 * RING_PUSH_*_AND_CHECK_NOTIFY.
 */
static inline bool
netif_ring_publish(RING_IDX *prod, RING_IDX new_prod, const RING_IDX *event)
{
	RING_IDX old = __atomic_load_n(prod, __ATOMIC_RELAXED);
	RING_IDX ev;

	__atomic_store_n(prod, new_prod, __ATOMIC_RELEASE);
	/* The index is visible before we look at the event index. */
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	ev = __atomic_load_n(event, __ATOMIC_RELAXED);
	return (RING_IDX)(new_prod - ev) < (RING_IDX)(new_prod - old);
}

/*
 * Before sleeping on the peer's event channel: ask to be notified when
 * the peer publishes anything past @cons, our consumer index of its
 * producer index @prod (our event index for it is @event), then tell
 * whether it already has, so that the caller polls instead of sleeping.
 * This is RING_FINAL_CHECK_FOR_*: the full barrier between storing the
 * event index and reading the producer index pairs with the peer's
 * between publishing and reading the event index, so that at least one
 * of the two sees the other's store and no wakeup is lost. While we
 * poll, the event index stays where the last arming left it, behind the
 * peer's producer index: the peer sends nothing.
 */
static inline bool
netif_ring_arm(RING_IDX *event, RING_IDX cons, const RING_IDX *prod)
{
	__atomic_store_n(event, cons + 1, __ATOMIC_RELAXED);
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	return netif_ring_peer_prod(prod) != cons;
}

/* What publishing a ring index asks of the caller. */
enum netif_doorbell {
	NETIF_DOORBELL_NONE,	/* nothing was published */
	NETIF_DOORBELL_QUIET,	/* published; the peer's event index did not ask */
	NETIF_DOORBELL_RING,	/* published; notify the peer */
};

static inline enum netif_doorbell
netif_doorbell(bool notify)
{
	return notify ? NETIF_DOORBELL_RING : NETIF_DOORBELL_QUIET;
}

/* Publish a front ring's requests / a back ring's responses. */
#define NETIF_PUSH_REQUESTS(r) \
	netif_ring_publish(&(r)->sring->req_prod, (r)->req_prod_pvt, \
			   &(r)->sring->req_event)
#define NETIF_PUSH_RESPONSES(r) \
	netif_ring_publish(&(r)->sring->rsp_prod, (r)->rsp_prod_pvt, \
			   &(r)->sring->rsp_event)

#endif /* NETIF_RING_H */
