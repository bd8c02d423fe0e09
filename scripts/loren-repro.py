#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Reproduces the evaluation of the LOREN paper (Kawano et al., Sect. VI) with
keiro-loren: Fig. 5 (average path length against t_max), Fig. 6 (the smallest
t_max over many LRTs), Figs. 11-12 (effective bandwidth and average efficiency
under hotspot/local traffic), each next to balanced minimal routing, plus
keiro-loren end to end (ACRO layers, VLs, SLs) at the paper's t_max values.

usage: scripts/loren-repro.py [--bench PATH] [--out DIR] [--quick]
  --bench  the loren_bench program (default: $KEIRO_BUILDDIR/tests/bench/
           loren_bench, else build-loren/, else the newest build*/)
  --out    where the page, SVGs and data go (default: docs/; with --quick a
           new temporary directory, so a quick run never edits docs/)
  --quick  3 LRTs, 30 LRTs for Fig. 6, 50 patterns, 2 engine seeds (under
           30 s on 2 cores; what tests/integration/eval-scripts.sh runs)
Writes OUT/loren-evaluation.md (its body in a loren-evaluation block headed
by the script, the commit of the source tree and the wall time; an existing
page keeps what is outside the block), OUT/loren-fig*.svg and
OUT/loren-data/*.tsv.
"""
import argparse
import math
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict

from keiro_bench import COLORS, ROOT, Svg, find_program, run_table, source_commit, write_block_page


def run(bench, *args):
    t = run_table(bench, *args, verbose=True)
    return t.stdout, t.records


# ------------------------------------------------------------ figures ----
def fig5(rows, path, title):
    by_t = defaultdict(list)
    minimal = []
    seen = set()
    for r in rows:
        by_t[int(r['tmax'])].append(float(r['avg_hops']))
        if r['seed'] not in seen:
            seen.add(r['seed'])
            minimal.append(float(r['avg_min_hops']))
    seeds = len(seen)
    ts = sorted(t for t in by_t if len(by_t[t]) == seeds)
    mean = {t: statistics.mean(by_t[t]) for t in ts}
    sd = {t: statistics.pstdev(by_t[t]) for t in ts}
    mmin = statistics.mean(minimal)
    s = Svg(title=title)
    ylo = math.floor(mmin * 0.95 * 2) / 2
    yhi = math.ceil(max(mean[t] + sd[t] for t in ts) * 2) / 2
    s.axes(0, ts[-1] + 1, ylo, yhi, 't_max (table entries per switch)', 'average path length (hops)')
    s.polyline([(t, mean[t]) for t in ts], COLORS[0])
    for t in ts:
        s.errbar(t, mean[t] - sd[t], mean[t] + sd[t], COLORS[0])
    s.polyline([(0, mmin), (ts[-1] + 1, mmin)], COLORS[1], dash='6,4')
    s.legend([('LOREN (mean, sd)', COLORS[0], None), ('balanced minimal', COLORS[1], '6,4')])
    s.save(path)
    return ts, mean, sd, mmin, seeds


def hist(rows, key):
    h = defaultdict(int)
    for r in rows:
        h[int(r[key])] += 1
    return h


def fig6(data, path):
    s = Svg(w=820, h=400, title='Smallest t_max (mandatory entries) over random LRTs',
            legend_w=230)
    hs = [(label, hist(rows, 'required'), hist(rows, 'required_tree_paths'))
          for label, rows in data]
    lo = min(min(h) for _, h, h2 in hs for h in (h, h2))
    hi = max(max(h) for _, h, h2 in hs for h in (h, h2))
    top = max(max(h.values()) for _, h, h2 in hs for h in (h, h2))
    s.axes(lo - 1, hi + 1, 0, top * 1.1, 'smallest t_max', 'LRTs',
           xticks=list(range(lo - 1, hi + 2, 2)))
    bw = (s.X(lo + 1) - s.X(lo)) / 5
    series = []
    for i, (label, h, h2) in enumerate(hs):
        for j, (hh, what) in enumerate(((h, ''), (h2, ', tree paths'))):
            color = COLORS[2 * i + j]
            for v, n in hh.items():
                x = s.X(v) - 2 * bw + (2 * i + j) * bw
                s.rect(x, s.Y(n), bw, s.b - s.Y(n), color)
            series.append((label + what, color, None))
    s.legend(series)
    s.save(path)


def grouped(rows, metric, path, title, ylabel):
    # groups: (traffic, param); bars: routing/tmax
    groups, bars = [], []
    val = defaultdict(list)
    for r in rows:
        g = '%s(%s)' % (r['traffic'], r['param'])
        b = 'minimal' if r['routing'] == 'minimal' else 'LOREN t_max=%s' % r['tmax']
        if g not in groups:
            groups.append(g)
        if b not in bars:
            bars.append(b)
        val[(g, b)].append(float(r[metric]))
    s = Svg(w=760, h=400, title=title)
    top = max(statistics.mean(v) for v in val.values())
    s.axes(0, len(groups), 0, top * 1.1, 'traffic', ylabel, xticks=[])
    gw = (s.r - s.l) / len(groups)
    bw = gw * 0.8 / len(bars)
    for gi, g in enumerate(groups):
        s.text(s.l + gw * (gi + 0.5), s.b + 17, g, anchor='middle', size=10)
        for bi, b in enumerate(bars):
            if (g, b) not in val:
                continue
            m = statistics.mean(val[(g, b)])
            x = s.l + gw * gi + gw * 0.1 + bi * bw
            s.rect(x, s.Y(m), bw * 0.95, s.b - s.Y(m), COLORS[bi])
    s.legend([(b, COLORS[i], None) for i, b in enumerate(bars)])
    s.save(path)
    return groups, bars, {k: statistics.mean(v) for k, v in val.items()}


# --------------------------------------------------------------- main ----
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument('--bench')
    ap.add_argument('--out')
    ap.add_argument('--quick', action='store_true')
    a = ap.parse_args()
    t0, load = time.time(), os.getloadavg()[0]
    if not a.out:
        a.out = tempfile.mkdtemp(prefix='loren-repro.') if a.quick else os.path.join(ROOT, 'docs')
    os.makedirs(a.out, exist_ok=True)
    bench = a.bench or find_program('tests/bench/loren_bench', builddirs=('build-loren',))
    if not bench:
        sys.exit('loren-repro: loren_bench not found (make check builds it; or give --bench)')
    data = os.path.join(a.out, 'loren-data')
    os.makedirs(data, exist_ok=True)
    topo = 3 if a.quick else 10
    lrts = 30 if a.quick else 1000
    patterns = 50 if a.quick else 1000
    engine_seeds = 2 if a.quick else 5
    sizes = [('64', (8, 4, 2), (18, 32), 2), ('256', (16, 4, 4), (42, 128), 1)]

    def save(name, text):
        with open(os.path.join(data, name), 'w') as f:
            f.write(text)

    md = []
    w = md.append
    w('The paper: R. Kawano, H. Nakahara, I. Fujiwara, H. Matsutani, M. Koibuchi, H. Amano, '
      '"LOREN: A Scalable Routing Method for Layout-conscious Random Topologies", Fourth '
      'International Symposium on Computing and Networking (CANDAR), 2016, Sect. VI.\n')
    w('Data in `loren-data/`, written by loren_bench (tests/bench/). LRTs are made as `keiro topo lrt N d r --seed s` makes them '
      '(core/topo, LOREN paper II-B: n x n grid, degree d, every link at Manhattan distance '
      '<= r) and read back from the net and layout files. '
      '"Minimal" is keiro\'s balanced minimal routing (core/minimal/balanced.h), the trees '
      'LOREN\'s tables start from. Hops are switch-to-switch hops over all ordered pairs of '
      'switches.\n')

    # Fig. 5
    w('## Average path length against t_max (paper Fig. 5)\n')
    w('%d LRTs of each size (seeds 1..%d); mean and standard deviation over them.\n' % (topo, topo))
    fig5res = {}
    for label, (n, d, r), tms, _ in sizes:
        out, rows = run(bench, 'hops', n, d, r, 1, topo, 1 if n == 8 else 4)
        save('fig5-%s.tsv' % label, out)
        ts, mean, sd, mmin, seeds = fig5(rows, os.path.join(a.out, 'loren-fig5-%s.svg' % label),
                                         'LRT(%d,%d,%d): average path length vs t_max'
                                         % (n * n, d, r))
        fig5res[label] = (ts, mean, sd, mmin)
        w('![Fig. 5, %s switches](loren-fig5-%s.svg)\n' % (label, label))
        w('| t_max | LOREN avg hops | sd | vs minimal (%.3f) |' % mmin)
        w('|---|---|---|---|')
        picks = [t for t in ts if t in (ts[0],) + tms or t in (24, 48, 64, 96, 192) or t == ts[-1]]
        for t in sorted(set(picks)):
            w('| %d%s | %.3f | %.3f | +%.1f%% |' % (t, ' (all %d fit)' % seeds if t == ts[0] else '',
                                                  mean[t], sd[t], 100 * (mean[t] / mmin - 1)))
        w('')

    # Fig. 6
    w('## Smallest t_max over %d LRTs of each size (paper Fig. 6)\n' % lrts)
    w('The mandatory entries (links and grid-neighbour paths, Sect. IV-A1/2) on the fullest '
      'switch. keiro chooses each grid-neighbour path among the shortest ones to keep the '
      'largest table small; "tree paths" is the same with the paths taken straight from the '
      'balanced trees.\n')
    f6 = []
    dists = []
    w('| LRT | min | mean | max | mean, tree paths | mean mandatory entries per switch |')
    w('|---|---|---|---|---|---|')
    for label, (n, d, r), _, _ in sizes:
        out, rows = run(bench, 'required', n, d, r, 1, lrts)
        save('fig6-%s.tsv' % label, out)
        req = [int(x['required']) for x in rows]
        tp = [int(x['required_tree_paths']) for x in rows]
        avg = [float(x['avg_mandatory']) for x in rows]
        f6.append(('LRT(%d,%d,%d)' % (n * n, d, r), rows))
        w('| LRT(%d,%d,%d) | %d | %.2f | %d | %.2f | %.2f |' % (n * n, d, r, min(req),
                                                             statistics.mean(req), max(req),
                                                             statistics.mean(tp),
                                                             statistics.mean(avg)))
        h = hist(rows, 'required')
        dists.append('Distribution, LRT(%d,%d,%d) (smallest t_max: LRTs): %s.'
                     % (n * n, d, r, ', '.join('%d: %d' % (k, h[k]) for k in sorted(h))))
    w('')
    for x in dists:
        w(x + '\n')
    fig6(f6, os.path.join(a.out, 'loren-fig6.svg'))
    w('![Fig. 6](loren-fig6.svg)\n')

    # Figs. 11-12
    w('## Effective bandwidth and average efficiency (paper Figs. 11-12)\n')
    w('Every switch sends one flow. hotspot(beta): one random hot switch per pattern, every '
      'other switch sends to it with probability beta, else to a uniformly random other '
      'switch; local(gamma): switch u sends to v != u with probability proportional to '
      'md(u, v)^-gamma. Effective bandwidth = mean over flows of 1 / (most flows on one '
      'directed link of its path); efficiency = mean 1 / hops. %d patterns on each of %d LRTs '
      'per size, averaged.\n' % (patterns, topo))
    for label, (n, d, r), tms, _ in sizes:
        out, rows = run(bench, 'traffic', n, d, r, 1, topo, patterns, *tms)
        save('fig11-%s.tsv' % label, out)
        for metric, fig, name in (('eff_bandwidth', 11, 'effective bandwidth'),
                                  ('avg_efficiency', 12, 'average efficiency')):
            groups, bars, val = grouped(rows, metric,
                                        os.path.join(a.out, 'loren-fig%d-%s.svg' % (fig, label)),
                                        'LRT(%d,%d,%d): %s' % (n * n, d, r, name), name)
            w('![Fig. %d, %s switches](loren-fig%d-%s.svg)\n' % (fig, label, fig, label))
            w('| %s, LRT(%d,%d,%d) | %s |' % (name, n * n, d, r, ' | '.join(bars)))
            w('|---|' + '---|' * len(bars))
            for g in groups:
                base = val.get((g, 'minimal'))
                cells = []
                for b in bars:
                    v = val.get((g, b))
                    if v is None:
                        cells.append('-')
                    elif b == 'minimal':
                        cells.append('%.4f' % v)
                    else:
                        cells.append('%.4f (%+.1f%%)' % (v, 100 * (v / base - 1)))
                w('| %s | %s |' % (g, ' | '.join(cells)))
            w('')

    # End to end.
    w('## keiro-loren end to end: ACRO layers, VLs and SLs (max_vls 8, 16 SLs)\n')
    w('pipeline::route(): LOREN, ACRO, the realization as SLs + SL2VL, then the self-check '
      '(reachability, loops, credit loops over (channel, VL)). keiro-acro (balanced minimal '
      'routes) on the same fabric for comparison.\n')
    w('| fabric | seed | engine | t_max | ok | required | avg hops (minimal) | layers | VLs | SLs '
      '| route s |')
    w('|---|---|---|---|---|---|---|---|---|---|---|')
    for label, (n, d, r), tms, hcas in sizes:
        allout = ''
        for seed in range(1, engine_seeds + 1):
            for t in tms:
                out, rows = run(bench, 'engine', n, d, r, hcas, seed, t)
                allout += out
                minimal = [x['avg_min_hops'] for x in rows if x['engine'] == 'loren']
                for x in rows:
                    if x['engine'] == 'acro' and t != tms[0]:
                        continue
                    if x['engine'] == 'acro' and minimal:  # balanced minimal routes
                        x['avg_hops'] = x['avg_min_hops'] = minimal[0]
                    w('| LRT(%d,%d,%d) h=%d | %d | keiro-%s | %s | %s | %s | %s (%s) | %s | %s | '
                      '%s | %s |' % (n * n, d, r, hcas, seed, x['engine'],
                                     t if x['engine'] == 'loren' else '-', x['ok'], x['required'],
                                     x['avg_hops'], x['avg_min_hops'], x['layers'], x['vls_used'],
                                     x['sls_used'], x['route_s']))
        save('engine-%s.tsv' % label, allout)
    w('')
    head = ('Generated by `scripts/loren-repro.py%s` at commit %s on %s in %.0f s of wall time '
            '(%d LRTs of each size for Figs. 5 and 11-12, %d for Fig. 6, %d traffic patterns, '
            '%d engine seeds; %d CPUs, load average %.1f at the start, other jobs on the machine '
            'included).\n'
            % (' --quick' if a.quick else '', source_commit(), time.strftime('%Y-%m-%d'),
               time.time() - t0, topo, lrts, patterns, engine_seeds, os.cpu_count(), load))
    write_block_page(os.path.join(a.out, 'loren-evaluation.md'), 'loren-evaluation',
                     '# keiro-loren: the LOREN paper\'s evaluation, reproduced',
                     '\n'.join([head] + md))
    print('wrote %s' % os.path.join(a.out, 'loren-evaluation.md'), file=sys.stderr)


if __name__ == '__main__':
    main()
