/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Naming an instance private to a process: xsim_instance_name_private()
 * gives "<prefix>-<pid>-<ns>". A name of the pid alone is how a test once
 * opened a killed test's store: the new process had the dead one's pid,
 * the old instance was still in /dev/shm, and its guests and vifs were
 * there at the first open. The clock tells the two processes apart: a pid
 * comes back only after the kernel has handed out all the others.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "xa.h"
#include "xsim.h"

static void
test_private_name_is_the_prefix_the_pid_and_the_clock(void)
{
	char name[XA_SIM_INSTANCE_MAX + 1], want[32];
	unsigned long long ns;
	char end;

	snprintf(want, sizeof(want), "web-%d-", (int)getpid());
	REQUIRE(xsim_instance_name_private(name, sizeof(name), "web") == 0);
	CHECK(strncmp(name, want, strlen(want)) == 0);
	CHECK(sscanf(name + strlen(want), "%llu%c", &ns, &end) == 1);
	CHECK(xa_sim_instance_valid(name));
}

static void
test_private_names_a_millisecond_apart_differ(void)
{
	char a[XA_SIM_INSTANCE_MAX + 1], b[XA_SIM_INSTANCE_MAX + 1];

	REQUIRE(xsim_instance_name_private(a, sizeof(a), "t") == 0);
	usleep(1000);
	REQUIRE(xsim_instance_name_private(b, sizeof(b), "t") == 0);
	CHECK(strcmp(a, b) != 0);
}

static void
test_name_that_does_not_fit_or_is_invalid_is_refused_empty(void)
{
	char small[8] = "x", big[2 * XA_SIM_INSTANCE_MAX] = "x";
	char prefix[XA_SIM_INSTANCE_MAX - 4 + 1];

	errno = 0;
	CHECK(xsim_instance_name_private(small, sizeof(small), "t") == -1 &&
	      errno == ENAMETOOLONG && small[0] == '\0');
	/* It fits the buffer, not the instance names' limit. */
	memset(prefix, 'p', sizeof(prefix) - 1);
	prefix[sizeof(prefix) - 1] = '\0';
	errno = 0;
	CHECK(xsim_instance_name_private(big, sizeof(big), prefix) == -1 &&
	      errno == EINVAL && big[0] == '\0');
	big[0] = 'x';
	errno = 0;
	CHECK(xsim_instance_name_private(big, sizeof(big), "a/b") == -1 &&
	      errno == EINVAL && big[0] == '\0');
}

TEST_MAIN(NULL, NULL)
{
	RUN(test_private_name_is_the_prefix_the_pid_and_the_clock);
	RUN(test_private_names_a_millisecond_apart_differ);
	RUN(test_name_that_does_not_fit_or_is_invalid_is_refused_empty);
}
