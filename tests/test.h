/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The smallest test harness that reads as a specification: each test case
 * is a function named for the behaviour it checks, RUN() executes it and
 * prints a TAP line, CHECK() records a failure with its location and goes
 * on, REQUIRE() records one and ends the case.
 *
 * A test program:
 *
 *	static void
 *	test_unbound_port_cannot_notify(void)
 *	{
 *		CHECK(...);
 *	}
 *
 *	static void
 *	test_foreign_domain_cannot_use_grant(struct xsim_peers *p)
 *	{
 *		CHECK(xa_gnt_map(p->other, ...) == NULL);
 *	}
 *
 *	TEST_MAIN(xsim_test_setup, xsim_test_teardown)
 *	{
 *		RUN(test_unbound_port_cannot_notify);
 *		RUN_WITH(xsim_peers, test_foreign_domain_cannot_use_grant);
 *	}
 *
 * TEST_MAIN(setup, teardown) defines main(): it reads the filter (below),
 * calls int setup(const char *argv0) once before the first case, runs the
 * body, calls void teardown(void) once after the last case, prints the TAP
 * plan and exits non-zero if any case failed. A setup that fails (returns
 * non-zero) stops the program with "Bail out!" and no teardown. Either
 * hook may be NULL. Ready-made hooks: test_eal_setup() (EAL alone),
 * test_eal_pool_setup() (EAL and test_pool, 1024 mbufs) and
 * test_eal_teardown() in test_eal.h; xsim_test_setup() (a simulator
 * instance private to the program) and xsim_test_teardown() in
 * xsim/xsim_test.h. A program's own hooks call these and add what its
 * cases share.
 *
 * RUN_WITH(name, fn) gives one case a fixture of its own: a struct name,
 * filled by int name_setup(struct name *) before fn(struct name *) runs
 * and released by void name_teardown(struct name *) after it, also when a
 * REQUIRE ended the case. A setup that fails fails the case without
 * running it, and must leave nothing behind (its teardown is not called).
 * Example: struct xsim_peers in xsim/xsim_test.h.
 *
 * Running some cases only: the program's arguments, or else the
 * environment's TEST_FILTER (patterns separated by spaces), select the
 * cases whose name matches one of the patterns: a pattern with '*', '?' or
 * '[' is a glob on the whole name, any other a part of the name. The other
 * cases print "ok N - name # SKIP filtered out", so the plan stays whole;
 * a filter that selects no case fails the program, so a typo is not a
 * silent pass. A program that keeps a main() of its own calls
 * test_init(argc, argv) first (without it only TEST_FILTER applies) and
 * ends with TEST_DONE().
 */

#ifndef TEST_H
#define TEST_H

#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failed_checks;
static int test_cases;
static int test_failed_cases;

/* The filter: patterns a case name must match one of; none means all. */
#define TEST_PATTERNS_MAX 64
static const char *test_patterns[TEST_PATTERNS_MAX];
static int test_nb_patterns;
static int test_selected_cases;
static bool test_initialised;
static char *test_filter_env;

#define TEST_FAIL_(what) \
	do { \
		fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, \
			what); \
		test_failed_checks++; \
	} while (0)

#define CHECK(cond) \
	do { \
		if (!(cond)) \
			TEST_FAIL_("CHECK(" #cond ")"); \
	} while (0)

/* Stop the test case at once: later checks would only cascade. */
#define REQUIRE(cond) \
	do { \
		if (!(cond)) { \
			TEST_FAIL_("REQUIRE(" #cond ")"); \
			return; \
		} \
	} while (0)

static inline void
test_add_pattern(const char *pattern)
{
	if (test_nb_patterns == TEST_PATTERNS_MAX) {
		printf("Bail out! more than %d test case patterns\n",
		       TEST_PATTERNS_MAX);
		exit(EXIT_FAILURE);
	}
	test_patterns[test_nb_patterns++] = pattern;
}

/* Read the filter: the arguments if there are any, else TEST_FILTER. */
static inline void
test_init(int argc, char **argv)
{
	const char *env = getenv("TEST_FILTER");
	char *save = NULL, *tok;
	int i;

	test_initialised = true;
	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-') {
			fprintf(stderr, "usage: %s [case name or glob]...\n",
				argv[0]);
			exit(EXIT_FAILURE);
		}
		test_add_pattern(argv[i]);
	}
	if (test_nb_patterns > 0 || env == NULL)
		return;
	/* Kept until exit: test_patterns points into it. */
	test_filter_env = strdup(env);
	if (test_filter_env == NULL)
		exit(EXIT_FAILURE);
	for (tok = strtok_r(test_filter_env, " \t", &save); tok != NULL;
	     tok = strtok_r(NULL, " \t", &save))
		test_add_pattern(tok);
}

static inline bool
test_selected(const char *name)
{
	int i;

	if (test_nb_patterns == 0)
		return true;
	for (i = 0; i < test_nb_patterns; i++) {
		const char *p = test_patterns[i];
		bool glob = strpbrk(p, "*?[") != NULL;

		if (glob ? fnmatch(p, name, 0) == 0 : strstr(name, p) != NULL)
			return true;
	}
	return false;
}

/* Whether case @name runs; if it does not, its TAP line says so. */
static inline bool
test_begin_(const char *name)
{
	if (!test_initialised)
		test_init(0, NULL);
	if (test_selected(name)) {
		test_selected_cases++;
		return true;
	}
	printf("ok %d - %s # SKIP filtered out\n", ++test_cases, name);
	fflush(stdout);
	return false;
}

static inline void
test_end_(const char *name, int failed_checks_before)
{
	bool ok = test_failed_checks == failed_checks_before;

	test_cases++;
	if (!ok)
		test_failed_cases++;
	printf("%s %d - %s\n", ok ? "ok" : "not ok", test_cases, name);
	/* A case that forks must not hand this line to its child too. */
	fflush(stdout);
}

#define RUN(fn) \
	do { \
		if (test_begin_(#fn)) { \
			int before_ = test_failed_checks; \
			fn(); \
			test_end_(#fn, before_); \
		} \
	} while (0)

#define RUN_WITH(fixture, fn) \
	do { \
		if (test_begin_(#fn)) { \
			int before_ = test_failed_checks; \
			struct fixture fixture_; \
			if (fixture##_setup(&fixture_) == 0) { \
				fn(&fixture_); \
				fixture##_teardown(&fixture_); \
			} else { \
				TEST_FAIL_(#fixture "_setup()"); \
			} \
			test_end_(#fn, before_); \
		} \
	} while (0)

/* The plan, and the program's exit status. */
static inline int
test_done(void)
{
	int i;

	printf("1..%d\n", test_cases);
	if (test_nb_patterns > 0 && test_selected_cases == 0) {
		printf("Bail out! no test case matches");
		for (i = 0; i < test_nb_patterns; i++)
			printf(" '%s'", test_patterns[i]);
		printf("\n");
		return EXIT_FAILURE;
	}
	return test_failed_cases ? EXIT_FAILURE : EXIT_SUCCESS;
}

#define TEST_DONE() return test_done()

static inline int
test_main(int argc, char **argv, int (*setup)(const char *argv0),
	  void (*cases)(void), void (*teardown)(void))
{
	test_init(argc, argv);
	if (setup != NULL && setup(argv[0]) != 0) {
		printf("Bail out! %s: set-up failed\n", argv[0]);
		return EXIT_FAILURE;
	}
	cases();
	if (teardown != NULL)
		teardown();
	return test_done();
}

#define TEST_MAIN(setup, teardown) \
	static void test_cases_(void); \
	int main(int argc, char **argv) \
	{ \
		return test_main(argc, argv, setup, test_cases_, teardown); \
	} \
	static void test_cases_(void)

#endif /* TEST_H */
