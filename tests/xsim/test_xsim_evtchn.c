/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Event channels of the simulated hypervisor: binding follows Xen's rules
 * (an interdomain bind needs a port left unbound for our domain), only a
 * connected port of our own can be notified, and events arrive as
 * libxenevtchn delivers them: once, masked, until unmasked. A further
 * endpoint of a handle is another open of the evtchn device: its ports
 * deliver to its own fd and are its alone, and closing it unbinds them.
 * The storm knob (XSA-332) makes a peer's port pending again at each
 * unmask, until it is turned off or the link closes.
 * Domain 1 plays the frontend, domain 2 the backend, domain 3 an unrelated
 * guest.
 */

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "xsim_test.h"

#define FE XSIM_FE
#define BE XSIM_BE
#define OTHER XSIM_OTHER
#define BAD_PORT ((evtchn_port_t)-1)

struct channel {
	struct xa_handle *fe;
	struct xa_handle *be;
	evtchn_port_t fe_port;
	evtchn_port_t be_port;
};

static int
drain_ep(struct xa_evtchn *e)
{
	int n = 0;

	while (xa_evtchn_pending(e) >= 0)
		n++;
	return n;
}

static int
drain(struct xa_handle *h)
{
	return drain_ep(xa_evtchn(h));
}

static void
channel_teardown(struct channel *c)
{
	xa_close(c->fe);
	xa_close(c->be);
}

/* A connected channel, with the bind's own event already consumed. */
static int
channel_setup(struct channel *c)
{
	c->fe = open_dom(FE);
	c->be = open_dom(BE);
	if (c->fe == NULL || c->be == NULL)
		goto fail;
	c->fe_port = xa_evtchn_bind_unbound(xa_evtchn(c->fe), BE);
	if (c->fe_port == BAD_PORT)
		goto fail;
	c->be_port = xa_evtchn_bind_interdomain(xa_evtchn(c->be), FE,
						c->fe_port);
	if (c->be_port == BAD_PORT)
		goto fail;
	if (xa_evtchn_pending(xa_evtchn(c->be)) != (int)c->be_port ||
	    xa_evtchn_unmask(xa_evtchn(c->be), c->be_port) != 0)
		goto fail;
	return 0;
fail:
	channel_teardown(c);
	return -1;
}

static bool
readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN);
}

static void
test_bind_unbound_never_allocates_port_zero(void)
{
	struct xa_handle *fe = open_dom(FE);
	evtchn_port_t port;

	REQUIRE(fe != NULL);
	port = xa_evtchn_bind_unbound(xa_evtchn(fe), BE);
	CHECK(port != BAD_PORT && port != 0);
	CHECK(xa_evtchn_unbind(xa_evtchn(fe), port) == 0);
	xa_close(fe);
}

static void
test_bind_unbound_to_impossible_domain_is_einval(void)
{
	struct xa_handle *fe = open_dom(FE);

	REQUIRE(fe != NULL);
	errno = 0;
	CHECK(xa_evtchn_bind_unbound(xa_evtchn(fe), 1000) == BAD_PORT);
	CHECK(errno == EINVAL);
	xa_close(fe);
}

static void
test_interdomain_channel_carries_events_both_ways(struct channel *c)
{
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port) == 0);
	CHECK(xa_evtchn_pending(xa_evtchn(c->fe)) == (int)c->fe_port);
	CHECK(xa_evtchn_notify(xa_evtchn(c->fe), c->fe_port) == 0);
	CHECK(xa_evtchn_pending(xa_evtchn(c->be)) == (int)c->be_port);
}

/* Xen marks the new local end pending: earlier kicks may have been lost. */
static void
test_bind_interdomain_raises_local_event(void)
{
	struct xa_handle *fe = open_dom(FE), *be = open_dom(BE);
	evtchn_port_t fp, bp;

	REQUIRE(fe != NULL && be != NULL);
	fp = xa_evtchn_bind_unbound(xa_evtchn(fe), BE);
	bp = xa_evtchn_bind_interdomain(xa_evtchn(be), FE, fp);
	REQUIRE(bp != BAD_PORT);
	CHECK(readable(xa_evtchn_fd(xa_evtchn(be))));
	CHECK(xa_evtchn_pending(xa_evtchn(be)) == (int)bp);
	CHECK(drain(fe) == 0);
	xa_close(fe);
	xa_close(be);
}

static void
test_bind_interdomain_to_port_offered_elsewhere_fails(void)
{
	struct xa_handle *fe = open_dom(FE), *be = open_dom(BE);
	evtchn_port_t fp;

	REQUIRE(fe != NULL && be != NULL);
	fp = xa_evtchn_bind_unbound(xa_evtchn(fe), OTHER);
	REQUIRE(fp != BAD_PORT);
	errno = 0;
	CHECK(xa_evtchn_bind_interdomain(xa_evtchn(be), FE, fp) == BAD_PORT);
	CHECK(errno == EINVAL);
	xa_close(fe);
	xa_close(be);
}

static void
test_bind_interdomain_to_free_or_invalid_port_fails(void)
{
	struct xa_handle *fe = open_dom(FE), *be = open_dom(BE);

	REQUIRE(fe != NULL && be != NULL);
	errno = 0;
	CHECK(xa_evtchn_bind_interdomain(xa_evtchn(be), FE, 0) == BAD_PORT);
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(xa_evtchn_bind_interdomain(xa_evtchn(be), FE, 77) == BAD_PORT);
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(xa_evtchn_bind_interdomain(xa_evtchn(be), FE, 1u << 20) ==
	      BAD_PORT);
	CHECK(errno == EINVAL);
	xa_close(fe);
	xa_close(be);
}

static void
test_bind_interdomain_to_connected_port_fails(struct channel *c)
{
	struct xa_handle *third;

	third = open_dom(BE);
	REQUIRE(third != NULL);
	errno = 0;
	CHECK(xa_evtchn_bind_interdomain(xa_evtchn(third), FE, c->fe_port) ==
	      BAD_PORT);
	CHECK(errno == EINVAL);
	xa_close(third);
}

static void
test_bind_interdomain_to_unknown_domain_is_esrch(void)
{
	struct xa_handle *be = open_dom(BE);

	REQUIRE(be != NULL);
	errno = 0;
	CHECK(xa_evtchn_bind_interdomain(xa_evtchn(be), 60, 1) == BAD_PORT);
	CHECK(errno == ESRCH);
	xa_close(be);
}

static void
test_unbound_port_cannot_notify(void)
{
	struct xa_handle *fe = open_dom(FE);
	evtchn_port_t port;

	REQUIRE(fe != NULL);
	port = xa_evtchn_bind_unbound(xa_evtchn(fe), BE);
	REQUIRE(port != BAD_PORT);
	errno = 0;
	CHECK(xa_evtchn_notify(xa_evtchn(fe), port) == -1);
	CHECK(errno == ENOTCONN);
	xa_close(fe);
}

static void
test_port_not_ours_cannot_notify(struct channel *c)
{
	struct xa_handle *again;

	/* A port this handle did not bind is not its to notify. */
	errno = 0;
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port + 1) == -1);
	CHECK(errno == EINVAL);
	/* Nor may another handle of the same domain use the port. */
	again = open_dom(FE);
	REQUIRE(again != NULL);
	errno = 0;
	CHECK(xa_evtchn_notify(xa_evtchn(again), c->fe_port) == -1);
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(xa_evtchn_notify(xa_evtchn(again), 0) == -1);
	CHECK(errno == EINVAL);
	CHECK(xa_evtchn_notify(xa_evtchn(again), 5000) == -1);
	CHECK(drain(c->fe) == 0 && drain(c->be) == 0);
	xa_close(again);
}

static void
test_notify_delivers_masked_event_once(struct channel *c)
{
	CHECK(!readable(xa_evtchn_fd(xa_evtchn(c->fe))));
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port) == 0);
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port) == 0);
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port) == 0);
	CHECK(readable(xa_evtchn_fd(xa_evtchn(c->fe))));
	CHECK(xa_evtchn_pending(xa_evtchn(c->fe)) == (int)c->fe_port);
	errno = 0;
	CHECK(xa_evtchn_pending(xa_evtchn(c->fe)) == -1);
	CHECK(errno == EAGAIN);
	/* Masked: a kick now stays pending and is not delivered... */
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port) == 0);
	CHECK(drain(c->fe) == 0);
	/* ...until the unmask, which delivers it exactly once. */
	CHECK(xa_evtchn_unmask(xa_evtchn(c->fe), c->fe_port) == 0);
	CHECK(xa_evtchn_pending(xa_evtchn(c->fe)) == (int)c->fe_port);
	CHECK(drain(c->fe) == 0);
}

static void
test_unmask_without_pending_delivers_nothing(struct channel *c)
{
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port) == 0);
	CHECK(xa_evtchn_pending(xa_evtchn(c->fe)) == (int)c->fe_port);
	CHECK(xa_evtchn_unmask(xa_evtchn(c->fe), c->fe_port) == 0);
	CHECK(drain(c->fe) == 0);
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port) == 0);
	CHECK(drain(c->fe) == 1);
}

static void
test_storm_knob_raises_an_event_at_each_unmask(struct channel *c)
{
	/* The backend storms the frontend's port. */
	CHECK(xsim_evtchn_storm(xsim_test_instance, BE, c->be_port, true) == 0);
	CHECK(drain(c->fe) == 0);
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port) == 0);
	for (int i = 0; i < 1000; i++) {
		CHECK(xa_evtchn_pending(xa_evtchn(c->fe)) == (int)c->fe_port);
		CHECK(drain(c->fe) == 0);
		CHECK(xa_evtchn_unmask(xa_evtchn(c->fe), c->fe_port) == 0);
	}
	/* The stormer's own port is quiet. */
	CHECK(xa_evtchn_unmask(xa_evtchn(c->be), c->be_port) == 0);
	CHECK(drain(c->be) == 0);
	CHECK(xsim_evtchn_storm(xsim_test_instance, BE, c->be_port, false) == 0);
	CHECK(drain(c->fe) == 1);
	CHECK(xa_evtchn_unmask(xa_evtchn(c->fe), c->fe_port) == 0);
	CHECK(drain(c->fe) == 0);
	/* Only a bound port has a peer to storm. */
	errno = 0;
	CHECK(xsim_evtchn_storm(xsim_test_instance, BE, c->be_port + 100,
				true) == -1 && errno == ENOTCONN);
	/* A storm ends with its link. */
	CHECK(xsim_evtchn_storm(xsim_test_instance, BE, c->be_port, true) == 0);
	CHECK(xa_evtchn_unbind(xa_evtchn(c->be), c->be_port) == 0);
	CHECK(xa_evtchn_unmask(xa_evtchn(c->fe), c->fe_port) == 0);
	CHECK(drain(c->fe) == 0);
}

static void
test_unmask_of_port_not_ours_fails(struct channel *c)
{
	errno = 0;
	CHECK(xa_evtchn_unmask(xa_evtchn(c->be), c->be_port + 1) == -1);
	CHECK(errno == EINVAL);
}

static void
test_unbind_returns_peer_to_unbound(struct channel *c)
{
	evtchn_port_t fp;

	CHECK(xa_evtchn_unbind(xa_evtchn(c->fe), c->fe_port) == 0);
	errno = 0;
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port) == -1);
	CHECK(errno == ENOTCONN);
	errno = 0;
	CHECK(xa_evtchn_notify(xa_evtchn(c->fe), c->fe_port) == -1);
	CHECK(errno == EINVAL);
	/* The backend's port waits for the frontend again: it can reconnect. */
	fp = xa_evtchn_bind_interdomain(xa_evtchn(c->fe), BE, c->be_port);
	CHECK(fp != BAD_PORT);
	CHECK(xa_evtchn_pending(xa_evtchn(c->fe)) == (int)fp);
	CHECK(xa_evtchn_unmask(xa_evtchn(c->fe), fp) == 0);
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port) == 0);
	CHECK(xa_evtchn_pending(xa_evtchn(c->fe)) == (int)fp);
}

static void
test_unbind_of_port_not_ours_fails(struct channel *c)
{
	errno = 0;
	CHECK(xa_evtchn_unbind(xa_evtchn(c->be), c->be_port + 1) == -1);
	CHECK(errno == EINVAL);
	CHECK(xa_evtchn_unbind(xa_evtchn(c->fe), 0) == -1);
}

/* More ports than a datagram socket queues (10 by default) lose nothing. */
static void
test_many_pending_ports_are_all_delivered(void)
{
	enum { N = 40 };
	struct xa_handle *fe = open_dom(FE), *be = open_dom(BE);
	evtchn_port_t fp[N], bp[N];
	bool seen[1024] = { false };
	int i, port, n = 0;

	REQUIRE(fe != NULL && be != NULL);
	for (i = 0; i < N; i++) {
		fp[i] = xa_evtchn_bind_unbound(xa_evtchn(fe), BE);
		REQUIRE(fp[i] != BAD_PORT);
		bp[i] = xa_evtchn_bind_interdomain(xa_evtchn(be), FE, fp[i]);
		REQUIRE(bp[i] != BAD_PORT);
	}
	CHECK(drain(be) == N);
	for (i = 0; i < N; i++)
		CHECK(xa_evtchn_notify(xa_evtchn(be), bp[i]) == 0);
	while ((port = xa_evtchn_pending(xa_evtchn(fe))) >= 0) {
		CHECK(port < 1024 && !seen[port]);
		seen[port] = true;
		n++;
	}
	CHECK(n == N);
	for (i = 0; i < N; i++)
		CHECK(seen[fp[i]]);
	xa_close(fe);
	xa_close(be);
}

/*
 * A child process that, as the backend, connects to our unbound port @fp
 * and kicks it, through a further endpoint of its handle when @endpoint,
 * then exits: having closed everything when @tidy, or leaving it all to
 * be reaped.
 */
static pid_t
backend_child(evtchn_port_t fp, bool endpoint, bool tidy)
{
	struct xa_handle *be;
	struct xa_evtchn *e;
	evtchn_port_t bp;
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	be = open_dom(BE);
	if (be == NULL)
		_exit(2);
	e = endpoint ? xa_evtchn_open(be) : xa_evtchn(be);
	if (e == NULL)
		_exit(2);
	bp = xa_evtchn_bind_interdomain(e, FE, fp);
	if (bp == BAD_PORT || xa_evtchn_notify(e, bp) != 0)
		_exit(3);
	if (tidy) {
		if (endpoint)
			xa_evtchn_close(e);
		xa_close(be);
	}
	_exit(0);
}

static void
test_notify_from_another_process(void)
{
	struct xa_handle *fe = open_dom(FE);
	evtchn_port_t fp;
	struct pollfd pfd;
	int status;
	pid_t pid;

	REQUIRE(fe != NULL);
	fp = xa_evtchn_bind_unbound(xa_evtchn(fe), BE);
	REQUIRE(fp != BAD_PORT);
	pid = backend_child(fp, false, true);
	REQUIRE(pid >= 0);
	pfd.fd = xa_evtchn_fd(xa_evtchn(fe));
	pfd.events = POLLIN;
	CHECK(poll(&pfd, 1, 5000) == 1);
	CHECK(xa_evtchn_pending(xa_evtchn(fe)) == (int)fp);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The backend closed: our port waits unbound, notify fails. */
	CHECK(xa_evtchn_notify(xa_evtchn(fe), fp) == -1);
	xa_close(fe);
}

static void
test_close_releases_ports_and_unbinds_peer(void)
{
	struct xsim_usage u;
	struct channel c;

	REQUIRE(channel_setup(&c) == 0);
	CHECK(usage_of(FE, &u) == 0 && u.ports == 1);
	xa_close(c.be);
	CHECK(usage_of(BE, &u) == 0 && u.ports == 0);
	errno = 0;
	CHECK(xa_evtchn_notify(xa_evtchn(c.fe), c.fe_port) == -1);
	CHECK(errno == ENOTCONN);
	xa_close(c.fe);
	CHECK(usage_is_zero(FE));
	CHECK(usage_is_zero(BE));
}

/*
 * A port of the frontend's bound through a further endpoint @e and
 * connected to a new backend port, whose bind event is consumed.
 */
static evtchn_port_t
endpoint_connect(struct channel *c, struct xa_evtchn *e, evtchn_port_t *bp)
{
	evtchn_port_t fp;

	fp = xa_evtchn_bind_unbound(e, BE);
	if (fp == BAD_PORT)
		return BAD_PORT;
	*bp = xa_evtchn_bind_interdomain(xa_evtchn(c->be), FE, fp);
	if (*bp == BAD_PORT ||
	    xa_evtchn_pending(xa_evtchn(c->be)) != (int)*bp ||
	    xa_evtchn_unmask(xa_evtchn(c->be), *bp) != 0)
		return BAD_PORT;
	return fp;
}

static void
test_endpoint_port_delivers_to_its_fd_only(struct channel *c)
{
	struct xa_evtchn *e = xa_evtchn_open(c->fe);
	evtchn_port_t fp, bp;

	REQUIRE(e != NULL);
	CHECK(xa_evtchn_fd(e) >= 0 &&
	      xa_evtchn_fd(e) != xa_evtchn_fd(xa_evtchn(c->fe)));
	fp = endpoint_connect(c, e, &bp);
	REQUIRE(fp != BAD_PORT);
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), bp) == 0);
	CHECK(readable(xa_evtchn_fd(e)));
	CHECK(!readable(xa_evtchn_fd(xa_evtchn(c->fe))));
	CHECK(drain(c->fe) == 0);
	CHECK(xa_evtchn_pending(e) == (int)fp);
	CHECK(xa_evtchn_unmask(e, fp) == 0);
	/* And the handle's own port still delivers to the handle's fd. */
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port) == 0);
	CHECK(!readable(xa_evtchn_fd(e)));
	CHECK(xa_evtchn_pending(xa_evtchn(c->fe)) == (int)c->fe_port);
	/* Events go both ways: the endpoint notifies through its port. */
	CHECK(xa_evtchn_notify(e, fp) == 0);
	CHECK(xa_evtchn_pending(xa_evtchn(c->be)) == (int)bp);
	xa_evtchn_close(e);
}

static void
test_endpoint_port_is_not_the_handles(struct channel *c)
{
	struct xa_evtchn *e = xa_evtchn_open(c->fe);
	struct xa_evtchn *own = xa_evtchn(c->fe);
	evtchn_port_t fp, bp;

	REQUIRE(e != NULL);
	fp = endpoint_connect(c, e, &bp);
	REQUIRE(fp != BAD_PORT);
	errno = 0;
	CHECK(xa_evtchn_notify(own, fp) == -1);
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(xa_evtchn_unmask(own, fp) == -1);
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(xa_evtchn_unbind(own, fp) == -1);
	CHECK(errno == EINVAL);
	/* Nor is the handle's port the endpoint's. */
	errno = 0;
	CHECK(xa_evtchn_notify(e, c->fe_port) == -1);
	CHECK(errno == EINVAL);
	errno = 0;
	CHECK(xa_evtchn_unbind(e, c->fe_port) == -1);
	CHECK(errno == EINVAL);
	CHECK(drain(c->be) == 0);
	/* The refusals changed nothing: the port is still connected. */
	CHECK(xa_evtchn_notify(e, fp) == 0);
	CHECK(xa_evtchn_pending(xa_evtchn(c->be)) == (int)bp);
	CHECK(xa_evtchn_unbind(e, fp) == 0);
	xa_evtchn_close(e);
}

static void
test_endpoint_close_unbinds_its_ports(struct channel *c)
{
	struct xa_evtchn *e = xa_evtchn_open(c->fe);
	evtchn_port_t fp, bp;
	struct xsim_usage u;

	REQUIRE(e != NULL);
	fp = endpoint_connect(c, e, &bp);
	REQUIRE(fp != BAD_PORT);
	REQUIRE(xa_evtchn_bind_unbound(e, OTHER) != BAD_PORT);
	CHECK(usage_of(FE, &u) == 0 && u.ports == 3);
	CHECK(usage_of(BE, &u) == 0 && u.ports == 2);
	xa_evtchn_close(e);
	xa_evtchn_close(NULL);
	/* Both of its ports are free; the handle's own is not touched. */
	CHECK(usage_of(FE, &u) == 0 && u.ports == 1);
	CHECK(usage_of(BE, &u) == 0 && u.ports == 2);
	errno = 0;
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), bp) == -1);
	CHECK(errno == ENOTCONN);
	CHECK(xa_evtchn_notify(xa_evtchn(c->be), c->be_port) == 0);
	CHECK(xa_evtchn_pending(xa_evtchn(c->fe)) == (int)c->fe_port);
	/* The backend's port went back to unbound: the frontend can rebind. */
	fp = xa_evtchn_bind_interdomain(xa_evtchn(c->fe), BE, bp);
	CHECK(fp != BAD_PORT);
	CHECK(xa_evtchn_pending(xa_evtchn(c->fe)) == (int)fp);
}

/* Each endpoint takes a handle slot, and closing it gives the slot back. */
static void
test_many_endpoints_open_and_close(void)
{
	enum { N = 64, ROUNDS = 12 };
	struct xa_handle *fe = open_dom(FE);
	struct xa_evtchn *e[N];
	struct xsim_usage u;
	int i, round;

	REQUIRE(fe != NULL);
	/* 768 opens in all, more than there are slots. */
	for (round = 0; round < ROUNDS; round++) {
		for (i = 0; i < N; i++) {
			e[i] = xa_evtchn_open(fe);
			REQUIRE(e[i] != NULL);
			REQUIRE(xa_evtchn_bind_unbound(e[i], BE) != BAD_PORT);
		}
		CHECK(xa_evtchn_fd(e[0]) != xa_evtchn_fd(e[N - 1]));
		CHECK(usage_of(FE, &u) == 0 && u.ports == N);
		for (i = 0; i < N; i++)
			xa_evtchn_close(e[i]);
		CHECK(usage_is_zero(FE));
	}
	xa_close(fe);
}

/* An endpoint of a process that died is reaped like its handle. */
static void
test_dead_process_endpoint_is_reaped(void)
{
	struct xa_handle *fe = open_dom(FE), *h;
	evtchn_port_t fp;
	int status;
	pid_t pid;

	REQUIRE(fe != NULL);
	fp = xa_evtchn_bind_unbound(xa_evtchn(fe), BE);
	REQUIRE(fp != BAD_PORT);
	/* Bound through the endpoint only, and never closed. */
	pid = backend_child(fp, true, false);
	REQUIRE(pid >= 0);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	REQUIRE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(xa_evtchn_pending(xa_evtchn(fe)) == (int)fp);
	CHECK(xa_evtchn_unmask(xa_evtchn(fe), fp) == 0);
	h = open_dom(BE);
	REQUIRE(h != NULL);
	CHECK(usage_is_zero(BE));
	/* Our port waits unbound again, as after a close. */
	errno = 0;
	CHECK(xa_evtchn_notify(xa_evtchn(fe), fp) == -1);
	CHECK(errno == ENOTCONN);
	xa_close(h);
	xa_close(fe);
}

TEST_MAIN(xsim_test_setup, xsim_test_teardown)
{
	RUN(test_bind_unbound_never_allocates_port_zero);
	RUN(test_bind_unbound_to_impossible_domain_is_einval);
	RUN_WITH(channel, test_interdomain_channel_carries_events_both_ways);
	RUN(test_bind_interdomain_raises_local_event);
	RUN(test_bind_interdomain_to_port_offered_elsewhere_fails);
	RUN(test_bind_interdomain_to_free_or_invalid_port_fails);
	RUN_WITH(channel, test_bind_interdomain_to_connected_port_fails);
	RUN(test_bind_interdomain_to_unknown_domain_is_esrch);
	RUN(test_unbound_port_cannot_notify);
	RUN_WITH(channel, test_port_not_ours_cannot_notify);
	RUN_WITH(channel, test_notify_delivers_masked_event_once);
	RUN_WITH(channel, test_unmask_without_pending_delivers_nothing);
	RUN_WITH(channel, test_unmask_of_port_not_ours_fails);
	RUN_WITH(channel, test_storm_knob_raises_an_event_at_each_unmask);
	RUN_WITH(channel, test_unbind_returns_peer_to_unbound);
	RUN_WITH(channel, test_unbind_of_port_not_ours_fails);
	RUN(test_many_pending_ports_are_all_delivered);
	RUN(test_notify_from_another_process);
	RUN(test_close_releases_ports_and_unbinds_peer);
	RUN_WITH(channel, test_endpoint_port_delivers_to_its_fd_only);
	RUN_WITH(channel, test_endpoint_port_is_not_the_handles);
	RUN_WITH(channel, test_endpoint_close_unbinds_its_ports);
	RUN(test_many_endpoints_open_and_close);
	RUN(test_dead_process_endpoint_is_reaped);
}
