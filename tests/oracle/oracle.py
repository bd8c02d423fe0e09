#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""An independent oracle for keiro check's verdicts (docs/testing.md,
"The independent oracle").

Written apart from core/check on purpose, in plain Python (standard library
only), as small and obvious as it can be: it follows packets through the
dumped tables one hop at a time and collects what it sees.

    oracle.py DIR [--sls FILE | --stale-sls FILE] [--fixed-sl N | --mixed-sl N]
                  [--assume-sl N] [--pairs all|ca-sources|ca] [--lmc N]
                  [--mcast-sl N] [--json]

DIR holds opensm-subnet.lst, opensm-lfts.dump, opensm-sl2vl.dump (absent:
every SL on VL 0), keiro-path-sl.dump (or --sls FILE), and optionally
opensm.mcfdbs and opensm-sa.dump.

Exit status: 0 everything checked holds, 1 something fails, 2 unusable input.
"""

import argparse
import json
import os
import re
import sys

DROP_VL = 15  # an SL2VL entry of 15 drops the packet
NO_PORT = 255  # LFT entry without a port


class Unusable(Exception):
    """The input cannot be checked (exit 2)."""


# ---------------------------------------------------------------- the fabric

class Fabric:
    """Switches, CA/router ports, links, LIDs (from opensm-subnet.lst)."""

    def __init__(self):
        self.switches = {}  # node guid -> {'name', 'lid', 'ports'}
        self.cas = {}  # port guid -> {'name', 'lid', 'node', 'port'}
        self.links = {}  # (guid, port) -> (guid, port); a switch's guid is its node guid
        self.lmc = 0

    def is_switch(self, guid):
        return guid in self.switches

    def name(self, guid):
        return (self.switches.get(guid) or self.cas[guid])['name']

    def remote(self, guid, port):
        """What (guid, port) is cabled to, or None."""
        return self.links.get((guid, port))

    def lid_owner(self):
        """LID -> guid (switch or CA port) for every LID in use."""
        owner = {}
        for g, s in self.switches.items():
            owner[s['lid']] = g
        for g, c in self.cas.items():
            for i in range(1 << self.lmc):
                owner[c['lid'] + i] = g
        return owner

    def lids_of(self, guid):
        if guid in self.switches:
            return [self.switches[guid]['lid']]
        base = self.cas[guid]['lid']
        return list(range(base, base + (1 << self.lmc)))


END_RE = re.compile(r'\{\s*(\S+)\s+Ports:(\w+)\s+SystemGUID:(\w+)\s+NodeGUID:(\w+)\s+'
                    r'PortGUID:(\w+).*?\{(.*)\}\s+LID:(\w+)\s+PN:(\w+)\s*\}')


def read_subnet(path):
    fab = Fabric()
    with open(path) as f:
        for line in f:
            if not line.startswith('{'):
                continue
            # Two endpoints "{ TYPE ... {name} LID:xxxx PN:nn }" per line.
            halves = re.split(r'\}\s+\{', line.strip(), maxsplit=1)
            if len(halves) != 2:
                raise Unusable('opensm-subnet.lst: cannot read line: ' + line.strip())
            ends = []
            for text in (halves[0] + '}', '{' + halves[1]):
                text = text[:text.rfind('}') + 1]
                m = END_RE.match(text)
                if not m:
                    raise Unusable('opensm-subnet.lst: cannot read endpoint: ' + text)
                kind, nports, _, node, port_guid, name, lid, pn = m.groups()
                node, port_guid = int(node, 16), int(port_guid, 16)
                lid, pn = int(lid, 16), int(pn, 16)
                if kind.startswith('SW'):
                    fab.switches.setdefault(node, {'name': name, 'lid': lid, 'ports': int(nports, 16)})
                    ends.append((node, pn))
                else:
                    fab.cas.setdefault(port_guid, {'name': name, 'lid': lid, 'node': node, 'port': pn})
                    ends.append((port_guid, pn))
            fab.links[ends[0]] = ends[1]
            fab.links[ends[1]] = ends[0]
    if not fab.switches:
        raise Unusable('opensm-subnet.lst: no switch')
    return fab


# ---------------------------------------------------------------- the tables

def sections(path, header, row):
    """The lines of a dump made of sections (OpenSM's per-switch blocks):
    yields (h, None) for every line matching the regex header and (h, m)
    for every line matching row after it, h being the match of the last
    header line; rows before the first header are skipped."""
    cur = None
    with open(path) as f:
        for line in f:
            h = re.match(header, line)
            if h:
                cur = h
                yield cur, None
                continue
            m = re.match(row, line)
            if m and cur is not None:
                yield cur, m


def read_lfts(path):
    """switch guid -> {lid: port}; absent LIDs have no port (NO_PORT).
    Also the LMC implied by the LIDs the comments name per CA port."""
    lft, per_port = {}, {}
    for h, m in sections(path, r'Unicast lids \[.*\] of switch Lid \d+ guid 0x(\w+)',
                         r'0x(\w+)\s+(\d+)'):
        cur = lft.setdefault(int(h.group(1), 16), {})
        if m is None:
            continue
        cur[int(m.group(1), 16)] = int(m.group(2))
        c = re.search(r'Channel Adapter portguid 0x(\w+)|Router portguid 0x(\w+)', m.string)
        if c:
            per_port.setdefault(c.group(1) or c.group(2), set()).add(int(m.group(1), 16))
    most = max((len(v) for v in per_port.values()), default=1)
    lmc = 0
    while (1 << lmc) < most:
        lmc += 1
    return lft, lmc


def read_sl2vl(path):
    """guid -> {(in, out): [VL of SL 0..15]}; switch rows by node guid, CA
    rows (one table, key (0, 0)) by port guid."""
    tables = {}
    for h, m in sections(path, r'(Switch|Channel Adapter|Router) 0x(\w+)',
                         r'(\d+)\s+(\d+)\s+:((\s+\d+){16})\s*$'):
        cur = tables.setdefault(int(h.group(2), 16), {})
        if m is not None:
            cur[(int(m.group(1)), int(m.group(2)))] = [int(v) for v in m.group(3).split()]
    return tables


def read_path_sls(path, fab):
    """A keiro path-SL file (core/io/path_sl_file.h) as a function
    sl(source guid, source LID, destination LID) -> SL or None."""
    scope, max_lid, rows = None, 0, {}
    with open(path) as f:
        lines = [l.split() for l in f if l.strip() and not l.startswith('#')]
    if not lines or lines[0][:2] != ['keiro-path-sl', '1']:
        raise Unusable(path + ': not a keiro path-SL file')
    for words in lines[1:]:
        if words[0] == 'max_lid':
            max_lid = int(words[1])
        elif words[0] == 'scope':
            scope = words[1]
        elif words[0] in ('dest', 'switch', 'slid'):
            key = None if words[0] == 'dest' else int(words[1], 16 if words[1].startswith('0x') else 10)
            digits = words[-1]
            rows[key] = [None] + [None if ch == '-' else int(ch, 16) for ch in digits]
    if scope not in ('destination', 'source-switch', 'source-lid'):
        raise Unusable(path + ': no scope')

    def sl(src, slid, dlid):
        if scope == 'destination':
            row = rows.get(None)
        elif scope == 'source-lid':
            row = rows.get(slid)
        else:  # the source switch: the switch itself or the one the CA is cabled to
            sw = src if fab.is_switch(src) else fab.remote(src, fab.cas[src]['port'])[0]
            row = rows.get(sw)
        if row is None or dlid > max_lid or dlid >= len(row):
            return None
        return row[dlid]
    return sl


# ---------------------------------------------------------------- multicast input

def read_mcfdbs(path):
    """mlid -> {switch guid: set of ports}."""
    masks = {}
    for h, m in sections(path, r'Switch 0x(\w+)', r'0x(\w+)\s*:(.*)'):
        if m is not None:
            ports = {int(p, 16) for p in m.group(2).split()}
            masks.setdefault(int(m.group(1), 16), {}).setdefault(int(h.group(1), 16),
                                                                set()).update(ports)
    return masks


def read_sa_groups(path):
    """mlid -> {'members': set of port guids, 'sls': set of SLs}, from the MC
    Group records of opensm-sa.dump and their mcm_port lines."""
    groups, cur = {}, None
    with open(path) as f:
        for line in f:
            if line.startswith('MC Group'):
                mlid = int(re.search(r'\smlid=0x(\w+)', line).group(1), 16)
                sl = int(re.search(r'sl_flow_hop=0x(\w+)', line).group(1), 16) >> 28
                cur = groups.setdefault(mlid, {'members': set(), 'sls': set()})
                cur['sls'].add(sl)
            elif line.startswith('mcm_port:') and cur is not None:
                m = re.search(r'port_gid=0x\w+:0x(\w+)', line)
                cur['members'].add(int(m.group(1), 16))
            elif line.strip():
                cur = None  # another kind of record
    return groups


# ---------------------------------------------------------------- the oracle

class Oracle:
    def __init__(self, fab, lft, sl2vl):
        self.fab, self.lft, self.sl2vl = fab, lft, sl2vl
        self.owner = fab.lid_owner()
        # The wrong model, for classifying test cases only (differential.py):
        # CA traffic entering its switch on port 0 instead of its cable port.
        self.ca_entry_port0 = False

    def vl(self, guid, inp, out, sl):
        """VL of a hop leaving switch guid on out after entering on inp (or
        of a CA port's own output, inp = out = 0). Missing rows: VL 0."""
        row = self.sl2vl.get(guid, {}).get((inp, out))
        return row[sl] if row else 0

    def next_hop(self, sw, dlid):
        """Where switch sw sends dlid: ('switch', guid, in port, out port),
        ('deliver', None), ('wrong', None) or ('black hole', None)."""
        port = self.lft.get(sw, {}).get(dlid, NO_PORT)
        if port == 0:
            return ('deliver' if self.owner.get(dlid) == sw else 'wrong', None)
        if port > self.fab.switches[sw]['ports']:
            return ('black hole', None)
        rem = self.fab.remote(sw, port)
        if rem is None:
            return ('black hole', None)
        if self.fab.is_switch(rem[0]):
            return ('switch', (rem[0], rem[1], port))
        return ('deliver' if self.owner.get(dlid) == rem[0] else 'wrong', port)

    # -- verdict 1: where does every switch's walk to dlid end?

    def outcomes(self, dlid):
        """switch -> 'deliver' | 'wrong' | 'black hole' | 'loop' for the LFT
        walk from that switch to dlid."""
        result = {}
        for start in self.fab.switches:
            walk, on_walk, sw = [], set(), start
            while True:
                if sw in result:
                    end = result[sw]
                    break
                if sw in on_walk:
                    end = 'loop'
                    break
                walk.append(sw)
                on_walk.add(sw)
                kind, nxt = self.next_hop(sw, dlid)
                if kind != 'switch':
                    end = kind
                    break
                sw = nxt[0]
            for s in walk:
                result[s] = end
        return result

    # -- verdict 2: the (channel, VL) dependencies of the walk to dlid

    def follow(self, dlid, sw, inp, sl, memo, deps, drops):
        """Follows a packet for dlid on SL sl (0..15, or 'any': the SL is
        unknown and every SL must give the same VLs) that entered switch sw on
        port inp. Adds the dependencies between consecutive switch-to-switch
        hops to deps, and every hop that maps the packet onto VL 15, as
        (dlid, switch, out port), to drops. memo (per dlid) maps a
        state (sw, inp, sl) to (first channel or None, dropped ahead, SL
        needed ahead). Returns that tuple for the start state."""
        walk, on_walk = [], set()
        state = (sw, inp, sl)
        tail = (None, False, False)
        while True:
            if state in memo:
                tail = memo[state]
                break
            if state in on_walk:  # forwarding loop: back to a hop of this walk
                tail = (next(c for st, c in walk if st == state), False, False)
                break
            sw, inp, sl = state
            kind, nxt = self.next_hop(sw, dlid)
            port = nxt[2] if kind == 'switch' else nxt
            if port is None:  # delivered at port 0, or no hop
                tail = (None, False, False)
                break
            if sl == 'any':
                vls = {self.vl(sw, inp, port, s) for s in range(16)}
                if len(vls) > 1:
                    tail = (None, False, True)
                    break
                vl = vls.pop()
            else:
                vl = self.vl(sw, inp, port, sl)
            if vl == DROP_VL:
                drops.add((dlid, sw, port))
                tail = (None, True, False)
                break
            walk.append((state, (sw, port, vl) if kind == 'switch' else None))
            on_walk.add(state)
            if kind != 'switch':  # last hop to a CA port
                break
            state = (nxt[0], nxt[1], sl)
        # Back to front: each channel depends on the next one.
        for state, channel in reversed(walk):
            if channel is not None and tail[0] is not None:
                deps.add((channel, tail[0]))
            tail = (channel, tail[1], tail[2])
            memo[state] = tail
        return tail

    def check_unicast(self, sl_mode, path_sl, fixed_sl, assume_sl, pairs='all', stale=False):
        """Verdicts 1 and 2. sl_mode: 'path', 'fixed' or 'mixed'. pairs: the
        traffic checked: 'all' (every LID to every LID), 'ca-sources' (sent
        by CA/router ports) or 'ca' (between CA/router ports). stale: the path
        SLs are stale ones (from before a re-route): a packet mapped onto VL
        15 is a stale drop, not a VL error."""
        fab = self.fab
        counts = dict(pairs=0, delivered=0, loops=0, black_holes=0, wrong_delivery=0,
                      vl_errors=0, pairs_without_sl=0, stale_drops=0, stale_drop_pairs=0)
        deps, drops = set(), set()
        sources = []  # (guid, source LID, switch, in port, is a CA port)
        for g in fab.switches:
            if pairs == 'all':
                sources.append((g, fab.switches[g]['lid'], g, 0, False))
        for g, c in fab.cas.items():
            rem = fab.remote(g, c['port'])
            if rem is None or not fab.is_switch(rem[0]):
                continue
            # A CA's packet enters its switch on the port the CA is cabled to.
            entry = 0 if self.ca_entry_port0 else rem[1]
            for slid in fab.lids_of(g):
                sources.append((g, slid, rem[0], entry, True))
        for dlid in sorted(self.owner):
            dest = self.owner[dlid]
            if pairs == 'ca' and fab.is_switch(dest):
                continue
            outcome = self.outcomes(dlid)
            memo = {}
            for src, slid, sw, inp, is_ca in sources:
                if src == dest:
                    continue
                counts['pairs'] += 1
                end = outcome[sw]
                counts[{'deliver': 'delivered', 'loop': 'loops', 'black hole': 'black_holes',
                        'wrong': 'wrong_delivery'}[end]] += 1
                sls = []
                if sl_mode in ('path', 'mixed'):
                    s = path_sl(src, slid, dlid) if path_sl else None
                    sls.append(s if s is not None else (assume_sl if assume_sl is not None else 'any'))
                if sl_mode in ('fixed', 'mixed'):
                    sls.append(fixed_sl)
                dropped = False
                for s in sls:
                    if is_ca:  # the CA port's own SL2VL: the packet's first VL
                        first = {self.vl(src, 0, 0, x) for x in (range(16) if s == 'any' else [s])}
                        if len(first) > 1:
                            counts['pairs_without_sl'] += 1
                            continue
                        if first == {DROP_VL}:
                            drops.add((dlid, src, 0))
                            dropped = True
                            continue
                    _, drop, need_sl = self.follow(dlid, sw, inp, s, memo, deps, drops)
                    dropped |= drop
                    if need_sl:
                        counts['pairs_without_sl'] += 1
                if dropped:
                    counts['stale_drop_pairs' if stale else 'vl_errors'] += 1
        if stale:  # dropping hops (switch, out port; or a CA port), once per destination
            counts['stale_drops'] = len(drops)
        counts['unreachable'] = counts['black_holes'] + counts['wrong_delivery']
        return counts, deps

    # -- verdict 3: multicast

    def check_mcast(self, masks, sa_groups, default_sl):
        fab = self.fab
        groups, deps = [], set()
        for mlid in sorted(set(masks) | set(sa_groups)):
            mask = masks.get(mlid, {})
            known = mlid in sa_groups
            if known:
                members = set(sa_groups[mlid]['members'])
                sls = sorted(sa_groups[mlid]['sls'])
            else:  # every CA port on a mask port, and every switch with port 0 set
                members = {g for g, c in fab.cas.items()
                           if fab.remote(g, c['port']) and
                           fab.remote(g, c['port'])[1] in mask.get(fab.remote(g, c['port'])[0], ())}
                members |= {s for s, ports in mask.items() if 0 in ports and s in fab.switches}
                sls = [default_sl]
            unknown = sorted(m for m in members if m not in fab.cas and m not in fab.switches)
            members -= set(unknown)
            g = dict(mlid=mlid, sls=sls, members=len(members), membership_known=known,
                     loop=False, missing=0, duplicates=0, non_members=0, vl_drops=0,
                     unknown_members=len(unknown))
            for sl in sls:
                for src in sorted(members):
                    got = self.mcast_flood(mask, src, sl, deps, g)
                    for m in members:
                        if m == src:
                            continue
                        n = got.pop(m, 0)
                        if n == 0:
                            g['missing'] += 1
                        elif n > 1:
                            g['duplicates'] += 1
                    got.pop(src, None)
                    if known:
                        g['non_members'] += len(got)
            g['ok'] = not (g['loop'] or g['missing'] or g['duplicates'] or g['non_members']
                           or g['vl_drops'])
            groups.append(g)
        return groups, deps

    def mcast_flood(self, mask, src, sl, deps, g):
        """Floods one packet from member src through the masks on SL sl.
        Returns {reached guid: copies}; sets g['loop'] when a switch is entered
        twice, counts VL 15 drops, adds (channel, VL) dependencies to deps."""
        fab = self.fab
        got = {}
        if fab.is_switch(src):
            start = (src, 0, None)
        else:
            rem = fab.remote(src, fab.cas[src]['port'])
            if rem is None or not fab.is_switch(rem[0]):
                return got
            if self.vl(src, 0, 0, sl) == DROP_VL:
                g['vl_drops'] += 1
                return got
            start = (rem[0], rem[1], None)
        entered = {}  # switch -> copies that entered it
        seen = set()
        todo = [start]  # (switch, in port, channel it came over or None)
        while todo:
            state = todo.pop()
            sw, inp, came = state
            entered[sw] = entered.get(sw, 0) + 1
            if entered[sw] > 1:
                g['loop'] = True
            if state in seen:
                continue
            seen.add(state)
            for port in sorted(mask.get(sw, ())):
                if port == inp:
                    continue
                if port == 0:
                    got[sw] = got.get(sw, 0) + 1  # the switch itself is a member
                    continue
                rem = fab.remote(sw, port)
                if rem is None:
                    continue
                vl = self.vl(sw, inp, port, sl)
                if vl == DROP_VL:
                    g['vl_drops'] += 1
                    continue
                if fab.is_switch(rem[0]):
                    channel = (sw, port, vl)
                    if came is not None:
                        deps.add((came, channel))
                    todo.append((rem[0], rem[1], channel))
                else:
                    got[rem[0]] = got.get(rem[0], 0) + 1
        return got


# ---------------------------------------------------------------- cycle search

def find_cycle(deps):
    """A cycle of the graph given as a set of (from, to) edges, as a list of
    nodes (first node repeated at the end), or None. Iterative DFS."""
    succ = {}
    for a, b in deps:
        succ.setdefault(a, []).append(b)
    for a in succ:
        succ[a].sort()
    color = {}  # 1 on the stack, 2 done
    for root in sorted(succ):
        if color.get(root):
            continue
        stack = [(root, iter(succ.get(root, ())))]
        color[root] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                color[node] = 2
                stack.pop()
            elif color.get(nxt) == 1:
                path = [n for n, _ in stack]
                return path[path.index(nxt):] + [nxt]
            elif not color.get(nxt):
                color[nxt] = 1
                stack.append((nxt, iter(succ.get(nxt, ()))))
    return None


# ---------------------------------------------------------------- main

def run(args):
    d = args.dir
    stale = getattr(args, 'stale_sls', None)
    if stale and args.sls:
        raise Unusable('give --sls or --stale-sls, not both')
    fab = read_subnet(os.path.join(d, 'opensm-subnet.lst'))
    lft, lmc = read_lfts(os.path.join(d, 'opensm-lfts.dump'))
    fab.lmc = args.lmc if args.lmc is not None else lmc
    notes = []
    sl2vl_path = os.path.join(d, 'opensm-sl2vl.dump')
    if os.path.exists(sl2vl_path):
        sl2vl = read_sl2vl(sl2vl_path)
    else:
        sl2vl = {}
        notes.append('no opensm-sl2vl.dump: every SL on VL 0')
    mode = 'fixed' if args.fixed_sl is not None else 'mixed' if args.mixed_sl is not None else 'path'
    fixed = args.fixed_sl if args.fixed_sl is not None else args.mixed_sl
    pairs = getattr(args, 'pairs', None) or 'all'
    if pairs not in ('all', 'ca-sources', 'ca'):
        raise Unusable('--pairs %s: all, ca-sources or ca' % pairs)
    if pairs != 'all':
        notes.append('--pairs %s: only these pairs checked' % pairs)
    path_sl = None
    if mode != 'fixed':
        sls_file = stale or args.sls or os.path.join(d, 'keiro-path-sl.dump')
        if os.path.exists(sls_file):
            path_sl = read_path_sls(sls_file, fab)
        else:
            notes.append('no path SLs')

    o = Oracle(fab, lft, sl2vl)
    o.ca_entry_port0 = getattr(args, 'ca_entry_port0', False)
    counts, udeps = o.check_unicast(mode, path_sl, fixed, args.assume_sl, pairs, bool(stale))
    if counts['pairs_without_sl']:
        raise Unusable('%d (source, destination) pairs need a path SL and have none'
                       % counts['pairs_without_sl'])
    cycle = find_cycle(udeps)

    def node_name(n):
        return '%s port %d VL %d' % (fab.name(n[0]), n[1], n[2])

    nodes = {a for a, _ in udeps} | {b for _, b in udeps}
    out = dict(mode=mode, sl=fixed, lmc=fab.lmc, notes=notes, pairs=pairs, stale_sls=bool(stale),
               switches=len(fab.switches), ca_ports=len(fab.cas), lids=len(o.owner))
    out['unicast'] = counts
    out['credit_loop'] = cycle is not None
    out['cycle'] = [node_name(n) for n in cycle] if cycle else []
    out['dependency_nodes'] = len(nodes)
    out['dependency_edges'] = len(udeps)
    ok = (counts['loops'] == 0 and counts['unreachable'] == 0 and counts['vl_errors'] == 0
          and cycle is None)

    mc_path = os.path.join(d, 'opensm.mcfdbs')
    if os.path.exists(mc_path):
        masks = read_mcfdbs(mc_path)
        sa_path = os.path.join(d, 'opensm-sa.dump')
        sa_groups = read_sa_groups(sa_path) if os.path.exists(sa_path) else {}
        groups, mdeps = o.check_mcast(masks, sa_groups, args.mcast_sl)
        both = find_cycle(udeps | mdeps)
        mc = dict(groups=len(groups), groups_ok=sum(g['ok'] for g in groups),
                  loops=sum(g['loop'] for g in groups),
                  missing=sum(g['missing'] for g in groups),
                  duplicates=sum(g['duplicates'] for g in groups),
                  non_members=sum(g['non_members'] for g in groups),
                  vl_drops=sum(g['vl_drops'] for g in groups),
                  credit_loop=both is not None,
                  credit_loop_needs_mcast=both is not None and cycle is None,
                  cycle=[node_name(n) for n in both] if both else [],
                  dependency_edges=len(mdeps - udeps),
                  per_group=groups)
        out['mcast'] = mc
        ok = ok and mc['groups_ok'] == mc['groups'] and not mc['credit_loop']
    else:
        mdeps = set()
    out['ok'] = ok
    if getattr(args, 'confirm_cycle', None):
        out['confirm'] = confirm_cycle(fab, args.confirm_cycle, udeps | mdeps)
    return out


def confirm_cycle(fab, text, deps):
    """Whether the cycle written 'NAME port P VL v -> ...' (as keiro check and
    keiro simulate print it) is one of this oracle's dependency graph: every
    step, and the last back to the first, a dependency it found."""
    by_name = {}
    for g, sw in fab.switches.items():
        if sw['name'] in by_name:
            raise Unusable('switch name %r is not unique: cannot read a cycle by names' % sw['name'])
        by_name[sw['name']] = g
    nodes = []
    for hop in [h.strip() for h in text.split('->') if h.strip()]:
        m = re.fullmatch(r"'?(.*?)'?(?: \(0x[0-9a-fA-F]+\))? port (\d+) VL (\d+)", hop)
        if not m or m.group(1) not in by_name:
            raise Unusable('cannot read cycle step %r' % hop)
        nodes.append((by_name[m.group(1)], int(m.group(2)), int(m.group(3))))
    if len(nodes) > 1 and nodes[-1] == nodes[0]:
        nodes.pop()  # written with the first step repeated at the end
    missing = ['%s -> %s' % (text_of(fab, a), text_of(fab, b))
               for a, b in zip(nodes, nodes[1:] + nodes[:1]) if (a, b) not in deps]
    return dict(steps=len(nodes), missing=missing, confirmed=bool(nodes) and not missing)


def text_of(fab, n):
    return '%s port %d VL %d' % (fab.name(n[0]), n[1], n[2])


def check_dir(d, sls=None, fixed_sl=None, mixed_sl=None, assume_sl=None, lmc=None,
              mcast_sl=0, ca_entry_port0=False, confirm=None, pairs='all', stale_sls=None):
    """The verdicts on dump directory d as a dict (what --json prints);
    raises Unusable (and OSError, ValueError, ...) on unusable input."""
    return run(argparse.Namespace(dir=d, sls=sls, fixed_sl=fixed_sl, mixed_sl=mixed_sl,
                                  assume_sl=assume_sl, lmc=lmc, mcast_sl=mcast_sl,
                                  ca_entry_port0=ca_entry_port0, confirm_cycle=confirm,
                                  pairs=pairs, stale_sls=stale_sls))


def summary(out):
    u = out['unicast']
    lines = ['oracle: %s (%d switches, %d CA ports, %d LIDs, mode %s%s)' % (
        'ok' if out['ok'] else 'FAILED', out['switches'], out['ca_ports'], out['lids'],
        out['mode'], '' if out['sl'] is None else ' SL %d' % out['sl'])]
    lines.append('  pairs %d: delivered %d, loops %d, black holes %d, wrong delivery %d, '
                 'VL 15 drops %d' % (u['pairs'], u['delivered'], u['loops'], u['black_holes'],
                                     u['wrong_delivery'], u['vl_errors']))
    if out['stale_sls']:
        lines.append('  stale drops: %d hops drop stale-SL traffic (VL 15), %d pairs dropped'
                     % (u['stale_drops'], u['stale_drop_pairs']))
    lines.append('  credit loop: %s' % (' -> '.join(out['cycle']) if out['credit_loop'] else 'none'))
    if 'mcast' in out:
        m = out['mcast']
        lines.append('  multicast: %d groups, %d ok, %d with a forwarding loop; credit loop with '
                     'unicast: %s' % (m['groups'], m['groups_ok'], m['loops'],
                                      ('yes (needs a multicast dependency)' if m['credit_loop_needs_mcast']
                                       else 'yes') if m['credit_loop'] else 'none'))
        for g in m['per_group']:
            if not g['ok']:
                lines.append('    group 0x%04X (SL %s, %d members): %s' % (
                    g['mlid'], ','.join(map(str, g['sls'])), g['members'], ', '.join(
                        '%s %s' % (k.replace('_', ' '), g[k]) if k != 'loop' else 'forwarding loop'
                        for k in ('loop', 'missing', 'duplicates', 'non_members', 'vl_drops') if g[k])))
        if m['credit_loop_needs_mcast']:
            lines.append('    cycle: ' + ' -> '.join(m['cycle']))
    for n in out['notes']:
        lines.append('  note: ' + n)
    return '\n'.join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('dir')
    p.add_argument('--sls', help='path-SL file instead of DIR/keiro-path-sl.dump')
    p.add_argument('--stale-sls', metavar='FILE',
                   help='path SLs from before a re-route: VL 15 is a stale drop, not an error')
    p.add_argument('--pairs', choices=('all', 'ca-sources', 'ca'), default='all',
                   help='traffic checked: every LID to every LID (all), from CA/router '
                        'ports (ca-sources) or between them (ca)')
    g = p.add_mutually_exclusive_group()
    g.add_argument('--fixed-sl', type=int, help='every pair on SL N')
    g.add_argument('--mixed-sl', type=int, help='every pair on its own SL and on SL N')
    p.add_argument('--assume-sl', type=int, help='SL for pairs without one')
    p.add_argument('--lmc', type=int, help='LMC (default: from the LFTs)')
    p.add_argument('--mcast-sl', type=int, default=0,
                   help='SL of multicast groups without opensm-sa.dump (default 0)')
    p.add_argument('--confirm-cycle', metavar='CYCLE',
                   help="'NAME port P VL v -> ...' (a cycle keiro check or keiro simulate "
                        "reported): exit 0 when every step is a dependency of this "
                        "oracle's graph, 1 when not")
    p.add_argument('--json', action='store_true')
    args = p.parse_args(argv)
    try:
        out = run(args)
    except (Unusable, OSError, ValueError, KeyError, AttributeError, TypeError) as e:
        print('oracle: unusable input: %s' % e, file=sys.stderr)
        return 2
    if args.confirm_cycle:
        c = out['confirm']
        print(json.dumps(c, sort_keys=True) if args.json else
              'oracle: cycle of %d steps %s' % (c['steps'], 'confirmed' if c['confirmed'] else
                                                'NOT confirmed: ' + '; '.join(c['missing'])))
        return 0 if c['confirmed'] else 1
    print(json.dumps(out, sort_keys=True) if args.json else summary(out))
    return 0 if out['ok'] else 1


if __name__ == '__main__':
    sys.exit(main())
