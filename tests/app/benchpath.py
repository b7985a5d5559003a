# SPDX-License-Identifier: BSD-3-Clause
"""Makes app/xenbench importable from the tests, whatever the cwd."""

import os
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
APP = os.path.join(os.path.dirname(os.path.dirname(HERE)), "app")
FIXTURES = os.path.join(HERE, "fixtures")
if APP not in sys.path:
    sys.path.insert(0, APP)


def fixture(name):
    return os.path.join(FIXTURES, name)
