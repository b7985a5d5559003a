/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * Microsoft's RSS verification data ("Verifying the RSS Hash Calculation",
 * windows-driver-docs): its Toeplitz key, and the first row of its IPv4
 * table as the first bytes of a frame, for the tests that check our hash
 * end to end against it.
 */

#ifndef MS_RSS_H
#define MS_RSS_H

#include <netinet/in.h>
#include <stdint.h>

static const uint8_t ms_rss_key[40] __attribute__((unused)) = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

/*
 * Ethernet, IPv4 (a 20-byte header, 40 bytes in all) and TCP ports of the
 * first row: 66.9.149.187:2794 to 161.142.100.80:1766; the rest of the
 * frame is the test's. Its IPv4+TCP hash is MS_RSS_ROW1_TCP.
 */
#define MS_RSS_ROW1_TCP 0x51ccc178
static const uint8_t ms_rss_row1[14 + 20 + 4] __attribute__((unused)) = {
	[12] = 0x08, [13] = 0x00, [14] = 0x45, [17] = 40,
	[23] = IPPROTO_TCP,
	[26] = 66, 9, 149, 187, [30] = 161, 142, 100, 80,
	[34] = 2794 >> 8, 2794 & 0xff, [36] = 1766 >> 8, 1766 & 0xff,
};

#endif /* MS_RSS_H */
