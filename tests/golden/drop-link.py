#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Writes an ibsim net file with one switch-to-switch link removed: the
first link (in file order) between two switches whose removal keeps every
switch reachable. Deterministic: the same input gives the same output.
usage: drop-link.py IN.net OUT.net"""
import re
import sys

PORT = re.compile(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]')
NODE = re.compile(r'^(Switch|Hca|Ca|Rt)\s+\d+\s+"([^"]+)"')


def main(src, dst):
    lines = open(src).read().split('\n')
    kind, owner, links = {}, [], []
    cur = None
    for i, line in enumerate(lines):
        m = NODE.match(line)
        if m:
            cur = m.group(2)
            kind[cur] = m.group(1)
        owner.append(cur)
        p = PORT.match(line)
        if p and cur:
            links.append((i, cur, int(p.group(1)), p.group(2), int(p.group(3))))
    switches = [n for n, k in kind.items() if k == 'Switch']
    adj = {}
    for _, a, _, b, _ in links:
        if kind.get(a) == 'Switch' and kind.get(b) == 'Switch':
            adj.setdefault(a, []).append(b)

    def connected(skip):
        seen, todo = {switches[0]}, [switches[0]]
        while todo:
            n = todo.pop()
            for m in adj.get(n, []):
                if {n, m} == skip or m in seen:
                    continue
                seen.add(m)
                todo.append(m)
        return len(seen) == len(switches)

    for i, a, pa, b, pb in links:
        if kind.get(a) != 'Switch' or kind.get(b) != 'Switch' or a == b:
            continue
        if adj[a].count(b) > 1 or not connected({a, b}):
            continue
        drop = {i}
        drop |= {j for j, x, px, y, py in links if x == b and px == pb and y == a}
        open(dst, 'w').write('\n'.join(l for k, l in enumerate(lines) if k not in drop))
        return 0
    sys.exit('drop-link.py: no removable switch-to-switch link in ' + src)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))
