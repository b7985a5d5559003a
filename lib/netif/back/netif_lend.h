/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest TX lent to the application instead of copied (the netback's
 * zero_copy=1): a packet whose every slot lies in a static grant becomes a
 * chain whose first mbuf holds a copy of its first NETIF_LEND_HEAD bytes
 * (the headers the backend parses, which the guest can then no longer
 * change under it, as Linux netback copies them) and whose other segments
 * are external buffers on the mapped pages themselves, read-only.
 *
 * The packet's requests stay unanswered until the application frees the
 * chain: the free callback, on whatever thread frees it, only queues the
 * loan; the queue's next pull answers it (netif_lend_answer()). A bound on
 * the ring slots lent at once leaves half of the guest's TX ring to it
 * whatever the application holds; beyond it packets are copied. A page
 * that is lent is never unmapped: netif_statics.c asks netif_lend_holds()
 * before it unmaps and waits while it is.
 *
 * The lent segments have no IOVA unless DPDK runs with IOVA as VA, and
 * even then no device has the pages in its IOMMU: they are for
 * applications that forward in software, not for a NIC's DMA.
 */

#ifndef NETIF_LEND_H
#define NETIF_LEND_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_ring.h>

#include "netif_back.h"

/* Bytes copied into the first mbuf: Linux netback's XEN_NETBACK_TX_COPY_LEN. */
#define NETIF_LEND_HEAD 128
/*
 * Shorter frames are copied whole: a copy of a few hundred bytes costs
 * less than the extra mbuf and the deferred answer.
 */
#define NETIF_LEND_MIN_LEN (2 * NETIF_LEND_HEAD)
/* Ring slots lent at once: half of the guest's TX ring. */
#define NETIF_LEND_SLOTS (NETIF_TX_RING_SIZE / 2)

struct netif_lend;

/* One packet lent: what answers it once the application frees it. */
struct netif_loan {
	struct rte_mbuf_ext_shared_info shinfo;
	struct netif_lend *lend;
	uint32_t gen;			/* the connection it was lent in */
	uint16_t idx;
	int16_t status;			/* the answer: OKAY unless dropped */
	/* The pages lent, read by the control thread (netif_lend_holds()). */
	uint32_t nr_pages;
	const uint8_t *pages[NETIF_MAX_SLOTS];
	struct netif_tx_packet pkt;
};

struct netif_lend {
	/* Loans the application freed, by index: any thread in, the queue out. */
	struct rte_ring *returned;
	/*
	 * References: the owner's, and one per loan the application holds;
	 * the last one frees the whole (a port closed under held mbufs).
	 */
	uint32_t refs;
	/* Called as the last reference goes (netif_lend_on_last()). */
	void (*on_last)(void *arg);
	void *on_last_arg;
	uint32_t gen;
	uint16_t slots;			/* ring slots lent, not answered */
	uint16_t nb_free;
	uint16_t free[NETIF_LEND_SLOTS];
	struct netif_loan loans[NETIF_LEND_SLOTS];
};

/* A lender for queue @name on NUMA socket @socket; NULL (rte_errno) on failure. */
struct netif_lend *netif_lend_create(const char *name, int socket);

/*
 * Drop the owner's reference: the lender is freed now, or by the free of
 * the last mbuf the application still holds. Returns the loans still held.
 */
unsigned int netif_lend_destroy(struct netif_lend *l);

/*
 * Have @fn(@arg) called when the last reference goes, on the thread that
 * drops it: the owner's cleanup of what the loans still used (the mapped
 * pages) when the application gives them back after the port closed.
 */
void netif_lend_on_last(struct netif_lend *l, void (*fn)(void *arg),
			void *arg);

/* A new connection: loans of the old one are freed without an answer. */
void netif_lend_connect(struct netif_lend *l);

/*
 * Whether @pkt may be lent now: long enough, no offload that would write
 * into it, every slot in @statics (its mapped page stored in @pages[slot]),
 * room under the bound.
 */
bool netif_lend_fits(const struct netif_lend *l,
		     const struct netif_tx_packet *pkt,
		     const struct netif_gref_map *statics,
		     const uint8_t **pages);

/* Mbufs netif_lend_build() takes for @pkt: the head and one per piece. */
unsigned int netif_lend_mbufs(const struct netif_tx_packet *pkt);

/*
 * Lend @pkt from the @pages netif_lend_fits() found: chain @mbufs (fresh,
 * netif_lend_mbufs() of them), copy the head, attach the rest. Returns the
 * loan, whose status the caller sets to NETIF_RSP_ERROR before freeing a
 * chain it drops.
 */
struct netif_loan *netif_lend_build(struct netif_lend *l,
				    const struct netif_tx_packet *pkt,
				    const uint8_t *const *pages,
				    struct rte_mbuf **mbufs);

/*
 * Answer on @ring every loan the application gave back (queue's thread).
 * Returns how many were answered.
 */
unsigned int netif_lend_answer(struct netif_lend *l,
			       netif_tx_back_ring_t *ring);

/*
 * Whether a loan still holds a page in [@addr, @addr + @len) (control
 * thread, after the queue quiesced on a table without those pages, so
 * that no new loan can take them). @l may be NULL.
 */
bool netif_lend_holds(const struct netif_lend *l, const uint8_t *addr,
		      size_t len);

#endif /* NETIF_LEND_H */
