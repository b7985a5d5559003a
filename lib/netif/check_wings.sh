#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
#
# Checks who includes which of lib/netif's headers (its wings, meson.build):
# - packet/ includes no header of back/ or front/: both ends use it;
# - back/ includes no header of front/, nor front/ of back/;
# - the PMDs' shared glue (drivers/common/xen_netif) includes none of
#   back/ or front/: it reaches a ring kind through netif_ring_ops.h;
# - nothing outside lib/netif includes a private header (PRIVATE below).
# Prints each violation; exits 1 if there is any.
#
# Usage: check_wings.sh <source root>

cd "${1:?usage: check_wings.sh <source root>}" || exit 2
PRIVATE="netif_csum.h"

# includes <file>: the quoted includes of <file>, one a line.
includes() {
	sed -n 's/^#include "\([a-z0-9_]*\.h\)"$/\1/p' "$1"
}
# headers <dir>: the names of the headers in <dir>, one a line.
headers() {
	for h in "$1"/*.h; do basename "$h"; done
}

bad=0
# forbid <what> <header list> <files...>: each include of a listed header.
forbid() {
	what=$1 list=$2
	shift 2
	for src in "$@"; do
		for inc in $(includes "$src"); do
			if echo "$list" | grep -qx "$inc"; then
				echo "$src includes $inc ($what)"
				bad=1
			fi
		done
	done
}

back=$(headers lib/netif/back)
front=$(headers lib/netif/front)
private=$(echo "$PRIVATE" | tr ' ' '\n')
for h in $private; do
	[ -n "$(find lib/netif -name "$h")" ] ||
		{ echo "PRIVATE names $h, which lib/netif has not"; exit 2; }
done
forbid "a header of an end" "$back
$front" lib/netif/packet/*.[ch]
forbid "a header of the other end" "$front" lib/netif/back/*.[ch]
forbid "a header of the other end" "$back" lib/netif/front/*.[ch]
forbid "a header of an end: the glue goes through netif_ring_ops.h" "$back
$front" drivers/common/xen_netif/*.[ch]
forbid "private to lib/netif" "$private" $(find drivers app -name '*.[ch]')
exit $bad
