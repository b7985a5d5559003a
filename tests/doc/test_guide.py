#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
#
# What doc/guides promises, checked offline (TAP):
#  - every command of a console block is run by the test or scenario the
#    comment ".. Run by: <file>[, <file>]" before the block names: the
#    command is there, word by word in order within one command of that
#    file, where the guide's <placeholders> match anything, the file's own
#    $expansions match anything (a bare one may stand for several options),
#    the file may add words (its own options, redirections, wrappers), a
#    --vdev word may add devargs, provider=xen stands for itself (a real-Xen
#    scenario) or the simulator's provider=sim, and a program the file gets
#    as an argument (its "usage:" line and name="$N") is that program;
#  - every devarg key of both PMDs' param strings is documented;
#  - the feature matrices use only DPDK 22.11's keys, with Y or P.
#
# usage: test_guide.py <source root> [guide .rst files...]
import glob
import os
import re
import sys

# DPDK 22.11's doc/guides/nics/features/default.ini, [Features]: the test
# runs offline, without DPDK's source.
DPDK_FEATURES = """
Speed capabilities|Link speed configuration|Link status|Link status event|
Removal event|Queue status event|Rx interrupt|Lock-free Tx queue|
Fast mbuf free|Free Tx mbuf on demand|Queue start/stop|Runtime Rx queue setup|
Runtime Tx queue setup|Shared Rx queue|Burst mode info|
Power mgmt address monitor|MTU update|Buffer split on Rx|Scattered Rx|LRO|TSO|
Promiscuous mode|Allmulticast mode|Unicast MAC filter|Multicast MAC filter|
RSS hash|RSS key update|RSS reta update|Inner RSS|VMDq|SR-IOV|DCB|
VLAN filter|Flow control|Rate limitation|Congestion management|
Traffic manager|Inline crypto|Inline protocol|CRC offload|VLAN offload|
QinQ offload|FEC|IP reassembly|L3 checksum offload|L4 checksum offload|
Timestamp offload|MACsec offload|Inner L3 checksum|Inner L4 checksum|
Packet type parsing|Timesync|Rx descriptor status|Tx descriptor status|
Basic stats|Extended stats|Stats per queue|FW version|EEPROM dump|
Module EEPROM dump|Registers dump|LED|Multiprocess aware|FreeBSD|Linux|
Windows|ARMv7|ARMv8|LoongArch64|Power8|rv64|x86-32|x86-64|Usage doc|
Design doc|Perf doc"""
FEATURE_KEYS = {k.strip() for k in DPDK_FEATURES.replace('\n', '').split('|')}

n = 0
failed = False


def tap(ok, what, diag=()):
    global n, failed
    n += 1
    print('%s %d - %s' % ('ok' if ok else 'not ok', n, what))
    for d in diag:
        print('# ' + d)
    if not ok:
        failed = True


def words(line):
    """Shell words of a command line, quotes removed, $(...), $((...)),
    ${...} kept whole; a comment ends it."""
    out, cur, i, quote, depth = [], '', 0, None, 0
    while i < len(line):
        c = line[i]
        if depth:
            cur += c
            depth += {'(': 1, ')': -1}.get(c, 0)
        elif quote:
            if c == quote:
                quote = None
            elif c == '$' and line[i + 1:i + 2] == '(' and quote == '"':
                cur += c
                depth = 0
                i += 1
                cur += '('
                depth = 1
            else:
                cur += c
        elif c in '\'"':
            quote = c
        elif c == '$' and line[i + 1:i + 2] == '(':
            cur += '$('
            depth = 1
            i += 1
        elif c.isspace():
            if cur:
                out.append(cur)
            cur = ''
        elif c == '#' and not cur:
            break
        else:
            cur += c
        i += 1
    if cur:
        out.append(cur)
    return out


def logical_lines(text):
    """A file's commands: continuation lines joined, and what each
    command substitution runs."""
    text = re.sub(r'\\\n', ' ', text)
    lines = [l for l in text.split('\n') if l.strip()]
    return lines + [m for l in lines for m in re.findall(r'\$\(([^()]*)\)', l)]


def guide_words(cmd):
    """A guide command's words, a <placeholder> one word with its spaces."""
    cmd = re.sub(r'<[^>]*>', lambda m: m.group(0).replace(' ', '\x01'), cmd)
    return [w.replace('\x01', ' ') for w in words(cmd)]


EXPANSION = r'\$(\(\(.*?\)\)|\(.*\)|\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!])'


def file_regex(word, aliases):
    if word.lstrip('$') in aliases and word.startswith('$'):
        return re.escape(aliases[word[1:]]) + '$'
    parts, pos = [], 0
    for m in re.finditer(EXPANSION, word):
        parts.append(re.escape(word[pos:m.start()]))
        parts.append('.*')
        pos = m.end()
    parts.append(re.escape(word[pos:]))
    return ''.join(parts)


def guide_regex(word):
    parts, pos = [], 0
    for m in re.finditer(r'<[^>]+>', word):
        parts.append(re.escape(word[pos:m.start()]))
        parts.append('.+')
        pos = m.end()
    parts.append(re.escape(word[pos:]))
    return ''.join(parts)


def same_word(g, f, aliases):
    if f.startswith('$') and f[1:] in aliases:
        f = aliases[f[1:]]
        return re.fullmatch(guide_regex(g), f) or \
            re.fullmatch(r'(.*/)?' + re.escape(f), g)
    # provider=xen: a real-Xen scenario's, or the simulator's provider=sim.
    for g in dict.fromkeys((g, g.replace('provider=xen', 'provider=sim'))):
        if re.fullmatch(guide_regex(g), f, re.S) or \
                re.fullmatch(file_regex(f, aliases), g, re.S):
            return True
    # A vdev: the file may add devargs (the simulator's instance...).
    if g.startswith('net_xen_') and ',' in g and ',' in f:
        gs, fs = g.split(','), f.split(',')
        return same_word(gs[0], fs[0], aliases) and all(
            any(same_word(a, b, aliases) for b in fs[1:]) for a in gs[1:])
    return False


def bare_expansion(f):
    return re.fullmatch(EXPANSION, f) is not None


def command_in(gw, fw, aliases):
    """The guide's words gw, in order, within the file's words fw."""
    memo = {}
    # The program (and the environment before it) is named, not any $x:
    # only a function's positional argument may stand for it.
    prog = next((k for k, w in enumerate(gw) if not re.match(r'\w+=', w)), 0)

    def may_match(i, f):
        return (i > prog or not bare_expansion(f) or f[1:] in aliases or
                re.fullmatch(r"\$[1-9]", f))

    def m(i, j):
        if i == len(gw):
            return True
        if j == len(fw):
            return False
        key = (i, j)
        if key not in memo:
            r = m(i, j + 1)
            if not r and may_match(i, fw[j]) and \
                    same_word(gw[i], fw[j], aliases):
                r = m(i + 1, j + 1)
            # $eal and the like: several options, never the program.
            if not r and i > 0 and gw[i].startswith('-') and \
                    bare_expansion(fw[j]) and fw[j][1:] not in aliases:
                r = any(m(k, j + 1) for k in range(i + 2, len(gw) + 1))
            memo[key] = r
        return memo[key]
    return m(0, 0)


def program_aliases(text):
    """name="$N" of a script whose usage line names argument N."""
    usage = re.search(r'^# usage: \S+ (.*)$', text, re.M)
    if not usage:
        return {}
    args = re.findall(r'<([^>]+)>', usage.group(1))
    out = {}
    for name, num in re.findall(r'^(\w+)="\$(\d)"$', text, re.M):
        k = int(num) - 1
        if k < len(args) and ' ' not in args[k]:
            out[name] = args[k]
            out['{' + name + '}'] = args[k]
    return out


def guide_blocks(path):
    """(line, files, commands) of each console block."""
    lines = open(path).read().split('\n')
    out, run_by = [], None
    for i, l in enumerate(lines):
        m = re.match(r'\.\. Run by: (.*)$', l)
        if m:
            run_by = (i + 1, m.group(1))
            continue
        if re.match(r'\.\. code-block:: (console|shell|sh|bash)\s*$', l):
            body = []
            for b in lines[i + 1:]:
                if b.strip() and not b.startswith(' '):
                    break
                body.append(b)
            text = re.sub(r'\\\n', ' ', '\n'.join(body))
            cmds = [c.strip() for c in text.split('\n')
                    if c.strip() and not c.strip().startswith('#')]
            files = None
            if run_by and run_by[0] >= i - 3:
                files = [f.strip() for f in run_by[1].split(',')]
            out.append((i + 1, files, cmds))
            run_by = None
    return out


def check_commands(root, guides):
    for g in guides:
        rel = os.path.relpath(g, root)
        for line, files, cmds in guide_blocks(g):
            if not files:
                tap(False, '%s:%d: a block without ".. Run by:"' % (rel, line))
                continue
            for cmd in cmds:
                gw = guide_words(cmd)
                found = None
                for f in files:
                    p = os.path.join(root, f)
                    if not os.path.isfile(p):
                        continue
                    text = open(p).read()
                    aliases = program_aliases(text)
                    if any(command_in(gw, words(l), aliases)
                           for l in logical_lines(text)):
                        found = f
                        break
                tap(found is not None,
                    '%s:%d: run by %s: %s' % (rel, line, found or
                                             ' or '.join(files), cmd),
                    () if found else ['not found in ' + ', '.join(files)])


def param_keys(root):
    """Both PMDs' devarg keys, from their RTE_PMD_REGISTER_PARAM_STRING."""
    src = ''
    for p in glob.glob(os.path.join(root, 'drivers/net/xen_net*/*.c')) + \
            glob.glob(os.path.join(root, 'drivers/common/xen_netif/*.h')):
        src += open(p).read() + '\n'
    defs = dict(re.findall(r'#define (\w+) "([^"]*)"', src))
    keys = {}
    for pmd, body in re.findall(
            r'RTE_PMD_REGISTER_PARAM_STRING\((\w+),(.*?)\);', src, re.S):
        body = body.replace('XN_PARAM_STRING', re.search(
            r'#define XN_PARAM_STRING((?:.*\\\n)*.*)', src).group(1))
        keys[pmd] = {defs[m] for m in re.findall(r'\b([A-Z_]*ARG_\w+)\b', body)
                     if m in defs}
    return keys


def check_devargs(root, guides):
    text = ''.join(open(g).read() for g in guides)
    keys = param_keys(root)
    tap(set(keys) == {'net_xen_netback', 'net_xen_netfront'} and
        all(keys.values()), 'the param strings of both PMDs are read',
        ['%s: %s' % (k, sorted(v)) for k, v in keys.items()])
    for pmd, ks in sorted(keys.items()):
        rst = os.path.join(root, 'doc/guides/nics/%s.rst' % pmd[4:])
        doc = open(rst).read() if os.path.isfile(rst) else ''
        missing = sorted(k for k in ks if '- ``%s``' % k not in doc)
        tap(not missing, '%s: every devarg key has its entry in %s'
            % (pmd, os.path.relpath(rst, root)), ['missing: %s' % missing])
        missing = sorted(k for k in ks if '``%s' % k not in text
                         and '%s=' % k not in text)
        tap(not missing, '%s: every devarg key appears in the guides' % pmd,
            ['missing: %s' % missing])


def check_ini(root):
    for ini in sorted(glob.glob(os.path.join(root,
                                             'doc/guides/nics/features/*.ini'))):
        bad, section = [], None
        for l in open(ini):
            l = l.strip()
            if not l or l.startswith(';'):
                continue
            if l.startswith('['):
                section = l
                if section != '[Features]':
                    bad.append('section %s' % section)
                continue
            key, _, val = l.partition('=')
            if key.strip() not in FEATURE_KEYS or val.strip() not in ('Y', 'P'):
                bad.append(l)
        tap(not bad, '%s: only DPDK 22.11 feature keys, Y or P'
            % os.path.relpath(ini, root), bad)


def main():
    root = sys.argv[1]
    guides = sys.argv[2:] or sorted(
        glob.glob(os.path.join(root, 'doc/guides/**/*.rst'), recursive=True))
    check_commands(root, guides)
    check_devargs(root, guides)
    check_ini(root)
    print('1..%d' % n)
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
