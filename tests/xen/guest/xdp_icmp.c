/* SPDX-License-Identifier: BSD-3-Clause */

/*
 * The XDP program the stock Linux guest attaches to its vif (scenario 13),
 * built with clang -target bpf by tests/xen/build-images.sh, twice: as is
 * it passes every frame; with -DDROP_ICMP it drops IPv4 ICMP, and so only
 * if it finds the frame where the netfront says it starts, which is where
 * the backend put it (xdp-headroom). Loaded by iproute2's ip, which needs
 * no more than the "xdp" section and a licence; no headers, so that only
 * clang is needed to build it.
 */

struct xdp_md {
	unsigned int data;
	unsigned int data_end;
	unsigned int data_meta;
	unsigned int ingress_ifindex;
	unsigned int rx_queue_index;
	unsigned int egress_ifindex;
};

#define XDP_DROP 1
#define XDP_PASS 2

__attribute__((section("xdp"), used)) int
xdp_icmp(struct xdp_md *ctx)
{
#ifdef DROP_ICMP
	const unsigned char *data = (const unsigned char *)(long)ctx->data;
	const unsigned char *end = (const unsigned char *)(long)ctx->data_end;

	/* Ethernet, then IPv4 (0x0800) up to its protocol byte: ICMP is 1. */
	if (data + 34 > end)
		return XDP_PASS;
	if (data[12] == 0x08 && data[13] == 0x00 && data[23] == 1)
		return XDP_DROP;
#else
	(void)ctx;
#endif
	return XDP_PASS;
}

char _license[] __attribute__((section("license"), used)) = "GPL";
