# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Renders the results of keiro's OpenSM benchmarks (scripts/bench-*.sh) as a
markdown table with every cell's ratio to the best of OpenSM's built-in
engines on the same fabric, and a grouped SVG bar chart.

usage: bench_table.py balance RESULTS.tsv [--md FILE] [--svg FILE] [--doc FILE]
       bench_table.py scale OFFLINE.tsv [--opensm OPENSM.tsv] [--md FILE]
                      [--svg FILE] [--doc FILE]

RESULTS.tsv: tab-separated, '#' header naming the columns fabric, engine,
installed, route_s, vls, efi_max, efi_avg, gamma_uniform, avg_hops, verdict
('-' for unknown). A run whose installed engine is not the one asked for
(ftree falling back to minhop on a fabric it does not recognize) is shown
with what was installed and never counts as the best built-in engine.
--doc FILE replaces the text between '<!-- bench-KIND:begin -->' and
'<!-- bench-KIND:end -->' in FILE with the tables.

scale (scripts/bench-scale.sh): OFFLINE.tsv has the columns family, fabric,
engine, switches, lids, threads, wall_s, user_s, rss_mb, route_s, check_s,
phases, vls, sls, result; OPENSM.tsv fabric, engine, installed, route_s. The
page gets the offline table, the measured growth (least-squares slope of
log(wall time) against log(LIDs) per engine and family, 1 thread, families
with three sizes or more), and the OpenSM table with every built-in engine's
time as a multiple of keiro-nue's. The SVG plots wall time (1 thread) against
LIDs on log-log axes, one colour per engine, one dash pattern per family.
"""
import math
import argparse
import os
import sys

import keiro_bench as kb

COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2',
          '#7f7f7f', '#bcbd22', '#17becf']

# column, heading, better ('low' or 'high'), format
METRICS = [
    ('efi_max', 'max EFI', 'low', '{:,.0f}'),
    ('ratio', 'max/avg', 'low', '{:.2f}'),
    ('gamma_uniform', 'Γ uniform', 'high', '{:.3f}'),
    ('avg_hops', 'avg hops', 'low', '{:.3f}'),
    ('route_s', 'route s', 'low', '{:.2f}'),
]


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def read_rows(path):
    """The rows of a '#'-headed tab-separated file as dicts."""
    rows, header = [], None
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('#'):
                header = line[1:].split('\t')
            elif line:
                rows.append(dict(zip(header, line.split('\t'))))
    return rows


def read_tsv(path):
    rows = read_rows(path)
    for r in rows:
        mx, avg = num(r.get('efi_max')), num(r.get('efi_avg'))
        r['ratio'] = '%.4f' % (mx / avg) if mx is not None and avg else '-'
        r['builtin'] = not r['engine'].startswith('keiro-')
        r['fell_back'] = r.get('installed', '-') not in ('-', r['engine'])
    return rows


def best_builtin(rows, col, better):
    vals = [num(r[col]) for r in rows if r['builtin'] and not r['fell_back']
            and num(r[col]) is not None and r['verdict'] == 'deadlock free']
    if not vals:
        vals = [num(r[col]) for r in rows if r['builtin'] and not r['fell_back']
                and num(r[col]) is not None]
    if not vals:
        return None
    return min(vals) if better == 'low' else max(vals)


def cell(r, col, fmt, best):
    v = num(r[col])
    if v is None:
        return '-'
    s = fmt.format(v)
    if best:
        s += ' (%.2fx)' % (v / best)
    return s


def fabrics_in_order(rows):
    seen = []
    for r in rows:
        if r['fabric'] not in seen:
            seen.append(r['fabric'])
    return seen


def markdown(rows):
    out = []
    for fab in fabrics_in_order(rows):
        fr = [r for r in rows if r['fabric'] == fab]
        best = {c: best_builtin(fr, c, b) for c, _, b, _ in METRICS}
        out.append('### %s\n' % fab)
        out.append('| engine | installed | VLs | ' + ' | '.join(h for _, h, _, _ in METRICS) +
                   ' | check (SA SLs) |')
        out.append('|' + '---|' * (len(METRICS) + 4))
        for r in fr:
            inst = r['installed'] if r['installed'] != r['engine'] else '='
            verdict = r['verdict']
            if verdict.startswith('FAILS: credit loop over'):
                verdict = verdict.split(':')[0] + ': ' + verdict.split(':')[1].strip()
            out.append('| %s | %s | %s | %s | %s |' % (
                r['engine'], inst, r['vls'],
                ' | '.join(cell(r, c, f, best[c]) for c, _, _, f in METRICS), verdict))
        out.append('')
    return '\n'.join(out) + '\n'


def chart(rows, path):
    fabs = fabrics_in_order(rows)
    engines = []
    for r in rows:
        if r['engine'] not in engines:
            engines.append(r['engine'])
    vals = [num(r['ratio']) for r in rows if num(r['ratio']) is not None]
    ymax = max(vals + [1.0])
    cap = min(ymax, 6.0)  # bars above the cap are drawn to it and labelled
    w = max(640, 90 * len(fabs) * max(1, len(engines)) // 4 + 220)
    svg = kb.Svg(w=w, h=420, title='max / avg edge forwarding index (HCA pairs; lower is better)',
                 legend_w=160)
    svg.axes(0, len(fabs), 0, cap * 1.05, 'fabric', 'max EFI / avg EFI', xticks=[])
    gw = (svg.r - svg.l) / len(fabs)
    bw = gw * 0.8 / max(1, len(engines))
    for i, fab in enumerate(fabs):
        x0 = svg.l + i * gw + gw * 0.1
        svg.text(x0 + gw * 0.4, svg.b + 17, fab, anchor='middle', size=10)
        for j, e in enumerate(engines):
            r = next((r for r in rows if r['fabric'] == fab and r['engine'] == e), None)
            v = num(r['ratio']) if r else None
            if v is None:
                continue
            y = svg.Y(min(v, cap))
            svg.rect(x0 + j * bw, y, bw * 0.9, svg.b - y, COLORS[j % len(COLORS)])
            if v > cap:
                svg.text(x0 + j * bw + bw / 2, y - 3, '%.0f' % v, anchor='middle', size=9)
    svg.line(svg.l, svg.Y(1), svg.r, svg.Y(1), color='#444', dash='3,3')
    svg.legend([(e, COLORS[j % len(COLORS)], None) for j, e in enumerate(engines)])
    svg.save(path)


def replace_block(doc, text, tag):
    begin, end = '<!-- %s:begin -->' % tag, '<!-- %s:end -->' % tag
    with open(doc) as f:
        body = f.read()
    a, b = body.find(begin), body.find(end)
    if a < 0 or b < a:
        sys.exit('bench_table: %s has no %s ... %s block' % (doc, begin, end))
    with open(doc, 'w') as f:
        f.write(body[:a + len(begin)] + '\n' + text + body[b:])


def scale_markdown(rows, osm):
    out = ['| fabric | engine | switches | LIDs | threads | wall s | user s | peak MB | route s '
           '| check s | engine phases (s) | VLs | SLs | result |',
           '|' + '---|' * 14]
    for r in rows:
        out.append('| ' + ' | '.join(r[c] for c in (
            'fabric', 'engine', 'switches', 'lids', 'threads', 'wall_s', 'user_s', 'rss_mb', 'route_s',
            'check_s', 'phases', 'vls', 'sls', 'result')) + ' |')
    out.append('')
    growth = scale_growth(rows)
    if growth:
        out.append('Measured growth (1 thread): wall time ~ LIDs^x\n')
        out.append('| engine | family | sizes | x |')
        out.append('|---|---|---|---|')
        for (e, fam), (n, x) in sorted(growth.items()):
            out.append('| %s | %s | %d | %.2f |' % (e, fam, n, x))
        out.append('')
    if osm:
        base = next((num(r['route_s']) for r in osm if r['engine'] == 'keiro-nue'), None)
        out.append('| fabric (OpenSM + ibsim) | engine | installed | route s | time / keiro-nue |')
        out.append('|---|---|---|---|---|')
        for r in osm:
            v = num(r['route_s'])
            ratio = '%.1fx' % (v / base) if v is not None and base else '-'
            out.append('| %s | %s | %s | %s | %s |' % (r['fabric'], r['engine'], r['installed'],
                                                        r['route_s'], ratio))
        out.append('')
    return '\n'.join(out) + '\n'


def scale_points(rows):
    pts = {}
    for r in rows:
        w, lids = num(r['wall_s']), num(r['lids'])
        if r['threads'] != '1' or r['result'] != 'ok' or not w or not lids:
            continue
        pts.setdefault((r['engine'], r['family']), []).append((lids, w))
    return {k: sorted(v) for k, v in pts.items()}


def scale_growth(rows):
    res = {}
    for k, p in scale_points(rows).items():
        if len(p) < 3:
            continue
        xs, ys = [math.log(a) for a, _ in p], [math.log(b) for _, b in p]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        sxx = sum((x - mx) ** 2 for x in xs)
        if sxx > 0:
            res[k] = (len(p), sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx)
    return res


def scale_chart(rows, path):
    pts = scale_points(rows)
    if not pts:
        return
    engines = sorted({e for e, _ in pts})
    fams = sorted({f for _, f in pts})
    dashes = [None, '6,3', '2,2', '8,3,2,3', '1,3', '10,2']
    allx = [x for p in pts.values() for x, _ in p]
    ally = [y for p in pts.values() for _, y in p]
    lx0, lx1 = math.floor(math.log10(min(allx))), math.ceil(math.log10(max(allx)))
    ly0, ly1 = math.floor(math.log10(min(ally))), math.ceil(math.log10(max(ally)))
    if lx1 == lx0:
        lx1 += 1
    if ly1 == ly0:
        ly1 += 1
    svg = kb.Svg(w=720, h=440, title='keiro route + self-check, wall time against LIDs (1 thread)',
                 legend_w=200)
    svg.axes(lx0, lx1, ly0, ly1, 'LIDs (log)', 'seconds (log)', xticks=[], yticks=[])
    for v in range(lx0, lx1 + 1):
        svg.line(svg.X(v), svg.b, svg.X(v), svg.b + 4)
        svg.text(svg.X(v), svg.b + 17, kb.fmt(10 ** v), anchor='middle', size=11)
    for v in range(ly0, ly1 + 1):
        svg.line(svg.l, svg.Y(v), svg.r, svg.Y(v), color='#e0e0e0')
        svg.text(svg.l - 7, svg.Y(v) + 4, kb.fmt(10 ** v), anchor='end', size=11)
    for (e, f), p in sorted(pts.items()):
        c = COLORS[engines.index(e) % len(COLORS)]
        d = dashes[fams.index(f) % len(dashes)]
        lp = [(math.log10(x), math.log10(y)) for x, y in p]
        svg.polyline(lp, c, dash=d)
        for x, y in lp:
            svg.circle(svg.X(x), svg.Y(y), 2.5, c)
    svg.legend([(e, COLORS[i % len(COLORS)], None) for i, e in enumerate(engines)] +
               [(f, '#555', dashes[i % len(dashes)]) for i, f in enumerate(fams)])
    svg.save(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('kind', choices=['balance', 'scale'])
    ap.add_argument('tsv')
    ap.add_argument('--opensm')
    ap.add_argument('--md')
    ap.add_argument('--svg')
    ap.add_argument('--doc')
    a = ap.parse_args()
    if a.kind == 'scale':
        rows = read_rows(a.tsv)
        osm = read_rows(a.opensm) if a.opensm else []
        text = scale_markdown(rows, osm)
        if a.svg:
            scale_chart(rows, a.svg)
    else:
        rows = read_tsv(a.tsv)
        text = markdown(rows)
        if a.svg:
            chart(rows, a.svg)
    if not rows:
        sys.exit('bench_table: no rows in %s' % a.tsv)
    if a.md:
        with open(a.md, 'w') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if a.doc:
        replace_block(a.doc, text, 'bench-' + a.kind)


if __name__ == '__main__':
    main()
