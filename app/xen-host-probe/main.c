/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * xen-host-probe: which mode the host is in, for the benchmark's reader
 * (issue 32). On these VMs every transport that moves packets between two
 * CPUs runs at one of two speeds, chosen by the host, not by the driver
 * (the same point measured 6.17 and 17.03 Mpps). What changes is what a
 * cache line costs to move between the two CPUs, so that is timed:
 *
 *   bounce  two threads, one pinned to each CPU, hand one cache line back
 *           and forth (each waits for the other's write, then writes);
 *           nanoseconds a round trip, the median of --trials timings of
 *           --trips round trips each;
 *   copy    memcpy of a 32 MiB buffer to another on the first CPU, in
 *           GB/s (the median of the trials): the memory the copies of
 *           every transport go through.
 *
 * A probe takes about 0.1 s when the host is quiet. It prints one line,
 * or with --json one JSON object, on stdout:
 *
 *   xen-host-probe --cpus A,B [--trips N] [--trials N] [--json]
 *
 * Exit status 0, or 2 with the usage for bad arguments, 1 when a CPU
 * cannot be used.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TRIPS_DEFAULT 20000
#define TRIALS_DEFAULT 5
#define TRIALS_MAX 101
#define COPY_BYTES (32u << 20)
#define LINE 64

/* The line the two threads hand back and forth, alone in its line. */
static struct {
	_Alignas(LINE) volatile uint64_t turn;
	char pad[LINE - sizeof(uint64_t)];
} shared;

struct side {
	int cpu;
	unsigned long trips;
	int err;
};

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int
pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static uint64_t
wait_turn(uint64_t want)
{
	uint64_t v;

	while ((v = __atomic_load_n(&shared.turn, __ATOMIC_ACQUIRE)) != want &&
	       v != UINT64_MAX)
		;
	return v;
}

/* From @first on, every other turn: wait for it, then pass it on. */
static void
play(uint64_t first, unsigned long turns)
{
	unsigned long i;

	for (i = 0; i < turns; i++) {
		wait_turn(first + 2 * i);
		__atomic_store_n(&shared.turn, first + 2 * i + 1,
				 __ATOMIC_RELEASE);
	}
}

/* The partner takes the even turns, 0 (its start) to 2 * trips. */
static void *
partner(void *arg)
{
	struct side *s = arg;

	s->err = pin(s->cpu);
	if (s->err == 0)
		play(0, s->trips + 1);
	else
		__atomic_store_n(&shared.turn, UINT64_MAX, __ATOMIC_RELEASE);
	return NULL;
}

/* One timing: ns a round trip between @a (this thread) and @b. */
static int
bounce(int a, int b, unsigned long trips, double *ns)
{
	struct side other = { .cpu = b, .trips = trips };
	pthread_t t;
	double t0;
	int err;

	__atomic_store_n(&shared.turn, 0, __ATOMIC_RELEASE);
	err = pin(a);
	if (err != 0)
		return err;
	err = pthread_create(&t, NULL, partner, &other);
	if (err != 0)
		return err;
	/* Turn 1: the partner runs, pinned; the clock starts. */
	if (wait_turn(1) == UINT64_MAX) {
		pthread_join(t, NULL);
		return other.err;
	}
	t0 = now_ns();
	play(1, trips);
	wait_turn(2 * trips + 1);
	*ns = (now_ns() - t0) / trips;
	pthread_join(t, NULL);
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s --cpus A,B [--trips N] [--trials N] [--json]\n"
		"  A, B: two different CPUs this process may run on\n"
		"  --trips: round trips a timing (default %u, at least 2)\n"
		"  --trials: timings, median printed (default %u, 1..%u)\n",
		prog, TRIPS_DEFAULT, TRIALS_DEFAULT, TRIALS_MAX);
	exit(2);
}

/* A decimal number in [min, max] (the whole of @s), or -1. */
static long
number(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
		return -1;
	return v;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "trips", required_argument, NULL, 'n' },
		{ "trials", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	double bounce_ns[TRIALS_MAX], copy_gbs[TRIALS_MAX];
	long trips = TRIPS_DEFAULT, trials = TRIALS_DEFAULT, a = -1, b = -1;
	char *src, *dst, *comma;
	bool json = false;
	int o, err;
	long i;

	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'c':
			comma = strchr(optarg, ',');
			if (comma == NULL)
				usage(argv[0]);
			*comma = '\0';
			a = number(optarg, 0, CPU_SETSIZE - 1);
			b = number(comma + 1, 0, CPU_SETSIZE - 1);
			if (a < 0 || b < 0 || a == b)
				usage(argv[0]);
			break;
		case 'n':
			trips = number(optarg, 2, 100000000);
			if (trips < 0)
				usage(argv[0]);
			break;
		case 't':
			trials = number(optarg, 1, TRIALS_MAX);
			if (trials < 0)
				usage(argv[0]);
			break;
		case 'j':
			json = true;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (optind != argc || a < 0)
		usage(argv[0]);

	src = malloc(COPY_BYTES);
	dst = malloc(COPY_BYTES);
	if (src == NULL || dst == NULL) {
		fprintf(stderr, "xen-host-probe: out of memory\n");
		return 1;
	}
	memset(src, 1, COPY_BYTES);
	memset(dst, 2, COPY_BYTES);
	for (i = 0; i < trials; i++) {
		double t0;

		err = bounce(a, b, trips, &bounce_ns[i]);
		if (err != 0) {
			fprintf(stderr,
				"xen-host-probe: cannot run on CPUs %ld and %ld: %s\n",
				a, b, strerror(err));
			return 1;
		}
		t0 = now_ns();
		memcpy(dst, src, COPY_BYTES);
		copy_gbs[i] = COPY_BYTES / (now_ns() - t0);
		/* The copy must happen: the compiler sees dst read. */
		if (dst[COPY_BYTES - 1] != 1)
			return 1;
	}
	if (json)
		printf("{\"cpus\": [%ld, %ld], \"bounce_ns\": %.1f, "
		       "\"copy_gbs\": %.2f, \"trials\": %ld, \"trips\": %ld}\n",
		       a, b, median(bounce_ns, trials),
		       median(copy_gbs, trials), trials, trips);
	else
		printf("host: a cache line's round trip between CPUs %ld and %ld "
		       "%.1f ns, memcpy %.2f GB/s (medians of %ld)\n",
		       a, b, median(bounce_ns, trials),
		       median(copy_gbs, trials), trials);
	free(src);
	free(dst);
	return 0;
}
