#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
#
# The command line systemd would run for a unit's ExecStart=, given its
# EnvironmentFile= and overrides: printed NUL-separated, one word each, for
# a test that runs exactly that. systemd's rules as far as this unit uses
# them: "$VAR" alone is the value split at whitespace, "${VAR}" is the value
# as one word (inside a word too); the environment file is KEY=VALUE lines,
# '#' comments, values optionally in double quotes.
#
# usage: systemd_exec.py <unit> <environment file> [KEY=VALUE]...
import re
import shlex
import sys


def read_env(path):
    env = {}
    for line in open(path):
        line = line.strip()
        if not line or line.startswith('#') or line.startswith(';'):
            continue
        key, _, value = line.partition('=')
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        env[key.strip()] = value
    return env


def exec_start(path):
    lines = [l[len('ExecStart='):].strip() for l in open(path)
             if l.startswith('ExecStart=')]
    if len(lines) != 1:
        sys.exit('%s: want one ExecStart=, found %d' % (path, len(lines)))
    return lines[0]


def expand(cmd, env):
    words = []
    for w in shlex.split(cmd):
        m = re.fullmatch(r'\$([A-Za-z_][A-Za-z0-9_]*)', w)
        if m:
            words += env.get(m.group(1), '').split()
            continue
        words.append(re.sub(r'\$\{([A-Za-z_][A-Za-z0-9_]*)\}',
                            lambda m: env.get(m.group(1), ''), w))
    return words


def main():
    unit, envfile = sys.argv[1:3]
    env = read_env(envfile)
    for kv in sys.argv[3:]:
        key, _, value = kv.partition('=')
        env[key] = value
    sys.stdout.write(''.join(w + '\0' for w in expand(exec_start(unit), env)))


if __name__ == '__main__':
    main()
