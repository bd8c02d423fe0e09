#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro route, keiro engines and keiro hdn-exchange end to end, offline (no ibsim, no
# OpenSM): their outputs against figures worked out here from the inputs,
# and their exit codes (0 done, 1 the routing or check failed, 2 unusable
# input).
#  - keiro route on the bundled random-16sw fabric (16 switches, 2 CAs on
#    each): the JSON counts (switches, terminals and LIDs from the net file,
#    LID pairs L(L-1), CA-to-CA routes T(T-1)), the dump directory it writes
#    (one LFT block per switch) passing keiro check and the independent
#    oracle, the same dumps on a
#    second run (deterministic); the same routing written as keiro-tables.bin
#    (--out-format compact, nue and dl) gives keiro check, analyze and
#    simulate the same figures and --previous the same tables, a truncated
#    or corrupted one exits 2 with one line, --out-files writes only what it
#    names; --lmc 2 giving 4 LIDs per CA port; an
#    unknown engine, a missing file and a bad option exit 2; an engine that
#    cannot route within its VL budget exits 1 with one ERROR line.
#  - keiro engines: the four registered engines nue acro loren dl (registry
#    order) and their OpenSM names keiro-*; conflicting or unknown options
#    exit 2.
#  - keiro hdn-exchange on HDN(2x3x5, 1, {6}): the step count and the
#    schedule's time against Theorem 3's step count and the closed form
#    computed here; missing arguments and a super-node size that is no
#    product of ring sizes exit 2.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
net="$KEIRO_SRCDIR/ibsim-topologies/random-16sw.net"

# expect_rc WANT NAME CMD...: runs CMD, output in $IT_DIR/NAME.out.
expect_rc() {
  local want=$1 name=$2
  shift 2
  "$@" >"$IT_DIR/$name.out" 2>&1
  local rc=$?
  [ $rc -eq "$want" ] || it_fail "$name: exit $rc, want $want: $(tail -n 3 "$IT_DIR/$name.out")"
}

# ---- keiro route ----
sw=$(grep -c '^Switch' "$net")
ca=$(grep -Ec '^(Ca|Hca)' "$net")
lids=$((sw + ca))
expect_rc 0 route-json "$IT_KEIRO" route --engine nue --topology "$net" --out "$IT_DIR/r1" --json
j="$IT_DIR/route-json.out"
[ "$(kh_json "$j" fabric.switches fabric.terminals fabric.lids | tr '\n' ' ')" = "$sw $ca $lids " ] ||
  it_fail "route JSON fabric: $(kh_json "$j" fabric.switches fabric.terminals fabric.lids | tr '\n' ' ') want $sw $ca $lids"
[ "$(kh_json "$j" check.ok)" = true ] || it_fail "route JSON check.ok: $(kh_json "$j" check.ok)"
[ "$(kh_json "$j" check.pairs_checked)" = $((lids * (lids - 1))) ] ||
  it_fail "route JSON pairs_checked $(kh_json "$j" check.pairs_checked), want $((lids * (lids - 1)))"
[ "$(kh_json "$j" paths.routes)" = $((ca * (ca - 1))) ] ||
  it_fail "route JSON CA-to-CA routes $(kh_json "$j" paths.routes), want $((ca * (ca - 1)))"
for f in opensm-subnet.lst opensm-lfts.dump opensm-sl2vl.dump keiro-path-sl.dump; do
  [ -s "$IT_DIR/r1/$f" ] || it_fail "keiro route --out wrote no $f"
done
[ "$(grep -c '^Unicast lids' "$IT_DIR/r1/opensm-lfts.dump")" -eq "$sw" ] ||
  it_fail "LFT dump has $(grep -c '^Unicast lids' "$IT_DIR/r1/opensm-lfts.dump") switch blocks, want $sw"
expect_rc 0 check-r1 "$IT_KEIRO" check "$IT_DIR/r1" --vls 8 --json
[ "$(kh_json "$IT_DIR/check-r1.out" check.pairs_checked)" = $((lids * (lids - 1))) ] ||
  it_fail "keiro check on the route dumps: pairs $(head -c 300 "$IT_DIR/check-r1.out")"
IT_VERDICTS=$IT_DIR/r1-verdict it_oracle_agrees "$IT_DIR/r1" --vls 8 && [ "$IT_ORACLE_RC" -eq 0 ] ||
  it_fail "the independent oracle does not pass keiro route's dumps"
expect_rc 0 route-again "$IT_KEIRO" route --engine nue --topology "$net" --out "$IT_DIR/r2"
for f in opensm-lfts.dump opensm-sl2vl.dump keiro-path-sl.dump; do
  cmp -s "$IT_DIR/r1/$f" "$IT_DIR/r2/$f" || it_fail "two runs wrote different $f"
done

# ---- keiro route --out-format compact (keiro-tables.bin) ----
# The same routing as OpenSM-format dumps and as keiro-tables.bin: keiro
# check, analyze and simulate give the same verdict and figures on both,
# for a destination-scope (nue) and a source-switch-scope (dl) engine, and
# --previous re-routes from either to the same tables.
# same_json A B: A and B equal but for labels, input names, times and notes.
same_json() {
  python3 - "$1" "$2" <<'PY'
import json, re, sys
def load(p):
    t = open(p).read()
    docs = [json.loads(l) for l in t.splitlines() if l.startswith("{")] or [json.loads(t)]
    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items()
                    if k not in ("label", "input", "notes") and not k.endswith("seconds")}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    return strip(docs)
a, b = load(sys.argv[1]), load(sys.argv[2])
sys.exit(0 if a == b else "differ:\n%s\n%s" % (json.dumps(a)[:400], json.dumps(b)[:400]))
PY
}
for eng in nue dl; do
  expect_rc 0 route-$eng-text "$IT_KEIRO" route --engine $eng --topology "$net" --out "$IT_DIR/t-$eng"
  expect_rc 0 route-$eng-compact "$IT_KEIRO" route --engine $eng --topology "$net" \
    --out "$IT_DIR/c-$eng" --out-format compact
  [ "$(cd "$IT_DIR/c-$eng" && echo *)" = "keiro-tables.bin opensm-subnet.lst" ] ||
    it_fail "--out-format compact wrote $(cd "$IT_DIR/c-$eng" && echo *)"
  grep -q "note: wrote opensm-subnet.lst and keiro-tables.bin to $IT_DIR/c-$eng (" \
    "$IT_DIR/route-$eng-compact.out" || it_fail "route's note: $(grep wrote "$IT_DIR/route-$eng-compact.out")"
  # 16 switches x 49 LIDs: a byte per LFT entry against a text line each.
  text=$(stat -c %s "$IT_DIR/t-$eng/opensm-lfts.dump")
  bin=$(stat -c %s "$IT_DIR/c-$eng/keiro-tables.bin")
  [ $((bin * 10)) -lt "$text" ] || it_fail "$eng: keiro-tables.bin $bin bytes, LFT dump alone $text"
  for cmd in check analyze simulate; do
    expect_rc 0 $cmd-t-$eng "$IT_KEIRO" $cmd "$IT_DIR/t-$eng" --json
    expect_rc 0 $cmd-c-$eng "$IT_KEIRO" $cmd "$IT_DIR/c-$eng" --json
    why=$(same_json "$IT_DIR/$cmd-t-$eng.out" "$IT_DIR/$cmd-c-$eng.out" 2>&1) ||
      it_fail "keiro $cmd: $eng's compact dir and dump dir differ: $why"
  done
  [ "$(kh_json "$IT_DIR/check-c-$eng.out" check.ok check.pairs_checked | tr '\n' ' ')" = "true $((lids * (lids - 1))) " ] ||
    it_fail "keiro check on $eng's compact dir: $(head -c 300 "$IT_DIR/check-c-$eng.out")"
  # The oracle on the OpenSM-format twin (it reads only OpenSM's formats).
  IT_VERDICTS=$IT_DIR/t-$eng-verdict it_oracle_agrees "$IT_DIR/t-$eng" && [ "$IT_ORACLE_RC" -eq 0 ] ||
    it_fail "the independent oracle does not pass $eng's dumps"
  grep -q "keiro-tables.bin (per $([ $eng = nue ] && echo destination LID || echo source switch))" \
    "$IT_DIR/check-c-$eng.out" || it_fail "$eng: path-SL scope: $(grep -o '"notes".*' "$IT_DIR/check-c-$eng.out")"
  for d in t c; do
    expect_rc 0 prev-$d-$eng "$IT_KEIRO" route --engine $eng --topology "$net" --previous "$IT_DIR/$d-$eng" \
      --out "$IT_DIR/p$d-$eng"
  done
  for f in opensm-lfts.dump opensm-sl2vl.dump keiro-path-sl.dump; do
    cmp -s "$IT_DIR/pt-$eng/$f" "$IT_DIR/pc-$eng/$f" || it_fail "$eng: --previous from the compact dir wrote another $f"
  done
done
# A damaged keiro-tables.bin: exit 2 and one line saying what.
mkdir -p "$IT_DIR/bad" && cp "$IT_DIR/c-dl/opensm-subnet.lst" "$IT_DIR/bad/"
head -c 1000 "$IT_DIR/c-dl/keiro-tables.bin" >"$IT_DIR/bad/keiro-tables.bin"
expect_rc 2 check-truncated "$IT_KEIRO" check "$IT_DIR/bad"
[ "$(cat "$IT_DIR/check-truncated.out")" = "keiro check: $IT_DIR/bad/keiro-tables.bin: truncated: section LFTS needs $(( 16 * 49 + 4 )) bytes, $((1000 - 16 - 12 - $(( $(od -An -tu8 -j20 -N8 "$IT_DIR/c-dl/keiro-tables.bin") )) - 4 - 12)) left" ] ||
  it_fail "truncated file: $(cat "$IT_DIR/check-truncated.out")"
cp "$IT_DIR/c-dl/keiro-tables.bin" "$IT_DIR/bad/keiro-tables.bin"
printf '\x55' | dd of="$IT_DIR/bad/keiro-tables.bin" bs=1 seek=2000 conv=notrunc status=none
expect_rc 2 check-corrupted "$IT_KEIRO" check "$IT_DIR/bad"
[ "$(wc -l <"$IT_DIR/check-corrupted.out")" -eq 1 ] && grep -q "fails its CRC-32 check (file corrupted)" "$IT_DIR/check-corrupted.out" ||
  it_fail "corrupted file: $(cat "$IT_DIR/check-corrupted.out")"
expect_rc 2 simulate-corrupted "$IT_KEIRO" simulate "$IT_DIR/bad"
# --out-files: only what was asked for.
expect_rc 0 route-only-sls "$IT_KEIRO" route --engine dl --topology "$net" --out "$IT_DIR/o1" --out-files path-sl
[ "$(cd "$IT_DIR/o1" && echo *)" = keiro-path-sl.dump ] || it_fail "--out-files path-sl wrote $(cd "$IT_DIR/o1" && echo *)"
cmp -s "$IT_DIR/o1/keiro-path-sl.dump" "$IT_DIR/t-dl/keiro-path-sl.dump" || it_fail "--out-files path-sl: another path-SL file"
expect_rc 0 route-only-lfts "$IT_KEIRO" route --engine dl --topology "$net" --out "$IT_DIR/o2" \
  --out-format compact --out-files subnet,lfts
# Without SL2VL tables every SL is on VL 0: keiro-dl's LFTs alone close a credit loop.
expect_rc 1 check-only-lfts "$IT_KEIRO" check "$IT_DIR/o2" --json
grep -q "no opensm-sl2vl.dump" "$IT_DIR/check-only-lfts.out" &&
  [ "$(kh_json "$IT_DIR/check-only-lfts.out" check.credit_loop check.pairs_checked | tr '\n' ' ')" = "true $((lids * (lids - 1))) " ] ||
  it_fail "LFTs only: $(head -c 400 "$IT_DIR/check-only-lfts.out")"
[ $(stat -c %s "$IT_DIR/o2/keiro-tables.bin") -lt $(stat -c %s "$IT_DIR/c-dl/keiro-tables.bin") ] ||
  it_fail "--out-files subnet,lfts: keiro-tables.bin not smaller"
expect_rc 2 route-bad-out-files "$IT_KEIRO" route --topology "$net" --out "$IT_DIR/o3" --out-files lfts,bogus
grep -q "unknown item 'bogus'" "$IT_DIR/route-bad-out-files.out" || it_fail "--out-files bogus: $(cat "$IT_DIR/route-bad-out-files.out")"

expect_rc 0 route-lmc "$IT_KEIRO" route --engine dl --topology "$net" --lmc 2 --json
[ "$(kh_json "$IT_DIR/route-lmc.out" fabric.lids)" = $((sw + 4 * ca)) ] ||
  it_fail "--lmc 2: $(kh_json "$IT_DIR/route-lmc.out" fabric.lids) LIDs, want $((sw + 4 * ca))"
expect_rc 2 route-bad-engine "$IT_KEIRO" route --engine bogus --topology "$net"
grep -q "unknown engine 'bogus'" "$IT_DIR/route-bad-engine.out" || it_fail "bad engine message: $(cat "$IT_DIR/route-bad-engine.out")"
expect_rc 2 route-no-file "$IT_KEIRO" route --topology "$IT_DIR/no-such.net"
expect_rc 2 route-no-topology "$IT_KEIRO" route --engine nue
expect_rc 2 route-bad-option "$IT_KEIRO" route --topology "$net" --opt max_vls=99
expect_rc 1 route-fails "$IT_KEIRO" route --engine acro --opt max_vls=1 \
  --topology "$KEIRO_SRCDIR/ibsim-topologies/torus-4x4x4-f4-h1.net"
[ "$(grep -c '^ERROR: ' "$IT_DIR/route-fails.out")" -eq 1 ] ||
  it_fail "a failed engine gives one ERROR line: $(cat "$IT_DIR/route-fails.out")"
grep -q "^ERROR: keiro-acro: ACRO needs [0-9]* VLs" "$IT_DIR/route-fails.out" ||
  it_fail "ACRO's message: $(cat "$IT_DIR/route-fails.out")"

# ---- keiro engines ----
# The registry's four engines, in its order, under both names; every line of
# the default listing is "short<TAB>OpenSM name<TAB>summary".
expect_rc 0 engines-names "$IT_KEIRO" engines --names
[ "$(tr '\n' ' ' <"$IT_DIR/engines-names.out")" = "nue acro loren dl " ] ||
  it_fail "keiro engines --names: '$(tr '\n' ' ' <"$IT_DIR/engines-names.out")', want 'nue acro loren dl '"
expect_rc 0 engines-osm "$IT_KEIRO" engines --osm-names
[ "$(tr '\n' ' ' <"$IT_DIR/engines-osm.out")" = "keiro-nue keiro-acro keiro-loren keiro-dl " ] ||
  it_fail "keiro engines --osm-names: '$(tr '\n' ' ' <"$IT_DIR/engines-osm.out")'"
expect_rc 0 engines "$IT_KEIRO" engines
awk -F'\t' 'NF != 3 || $2 != "keiro-" $1 || $3 == "" { bad = 1 } END { exit bad || NR != 4 }' \
  "$IT_DIR/engines.out" || it_fail "keiro engines: $(cat "$IT_DIR/engines.out")"
expect_rc 2 engines-both "$IT_KEIRO" engines --names --osm-names
expect_rc 2 engines-bad "$IT_KEIRO" engines --bogus

# ---- keiro hdn-exchange ----
# HDN(2x3x5, 1, {6}): n0 = 30 base nodes, n1 = 300 nodes. Theorem 3's steps:
# (2^(k+1) - 2) + 2^k * sum(b_j - 1); the schedule's time (docs/topologies.md):
# (2^(k+1) - 2)(ts + 3/4 tw m n_k) + 2^k T0(m n_k / n0),
# T0(x) = sum_j (b_j - 1)(ts + tw x n0 / 2).
ts=2 tw=3 m=4 n0=30 nk=300 base=7
steps=$(((4 - 2) + 2 * base))
sched=$(awk -v ts=$ts -v tw=$tw -v m=$m -v n0=$n0 -v nk=$nk -v b=$base \
  'BEGIN { t0 = b * (ts + tw * (m * nk / n0) * n0 / 2); printf "%d", 2 * (ts + 0.75 * tw * m * nk) + 2 * t0 }')
expect_rc 0 hdn "$IT_KEIRO" hdn-exchange --base 2x3x5 --k 1 --S 6 --ts $ts --tw $tw --m $m
grep -q "^HDN(2x3x5, 1, {6}): $nk nodes" "$IT_DIR/hdn.out" || it_fail "hdn nodes: $(head -n 1 "$IT_DIR/hdn.out")"
grep -q "^total exchange: $((nk * nk)) messages, every node ends with each of its $nk messages exactly once" \
  "$IT_DIR/hdn.out" || it_fail "hdn messages: $(grep 'total exchange' "$IT_DIR/hdn.out")"
grep -Eq "^steps: $steps +Theorem 3: .* = $steps +equal" "$IT_DIR/hdn.out" ||
  it_fail "hdn steps, want $steps: $(grep '^steps' "$IT_DIR/hdn.out")"
grep -Eq "^  schedule: +$sched\$" "$IT_DIR/hdn.out" ||
  it_fail "hdn schedule time, want $sched: $(grep 'schedule:' "$IT_DIR/hdn.out")"
expect_rc 2 hdn-missing "$IT_KEIRO" hdn-exchange --base 2x3x5 --k 1
grep -q -- "--base, --k and --S are required" "$IT_DIR/hdn-missing.out" || it_fail "hdn missing args: $(head -n 2 "$IT_DIR/hdn-missing.out")"
expect_rc 2 hdn-bad "$IT_KEIRO" hdn-exchange --base 2x3 --k 1 --S 5
grep -q "super-node size 5 is not a product of ring sizes" "$IT_DIR/hdn-bad.out" ||
  it_fail "hdn bad super-node: $(head -n 2 "$IT_DIR/hdn-bad.out")"
it_done
