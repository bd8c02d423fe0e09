#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Reproduces the evaluation of the ACRO paper (Kawano et al., IEICE 2017)
with keiro's implementation, and measures keiro-acro's realization on IB.

  Figs. 5/6: layers (VLs) ACRO needs vs a LASH-style assignment (each path
             whole in one layer, first fit) on the same balanced minimal
             routes, random regular graphs of 64 and 256 switches, degree
             4..12, SEEDS seeds per point;
  Fig. 7:    run time of ACRO alone at 64, 256 and 1,024 switches, degree 16;
  plus the realization as SLs + SL2VL (first fit / best fit / repair) on
  64/d4, 128/d8 and 256/d4 with 2 HCAs per switch.

Writes OUT/acro-evaluation.md (tables, in an acro-evaluation block headed by
the script, the commit of the source tree and the wall time; an existing page
keeps what is outside the block) and OUT/acro-layers.svg (plot). OUT is docs/,
or with --quick a new temporary directory unless --out is given, so a quick
run never edits docs/. --quick (under 15 s on 2 cores) is what
tests/integration/eval-scripts.sh runs.
Needs the acro_bench program: `make tests/bench/acro_bench` in a build
directory (found in $KEIRO_BUILDDIR, else the newest build*/, or give --bench).

usage: scripts/acro-compare.py [--bench PATH] [--seeds N] [--jobs J] [--quick] [--out DIR]
"""
import argparse
import concurrent.futures
import os
import platform
import statistics
import sys
import tempfile
import time

from keiro_bench import ROOT, Svg, find_program, run_table, source_commit, write_block_page


def run(bench, *args):
    t = run_table(bench, *args, check=False)
    return t.rows, t.stderr


def layers_point(bench, n, d, seeds):
    rows, err = run(bench, "layers", n, d, *seeds)
    if len(rows) != len(seeds):
        sys.exit(f"acro_bench layers {n} {d} failed: {err}")
    return n, d, [(int(r[3]), int(r[4]), float(r[5]), float(r[6])) for r in rows]


def svg_plot(results, sizes, degrees):
    """Two panels (one per size): average layers with min-max bars, ACRO vs LASH."""
    W, H, ML, MR, MT, MB, GAP = 860, 380, 60, 20, 50, 55, 70
    pw = (W - ML - MR - GAP) / 2
    ph = H - MT - MB
    ymax = max(max(l for _, l, _, _ in results[(n, d)]) for n in sizes for d in degrees) + 1
    s = Svg(W, H, title="Layers (VLs) needed on the same minimal routes: ACRO vs LASH-style "
            "first fit", title_size=15)
    colors = {"ACRO": "#1f77b4", "LASH": "#d62728"}
    for i, n in enumerate(sizes):
        x0 = ML + i * (pw + GAP)
        def X(d):
            return x0 + (d - degrees[0]) / (degrees[-1] - degrees[0]) * pw
        def Y(v):
            return MT + ph - v / ymax * ph
        s.rect(x0, MT, pw, ph, "none", stroke="#888")
        s.text(x0 + pw / 2, MT - 8, f"{n} switches", anchor="middle")
        for v in range(0, ymax + 1):
            s.line(x0, Y(v), x0 + pw, Y(v), color="#eee")
            s.text(x0 - 6, Y(v) + 4, v, anchor="end")
        for d in degrees:
            s.text(X(d), MT + ph + 16, d, anchor="middle")
        s.text(x0 + pw / 2, MT + ph + 36, "degree", anchor="middle")
        for name, idx in (("ACRO", 0), ("LASH", 1)):
            c = colors[name]
            pts = []
            for d in degrees:
                vals = [r[idx] for r in results[(n, d)]]
                avg = statistics.mean(vals)
                pts.append((X(d), Y(avg)))
                s.line(X(d), Y(min(vals)), X(d), Y(max(vals)), color=c, width=1.5)
                s.circle(X(d), Y(avg), 3, c)
            s.polyline_px(pts, c, width=2)
        if i == 0:
            s.text(ML - 45, MT + ph / 2, "layers (avg, bars: min-max)", anchor="middle",
                   rotate=-90)
    lx = W - MR - 220
    for j, name in enumerate(("ACRO", "LASH")):
        label = "ACRO (keiro)" if name == "ACRO" else "LASH-style first fit"
        s.line(lx, MT + 16 + j * 16, lx + 24, MT + 16 + j * 16, color=colors[name], width=2)
        s.text(lx + 30, MT + 20 + j * 16, label)
    return s.svg()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bench", default=None, help="path of acro_bench")
    ap.add_argument("--seeds", type=int, default=20, help="seeds per (size, degree) point")
    ap.add_argument("--jobs", type=int, default=2, help="parallel runs")
    ap.add_argument("--quick", action="store_true", help="3 seeds, degrees 4/8/12, no 1,024")
    ap.add_argument("--out", help="output directory (default docs/, with --quick a temporary one)")
    a = ap.parse_args()
    bench = a.bench or find_program(os.path.join("tests", "bench", "acro_bench"))
    if not bench or not os.access(bench, os.X_OK):
        sys.exit("acro_bench not found: run `make tests/bench/acro_bench` in a build directory "
                 "or pass --bench")
    if not a.out:
        a.out = tempfile.mkdtemp(prefix="acro-compare.") if a.quick else os.path.join(ROOT, "docs")
    seeds = list(range(1, (3 if a.quick else a.seeds) + 1))
    sizes = [64, 256]
    degrees = [4, 8, 12] if a.quick else list(range(4, 13))
    t0, load = time.time(), os.getloadavg()[0]

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(layers_point, bench, n, d, seeds) for n in sizes for d in degrees]
        for f in concurrent.futures.as_completed(futs):
            n, d, rows = f.result()
            results[(n, d)] = rows
            print(f"layers {n}/{d}: done", file=sys.stderr)

    timing = {}
    for n in ([64, 256] if a.quick else [64, 256, 1024]):
        rows, err = run(bench, "time", n, 16, *range(1, 11))
        if len(rows) != 10:
            sys.exit(f"acro_bench time {n} failed: {err}")
        timing[n] = rows
        print(f"time {n}: done", file=sys.stderr)

    realize = []
    cases = [(64, 4, 16, 8), (128, 8, 16, 8), (256, 4, 16, 8), (256, 4, 10, 4), (256, 4, 8, 4),
             (64, 4, 3, 4), (128, 4, 4, 4)]
    for (n, d, sls, vls) in cases:
        for m in ("firstfit", "bestfit", "repair"):
            rows, _ = run(bench, "realize", n, d, 2, 1, sls, vls, m)
            realize.append(rows[0])
        print(f"realize {n}/{d} {sls} SLs {vls} VLs: done", file=sys.stderr)

    # ---- report ----
    md = []
    md.append(f"Generated by `scripts/acro-compare.py{' --quick' if a.quick else ''}` at commit "
              f"{source_commit()} on {time.strftime('%Y-%m-%d')} in {time.time()-t0:.0f} s of "
              f"wall time ({len(seeds)} seeds per point, {a.jobs} runs at a time; "
              f"{platform.machine()}, {os.cpu_count()} CPUs, load average {load:.1f} at the "
              "start, other jobs on the machine included). Re-run it to reproduce; see "
              "docs/acro.md for what is measured and how.\n")
    md.append("The paper: R. Kawano, H. Nakahara, S. Tade, I. Fujiwara, H. Matsutani, M. Koibuchi, H. Amano, \"A Novel Channel Assignment Method to Ensure Deadlock-Freedom for Deterministic Routing\", IEICE Transactions on Information and Systems E100-D(8), 2017, Sect. 4.\n")
    md.append("## Layers: ACRO vs LASH-style first fit (paper Figs. 5 and 6)\n")
    md.append("Random connected d-regular switch graphs, keiro's balanced minimal routing "
              "(one route per switch pair), every switch a source and a destination. "
              "Reduction = 1 - ACRO/LASH.\n")
    md.append("| switches | degree | ACRO avg | ACRO min-max | LASH avg | LASH min-max | "
              "reduction avg | reduction max | ACRO time avg (s) | LASH time avg (s) |")
    md.append("|---|---|---|---|---|---|---|---|---|---|")
    best = {}
    for n in sizes:
        for d in degrees:
            rows = results[(n, d)]
            ac = [r[0] for r in rows]
            la = [r[1] for r in rows]
            ra = 1 - statistics.mean(ac) / statistics.mean(la)
            rm = 1 - max(ac) / max(la)
            best[n] = (max(best.get(n, (0, 0))[0], ra), max(best.get(n, (0, 0))[1], rm))
            md.append(f"| {n} | {d} | {statistics.mean(ac):.2f} | {min(ac)}-{max(ac)} | "
                      f"{statistics.mean(la):.2f} | {min(la)}-{max(la)} | {100*ra:.0f}% | "
                      f"{100*rm:.0f}% | {statistics.mean(r[2] for r in rows):.4f} | "
                      f"{statistics.mean(r[3] for r in rows):.4f} |")
    md.append("")
    for n in sizes:
        md.append(f"- {n} switches: ACRO needs up to {100*best[n][0]:.0f}% fewer layers on "
                  f"average and up to {100*best[n][1]:.0f}% fewer at the maximum "
                  f"(paper: {'37% / 50%' if n == 64 else '60% / 63%'}).")
    md.append("\n![layers](acro-layers.svg)\n")
    md.append("## Run time of ACRO alone (paper Fig. 7: about 30 minutes at 1,024 in Python)\n")
    md.append("Degree 16, 10 seeds each; ACRO alone (CDGs, h/w/H/f, layers), after the routing. "
              "Wall-clock and CPU time of the one thread (the machine may be shared: CPU time "
              "is the figure that does not depend on the load).\n")
    md.append("| switches | layers | ACRO wall avg (s) | ACRO wall max (s) | ACRO CPU avg (s) | "
              "ACRO CPU max (s) | routing wall avg (s) |")
    md.append("|---|---|---|---|---|---|---|")
    for n, rows in timing.items():
        ts = [float(r[4]) for r in rows]
        cs = [float(r[6]) for r in rows]
        md.append(f"| {n} | {'/'.join(sorted(set(r[3] for r in rows)))} | {statistics.mean(ts):.3f} | "
                  f"{max(ts):.3f} | {statistics.mean(cs):.3f} | {max(cs):.3f} | "
                  f"{statistics.mean(float(r[5]) for r in rows):.3f} |")
    md.append("")
    md.append("## Realization as SLs + SL2VL (seed 1, 2 HCAs per switch)\n")
    md.append("paths = (source switch, destination tree) pairs, one tree per LID of the balanced "
              "minimal routing (per-LID trees of one switch that coincide count once; "
              "keiro-acro itself falls back to one tree per switch when that needs fewer "
              "layers, as at 128/4); misfits = paths that found no "
              "conflict-free SL on their first try; unplaced = paths without an SL at the end "
              "(0 = success); check = keiro's self-check (reachability + credit loops over "
              "(channel, VL) with the real SLs and SL2VL).\n")
    md.append("| switches | degree | SLs allowed | VLs allowed | ACRO layers | method | paths | "
              "misfits | evictions | unplaced | SLs used | VLs used | time (s) | check |")
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in realize:
        md.append(f"| {r[0]} | {r[1]} | {r[5]} | {r[6]} | {r[7]} | {r[4]} | {r[8]} | {r[9]} | "
                  f"{r[10]} | {r[12]} | {r[13] if r[12] == '0' else '-'} | "
                  f"{r[14] if r[12] == '0' else '-'} | {r[17]} | {r[19]} |")
    md.append("")
    os.makedirs(a.out, exist_ok=True)
    write_block_page(os.path.join(a.out, "acro-evaluation.md"), "acro-evaluation",
                     "# keiro-acro: evaluation (generated)", "\n".join(md))
    with open(os.path.join(a.out, "acro-layers.svg"), "w") as fh:
        fh.write(svg_plot(results, sizes, degrees))
    print(f"wrote {a.out}/acro-evaluation.md and {a.out}/acro-layers.svg", file=sys.stderr)


if __name__ == "__main__":
    main()
