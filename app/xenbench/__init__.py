# SPDX-License-Identifier: BSD-3-Clause
"""The modules of app/xen-bench (see that file for the method).

  util            logging and the error type shown without a traceback
  testpmd_output  parsing of dpdk-testpmd's stdout (no processes)
  transports      the vdevs, plugins and limits of each transport
  memory          hugepages, or the flagged --no-huge fallback
  load            other load on this machine
  host_probe      the host's mode before a run (app xen-host-probe)
  runner          one testpmd process: start, read, stop
  measure         windows -> one point's figures (pure)
  bench           running the points
  rounds          the interleaved method: transports take turns
  instructions    instructions per packet of each end, under callgrind
  report          terminal table and JSON document
  plot            SVG plot of Mpps by packet size
  agree           two runs' ratios, spread against spread (xen-bench-agree)
  cli             arguments, checks, main()
"""
