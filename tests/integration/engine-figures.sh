#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# scripts/engine-figures.py --quick (the figures of docs/nue.md, dl.md,
# acro.md, loren.md, fixed-sl.md and check.md, on smaller fabrics and one
# OpenSM cell of scripts/bench-nue.sh, which it runs; it writes into the
# test's directory, never the docs), and
# the values the pages' prose relies on, with bounds taken from the full
# run: every routing deadlock free; keiro-nue with no escape fallback and a
# lower max EFI than OpenSM's nue; keiro-nue, -dl and -acro within their
# max/avg EFI bounds on the 12-ary 3-tree; keiro-dl shorter than
# up*/down*; keiro-acro perfectly even on 2-level fat trees and on one VL
# on degraded 3-level ones; the consistent choices on the 8x8x8 torus;
# fixed_sl=0 on one VL where SL 0 alone has a credit loop. Every routing's
# deadlock-free verdict is also the independent oracle's, on the tables it
# wrote (--keep-dumps): with the path SLs, and with every path on SL N too
# where the routing had fixed_sl=N; the fixed-SL page's plain routings are
# also checked with every path on SL 0, where keiro check and the oracle
# must agree. The script runs one page at a time (--only PAGE), and each
# page's tables are deleted once the oracle has agreed on them.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
command -v python3 >/dev/null || { echo "$IT_NAME: ERROR: python3 is missing" >&2; exit 99; }
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
# The independent oracle on every routing's tables of one page's run
# (oracle_page DIR): dir, then the keiro check / oracle options (one line
# per check). A page's tables go once the oracle has agreed on them, so that
# the run never holds more than one page's (at most 0.6 GB, keiro-dl's).
n=0 sl0=0
oracle_page() {
  local fails=$IT_FAILS dir opt val _
  python3 - "$1/dumps.json" >"$1/oracle-cases.txt" <<'PY' || it_fail "no dumps.json from --keep-dumps in $1"
import json, re, sys
for d in json.load(open(sys.argv[1])):
    if not d["ok"]:
        continue
    fixed = [m.group(1) for o in d["opts"] for m in [re.match(r"fixed_sl=(\d+)$", o)] if m]
    print(d["dir"], "--mixed-sl " + fixed[0] if fixed else "")
    if d["page"] == "fixed-sl" and not fixed:
        print(d["dir"], "--fixed-sl 0 any")
PY
  while read -r dir opt val _; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    IT_VERDICTS=$1/oracle-$n it_oracle_agrees "$dir" $opt $val || continue
    if [ "$opt" = --fixed-sl ]; then
      sl0=$((sl0 + 1))
    elif [ "$IT_ORACLE_RC" -ne 0 ]; then
      it_fail "$dir: routed deadlock free, but the independent oracle exits $IT_ORACLE_RC"
    fi
  done <"$1/oracle-cases.txt"
  [ "$IT_FAILS" -ne "$fails" ] || rm -rf "$1/dumps"
}

# One page at a time (--only), each into its own directory; results.json and
# blocks.md are then put together as one run would have written them.
start=$(date +%s)
pages="nue dl acro loren fixed-sl check"
for b in $pages; do
  if ! python3 "$KEIRO_SRCDIR/scripts/engine-figures.py" --quick --keep-dumps --only "$b" \
      --build "$KEIRO_BUILDDIR" --out "$IT_DIR/$b" >"$IT_DIR/run-$b.txt" 2>&1; then
    it_fail "engine-figures.py --quick --only $b failed: $(tail -n 5 "$IT_DIR/run-$b.txt")"
    it_done
  fi
  oracle_page "$IT_DIR/$b"
done
it_log "quick run and the oracle in $(($(date +%s) - start)) s"
python3 - "$IT_DIR" $pages >"$IT_DIR/results.json" <<'PY' || it_fail "results.json: pages could not be merged"
import json, os, sys
merged = {}
for page in sys.argv[2:]:
    for sec, rows in json.load(open(os.path.join(sys.argv[1], page, "results.json"))).items():
        assert sec not in merged, "section %s in two pages" % sec
        merged[sec] = rows
json.dump(merged, sys.stdout, indent=1)
PY
for b in $pages; do cat "$IT_DIR/$b/blocks.md"; done >"$IT_DIR/blocks.md"
for b in $pages; do
  n_b=$(grep -c "^<!-- engine-figures-$b:\(begin\|end\) -->" "$IT_DIR/blocks.md")
  [ "$n_b" = 2 ] || it_fail "blocks.md: block engine-figures-$b has $n_b markers, want 2"
done

python3 - "$IT_DIR/results.json" >"$IT_DIR/asserts.txt" 2>&1 <<'PY' || it_fail "$(cat "$IT_DIR/asserts.txt")"
import json, re, sys
R = json.load(open(sys.argv[1]))
bad = []
def need(cond, what):
    if not cond:
        bad.append(what)
def rows(sec):
    r = R.get(sec, [])
    need(r, "no rows in " + sec)
    return r
def one(sec, label):
    r = [x for x in rows(sec) if x["label"] == label]
    need(len(r) == 1, "%s: %d rows labelled %r" % (sec, len(r), label))
    return r[0] if r else {}

for sec in ("nue-fattree", "dl-paper", "dl-policy", "dl-fattree", "acro-perlid",
            "acro-degraded", "acro-consistent", "loren", "loren-balance"):
    for x in rows(sec):
        need(x["ok"], "%s %s: not routed deadlock free: %s" % (sec, x["label"], x["error"]))

# keiro-nue against OpenSM's nue, the quick cell rrg-128-d8-h4 k=4 (full run: keiro's
# max EFI 0.57 of nue's there, 0.09-0.88 over all cells; 0 fallbacks in every cell).
for x in rows("nue-opensm"):
    need(x["fb_keiro"] == "0", "nue-opensm %s k=%d: keiro-nue fallbacks %s" % (x["fabric"], x["k"], x["fb_keiro"]))
    need(float(x["efi_keiro"]) < 0.8 * float(x["efi_nue"]),
         "nue-opensm %s k=%d: keiro max EFI %s not below 0.8 x nue's %s" % (x["fabric"], x["k"], x["efi_keiro"], x["efi_nue"]))
    need(float(x["hops_keiro"]) <= float(x["hops_nue"]) + 1e-9, "nue-opensm: keiro hops above nue's")
# fat trees, 1 VL (full run: intact 1.05x, 2% failed 1.27-1.31x).
t = one("nue-fattree", "12-ary 3-tree")
need(t.get("max_over_avg", 9) <= 1.06, "keiro-nue 12-ary 3-tree max/avg %s > 1.06" % t.get("max_over_avg"))
for x in rows("nue-fattree"):
    need(x.get("facts", {}).get("escape_fallbacks") == "0", "keiro-nue %s: escape fallbacks" % x["label"])
    need(x.get("max_over_avg", 9) <= 1.35, "keiro-nue %s max/avg %s > 1.35" % (x["label"], x.get("max_over_avg")))
# keiro-dl: DL paper fabrics, 2 sub-networks at least 5% shorter (in links) than up*/down*.
for fab in ("irregular 64", "8x8 torus"):
    byn = {x["subnets"]: x for x in rows("dl-paper") if x["label"] == fab}
    need(set(byn) == {1, 2, 3}, "dl-paper %s: sub-networks %s" % (fab, sorted(byn)))
    if set(byn) == {1, 2, 3}:
        need(byn[2]["avg_hops"] <= 0.95 * byn[1]["avg_hops"], "dl %s: 2 sub-networks not 5%% shorter" % fab)
        need(byn[2]["max_efi"] * 3 <= byn[1]["max_efi"], "dl %s: max EFI not a third of up*/down*'s" % fab)
load = [x for x in rows("dl-policy") if x["policy"] == "load" and x["choices"] == "slack"]
low = [x for x in rows("dl-policy") if x["policy"] == "lowport" and x["choices"] == "slack"]
for a, b in zip(load, low):
    need(a["max_efi"] < b["max_efi"], "dl_policy=load not below lowport on %s" % a["label"])
# keiro-dl on fat trees: one layer by default, 1.05x intact, <= 1.25x degraded.
for x in rows("dl-fattree"):
    if x["label"].endswith(" default"):
        need(x.get("vls") == 1, "keiro-dl %s: %s VLs, want 1" % (x["label"], x.get("vls")))
        need(x.get("max_over_avg", 9) <= 1.25, "keiro-dl %s max/avg %s > 1.25" % (x["label"], x.get("max_over_avg")))
# keiro-acro: per LID perfectly even on 2-level trees, 1,716 on the 12-ary 3-tree, 1 VL.
for fab in ("4-ary 2-tree", "12-ary 2-tree"):
    x = one("acro-perlid", fab)
    need(abs(x.get("max_over_avg", 9) - 1.0) < 1e-9, "keiro-acro %s max/avg %s, want 1.00" % (fab, x.get("max_over_avg")))
x = one("acro-perlid", "12-ary 3-tree")
need(x.get("max_efi") == 1716 and x.get("vls") == 1, "keiro-acro 12-ary 3-tree: max EFI %s, %s VLs" % (x.get("max_efi"), x.get("vls")))
for x in rows("acro-degraded"):
    need(x.get("vls") == 1 and x.get("facts", {}).get("updown_routes") == "1",
         "keiro-acro %s: %s VLs, updown_routes %s" % (x["label"], x.get("vls"), x.get("facts", {}).get("updown_routes")))
    need(x.get("max_over_avg", 9) <= 2.1, "keiro-acro %s max/avg %s > 2.1" % (x["label"], x.get("max_over_avg")))
x = one("acro-consistent", "8x8x8 torus, 4 HCAs")
need(x.get("facts", {}).get("layers") == "4" and x.get("facts", {}).get("consistent_routes") == "1",
     "keiro-acro 8x8x8 torus: layers %s, consistent_routes %s" % (x.get("facts", {}).get("layers"), x.get("facts", {}).get("consistent_routes")))
# keiro-loren: LRT(64,4,2) needs 9 entries; t_max 18 adds at most 10% hops.
x = one("loren", "LRT(64,4,2), 2 HCAs/switch")
f = x.get("facts", {})
need(f.get("required_entries") == "9" and f.get("tmax") == "18", "keiro-loren LRT(64): required %s, t_max %s" % (f.get("required_entries"), f.get("tmax")))
need(float(f.get("avg_hops", 99)) <= 1.10 * float(f.get("avg_min_hops", 0)), "keiro-loren LRT(64): hops more than 10% above minimal")
# keiro-loren without a layout file (loren_layout=auto): every fabric routed deadlock free;
# on the LRT the derived grid keeps LOREN's figures near the file's (quick run: required
# entries 10 against 9, hops -3%, max EFI +1%; LRT links r = 2 long, derived at most 4).
for x in rows("loren-auto"):
    need(x["ok"], "keiro-loren %s: not routed deadlock free: %s" % (x["label"], x["error"]))
lf, la = one("loren-auto", "LRT(64,4,2), 2 HCAs/switch file"), one("loren-auto", "LRT(64,4,2), 2 HCAs/switch auto")
if lf.get("facts") and la.get("facts"):
    need(float(la["facts"]["avg_hops"]) <= 1.10 * float(lf["facts"]["avg_hops"]), "loren auto: hops over 1.10x the file's")
    need(int(la["facts"]["required_entries"]) <= int(lf["facts"]["required_entries"]) + 2, "loren auto: required entries")
    need(la["max_efi"] <= 1.25 * lf["max_efi"], "loren auto: max EFI over 1.25x the file's")
    m = re.match(r"([0-9.]+) / ([0-9]+)$", la.get("link_length", ""))
    need(m and float(m.group(1)) <= 2.0 and int(m.group(2)) <= 5, "loren auto: derived links %r" % la.get("link_length"))
# fixed_sl: SL 0 alone has a credit loop; with fixed_sl=0 nue, dl and acro
# (up*/down* on its one-VL run, since 2026-11-27) route on one VL.
for x in rows("fixed-sl"):
    if x["label"].endswith(" plain") and (" nue " in x["label"] or " dl " in x["label"]):
        need(x["sl0"].startswith("credit loop"), "%s: SL 0 verdict %r" % (x["label"], x["sl0"]))
    if x["label"].endswith(" fixed") and any(" %s " % e in x["label"] for e in ("nue", "dl", "acro")):
        need(x["ok"] and x.get("vls") == 1, "%s: %s VLs (ok %s)" % (x["label"], x.get("vls"), x["ok"]))
# keiro check passes the routed tables.
for x in rows("check"):
    need(x["routed"] and x["check_rc"] == 0, "keiro check on %d switches: exit %s" % (x["switches"], x["check_rc"]))
print("\n".join(bad) if bad else "all values within bounds")
sys.exit(1 if bad else 0)
PY
it_log "$(tail -n 1 "$IT_DIR/asserts.txt")"

[ "$n" -ge 40 ] || it_fail "only $n routings checked by the oracle, want >= 40"
it_log "the independent oracle agrees on $n checks ($sl0 with every path on SL 0)"
it_done
