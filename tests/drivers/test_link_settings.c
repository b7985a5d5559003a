/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The vif's link settings as both ends' ports report them: the MTU the
 * toolstack wrote in the frontend's directory (mtu; absent or invalid:
 * 1500), unless the application chose one with rte_eth_dev_set_mtu(),
 * which ethdev bounds by the largest frame a request can carry; and a MAC
 * address the application may change, since a vif filters no address.
 */

#include <stdio.h>
#include <string.h>

#include "test.h"
#include "vdev_pair.h"

#define FE_DIR "/local/domain/1/device/vif/0"

static struct pair pr;
static int back = -1, front = -1;

/*
 * The netback (its MTU chosen by its application when @back_mtu > 0), the
 * vif's mtu key (NULL: none), then the netfront.
 */
static bool
open_pair(const char *tag, const char *mtu, int back_mtu)
{
	bool ok = pair_open_keyed(&pr, tag, 1, FE_DIR "/mtu", mtu, test_pool);

	back = pr.back;
	front = pr.front;
	return ok && (back_mtu == 0 || rte_eth_dev_set_mtu(back, back_mtu) == 0);
}

static void
close_pair(void)
{
	pair_close(&pr);
	back = front = -1;
}

static int
mtu_of(int port)
{
	uint16_t mtu;

	return rte_eth_dev_get_mtu(port, &mtu) == 0 ? mtu : -1;
}

static void
test_both_ends_take_the_vifs_mtu(void)
{
	REQUIRE(open_pair("jumbo", "9000", 0));
	CHECK(mtu_of(back) == 9000);
	CHECK(mtu_of(front) == 9000);
	CHECK(pair_transfer(front, back, test_pool, 0, 500, 64) == 500);
	close_pair();
}

static void
test_no_or_an_invalid_mtu_key_means_1500(void)
{
	static const char *const keys[] = { NULL, "junk", "67", "65522", "-9000" };
	unsigned int i;

	for (i = 0; i < RTE_DIM(keys); i++) {
		REQUIRE(open_pair("bad", keys[i], 0));
		CHECK(mtu_of(back) == 1500);
		CHECK(mtu_of(front) == 1500);
		close_pair();
	}
}

static void
test_the_applications_mtu_wins_over_the_vifs(void)
{
	char args[128];

	REQUIRE(open_pair("chosen", "9000", 4000));
	CHECK(mtu_of(back) == 4000);
	CHECK(mtu_of(front) == 9000);
	/* The guest connects again: the key is read again, and ignored. */
	pair_destroy("net_xen_netfront0", front);
	snprintf(args, sizeof(args), "domid=1,provider=sim,sim=%s", pr.inst);
	front = pr.front = pair_create("net_xen_netfront0", args, test_pool);
	REQUIRE(front >= 0 && pair_wait_link(front, true, 10000));
	REQUIRE(pair_wait_link(back, true, 10000));
	CHECK(mtu_of(back) == 4000);
	CHECK(rte_eth_dev_set_mtu(front, 1280) == 0);
	CHECK(mtu_of(front) == 1280);
	/* A frame must fit the 16-bit size of a request. */
	CHECK(rte_eth_dev_set_mtu(back, 65521) == 0);
	CHECK(rte_eth_dev_set_mtu(back, 65522) == -EINVAL);
	CHECK(rte_eth_dev_set_mtu(front, RTE_ETHER_MIN_MTU - 1) == -EINVAL);
	CHECK(mtu_of(back) == 65521);
	close_pair();
}

static void
test_the_mac_address_is_the_applications_to_set(void)
{
	struct rte_ether_addr a = {{ 0x02, 0, 0, 0, 0xb, 0x1 }};
	struct rte_ether_addr b = {{ 0x02, 0, 0, 0, 0xf, 0x1 }};
	struct rte_ether_addr got;

	REQUIRE(open_pair("mac", NULL, 0));
	CHECK(rte_eth_dev_default_mac_addr_set(back, &a) == 0);
	CHECK(rte_eth_dev_default_mac_addr_set(front, &b) == 0);
	CHECK(rte_eth_macaddr_get(back, &got) == 0 &&
	      rte_is_same_ether_addr(&got, &a));
	CHECK(rte_eth_macaddr_get(front, &got) == 0 &&
	      rte_is_same_ether_addr(&got, &b));
	/* No filter: frames to any address still pass both ways. */
	CHECK(pair_transfer(front, back, test_pool, 0, 200, 64) == 200);
	CHECK(pair_transfer(back, front, test_pool, 200, 200, 64) == 200);
	close_pair();
}

TEST_MAIN(pair_setup, pair_teardown)
{
	RUN(test_both_ends_take_the_vifs_mtu);
	RUN(test_no_or_an_invalid_mtu_key_means_1500);
	RUN(test_the_applications_mtu_wins_over_the_vifs);
	RUN(test_the_mac_address_is_the_applications_to_set);
}
