# SPDX-License-Identifier: BSD-3-Clause
"""Memory for testpmd: hugepages (an existing hugetlbfs mount, or pages
reserved and a private mount set up here and undone on exit), or the
loudly flagged --no-huge fallback."""

import os
import subprocess
import tempfile

from .util import log, vlog

# 2 MiB pages reserved when we set them up: room for the interleaved
# method's 8 testpmd (4 transports) at once; as many as the kernel gives,
# down to HUGE_MIN_FREE.
HUGE_RESERVE = 2048
HUGE_MIN_FREE = 512         # enough for two testpmd (about 420 MB each)
NOHUGE_MEM_MB = 1024
TESTPMD_MB = 480            # what one testpmd takes, with some margin


def _meminfo():
    info = {}
    with open("/proc/meminfo") as f:
        for line in f:
            key, _, rest = line.partition(":")
            fields = rest.split()
            if fields:
                info[key] = int(fields[0])
    return info


def _hugetlbfs_mounts():
    mounts = []
    with open("/proc/mounts") as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 4 and fields[2] == "hugetlbfs":
                mounts.append((fields[1].replace("\\040", " "), fields[3]))
    return mounts


def _mount_pagesize_kb(options, default_kb):
    for opt in options.split(","):
        if opt.startswith("pagesize="):
            val = opt[len("pagesize="):].upper()
            mult = {"K": 1, "M": 1024, "G": 1024 * 1024}
            if val and val[-1] in mult:
                return int(val[:-1]) * mult[val[-1]]
            return int(val) // 1024
    return default_kb


NR_HUGEPAGES = "/proc/sys/vm/nr_hugepages"


def _read_nr_hugepages():
    with open(NR_HUGEPAGES) as f:
        return int(f.read().strip())


def _write_nr_hugepages(n):
    with open(NR_HUGEPAGES, "w") as f:
        f.write("%d\n" % n)


class Memory:
    """Decides the EAL memory options and undoes whatever it set up."""

    def __init__(self, force_nohuge=False):
        self.force_nohuge = force_nohuge
        self.hugepages = False
        self.huge_dir = None
        self.added_pages = 0
        self.mounted = None
        self.note = ""

    def eal_args(self):
        if self.hugepages:
            return ["--huge-dir", self.huge_dir]
        return ["--no-huge", "-m", str(NOHUGE_MEM_MB)]

    def setup(self):
        if self.force_nohuge:
            self._fallback("--no-huge was asked for")
            return
        info = _meminfo()
        page_kb = info.get("Hugepagesize", 2048)
        mounts = [m for m in _hugetlbfs_mounts()
                  if _mount_pagesize_kb(m[1], page_kb) == page_kb]
        root = os.geteuid() == 0
        if mounts:
            # Someone mounted hugepages already: use them, topping up the
            # pool if it is too small and we may.
            if info.get("HugePages_Free", 0) < HUGE_MIN_FREE:
                if not root or not self._reserve(HUGE_MIN_FREE):
                    self._fallback("hugetlbfs is mounted at %s but fewer "
                                   "than %d pages are free" %
                                   (mounts[0][0], HUGE_MIN_FREE))
                    return
            self.hugepages = True
            self.huge_dir = mounts[0][0]
            self.note = "hugepages: existing mount %s" % self.huge_dir
            return
        if not root:
            self._fallback("no hugetlbfs mounted and not root")
            return
        if not self._reserve(HUGE_RESERVE):
            self._fallback("could not reserve %d hugepages" % HUGE_MIN_FREE)
            return
        mnt = tempfile.mkdtemp(prefix="xen-bench-huge-")
        res = subprocess.run(["mount", "-t", "hugetlbfs", "-o",
                              "pagesize=%dK,mode=0700" % page_kb,
                              "nodev", mnt],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        if res.returncode != 0:
            os.rmdir(mnt)
            self._unreserve()
            self._fallback("mount -t hugetlbfs failed: %s" %
                           res.stdout.strip())
            return
        self.mounted = mnt
        self.hugepages = True
        self.huge_dir = mnt
        self.note = ("hugepages: reserved %d x %d KiB, private mount %s" %
                     (self.added_pages, page_kb, mnt))

    def room_for(self, n):
        """Whether n testpmd processes fit at once (checked before any
        runs)."""
        info = _meminfo()
        if self.hugepages:
            page_kb = info.get("Hugepagesize", 2048)
            return info.get("HugePages_Free", 0) * page_kb >= \
                n * TESTPMD_MB * 1024
        return info.get("MemAvailable", 0) >= n * TESTPMD_MB * 1024 + \
            1024 * 1024

    def _reserve(self, want_free):
        """Grow the pool until want_free pages are free; remember by how
        much, so that exactly that much is given back."""
        try:
            before = _read_nr_hugepages()
            free = _meminfo().get("HugePages_Free", 0)
            if free >= want_free:
                return True
            _write_nr_hugepages(before + (want_free - free))
            self.added_pages = max(0, _read_nr_hugepages() - before)
        except OSError as e:
            vlog("hugepages: %s" % e)
            return False
        if _meminfo().get("HugePages_Free", 0) < min(want_free,
                                                     HUGE_MIN_FREE):
            self._unreserve()
            return False
        return True

    def _unreserve(self):
        if self.added_pages:
            try:
                _write_nr_hugepages(max(0, _read_nr_hugepages() -
                                        self.added_pages))
            except OSError as e:
                log("xen-bench: could not restore nr_hugepages: %s" % e)
            self.added_pages = 0

    def _fallback(self, why):
        self.hugepages = False
        self.note = ("NO HUGEPAGES (%s): --no-huge -m %d; figures are NOT "
                     "comparable" % (why, NOHUGE_MEM_MB))
        bar = "!" * 72
        log(bar)
        log("!! WARNING: running WITHOUT hugepages (%s)." % why)
        log("!! testpmd gets --no-huge -m %d. The figures are NOT comparable"
            % NOHUGE_MEM_MB)
        log("!! with hugepage figures (vhost-user drops about tenfold).")
        log("!! Run as root, or mount hugetlbfs with >= %d free 2 MiB pages."
            % HUGE_MIN_FREE)
        log(bar)

    def cleanup(self):
        if self.mounted:
            res = subprocess.run(["umount", self.mounted],
                                 stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
            if res.returncode != 0:
                # Someone else's DPDK process found our mount and uses it:
                # detach it now; the kernel frees it when they are done.
                log("xen-bench: umount %s: %s; detaching it lazily" %
                    (self.mounted, res.stdout.strip()))
                res = subprocess.run(["umount", "-l", self.mounted],
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
            if res.returncode == 0:
                os.rmdir(self.mounted)
            else:
                log("xen-bench: could not unmount %s: %s" %
                    (self.mounted, res.stdout.strip()))
            self.mounted = None
        self._unreserve()
