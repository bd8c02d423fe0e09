#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The generators of the evaluation pages in their quick modes, with
# assertions on what they measure (not only that they ran):
#  - scripts/acro-compare.py --quick (docs/acro-evaluation.md): on every
#    (size, degree) point ACRO needs no more layers than the LASH-style
#    first fit on the same routes (average and maximum), and at 256
#    switches, degree 4, at least 40% fewer on average; every realization
#    that places all paths passes the self-check within its SL and VL
#    budgets, and the repair method always places all paths;
#  - scripts/loren-repro.py --quick (docs/loren-evaluation.md): LOREN's
#    paths are never shorter than the balanced minimal ones, equal to them
#    when every entry fits (t_max = switches - 1), and on average within 25%
#    of them at the paper's smaller t_max (18 at 64 switches, 42 at 256);
#    that t_max holds the mandatory entries of every LRT; every end-to-end
#    run routes, passes its self-check and fits 8 VLs and 16 SLs;
#  - scripts/acro-opensm.sh -q (docs/acro-opensm.md), through ibsim +
#    OpenSM: keiro-acro's installed tables are deadlock free (keiro check OK
#    on every LID pair) within max_op_vls 5, with minimal paths (stretch 1)
#    and a max EFI no higher than minhop's.
# Each page is one generated block whose first line names its script and a
# commit, every SVG the pages reference parses as XML, and no quick run
# touches docs/.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
command -v python3 >/dev/null || { echo "$IT_NAME: ERROR: python3 is missing" >&2; exit 99; }
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
docs_before=$(cd "$KEIRO_SRCDIR/docs" && cat ./*.md ./*.svg | sha256sum)

# page_ok PAGE NAME SCRIPT: PAGE is one NAME block whose first line names
# scripts/SCRIPT, a commit and a wall time; every SVG it references is
# beside it and parses as XML.
page_ok() {
  python3 - "$@" <<'PY' || it_fail "$(basename "$1"): $(cat "$1.why" 2>/dev/null)"
import os, re, sys
import xml.etree.ElementTree as ET
page, name, script = sys.argv[1:4]
why = []
text = open(page).read().split("\n")
b = [i for i, l in enumerate(text) if l == "<!-- %s:begin -->" % name]
e = [i for i, l in enumerate(text) if l == "<!-- %s:end -->" % name]
if len(b) != 1 or len(e) != 1 or b[0] > e[0]:
    why.append("not one %s block (begin %s, end %s)" % (name, b, e))
else:
    head = " ".join(text[b[0] + 1:b[0] + 3])
    if "`scripts/%s" % script not in head:
        why.append("block does not start naming scripts/%s: %s" % (script, head[:80]))
    if not re.search(r"at commit [0-9a-f]{7,40}\b", head):
        why.append("block names no commit: %s" % head[:120])
    if not re.search(r"in \d+ s of wall time", head):
        why.append("block names no wall time")
    outside = [l for i, l in enumerate(text) if (i < b[0] or i > e[0]) and re.search(r"\d", l)
               and not l.startswith(("<!-- SPDX", "#"))]
    if outside:
        why.append("figures outside the block: %s" % outside[:2])
for svg in re.findall(r"\]\(([\w.-]+\.svg)\)", "\n".join(text)):
    try:
        root = ET.parse(os.path.join(os.path.dirname(page), svg)).getroot()
        if not root.tag.endswith("svg") or len(root) < 5:
            why.append("%s: no drawing" % svg)
    except (OSError, ET.ParseError) as x:
        why.append("%s: %s" % (svg, x))
open(page + ".why", "w").write("; ".join(why))
sys.exit(1 if why else 0)
PY
}

# ---- acro-compare.py: ACRO against the LASH-style first fit ----
# Without --out: a quick run writes into a new temporary directory.
if ! python3 "$KEIRO_SRCDIR/scripts/acro-compare.py" --quick >"$IT_DIR/acro.txt" 2>&1; then
  it_fail "acro-compare.py --quick failed: $(tail -n 3 "$IT_DIR/acro.txt")"
else
  page=$(sed -n 's/^wrote \(.*\) and .*/\1/p' "$IT_DIR/acro.txt")
  case $page in
    /tmp/*/acro-evaluation.md) mv "$(dirname "$page")" "$IT_DIR/acro" ;;
    *) it_fail "acro-compare.py --quick wrote '$page', not into a temporary directory" ;;
  esac
  page=$IT_DIR/acro/acro-evaluation.md
  page_ok "$page" acro-evaluation acro-compare.py
  python3 - "$page" <<'PY' || it_fail "acro-compare: $(cat "$page.acro")"
import re, sys
page = sys.argv[1]
rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in open(page)
        if l.startswith("| ") and re.match(r"\| \d", l)]
layers = [r for r in rows if len(r) == 10]
realize = [r for r in rows if len(r) == 14]
why = []
if len(layers) != 6:
    why.append("%d layer rows, want 6 (2 sizes x 3 degrees)" % len(layers))
for n, d, aavg, amm, lavg, lmm, red, *_ in layers:
    amax, lmax = int(amm.split("-")[1]), int(lmm.split("-")[1])
    if float(aavg) > float(lavg) or amax > lmax:
        why.append("%s/%s: ACRO %s (max %d) > LASH %s (max %d)" % (n, d, aavg, amax, lavg, lmax))
    if (n, d) == ("256", "4") and int(red.rstrip("%")) < 40:
        why.append("256/4: ACRO saves only %s of the layers" % red)
if len(realize) != 21:
    why.append("%d realization rows, want 21 (7 cases x 3 methods)" % len(realize))
for n, d, sls, vls, lay, method, paths, mis, ev, unpl, sused, vused, t, check in realize:
    case = "%s/%s %s SLs %s VLs %s" % (n, d, sls, vls, method)
    if method == "repair" and unpl != "0":
        why.append("%s: %s paths unplaced" % (case, unpl))
    if unpl == "0" and (check != "ok" or int(sused) > int(sls)
                        or not int(lay) <= int(vused) <= int(vls)):
        why.append("%s: check %s, %s SLs, %s VLs for %s layers" % (case, check, sused, vused, lay))
open(page + ".acro", "w").write("; ".join(why))
sys.exit(1 if why else 0)
PY
  n=$(grep -c '<polyline' "$IT_DIR/acro/acro-layers.svg")
  [ "$n" -eq 4 ] || it_fail "acro-layers.svg has $n curves, want 4 (ACRO and LASH, 2 sizes)"
fi

# ---- loren-repro.py: LOREN's path lengths against minimal routing ----
out=$IT_DIR/loren
if ! python3 "$KEIRO_SRCDIR/scripts/loren-repro.py" --quick --out "$out" >"$IT_DIR/loren.txt" 2>&1; then
  it_fail "loren-repro.py --quick failed: $(tail -n 3 "$IT_DIR/loren.txt")"
else
  page_ok "$out/loren-evaluation.md" loren-evaluation loren-repro.py
  python3 - "$out/loren-data" <<'PY' || it_fail "loren-repro: $(cat "$out/loren-data/why")"
import os, statistics, sys
data = sys.argv[1]
def rows(name):
    out, head = [], None
    for l in open(os.path.join(data, name)):
        if l.startswith("#"):
            head = l[1:].rstrip("\n").split("\t")
        elif l.strip():
            out.append(dict(zip(head, l.rstrip("\n").split("\t"))))
    return out
why = []
for n, paper_t in ((64, 18), (256, 42)):
    f5 = rows("fig5-%d.tsv" % n)
    if len({r["seed"] for r in f5}) != 3:
        why.append("fig5-%d: %d LRTs, want 3" % (n, len({r["seed"] for r in f5})))
    for r in f5:
        h, m = float(r["avg_hops"]), float(r["avg_min_hops"])
        if h < m - 1e-9:
            why.append("%d seed %s t_max %s: LOREN %.3f hops < minimal %.3f"
                       % (n, r["seed"], r["tmax"], h, m))
        if int(r["tmax"]) == n - 1 and abs(h - m) > 1e-9:
            why.append("%d seed %s: all entries fit but LOREN %.3f != minimal %.3f"
                       % (n, r["seed"], h, m))
        if int(r["tmax"]) < int(r["required"]):
            why.append("%d seed %s: t_max %s below the %s mandatory entries"
                       % (n, r["seed"], r["tmax"], r["required"]))
    at = [r for r in f5 if int(r["tmax"]) == paper_t]
    full = [r for r in f5 if int(r["tmax"]) == n - 1]
    if len(at) != 3 or len(full) != 3:
        why.append("fig5-%d: %d rows at t_max %d, %d at %d, want 3 each"
                   % (n, len(at), paper_t, len(full), n - 1))
    else:
        ratio = (statistics.mean(float(r["avg_hops"]) for r in at)
                 / statistics.mean(float(r["avg_min_hops"]) for r in at))
        if ratio > 1.25:
            why.append("%d: LOREN at t_max %d averages %.3f x the minimal hops (> 1.25)"
                       % (n, paper_t, ratio))
    req = [int(r["required"]) for r in rows("fig6-%d.tsv" % n)]
    if len(req) != 30 or max(req) > paper_t:
        why.append("fig6-%d: %d LRTs, largest mandatory %d (want 30, <= %d)"
                   % (n, len(req), max(req, default=-1), paper_t))
    eng = rows("engine-%d.tsv" % n)
    if len(eng) != 8:
        why.append("engine-%d: %d runs, want 8 (2 seeds x 2 t_max x loren, acro)" % (n, len(eng)))
    for r in eng:
        if (r["ok"] != "1" or int(r["vls_used"]) > 8 or int(r["sls_used"]) > 16
                or int(r["layers"]) > int(r["vls_used"])):
            why.append("%d seed %s %s t_max %s: ok %s, %s layers, %s VLs, %s SLs %s"
                       % (n, r["seed"], r["engine"], r["tmax"], r["ok"], r["layers"],
                          r["vls_used"], r["sls_used"], r["error"]))
open(os.path.join(data, "why"), "w").write("; ".join(why))
sys.exit(1 if why else 0)
PY
fi

# ---- acro-opensm.sh: keiro-acro through OpenSM, deadlock free ----
out=$IT_DIR/opensm
if ! bash "$KEIRO_SRCDIR/scripts/acro-opensm.sh" -b "$KEIRO_BUILDDIR" -q -w "$out" >"$IT_DIR/opensm.txt" 2>&1; then
  it_fail "acro-opensm.sh -q failed: $(tail -n 3 "$IT_DIR/opensm.txt")"
else
  page_ok "$out/acro-opensm.md" acro-opensm acro-opensm.sh
  row=$(grep '^| 32 switches, degree 4, 64 HCAs |' "$out/acro-opensm.md")
  IFS='|' read -r _ _ lvs _ chk stretch efi lash _ <<<"$row"
  read -r layers _ vls _ sls <<<"$lvs"
  read -r efi_acro _ efi_minhop <<<"$efi"
  # 32 switches + 64 HCAs: 96 LIDs, 96 x 95 ordered pairs
  [ "$(echo $chk)" = "OK (9120)" ] || it_fail "acro-opensm: keiro check '$(echo $chk)', want 'OK (9120)': $row"
  # The same verdict from the independent oracle, on the installed tables and the SA's SLs.
  a=$out/rrg32-d4-acro
  IT_VERDICTS=$IT_DIR/acro-opensm it_oracle_agrees "$a/dumps" --sls "$a/sa-path-sl.dump" &&
    [ "$IT_ORACLE_RC" -eq 0 ] || it_fail "acro-opensm: the independent oracle does not pass the installed tables"
  [ "$(echo $stretch)" = 1.000 ] || it_fail "acro-opensm: stretch max '$(echo $stretch)', want 1.000"
  if [[ "$layers$vls$sls$efi_acro$efi_minhop" =~ ^[0-9]+$ ]]; then
    [ "$layers" -le "$vls" ] && [ "$vls" -le 5 ] && [ "$sls" -le 16 ] ||
      it_fail "acro-opensm: $layers layers, $vls VLs, $sls SLs (want layers <= VLs <= 5, SLs <= 16)"
    [ "$efi_acro" -le "$efi_minhop" ] || it_fail "acro-opensm: max EFI $efi_acro > minhop's $efi_minhop"
  else
    it_fail "acro-opensm: no numbers in '$lvs' / '$efi': $row"
  fi
  [[ "$(echo $lash)" =~ ^[0-9]+ ]] || it_fail "acro-opensm: lash VLs '$(echo $lash)'"
fi

[ "$(cd "$KEIRO_SRCDIR/docs" && cat ./*.md ./*.svg | sha256sum)" = "$docs_before" ] ||
  it_fail "a quick run changed docs/"
it_done
