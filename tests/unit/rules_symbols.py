#!/usr/bin/env python3
#
# rules_symbols.py — two checks of the built rules/ libraries read with nm,
# so the architecture of the pure core stays what rules/meson.build says.
#
#   rules_symbols.py NM layers LIB...        (LIBs from the top layer down)
#     Every pair of object files uses each other's symbols in at most one
#     direction (no file circles), and no object uses a symbol defined in a
#     library above its own (tournament -> laws -> chess -> base only).
#
#   rules_symbols.py NM purity ALLOW LIB...
#     Every symbol the libraries need from outside is on the allow-list of
#     pure libc functions in file ALLOW, and no symbol lives in writable
#     data (.data, .bss, common): tables and constants are const.  Arrays of
#     pointers land in .data.rel.ro, which is read-only after relocation.
#
# Exit status 0 when the check holds, 1 with one line per finding otherwise.

import subprocess
import sys


def objects(nm, lib):
    """{object name: [(symbol, class, section)]} of one static library."""
    out = subprocess.run([nm, '-f', 'sysv', lib], capture_output=True, text=True,
                         check=True).stdout
    objs, cur = {}, None
    for line in out.splitlines():
        if line.startswith('Symbols from '):
            cur = line[line.rindex('[') + 1:line.rindex(']')].rsplit('/', 1)[-1]
            objs[cur] = []
            continue
        f = [x.strip() for x in line.split('|')]
        if cur is None or len(f) < 7 or f[0] == 'Name':
            continue
        objs[cur].append((f[0], f[2], f[6]))
    return objs


def layers(nm, libs):
    level, defs, uses = {}, {}, {}
    for depth, lib in enumerate(libs):
        for obj, syms in objects(nm, lib).items():
            level[obj] = depth
            uses[obj] = set()
            for name, cls, _ in syms:
                if cls == 'U':
                    uses[obj].add(name)
                elif cls.isupper():
                    defs[name] = obj
    edges = {}
    for obj, names in uses.items():
        for name in names:
            to = defs.get(name)
            if to and to != obj:
                edges.setdefault((obj, to), set()).add(name)
    bad = []
    for (a, b), names in sorted(edges.items()):
        if a < b and (b, a) in edges:
            bad.append('circle: %s uses %s of %s, which uses %s of it' %
                       (a, ','.join(sorted(names)), b, ','.join(sorted(edges[(b, a)]))))
        if level[b] < level[a]:
            bad.append('upward: %s (layer %d) uses %s of %s (layer %d)' %
                       (a, level[a], ','.join(sorted(names)), b, level[b]))
    return bad


def purity(nm, allow_path, libs):
    allow = set()
    with open(allow_path) as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if line:
                allow.add(line)
    defined, needed, bad = set(), {}, []
    for lib in libs:
        for obj, syms in objects(nm, lib).items():
            for name, cls, section in syms:
                if cls == 'U':
                    needed.setdefault(name, obj)
                    continue
                defined.add(name)
                writable = (section in ('.data', '.bss', '*COM*', 'COMMON') or
                            section.startswith(('.data.', '.bss.', '.tbss', '.tdata')))
                if cls in 'Cc' or (writable and not section.startswith('.data.rel.ro')):
                    bad.append('writable data: %s in %s of %s' % (name, section, obj))
    for name, obj in sorted(needed.items()):
        if name not in defined and name not in allow:
            bad.append('not pure libc: %s needs %s' % (obj, name))
    return bad


def main(argv):
    if len(argv) < 4 or argv[2] not in ('layers', 'purity'):
        print('usage: rules_symbols.py NM layers LIB... | NM purity ALLOW LIB...')
        return 2
    nm = argv[1]
    bad = layers(nm, argv[3:]) if argv[2] == 'layers' else purity(nm, argv[3], argv[4:])
    for line in bad:
        print(line)
    print('%s: %s' % (argv[2], 'FAIL' if bad else 'ok'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
