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
 * chain: the free callback, on whatever thread frees it, only queues the
 * loan; the queue's next pull answers it (netif_lend_answer()). A bound on
 * the ring slots lent at once leaves half of the guest's TX ring to it
 * whatever the application holds; beyond it packets are copied. A static
 * page that is lent is never unmapped: netif_statics.c asks
 * netif_lend_holds() before it unmaps and waits while it is. A packet's own
 * mapping is undone by the queue that answers it, before the answer (the
 * guest may reuse its pages once answered), all of a pull's in one go;
 * those the last reference finds (a port closed, a connection gone) are
 * undone then.
 *
 * A mapped packet the application holds longer than the hold
 * (netif_lend_set_hold()) is let go: its mapping is replaced by a private
 * copy at the same address (xa_gnt_detach(): the mbufs stay valid, a
 * reader never sees the page go) and the guest is answered then, so that
 * an application that keeps packets cannot keep a guest's pages, or its
 * grant mappings in Dom0, for ever. Static grants are the guest's to keep
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
#include <rte_ring.h>
#include <xengnttab.h>

#include "netif_back.h"
#include "xa.h"

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
	/* Its own mapping of nr_pages pages (netif_lend_map()); NULL: static. */
	void *map;
	/* @map is our copy now, the guest answered (netif_lend_set_hold()). */
	bool let_go;
	uint64_t lent_at; /* timer cycles, for the hold */
	domid_t domid; /* the guest that granted the pages */
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
	/* Undoes the loans' own mappings; the owner keeps it open meanwhile. */
	struct xa_handle *xa;
	domid_t domid;		 /* the connected guest */
	uint64_t maps;		 /* packets mapped (netif_lend_map()) */
	uint64_t map_failed;	 /* of which refused: copied instead */
	uint64_t unmaps;	 /* their mappings undone */
	uint64_t unmap_failed;	 /* of which refused (a bug of ours) */
	uint64_t answered_error; /* loans answered NETIF_RSP_ERROR */
	uint64_t expired;	 /* mapped loans held past the hold: let go */
	uint64_t expire_failed;	 /* copies that failed: kept mapped */
	uint64_t hold;		 /* timer cycles; 0: no limit */
	/* When a loan may pass the hold; UINT64_MAX: none lent since. */
	uint64_t next_hold_check;
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

/* Whether @pkt may be lent now: long enough, room under the bound. */
bool netif_lend_room(const struct netif_lend *l,
		     const struct netif_tx_packet *pkt);

/*
 * Whether every slot of @pkt lies in @statics (its mapped page stored in
 * @pages[slot]).
 */
bool netif_lend_static(const struct netif_tx_packet *pkt,
		       const struct netif_gref_map *statics,
		       const uint8_t **pages);

/*
 * Map the grants of @pkt's slots, which domain @domid gave, read-only in
 * one mapping; their pages are stored in @pages[slot]. Returns the mapping
 * for netif_lend_build(), or NULL (counted in map_failed) when Xen refuses
 * it: the packet is then copied, and the copy finds any bad grant.
 */
void *netif_lend_map(struct netif_lend *l, const struct netif_tx_packet *pkt,
		     domid_t domid, const uint8_t **pages);

/* Undo a mapping netif_lend_map() made that no loan took. */
void netif_lend_unmap(struct netif_lend *l, const struct netif_tx_packet *pkt,
		      void *map);

/* Mbufs netif_lend_build() takes for @pkt: the head and one per piece. */
unsigned int netif_lend_mbufs(const struct netif_tx_packet *pkt);

/*
 * Lend @pkt from the @pages netif_lend_static() or netif_lend_map() found
 * (@map: what the latter returned, NULL for the former): chain @mbufs
 * (fresh, netif_lend_mbufs() of them), copy the head, attach the rest.
 * Returns the loan, whose status the caller sets to NETIF_RSP_ERROR before
 * freeing a chain it drops.
 */
struct netif_loan *netif_lend_build(struct netif_lend *l,
				    const struct netif_tx_packet *pkt,
				    const uint8_t *const *pages, void *map,
				    struct rte_mbuf **mbufs);

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
 * Answer on @ring every loan the application gave back (queue's thread),
 * each one's own mapping undone first, and those it held past the hold,
 * let go of first. Returns how many were answered.
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
