#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
#
# The README's layout tree against the tree (TAP): every line names a file
# or folder that exists and says its job; a folder whose files the tree
# lists has each of its sources listed (.c, .h, .sh, .py; meson.build
# files are not), in it or in a listed subfolder, so that a file added,
# moved or renamed without its line fails here. A folder listed without
# children (app/, tests/) is described as a whole.
#
# usage: test_readme_layout.py <source root>
import os
import re
import sys

SOURCES = ('.c', '.h', '.sh', '.py')


def layout_block(readme):
    text = open(readme).read()
    section = text[text.index('\n## Layout\n'):]
    return section.split('```\n')[1]


def entries(block):
    """(path, job) per line; two spaces of indent a level."""
    stack, out = [], []
    for line in block.splitlines():
        m = re.match(r'^( *)(\S+)\s+(\S.*)?$', line)
        if not m or len(m.group(1)) >= 20:
            continue  # a job continued on the next line
        level = len(m.group(1)) // 2
        del stack[level:]
        path = os.path.join(*stack, m.group(2)) if stack else m.group(2)
        out.append((path, m.group(3) or ''))
        if m.group(2).endswith('/'):
            stack.append(m.group(2).rstrip('/'))
    return out


def expand(path):
    m = re.match(r'^(.*)\.\[(\w+)\]$', path)
    return [m.group(1) + '.' + x for x in m.group(2)] if m else [path]


def main():
    root = sys.argv[1]
    listed, dirs, opaque, lines = set(), set(), set(), entries(
        layout_block(os.path.join(root, 'README.md')))
    results = []
    for path, job in lines:
        if path.endswith('/'):
            dirs.add(path.rstrip('/'))
            continue
        for f in expand(path):
            listed.add(f)
            results.append((os.path.isfile(os.path.join(root, f)),
                            'listed file %s exists' % f))
        if not job:
            results.append((False, '%s says its job' % path))
    for d in sorted(dirs):
        results.append((os.path.isdir(os.path.join(root, d)),
                        'listed folder %s/ exists' % d))
        if not any(p.startswith(d + '/') for p in listed):
            opaque.add(d)
    for d in sorted(dirs - opaque):
        if any(d.startswith(o + '/') for o in opaque):
            continue
        for base, subs, files in os.walk(os.path.join(root, d)):
            rel = os.path.relpath(base, root)
            if rel in opaque:
                subs[:] = []
                continue
            for f in sorted(files):
                if f.endswith(SOURCES):
                    p = os.path.join(rel, f)
                    results.append((p in listed,
                                    'the tree lists %s' % p))
    print('1..%d' % len(results))
    failed = 0
    for i, (ok, what) in enumerate(results, 1):
        print('%s %d - %s' % ('ok' if ok else 'not ok', i, what))
        failed += not ok
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
