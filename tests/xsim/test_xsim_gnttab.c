/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Grant tables of the simulated hypervisor: sharing, mapping and copying
 * obey Xen's rules (the entry must permit access to the domain using it,
 * read-only grants are never written, a copy stays inside its page) and
 * fail with Xen's status codes. Domain 1 plays the frontend, domain 2 the
 * backend, domain 3 an unrelated guest.
 */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <numa.h>
#include <numaif.h>

#include "test.h"
#include "xsim_test.h"

#define FE XSIM_FE
#define BE XSIM_BE
#define OTHER XSIM_OTHER
#define PAGE XA_PAGE_SIZE

/* Xen fails a grant that does not permit the access with this status. */
#define BAD_ENTRY GNTST_general_error

static void
seg_to_gref(xengnttab_grant_copy_segment_t *s, void *src, domid_t domid,
	    grant_ref_t ref, uint16_t offset, uint16_t len)
{
	memset(s, 0, sizeof(*s));
	s->source.virt = src;
	s->dest.foreign.domid = domid;
	s->dest.foreign.ref = ref;
	s->dest.foreign.offset = offset;
	s->len = len;
	s->flags = GNTCOPY_dest_gref;
	s->status = GNTST_general_error;
}

static void
seg_from_gref(xengnttab_grant_copy_segment_t *s, void *dst, domid_t domid,
	      grant_ref_t ref, uint16_t offset, uint16_t len)
{
	memset(s, 0, sizeof(*s));
	s->dest.virt = dst;
	s->source.foreign.domid = domid;
	s->source.foreign.ref = ref;
	s->source.foreign.offset = offset;
	s->len = len;
	s->flags = GNTCOPY_source_gref;
	s->status = GNTST_general_error;
}

static bool
all_bytes(const uint8_t *p, size_t len, uint8_t v)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != v)
			return false;
	return true;
}

static void
test_share_gives_zeroed_pages_with_distinct_refs(struct xsim_peers *p)
{
	grant_ref_t refs[3];
	uint8_t *pages;

	pages = xa_gnt_share(p->fe, BE, 3, refs, true);
	REQUIRE(pages != NULL);
	CHECK(all_bytes(pages, 3 * PAGE, 0));
	CHECK(refs[0] != refs[1] && refs[1] != refs[2] && refs[0] != refs[2]);
	memset(pages, 0xab, 3 * PAGE);
	CHECK(xa_gnt_unshare(p->fe, pages, 3) == 0);
}

static void
test_reserved_refs_are_never_handed_out(struct xsim_peers *p)
{
	grant_ref_t refs[64];
	uint8_t *pages;
	unsigned int i;

	pages = xa_gnt_share(p->fe, BE, 64, refs, true);
	REQUIRE(pages != NULL);
	for (i = 0; i < 64; i++)
		CHECK(refs[i] >= GNTTAB_NR_RESERVED_ENTRIES);
	CHECK(xa_gnt_unshare(p->fe, pages, 64) == 0);
}

static void
test_share_to_impossible_domain_is_einval(struct xsim_peers *p)
{
	grant_ref_t ref;

	errno = 0;
	CHECK(xa_gnt_share(p->fe, 1000, 1, &ref, true) == NULL);
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(xa_gnt_share(p->fe, BE, 0, &ref, true) == NULL);
	CHECK(errno == EINVAL);
}

static void
test_backend_maps_granted_pages_both_ways(struct xsim_peers *p)
{
	grant_ref_t refs[2];
	uint8_t *fe, *be;

	fe = xa_gnt_share(p->fe, BE, 2, refs, true);
	REQUIRE(fe != NULL);
	memset(fe, 0x11, PAGE);
	memset(fe + PAGE, 0x22, PAGE);
	be = xa_gnt_map(p->be, FE, 2, refs, true);
	REQUIRE(be != NULL);
	CHECK(all_bytes(be, PAGE, 0x11));
	CHECK(all_bytes(be + PAGE, PAGE, 0x22));
	be[PAGE + 7] = 0x99;
	CHECK(fe[PAGE + 7] == 0x99);
	CHECK(xa_gnt_unmap(p->be, be, 2) == 0);
	CHECK(xa_gnt_unshare(p->fe, fe, 2) == 0);
}

static void
test_foreign_domain_cannot_use_grant(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg;
	grant_ref_t ref;
	uint8_t *fe, buf[16];

	fe = xa_gnt_share(p->fe, BE, 1, &ref, true);
	REQUIRE(fe != NULL);
	errno = 0;
	CHECK(xa_gnt_map(p->other, FE, 1, &ref, false) == NULL);
	CHECK(errno == EINVAL);
	seg_from_gref(&seg, buf, FE, ref, 0, sizeof(buf));
	CHECK(xa_gnt_copy(p->other, 1, &seg) == 0);
	CHECK(seg.status == BAD_ENTRY);
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
}

static void
test_map_of_out_of_range_ref_fails(struct xsim_peers *p)
{
	grant_ref_t ref = 8192;

	errno = 0;
	CHECK(xa_gnt_map(p->be, FE, 1, &ref, false) == NULL);
	CHECK(errno == EINVAL);
}

static void
test_map_of_ungranted_ref_fails(struct xsim_peers *p)
{
	grant_ref_t ref = GNTTAB_RESERVED_XENSTORE;

	errno = 0;
	CHECK(xa_gnt_map(p->be, FE, 1, &ref, false) == NULL);
	CHECK(errno == EINVAL);
	ref = 4000;
	CHECK(xa_gnt_map(p->be, FE, 1, &ref, false) == NULL);
}

static void
test_map_from_unknown_domain_fails(struct xsim_peers *p)
{
	grant_ref_t ref = GNTTAB_NR_RESERVED_ENTRIES;

	errno = 0;
	CHECK(xa_gnt_map(p->be, 40, 1, &ref, false) == NULL);
	CHECK(errno == EINVAL);
}

static void
test_map_fails_whole_if_one_ref_is_bad(struct xsim_peers *p)
{
	grant_ref_t refs[2];
	struct xsim_usage u;
	uint8_t *fe;

	fe = xa_gnt_share(p->fe, BE, 1, refs, true);
	REQUIRE(fe != NULL);
	refs[1] = 8191;
	CHECK(xa_gnt_map(p->be, FE, 2, refs, false) == NULL);
	CHECK(usage_of(BE, &u) == 0 && u.maps == 0);
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
}

static void
test_writable_map_of_readonly_grant_is_refused(struct xsim_peers *p)
{
	grant_ref_t ref;
	uint8_t *fe, *be;

	fe = xa_gnt_share(p->fe, BE, 1, &ref, false);
	REQUIRE(fe != NULL);
	errno = 0;
	CHECK(xa_gnt_map(p->be, FE, 1, &ref, true) == NULL);
	CHECK(errno == EINVAL);
	be = xa_gnt_map(p->be, FE, 1, &ref, false);
	CHECK(be != NULL);
	if (be != NULL)
		CHECK(xa_gnt_unmap(p->be, be, 1) == 0);
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
}

static void
test_readonly_map_is_not_writable(struct xsim_peers *p)
{
	grant_ref_t ref;
	uint8_t *fe;
	volatile uint8_t *be;
	pid_t pid;
	int status;

	fe = xa_gnt_share(p->fe, BE, 1, &ref, true);
	REQUIRE(fe != NULL);
	fe[5] = 0x5a;
	be = xa_gnt_map(p->be, FE, 1, &ref, false);
	REQUIRE(be != NULL);
	CHECK(be[5] == 0x5a);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		/* The fault itself is the verdict, not a sanitizer's report. */
		signal(SIGSEGV, SIG_DFL);
		be[5] = 0;
		_exit(0);
	}
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	CHECK(fe[5] == 0x5a);
	CHECK(xa_gnt_unmap(p->be, (void *)(uintptr_t)be, 1) == 0);
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
}

static void
test_copy_into_and_out_of_grant(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg[2];
	uint8_t src[100], dst[100];
	grant_ref_t ref;
	uint8_t *fe;

	fe = xa_gnt_share(p->fe, BE, 1, &ref, true);
	REQUIRE(fe != NULL);
	memset(src, 0x77, sizeof(src));
	memset(dst, 0, sizeof(dst));
	seg_to_gref(&seg[0], src, FE, ref, 3996, 100);
	CHECK(xa_gnt_copy(p->be, 1, seg) == 0);
	CHECK(seg[0].status == GNTST_okay);
	CHECK(all_bytes(fe + 3996, 100, 0x77));
	CHECK(fe[3995] == 0);
	fe[10] = 0x42;
	seg_from_gref(&seg[1], dst, FE, ref, 10, 1);
	CHECK(xa_gnt_copy(p->be, 1, &seg[1]) == 0);
	CHECK(seg[1].status == GNTST_okay);
	CHECK(dst[0] == 0x42);
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
}

static void
test_copy_between_two_grants(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg;
	grant_ref_t ref[2];
	uint8_t *fe;

	fe = xa_gnt_share(p->fe, BE, 2, ref, true);
	REQUIRE(fe != NULL);
	memset(fe, 0x31, 64);
	memset(&seg, 0, sizeof(seg));
	seg.source.foreign.domid = FE;
	seg.source.foreign.ref = ref[0];
	seg.dest.foreign.domid = FE;
	seg.dest.foreign.ref = ref[1];
	seg.dest.foreign.offset = 100;
	seg.len = 64;
	seg.flags = GNTCOPY_source_gref | GNTCOPY_dest_gref;
	CHECK(xa_gnt_copy(p->be, 1, &seg) == 0);
	CHECK(seg.status == GNTST_okay);
	CHECK(all_bytes(fe + PAGE + 100, 64, 0x31));
	CHECK(xa_gnt_unshare(p->fe, fe, 2) == 0);
}

/*
 * A copy's local side on a page the caller maps from another domain, by
 * the same handle or another of the process: Xen's get_page() of a frame
 * the caller does not own fails, GNTST_bad_page (a copy by the grant
 * itself goes through: test_copy_between_two_grants).
 */
static void
test_copy_from_or_to_a_mapped_page_is_bad_page(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg;
	struct xa_handle *be2 = open_dom(BE);
	uint8_t *fe, *mapped;
	grant_ref_t ref[2];

	REQUIRE(be2 != NULL);
	fe = xa_gnt_share(p->fe, BE, 2, ref, true);
	REQUIRE(fe != NULL);
	mapped = xa_gnt_map(p->be, FE, 1, ref, true);
	REQUIRE(mapped != NULL);
	memset(fe, 0x5c, 64);
	seg_to_gref(&seg, mapped, FE, ref[1], 0, 64);
	CHECK(xa_gnt_copy(p->be, 1, &seg) == 0);
	CHECK(seg.status == GNTST_bad_page);
	CHECK(xa_gnt_copy(be2, 1, &seg) == 0);
	CHECK(seg.status == GNTST_bad_page);
	seg_from_gref(&seg, mapped + 100, FE, ref[1], 0, 64);
	CHECK(xa_gnt_copy(be2, 1, &seg) == 0);
	CHECK(seg.status == GNTST_bad_page);
	CHECK(all_bytes(fe + PAGE, 64, 0));
	CHECK(xa_gnt_unmap(p->be, mapped, 1) == 0);
	xa_close(be2);
	CHECK(xa_gnt_unshare(p->fe, fe, 2) == 0);
}

static void
test_copy_into_readonly_grant_is_denied(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg;
	uint8_t src[32];
	grant_ref_t ref;
	uint8_t *fe;

	fe = xa_gnt_share(p->fe, BE, 1, &ref, false);
	REQUIRE(fe != NULL);
	memset(src, 0xee, sizeof(src));
	seg_to_gref(&seg, src, FE, ref, 0, sizeof(src));
	CHECK(xa_gnt_copy(p->be, 1, &seg) == 0);
	CHECK(seg.status == BAD_ENTRY);
	CHECK(all_bytes(fe, PAGE, 0));
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
}

static void
test_copy_from_readonly_grant_is_allowed(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg;
	uint8_t dst[8] = { 0 };
	grant_ref_t ref;
	uint8_t *fe;

	fe = xa_gnt_share(p->fe, BE, 1, &ref, false);
	REQUIRE(fe != NULL);
	memset(fe, 0x13, 8);
	seg_from_gref(&seg, dst, FE, ref, 0, 8);
	CHECK(xa_gnt_copy(p->be, 1, &seg) == 0);
	CHECK(seg.status == GNTST_okay);
	CHECK(all_bytes(dst, 8, 0x13));
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
}

static void
test_copy_segment_crossing_page_is_bad_copy_arg(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg[2];
	uint8_t buf[200];
	grant_ref_t ref;
	uint8_t *fe;

	fe = xa_gnt_share(p->fe, BE, 1, &ref, true);
	REQUIRE(fe != NULL);
	memset(buf, 0x66, sizeof(buf));
	seg_to_gref(&seg[0], buf, FE, ref, 4000, 97);
	seg_from_gref(&seg[1], buf, FE, ref, 3000, 1097);
	CHECK(xa_gnt_copy(p->be, 2, seg) == 0);
	CHECK(seg[0].status == GNTST_bad_copy_arg);
	CHECK(seg[1].status == GNTST_bad_copy_arg);
	CHECK(all_bytes(fe, PAGE, 0));
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
}

static void
test_copy_from_ungranted_ref_fails(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg;
	uint8_t buf[8];

	seg_from_gref(&seg, buf, FE, 5000, 0, sizeof(buf));
	CHECK(xa_gnt_copy(p->be, 1, &seg) == 0);
	CHECK(seg.status == BAD_ENTRY);
	seg_from_gref(&seg, buf, FE, GNTTAB_RESERVED_CONSOLE, 0, sizeof(buf));
	CHECK(xa_gnt_copy(p->be, 1, &seg) == 0);
	CHECK(seg.status == BAD_ENTRY);
}

static void
test_copy_with_out_of_range_ref_is_bad_gntref(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg;
	uint8_t buf[8];

	seg_to_gref(&seg, buf, FE, 8192, 0, sizeof(buf));
	CHECK(xa_gnt_copy(p->be, 1, &seg) == 0);
	CHECK(seg.status == GNTST_bad_gntref);
	seg_from_gref(&seg, buf, FE, UINT32_MAX, 0, sizeof(buf));
	CHECK(xa_gnt_copy(p->be, 1, &seg) == 0);
	CHECK(seg.status == GNTST_bad_gntref);
}

static void
test_copy_with_unknown_domain_is_bad_domain(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg;
	uint8_t buf[8];

	seg_from_gref(&seg, buf, 50, GNTTAB_NR_RESERVED_ENTRIES, 0, 8);
	CHECK(xa_gnt_copy(p->be, 1, &seg) == 0);
	CHECK(seg.status == GNTST_bad_domain);
	seg_to_gref(&seg, buf, DOMID_FIRST_RESERVED, 8, 0, 8);
	CHECK(xa_gnt_copy(p->be, 1, &seg) == 0);
	CHECK(seg.status == GNTST_bad_domain);
}

static void
test_failing_segment_does_not_stop_the_others(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg[4];
	uint8_t a[16], b[16];
	grant_ref_t ref;
	uint8_t *fe;

	fe = xa_gnt_share(p->fe, BE, 1, &ref, true);
	REQUIRE(fe != NULL);
	memset(a, 0xa1, sizeof(a));
	memset(b, 0xb2, sizeof(b));
	seg_to_gref(&seg[0], a, FE, 8192, 0, 16);
	seg_to_gref(&seg[1], a, FE, ref, 0, 16);
	seg_to_gref(&seg[2], b, FE, ref, 4090, 16);
	seg_to_gref(&seg[3], b, FE, ref, 16, 16);
	CHECK(xa_gnt_copy(p->be, 4, seg) == 0);
	CHECK(seg[0].status == GNTST_bad_gntref);
	CHECK(seg[1].status == GNTST_okay);
	CHECK(seg[2].status == GNTST_bad_copy_arg);
	CHECK(seg[3].status == GNTST_okay);
	CHECK(all_bytes(fe, 16, 0xa1));
	CHECK(all_bytes(fe + 16, 16, 0xb2));
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
}

static void
test_unshared_grant_cannot_be_used(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg;
	uint8_t buf[8];
	grant_ref_t ref;
	uint8_t *fe;

	fe = xa_gnt_share(p->fe, BE, 1, &ref, true);
	REQUIRE(fe != NULL);
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
	CHECK(xa_gnt_map(p->be, FE, 1, &ref, false) == NULL);
	seg_from_gref(&seg, buf, FE, ref, 0, 8);
	CHECK(xa_gnt_copy(p->be, 1, &seg) == 0);
	CHECK(seg.status == BAD_ENTRY);
}

static void
test_unshare_of_mapped_page_defers_free(struct xsim_peers *p)
{
	struct xsim_usage u;
	grant_ref_t ref;
	uint8_t *fe, *be;

	fe = xa_gnt_share(p->fe, BE, 1, &ref, true);
	REQUIRE(fe != NULL);
	memset(fe, 0x3c, PAGE);
	be = xa_gnt_map(p->be, FE, 1, &ref, true);
	REQUIRE(be != NULL);
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
	CHECK(usage_of(FE, &u) == 0 && u.grants == 0);
	CHECK(usage_of(BE, &u) == 0 && u.maps == 1);
	/* The backend's mapping still holds the page, not a recycled one. */
	fe = xa_gnt_share(p->fe, BE, 1, &ref, true);
	REQUIRE(fe != NULL);
	CHECK(all_bytes(fe, PAGE, 0));
	CHECK(all_bytes(be, PAGE, 0x3c));
	be[0] = 1;
	CHECK(fe[0] == 0);
	CHECK(xa_gnt_unmap(p->be, be, 1) == 0);
	CHECK(usage_of(BE, &u) == 0 && u.maps == 0);
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
}

/*
 * A detached mapping: the same bytes at the same address, now the
 * backend's own (a copy may take it as its local side), the grants no
 * longer mapped, and the guest's later writes not seen.
 */
static void
test_detach_leaves_a_copy_and_releases_the_grants(struct xsim_peers *p)
{
	xengnttab_grant_copy_segment_t seg;
	struct xsim_usage u;
	grant_ref_t ref[3];
	uint8_t *fe, *be;

	fe = xa_gnt_share(p->fe, BE, 3, ref, true);
	REQUIRE(fe != NULL);
	memset(fe, 0x71, 2 * PAGE);
	be = xa_gnt_map(p->be, FE, 2, ref, false);
	REQUIRE(be != NULL);
	CHECK(usage_of(BE, &u) == 0 && u.maps == 2);
	CHECK(xa_gnt_detach(p->be, be, 1) == -1 && errno == EINVAL);
	CHECK(xa_gnt_detach(p->be, be + PAGE, 2) == -1 && errno == EINVAL);
	CHECK(xa_gnt_detach(p->be, be, 2) == 0);
	CHECK(usage_of(BE, &u) == 0 && u.maps == 0);
	CHECK(all_bytes(be, 2 * PAGE, 0x71));
	memset(fe, 0x02, 2 * PAGE);
	CHECK(all_bytes(be, 2 * PAGE, 0x71));
	seg_to_gref(&seg, be + PAGE, FE, ref[2], 0, 64);
	CHECK(xa_gnt_copy(p->be, 1, &seg) == 0);
	CHECK(seg.status == GNTST_okay && all_bytes(fe + 2 * PAGE, 64, 0x71));
	CHECK(xa_gnt_unmap(p->be, be, 2) == -1 && errno == EINVAL);
	CHECK(munmap(be, 2 * PAGE) == 0);
	CHECK(xa_gnt_unshare(p->fe, fe, 3) == 0);
}

static void
test_unmap_and_unshare_of_unknown_range_fail(struct xsim_peers *p)
{
	grant_ref_t refs[2];
	uint8_t *fe;

	fe = xa_gnt_share(p->fe, BE, 2, refs, true);
	REQUIRE(fe != NULL);
	errno = 0;
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == -1);
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(xa_gnt_unmap(p->be, fe, 2) == -1);
	CHECK(errno == EINVAL);
	CHECK(xa_gnt_unshare(p->fe, fe, 2) == 0);
}

static void
test_close_releases_everything(void)
{
	struct xa_handle *fe, *be;
	grant_ref_t refs[4];
	evtchn_port_t port;
	struct xsim_usage u;

	fe = open_dom(FE);
	be = open_dom(BE);
	REQUIRE(fe != NULL && be != NULL);
	REQUIRE(xa_gnt_share(fe, BE, 4, refs, true) != NULL);
	REQUIRE(xa_gnt_map(be, FE, 4, refs, false) != NULL);
	port = xa_evtchn_bind_unbound(xa_evtchn(fe), BE);
	REQUIRE(port != (evtchn_port_t)-1);
	REQUIRE(xa_evtchn_bind_interdomain(xa_evtchn(be), FE, port) !=
		(evtchn_port_t)-1);
	REQUIRE(xa_xs_watch(fe, "device", "fe"));
	REQUIRE(xa_xs_watch(be, "backend", "be"));
	CHECK(usage_of(FE, &u) == 0 && u.grants == 4 && u.ports == 1 &&
	      u.watches == 1);
	CHECK(usage_of(BE, &u) == 0 && u.maps == 4 && u.ports == 1 &&
	      u.watches == 1);
	/* Frontend first: its pages outlive the grant until the unmap. */
	xa_close(fe);
	xa_close(be);
	CHECK(usage_is_zero(FE));
	CHECK(usage_is_zero(BE));
}

/* The other process acts as the backend and copies into our grant. */
static void
test_two_processes_share_and_copy(void)
{
	xengnttab_grant_copy_segment_t seg;
	struct xa_handle *fe, *be;
	static const char msg[] = "from another process";
	grant_ref_t ref;
	uint8_t *page;
	int status;
	pid_t pid;

	fe = open_dom(FE);
	REQUIRE(fe != NULL);
	page = xa_gnt_share(fe, BE, 1, &ref, true);
	REQUIRE(page != NULL);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		be = open_dom(BE);
		if (be == NULL)
			_exit(2);
		seg_to_gref(&seg, (void *)(uintptr_t)msg, FE, ref, 128,
			    sizeof(msg));
		if (xa_gnt_copy(be, 1, &seg) != 0 || seg.status != GNTST_okay)
			_exit(3);
		xa_close(be);
		_exit(0);
	}
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(memcmp(page + 128, msg, sizeof(msg)) == 0);
	CHECK(xa_gnt_unshare(fe, page, 1) == 0);
	xa_close(fe);
}

/* A process that dies holding grants loses them at the next open. */
static void
test_dead_process_resources_are_reaped(void)
{
	struct xa_handle *h, *fe;
	grant_ref_t refs[2];
	int status;
	pid_t pid;

	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		fe = open_dom(OTHER);
		if (fe == NULL || xa_gnt_share(fe, BE, 2, refs, true) == NULL ||
		    xa_evtchn_bind_unbound(xa_evtchn(fe), BE) ==
		    (evtchn_port_t)-1 ||
		    !xa_xs_watch(fe, "data", "t"))
			_exit(1);
		_exit(0);
	}
	REQUIRE(waitpid(pid, &status, 0) == pid);
	REQUIRE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	h = open_dom(BE);
	REQUIRE(h != NULL);
	CHECK(usage_is_zero(OTHER));
	xa_close(h);
}

struct copier {
	struct xa_handle *be;
	grant_ref_t ref;
	volatile bool stop;
	unsigned long okay;
};

static void *
copier_run(void *arg)
{
	struct copier *c = arg;
	xengnttab_grant_copy_segment_t seg;
	uint8_t buf[PAGE];

	memset(buf, 0x5e, sizeof(buf));
	while (!c->stop) {
		seg_to_gref(&seg, buf, FE, c->ref, 0, PAGE);
		xa_gnt_copy(c->be, 1, &seg);
		c->okay += seg.status == GNTST_okay;
	}
	return NULL;
}

/* Copies racing an unshare never write into the page after it is freed. */
static void
test_unshare_waits_for_copies_in_flight(struct xsim_peers *p)
{
	struct copier c = { .stop = false, .okay = 0 };
	pthread_t thread;
	uint8_t *fe;
	int i;

	c.be = p->be;
	for (i = 0; i < 200; i++) {
		fe = xa_gnt_share(p->fe, BE, 1, &c.ref, true);
		REQUIRE(fe != NULL);
		if (i == 0)
			REQUIRE(pthread_create(&thread, NULL, copier_run, &c) == 0);
		CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
	}
	c.stop = true;
	pthread_join(thread, NULL);
	/* Every page the copier may have filled went back zeroed. */
	fe = xa_gnt_share(p->fe, BE, 1, &c.ref, true);
	REQUIRE(fe != NULL);
	CHECK(all_bytes(fe, PAGE, 0));
	CHECK(xa_gnt_unshare(p->fe, fe, 1) == 0);
}

/* Node masks as the memory policy calls take them (1024 nodes). */
#define NODE_BITS 1024
#define NODE_LONGS (NODE_BITS / (8 * sizeof(long)))

/* The memory policy of the pages at @addr, or the thread's (NULL). */
static int
policy_of(void *addr, unsigned long *nodes)
{
	int mode = -1;

	memset(nodes, 0, sizeof(unsigned long) * NODE_LONGS);
	if (get_mempolicy(&mode, nodes, NODE_BITS + 1, addr,
			  addr != NULL ? MPOL_F_ADDR : 0) < 0)
		return -1;
	return mode;
}

/* A mask of node @node alone. */
static bool
only_node(const unsigned long *nodes, int node)
{
	unsigned int i;

	for (i = 0; i < NODE_LONGS; i++)
		if (nodes[i] != (i == node / (8 * sizeof(long)) ?
					 1ul << (node % (8 * sizeof(long))) :
					 0))
			return false;
	return true;
}

/*
 * gntalloc allocates under the caller's memory policy, so a share on a
 * node runs with that node preferred: its pages carry the preference,
 * and the thread's own policy is back after.
 */
static void
test_share_on_node_places_pages_there(struct xsim_peers *p)
{
	unsigned long nodes[NODE_LONGS];
	unsigned long node0[NODE_LONGS] = { 1 };
	grant_ref_t refs[3];
	uint8_t *pages;

	REQUIRE(numa_available() >= 0);
	pages = xa_gnt_share_on_node(p->fe, BE, 3, refs, true, 0);
	REQUIRE(pages != NULL);
	CHECK(policy_of(pages, nodes) == MPOL_PREFERRED && only_node(nodes, 0));
	CHECK(policy_of(pages + 2 * PAGE, nodes) == MPOL_PREFERRED &&
	      only_node(nodes, 0));
	CHECK(all_bytes(pages, 3 * PAGE, 0));
	CHECK(policy_of(NULL, nodes) == MPOL_DEFAULT);
	CHECK(xa_gnt_unshare(p->fe, pages, 3) == 0);

	/* A thread bound to node 0 stays bound. */
	REQUIRE(set_mempolicy(MPOL_BIND, node0, NODE_BITS + 1) == 0);
	pages = xa_gnt_share_on_node(p->fe, BE, 1, refs, true, 0);
	CHECK(pages != NULL);
	CHECK(policy_of(NULL, nodes) == MPOL_BIND && only_node(nodes, 0));
	REQUIRE(set_mempolicy(MPOL_DEFAULT, NULL, 0) == 0);
	if (pages != NULL)
		CHECK(xa_gnt_unshare(p->fe, pages, 1) == 0);
}

/* Without a node the pages follow the caller's policy, whatever held them before. */
static void
test_share_anywhere_follows_the_callers_policy(struct xsim_peers *p)
{
	unsigned long nodes[NODE_LONGS];
	grant_ref_t refs[64];
	uint8_t *pages;

	pages = xa_gnt_share_on_node(p->fe, BE, 64, refs, true, 0);
	REQUIRE(pages != NULL);
	CHECK(xa_gnt_unshare(p->fe, pages, 64) == 0);
	pages = xa_gnt_share_on_node(p->fe, BE, 64, refs, true, XA_NODE_ANY);
	REQUIRE(pages != NULL);
	CHECK(policy_of(pages, nodes) == MPOL_DEFAULT);
	CHECK(policy_of(pages + 63 * PAGE, nodes) == MPOL_DEFAULT);
	CHECK(xa_gnt_unshare(p->fe, pages, 64) == 0);
}

/* A node this process cannot use shares nothing and changes nothing. */
static void
test_share_on_missing_node_is_einval(struct xsim_peers *p)
{
	unsigned long nodes[NODE_LONGS];
	const int bad[] = { numa_max_node() + 1, 1 << 20, -2 };
	uint32_t limit, used;
	grant_ref_t ref;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		CHECK(xa_gnt_share_on_node(p->fe, BE, 1, &ref, true, bad[i]) ==
		      NULL);
		CHECK(errno == EINVAL);
	}
	REQUIRE(xa_gnt_share_limit(p->fe, &limit, &used) == 0);
	CHECK(used == 0);
	CHECK(policy_of(NULL, nodes) == MPOL_DEFAULT);
}

/* gntalloc's limit, counted per domain over all of its shares. */
static void
test_share_limit_is_gntallocs_default(struct xsim_peers *p)
{
	uint32_t limit, used;
	grant_ref_t refs[3];
	uint8_t *pages;

	REQUIRE(xa_gnt_share_limit(p->fe, &limit, &used) == 0);
	CHECK(limit == XA_GNT_SHARE_LIMIT_DEFAULT && limit == 1024);
	CHECK(used == 0);
	pages = xa_gnt_share(p->fe, BE, 3, refs, true);
	REQUIRE(pages != NULL);
	REQUIRE(xa_gnt_share_limit(p->fe, &limit, &used) == 0);
	CHECK(used == 3);
	CHECK(xa_gnt_unshare(p->fe, pages, 3) == 0);
	REQUIRE(xa_gnt_share_limit(p->fe, &limit, &used) == 0);
	CHECK(used == 0);
}

static void
test_share_past_limit_fails_whole_with_enospc(struct xsim_peers *p)
{
	static grant_ref_t refs[1024];
	uint32_t limit, used;
	uint8_t *a, *b;

	a = xa_gnt_share(p->fe, BE, 1020, refs, true);
	REQUIRE(a != NULL);
	errno = 0;
	CHECK(xa_gnt_share(p->fe, BE, 5, refs, true) == NULL);
	CHECK(errno == ENOSPC);
	REQUIRE(xa_gnt_share_limit(p->fe, &limit, &used) == 0);
	CHECK(used == 1020);
	b = xa_gnt_share(p->fe, BE, 4, refs, true);
	CHECK(b != NULL);
	if (b != NULL)
		CHECK(xa_gnt_unshare(p->fe, b, 4) == 0);
	CHECK(xa_gnt_unshare(p->fe, a, 1020) == 0);
}

static void
test_raised_limit_admits_more(struct xsim_peers *p)
{
	static grant_ref_t refs[1500];
	uint32_t limit, used;
	uint8_t *pages;

	errno = 0;
	CHECK(xa_gnt_share_set_limit(p->fe, 0) == -1 && errno == EINVAL);
	REQUIRE(xa_gnt_share_set_limit(p->fe, 2048) == 0);
	REQUIRE(xa_gnt_share_limit(p->fe, &limit, &used) == 0);
	CHECK(limit == 2048);
	pages = xa_gnt_share(p->fe, BE, 1500, refs, true);
	CHECK(pages != NULL);
	if (pages != NULL)
		CHECK(xa_gnt_unshare(p->fe, pages, 1500) == 0);
	/* Another domain's limit is its own. */
	REQUIRE(xa_gnt_share_limit(p->be, &limit, &used) == 0);
	CHECK(limit == XA_GNT_SHARE_LIMIT_DEFAULT);
	CHECK(xa_gnt_share_set_limit(p->fe, XA_GNT_SHARE_LIMIT_DEFAULT) == 0);
}

/* Last: domain XSIM_OTHER keeps its administrator's limit. */
static void
test_administrators_limit_cannot_be_raised(struct xsim_peers *p)
{
	grant_ref_t refs[9];
	uint32_t limit, used;
	uint8_t *pages;

	REQUIRE(xsim_gntalloc_limit(xsim_test_instance, XSIM_OTHER, 8) == 0);
	errno = 0;
	CHECK(xa_gnt_share_set_limit(p->other, 4096) == -1 && errno == EACCES);
	REQUIRE(xa_gnt_share_limit(p->other, &limit, &used) == 0);
	CHECK(limit == 8);
	errno = 0;
	CHECK(xa_gnt_share(p->other, BE, 9, refs, true) == NULL);
	CHECK(errno == ENOSPC);
	pages = xa_gnt_share(p->other, BE, 8, refs, true);
	CHECK(pages != NULL);
	if (pages != NULL)
		CHECK(xa_gnt_unshare(p->other, pages, 8) == 0);
}

TEST_MAIN(xsim_test_setup, xsim_test_teardown)
{
	RUN_WITH(xsim_peers, test_share_gives_zeroed_pages_with_distinct_refs);
	RUN_WITH(xsim_peers, test_reserved_refs_are_never_handed_out);
	RUN_WITH(xsim_peers, test_share_to_impossible_domain_is_einval);
	RUN_WITH(xsim_peers, test_share_on_node_places_pages_there);
	RUN_WITH(xsim_peers, test_share_anywhere_follows_the_callers_policy);
	RUN_WITH(xsim_peers, test_share_on_missing_node_is_einval);
	RUN_WITH(xsim_peers, test_backend_maps_granted_pages_both_ways);
	RUN_WITH(xsim_peers, test_foreign_domain_cannot_use_grant);
	RUN_WITH(xsim_peers, test_map_of_out_of_range_ref_fails);
	RUN_WITH(xsim_peers, test_map_of_ungranted_ref_fails);
	RUN_WITH(xsim_peers, test_map_from_unknown_domain_fails);
	RUN_WITH(xsim_peers, test_map_fails_whole_if_one_ref_is_bad);
	RUN_WITH(xsim_peers, test_writable_map_of_readonly_grant_is_refused);
	RUN_WITH(xsim_peers, test_readonly_map_is_not_writable);
	RUN_WITH(xsim_peers, test_copy_into_and_out_of_grant);
	RUN_WITH(xsim_peers, test_copy_between_two_grants);
	RUN_WITH(xsim_peers, test_copy_from_or_to_a_mapped_page_is_bad_page);
	RUN_WITH(xsim_peers, test_copy_into_readonly_grant_is_denied);
	RUN_WITH(xsim_peers, test_copy_from_readonly_grant_is_allowed);
	RUN_WITH(xsim_peers, test_copy_segment_crossing_page_is_bad_copy_arg);
	RUN_WITH(xsim_peers, test_copy_from_ungranted_ref_fails);
	RUN_WITH(xsim_peers, test_copy_with_out_of_range_ref_is_bad_gntref);
	RUN_WITH(xsim_peers, test_copy_with_unknown_domain_is_bad_domain);
	RUN_WITH(xsim_peers, test_failing_segment_does_not_stop_the_others);
	RUN_WITH(xsim_peers, test_unshared_grant_cannot_be_used);
	RUN_WITH(xsim_peers, test_unshare_of_mapped_page_defers_free);
	RUN_WITH(xsim_peers, test_detach_leaves_a_copy_and_releases_the_grants);
	RUN_WITH(xsim_peers, test_unmap_and_unshare_of_unknown_range_fail);
	RUN(test_close_releases_everything);
	RUN(test_two_processes_share_and_copy);
	RUN(test_dead_process_resources_are_reaped);
	RUN_WITH(xsim_peers, test_unshare_waits_for_copies_in_flight);
	RUN_WITH(xsim_peers, test_share_limit_is_gntallocs_default);
	RUN_WITH(xsim_peers, test_share_past_limit_fails_whole_with_enospc);
	RUN_WITH(xsim_peers, test_raised_limit_admits_more);
	RUN_WITH(xsim_peers, test_administrators_limit_cannot_be_raised);
}
