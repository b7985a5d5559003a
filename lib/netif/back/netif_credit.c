/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The vif's rate limit on guest TX (see netif_credit.h): Linux netback's
 * tx_credit_exceeded() and tx_add_credit(), with the window's timer
 * replaced by the time the data plane reads when it asks.
 */

#include <rte_common.h>

#include "netif_credit.h"

/* A rate in one word: bytes in the low 40 bits, the window's usec above. */
#define RATE_USEC_SHIFT 40

void
netif_credit_init(struct netif_credit *c, uint64_t hz)
{
	*c = (struct netif_credit){ .hz = hz };
	rte_spinlock_init(&c->lock);
}

void
netif_credit_set(struct netif_credit *c, uint64_t bytes, uint64_t usec)
{
	uint64_t rate = 0;

	RTE_VERIFY(bytes <= NETIF_CREDIT_BYTES_MAX &&
		   usec <= NETIF_CREDIT_USEC_MAX);
	if (bytes != 0) {
		RTE_VERIFY(usec != 0);
		rate = usec << RATE_USEC_SHIFT | bytes;
	}
	__atomic_store_n(&c->rate, rate, __ATOMIC_RELAXED);
}

/* Under the lock: follow a rate published since the last packet. */
static void
apply(struct netif_credit *c, uint64_t rate, uint64_t now)
{
	bool was_limited = c->applied != 0;

	if (rate == 0) {
		__atomic_store_n(&c->applied, 0, __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&c->applied, rate, __ATOMIC_RELAXED);
	c->bytes = rate & ((UINT64_C(1) << RATE_USEC_SHIFT) - 1);
	c->window = (rate >> RATE_USEC_SHIFT) * c->hz / 1000000;
	c->burst = RTE_MAX((uint64_t)NETIF_CREDIT_MIN_BURST, c->bytes);
	/*
	 * As Linux: a new limit starts with one window's credit, a changed
	 * one keeps at most that much of what is left.
	 */
	if (!was_limited || c->remaining > c->bytes)
		c->remaining = c->bytes;
	/* A shorter window begins within itself, not in the old one's time. */
	if (!was_limited || (int64_t)(c->next - (now + c->window)) > 0)
		c->next = now + c->window;
}

/*
 * Under the lock: windows have begun since @next, each adding its bytes up
 * to the burst. Linux adds one window's whatever the time passed, so a
 * poller held up for longer than a window (a loaded host) loses credit and
 * the vif falls short of its rate; here the windows keep their pace.
 */
static void
add_credit(struct netif_credit *c, uint64_t now)
{
	uint64_t window = RTE_MAX(c->window, UINT64_C(1));
	uint64_t windows = (now - c->next) / window + 1;

	c->next += windows * window;
	/* More windows than fill the burst add nothing more. */
	windows = RTE_MIN(windows, c->burst / c->bytes + 1);
	c->remaining = RTE_MIN(c->remaining + windows * c->bytes, c->burst);
}

bool
netif_credit_take_limited(struct netif_credit *c, uint32_t size, uint64_t now)
{
	uint64_t rate = __atomic_load_n(&c->rate, __ATOMIC_RELAXED);
	bool taken = false;

	rte_spinlock_lock(&c->lock);
	if (rate != c->applied)
		apply(c, rate, now);
	if (rate == 0) {
		taken = true;	/* the limit is gone */
	} else {
		if (size > c->remaining && (int64_t)(now - c->next) >= 0)
			add_credit(c, now);
		if (size <= c->remaining) {
			c->remaining -= size;
			taken = true;
		}
	}
	rte_spinlock_unlock(&c->lock);
	return taken;
}

void
netif_credit_refund(struct netif_credit *c, uint32_t size)
{
	if (__atomic_load_n(&c->rate, __ATOMIC_RELAXED) == 0)
		return;
	rte_spinlock_lock(&c->lock);
	if (c->applied != 0)
		c->remaining = RTE_MIN(c->remaining + size, c->burst);
	rte_spinlock_unlock(&c->lock);
}
