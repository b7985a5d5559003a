/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * A port's description for operators (see xn_info.h): written once, here
 * and in each PMD's xn_port_ops.info, into telemetry's dictionaries or
 * into text.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_telemetry.h>

#include "netif_ring_ops.h"
#include "xn_ethdev.h"
#include "xn_info.h"

/*
 * While traffic flows the indexes move as they are read: ours are read
 * first (the ring kind's view), the shared page's after, so a producer is
 * never older than the consumer beside it, and the unconsumed count,
 * never negative, may then pass the ring's size.
 */
static void
put_ring(struct xn_info *w, const char *section, const struct xn_queue *q)
{
	struct netif_ring_view v;
	RING_IDX shared[4];
	unsigned int i;
	bool back;

	if (!netif_ring_ops(q->kind)->view(q->ring, &v))
		return;
	for (i = 0; i < RTE_DIM(shared); i++)
		shared[i] = __atomic_load_n(&v.shared[i], __ATOMIC_RELAXED);
	back = v.backend;
	w->section(w, section);
	w->str(w, "ring", v.what);
	/* The shared page's (written by whichever end owns each). */
	w->u64(w, "req_prod", shared[0]);
	w->u64(w, "req_event", shared[1]);
	w->u64(w, "rsp_prod", shared[2]);
	w->u64(w, "rsp_event", shared[3]);
	/* Ours: a backend consumes requests, a frontend responses. */
	w->u64(w, back ? "req_cons" : "rsp_cons", v.cons);
	w->u64(w, back ? "rsp_prod_pvt" : "req_prod_pvt", v.prod_pvt);
	w->u64(w, back ? "requests_unconsumed" : "responses_unconsumed",
	       (RING_IDX)(shared[back ? 0 : 2] - v.cons));
	w->section(w, NULL);
}

void
xn_info_port(struct xn_port *p, struct xn_info *w, bool rings)
{
	char name[16];
	unsigned int i;

	w->str(w, "name", p->dev->data->name);
	w->u64(w, "port_id", p->dev->data->port_id);
	w->str(w, "link", xn_port_link_up(p) ? "up" : "down");
	w->u64(w, "started", p->started);
	w->u64(w, "queues", p->cfg.queues);
	/* Where the port's and its queue pairs' memory is. */
	w->u64(w, "numa_node", p->dev->data->numa_node);
	w->u64(w, "queue_pairs_connected", p->connected ? p->nb_pairs : 0);
	w->u64(w, "mtu", p->dev->data->mtu);
	if (xn_ops_of(p)->info != NULL)
		xn_ops_of(p)->info(p, w);
	if (!rings || !p->connected)
		return;
	for (i = 0; i < p->nb_pairs; i++) {
		snprintf(name, sizeof(name), "rxq%u", i);
		put_ring(w, name, p->rxq[i]);
		snprintf(name, sizeof(name), "txq%u", i);
		put_ring(w, name, p->txq[i]);
	}
}

/* Text, for the private dump: "key: value", sections indented. */
struct text_writer {
	struct xn_info w;
	FILE *f;
	const char *indent;
};

static void
text_str(struct xn_info *w, const char *key, const char *val)
{
	struct text_writer *t = (struct text_writer *)w;

	fprintf(t->f, "%s%s: %s\n", t->indent, key, val);
}

static void
text_u64(struct xn_info *w, const char *key, uint64_t val)
{
	struct text_writer *t = (struct text_writer *)w;

	fprintf(t->f, "%s%s: %" PRIu64 "\n", t->indent, key, val);
}

static void
text_section(struct xn_info *w, const char *name)
{
	struct text_writer *t = (struct text_writer *)w;

	t->indent = name == NULL ? "" : "  ";
	if (name != NULL)
		fprintf(t->f, "%s:\n", name);
}

int
xn_info_dump(struct rte_eth_dev *dev, FILE *f)
{
	struct xn_port *p = xn_port(dev);
	struct text_writer t = {
		.w = { text_str, text_u64, text_section },
		.f = f,
		.indent = "",
	};

	pthread_mutex_lock(&p->lock);
	xn_info_port(p, &t.w, true);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

/*
 * Telemetry's dictionaries; a section is a dictionary in the top one. A
 * container that cannot be had drops its section's values, not the rest.
 */
struct tel_writer {
	struct xn_info w;
	struct rte_tel_data *top;
	struct rte_tel_data *cur;	/* NULL: dropping */
};

static void
tel_str(struct xn_info *w, const char *key, const char *val)
{
	struct tel_writer *t = (struct tel_writer *)w;

	if (t->cur != NULL)
		rte_tel_data_add_dict_string(t->cur, key, val);
}

static void
tel_u64(struct xn_info *w, const char *key, uint64_t val)
{
	struct tel_writer *t = (struct tel_writer *)w;

	if (t->cur != NULL)
		rte_tel_data_add_dict_u64(t->cur, key, val);
}

static void
tel_section(struct xn_info *w, const char *name)
{
	struct tel_writer *t = (struct tel_writer *)w;
	struct rte_tel_data *c;

	if (name == NULL) {
		t->cur = t->top;
		return;
	}
	c = rte_tel_data_alloc();
	t->cur = NULL;
	if (c == NULL)
		return;
	rte_tel_data_start_dict(c);
	if (rte_tel_data_add_dict_container(t->top, name, c, 0) != 0) {
		rte_tel_data_free(c);
		return;
	}
	t->cur = c;
}

/* The PMDs whose commands are registered (one per PMD object). */
static struct {
	const struct xn_pmd *pmd;
	char prefix[32];
} registered[2];

static const struct xn_pmd *
pmd_of(const char *cmd)
{
	unsigned int i;
	size_t n;

	for (i = 0; i < RTE_DIM(registered); i++) {
		n = strlen(registered[i].prefix);
		if (registered[i].pmd != NULL &&
		    strncmp(cmd, registered[i].prefix, n) == 0 && cmd[n] == '/')
			return registered[i].pmd;
	}
	return NULL;
}

/* <prefix>/vifs: a dictionary of every port, by port id, in short. */
static int
tel_vifs(const char *cmd, const char *params __rte_unused,
	 struct rte_tel_data *d)
{
	const struct xn_pmd *pmd = pmd_of(cmd);
	struct tel_writer t = { .w = { tel_str, tel_u64, tel_section } };
	struct xn_port *p;
	char id[8];
	uint16_t pid;

	if (pmd == NULL)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	t.top = d;
	RTE_ETH_FOREACH_DEV(pid) {
		p = xn_port_by_id(pid, pmd);
		if (p == NULL)
			continue;
		snprintf(id, sizeof(id), "%u", pid);
		t.w.section(&t.w, id);
		pthread_mutex_lock(&p->lock);
		xn_info_port(p, &t.w, false);
		pthread_mutex_unlock(&p->lock);
		t.w.section(&t.w, NULL);
	}
	return 0;
}

/* <prefix>/vif,<port id>: one port, its rings included. */
static int
tel_vif(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct xn_pmd *pmd = pmd_of(cmd);
	struct tel_writer t = { .w = { tel_str, tel_u64, tel_section } };
	struct xn_port *p;
	unsigned long pid;
	char *end;

	if (pmd == NULL || params == NULL || *params == '\0')
		return -EINVAL;
	errno = 0;
	pid = strtoul(params, &end, 10);
	if (errno != 0 || *end != '\0' || pid >= RTE_MAX_ETHPORTS)
		return -EINVAL;
	p = xn_port_by_id(pid, pmd);
	if (p == NULL)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	t.top = t.cur = d;
	pthread_mutex_lock(&p->lock);
	xn_info_port(p, &t.w, true);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

void
xn_info_register(const struct xn_pmd *pmd, const char *prefix)
{
	char cmd[64];
	unsigned int i;

	for (i = 0; i < RTE_DIM(registered); i++)
		if (registered[i].pmd == NULL)
			break;
	if (i == RTE_DIM(registered))
		return;
	registered[i].pmd = pmd;
	snprintf(registered[i].prefix, sizeof(registered[i].prefix), "%s",
		 prefix);
	snprintf(cmd, sizeof(cmd), "%s/vifs", prefix);
	rte_telemetry_register_cmd(cmd, tel_vifs,
		"Every port of the PMD: peer, xenbus states, features, queues. No parameters");
	snprintf(cmd, sizeof(cmd), "%s/vif", prefix);
	rte_telemetry_register_cmd(cmd, tel_vif,
		"One port, with each queue's ring indexes. Parameters: int port_id");
}
