#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The measured figures of the engine pages (docs/nue.md, dl.md, acro.md,
loren.md, fixed-sl.md, check.md), in one run.

Every figure comes from the built tool, offline (`keiro topo`, `keiro route
--json`, `keiro check`), except keiro-nue against OpenSM's built-in nue,
which runs both through OpenSM on ibsim (scripts/bench-nue.sh). Each page
gets one generated block, `engine-figures-PAGE`; the script replaces only
the text between that block's markers, which must exist.

usage: scripts/engine-figures.py [--quick] [--keep-dumps] [--build DIR] [--out DIR]
  --build DIR  built keiro tree (default: $KEIRO_BUILDDIR, else ./build)
  --out DIR    work directory (fabrics, dumps, results.json, blocks.md);
               default BUILD/engine-figures
  --quick      small fabrics and one OpenSM cell, about 30 s on 2 cores;
               writes OUT/blocks.md and OUT/results.json, never the docs
  --keep-dumps every routing also writes its tables (OUT/dumps/NNN, listed
               with engine, fabric and options in OUT/dumps.json), so that
               tests/integration/engine-figures.sh can give each verdict to
               the independent oracle too
Without --quick the run takes some minutes and writes the docs pages.
Runs are one at a time, so the times are those of one process on the
machine as it is (the docs say: a shared 2-core machine).
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
A = None          # parsed arguments
KEIRO = None
WORK = None
RESULTS = {}      # section -> list of row dicts (for the integration test)
DUMPS = []        # with --keep-dumps: every routing's dump directory, for the independent oracle
PAGE = ""         # the page whose figures are being made (for DUMPS)


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def timed(cmd):
    """Runs cmd; returns (CompletedProcess, wall s, user s of the child)."""
    u0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    t0 = time.monotonic()
    p = sh(cmd)
    wall = time.monotonic() - t0
    user = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - u0
    return p, wall, user


def topo(spec):
    """Path of the net file `keiro topo SPEC` writes (made once)."""
    name = re.sub(r"[^A-Za-z0-9.]+", "_", spec).strip("_") + ".net"
    path = os.path.join(WORK, "fabrics", name)
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        p = sh([KEIRO, "topo"] + spec.split() + ["-o", path])
        if p.returncode != 0:
            sys.exit("engine-figures: keiro topo %s failed: %s" % (spec, p.stderr))
    return path


def bundled(name):
    return os.path.join(SRC, "ibsim-topologies", name)


def route(net, engine, opts=(), args=(), out=None):
    """keiro route --json: a dict with ok, error (first ERROR line), the
    JSON (d), wall and user seconds of the whole run (route + check)."""
    cmd = [KEIRO, "route", "--engine", engine, "--topology", net, "--json"]
    for o in opts:
        cmd += ["--opt", o]
    cmd += list(args)
    if not out and A.keep_dumps:
        out = os.path.join(WORK, "dumps", "%03d" % len(DUMPS))
    if out:
        cmd += ["--out", out]
    p, wall, user = timed(cmd)
    if A.keep_dumps:
        DUMPS.append({"dir": out, "ok": p.returncode == 0, "page": PAGE, "engine": engine, "net": net,
                      "opts": list(opts), "args": list(args)})
    r = {"ok": p.returncode == 0, "wall": wall, "user": user, "d": None, "error": "",
         "stderr": p.stderr}
    try:
        r["d"] = json.loads(p.stdout)
    except ValueError:
        pass
    if p.returncode != 0:
        err = [l for l in p.stderr.splitlines() if "ERROR" in l or "error" in l]
        r["error"] = (err[0] if err else p.stderr.strip()[:200])
    return r


def efi(r):
    e = r["d"]["efi"]
    return "%s (%.2fx)" % (f"{int(e['max']):,}", e["max_over_avg"])


def hops(r):
    return "%.3f" % r["d"]["paths"]["avg_hops"]


def sls(r):
    """SLs the engine's routes need (fact sls_routed; sls_used counts the
    spare SLs spread_sls hands out too)."""
    return int(r["d"]["facts"].get("sls_routed", r["d"]["sls_used"]))


def fact(r, key, default="-"):
    return r["d"]["facts"].get(key, default) if r["d"] else default


def ok(r):
    return bool(r["ok"] and r["d"] and r["d"]["check"]["ok"]
                and not r["d"]["check"]["credit_loop"])


def keep(section, label, r, **more):
    row = {"label": label, "ok": ok(r), "error": r["error"], "wall": round(r["wall"], 2),
           "user": round(r["user"], 2)}
    if r["d"]:
        d = r["d"]
        row.update(max_efi=d["efi"]["max"], max_over_avg=d["efi"]["max_over_avg"],
                   avg_efi=d["efi"]["avg"], avg_hops=d["paths"]["avg_hops"],
                   max_hops=d["paths"]["max_hops"], vls=d["vls_used"], sls=int(d["facts"].get("sls_routed", d["sls_used"])),
                   route_s=d["route_seconds"], facts=d["facts"])
    row.update(more)
    RESULTS.setdefault(section, []).append(row)
    return row


def fattrees(full):
    """(label, keiro topo spec) of the fat trees the nue and dl pages use."""
    rows = [("12-ary 3-tree", "fattree 12 3")]
    rows += [("12-ary 3-tree, 2%% failed, seed %d" % s,
              "fattree 12 3 --fail-links 0.02 --seed %d" % s) for s in ((1, 2, 3) if full else (1,))]
    if full:
        rows += [("18-ary 3-tree", "fattree 18 3"),
                 ("18-ary 3-tree, 2% failed, seed 3", "fattree 18 3 --fail-links 0.02 --seed 3")]
    return rows


# ---------------------------------------------------------------- keiro-nue

def nue_bench(full):
    """keiro-nue and built-in nue through OpenSM (scripts/bench-nue.sh)."""
    out = os.path.join(WORK, "bench-nue")
    env = dict(os.environ)
    if full:
        env.update(BENCH_FABRICS="rrg-128-d8-h4 torus-6x6x6-f1-h2", BENCH_KS="1 2 4 8",
                   BENCH_REPEAT="1", BENCH_SWITCHES="1")
    else:
        env.update(BENCH_FABRICS="rrg-128-d8-h4", BENCH_KS="4", BENCH_REPEAT="1",
                   BENCH_SWITCHES="0")
    p = sh(["bash", os.path.join(SRC, "scripts", "bench-nue.sh"), A.build, out], env=env)
    lines = [l for l in open(os.path.join(out, "result.txt")).read().splitlines() if l.strip()]
    if p.returncode != 0 or len(lines) < 2:
        sys.exit("engine-figures: bench-nue.sh failed: %s" % p.stderr[-500:])
    md = ["| fabric | k | nue s | keiro s | ratio | fb nue / keiro | hops nue / keiro "
          "| max EFI nue / keiro" + (" | nue+sw s | fb | max EFI |" if full else " |"),
          "|---|---|---|---|---|---|---|---|" + ("---|---|---|" if full else "")]
    for l in lines[1:]:
        c = [x.strip() for x in l.replace("|", " ").split()]
        row = {"fabric": c[0], "k": int(c[1]), "nue_s": c[2], "keiro_s": c[3], "ratio": c[4],
               "fb_nue": c[5], "fb_keiro": c[6], "hops_nue": c[7], "hops_keiro": c[8],
               "efi_nue": c[9], "efi_keiro": c[10]}
        cells = [c[0], c[1], c[2], c[3], c[4], "%s / %s" % (c[5], c[6]),
                 "%s / %s" % (c[7], c[8]), "%s / %s" % (c[9], c[10])]
        if full and len(c) >= 15:
            cells += [c[11], c[13], c[14]]
            row.update(sw_s=c[11], fb_sw=c[13], efi_sw=c[14])
        RESULTS.setdefault("nue-opensm", []).append(row)
        md.append("| " + " | ".join(cells) + " |")
    return md


def section_nue(full):
    md = ["Through OpenSM 3.3.23 on ibsim (`scripts/bench-nue.sh`, same fabrics and VL cap "
          "for both engines; %s): routing time in seconds from OpenSM's own log lines "
          "(%s), *fb* escape-path fallbacks, *hops* the average CA-to-CA path in "
          "links, *max EFI* over switch-to-switch links for CA pairs (`keiro analyze --pairs ca` "
          "on OpenSM's dumps)%s. Debian's OpenSM has no METIS, so its nue spreads the "
          "destinations round-robin over the layers."
          % ("k = 1, 2, 4, 8" if full else "one cell", "one run each, so single timings",
             "; *nue+sw*: built-in nue with `nue_include_switches TRUE`" if full else ""),
          ""]
    md += nue_bench(full)
    md += ["", "Offline on fat trees (`keiro route --engine nue`, route and self-check of "
           "every LID pair): max EFI over switch-to-switch links for CA pairs (max/avg), "
           "average CA-to-CA hops in links, escape fallbacks, order attempts, route s.", "",
           "| fabric | max_vls | max EFI (max/avg) | avg hops | fallbacks | attempts | route s | check |",
           "|---|---|---|---|---|---|---|---|"]
    for label, spec in fattrees(full):
        net = topo(spec)
        # 8 VLs on the 12-ary trees only: the 18-ary ones take long on a shared machine
        for v in ((1, 8) if full and "12-ary" in label else (1,)):
            r = route(net, "nue", ["max_vls=%d" % v])
            keep("nue-fattree", label, r, max_vls=v)
            if not r["d"]:
                md.append("| %s | %d | fails: %s | | | | | |" % (label, v, r["error"]))
                continue
            md.append("| %s | %d | %s | %s | %s | %s | %.2f | %s |" % (
                label, v, efi(r), hops(r), fact(r, "escape_fallbacks"),
                fact(r, "order_attempts"), r["d"]["route_seconds"],
                "deadlock free" if ok(r) else "FAILS"))
    return md


# ---------------------------------------------------------------- keiro-dl

def section_dl(full):
    md = ["Offline (`keiro route --engine dl`, route and self-check of every LID pair; "
          "`--traffic` for Γ and the shift estimate). Hops: average CA-to-CA path in links; "
          "max EFI over switch-to-switch links for CA pairs (max/avg).", "",
          "**The DL paper's fabrics** (its Section 5): the random irregular 64-switch fabric "
          "of `tests/integration/data/dl-irregular-64.net` (8-port switches: 4 CAs, up to 4 "
          "switch links) and the 8x8 torus with 4 CAs per switch; `dl_subnets=1` is plain "
          "up*/down* from the same root.", "",
          "| fabric | sub-networks | hops | max EFI (max/avg) | Γ uniform | shift all-to-all | VLs / SLs |",
          "|---|---|---|---|---|---|---|"]
    fabs = [("irregular 64", os.path.join(SRC, "tests/integration/data/dl-irregular-64.net")),
            ("8x8 torus", topo("torus 8x8 --hcas-per-switch 4"))]
    for label, net in fabs:
        for n in (2, 3, 1):
            r = route(net, "dl", ["max_vls=%d" % max(n, 1), "dl_subnets=%d" % n], ["--traffic"])
            keep("dl-paper", label, r, subnets=n)
            if not r["d"]:
                md.append("| %s | %d | fails: %s | | | | |" % (label, n, r["error"]))
                continue
            t = r["d"].get("traffic", {})
            md.append("| %s | %s | %s | %s | %s | %s | %d / %d |" % (
                label, "%d" % n if n > 1 else "1 (up*/down*)", hops(r), efi(r),
                gamma(t), shift(t), r["d"]["vls_used"], sls(r)))
    md += ["", "**Path selection** (2 sub-networks; `dl_policy`, `dl_choices`; random with "
           "`dl_seed` 1 and 2): max EFI.", "",
           "| fabric | dl_choices | lowport | random (seeds 1 / 2) | load |", "|---|---|---|---|---|"]
    for label, net in fabs:
        for ch in ("lowest", "slack"):
            cells = []
            for pol, seeds in (("lowport", [1]), ("random", [1, 2]), ("load", [1])):
                vals = []
                for s in seeds:
                    r = route(net, "dl", ["max_vls=2", "dl_subnets=2", "dl_policy=" + pol,
                                          "dl_choices=" + ch, "dl_seed=%d" % s])
                    keep("dl-policy", label, r, choices=ch, policy=pol, seed=s)
                    vals.append(f"{int(r['d']['efi']['max']):,}" if r["d"] else "fails")
                cells.append(" / ".join(vals))
            md.append("| %s | %s | %s |" % (label, ch, " | ".join(cells)))
    md += ["", "**Fat trees** (`keiro topo fattree k 3`, failed links `--fail-links 0.02 "
           "--seed S`): with one VL, with the default budget (8 VLs, `dl_subnets` 0: one "
           "layer when it is as short), and with `dl_subnets=2`; route s of the default run.",
           "", "| fabric | avg EFI | 1 VL | default: max EFI, VLs / SLs | route s | `dl_subnets=2`: max EFI, VLs / SLs |",
           "|---|---|---|---|---|---|"]
    for label, spec in fattrees(full):
        net = topo(spec)
        r1 = route(net, "dl", [], ["--vls", "1"])
        rd = route(net, "dl")
        r2 = route(net, "dl", ["dl_subnets=2"])
        keep("dl-fattree", label + " vls1", r1)
        keep("dl-fattree", label + " default", rd)
        keep("dl-fattree", label + " subnets2", r2)
        if not (r1["d"] and rd["d"] and r2["d"]):
            md.append("| %s | fails | | | | |" % label)
            continue
        md.append("| %s | %s | %s | %s, %d / %d | %.2f | %s, %d / %d |" % (
            label, f"{rd['d']['efi']['avg']:,.1f}", efi(r1), efi(rd), rd["d"]["vls_used"],
            sls(rd), rd["d"]["route_seconds"], efi(r2), r2["d"]["vls_used"],
            sls(r2)))
    if full:
        md += ["", "**Consistent next hops** (8 VLs; fact `consistent_next_hops` 1 when the "
               "balanced next hops did not fit the SLs):", "",
               "| fabric | consistent next hops | VLs / SLs | max EFI (max/avg) | whole run s |",
               "|---|---|---|---|---|"]
        for label, spec in (("10x10x10 torus, 4 HCAs", "torus 10x10x10 --hcas-per-switch 4"),
                            ("8x8x8 torus, 4 HCAs", "torus 8x8x8 --hcas-per-switch 4")):
            r = route(topo(spec), "dl")
            keep("dl-consistent", label, r)
            if not r["d"]:
                md.append("| %s | fails: %s | | | |" % (label, r["error"]))
                continue
            md.append("| %s | %s | %d / %d | %s | %.1f |" % (
                label, "yes" if fact(r, "consistent_next_hops", "0") == "1" else "no",
                r["d"]["vls_used"], sls(r), efi(r), r["wall"]))
    return md


def gamma(t):
    v = t.get("gamma_uniform")
    return "%.3f" % v if isinstance(v, (int, float)) else "-"


def shift(t):
    v = t.get("shift_throughput")
    return "%.4f" % v if isinstance(v, (int, float)) else "-"


# ---------------------------------------------------------------- keiro-acro

def section_acro(full):
    md = ["Offline (`keiro route --engine acro`, route and self-check of every LID pair). "
          "Max EFI over switch-to-switch links for CA pairs (max/avg); *per switch* is "
          "`acro_per_lid=0` (one route per switch), *per LID* the default.", "",
          "| fabric | avg EFI | per switch: max EFI, VLs / SLs | per LID: max EFI, VLs / SLs | route s (per LID) |",
          "|---|---|---|---|---|"]
    fabs = [("4-ary 2-tree", "fattree 4 2"), ("12-ary 2-tree", "fattree 12 2"),
            ("4-ary 3-tree", "fattree 4 3"), ("12-ary 3-tree", "fattree 12 3"),
            ("random 128 sw, degree 8, 2 HCAs", "random 128 8 --hcas-per-switch 2"),
            ("torus 8x8, 2 HCAs", "torus 8x8 --hcas-per-switch 2")]
    if full:
        fabs += [("18-ary 3-tree", "fattree 18 3"),
                 ("random 256 sw, degree 4, 2 HCAs", "random 256 4 --hcas-per-switch 2"),
                 ("LRT(256,4,4), 1 HCA", "lrt 256 4 4")]
    for label, spec in fabs:
        net = topo(spec)
        rs = route(net, "acro", ["acro_per_lid=0"])
        rl = route(net, "acro")
        keep("acro-perlid", label + " per-switch", rs)
        keep("acro-perlid", label, rl)
        cell = lambda r: ("%s, %d / %d" % (efi(r), r["d"]["vls_used"], sls(r))
                          if r["d"] else "fails")
        md.append("| %s | %s | %s | %s | %s |" % (
            label, f"{rl['d']['efi']['avg']:,.0f}" if rl["d"] else "-", cell(rs), cell(rl),
            "%.2f" % rl["d"]["route_seconds"] if rl["d"] else "-"))
    md += ["", "**Fat trees with failed links** (`fattree 12 3 --fail-links 0.02 --seed S`; "
           "fact `updown_routes` 1: every route up*/down*):", "",
           "| fabric | max EFI (max/avg) | VLs / SLs | updown_routes | route s |", "|---|---|---|---|---|"]
    for label, spec in fattrees(True)[1:4 if full else 2]:
        r = route(topo(spec), "acro")
        keep("acro-degraded", label, r)
        md.append("| %s | %s | %d / %d | %s | %.2f |" % (
            label, efi(r), r["d"]["vls_used"], sls(r), fact(r, "updown_routes"),
            r["d"]["route_seconds"]) if r["d"] else "| %s | fails: %s | | | |" % (label, r["error"]))
    md += ["", "**Consistent choices** (`max_vls=8`; fact `consistent_routes` 1 when "
           "taken; ACRO layers, VLs / SLs, max/avg EFI, whole run):", "",
           "| fabric | layers | VLs / SLs | max/avg EFI | consistent_routes | whole run s |",
           "|---|---|---|---|---|---|"]
    tori = [("8x8x8 torus, 4 HCAs", "torus 8x8x8 --hcas-per-switch 4")]
    if full:
        tori += [("8x8x4 torus, 4 HCAs", "torus 8x8x4 --hcas-per-switch 4"),
                 ("10x10x10 torus, 2 HCAs", "torus 10x10x10 --hcas-per-switch 2"),
                 ("10x10x10 torus, 4 HCAs", "torus 10x10x10 --hcas-per-switch 4")]
    for label, spec in tori:
        r = route(topo(spec), "acro", ["max_vls=8"])
        keep("acro-consistent", label, r)
        if not r["d"]:
            md.append("| %s | fails: %s | | | | %.1f |" % (label, r["error"], r["wall"]))
            continue
        md.append("| %s | %s | %d / %d | %.2fx | %s | %.1f |" % (
            label, fact(r, "layers"), r["d"]["vls_used"], sls(r),
            r["d"]["efi"]["max_over_avg"], fact(r, "consistent_routes", "0"), r["wall"]))
    return md


# ---------------------------------------------------------------- keiro-loren

def section_loren(full):
    md = ["Offline (`keiro route --engine loren --opt loren_layout=... --opt loren_tmax=T`, "
          "route and self-check of every LID pair with the engine's SLs); fabrics `keiro topo "
          "lrt N d r --hcas-per-switch h --seed 1` with their layout files. Hops: switch-to-switch "
          "hops over ordered switch pairs (minimal in brackets).", "",
          "| fabric | t_max | required | avg hops (minimal) | max stretch | ACRO layers | VLs | SLs | route s |",
          "|---|---|---|---|---|---|---|---|---|"]
    fabs = [("LRT(64,4,2), 2 HCAs/switch", "lrt 64 4 2 --hcas-per-switch 2", (18, 32))]
    if full:
        fabs.append(("LRT(256,4,4), 1 HCA/switch", "lrt 256 4 4", (42, 128)))
    else:
        fabs[0] = (fabs[0][0], fabs[0][1], (18,))
    for label, spec, tmaxes in fabs:
        net = topo(spec)
        lay = net[:-4] + ".layout"
        for t in tmaxes:
            r = route(net, "loren", ["loren_layout=" + lay, "loren_tmax=%d" % t])
            keep("loren", label, r, tmax=t)
            if not r["d"]:
                md.append("| %s | %d | fails: %s | | | | | | |" % (label, t, r["error"]))
                continue
            a, m = float(fact(r, "avg_hops", "nan")), float(fact(r, "avg_min_hops", "nan"))
            md.append("| %s | %s | %s | %.3f (%.3f), %+.1f%% | %.2f | %s | %d | %d | %.2f |" % (
                label, fact(r, "tmax"), fact(r, "required_entries"), a, m, 100 * (a / m - 1),
                float(fact(r, "max_stretch", "nan")), fact(r, "layers"), r["d"]["vls_used"],
                sls(r), r["d"]["route_seconds"]))
    md += ["", "Balance next to keiro-acro's per-LID minimal routes (max EFI over "
           "switch-to-switch links for CA pairs, max/avg; keiro-loren at the smallest t_max):",
           "", "| fabric | keiro-loren | keiro-acro |", "|---|---|---|"]
    for label, spec, _ in fabs:
        net = topo(spec)
        rl = route(net, "loren", ["loren_layout=" + net[:-4] + ".layout"])
        ra = route(net, "acro")
        keep("loren-balance", label + " loren", rl)
        keep("loren-balance", label + " acro", ra)
        md.append("| %s | %s | %s |" % (label, efi(rl) if rl["d"] else "fails",
                                       efi(ra) if ra["d"] else "fails"))
    return md + loren_auto(full)


def loren_auto(full):
    """keiro-loren with loren_layout=auto (a grid derived from the links)
    next to the layout file, and on fabrics that come without one."""
    md = ["", "Without a layout file: `loren_layout=auto` (positions derived from the links, "
          "core/loren/auto_layout.h) next to the layout file `keiro topo lrt` wrote, and on "
          "fabrics that have no layout at all (keiro-loren at the smallest t_max; max EFI over "
          "switch-to-switch links for CA pairs, max/avg; link length: the derived layout's "
          "average and longest link in grid steps):", "",
          "| fabric | layout | required | avg hops (minimal) | max EFI | ACRO layers | VLs | link length |",
          "|---|---|---|---|---|---|---|---|"]
    lrts = [("LRT(64,4,2), 2 HCAs/switch", "lrt 64 4 2 --hcas-per-switch 2")]
    others = [("8x8 torus", "torus 8x8 --hcas-per-switch 2")]
    if full:
        lrts += [("LRT(100,4,2) seed 3", "lrt 100 4 2 --hcas-per-switch 2 --seed 3"),
                 ("LRT(256,8,3) seed 5", "lrt 256 8 3 --hcas-per-switch 2 --seed 5")]
        others += [("random 64 switches, degree 4", "random 64 4 --hcas-per-switch 2 --seed 2"),
                   ("dragonfly a=4 p=2 h=2 g=9", "dragonfly 4 2 2 9")]
    runs = [(label, spec, "file") for label, spec in lrts] + \
        [(label, spec, "auto") for label, spec in lrts + others]
    for label, spec, how in runs:
        net = topo(spec)
        lay = net[:-4] + ".layout" if how == "file" else "auto"
        r = route(net, "loren", ["loren_layout=" + lay], ["-v"])
        row = keep("loren-auto", label + " " + how, r, layout=how)
        if not r["d"]:
            md.append("| %s | %s | fails: %s | | | | | |" % (label, how, r["error"]))
            continue
        length = "-"
        if how == "auto":
            m = re.search(r"links ([0-9.]+) grid steps long on average, longest ([0-9]+)", r["stderr"])
            length = "%s / %s" % m.groups() if m else "?"
            row["link_length"] = length
        a, mn = float(fact(r, "avg_hops", "nan")), float(fact(r, "avg_min_hops", "nan"))
        md.append("| %s | %s | %s | %.3f (%.3f) | %s | %s | %d | %s |" % (
            label, "`auto`" if how == "auto" else "file", fact(r, "required_entries"), a, mn,
            efi(r), fact(r, "layers"), r["d"]["vls_used"], length))
    return md


# ---------------------------------------------------------------- fixed_sl

def sl0_verdict(net, engine, opts):
    """The engine's INFO line on fixed-SL traffic (keiro route -v)."""
    p = sh([KEIRO, "route", "--engine", engine, "--topology", net, "-v"]
           + sum((["--opt", o] for o in opts), []))
    for l in p.stderr.splitlines() + p.stdout.splitlines():
        if "fixed-SL safety" in l:
            if "NOT deadlock free" in l:
                m = re.search(r"credit loop over (\d+)", l)
                return "credit loop" + (" (%s pairs)" % m.group(1) if m else "")
            return "deadlock free"
    return "-"


def section_fixed_sl(full):
    md = ["Offline (`keiro route`, route and self-check; *plain*: the tables without the "
          "option, with the engine's verdict on every path on SL 0 from its INFO line; "
          "*`fixed_sl=0`*: VLs, hops, engine runs of the search (fact `fixed_sl_attempts`) and "
          "user CPU of the whole run). Hops: average / max CA-to-CA path in links.", "",
          "| fabric | engine | max_vls | plain: VLs, hops, SL 0 | `fixed_sl=0`: VLs, hops | runs | user s |",
          "|---|---|---|---|---|---|---|"]
    fabs = [("5x5x5 torus, 2 HCAs/switch", topo("torus 5x5x5 --hcas-per-switch 2"),
             ("nue", "dl", "acro"), (4, 8)),
            ("random 64 sw, degree 6, 2 HCAs/switch", topo("random 64 6 --hcas-per-switch 2"),
             ("nue", "dl", "acro"), (4, 8)),
            ("demo-lrt-25sw", bundled("demo-lrt-25sw.net"), ("loren",), (8, 4))]
    if full:
        fabs.append(("8-ary 3-tree", topo("fattree 8 3 --fail-links 0.02 --seed 1"),
                     ("nue", "dl"), (8,)))
        fabs[-1] = ("8-ary 3-tree, 2% failed, seed 1",) + fabs[-1][1:]
    else:
        fabs = [(l, n, e[:2] if len(e) > 1 else e, (4,)) for l, n, e, _ in fabs]
    for label, net, engines, budgets in fabs:
        for eng in engines:
            for v in budgets:
                base = ["max_vls=%d" % v]
                if eng == "loren":
                    base.append("loren_layout=" + net[:-4] + ".layout")
                rp = route(net, eng, base)
                verdict = sl0_verdict(net, eng, base) if rp["d"] else "-"
                rf = route(net, eng, base + ["fixed_sl=0"])
                keep("fixed-sl", "%s %s %d plain" % (label, eng, v), rp, sl0=verdict)
                keep("fixed-sl", "%s %s %d fixed" % (label, eng, v), rf)
                pc = ("%d VLs, %s / %d, %s" % (rp["d"]["vls_used"], hops(rp), rp["d"]["paths"]["max_hops"],
                                               verdict) if rp["d"] else "fails")
                pc = pc.replace("1 VLs,", "1 VL,", 1)
                if rf["d"]:
                    f = rf["d"]["facts"]
                    vl = ("SA %s + SL 0 on %s VLs" % (f.get("sa_vls", "?"), f.get("fixed_sl_vls", "?"))
                          if f.get("sa_vls") and f.get("sa_vls") != f.get("fixed_sl_vls")
                          or f.get("fixed_sl_first_vl", "0") != "0"
                          else "%d VL%s shared" % (rf["d"]["vls_used"], "" if rf["d"]["vls_used"] == 1 else "s"))
                    fc = "%s, %s / %d" % (vl, hops(rf), rf["d"]["paths"]["max_hops"])
                    runs = f.get("fixed_sl_attempts", "-")
                else:
                    fc, runs = "fails cleanly: %s" % short_error(rf["error"]), "-"
                md.append("| %s | keiro-%s | %d | %s | %s | %s | %.2f |" % (
                    label, eng, v, pc, fc, runs, rf["user"]))
    return md


def short_error(e):
    e = re.sub(r"^.*?keiro-\w+: ", "", e)
    return (e[:110] + "...") if len(e) > 110 else e


# ---------------------------------------------------------------- keiro check

def section_check(full):
    md = ["`keiro check DIR` on the dumps `keiro route --engine nue --out DIR` wrote "
          "(random 8-regular switch graphs, 4 CAs per switch, `keiro topo random N 8 "
          "--hcas-per-switch 4`; SLs from keiro-path-sl.dump): wall and user seconds of the "
          "whole `keiro check` process, reading the dumps included, and the size of "
          "opensm-lfts.dump.", "",
          "| switches / CAs / LIDs | check wall s | user s | LFT dump | verdict |", "|---|---|---|---|---|"]
    sizes = (250, 500, 1000) if full else (128, 250)
    for n in sizes:
        net = topo("random %d 8 --hcas-per-switch 4" % n)
        d = os.path.join(WORK, "check-%d" % n)
        r = route(net, "nue", [], out=d)
        p, wall, user = timed([KEIRO, "check", d])
        mb = os.path.getsize(os.path.join(d, "opensm-lfts.dump")) / 1e6
        RESULTS.setdefault("check", []).append(
            {"switches": n, "routed": ok(r), "check_rc": p.returncode, "wall": round(wall, 3),
             "user": round(user, 3), "lfts_mb": round(mb, 1)})
        md.append("| %s / %s / %s | %.2f | %.2f | %.0f MB | %s |" % (
            f"{n:,}", f"{4 * n:,}", f"{5 * n:,}", wall, user, mb,
            "pass" if p.returncode == 0 else "exit %d" % p.returncode))
    return md


# ---------------------------------------------------------------- main

PAGES = [("nue", "docs/nue.md", section_nue), ("dl", "docs/dl.md", section_dl),
         ("acro", "docs/acro.md", section_acro), ("loren", "docs/loren.md", section_loren),
         ("fixed-sl", "docs/fixed-sl.md", section_fixed_sl),
         ("check", "docs/check.md", section_check)]


def replace_block(path, name, body):
    text = open(path, encoding="utf-8").read()
    b, e = "<!-- %s:begin -->" % name, "<!-- %s:end -->" % name
    i, j = text.find(b), text.find(e)
    if i < 0 or j < i:
        sys.exit("engine-figures: %s has no block %s" % (path, name))
    text = text[:i + len(b)] + "\n" + body + "\n" + text[j:]
    open(path, "w", encoding="utf-8").write(text)


def main():
    global A, KEIRO, WORK, PAGE
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--build", default=os.environ.get("KEIRO_BUILDDIR") or os.path.join(SRC, "build"))
    ap.add_argument("--out")
    ap.add_argument("--only", default="", help="comma-separated pages (nue,dl,...)")
    ap.add_argument("--keep-dumps", action="store_true",
                    help="keep every routing's dumps in OUT/dumps and list them in OUT/dumps.json")
    A = ap.parse_args()
    A.build = os.path.abspath(A.build)
    KEIRO = os.path.join(A.build, "keiro")
    if not os.access(KEIRO, os.X_OK):
        sys.exit("engine-figures: no keiro in %s" % A.build)
    WORK = os.path.abspath(A.out or os.path.join(A.build, "engine-figures"))
    os.makedirs(WORK, exist_ok=True)
    commit = sh(["git", "-C", SRC, "rev-parse", "--short", "HEAD"]).stdout.strip() or "unknown"
    only = set(filter(None, A.only.split(",")))
    full = not A.quick
    blocks, t_all = [], time.monotonic()
    for key, page, fn in PAGES:
        if only and key not in only:
            continue
        t0 = time.monotonic()
        PAGE = key
        md = fn(full)
        secs = time.monotonic() - t0
        head = ("Written by `scripts/engine-figures.py`%s at commit %s in %.0f s (this page's "
                "part), one run at a time on a shared 2-core machine; do not edit."
                % (" --quick" if A.quick else "", commit, secs))
        blocks.append((key, page, head + "\n\n" + "\n".join(md)))
        print("engine-figures: %s done in %.0f s" % (key, secs), file=sys.stderr)
    json.dump(RESULTS, open(os.path.join(WORK, "results.json"), "w"), indent=1)
    if A.keep_dumps:
        json.dump(DUMPS, open(os.path.join(WORK, "dumps.json"), "w"), indent=1)
    with open(os.path.join(WORK, "blocks.md"), "w") as f:
        for key, page, body in blocks:
            f.write("<!-- engine-figures-%s:begin -->\n%s\n<!-- engine-figures-%s:end -->\n\n"
                    % (key, body, key))
    if full:
        for key, page, body in blocks:
            replace_block(os.path.join(SRC, page), "engine-figures-" + key, body)
    print("engine-figures: %d blocks in %.0f s (%s)" % (len(blocks), time.monotonic() - t_all,
                                                       WORK), file=sys.stderr)


if __name__ == "__main__":
    main()
