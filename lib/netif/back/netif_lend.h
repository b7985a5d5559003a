/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Guest TX lent to the application instead of copied: a packet whose every
 * slot lies in a static grant (the netback's zero_copy=1), or one the
 * backend maps for it alone (tx_map_min=, for guests without static
 * grants: Linux netback's grant-mapped TX), becomes a
 * chain whose first mbuf holds a copy of its first NETIF_LEND_HEAD bytes
 * (the headers the backend parses, which the guest can then no longer
 * change under it, as Linux netback copies them; more when the headers an
 * offload completes go further: netif_lend_headers()) and whose other
 * segments are external buffers on the mapped pages themselves,
 * read-only.
 *
 * The packet's requests stay unanswered until the application frees the
 * chain: the free callback, on whatever thread frees it, only marks the
 * loan given back; the queue's next pull answers it (netif_lend_answer()).
 * A loan takes one atomic operation, in its free callback: that counter
 * tells the pull how many loans came back, and the last free after the
 * queue closed that it may free the lender. A bound on
 * the ring slots lent at once leaves half of the guest's TX ring to it
 * whatever the application holds; beyond it packets are copied. A static
 * page that is lent is never unmapped: netif_statics.c asks
 * netif_lend_holds() before it unmaps and waits while it is.
 *
 * Packets that are not in static grants are mapped a pull at a time: one
 * mapping holds the pages of every packet of a pull lent so (a batch): one
 * gntdev call and one hypercall where each packet alone would take its
 * own, as Linux netback maps a whole poll's packets at once. A batch is
 * unmapped, in one go, once the application has freed every packet in it,
 * and its packets are answered then, never before: the guest may reuse its
 * pages once answered. Batches the last reference finds (a port closed, a
 * connection gone) are undone then.
 *
 * A batch the application still holds a packet of after the hold
 * (netif_lend_set_hold()) is let go: its mapping is replaced by a private
 * copy at the same address (xa_gnt_detach(): the mbufs stay valid, a
 * reader never sees the page go) and its packets answered then, so that an
 * application that keeps packets cannot keep a guest's pages, or its grant
 * mappings in Dom0, for ever. Static grants are the guest's to keep
 * shared: their loans are not held to it.
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
#include <xengnttab.h>

#include "netif_back_tx.h"
#include "xa.h"

/* Bytes copied into the first mbuf: Linux netback's XEN_NETBACK_TX_COPY_LEN. */
#define NETIF_LEND_HEAD 128
/*
 * Shorter frames are copied whole: a copy of a few hundred bytes costs
 * less than the extra mbuf and the deferred answer.
 */
#define NETIF_LEND_MIN_LEN (2 * NETIF_LEND_HEAD)
/*
 * Shorter frames in static grants are copied too. At 256 B the lend moved
 * 0.74 times the copy's packets (0.68 in the host's fast mode) and cost
 * the receiver 1.79 times its cycles; at 512 B it moved as many in the
 * fast mode (0.99x) and 1.22-1.29 times as many in the slow one, where
 * the copy's reads of the sender's lines cost most (app/xen-bench, xen f2b
 * within rounds, against zero_copy=0 and against the build before this
 * floor). Linux netback has none: it copies every packet.
 */
#define NETIF_LEND_STATIC_MIN_LEN 512
/* Ring slots lent at once: half of the guest's TX ring. */
#define NETIF_LEND_SLOTS (NETIF_TX_RING_SIZE / 2)

/* Ends a batch's list of loans. */
#define NETIF_LEND_NONE UINT16_MAX

struct netif_lend;

/* One mapping of a pull's packets (netif_lend_map()). */
struct netif_lend_batch {
	void *addr; /* NULL: free */
	uint32_t pages;
	uint16_t held;	/* its loans not given back */
	uint16_t first; /* its loans, by netif_loan.next */
	/* @addr is our copy now, its loans answered (netif_lend_set_hold()). */
	bool let_go;
	uint64_t lent_at; /* timer cycles, for the hold */
};

/* One packet lent: what answers it once the application frees it. */
struct netif_loan {
	struct rte_mbuf_ext_shared_info shinfo;
	struct netif_lend *lend;
	uint32_t gen;			/* the connection it was lent in */
	uint16_t idx;
	int16_t status;			/* the answer: OKAY unless dropped */
	/* The mapping its pages are in; NULL: static grants. */
	struct netif_lend_batch *batch;
	uint16_t next; /* the batch's next loan */
	domid_t domid; /* the guest that granted the pages */
	/* The pages lent, read by the control thread (netif_lend_holds()). */
	uint32_t nr_pages;
	const uint8_t *pages[NETIF_MAX_SLOTS];
	/* What answers it: nr_slots, nr_extras and slots[] (ids, grants). */
	struct netif_tx_packet pkt;
};

/*
 * netif_lend.refs while the owner holds the lender: more than loans are
 * ever lent, so that no free takes it to 0.
 */
#define NETIF_LEND_OWNED (UINT64_C(1) << 62)

struct netif_lend {
	/*
	 * NETIF_LEND_OWNED less the loans the application freed, one atomic
	 * decrement each (any thread), until the owner lets go: it takes away
	 * NETIF_LEND_OWNED less those lent, leaving the loans held, and the
	 * free that takes it to 0 frees the whole (a port closed under held
	 * mbufs).
	 */
	uint64_t refs;
	/* Loans lent (the queue's thread): one plain add each. */
	uint64_t lent;
	/* Loans the pull took back: ahead of the count while a free is between its mark and its decrement. */
	uint64_t seen;
	/* Loans freed, not yet taken by the queue: 1 by index, any thread in. */
	uint8_t back[NETIF_LEND_SLOTS];
	/* Called as the last reference goes (netif_lend_on_last()). */
	void (*on_last)(void *arg);
	void *on_last_arg;
	/* Undoes the batches' mappings; the owner keeps it open meanwhile. */
	struct xa_handle *xa;
	domid_t domid;		 /* the connected guest */
	uint64_t map_packets;	 /* packets lent from a batch */
	uint64_t map_calls;	 /* batches mapped (netif_lend_map()) */
	uint64_t map_failed;	 /* mappings Xen refused */
	uint64_t unmaps;	 /* batches unmapped */
	uint64_t unmap_failed;	 /* of which refused (a bug of ours) */
	uint64_t answered_error; /* loans answered NETIF_RSP_ERROR */
	uint64_t expired;	 /* packets of batches let go (the hold) */
	uint64_t expire_failed;	 /* copies that failed: kept mapped */
	uint64_t hold;		 /* timer cycles; 0: no limit */
	/* When a batch may pass the hold; UINT64_MAX: none mapped since. */
	uint64_t next_hold_check;
	uint32_t gen;
	bool iova_va;			/* lent segments get an IOVA */
	uint16_t slots;			/* ring slots lent, not answered */
	uint16_t nb_free;
	uint16_t free[NETIF_LEND_SLOTS];
	struct netif_loan loans[NETIF_LEND_SLOTS];
	/* A batch has a loan at least: never more of them than of loans. */
	uint16_t nb_free_batches;
	uint16_t free_batches[NETIF_LEND_SLOTS];
	struct netif_lend_batch batches[NETIF_LEND_SLOTS];
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

/*
 * Let go of a mapped loan the application still holds @cycles (timer
 * cycles, rte_get_timer_hz() a second) after it was lent: checked by
 * netif_lend_answer(). 0, the default: never.
 */
void netif_lend_set_hold(struct netif_lend *l, uint64_t cycles);

/* Loans the application holds: what a closing owner must outlive. */
unsigned int netif_lend_held(const struct netif_lend *l);

/*
 * A new connection to guest @domid, whose packets are mapped and unmapped
 * through @xa: loans of the old one are freed without an answer.
 */
void netif_lend_connect(struct netif_lend *l, struct xa_handle *xa,
			domid_t domid);

/*
 * Whether a packet of @len bytes in @nr_slots slots may be lent now,
 * besides @loans packets of @slots ring slots the caller is about to lend:
 * long enough, room under the bound.
 */
static inline bool
netif_lend_room(const struct netif_lend *l, uint32_t len, unsigned int nr_slots,
		unsigned int loans, unsigned int slots)
{
	return l != NULL && l->nb_free > loans && len >= NETIF_LEND_MIN_LEN &&
	       l->slots + slots + nr_slots <= NETIF_LEND_SLOTS;
}

/*
 * Whether every slot of @pkt lies in @statics (its mapped page stored in
 * @pages[slot]).
 */
bool netif_lend_static(const struct netif_tx_packet *pkt,
		       const struct netif_gref_map *statics,
		       const uint8_t **pages);

/*
 * Map the grants of the slots of the @n packets @pkts, which domain @domid
 * gave, read-only in one batch, packet after packet: a packet's first page
 * follows the pages of those before it in @pkts. Every one of them must
 * then be lent from it (netif_lend_build()), the room for all checked
 * before (netif_lend_room()). NULL (counted in map_failed) when Xen
 * refuses it: one grant it refuses fails the whole.
 */
struct netif_lend_batch *
netif_lend_map(struct netif_lend *l, const struct netif_tx_packet *const *pkts,
	       unsigned int n, domid_t domid);

/* Mbufs netif_lend_build() takes for @pkt: the head and one per piece. */
unsigned int netif_lend_mbufs(const struct netif_tx_packet *pkt);

/*
 * Lend @pkt from its @pages, those netif_lend_static() found (@batch NULL)
 * or its own in @batch: chain @mbufs (fresh, netif_lend_mbufs() of them),
 * copy the head, attach the rest. Returns the loan, whose status the
 * caller sets to NETIF_RSP_ERROR before freeing a chain it drops.
 */
struct netif_loan *netif_lend_build(struct netif_lend *l,
				    const struct netif_tx_packet *pkt,
				    const uint8_t *const *pages,
				    struct netif_lend_batch *batch,
				    struct rte_mbuf **mbufs);

/*
 * netif_lend_build() for a packet of one request, @req (copied out of the
 * ring), on @page of the static grants, room checked (netif_lend_room()):
 * the head copied into @head, the rest attached to @tail. Returns @head,
 * whose loan is answered OKAY once the application frees the chain.
 */
struct rte_mbuf *netif_lend_one(struct netif_lend *l,
				const netif_tx_request_t *req,
				const uint8_t *page, struct rte_mbuf *head,
				struct rte_mbuf *tail);

/*
 * Make the headers netif_l2_classify() found in lent @m lie in its copied
 * head, where an offload writes (a checksum) and reads what it trusts:
 * pull what lies past the head out of the lent segments, as Linux netback
 * pulls beyond its copied 128 bytes, and classify again from the copy,
 * since the first walk read pages the guest can still change. False when
 * they do not fit the head or grew in between: the packet is dropped.
 */
bool netif_lend_headers(struct rte_mbuf *m);

/*
 * Answer on @ring every loan the application gave back (queue's thread):
 * those of static grants at once, those of a batch with the whole batch,
 * once it is unmapped; and the loans of batches held past the hold, let go
 * of first. Returns how many were answered.
 */
unsigned int netif_lend_answer(struct netif_lend *l,
			       netif_tx_back_ring_t *ring);

/*
 * Whether the data of @m from byte @off on lies on a lent page, which a
 * grant copy cannot take as its local side (Xen owns it to the guest);
 * if so *@src becomes the grant it came from, for a copy by reference
 * (GNTCOPY_source_gref), as Linux netback copies from a page it maps.
 */
bool netif_lend_source(const struct rte_mbuf *m, uint16_t off,
		       union xengnttab_copy_ptr *src);

/*
 * Whether a loan still holds a page in [@addr, @addr + @len) (control
 * thread, after the queue quiesced on a table without those pages, so
 * that no new loan can take them). @l may be NULL.
 */
bool netif_lend_holds(const struct netif_lend *l, const uint8_t *addr,
		      size_t len);

#endif /* NETIF_LEND_H */
