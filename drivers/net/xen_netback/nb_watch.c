/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Every vif in one process: a netback vdev given vifs=<pattern> is no
 * port itself but watches its backend directory, as Linux's xen-netback
 * watches for the vifs the toolstack adds, and makes a port of each new
 * vif of a guest whose name matches the pattern (fnmatch(3); "*": every
 * vif, the name not read, as a driver domain needs):
 *
 *   net_xen_netback_vif<domid>.<handle>,domid=<domid>,handle=<handle>,
 *   on_removal=remove,<the watcher's other devargs>
 *
 * probed with rte_dev_probe(), so the application hears RTE_ETH_EVENT_NEW
 * (and secondary processes get the port too). When xl removes the vif,
 * the port announces its removal (RTE_ETH_EVENT_INTR_RMV, nb_xenbus.c) and
 * the application removes it (RTE_ETH_EVENT_DESTROY). A vif that comes
 * back under the same name while the application still has the old port
 * gets no port: logged and counted. So does a vif that comes when the
 * process holds RTE_MAX_ETHPORTS ports already (32 in Debian's DPDK):
 * one the application removes goes to the next new vif.
 *
 * The watcher runs on the interrupt thread, as each port's control plane
 * does. The vifs present at probe become ports inside the probe, before
 * the application starts; later ones from the watch. Telemetry
 * /xen_netback/watchers shows each watcher and its counts.
 */

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_alarm.h>
#include <rte_dev.h>
#include <rte_interrupts.h>
#include <rte_telemetry.h>

#include "nb.h"
#include "nb_watch.h"

/* While another vdev is being probed, look again this much later. */
#define NB_WATCH_BUSY_US 10000
/* Then the interrupt thread serves the others (xn_control.c). */
#define NB_WATCH_EVENTS_PER_CALL 32

struct nb_watch_vif {
	domid_t domid;
	uint16_t handle;
};

struct nb_watch {
	TAILQ_ENTRY(nb_watch) next;
	const struct rte_vdev_device *vdev;
	char pattern[NB_DOMAIN_NAME_MAX + 1];
	char *port_args;		/* for each port, after its own keys */
	struct xa_handle *xa;
	struct rte_intr_handle *intr;
	char vif_root[sizeof("/local/domain/65535/backend/vif")];
	/* The vifs of the last look: a vif not among them is new. */
	struct nb_watch_vif *seen;
	unsigned int nb_seen;
	/*
	 * The vifs whose port failed in its probe: EAL keeps such a vdev,
	 * unprobed, in the bus's list for good (rte_dev_probe() does not
	 * take it out, and no call removes an unprobed device), where it
	 * would look like a probe in progress to nb_watch_vdev_probe_running().
	 * The list lives as long as those vdevs: the watcher's life.
	 */
	struct nb_watch_vif *failed;
	unsigned int nb_failed, cap_failed;
	/* Under watchers_lock, for telemetry. */
	unsigned int vifs;		/* in the last look */
	uint64_t ports;			/* probed */
	uint64_t failures;		/* vifs that got no port */
};

/*
 * Probe and remove run one at a time (EAL's hotplug); the lock keeps the
 * list and the counts whole for the telemetry thread.
 */
static TAILQ_HEAD(, nb_watch) watchers = TAILQ_HEAD_INITIALIZER(watchers);
static pthread_mutex_t watchers_lock = PTHREAD_MUTEX_INITIALIZER;

static void
nb_watch_count(uint64_t *counter)
{
	pthread_mutex_lock(&watchers_lock);
	(*counter)++;
	pthread_mutex_unlock(&watchers_lock);
}

/* A decimal directory entry within [@min, @max], or -1. */
static long
nb_watch_parse_entry(const char *s, unsigned long min, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' ||
	    (s[0] == '0' && s[1] != '\0') || v < min || v > max)
		return -1;
	return v;
}

/*
 * Whether the guest @domid's name matches. "*" takes every vif of this
 * domain's backend directory without reading the name, which a driver
 * domain may not (nb_domain_name()): the toolstack put the vif there
 * because its line names this domain as the backend.
 */
static bool
nb_watch_name_matches(struct nb_watch *w, domid_t domid)
{
	char *name;
	bool match;

	if (strcmp(w->pattern, "*") == 0)
		return true;
	name = nb_domain_name(w->xa, domid);
	match = name != NULL && fnmatch(w->pattern, name, 0) == 0;

	free(name);
	return match;
}

/* Remember vif @v in @now, grown as needed; false without memory. */
static bool
nb_watch_remember(struct nb_watch_vif **now, unsigned int *n, unsigned int *cap,
		  struct nb_watch_vif v)
{
	struct nb_watch_vif *grown;

	if (*n == *cap) {
		*cap = *cap == 0 ? 16 : 2 * *cap;
		grown = realloc(*now, *cap * sizeof(**now));
		if (grown == NULL)
			return false;
		*now = grown;
	}
	(*now)[(*n)++] = v;
	return true;
}

static bool
nb_watch_has_vif(const struct nb_watch_vif *vifs, unsigned int n, domid_t domid,
		 uint16_t handle)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (vifs[i].domid == domid && vifs[i].handle == handle)
			return true;
	return false;
}

static void
nb_watch_spawn(struct nb_watch *w, domid_t domid, uint16_t handle)
{
	char devargs[RTE_DEV_NAME_MAX_LEN + 128 + NB_WATCH_ARGS_MAX];
	const char *name = rte_vdev_device_name(w->vdev);
	int ret;

	/*
	 * Said before trying: ethdev's own refusal reads as ENOMEM, and the
	 * failed probe would leave its vdev behind.
	 */
	if (rte_eth_dev_count_total() >= RTE_MAX_ETHPORTS) {
		nb_watch_count(&w->failures);
		NB_LOG(ERR,
		       "%s: vif %u/%u gets no port: the process holds RTE_MAX_ETHPORTS (%d) ports; the next new vif after one is removed gets it",
		       name, domid, handle, RTE_MAX_ETHPORTS);
		return;
	}
	snprintf(devargs, sizeof(devargs),
		 "net_xen_netback_vif%u.%u,domid=%u,handle=%u,on_removal=remove%s%s",
		 domid, handle, domid, handle, w->port_args[0] ? "," : "",
		 w->port_args);
	ret = rte_dev_probe(devargs);
	if (ret == 0) {
		nb_watch_count(&w->ports);
		NB_LOG(INFO, "%s: vif %u/%u: port net_xen_netback_vif%u.%u",
		       name, domid, handle, domid, handle);
		return;
	}
	/* Without memory to remember it, the watcher waits for it. */
	if (ret != -EEXIST &&
	    !nb_watch_has_vif(w->failed, w->nb_failed, domid, handle))
		nb_watch_remember(&w->failed, &w->nb_failed, &w->cap_failed,
				  (struct nb_watch_vif){ domid, handle });
	nb_watch_count(&w->failures);
	NB_LOG(ERR, "%s: vif %u/%u gets no port: %s%s", name, domid, handle,
	       rte_strerror(-ret),
	       ret == -EEXIST ?
		       " (the application has not removed the vif's last port)" :
		       "");
}

static bool
nb_watch_key_exists(struct nb_watch *w, const char *path)
{
	unsigned int len;
	void *v = xa_xs_read(w->xa, XBT_NULL, path, &len);

	free(v);
	return v != NULL;
}

/*
 * Look at the guests' vif directories: each new vif of a matching guest
 * becomes a port. A vif counts once its `frontend` key is there (xl
 * writes the directory in one transaction; a toolstack may not): the
 * port's first look at it must find it.
 */
static void
nb_watch_look(struct nb_watch *w)
{
	char path[sizeof(w->vif_root) + sizeof("/65535/65535/frontend")];
	unsigned int i, j, nd = 0, nh, n = 0, cap = 0;
	struct nb_watch_vif *now = NULL;
	char **domids, **handles;
	bool ok = true;

	domids = xa_xs_directory(w->xa, XBT_NULL, w->vif_root, &nd);
	for (i = 0; ok && i < nd; i++) {
		long domid = nb_watch_parse_entry(domids[i], 1,
						  DOMID_FIRST_RESERVED - 1);

		if (domid < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%u", w->vif_root,
			 (domid_t)domid);
		nh = 0;
		handles = xa_xs_directory(w->xa, XBT_NULL, path, &nh);
		for (j = 0; ok && j < nh; j++) {
			long handle =
				nb_watch_parse_entry(handles[j], 0, UINT16_MAX);
			struct nb_watch_vif v = { domid, handle };

			if (handle < 0)
				continue;
			snprintf(path, sizeof(path), "%s/%u/%u/frontend",
				 w->vif_root, v.domid, v.handle);
			if (!nb_watch_key_exists(w, path))
				continue;
			ok = nb_watch_remember(&now, &n, &cap, v);
			if (ok &&
			    !nb_watch_has_vif(w->seen, w->nb_seen, v.domid,
					      v.handle) &&
			    nb_watch_name_matches(w, v.domid))
				nb_watch_spawn(w, v.domid, v.handle);
		}
		free(handles);
	}
	free(domids);
	if (!ok) {
		NB_LOG(ERR, "%s: no memory to list the guests' vifs: looking again at the next change",
		       rte_vdev_device_name(w->vdev));
		free(now);
		return;
	}
	free(w->seen);
	w->seen = now;
	w->nb_seen = n;
	pthread_mutex_lock(&watchers_lock);
	w->vifs = n;
	pthread_mutex_unlock(&watchers_lock);
}

/*
 * Whether a watch event at @path may mean a vif came or went: the vif
 * root itself (the watch's first event), a guest's or a vif's directory,
 * or a vif's frontend key. Not the keys the ports write in their vifs.
 */
static bool
nb_watch_may_add_or_remove(const struct nb_watch *w, const char *path)
{
	size_t len = strlen(w->vif_root);
	const char *rest, *third;

	if (strncmp(path, w->vif_root, len) != 0)
		return false;
	rest = path + len;
	if (*rest == '\0')
		return true;
	if (*rest != '/')
		return false;
	third = strchr(rest + 1, '/');
	third = third == NULL ? NULL : strchr(third + 1, '/');
	return third == NULL || strcmp(third, "/frontend") == 0;
}

/*
 * Whether a vdev is being probed, by the EAL at start (which walks the
 * vdev list without its lock) or by a hot plug: a port added now would
 * race it. The vdevs of our ports that failed are no probe.
 */
static bool
nb_watch_failed_port(const struct nb_watch *w, const struct rte_device *dev)
{
	unsigned int domid, handle;
	char end;

	return sscanf(rte_dev_name(dev), "net_xen_netback_vif%u.%u%c", &domid,
		      &handle, &end) == 2 &&
	       nb_watch_has_vif(w->failed, w->nb_failed, domid, handle);
}

static bool
nb_watch_vdev_probe_running(const struct nb_watch *w)
{
	struct rte_dev_iterator it;
	struct rte_device *dev;
	bool running = false;

	/* RTE_DEV_FOREACH, which clang-format does not know as a loop. */
	if (rte_dev_iterator_init(&it, "bus=vdev") != 0)
		return false;
	for (dev = rte_dev_iterator_next(&it); dev != NULL;
	     dev = rte_dev_iterator_next(&it))
		running |= !rte_dev_is_probed(dev) &&
			   !nb_watch_failed_port(w, dev);
	return running;
}

/* Now, or once no vdev is being probed. */
static void
nb_watch_look_when_free(void *arg)
{
	struct nb_watch *w = arg;

	if (!nb_watch_vdev_probe_running(w))
		nb_watch_look(w);
	else if (rte_eal_alarm_set(NB_WATCH_BUSY_US, nb_watch_look_when_free,
				   w) != 0)
		NB_LOG(ERR, "%s: cannot set an alarm: new vifs wait for the next change",
		       rte_vdev_device_name(w->vdev));
}

static void
nb_watch_on_xenstore(void *arg)
{
	struct nb_watch *w = arg;
	bool changed = false;
	unsigned int n = 0;
	char **ev;

	while (n++ < NB_WATCH_EVENTS_PER_CALL &&
	       (ev = xa_xs_check_watch(w->xa)) != NULL) {
		changed |= nb_watch_may_add_or_remove(w, ev[XS_WATCH_PATH]);
		free(ev);
	}
	if (changed)
		nb_watch_look_when_free(w);
}

static void
nb_watch_free(struct nb_watch *w)
{
	if (w->intr != NULL) {
		/* Waits for a running callback to return. */
		rte_intr_callback_unregister_sync(w->intr, nb_watch_on_xenstore,
						  w);
		rte_intr_instance_free(w->intr);
	}
	rte_eal_alarm_cancel(nb_watch_look_when_free, w);
	xa_close(w->xa);
	free(w->seen);
	free(w->failed);
	free(w->port_args);
	free(w);
}

static int
nb_watch_start(struct nb_watch *w)
{
	int fd = xa_xs_fileno(w->xa);

	if (!xa_xs_watch(w->xa, w->vif_root, "vifs")) {
		NB_LOG(ERR, "%s: cannot watch %s: %s",
		       rte_vdev_device_name(w->vdev), w->vif_root,
		       strerror(errno));
		return -errno;
	}
	w->intr = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (w->intr == NULL || rte_intr_fd_set(w->intr, fd) != 0 ||
	    rte_intr_type_set(w->intr, RTE_INTR_HANDLE_EXT) != 0 ||
	    rte_intr_callback_register(w->intr, nb_watch_on_xenstore, w) != 0) {
		NB_LOG(ERR, "%s: cannot register with the interrupt thread",
		       rte_vdev_device_name(w->vdev));
		rte_intr_instance_free(w->intr);
		w->intr = NULL;
		return -ENOMEM;
	}
	return 0;
}

int
nb_watch_probe(const struct rte_vdev_device *vdev, const char *pattern,
	       const char *port_args, const struct xa_open_args *xa_args)
{
	struct nb_watch *w;
	int ret;

	/* A secondary process gets the primary's ports from the vdev bus. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	w = calloc(1, sizeof(*w));
	if (w == NULL)
		return -ENOMEM;
	w->vdev = vdev;
	snprintf(w->pattern, sizeof(w->pattern), "%s", pattern);
	w->port_args = strdup(port_args);
	w->xa = xa_open(xa_args);
	if (w->port_args == NULL || w->xa == NULL) {
		ret = w->xa == NULL ? -errno : -ENOMEM;
		NB_LOG(ERR, "%s: cannot open the %s provider: %s",
		       rte_vdev_device_name(vdev),
		       xa_provider_name(xa_args->provider), strerror(-ret));
		nb_watch_free(w);
		return ret;
	}
	snprintf(w->vif_root, sizeof(w->vif_root),
		 "/local/domain/%u/backend/vif", xa_domid(w->xa));
	nb_watch_look(w);
	ret = nb_watch_start(w);
	if (ret != 0) {
		nb_watch_free(w);
		return ret;
	}
	pthread_mutex_lock(&watchers_lock);
	TAILQ_INSERT_TAIL(&watchers, w, next);
	pthread_mutex_unlock(&watchers_lock);
	NB_LOG(INFO, "%s: a port for each vif of the guests named %s in %s; %" PRIu64 " so far",
	       rte_vdev_device_name(vdev), w->pattern, w->vif_root, w->ports);
	return 0;
}

static struct nb_watch *
nb_watch_find(const struct rte_vdev_device *vdev)
{
	struct nb_watch *w;

	TAILQ_FOREACH(w, &watchers, next)
		if (w->vdev == vdev)
			return w;
	return NULL;
}

bool
nb_watch_remove(const struct rte_vdev_device *vdev)
{
	struct nb_watch *w = nb_watch_find(vdev);

	if (w == NULL)
		return false;
	pthread_mutex_lock(&watchers_lock);
	TAILQ_REMOVE(&watchers, w, next);
	pthread_mutex_unlock(&watchers_lock);
	NB_LOG(INFO, "%s: stops watching; its %" PRIu64 " ports stay, %" PRIu64 " vifs got none",
	       rte_vdev_device_name(vdev), w->ports, w->failures);
	nb_watch_free(w);
	return true;
}

/*
 * /xen_netback/watchers: each watcher by vdev name: its pattern, the vifs
 * it saw in its last look, the ports it made and the vifs that got none.
 */
static int
nb_watch_tel_watchers(const char *cmd __rte_unused,
		   const char *params __rte_unused, struct rte_tel_data *d)
{
	struct rte_tel_data *one;
	struct nb_watch *w;
	int ret = 0;

	rte_tel_data_start_dict(d);
	pthread_mutex_lock(&watchers_lock);
	TAILQ_FOREACH(w, &watchers, next) {
		one = rte_tel_data_alloc();
		if (one == NULL) {
			ret = -ENOMEM;
			break;
		}
		rte_tel_data_start_dict(one);
		rte_tel_data_add_dict_string(one, "pattern", w->pattern);
		rte_tel_data_add_dict_string(one, "directory", w->vif_root);
		rte_tel_data_add_dict_u64(one, "vifs", w->vifs);
		rte_tel_data_add_dict_u64(one, "ports", w->ports);
		rte_tel_data_add_dict_u64(one, "no_port", w->failures);
		rte_tel_data_add_dict_container(d,
			rte_vdev_device_name(w->vdev), one, 0);
	}
	pthread_mutex_unlock(&watchers_lock);
	return ret;
}

RTE_INIT(nb_watch_telemetry)
{
	rte_telemetry_register_cmd(
		"/xen_netback/watchers", nb_watch_tel_watchers,
		"Each watcher (vifs=): pattern, vifs seen, ports made, vifs without one. No parameters");
}
