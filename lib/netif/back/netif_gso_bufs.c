/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The buffers for large segments (see netif_gso_bufs.h): a mempool without
 * per-lcore cache (a buffer freed into another lcore's cache would never
 * come back to be counted), each element the buffer's shared info and
 * set, then the buffer, placed in the element's first page of it where
 * the frame is to start. The set's reference count is the owner's one plus one per
 * buffer out; the return that drops the last frees the mempool, after its
 * put: nothing of it is touched once the put returns.
 */

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mempool.h>

#include "netif_gso_bufs.h"
#include "netif_ring.h"

#define BUF_LEN UINT16_MAX /* the largest a netif frame is */

struct netif_gso_bufs {
	struct rte_mempool *mp;
	uint32_t users;
};

/*
 * A buffer's element: this header, then up to a page less a byte of
 * padding (where the frame starts in a page), then BUF_LEN bytes.
 */
struct buf_hdr {
	struct rte_mbuf_ext_shared_info shinfo;
	struct netif_gso_bufs *set;
};

#define BUF_OFF RTE_ALIGN_CEIL(sizeof(struct buf_hdr), RTE_CACHE_LINE_SIZE)
#define BUF_PAD_MAX (NETIF_PAGE_SIZE - 1)

static void
bufs_unref(struct netif_gso_bufs *b)
{
	if (__atomic_sub_fetch(&b->users, 1, __ATOMIC_ACQ_REL) == 0) {
		rte_mempool_free(b->mp);
		rte_free(b);
	}
}

struct netif_gso_bufs *
netif_gso_bufs_create(const char *name, unsigned int n, int socket)
{
	struct netif_gso_bufs *b;

	b = rte_zmalloc_socket(name, sizeof(*b), 0, socket);
	if (b == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	b->mp = rte_mempool_create(name, n, BUF_OFF + BUF_PAD_MAX + BUF_LEN, 0,
				   0, NULL, NULL, NULL, NULL, socket, 0);
	if (b->mp == NULL) {
		rte_free(b);
		return NULL;
	}
	b->users = 1;
	return b;
}

unsigned int
netif_gso_bufs_release(struct netif_gso_bufs *b)
{
	unsigned int out;

	if (b == NULL)
		return 0;
	out = __atomic_load_n(&b->users, __ATOMIC_ACQUIRE) - 1;
	bufs_unref(b);
	return out;
}

/* shinfo's free_cb: the last mbuf attached to a buffer was freed. */
static void
buf_return(void *buf __rte_unused, void *opaque)
{
	struct buf_hdr *h = opaque;
	struct netif_gso_bufs *b = h->set;

	rte_mempool_put(b->mp, h);
	bufs_unref(b);
}

bool
netif_gso_buf_attach(struct netif_gso_bufs *b, struct rte_mbuf *m,
		     uint16_t page_off)
{
	uintptr_t start;
	struct buf_hdr *h;
	uint16_t pad;
	void *elt;

	if (rte_mempool_get(b->mp, &elt) != 0)
		return false;
	__atomic_add_fetch(&b->users, 1, __ATOMIC_RELAXED);
	h = elt;
	h->set = b;
	h->shinfo.free_cb = buf_return;
	h->shinfo.fcb_opaque = h;
	rte_mbuf_ext_refcnt_set(&h->shinfo, 1);
	start = (uintptr_t)elt + BUF_OFF;
	pad = (page_off - (start + RTE_PKTMBUF_HEADROOM)) &
	      (NETIF_PAGE_SIZE - 1);
	rte_pktmbuf_attach_extbuf(m, (void *)(start + pad),
				  rte_mempool_virt2iova(elt) + BUF_OFF + pad,
				  BUF_LEN, &h->shinfo);
	m->data_off = RTE_PKTMBUF_HEADROOM;
	return true;
}
