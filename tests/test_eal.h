/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * EAL set-up for tests that need mbufs or ethdev: no hugepages, no PCI,
 * no shared config, so test programs can run in parallel on any machine.
 * Also TEST_MAIN's hooks for them (see test.h).
 */

#ifndef TEST_EAL_H
#define TEST_EAL_H

#include <rte_eal.h>
#include <rte_mbuf.h>

/* The program's mbuf pool, if its setup made one. */
static struct rte_mempool *test_pool;

/* EAL on lcore @lcore (and the CPU of that number). */
static inline int
test_eal_init_on(const char *prog, unsigned int lcore, const char *extra)
{
	char *argv[16];
	char buf[512];
	int argc = 0;
	char *tok, *save = NULL;

	argv[argc++] = (char *)(uintptr_t)prog;
	snprintf(buf, sizeof(buf),
		 "--no-huge -m 512 --no-pci --no-shconf -l %u "
		 "--log-level=*:warning %s", lcore, extra != NULL ? extra : "");
	for (tok = strtok_r(buf, " ", &save); tok != NULL && argc < 15;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return rte_eal_init(argc, argv);
}

static inline int
test_eal_init(const char *prog, const char *extra)
{
	return test_eal_init_on(prog, 0, extra);
}

/* EAL as above plus a pool of @n default-size mbufs; NULL on failure. */
static inline struct rte_mempool *
test_eal_pool(const char *prog, unsigned int n)
{
	if (test_eal_init(prog, NULL) < 0)
		return NULL;
	return rte_pktmbuf_pool_create("test", n, n >= 1024 ? 256 : 0, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
}

/* TEST_MAIN setup: EAL alone. */
static inline int
test_eal_setup(const char *argv0)
{
	return test_eal_init(argv0, NULL) < 0 ? -1 : 0;
}

/*
 * TEST_MAIN setup: EAL and test_pool of 1024 mbufs, what the unit tests of
 * the data path use. A program that needs more calls test_eal_pool() in
 * its own setup and keeps the pool in test_pool.
 */
static inline int
test_eal_pool_setup(const char *argv0)
{
	test_pool = test_eal_pool(argv0, 1024);
	return test_pool != NULL ? 0 : -1;
}

/* TEST_MAIN teardown of either setup: the pool first, it lives in EAL. */
static inline void
test_eal_teardown(void)
{
	rte_mempool_free(test_pool);
	test_pool = NULL;
	rte_eal_cleanup();
}

/*
 * EAL's log, kept in memory for the tests that check what it says:
 * test_log_capture() in a setup, test_log_mark() before the call that
 * should log, test_log_since(mark) for what it logged, test_log_release()
 * in the teardown.
 */
static char *test_log_buf;
static size_t test_log_len;
static FILE *test_log_stream;

static inline int
test_log_capture(void)
{
	test_log_stream = open_memstream(&test_log_buf, &test_log_len);
	return test_log_stream != NULL &&
	       rte_openlog_stream(test_log_stream) == 0 ? 0 : -1;
}

static inline size_t
test_log_mark(void)
{
	fflush(test_log_stream);
	return test_log_len;
}

static inline const char *
test_log_since(size_t mark)
{
	fflush(test_log_stream);
	return test_log_buf + mark;
}

static inline void
test_log_release(void)
{
	rte_openlog_stream(stderr);
	fclose(test_log_stream);
	free(test_log_buf);
}

#endif /* TEST_EAL_H */
