/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * xen-scale: how many guests one backend process serves, and what each
 * costs, on the simulator. Two processes share one simulator instance:
 *
 *   backend  domain 0: one watcher (net_xen_netback, vifs=*) makes a port
 *            of every guest's vif; the main lcore starts each new port,
 *            checks every packet a guest sends (its sequence number, every
 *            byte) and sends it back; on a port's RTE_ETH_EVENT_INTR_RMV it
 *            stops, closes and removes it, as testpmd does.
 *   guests   the toolstack (xsim_vif_plug, as "xl create" does) and every
 *            guest's netfront: each sends numbered packets of 60 to 9000
 *            bytes and checks each echo. After the first --guests are up,
 *            one guest is destroyed ("xl destroy") and a new one created
 *            every --churn-ms, for --duration seconds.
 *
 * A DPDK process holds RTE_MAX_ETHPORTS ports (32 in Debian's DPDK 22.11),
 * so that is the default and the most --guests can be: the watcher is no
 * port. A guest destroyed is replaced once the backend removed its port.
 *
 * Reported, medians and maxima: DPDK heap and memzone bytes per vif (the
 * backend's, all guests up, against before the watcher), the time from
 * the toolstack plugging a vif to the backend's RTE_ETH_EVENT_NEW, to the
 * backend port's link up and to the netfront's link up, the lateness of a
 * 1 ms rte_eal_alarm in the backend (the interrupt thread, which runs the
 * watcher and every port's control plane: its worst latency under churn),
 * and per vif the grants the backend maps, its event channels, xenstore
 * watches and open fds. Exit status 0 when every packet checked was
 * intact and every guest passed traffic both ways.
 *
 *   xen-scale [--guests N] [--duration S] [--churn-ms M] [--mem MB]
 */

#include <dirent.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>

#include "xa.h"
#include "xsim.h"

#define BURST 32
#define IN_FLIGHT 64
#define RING 256
#define POOL_MBUFS 32767
#define MAX_LIVES 4096
#define MAX_DOMID 63
#define HDR 14
#define OFF_SEQ HDR /* then the guest's life, then the length */
#define OFF_LIFE (OFF_SEQ + 8)
#define OFF_LEN (OFF_LIFE + 4)
#define OFF_DATA (OFF_LEN + 4)
#define MIN_LEN 60
#define ALARM_US 1000
#define LATE_BUCKETS 100000 /* microseconds */
#define WAIT_MS 10000
#define SETTLE_NS 500000000ull

/* One guest's life, from plug to removal; both processes write it. */
struct life {
	domid_t domid;
	uint64_t plugged_ns;
	uint64_t back_new_ns;
	uint64_t back_up_ns;
	uint64_t front_up_ns;
	uint64_t removed_ns;
	uint64_t checked_back;	/* packets the backend found intact */
	uint64_t checked_front; /* echoes the guest found intact */
};

struct shared {
	uint32_t backend_ready;
	uint32_t measured;
	uint32_t stop;
	uint32_t nb_lives;
	int32_t life_of[MAX_DOMID + 1]; /* the domain's current life */
	uint64_t bad_back, bad_front;
	uint64_t no_port;
	struct life lives[MAX_LIVES];
};

/* Shared by the two processes (an anonymous mapping made before fork). */
static struct shared *sh;

static struct {
	unsigned int guests;
	unsigned int duration_s;
	unsigned int churn_ms;
	unsigned int mem_mb;
} opt = { RTE_MAX_ETHPORTS, 25, 150, 512 };

static char inst[XA_SIM_INSTANCE_MAX + 1];

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static uint64_t
ld(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void
st(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static int
eal_init(const char *prog, const char *role, unsigned int lcore)
{
	char *argv[16], buf[256], *tok, *save = NULL;
	int argc = 0;

	argv[argc++] = (char *)(uintptr_t)prog;
	snprintf(
		buf, sizeof(buf),
		"--no-huge -m %u --no-pci --no-shconf -l %u --log-level=*:warning --file-prefix %s-%s",
		opt.mem_mb, lcore, inst, role);
	for (tok = strtok_r(buf, " ", &save); tok != NULL && argc < 15;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return rte_eal_init(argc, argv);
}

/* -------- packets: every byte a function of (life, seq, offset) -------- */

static uint32_t
pkt_len(uint64_t seq)
{
	/* Mostly up to a standard frame; every 16th up to 9000 bytes. */
	if (seq % 16 == 15)
		return 1515 + (seq * 7919) % (9000 - 1515 + 1);
	return MIN_LEN + (seq * 7919) % (1514 - MIN_LEN + 1);
}

static inline uint8_t
pattern(uint32_t life, uint64_t seq, uint32_t off)
{
	return (uint8_t)(seq * 131 + life * 29 + off * 7 + (off >> 8));
}

static struct rte_mbuf *
make_packet(struct rte_mempool *mp, uint32_t life, uint64_t seq)
{
	uint32_t len = pkt_len(seq), off = 0;
	struct rte_mbuf *head = NULL;
	uint8_t hdr[OFF_DATA];

	while (off < len) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
		uint16_t n;
		uint8_t *d;

		if (m == NULL)
			goto fail;
		n = RTE_MIN(len - off, (uint32_t)rte_pktmbuf_tailroom(m));
		d = (uint8_t *)rte_pktmbuf_append(m, n);
		for (uint16_t i = 0; i < n; i++)
			d[i] = pattern(life, seq, off + i);
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0) {
			rte_pktmbuf_free(m);
			goto fail;
		}
		off += n;
	}
	memset(hdr, 0xff, 6);
	memset(hdr + 6, 0x02, 6);
	hdr[12] = 0x88;
	hdr[13] = 0xb5;
	memcpy(hdr + OFF_SEQ, &seq, 8);
	memcpy(hdr + OFF_LIFE, &life, 4);
	memcpy(hdr + OFF_LEN, &len, 4);
	memcpy(rte_pktmbuf_mtod(head, uint8_t *), hdr, sizeof(hdr));
	return head;
fail:
	rte_pktmbuf_free(head);
	return NULL;
}

/* True when @m is packet @seq of @life, whole and unchanged. */
static bool
check_packet(const struct rte_mbuf *m, uint32_t life, uint64_t seq,
	     const char *who)
{
	uint8_t buf[OFF_DATA];
	const uint8_t *h = rte_pktmbuf_read(m, 0, sizeof(buf), buf);
	uint32_t off = 0, got_life, got_len;
	uint64_t got_seq;

	if (h == NULL)
		goto bad;
	memcpy(&got_seq, h + OFF_SEQ, 8);
	memcpy(&got_life, h + OFF_LIFE, 4);
	memcpy(&got_len, h + OFF_LEN, 4);
	if (got_seq != seq || got_life != life || got_len != pkt_len(seq) ||
	    m->pkt_len != got_len)
		goto bad;
	for (const struct rte_mbuf *s = m; s != NULL; s = s->next) {
		const uint8_t *d = rte_pktmbuf_mtod(s, const uint8_t *);

		for (uint16_t i = 0; i < s->data_len; i++, off++)
			if (off >= OFF_DATA && d[i] != pattern(life, seq, off))
				goto bad;
	}
	if (off == m->pkt_len)
		return true;
bad:
	fprintf(stderr,
		"%s: life %u: packet %" PRIu64
		" (%u bytes) is not what was sent\n",
		who, life, seq, m->pkt_len);
	return false;
}

/* -------- statistics -------- */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void
print_ms(const char *what, uint64_t *v, unsigned int n)
{
	if (n == 0) {
		printf("%-44s none\n", what);
		return;
	}
	qsort(v, n, sizeof(v[0]), cmp_u64);
	printf("%-44s median %8.2f ms  max %8.2f ms  (n=%u)\n", what,
	       v[n / 2] / 1e6, v[n - 1] / 1e6, n);
}

/* -------- the backend process -------- */

struct bport {
	bool started;
	bool up;
	int life;
	uint64_t next_seq;
	struct rte_mbuf *out[BURST * 2];
	unsigned int nb_out;
};

static struct bport bports[RTE_MAX_ETHPORTS];
static uint32_t news[RTE_MAX_ETHPORTS], rmvs[RTE_MAX_ETHPORTS];
static uint64_t new_ns[RTE_MAX_ETHPORTS];
static uint64_t late_hist[LATE_BUCKETS + 1], late_max_ns, late_n;
static uint64_t alarm_due_ns;
static volatile bool alarm_on;

static int
port_life(uint16_t port)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	unsigned int domid, handle;

	if (rte_eth_dev_get_name_by_port(port, name) != 0 ||
	    sscanf(name, "net_xen_netback_vif%u.%u", &domid, &handle) != 2 ||
	    domid > MAX_DOMID)
		return -1;
	return __atomic_load_n(&sh->life_of[domid], __ATOMIC_ACQUIRE);
}

static int
on_event(uint16_t port, enum rte_eth_event_type type, void *arg,
	 void *ret_param)
{
	(void)arg;
	(void)ret_param;
	/* Before the port is attached: its name is not to be had yet. */
	if (type == RTE_ETH_EVENT_NEW) {
		st(&new_ns[port], now_ns());
		__atomic_fetch_add(&news[port], 1, __ATOMIC_RELEASE);
	} else
		__atomic_fetch_add(&rmvs[port], 1, __ATOMIC_RELEASE);
	return 0;
}

/* On the interrupt thread: how late it runs is the control plane's wait. */
static void
on_alarm(void *arg)
{
	uint64_t t = now_ns(), late = t > alarm_due_ns ? t - alarm_due_ns : 0;

	(void)arg;
	late_hist[RTE_MIN(late / 1000, (uint64_t)LATE_BUCKETS)]++;
	late_max_ns = RTE_MAX(late_max_ns, late);
	late_n++;
	alarm_due_ns = now_ns() + ALARM_US * 1000ull;
	if (alarm_on && rte_eal_alarm_set(ALARM_US, on_alarm, NULL) != 0)
		fprintf(stderr, "backend: cannot re-arm the alarm\n");
}

static uint64_t
late_percentile(double q)
{
	uint64_t want = (uint64_t)(q * late_n), seen = 0;
	unsigned int i;

	for (i = 0; i <= LATE_BUCKETS; i++) {
		seen += late_hist[i];
		if (seen > want)
			return i;
	}
	return LATE_BUCKETS;
}

static unsigned int
open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned int n = 0;

	if (d == NULL)
		return 0;
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n - 3; /* ., .. and the directory's own fd */
}

static void
add_zone(const struct rte_memzone *mz, void *arg)
{
	*(uint64_t *)arg += mz->len;
}

struct footprint {
	uint64_t heap;	/* allocated bytes on every socket */
	uint64_t zones; /* bytes of memzones */
	unsigned int fds;
	struct xsim_usage dom0;
};

static void
footprint(struct footprint *f)
{
	struct rte_malloc_socket_stats s;
	unsigned int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i), &s) ==
		    0)
			f->heap += s.heap_allocsz_bytes;
	rte_memzone_walk(add_zone, &f->zones);
	f->fds = open_fds();
	xsim_domain_usage(inst, 0, &f->dom0);
}

static void
port_start(uint16_t port, struct rte_mempool *mp)
{
	struct bport *b = &bports[port];
	static const struct rte_eth_conf conf;

	memset(b, 0, sizeof(*b));
	b->life = port_life(port);
	if (b->life >= 0)
		st(&sh->lives[b->life].back_new_ns, ld(&new_ns[port]));
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, RING, SOCKET_ID_ANY, NULL, mp) !=
		    0 ||
	    rte_eth_tx_queue_setup(port, 0, RING, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0) {
		fprintf(stderr, "backend: cannot start port %u\n", port);
		return;
	}
	b->started = true;
}

static void
port_remove(uint16_t port)
{
	struct bport *b = &bports[port];
	struct rte_eth_dev_info info;

	rte_pktmbuf_free_bulk(b->out, b->nb_out);
	if (rte_eth_dev_info_get(port, &info) != 0 ||
	    rte_eth_dev_stop(port) != 0 || rte_eth_dev_close(port) != 0 ||
	    rte_dev_remove(info.device) != 0)
		fprintf(stderr, "backend: cannot remove port %u\n", port);
	/* Cleared before the guests hear of it and plug the next vif. */
	b->started = false;
	__atomic_store_n(&news[port], 0, __ATOMIC_RELEASE);
	__atomic_store_n(&rmvs[port], 0, __ATOMIC_RELEASE);
	if (b->life >= 0)
		st(&sh->lives[b->life].removed_ns, now_ns());
}

/* Check what guest sent, and send it back. */
static void
port_serve(uint16_t port)
{
	struct bport *b = &bports[port];
	struct rte_mbuf *in[BURST];
	struct rte_eth_link link;
	uint16_t n = 0, i, k;

	if (!b->up) {
		if (rte_eth_link_get_nowait(port, &link) != 0 ||
		    link.link_status != RTE_ETH_LINK_UP)
			return;
		b->up = true;
		if (b->life >= 0)
			st(&sh->lives[b->life].back_up_ns, now_ns());
	}
	if (b->nb_out <= BURST)
		n = rte_eth_rx_burst(port, 0, in, BURST);
	for (i = 0; i < n; i++) {
		if (b->life < 0 ||
		    !check_packet(in[i], b->life, b->next_seq, "backend")) {
			__atomic_fetch_add(&sh->bad_back, 1, __ATOMIC_RELAXED);
			rte_pktmbuf_free(in[i]);
			continue;
		}
		b->next_seq++;
		b->out[b->nb_out++] = in[i];
	}
	if (b->life >= 0 && n > 0)
		st(&sh->lives[b->life].checked_back, b->next_seq);
	k = b->nb_out > 0 ? rte_eth_tx_burst(port, 0, b->out, b->nb_out) : 0;
	memmove(b->out, b->out + k, (b->nb_out - k) * sizeof(b->out[0]));
	b->nb_out -= k;
}

static void
backend_report(const struct footprint *base, const struct footprint *full,
	       unsigned int n)
{
	uint64_t *v = calloc(MAX_LIVES, sizeof(*v));
	unsigned int i, k,
		lives = __atomic_load_n(&sh->nb_lives, __ATOMIC_ACQUIRE);
	static const struct {
		const char *what;
		size_t off;
	} spans[] = {
		{ "vif plugged -> backend RTE_ETH_EVENT_NEW",
		  offsetof(struct life, back_new_ns) },
		{ "vif plugged -> backend port link up",
		  offsetof(struct life, back_up_ns) },
		{ "vif plugged -> netfront link up",
		  offsetof(struct life, front_up_ns) },
	};

	if (v == NULL)
		return;
	printf("guests served at once                        %u (RTE_MAX_ETHPORTS %d)\n",
	       n, RTE_MAX_ETHPORTS);
	printf("guest lives (created in all)                 %u\n", lives);
	printf("DPDK heap per vif                            %.1f KiB (%" PRIu64
	       " -> %" PRIu64 " bytes)\n",
	       (double)(full->heap - base->heap) / n / 1024, base->heap,
	       full->heap);
	printf("memzones per vif                             %.1f KiB\n",
	       (double)(full->zones - base->zones) / n / 1024);
	printf("open fds per vif                             %.2f (%u -> %u)\n",
	       (double)(full->fds - base->fds) / n, base->fds, full->fds);
	printf("grants mapped by the backend per vif         %.1f\n",
	       (double)(full->dom0.maps - base->dom0.maps) / n);
	printf("event channels (dom0 ends) per vif           %.2f\n",
	       (double)(full->dom0.ports - base->dom0.ports) / n);
	printf("xenstore watches (dom0) per vif              %.2f (watcher: %u)\n",
	       (double)(full->dom0.watches - base->dom0.watches) / n,
	       base->dom0.watches);
	for (k = 0; k < RTE_DIM(spans); k++) {
		unsigned int m = 0;

		for (i = 0; i < lives; i++) {
			const struct life *l = &sh->lives[i];
			uint64_t t = ld((const uint64_t *)((const char *)l +
							   spans[k].off));

			if (t != 0 && t >= l->plugged_ns)
				v[m++] = t - l->plugged_ns;
		}
		print_ms(spans[k].what, v, m);
	}
	printf("1 ms alarm lateness (interrupt thread)       median %" PRIu64
	       " us  p99 %" PRIu64 " us  max %.2f ms  (n=%" PRIu64 ")\n",
	       late_percentile(0.5), late_percentile(0.99), late_max_ns / 1e6,
	       late_n);
	free(v);
}

/* Whether the guests' process ended, its status kept for main(). */
static bool
guests_exited(pid_t child)
{
	siginfo_t info = { .si_pid = 0 };

	return waitid(P_PID, child, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	       info.si_pid == child;
}

static int
backend_main(const char *prog, pid_t child)
{
	uint64_t stop_since = 0, all_up_since = 0;
	struct footprint base, full;
	struct rte_mempool *mp;
	unsigned int up = 0, n;
	char args[128];
	uint16_t port;

	if (eal_init(prog, "be", 0) < 0)
		return 2;
	mp = rte_pktmbuf_pool_create("be", POOL_MBUFS, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL ||
	    rte_eth_dev_callback_register(RTE_ETH_ALL, RTE_ETH_EVENT_NEW,
					  on_event, NULL) != 0 ||
	    rte_eth_dev_callback_register(RTE_ETH_ALL, RTE_ETH_EVENT_INTR_RMV,
					  on_event, NULL) != 0)
		return 2;
	snprintf(args, sizeof(args), "vifs=*,provider=sim,sim=%s", inst);
	if (rte_vdev_init("net_xen_netback_watch", args) != 0) {
		fprintf(stderr, "backend: no watcher\n");
		return 2;
	}
	footprint(&base);
	alarm_on = true;
	alarm_due_ns = now_ns() + ALARM_US * 1000ull;
	rte_eal_alarm_set(ALARM_US, on_alarm, NULL);
	__atomic_store_n(&sh->backend_ready, 1, __ATOMIC_RELEASE);
	for (;;) {
		uint64_t t = now_ns();

		if (stop_since == 0 &&
		    (__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE) ||
		     guests_exited(child)))
			stop_since = t;
		if (stop_since != 0 && (rte_eth_dev_count_avail() == 0 ||
					t - stop_since > WAIT_MS * 1000000ull))
			break;
		up = 0;
		for (port = 0; port < RTE_MAX_ETHPORTS; port++) {
			/*
			 * ethdev announces a port before it attaches it: not
			 * valid until the probe on the interrupt thread ends.
			 */
			if (__atomic_load_n(&news[port], __ATOMIC_ACQUIRE) &&
			    !bports[port].started &&
			    rte_eth_dev_is_valid_port(port))
				port_start(port, mp);
			if (!bports[port].started)
				continue;
			if (__atomic_load_n(&rmvs[port], __ATOMIC_ACQUIRE)) {
				port_remove(port);
				continue;
			}
			port_serve(port);
			up += bports[port].up;
		}
		/* All up, and a moment for the static grants to be mapped. */
		if (up == opt.guests && all_up_since == 0)
			all_up_since = t;
		if (all_up_since != 0 && t - all_up_since > SETTLE_NS &&
		    !__atomic_load_n(&sh->measured, __ATOMIC_ACQUIRE)) {
			footprint(&full);
			__atomic_store_n(&sh->measured, 1, __ATOMIC_RELEASE);
		}
	}
	alarm_on = false;
	rte_eal_alarm_cancel(on_alarm, NULL);
	n = __atomic_load_n(&sh->measured, __ATOMIC_ACQUIRE) ? opt.guests : 0;
	if (n == 0) {
		fprintf(stderr,
			"backend: the guests were never all up at once\n");
		return 1;
	}
	backend_report(&base, &full, n);
	rte_vdev_uninit("net_xen_netback_watch");
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return 0;
}

/* -------- the guests' process: toolstack and netfronts -------- */

struct guest {
	int life; /* -1: none */
	int port;
	bool up;
	uint64_t next_tx, next_rx;
	struct rte_mbuf *out[BURST];
	unsigned int nb_out;
};

static struct guest guests[RTE_MAX_ETHPORTS];

static int
free_domid(void)
{
	domid_t d;

	for (d = 1; d <= MAX_DOMID; d++)
		if (__atomic_load_n(&sh->life_of[d], __ATOMIC_ACQUIRE) < 0)
			return d;
	return -1;
}

/* "xl create": the domain, its vif 0, then its netfront starts. */
static bool
guest_create(struct guest *g, struct rte_mempool *mp)
{
	static const struct rte_eth_conf conf;
	char name[32], args[128], mac[18];
	int domid = free_domid();
	uint32_t life = __atomic_load_n(&sh->nb_lives, __ATOMIC_ACQUIRE);
	uint16_t port;

	if (domid < 0 || life >= MAX_LIVES)
		return false;
	memset(g, 0, sizeof(*g));
	g->life = life;
	sh->lives[life].domid = domid;
	__atomic_store_n(&sh->nb_lives, life + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&sh->life_of[domid], (int32_t)life, __ATOMIC_RELEASE);
	snprintf(name, sizeof(name), "guest-%u", life);
	/* Domain ids go up to MAX_DOMID: one byte of the MAC. */
	snprintf(mac, sizeof(mac), "00:16:3e:00:01:%02x", (uint8_t)domid);
	st(&sh->lives[life].plugged_ns, now_ns());
	if (xsim_domain_name(inst, domid, name) != 0 ||
	    xsim_vif_plug(inst, 0, domid, 0, mac) != 0) {
		fprintf(stderr, "guests: cannot create domain %d\n", domid);
		return false;
	}
	snprintf(name, sizeof(name), "net_xen_netfront_l%u", life);
	snprintf(args, sizeof(args), "domid=%d,provider=sim,sim=%s", domid,
		 inst);
	if (rte_vdev_init(name, args) != 0 ||
	    rte_eth_dev_get_port_by_name(name, &port) != 0 ||
	    rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
	    rte_eth_rx_queue_setup(port, 0, RING, SOCKET_ID_ANY, NULL, mp) !=
		    0 ||
	    rte_eth_tx_queue_setup(port, 0, RING, SOCKET_ID_ANY, NULL) != 0 ||
	    rte_eth_dev_start(port) != 0) {
		fprintf(stderr,
			"guests: cannot start the netfront of domain %d\n",
			domid);
		return false;
	}
	g->port = port;
	return true;
}

/* The guest shuts down, then "xl destroy". */
static void
guest_destroy(struct guest *g)
{
	struct life *l = &sh->lives[g->life];
	char name[32];

	rte_pktmbuf_free_bulk(g->out, g->nb_out);
	g->nb_out = 0;
	rte_eth_dev_stop(g->port);
	rte_eth_dev_close(g->port);
	snprintf(name, sizeof(name), "net_xen_netfront_l%d", g->life);
	rte_vdev_uninit(name);
	if (xsim_vif_unplug(inst, 0, l->domid, 0) != 0 ||
	    xsim_domain_name(inst, l->domid, NULL) != 0)
		fprintf(stderr, "guests: cannot destroy domain %u\n", l->domid);
}

static void
guest_serve(struct guest *g, struct rte_mempool *mp)
{
	struct life *l = &sh->lives[g->life];
	struct rte_mbuf *in[BURST];
	struct rte_eth_link link;
	uint16_t n, i, k;

	if (!g->up) {
		if (rte_eth_link_get_nowait(g->port, &link) != 0 ||
		    link.link_status != RTE_ETH_LINK_UP)
			return;
		g->up = true;
		st(&l->front_up_ns, now_ns());
	}
	while (g->nb_out < BURST &&
	       g->next_tx + g->nb_out - g->next_rx < IN_FLIGHT) {
		g->out[g->nb_out] =
			make_packet(mp, g->life, g->next_tx + g->nb_out);
		if (g->out[g->nb_out] == NULL)
			break;
		g->nb_out++;
	}
	k = g->nb_out > 0 ? rte_eth_tx_burst(g->port, 0, g->out, g->nb_out) : 0;
	memmove(g->out, g->out + k, (g->nb_out - k) * sizeof(g->out[0]));
	g->nb_out -= k;
	g->next_tx += k;
	n = rte_eth_rx_burst(g->port, 0, in, BURST);
	for (i = 0; i < n; i++) {
		if (check_packet(in[i], g->life, g->next_rx, "guest"))
			g->next_rx++;
		else
			__atomic_fetch_add(&sh->bad_front, 1, __ATOMIC_RELAXED);
	}
	rte_pktmbuf_free_bulk(in, n);
	if (n > 0)
		st(&l->checked_front, g->next_rx);
}

/* What each guest offers in grants and event channels, all up. */
static void
report_guest_grants(void)
{
	uint64_t grants = 0, ports = 0, watches = 0;
	struct xsim_usage u;
	unsigned int i;

	for (i = 0; i < opt.guests; i++)
		if (xsim_domain_usage(inst, sh->lives[guests[i].life].domid,
				      &u) == 0) {
			grants += u.grants;
			ports += u.ports;
			watches += u.watches;
		}
	printf("grants offered by each guest                 %.1f\n",
	       (double)grants / opt.guests);
	printf("event channels (guest ends) per guest        %.2f\n",
	       (double)ports / opt.guests);
	printf("xenstore watches per guest                   %.2f\n",
	       (double)watches / opt.guests);
	fflush(stdout);
}

static bool
removed(int life)
{
	return ld(&sh->lives[life].removed_ns) != 0;
}

static int
guests_main(const char *prog)
{
	uint64_t start, end = 0, next_churn = 0, waiting_since = 0;
	unsigned int i, oldest = 0, all_up, live, echoed;
	struct rte_mempool *mp;
	int gone = -1; /* a destroyed life the backend still serves */
	bool failed = false;

	while (!__atomic_load_n(&sh->backend_ready, __ATOMIC_ACQUIRE))
		usleep(1000);
	if (eal_init(prog, "fe", 1 % sysconf(_SC_NPROCESSORS_ONLN)) < 0)
		return 2;
	mp = rte_pktmbuf_pool_create("fe", POOL_MBUFS, 256, 0,
				     RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	if (mp == NULL)
		return 2;
	for (i = 0; i < RTE_MAX_ETHPORTS; i++)
		guests[i].life = -1;
	for (i = 0; i < opt.guests; i++)
		if (!guest_create(&guests[i], mp))
			return 1;
	start = now_ns();
	for (;;) {
		uint64_t t = now_ns();

		all_up = live = echoed = 0;
		for (i = 0; i < opt.guests; i++) {
			if (guests[i].life < 0)
				continue;
			live++;
			guest_serve(&guests[i], mp);
			echoed += guests[i].next_rx > 0;
			all_up += guests[i].up;
		}
		if (end == 0) {
			if (all_up == opt.guests &&
			    __atomic_load_n(&sh->measured, __ATOMIC_ACQUIRE)) {
				report_guest_grants();
				end = t + opt.duration_s * 1000000000ull;
				next_churn = t;
			} else if (t - start > WAIT_MS * 1000000ull) {
				fprintf(stderr,
					"guests: %u of %u up after %u ms\n",
					all_up, opt.guests, WAIT_MS);
				break;
			}
			continue;
		}
		if (gone >= 0) {
			/* The new guest waits for the old one's port id. */
			if (removed(gone)) {
				/* Its domain id is free for a new guest. */
				__atomic_store_n(
					&sh->life_of[sh->lives[gone].domid], -1,
					__ATOMIC_RELEASE);
				gone = -1;
				if (!guest_create(&guests[oldest], mp)) {
					failed = true;
					break;
				}
				oldest = (oldest + 1) % opt.guests;
			} else if (t - waiting_since > WAIT_MS * 1000000ull) {
				fprintf(stderr,
					"guests: the backend kept the port of life %d\n",
					gone);
				break;
			}
			continue;
		}
		/* The last guests made have their echo too before all go. */
		if (t >= end &&
		    (echoed == live || t - end > WAIT_MS * 1000000ull))
			break;
		if (t >= end)
			continue;
		/* A guest goes once it has had an echo: every life has traffic. */
		if (t >= next_churn && opt.churn_ms > 0 &&
		    guests[oldest].next_rx > 0) {
			next_churn = t + opt.churn_ms * 1000000ull;
			gone = guests[oldest].life;
			guest_destroy(&guests[oldest]);
			guests[oldest].life = -1;
			waiting_since = t;
		}
	}
	for (i = 0; i < opt.guests; i++)
		if (guests[i].life >= 0)
			guest_destroy(&guests[i]);
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
	rte_mempool_free(mp);
	rte_eal_cleanup();
	return end != 0 && gone < 0 && !failed ? 0 : 1;
}

/* -------- both -------- */

static bool
every_life_passed_traffic(void)
{
	unsigned int i, lives = sh->nb_lives, without = 0;
	uint64_t back = 0, front = 0;

	for (i = 0; i < lives; i++) {
		back += sh->lives[i].checked_back;
		front += sh->lives[i].checked_front;
		if (sh->lives[i].checked_back == 0 ||
		    sh->lives[i].checked_front == 0)
			without++;
	}
	printf("packets found intact                         backend %" PRIu64
	       ", guests %" PRIu64 "\n",
	       back, front);
	printf("packets not what was sent                    backend %" PRIu64
	       ", guests %" PRIu64 "\n",
	       sh->bad_back, sh->bad_front);
	printf("guest lives without traffic both ways        %u\n", without);
	return without == 0 && sh->bad_back == 0 && sh->bad_front == 0;
}

static void
usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--guests N (1-%d)] [--duration S] [--churn-ms M (0: none)] [--mem MB]\n",
		prog, RTE_MAX_ETHPORTS);
	exit(2);
}

int
main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "guests", required_argument, NULL, 'g' },
		{ "duration", required_argument, NULL, 'd' },
		{ "churn-ms", required_argument, NULL, 'c' },
		{ "mem", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	int c, status = 0, guests_rc, backend_rc;
	pid_t child;

	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		unsigned long v = optarg != NULL ? strtoul(optarg, NULL, 0) : 0;

		switch (c) {
		case 'g':
			opt.guests = v;
			break;
		case 'd':
			opt.duration_s = v;
			break;
		case 'c':
			opt.churn_ms = v;
			break;
		case 'm':
			opt.mem_mb = v;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (opt.guests < 1 || opt.guests > RTE_MAX_ETHPORTS || optind != argc)
		usage(argv[0]);
	if (xsim_instance_name_private(inst, sizeof(inst), "xscale") != 0)
		return 2;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	memset(sh->life_of, 0xff, sizeof(sh->life_of));
	printf("xen-scale: %u guests, churn every %u ms for %u s, simulator instance %s\n",
	       opt.guests, opt.churn_ms, opt.duration_s, inst);
	fflush(stdout);
	/* Each process is a domain: fork before either EAL exists. */
	child = fork();
	if (child < 0)
		return 2;
	if (child == 0)
		_exit(guests_main(argv[0]));
	backend_rc = backend_main(argv[0], child);
	if (backend_rc != 0)
		__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
	if (backend_rc != 0 && backend_rc != 1)
		kill(child, SIGTERM);
	if (waitpid(child, &status, 0) != child)
		status = -1;
	guests_rc = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : 2;
	xsim_instance_destroy(inst);
	if (!every_life_passed_traffic() || backend_rc != 0 || guests_rc != 0) {
		printf("RESULT: FAILED (backend %d, guests %d)\n", backend_rc,
		       guests_rc);
		return 1;
	}
	printf("RESULT: ok\n");
	return 0;
}
