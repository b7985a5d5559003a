# SPDX-License-Identifier: BSD-3-Clause
#
# Sphinx settings of the guides, as DPDK keeps its own in doc/guides:
# `sphinx-build -W --keep-going -b html doc/guides <output dir>` (Debian's
# python3-sphinx). tests/doc/test_guide_build.sh builds them so, every
# warning an error.

project = 'DPDK PMDs for Xen netif'
master_doc = 'index'
