#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# scripts/rerouting-figures.sh in its quick mode (the blocks of
# docs/rerouting.md), offline, written into a copy of a page with the four
# markers (-d): the text around the blocks stays, each block names the
# script and a commit, and the figures hold:
#  - rerouting-single: a row per engine and fault on LRT(25); the pairs
#    still connected are 100 x 99 after the link failure and 96 x 95 after
#    the switch with its 3 HCAs; every re-route keeps 100.0% of the SLs and
#    passes both checks; keiro-nue keeps its layers ("pinned layers"); a
#    fresh routing keeps fewer;
#  - rerouting-torus, rerouting-lrt: a table row per step and engine, every
#    row passing the check with the new SLs; keiro-nue changes no SL; each
#    summary line says what its table says (steps, steps that changed SLs);
#  - rerouting-scale: the re-route keeps every one of L x (L - 1) pairs
#    without running the engine (L the LIDs it names);
#  - rerouting-single's verdicts are also the independent oracle's.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
[ -x "$IT_KEIRO" ] || { echo "FAIL: keiro not built"; exit 99; }
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
doc=$IT_DIR/page.md
{
  echo "# page"
  for b in rerouting-single rerouting-torus rerouting-lrt rerouting-scale; do
    printf 'before %s\n\n<!-- %s:begin -->\nold\n<!-- %s:end -->\n\nafter %s\n' "$b" "$b" "$b" "$b"
  done
} >"$doc"
"$KEIRO_SRCDIR/scripts/rerouting-figures.sh" -q -o "$IT_DIR/work" -d "$doc" "$KEIRO_BUILDDIR" \
  >"$IT_DIR/out.md" 2>"$IT_DIR/err.txt" || it_fail "rerouting-figures.sh -q failed: $(tail -n 5 "$IT_DIR/err.txt")"
python3 - "$doc" "$IT_DIR/out.md" <<'PY' || it_fail "the blocks' figures (see above)"
import re, sys
page, out = open(sys.argv[1]).read(), open(sys.argv[2]).read()
bad = []
def block(name):
    m = re.search(r"<!-- %s:begin -->\n(.*?)<!-- %s:end -->" % (name, name), page, re.S)
    if not m:
        bad.append("no block " + name); return ""
    if m.group(0) not in out:
        bad.append(name + ": the page's block differs from the one printed")
    if not re.match(r"Written by `scripts/rerouting-figures\.sh -q` at commit [0-9a-f]{7,}", m.group(1)):
        bad.append(name + ": names no script and commit")
    return m.group(1)
for b in ("single", "torus", "lrt", "scale"):
    for w in ("before rerouting-" + b, "after rerouting-" + b):
        if w not in page: bad.append("text around the blocks lost: " + w)
    if "\nold\n" in page: bad.append("an old block body is left")
rows = lambda text: [[c.strip() for c in l.strip().strip("|").split("|")]
                     for l in text.splitlines() if re.match(r"\| (LRT|\d|full|re-route)", l)]
single = rows(block("rerouting-single"))
if len(single) != 6: bad.append("rerouting-single: %d rows, want 6" % len(single))
for r in single:
    want = {"LRT 25, link": "9900", "LRT 25, switch": "9120"}.get(r[0])
    if r[2] != want: bad.append("%s %s: pairs %s, want %s" % (r[0], r[1], r[2], want))
    if r[5] != "100.0%" or r[9] != "pass" or r[10] != "pass": bad.append("re-route of %s %s: %s" % (r[0], r[1], r))
    if r[1] == "keiro-nue" and r[6] != "pinned layers": bad.append("keiro-nue: how %s" % r[6])
    if r[3] != "-" and float(r[3].rstrip("%")) >= 100: bad.append("%s %s: a fresh routing kept every SL" % (r[0], r[1]))
for name, engines, steps in (("rerouting-torus", 2, 2), ("rerouting-lrt", 4, 2)):
    text = block(name)
    t = rows(text)
    if len(t) < engines * steps: bad.append("%s: %d rows" % (name, len(t)))
    for r in t:
        if len(r) < 10 or r[8] != "pass": bad.append("%s: %s" % (name, r)); continue
        if r[2] == "nue" and r[5] != "0": bad.append("%s: keiro-nue changed SLs: %s" % (name, r))
    # each summary line against the rows of its table (the first table after
    # the summary of the LRT, the 4 VL and 8 VL tables of the torus)
    for line in re.findall(r"^- (\d) VLs, seed 1, keiro-(\w+): (\d+) steps; (.*)$", text, re.M):
        vls, eng, n, rest = line
        table = text if name == "rerouting-lrt" else text.split("max_vls=%s:" % vls)[1].split("max_vls=")[0]
        mine = [r for r in rows(table) if len(r) >= 10 and r[2] == eng]
        ch = sum(1 for r in mine if r[5] != "0")
        if int(n) != len(mine): bad.append("%s: %s VLs %s: %s steps, table %d" % (name, vls, eng, n, len(mine)))
        if (ch == 0) != rest.startswith("every SL kept") or (ch and "at %d of" % ch not in rest):
            bad.append("%s: %s VLs %s: summary '%s', table: %d steps changed SLs" % (name, vls, eng, rest, ch))
scale = block("rerouting-scale")
m = re.search(r"(\d+) LIDs after the failure", scale)
rr = [r for r in rows(scale) if r[0] == "re-route"]
if not m or not rr: bad.append("rerouting-scale: no LIDs or no re-route row")
else:
    L = int(m.group(1))
    if rr[0][4] != "0 of %d pairs" % (L * (L - 1)) or rr[0][5] != "no":
        bad.append("rerouting-scale: re-route %s, want 0 of %d pairs without the engine" % (rr[0], L * (L - 1)))
for b in bad: print(b)
sys.exit(1 if bad else 0)
PY
it_log "$(grep -c '^| ' "$IT_DIR/out.md") table rows in 4 blocks"

# rerouting-single's checks are also the independent oracle's, on the tables
# the script wrote: every re-route passes with its new SLs and with the old
# ones (stale SLs), and a fresh routing with the old SLs gets the same
# verdict from both.
n=0
for d in "$IT_DIR"/work/lrt25-{link,switch}-*; do
  [ -d "$d" ] || continue
  case $d in *-fresh) continue ;; esac
  base=$IT_DIR/work/lrt25-${d##*-}-base
  IT_VERDICTS=$d-new it_oracle_agrees "$d" && [ "$IT_ORACLE_RC" -eq 0 ] ||
    it_fail "$(basename "$d"): the oracle does not pass the re-route with its new SLs"
  IT_VERDICTS=$d-stale it_oracle_agrees "$d" --stale-sls "$base/keiro-path-sl.dump" && [ "$IT_ORACLE_RC" -eq 0 ] ||
    it_fail "$(basename "$d"): the oracle does not pass the re-route with the old SLs"
  [ -d "$d-fresh" ] && IT_VERDICTS=$d-fresh-old it_oracle_agrees "$d-fresh" --sls "$base/keiro-path-sl.dump"
  n=$((n + 1))
done
[ "$n" -ge 4 ] || it_fail "the oracle saw $n re-routes of rerouting-single, want >= 4"
it_log "the independent oracle agrees on $n re-routes (new SLs, old SLs, fresh tables with old SLs)"
it_done
