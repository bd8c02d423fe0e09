#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""How much an engine's result depends on how a fabric is labelled (issue 32,
item 1): routes one fabric in several labellings with `keiro route --json`
and prints, per engine and VL budget, max EFI, average hops, VLs and time
for every labelling, then the spread (max/min) over the labellings.

A FABRIC is what follows `keiro topo` ("fattree 12 3 --port-split hca-low").
Its labellings:
  as-written   the file `keiro topo FABRIC` writes;
  reversed     the same file with the node order reversed, the GUIDs reversed
               (the switch with the lowest GUID takes the highest, the same for
               HCAs) and every switch's ports reversed (p -> ports + 1 - p);
  seed-S       `keiro topo FABRIC --relabel S` (GUIDs, node order and ports
               permuted at random), for every S of --seeds.
Routing is offline and one run at a time (keiro route: route + self-check).
keiro-loren (--engines loren) is given each labelling's layout file, which
keiro topo writes for lrt fabrics only.

usage: scripts/relabel-survey.py [--keiro PATH] [--engines nue,acro,dl]
           [--vls 1,8] [--seeds 1,2,3] [--reference EFI] [--json FILE]
           FABRIC [FABRIC...]
--vls V runs every engine with max_vls=V (8 is keiro's default budget).
--reference EFI adds each labelling's max EFI over EFI (e.g. k^3 - k,
OpenSM ftree's max EFI on a k-ary 3-tree).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def find_keiro(given):
    if given:
        return given
    for d in (os.environ.get("KEIRO_BUILDDIR", ""), "build", "."):
        p = os.path.join(d, "keiro")
        if d and os.access(p, os.X_OK):
            return p
    sys.exit("relabel-survey: no keiro binary (give --keiro or set KEIRO_BUILDDIR)")


def parse_net(text):
    """Notes and records of a keiro-written net file: each record is
    [directive, header, [port lines]] in file order."""
    notes, records, cur = [], [], None
    for line in text.splitlines():
        if line.startswith("#"):
            notes.append(line)
        elif not line.strip():
            cur = None
        elif line.startswith(("switchguid=", "caguid=")):
            cur = [line, None, []]
            records.append(cur)
        elif cur is not None and cur[1] is None:
            cur[1] = line
        elif cur is not None:
            cur[2].append(line)
        else:
            raise ValueError("unexpected line: " + line)
    return notes, records


PORT = re.compile(r'^\[(\d+)\] "([^"]+)"\[(\d+)\]$')
HEADER = re.compile(r'^(Switch|Hca) (\d+) "([^"]+)"(.*)$')


def reversed_labelling(text):
    """The structured reversal described in the module docstring; the text and
    the GUID map (old -> new)."""
    notes, records = parse_net(text)
    ports_of = {}
    for rec in records:
        kind, n, ident, _ = HEADER.match(rec[1]).groups()
        ports_of[ident] = int(n) if kind == "Switch" else 0
    guid_map = {}
    for prefix in ("switchguid=", "caguid="):
        guids = sorted(int(r[0].split("=")[1], 16) for r in records if r[0].startswith(prefix))
        guid_map.update(zip(guids, reversed(guids)))

    def port(ident, p):
        n = ports_of[ident]
        return n + 1 - p if n else p

    out = notes + ["# relabel-survey: reversed (node order, GUIDs, switch ports)", ""]
    for rec in reversed(records):
        prefix, guid = rec[0].split("=")
        ident = HEADER.match(rec[1]).group(3)
        out += ["%s=0x%016x" % (prefix, guid_map[int(guid, 16)]), rec[1]]
        lines = []
        for pl in rec[2]:
            p, remote, rp = PORT.match(pl).groups()
            lines.append((port(ident, int(p)), remote, port(remote, int(rp))))
        out += ['[%d] "%s"[%d]' % t for t in sorted(lines)]
        out.append("")
    return "\n".join(out) + "\n", guid_map


def topo(keiro, args, path):
    r = subprocess.run([keiro, "topo"] + args + ["-o", path], capture_output=True, text=True)
    if r.returncode:
        sys.exit("relabel-survey: keiro topo %s failed: %s" % (" ".join(args), r.stderr.strip()))


def labellings(keiro, fabric, seeds, tmp):
    args = fabric.split()
    base = os.path.join(tmp, "as-written.net")
    topo(keiro, args, base)
    out = [("as-written", base)]
    rev = os.path.join(tmp, "reversed.net")
    with open(base) as f, open(rev, "w") as g:
        text, guid_map = reversed_labelling(f.read())
        g.write(text)
    if os.path.exists(layout_of(base)):  # lrt: the layout with the new GUIDs
        with open(layout_of(base)) as f, open(layout_of(rev), "w") as g:
            for line in f:
                w = line.split(" ", 1)
                if not line.startswith("#"):
                    line = "0x%016x %s" % (guid_map[int(w[0], 16)], w[1])
                g.write(line)
    out.append(("reversed", rev))
    for s in seeds:
        p = os.path.join(tmp, "seed-%d.net" % s)
        topo(keiro, args + ["--relabel", str(s)], p)
        out.append(("seed-%d" % s, p))
    return out


def layout_of(net):
    """The layout file keiro topo writes beside an lrt's net file."""
    return net[:-len(".net")] + ".layout"


def route(keiro, net, engine, vls):
    cmd = [keiro, "route", "--topology", net, "--engine", engine, "--json"]
    cmd += ["--opt", "max_vls=%d" % vls]
    if engine == "loren":
        cmd += ["--opt", "loren_layout=" + layout_of(net)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode or not r.stdout.strip():
        err = (r.stderr.strip().splitlines() or ["no output"])[-1]
        return {"ok": False, "error": err}
    d = json.loads(r.stdout)
    return {"ok": d["check"]["ok"], "max_efi": d["efi"]["max"], "max_over_avg":
            d["efi"]["max_over_avg"], "avg_hops": d["paths"]["avg_hops"], "vls": d["vls_used"],
            "seconds": d["route_seconds"] + d["check"]["seconds"]}


def spread(values):
    return max(values) / min(values) if values and min(values) > 0 else float("nan")


def report(fabric, engine, vls, rows, reference):
    print("\n%s, keiro-%s, max_vls=%d" % (fabric, engine, vls))
    print("  %-12s %9s %8s %9s %4s %8s%s" % ("labelling", "max EFI", "max/avg", "avg hops", "VLs",
                                             "seconds", "  xref" if reference else ""))
    good = []
    for name, r in rows:
        if not r["ok"]:
            print("  %-12s FAILED: %s" % (name, r.get("error", "check failed")))
            continue
        good.append(r)
        ref = "  %5.2f" % (r["max_efi"] / reference) if reference else ""
        print("  %-12s %9d %8.2f %9.3f %4d %8.2f%s" % (name, r["max_efi"], r["max_over_avg"],
                                                      r["avg_hops"], r["vls"], r["seconds"], ref))
    if good:
        print("  spread max/min: max EFI %.3f, avg hops %.3f, VLs %d-%d" %
              (spread([r["max_efi"] for r in good]), spread([r["avg_hops"] for r in good]),
               min(r["vls"] for r in good), max(r["vls"] for r in good)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fabrics", nargs="+", metavar="FABRIC")
    ap.add_argument("--keiro")
    ap.add_argument("--engines", default="nue,acro,dl")
    ap.add_argument("--vls", default="1,8")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--reference", type=float, default=0)
    ap.add_argument("--json", help="also write every figure there")
    a = ap.parse_args()
    keiro = find_keiro(a.keiro)
    seeds = [int(s) for s in a.seeds.split(",") if s]
    all_rows = []
    with tempfile.TemporaryDirectory(prefix="relabel-survey.") as tmp:
        for i, fabric in enumerate(a.fabrics):
            d = os.path.join(tmp, str(i))
            os.mkdir(d)
            labs = labellings(keiro, fabric, seeds, d)
            for engine in a.engines.split(","):
                for vls in (int(v) for v in a.vls.split(",")):
                    rows = [(name, route(keiro, net, engine, vls)) for name, net in labs]
                    report(fabric, engine, vls, rows, a.reference)
                    sys.stdout.flush()
                    all_rows += [dict(r, fabric=fabric, engine=engine, max_vls=vls, labelling=n)
                                 for n, r in rows]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(all_rows, f, indent=1)


if __name__ == "__main__":
    main()
