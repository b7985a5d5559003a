/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Port set-up and a verified packet mover for the in-process driver tests
 * (see vdev_pair.h). Every byte of every packet is a function of its
 * sequence number and offset, so a reordered, truncated, duplicated or
 * corrupted packet is caught where it arrives.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "vdev_pair.h"
#include "xsim.h"

#define BURST 32

const char *
pair_sim_instance(void)
{
	static char name[XA_SIM_INSTANCE_MAX + 1];

	/* "test" is short enough for any pid and clock: failing is a bug. */
	if (name[0] == '\0' &&
	    xsim_instance_name_private(name, sizeof(name), "test") != 0) {
		perror("xsim_instance_name_private");
		abort();
	}
	return name;
}

int
pair_create_conf(const char *name, const char *args, struct rte_mempool *mp,
		 uint16_t nb_queues, const struct rte_eth_conf *conf)
{
	uint16_t port;

	if (rte_vdev_init(name, args) != 0) {
		fprintf(stderr, "rte_vdev_init(%s, %s) failed\n", name, args);
		return -1;
	}
	if (rte_eth_dev_get_port_by_name(name, &port) != 0 ||
	    pair_start(port, mp, nb_queues, conf) != 0) {
		fprintf(stderr, "cannot set up port %s with %u queues\n", name,
			nb_queues);
		return -1;
	}
	return port;
}

int
pair_start(uint16_t port, struct rte_mempool *mp, uint16_t nb_queues,
	   const struct rte_eth_conf *conf)
{
	uint16_t q;

	if (rte_eth_dev_configure(port, nb_queues, nb_queues, conf) != 0)
		return -1;
	for (q = 0; q < nb_queues; q++)
		if (rte_eth_rx_queue_setup(port, q, 256, SOCKET_ID_ANY, NULL,
					   mp) != 0 ||
		    rte_eth_tx_queue_setup(port, q, 256, SOCKET_ID_ANY,
					   NULL) != 0)
			return -1;
	return rte_eth_dev_start(port);
}

int
pair_create_queues(const char *name, const char *args,
		   struct rte_mempool *mp, uint16_t nb_queues)
{
	const struct rte_eth_conf conf = { 0 };

	return pair_create_conf(name, args, mp, nb_queues, &conf);
}

int
pair_create(const char *name, const char *args, struct rte_mempool *mp)
{
	return pair_create_queues(name, args, mp, 1);
}

void
pair_destroy(const char *name, uint16_t port)
{
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	rte_vdev_uninit(name);
}

bool
pair_wait_link(uint16_t port, bool up, unsigned int ms)
{
	struct rte_eth_link link;

	for (;;) {
		if (rte_eth_link_get_nowait(port, &link) == 0 &&
		    (link.link_status == RTE_ETH_LINK_UP) == up)
			return true;
		if (ms-- == 0)
			return false;
		rte_delay_us_sleep(1000);
	}
}

uint32_t
pair_len(uint64_t seq)
{
	/* A stride prime to the range visits every length. */
	return PAIR_MIN_LEN + (seq * 7919) % (PAIR_MAX_LEN - PAIR_MIN_LEN + 1);
}

static inline uint8_t
pattern(uint64_t seq, uint32_t off)
{
	return (uint8_t)(seq * 131 + off * 7 + (off >> 8));
}

static struct rte_mbuf *
make_packet(struct rte_mempool *mp, uint64_t seq)
{
	uint32_t len = pair_len(seq), off = 0;
	struct rte_mbuf *head = NULL;

	while (off < len) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
		uint16_t n;
		uint8_t *d;

		if (m == NULL)
			goto fail;
		n = RTE_MIN(len - off, (uint32_t)rte_pktmbuf_tailroom(m));
		d = (uint8_t *)rte_pktmbuf_append(m, n);
		for (uint16_t i = 0; i < n; i++)
			d[i] = pattern(seq, off + i);
		if (off == 0) {
			/* Broadcast frame with our EtherType and the seq. */
			memset(d, 0xff, 6);
			memset(d + 6, 0x02, 6);
			d[12] = PAIR_ETHERTYPE >> 8;
			d[13] = PAIR_ETHERTYPE & 0xff;
			memcpy(d + 14, &seq, sizeof(seq));
			head = m;
		} else if (rte_pktmbuf_chain(head, m) != 0) {
			rte_pktmbuf_free(m);
			goto fail;
		}
		off += n;
	}
	return head;
fail:
	rte_pktmbuf_free(head);
	return NULL;
}

static bool
check_packet(const struct rte_mbuf *m, uint64_t seq)
{
	uint32_t len = pair_len(seq), off = 0;
	const struct rte_mbuf *s;
	uint64_t got;

	if (m->pkt_len != len) {
		fprintf(stderr, "packet %" PRIu64 ": %u bytes, expected %u\n",
			seq, m->pkt_len, len);
		return false;
	}
	if (rte_pktmbuf_data_len(m) < 22)
		return false;
	memcpy(&got, rte_pktmbuf_mtod_offset(m, uint8_t *, 14), sizeof(got));
	if (got != seq) {
		fprintf(stderr, "packet %" PRIu64 " arrived as %" PRIu64 "\n",
			seq, got);
		return false;
	}
	for (s = m; s != NULL; s = s->next) {
		const uint8_t *d = rte_pktmbuf_mtod(s, const uint8_t *);

		for (uint16_t i = 0; i < s->data_len; i++, off++) {
			if (off < 22)
				continue;
			if (d[i] != pattern(seq, off)) {
				fprintf(stderr, "packet %" PRIu64
					": byte %u differs\n", seq, off);
				return false;
			}
		}
	}
	return off == len;
}

uint64_t
pair_transfer(uint16_t tx, uint16_t rx, struct rte_mempool *mp,
	      uint64_t first_seq, uint64_t count, unsigned int in_flight)
{
	return pair_transfer_queue(tx, rx, 0, mp, first_seq, count, in_flight);
}

uint64_t
pair_transfer_queue(uint16_t tx, uint16_t rx, uint16_t queue,
		    struct rte_mempool *mp, uint64_t first_seq,
		    uint64_t count, unsigned int in_flight)
{
	uint64_t next_tx = first_seq, next_rx = first_seq;
	uint64_t end = first_seq + count;
	struct rte_mbuf *out[BURST], *in[BURST];
	unsigned int nb_out = 0, idle = 0;

	while (next_rx < end) {
		uint16_t i, n;

		while (nb_out < BURST && next_tx + nb_out < end &&
		       next_tx - next_rx + nb_out < in_flight) {
			out[nb_out] = make_packet(mp, next_tx + nb_out);
			if (out[nb_out] == NULL)
				break;
			nb_out++;
		}
		if (nb_out > 0) {
			n = rte_eth_tx_burst(tx, queue, out, nb_out);
			next_tx += n;
			memmove(out, out + n, (nb_out - n) * sizeof(out[0]));
			nb_out -= n;
		}
		n = rte_eth_rx_burst(rx, queue, in, BURST);
		for (i = 0; i < n; i++) {
			bool ok = next_rx < end && check_packet(in[i], next_rx);

			rte_pktmbuf_free(in[i]);
			if (!ok) {
				rte_pktmbuf_free_bulk(in + i + 1, n - i - 1);
				rte_pktmbuf_free_bulk(out, nb_out);
				return next_rx - first_seq;
			}
			next_rx++;
		}
		idle = n == 0 ? idle + 1 : 0;
		if (idle > 10 * 1000 * 1000) {
			fprintf(stderr, "stalled at packet %" PRIu64
				" with %" PRIu64 " sent\n", next_rx, next_tx);
			break;
		}
	}
	rte_pktmbuf_free_bulk(out, nb_out);
	return next_rx - first_seq;
}

uint64_t
pair_xstat(uint16_t port, const char *name)
{
	uint64_t id, value;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(port, &id, &value, 1) != 1)
		return UINT64_MAX;
	return value;
}

uint64_t
pair_xstat_settled(uint16_t port, const char *name, uint64_t want,
		   unsigned int ms)
{
	uint64_t v = pair_xstat(port, name);

	for (; v != want && ms > 0; ms--) {
		rte_delay_us_sleep(1000);
		v = pair_xstat(port, name);
	}
	return v;
}

/* The netback of @pr, the toolstack's @key, then the netfront. */
static bool
open_ports(struct pair *pr, const char *back_args, const char *front_args,
	   uint16_t nb_queues, const char *key, const char *value,
	   const struct rte_eth_conf *conf, struct rte_mempool *mp)
{
	struct xa_open_args xa_args = {
		.provider = XA_PROVIDER_SIM,
		.sim_instance = pr->inst,
	};
	char args[256];

	pr->toolstack = NULL;
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s,queues=%u%s%s",
		 pr->inst, nb_queues, back_args[0] != '\0' ? "," : "",
		 back_args);
	pr->back = pair_create_conf("net_xen_netback0", args, mp, nb_queues,
				    conf);
	pr->front = -1;
	if (pr->back < 0)
		return false;
	if (key != NULL) {
		pr->toolstack = xa_open(&xa_args);
		if (pr->toolstack == NULL ||
		    !(value == NULL ?
		      xa_xs_rm(pr->toolstack, XBT_NULL, key) :
		      xa_xs_write(pr->toolstack, XBT_NULL, key, value,
				  strlen(value))))
			return false;
	}
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s,queues=%u%s%s",
		 pr->inst, nb_queues, front_args[0] != '\0' ? "," : "",
		 front_args);
	pr->front = pair_create_conf("net_xen_netfront0", args, mp, nb_queues,
				     conf);
	return pr->front >= 0 && pair_wait_link(pr->back, true, 10000) &&
	       pair_wait_link(pr->front, true, 10000);
}

bool
pair_open(struct pair *pr, const char *tag, const char *back_args,
	  const char *front_args, struct rte_mempool *mp)
{
	return pair_open_conf(pr, tag, back_args, front_args, 1,
			      &(struct rte_eth_conf){ 0 }, mp);
}

bool
pair_open_conf(struct pair *pr, const char *tag, const char *back_args,
	       const char *front_args, uint16_t nb_queues,
	       const struct rte_eth_conf *conf, struct rte_mempool *mp)
{
	snprintf(pr->inst, sizeof(pr->inst), "%s-%s", pair_sim_instance(), tag);
	return open_ports(pr, back_args, front_args, nb_queues, NULL, NULL,
			  conf, mp);
}

bool
pair_open_keyed(struct pair *pr, const char *tag, uint16_t nb_queues,
		const char *key, const char *value, struct rte_mempool *mp)
{
	snprintf(pr->inst, sizeof(pr->inst), "%s-%s", pair_sim_instance(), tag);
	return open_ports(pr, "", "", nb_queues, key, value,
			  &(struct rte_eth_conf){ 0 }, mp);
}

void
pair_close(struct pair *pr)
{
	if (pr->front >= 0)
		pair_destroy("net_xen_netfront0", pr->front);
	if (pr->back >= 0)
		pair_destroy("net_xen_netback0", pr->back);
	if (pr->toolstack != NULL)
		xa_close(pr->toolstack);
	xsim_instance_destroy(pr->inst);
	pr->toolstack = NULL;
	pr->front = pr->back = -1;
}

struct rte_mbuf *
pair_frame(struct rte_mempool *mp, const void *data, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	char *d;

	if (m == NULL)
		return NULL;
	d = rte_pktmbuf_append(m, len);
	if (d == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memcpy(d, data, len);
	return m;
}

static uint64_t
queue_xstat(uint16_t port, const char *q, const char *what)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_%s", q, what);
	return pair_xstat(port, name);
}

uint64_t
pair_doorbells(uint16_t port, const char *q)
{
	return queue_xstat(port, q, "notifications_sent") +
	       queue_xstat(port, q, "notifications_suppressed");
}

uint64_t
pair_notified(uint16_t port, const char *q)
{
	return queue_xstat(port, q, "notifications_sent");
}

#define MIXED_PERIOD 4096

enum mf_kind
pair_mixed_kind(uint64_t seq)
{
	static uint8_t kinds[MIXED_PERIOD];
	static bool made;

	if (!made) {
		uint32_t r = 12345;
		unsigned int i = 0;

		while (i < MIXED_PERIOD) {
			unsigned int len, k;

			r = r * 1103515245 + 12345;
			len = 1 + (r >> 16) % 12;
			k = (r >> 8) % MF_NB;
			while (len-- > 0 && i < MIXED_PERIOD)
				kinds[i++] = k;
		}
		made = true;
	}
	return kinds[seq % MIXED_PERIOD];
}

bool
pair_mixed_frames(struct rte_mempool *mp, uint64_t first, unsigned int n,
		  struct rte_mbuf **pkts)
{
	uint8_t frame[MF_LEN];
	unsigned int i;

	for (i = 0; i < n; i++) {
		mf_build(frame, pair_mixed_kind(first + i), first + i);
		pkts[i] = pair_frame(mp, frame, MF_LEN);
		if (pkts[i] == NULL) {
			rte_pktmbuf_free_bulk(pkts, i);
			return false;
		}
	}
	return true;
}

bool
pair_guest_create(domid_t domid, const char *name)
{
	char mac[18];

	snprintf(mac, sizeof(mac), "00:16:3e:00:01:%02x", domid & 0xff);
	return xsim_domain_name(pair_sim_instance(), domid, name) == 0 &&
	       xsim_vif_plug(pair_sim_instance(), 0, domid, 0, mac) == 0;
}

bool
pair_guest_destroy(domid_t domid)
{
	return xsim_vif_unplug(pair_sim_instance(), 0, domid, 0) == 0 &&
	       xsim_domain_name(pair_sim_instance(), domid, NULL) == 0;
}

int
pair_guest_frontend(domid_t domid, struct rte_mempool *mp)
{
	char args[128];

	snprintf(args, sizeof(args), "domid=%u,provider=sim,sim=%s", domid,
		 pair_sim_instance());
	return pair_create("net_xen_netfront0", args, mp);
}

bool
pair_traffic_both_ways(uint16_t back, uint16_t front, struct rte_mempool *mp,
		       uint64_t *seq, uint64_t n)
{
	bool ok = pair_wait_link(back, true, 10000) &&
		  pair_wait_link(front, true, 10000) &&
		  pair_transfer(front, back, mp, *seq, n, 128) == n &&
		  pair_transfer(back, front, mp, *seq, n, 128) == n;

	*seq += n;
	return ok;
}
