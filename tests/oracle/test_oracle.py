#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Unit tests of the oracle itself (oracle.py), on hand-built dump
directories whose verdicts are known by construction: a ring of four
switches, one CA on each.

    python3 -m unittest tests/oracle/test_oracle.py   (or run it directly)

Ring: switch i (LID i + 1) has port 1 to switch i+1, port 2 to switch i-1
and port 3 to CA i (LID 5 + i). Routes are minimal, distance-2 ties go
clockwise (port 1), unless a test says otherwise.
"""

import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

N = 4


def sw_guid(i):
    return 0x0002000000000000 + i


def ca_node(i):
    return 0x0001000000000000 + 2 * i


def ca_port(i):
    return ca_node(i) + 1


def minimal(i, j):
    """Port of switch i towards switch j."""
    d = (j - i) % N
    return 0 if d == 0 else 1 if d <= N // 2 else 2


def end(kind, node, port_guid, name, lid, pn, ports):
    return ('{ %s Ports:%02X SystemGUID:%016x NodeGUID:%016x PortGUID:%016x VenID:000000 '
            'DevID:0000 Rev:00000000 {%s} LID:%04X PN:%02X }'
            % (kind, ports, node, node, port_guid, name, lid, pn))


def sw_end(i, pn):
    return end('SW', sw_guid(i), sw_guid(i), 'S%d' % i, i + 1, pn, 3)


def ca_end(i):
    return end('CA', ca_node(i), ca_port(i), 'H%d' % i, N + 1 + i, 1, 1)


def write_ring(d, route=minimal, vl=lambda sw, inp, out, sl: 0, sls=None, mcast=None, sa=None,
               sw_route=None):
    """A dump directory for the ring. route(i, j): port of switch i towards
    switch j's LIDs (sw_route(i, j), if given, for switch j's own LID). vl(sw, in, out, sl): the switches' SL2VL. sls: path SL
    per destination LID (default 0). mcast: {mlid: {switch: ports}}; sa:
    [(mlid, sl, [member port guids])]."""
    os.makedirs(d, exist_ok=True)
    links = []
    for i in range(N):
        j = (i + 1) % N
        links += [(sw_end(i, 1), sw_end(j, 2)), (sw_end(j, 2), sw_end(i, 1)),
                  (sw_end(i, 3), ca_end(i)), (ca_end(i), sw_end(i, 3))]
    with open(os.path.join(d, 'opensm-subnet.lst'), 'w') as f:
        for a, b in links:
            f.write('%s %s PHY=4x LOG=ACT SPD=2.5\n' % (a, b))
    max_lid = 2 * N
    with open(os.path.join(d, 'opensm-lfts.dump'), 'w') as f:
        for i in range(N):
            f.write("Unicast lids [0-%d] of switch Lid %d guid 0x%016x ('S%d'):\n"
                    % (max_lid, i + 1, sw_guid(i), i))
            for j in range(N):  # switch j's LID, then CA j's
                f.write("0x%04x %03d # Switch portguid 0x%016x: 'S%d'\n"
                        % (j + 1, (sw_route or route)(i, j), sw_guid(j), j))
            for j in range(N):
                p = 3 if i == j else route(i, j)
                f.write("0x%04x %03d # Channel Adapter portguid 0x%016x: 'H%d'\n"
                        % (N + 1 + j, p, ca_port(j), j))
            f.write('%d lids dumped\n' % max_lid)
    with open(os.path.join(d, 'opensm-sl2vl.dump'), 'w') as f:
        for i in range(N):
            f.write('Switch 0x%016x, base LID %d, "S%d"\n' % (sw_guid(i), i + 1, i))
            for out in (1, 2, 3):
                for inp in (0, 1, 2, 3):
                    f.write('%-4d%-4d:%s \n' % (inp, out, ''.join(' %-2d' % vl(i, inp, out, s)
                                                                for s in range(16))))
        for i in range(N):
            f.write('Channel Adapter 0x%016x, base LID %d, "H%d"\n' % (ca_port(i), N + 1 + i, i))
            f.write('0   0   :%s \n' % (' 0 ' * 16))
    with open(os.path.join(d, 'keiro-path-sl.dump'), 'w') as f:
        digits = ''.join('%x' % ((sls or {}).get(lid, 0)) for lid in range(1, max_lid + 1))
        f.write('keiro-path-sl 1\nmax_lid %d\nscope destination\ndest %s\n' % (max_lid, digits))
    if mcast is not None:
        with open(os.path.join(d, 'opensm.mcfdbs'), 'w') as f:
            for i in range(N):
                rows = [(m, sorted(mask[i])) for m, mask in sorted(mcast.items()) if mask.get(i)]
                if rows:
                    f.write('\nSwitch 0x%016x\nLID    : Out Port(s)\n' % sw_guid(i))
                    for m, ports in rows:
                        f.write('0x%04X :%s\n' % (m, ''.join(' 0x%03X ' % p for p in ports)))
    if sa is not None:
        with open(os.path.join(d, 'opensm-sa.dump'), 'w') as f:
            for mlid, sl, members in sa:
                f.write('MC Group 0x%04x : mgid=0xff12401bffff0000:0x0000000000000001 '
                        'port_gid=0xfe80000000000000:0x%016x qkey=0x0000000b mlid=0x%04x '
                        'mtu=0x84 tclass=0x00 pkey=0xffff rate=0x83 pkt_life=0x92 '
                        'sl_flow_hop=0x%08x scope_state=0x01 proxy_join=0x0\n\n'
                        % (mlid, members[0], mlid, sl << 28))
                for m in members:
                    f.write('mcm_port: port_gid=0xfe80000000000000:0x%016x scope_state=0x01 '
                            'proxy_join=0x0\n\n' % m)
    return d


def hca_only_vl(sw, inp, out, sl):
    """Port 0 (the switch's own traffic) on VL 1, everything else on VL 0:
    the only dependencies inside VL 0 around the ring come from CA traffic's
    first hop (entered on port 3) -- the ring's paths have at most 2 hops."""
    return 1 if inp == 0 else 0


class RingTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='oracle-test-')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def dir(self, name, **kw):
        return write_ring(os.path.join(self.tmp, name), **kw)

    def test_ring_credit_loop(self):
        out = oracle.check_dir(self.dir('vl0'))
        u = out['unicast']
        # 4 switch LIDs + 4 CA LIDs, each to every LID but its own.
        self.assertEqual(u['pairs'], 8 * 7)
        self.assertEqual(u['delivered'], 8 * 7)
        self.assertTrue(out['credit_loop'])
        # The 4 clockwise channels (the first repeated at the end).
        self.assertEqual(sorted(set(out['cycle'])), ['S%d port 1 VL 0' % i for i in range(N)])
        self.assertEqual(len(out['cycle']), N + 1)
        self.assertFalse(out['ok'])

    def test_confirm_cycle(self):
        d = self.dir('vl0c')
        ring = ' -> '.join('S%d port 1 VL 0' % i for i in range(N))
        self.assertTrue(oracle.check_dir(d, confirm=ring)['confirm']['confirmed'])
        # The same channels on VL 1, or the ring backwards, are no cycle of it.
        self.assertFalse(oracle.check_dir(d, confirm=ring.replace('VL 0', 'VL 1'))['confirm']['confirmed'])
        back = ' -> '.join('S%d port 1 VL 0' % i for i in reversed(range(N)))
        c = oracle.check_dir(d, confirm=back)['confirm']
        self.assertFalse(c['confirmed'])
        self.assertEqual(len(c['missing']), N)

    def test_two_vls_break_the_loop(self):
        # Every hop entered from another switch on VL 1: no 2nd hop can wait
        # for a VL 0 channel, and no VL 1 hop for another VL 1 hop (2 hops max).
        d = self.dir('vl01', vl=lambda sw, inp, out, sl: 1 if inp in (1, 2) else 0)
        out = oracle.check_dir(d)
        self.assertFalse(out['credit_loop'])
        self.assertTrue(out['ok'])

    def test_hca_port_entry_only(self):
        d = self.dir('hca', vl=hca_only_vl)
        out = oracle.check_dir(d)
        self.assertTrue(out['credit_loop'], 'CA traffic enters on its cable port (3): loop on VL 0')
        self.assertTrue(all(n.endswith('VL 0') for n in out['cycle']))
        wrong = oracle.check_dir(d, ca_entry_port0=True)
        self.assertFalse(wrong['credit_loop'], 'entering on port 0 would hide it')

    def test_fixed_sl_only(self):
        # Path SLs are all 1, mapped like test_two_vls_break_the_loop; SL 0 is
        # VL 0 everywhere: only traffic on a fixed SL 0 closes the ring.
        d = self.dir('fixed', sls={lid: 1 for lid in range(1, 2 * N + 1)},
                     vl=lambda sw, inp, out, sl: (1 if inp in (1, 2) else 0) if sl == 1 else 0)
        self.assertFalse(oracle.check_dir(d)['credit_loop'])
        self.assertTrue(oracle.check_dir(d, fixed_sl=0)['credit_loop'])
        self.assertTrue(oracle.check_dir(d, mixed_sl=0)['credit_loop'])
        self.assertFalse(oracle.check_dir(d, fixed_sl=1)['credit_loop'])

    def test_forwarding_loop_and_black_hole(self):
        def route(i, j):
            if j == 2 and i in (0, 1):  # S0 and S1 send S2's LID to each other
                return 1 if i == 0 else 2
            if j == 3 and i == 0:  # S0 sends S3's LIDs to port 4 (absent)
                return 4
            return minimal(i, j)
        u = oracle.check_dir(self.dir('bad', route=route))['unicast']
        # LID 3 and CA 2's LID (7): sources S0, S1, H0, H1 loop, 4 each (S2's
        # own LID from H2 is delivered; H2's LID from S2 too).
        self.assertEqual(u['loops'], 2 * 4)
        # LIDs 4 and 8 from S0 and H0 (S3 sends them right).
        self.assertEqual(u['black_holes'], 2 * 2)

    def test_pairs_subset_without_the_looping_pairs(self):
        # S0 and S1 send S2's own LID (3) to each other, not H2's: the only
        # forwarding loop is to a switch's LID. Sources S0, S1, H0, H1 loop.
        def route(i, j):
            if j == 2 and i in (0, 1):
                return 1 if i == 0 else 2
            return minimal(i, j)
        # Two VLs as in test_two_vls_break_the_loop: no credit loop.
        d = self.dir('pairs-loop', sw_route=route, vl=lambda sw, inp, out, sl: 1 if inp in (1, 2) else 0)
        u = oracle.check_dir(d)['unicast']
        self.assertEqual((u['pairs'], u['loops']), (8 * 7, 4))
        # From CA ports only: H0 and H1 still loop.
        u = oracle.check_dir(d, pairs='ca-sources')['unicast']
        self.assertEqual((u['pairs'], u['loops']), (4 * 7, 2))
        # Between CA ports only: no switch LID is a destination, no loop.
        out = oracle.check_dir(d, pairs='ca')
        self.assertEqual((out['unicast']['pairs'], out['unicast']['loops']), (4 * 3, 0))
        self.assertTrue(out['ok'])

    def test_pairs_subset_without_the_switch_traffic(self):
        # A CA's first hop (entered on port 3) on VL 1, every other hop on
        # VL 0: only the switches' own 2-hop paths close the VL 0 ring.
        d = self.dir('pairs-credit', vl=lambda sw, inp, out, sl: 1 if inp == 3 else 0)
        out = oracle.check_dir(d)
        self.assertTrue(out['credit_loop'])
        for pairs in ('ca-sources', 'ca'):
            out = oracle.check_dir(d, pairs=pairs)
            self.assertFalse(out['credit_loop'], pairs)
            self.assertTrue(out['ok'], pairs)
        self.assertRaises(oracle.Unusable, oracle.check_dir, d, pairs='switches')

    def test_stale_sls(self):
        # New SLs: all 1 (safe, as test_two_vls_break_the_loop). SL 0 is on
        # VL 0 everywhere (the ring's credit loop); SL 2 is dropped (VL 15)
        # from one switch to the next after a switch-to-switch hop.
        def vl(sw, inp, out, sl):
            if sl == 1:
                return 1 if inp in (1, 2) else 0
            if sl == 2:
                return 15 if inp in (1, 2) and out in (1, 2) else 0
            return 0
        lids = range(1, 2 * N + 1)
        d = self.dir('stale', vl=vl, sls={lid: 1 for lid in lids})
        self.assertTrue(oracle.check_dir(d)['ok'])
        loop = os.path.join(self.dir('stale-sl0', sls={lid: 0 for lid in lids}), 'keiro-path-sl.dump')
        drop = os.path.join(self.dir('stale-sl2', sls={lid: 2 for lid in lids}), 'keiro-path-sl.dump')
        # A stale SL that closes a credit loop fails, drops or not.
        out = oracle.check_dir(d, stale_sls=loop)
        self.assertTrue(out['credit_loop'])
        self.assertFalse(out['ok'])
        self.assertEqual(out['unicast']['stale_drops'], 0)
        # A stale SL that is dropped: no error. Every LID's 2-hop paths (from
        # the switch opposite and its CA) are dropped at one hop, the one
        # into the destination's switch.
        out = oracle.check_dir(d, stale_sls=drop)
        u = out['unicast']
        self.assertTrue(out['ok'])
        self.assertEqual((u['stale_drops'], u['stale_drop_pairs'], u['vl_errors']), (2 * N, 2 * 2 * N, 0))
        # The same SLs as current ones: every drop is a VL error.
        out = oracle.check_dir(d, sls=drop)
        self.assertFalse(out['ok'])
        self.assertEqual((out['unicast']['vl_errors'], out['unicast']['stale_drops']), (2 * 2 * N, 0))
        self.assertRaises(oracle.Unusable, oracle.check_dir, d, sls=drop, stale_sls=drop)

    def test_mcast_tree(self):
        # Members H0, H1, H2; tree S0 - S1 - S2.
        mask = {0: {3, 1}, 1: {2, 3, 1}, 2: {2, 3}}
        d = self.dir('mtree', mcast={0xC000: mask},
                     sa=[(0xC000, 0, [ca_port(0), ca_port(1), ca_port(2)])])
        mc = oracle.check_dir(d)['mcast']
        self.assertEqual((mc['groups'], mc['groups_ok'], mc['loops']), (1, 1, 0))
        # Without opensm-sa.dump the members come from the masks: the same.
        os.remove(os.path.join(d, 'opensm-sa.dump'))
        g = oracle.check_dir(d)['mcast']['per_group'][0]
        self.assertTrue(g['ok'])
        self.assertEqual(g['members'], 3)

    def test_mcast_loop(self):
        # Every switch forwards to both ring neighbours: copies go round.
        mask = {i: {1, 2, 3} for i in range(N)}
        d = self.dir('mloop', mcast={0xC000: mask})
        mc = oracle.check_dir(d)['mcast']
        self.assertEqual((mc['groups_ok'], mc['loops']), (0, 1))
        self.assertTrue(mc['credit_loop'])  # the storm's channels wait for each other

    def test_mcast_member_missing_and_non_member(self):
        mask = {0: {3, 1}, 1: {2, 1}, 2: {2, 3}}  # H1 not reached
        d = self.dir('mmiss', mcast={0xC000: mask},
                     sa=[(0xC000, 0, [ca_port(0), ca_port(1), ca_port(2)])])
        g = oracle.check_dir(d)['mcast']['per_group'][0]
        self.assertFalse(g['ok'])
        # H0 -> H1 and H2 -> H1; H1's own packets still leave S1 on ports 1
        # and 2 (a switch forwards to its mask whatever the in port).
        self.assertEqual(g['missing'], 2)
        mask = {0: {3, 1}, 1: {2, 3, 1}, 2: {2, 3}}  # H1 reached, not a member
        d = self.dir('mnon', mcast={0xC000: mask}, sa=[(0xC000, 0, [ca_port(0), ca_port(2)])])
        g = oracle.check_dir(d)['mcast']['per_group'][0]
        self.assertFalse(g['ok'])
        self.assertEqual(g['non_members'], 2)

    def test_mcast_credit_loop_needs_mcast(self):
        # Unicast: S3 reaches S1's LIDs counter-clockwise, so no unicast path
        # turns at S0 from S3 towards S1: the clockwise VL 0 ring misses one
        # dependency. The group's tree S3 - S0 - S1 makes that turn.
        def route(i, j):
            return 2 if (i, j) == (3, 1) else minimal(i, j)
        mask = {3: {3, 1}, 0: {2, 1}, 1: {2, 3}}
        d = self.dir('mcl', route=route, mcast={0xC000: mask},
                     sa=[(0xC000, 0, [ca_port(3), ca_port(1)])])
        out = oracle.check_dir(d)
        self.assertFalse(out['credit_loop'])
        self.assertEqual(out['mcast']['groups_ok'], 1)
        self.assertTrue(out['mcast']['credit_loop'])
        self.assertTrue(out['mcast']['credit_loop_needs_mcast'])
        self.assertFalse(out['ok'])


if __name__ == '__main__':
    unittest.main()
