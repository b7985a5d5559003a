/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The smallest test harness that reads as a specification: each test case
 * is a function named for the behaviour it checks, RUN() executes it and
 * prints a TAP line, CHECK() records a failure with its location and goes
 * on. main() ends with TEST_DONE().
 */

#ifndef TEST_H
#define TEST_H

#include <stdio.h>
#include <stdlib.h>

static int test_failed_checks;
static int test_cases;
static int test_failed_cases;

#define CHECK(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: CHECK(%s) failed\n", \
			__FILE__, __LINE__, #cond); \
		test_failed_checks++; \
	} \
} while (0)

/* Stop the test case at once: later checks would only cascade. */
#define REQUIRE(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: REQUIRE(%s) failed\n", \
			__FILE__, __LINE__, #cond); \
		test_failed_checks++; \
		return; \
	} \
} while (0)

#define RUN(fn) do { \
	int before_ = test_failed_checks; \
	fn(); \
	test_cases++; \
	if (test_failed_checks != before_) \
		test_failed_cases++; \
	printf("%s %d - %s\n", test_failed_checks == before_ ? "ok" : "not ok", \
	       test_cases, #fn); \
	fflush(stdout); \
} while (0)

#define TEST_DONE() do { \
	printf("1..%d\n", test_cases); \
	return test_failed_cases ? EXIT_FAILURE : EXIT_SUCCESS; \
} while (0)

#endif /* TEST_H */
