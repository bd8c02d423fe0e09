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
#    second run (deterministic), --lmc 2 giving 4 LIDs per CA port; an
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
