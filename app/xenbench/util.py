# SPDX-License-Identifier: BSD-3-Clause
"""Logging to stderr and the error type the user can act on."""

import sys

_verbose = False


def set_verbose(on):
    global _verbose
    _verbose = bool(on)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def vlog(msg):
    if _verbose:
        log(msg)


class BenchError(Exception):
    """A failure the user can act on; printed without a traceback."""
