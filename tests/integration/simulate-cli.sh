#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro simulate end to end, offline (no ibsim, no OpenSM):
#  - keiro-nue's dumps of the 4x4x4 torus (written by keiro route) under
#    uniform traffic at full load, several seeds: exit 0, no deadlock,
#    throughput and latency within 4 sd of their values measured over 20
#    seeds (throughput 0.825-0.892, docs/simulation.md's sim-queues block);
#    one source FIFO instead of per-VL queues falls below it at seed 2; the same seed
#    twice gives the same JSON; shift all-to-all delivers everything;
#  - OpenSM's minhop dumps of a 5-ring (tests/unit/data/ring5-minhop, SL 0
#    assumed) with one 2 KiB packet per (port, VL): deadlocks (exit 1) on the
#    cycle of clockwise ring channels, the same channels keiro check names as
#    its credit loop, closed at cycle 111,121 whether the run measures
#    114,000 (4,879 cycles left after it), 120,000 or 200,000 cycles;
#  - no false verdicts: shift all-to-all with a 30 us switch (longer than the
#    old 25.6 us "nothing moved" rule) completes, no deadlock, no stall,
#    exit 0; --deadlock-time below one hop (0.05 us < 53 cycles) is refused
#    (exit 2) with the bound in the message;
#  - transpose: throughput per terminal and per active source (56 of 64:
#    transpose fixes the 8 terminals i = (a, a));
#  - --topology FILE --engine NAME routes first; bad options exit 2;
#  - --sweep (JSON points, saturation plateau and maximum), --plot (one polyline per routing,
#    one point per load) and a dump directory next to engine:dl side by side;
#  - multicast: broadcast on keiro's trees (no storm, every copy to members,
#    exit 0) and on OpenSM's default tree over the same tables (a storm,
#    exit 1); a directory's own opensm-sa.dump and opensm.mcfdbs (a path
#    tree: ok) and --mcfdbs with a loop in the masks (a storm).
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
torus="$KEIRO_SRCDIR/ibsim-topologies/torus-4x4x4-f4-h1.net"
ring="$KEIRO_SRCDIR/tests/unit/data/ring5-minhop"
dumps="$IT_DIR/nue"

"$IT_KEIRO" route --engine nue --topology "$torus" --out "$dumps" >"$IT_DIR/route.out" 2>&1 ||
  it_fail "keiro route: $(tail -n 3 "$IT_DIR/route.out")"

for seed in 1 2; do
  out="$IT_DIR/uniform-$seed.json"
  "$IT_KEIRO" simulate "$dumps" --traffic uniform --load 1 --seed "$seed" --json >"$out" 2>"$IT_DIR/err"
  rc=$?
  [ $rc -eq 0 ] || it_fail "simulate nue seed $seed: exit $rc, want 0: $(cat "$IT_DIR/err" "$out")"
  [ "$(kh_json "$out" deadlock)" = false ] || it_fail "nue seed $seed deadlocked: $(cat "$out")"
  [ "$(kh_json "$out" deadlock_cycle)" = "[]" ] || it_fail "nue seed $seed: a deadlock cycle: $(cat "$out")"
  [ "$(kh_json "$out" engine)" = keiro-nue ] || it_fail "engine: $(kh_json "$out" engine)"
  python3 - "$out" <<'PY' || it_fail "nue seed $seed: values out of range: $(cat "$out")"
import json, sys
d = json.load(open(sys.argv[1]))
# 64 switches, one CA each: throughput is a fraction of injection bandwidth.
# Measured over --seed 1..20 by scripts/sim-figures.sh (docs/simulation.md,
# sim-queues block, per-VL source queues): 0.841-0.874, mean 0.859, sd 0.0084; average latency 4,840-5,875 ns (mean 5,483, sd
# 240), p99 19,666-25,677 ns (mean 23,658, sd 1,379). Bounds: mean +- 4 sd.
assert 0.825 <= d["throughput"] <= 0.892, d["throughput"]
assert 4520 <= d["latency_avg"] <= 6450, d["latency_avg"]
assert 18140 <= d["latency_p99"] <= 29180, d["latency_p99"]
assert d["packets_delivered"] > 1000 and d["packets_dropped"] == 0, d
PY
  it_log "nue uniform seed $seed: throughput $(kh_json "$out" throughput), latency avg $(kh_json "$out" latency_avg) ns, p99 $(kh_json "$out" latency_p99) ns"
done
"$IT_KEIRO" simulate "$dumps" --load 1 --seed 1 --json >"$IT_DIR/again.json" 2>&1
cmp -s "$IT_DIR/uniform-1.json" "$IT_DIR/again.json" || it_fail "seed 1 twice differs: $(cat "$IT_DIR/again.json")"

# Shift all-to-all: every terminal sends one 2 KiB message to every other.
"$IT_KEIRO" simulate "$dumps" --traffic alltoall --json >"$IT_DIR/a2a.json" 2>&1 ||
  it_fail "alltoall: exit $?: $(cat "$IT_DIR/a2a.json")"
[ "$(kh_json "$IT_DIR/a2a.json" completed)" = true ] || it_fail "alltoall not completed: $(cat "$IT_DIR/a2a.json")"
[ "$(kh_json "$IT_DIR/a2a.json" packets_delivered)" = $((64 * 63)) ] ||
  it_fail "alltoall delivered $(kh_json "$IT_DIR/a2a.json" packets_delivered), want $((64 * 63))"

# Route first (terminals numbered in the net file's order, not the dump's:
# other random destinations, so only the verdict is compared).
"$IT_KEIRO" simulate --topology "$torus" --engine nue --load 1 --seed 1 --json >"$IT_DIR/routed.json" 2>&1 ||
  it_fail "simulate --engine nue: exit $?: $(cat "$IT_DIR/routed.json")"
[ "$(kh_json "$IT_DIR/routed.json" deadlock)" = false ] || it_fail "routed first: deadlock: $(cat "$IT_DIR/routed.json")"
# (measured over seeds 1..10: 0.855-0.871, within the bounds above)
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert 0.825 <= d["throughput"] <= 0.892, d' \
  "$IT_DIR/routed.json" || it_fail "routed first: throughput $(kh_json "$IT_DIR/routed.json" throughput)"

# OpenSM's minhop on the 5-ring: the credit loop keiro check reports happens.
"$IT_KEIRO" simulate "$ring" --assume-sl 0 --buffer 2048 --cycles 200000 --json >"$IT_DIR/minhop.json" 2>&1
rc=$?
[ $rc -eq 1 ] || it_fail "simulate minhop ring: exit $rc, want 1 (deadlock): $(cat "$IT_DIR/minhop.json")"
[ "$(kh_json "$IT_DIR/minhop.json" deadlock)" = true ] || it_fail "minhop ring: no deadlock: $(cat "$IT_DIR/minhop.json")"
want='["S1 port 2 VL 0", "S2 port 2 VL 0", "S3 port 2 VL 0", "S4 port 2 VL 0", "S5 port 2 VL 0"]'
[ "$(kh_json "$IT_DIR/minhop.json" deadlock_cycle)" = "$want" ] ||
  it_fail "minhop ring cycle: $(kh_json "$IT_DIR/minhop.json" deadlock_cycle), want $want"
# The independent oracle confirms the cycle from the tables themselves.
python3 "$KEIRO_SRCDIR/tests/oracle/oracle.py" "$ring" --assume-sl 0 --confirm-cycle \
  "$(python3 -c 'import json,sys; print(" -> ".join(json.load(open(sys.argv[1]))["deadlock_cycle"]))' "$IT_DIR/minhop.json")" \
  >"$IT_DIR/oracle-cycle.txt" 2>&1 || it_fail "the oracle does not confirm the ring's cycle: $(cat "$IT_DIR/oracle-cycle.txt")"
"$IT_KEIRO" check "$ring" --assume-sl 0 >"$IT_DIR/check.out" 2>&1
for hop in "S1 port 2 VL 0" "S2 port 2 VL 0" "S3 port 2 VL 0" "S4 port 2 VL 0" "S5 port 2 VL 0"; do
  grep -q "^  $hop -> " "$IT_DIR/check.out" || it_fail "keiro check's loop lacks '$hop': $(tail -n 20 "$IT_DIR/check.out")"
done
"$IT_KEIRO" simulate "$ring" --assume-sl 0 --buffer 2048 --cycles 200000 >"$IT_DIR/minhop.out" 2>&1
grep -q "^  cycle over 5 full (channel, VL) buffers: S1 port 2 VL 0 -> S2 port 2 VL 0 -> S3 port 2 VL 0 -> S4 port 2 VL 0 -> S5 port 2 VL 0 -> S1 port 2 VL 0$" \
  "$IT_DIR/minhop.out" || it_fail "text cycle: $(cat "$IT_DIR/minhop.out")"
it_log "minhop ring: $(grep -m1 'deadlock ' "$IT_DIR/minhop.out" | sed 's/^ *//')"

# The same deadlock closes at the same cycle whatever the run's length past
# it, even when the run ends less than the stall time (25.6 us = 5,000
# cycles) later: the closing is seen when it happens, and the end of the run
# looks once more.
for cycles in 114000 120000 200000; do
  out="$IT_DIR/minhop-$cycles.json"
  "$IT_KEIRO" simulate "$ring" --assume-sl 0 --buffer 2048 --cycles $cycles --json >"$out" 2>&1
  rc=$?
  [ $rc -eq 1 ] && [ "$(kh_json "$out" verdict)" = deadlock ] && [ "$(kh_json "$out" deadlock_at)" = 111121 ] &&
    [ "$(kh_json "$out" deadlock_cycle)" = "$want" ] ||
    it_fail "minhop ring --cycles $cycles: exit $rc, want 1 and a deadlock closed at 111121: $(cat "$out")"
done
"$IT_KEIRO" simulate "$ring" --assume-sl 0 --buffer 2048 --cycles 100000 --json >"$IT_DIR/minhop-100000.json" 2>&1 ||
  it_fail "minhop ring --cycles 100000 (ends before the loop closes): exit $?: $(cat "$IT_DIR/minhop-100000.json")"

# No false deadlock: a 30 us switch (5,860 cycles) keeps packets waiting
# longer than 5,000 cycles with nothing moving; the stall time grows to one
# hop (1 + 5,860 + 32 cycles) and the all-to-all completes.
out="$IT_DIR/slow-switch.json"
"$IT_KEIRO" simulate "$dumps" --traffic alltoall --switch-latency 30000 --json >"$out" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(kh_json "$out" verdict)" = ok ] && [ "$(kh_json "$out" deadlock)" = false ] &&
  [ "$(kh_json "$out" stall)" = false ] && [ "$(kh_json "$out" completed)" = true ] ||
  it_fail "alltoall --switch-latency 30000: exit $rc, want 0, no deadlock, no stall: $(cat "$out")"
"$IT_KEIRO" simulate "$dumps" --traffic alltoall --deadlock-time 0.05 >"$IT_DIR/short.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "shorter than one hop.* = 53 cycles (0.271 us)" "$IT_DIR/short.out" ||
  it_fail "--deadlock-time 0.05: exit $rc, want 2 naming the 53-cycle bound: $(cat "$IT_DIR/short.out")"
"$IT_KEIRO" simulate "$dumps" --traffic alltoall --switch-latency 30000 --deadlock-time 25.6 >"$IT_DIR/short.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "= 5893 cycles" "$IT_DIR/short.out" ||
  it_fail "--switch-latency 30000 --deadlock-time 25.6: exit $rc, want 2 naming 5893 cycles: $(cat "$IT_DIR/short.out")"

# Transpose on 64 terminals (6 bits rotated by 3) leaves the 8 terminals
# (a, a) silent: throughput per terminal and per active source (56).
out="$IT_DIR/transpose.json"
"$IT_KEIRO" simulate "$dumps" --traffic transpose --json >"$out" 2>&1 || it_fail "transpose: exit $?: $(cat "$out")"
python3 - "$out" <<'PY' || it_fail "transpose per source: $(cat "$out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["active_sources"] == 56, d
assert abs(d["throughput_per_source"] - d["throughput"] * 64 / 56) < 1e-5, d
assert abs(d["offered_per_source"] - d["offered"] * 64 / 56) < 1e-5, d
PY
"$IT_KEIRO" simulate "$dumps" --traffic transpose >"$IT_DIR/transpose.out" 2>&1
grep -q "^  per source    0\.[0-9]* accepted (offered 0\.[0-9]*) per active source: 56 of 64 terminals send$" \
  "$IT_DIR/transpose.out" || it_fail "transpose text: $(cat "$IT_DIR/transpose.out")"

# --sweep: one point per load, accepted follows offered at low load, the
# saturation throughput is the plateau (median of the points from the
# saturation load on) beside the highest accepted; --plot draws one line per
# routing with one point per load; several inputs side by side, keyed by label.
"$IT_KEIRO" simulate "$dumps" --sweep 0.2:1:0.4 --json >"$IT_DIR/sweep.json" 2>"$IT_DIR/err" ||
  it_fail "sweep: exit $?: $(cat "$IT_DIR/err" "$IT_DIR/sweep.json")"
python3 - "$IT_DIR/sweep.json" "$IT_DIR/uniform-1.json" <<'PY' || it_fail "sweep: $(cat "$IT_DIR/sweep.json")"
import json, sys
d = json.load(open(sys.argv[1]))
one = json.load(open(sys.argv[2]))
pts = d["points"]
assert [p["load"] for p in pts] == [0.2, 0.6, 1.0], pts
# Below saturation accepted is the offered load (within Bernoulli noise).
assert abs(pts[0]["throughput"] - 0.2) < 0.02 and abs(pts[1]["throughput"] - 0.6) < 0.03, pts
# The load-1 point is the single run at --load 1 (same seed): same numbers.
assert pts[2]["throughput"] == one["throughput"] and pts[2]["latency_p99"] == one["latency_p99"], (pts[2], one)
sat = d["saturation"]
assert sat["throughput_max"] == max(p["throughput"] for p in pts), sat
# keiro-nue saturates on the 4x4x4 torus between 0.6 and 1 (about 0.8): the
# plateau is the one point from load 1 on.
assert sat["load"] == 1 and pts[2]["throughput"] < 0.95 * pts[2]["offered"], d
assert sat["plateau_points"] == 1 and sat["throughput"] == pts[2]["throughput"], sat
assert sat["throughput_per_source"] == pts[2]["throughput_per_source"] == pts[2]["throughput"], sat
assert d["active_sources"] == 64 and d["stall"] is False and d["stall_load"] is None, d
assert d["deadlock"] is False and d["deadlock_cycle"] == [] and d["deadlock_load"] is None, d
assert pts[0]["latency_avg"] < pts[1]["latency_avg"] < pts[2]["latency_avg"], pts
PY
it_log "nue sweep: saturation throughput $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["saturation"]["throughput"])' "$IT_DIR/sweep.json")"
"$IT_KEIRO" simulate "$dumps" engine:dl --topology "$torus" --sweep 0.2:1:0.4 --plot "$IT_DIR/plot" \
  --json >"$IT_DIR/both.json" 2>"$IT_DIR/err" || it_fail "side by side: exit $?: $(cat "$IT_DIR/err")"
# (--topology also replaces the directory's fabric file: terminals in the net
# file's order, so the single-input run to compare with takes it too.)
"$IT_KEIRO" simulate "$dumps" --topology "$torus" --sweep 0.2:1:0.4 --json >"$IT_DIR/sweep-t.json" 2>&1
python3 - "$IT_DIR/both.json" "$IT_DIR/sweep-t.json" <<'PY' || it_fail "side by side: $(cat "$IT_DIR/both.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert list(d) == ["nue", "keiro-dl"], list(d)
# The dump directory's column is the single-input sweep, unchanged.
assert d["nue"] == json.load(open(sys.argv[2])), d["nue"]
assert d["keiro-dl"]["engine"] == "keiro-dl" and len(d["keiro-dl"]["points"]) == 3, d["keiro-dl"]
PY
for svg in latency latency-p99 throughput; do
  python3 - "$IT_DIR/plot/$svg.svg" <<'PY' || it_fail "$svg.svg: $(head -c 2000 "$IT_DIR/plot/$svg.svg")"
import re, sys
s = open(sys.argv[1]).read()
lines = re.findall(r'<polyline [^>]*points="([^"]*)"', s)
assert len(lines) == 2, len(lines)  # one per routing
for pts in lines:
    xs = [float(p.split(",")[0]) for p in pts.split()]
    # loads 0.2, 0.6, 1.0 on the 490-pixel x axis from 70 (0) to 560 (1)
    assert xs == [168.0, 364.0, 560.0], xs
assert ">nue<" in s and ">keiro-dl<" in s
PY
done
"$IT_KEIRO" simulate "$dumps" engine:dl --topology "$torus" --sweep 0.2:1:0.4 >"$IT_DIR/both.out" 2>&1
grep -q "^keiro-dl: saturation throughput 0\.[0-9]* (plateau: median accepted of 1 point from the saturation load on), per active source 0\.[0-9]* (64 send); highest accepted 0\.[0-9]*, saturation load 1; deadlock no$" "$IT_DIR/both.out" ||
  it_fail "side-by-side text: $(cat "$IT_DIR/both.out")"
"$IT_KEIRO" simulate "$ring" --assume-sl 0 --buffer 2048 --cycles 200000 --sweep 0.5:1:0.5 --json \
  >"$IT_DIR/ring-sweep.json" 2>&1
rc=$?
[ $rc -eq 1 ] || it_fail "minhop ring sweep: exit $rc, want 1: $(cat "$IT_DIR/ring-sweep.json")"
# Deadlocks at the first load already (counter-clockwise this time), which
# ends the sweep; the point is the single run at --load 0.5.
"$IT_KEIRO" simulate "$ring" --assume-sl 0 --buffer 2048 --cycles 200000 --load 0.5 --json \
  >"$IT_DIR/ring-05.json" 2>&1
python3 - "$IT_DIR/ring-sweep.json" "$IT_DIR/ring-05.json" <<'PY' || it_fail "minhop ring sweep: $(cat "$IT_DIR/ring-sweep.json")"
import json, sys
d = json.load(open(sys.argv[1]))
one = json.load(open(sys.argv[2]))
assert d["deadlock"] is True and d["deadlock_load"] == 0.5 and len(d["points"]) == 1, d
assert one["deadlock"] is True and len(one["deadlock_cycle"]) == 5, one
assert d["deadlock_cycle"] == one["deadlock_cycle"] == d["points"][0]["deadlock_cycle"], (d, one)
assert d["saturation"]["throughput"] is None and d["saturation"]["throughput_max"] == 0, d
assert d["saturation"]["load"] == 0.5 and d["saturation"]["plateau_points"] == 0, d
PY

# Multicast. Without group files in the directory: one group of every CA
# over keiro's trees (mcast::Router): every copy arrives, no storm, exit 0.
"$IT_KEIRO" simulate "$dumps" --traffic broadcast --load 0.008 --json >"$IT_DIR/bcast.json" 2>"$IT_DIR/err"
rc=$?
[ $rc -eq 0 ] || it_fail "broadcast on keiro's trees: exit $rc, want 0: $(cat "$IT_DIR/err" "$IT_DIR/bcast.json")"
# OpenSM's default tree (union of the unicast paths from its root) storms.
"$IT_KEIRO" simulate "$dumps" --traffic broadcast --load 0.008 --mcast-trees opensm --json \
  >"$IT_DIR/bcast-opensm.json" 2>"$IT_DIR/err"
rc=$?
[ $rc -eq 1 ] || it_fail "broadcast on OpenSM's tree: exit $rc, want 1: $(cat "$IT_DIR/err" "$IT_DIR/bcast-opensm.json")"
python3 - "$IT_DIR/bcast.json" "$IT_DIR/bcast-opensm.json" <<'PY' || it_fail "broadcast JSON: $(cat "$IT_DIR/bcast.json" "$IT_DIR/bcast-opensm.json")"
import json, sys
k, o = (json.load(open(p)) for p in sys.argv[1:3])
assert k["verdict"] == "ok" and k["storm"] is False and not k["deadlock"], k
m = k["mcast"]
assert m["sent"] > 0 and m["delivered"] > 0.9 * m["expected"], m
assert m["non_member"] == 0 and m["dropped"] == 0, m
assert abs(m["throughput"] - k["throughput"]) < 1e-9, k
assert o["verdict"] == "storm" and o["storm"] is True and o["storm_mlid"] == "0xC000", o
assert o["storm_copies"] > 0 and "hold a loop" in o["storm_what"], o
PY
# The directory's own opensm-sa.dump and opensm.mcfdbs: group 0xC001 of the
# four CAs on the ring y = z = 0; masks along 0-1-2-3 (a tree), then with the
# wrap link 3-0 as well (a loop); --mcfdbs FILE and --mcast-groups FILE
# replace the directory's files.
mc="$IT_DIR/mc" && rm -rf "$mc" && cp -r "$dumps" "$mc"
python3 - "$mc" <<'PY' || it_fail "writing the multicast files"
import re, sys
d = sys.argv[1]
link = re.compile(r'\{ (SW|CA) Ports:\S+ SystemGUID:\S+ NodeGUID:(\S+) PortGUID:(\S+) .*?\{([^}]*)\} LID:\S+ PN:(\S+) \}')
guid, port, ca = {}, {}, {}
for line in open(d + "/opensm-subnet.lst"):
    m = link.findall(line)
    if len(m) != 2 or m[0][0] != "SW":
        continue
    (_, g1, _, n1, p1), (k2, _, pg2, n2, _) = m
    guid[n1] = g1
    if k2 == "CA":
        port[(n1, "ca")] = int(p1)
        ca[n1] = pg2
    else:
        port[(n1, n2)] = int(p1)
ring = ["torus %d,0,0" % x for x in range(4)]
with open(d + "/opensm-sa.dump", "w") as f:
    f.write("MC Group 0xc001: mgid=0xff12401bffff0000:0x00000000000000c1 mlid=0xc001 sl_flow_hop=0x00000000\n\n")
    for s in ring:
        f.write("mcm_port: port_gid=0xfe80000000000000:0x%s scope_state=0x01 proxy_join=0x0\n\n" % ca[s].lower())
def masks(path, links):
    m = {s: {port[(s, "ca")]} for s in ring}
    for a, b in links:
        m[ring[a]].add(port[(ring[a], ring[b])])
        m[ring[b]].add(port[(ring[b], ring[a])])
    with open(path, "w") as f:
        for s in ring:
            f.write("\nSwitch 0x%s\nLID    : Out Port(s)\n0xC001 :%s\n" % (
                guid[s].lower(), "".join(" 0x%03X " % p for p in sorted(m[s]))))
masks(d + "/opensm.mcfdbs", [(0, 1), (1, 2), (2, 3)])
masks(d + "/loop.mcfdbs", [(0, 1), (1, 2), (2, 3), (3, 0)])
PY
"$IT_KEIRO" simulate "$mc" --traffic broadcast --load 0.1 --json >"$IT_DIR/mc-tree.json" 2>"$IT_DIR/err"
rc=$?
[ $rc -eq 0 ] || it_fail "directory's tree: exit $rc, want 0: $(cat "$IT_DIR/err" "$IT_DIR/mc-tree.json")"
"$IT_KEIRO" simulate "$mc" --traffic broadcast --load 0.1 --mcfdbs "$mc/loop.mcfdbs" --json \
  >"$IT_DIR/mc-loop.json" 2>"$IT_DIR/err"
rc=$?
[ $rc -eq 1 ] || it_fail "directory's loop: exit $rc, want 1: $(cat "$IT_DIR/err" "$IT_DIR/mc-loop.json")"
python3 - "$IT_DIR/mc-tree.json" "$IT_DIR/mc-loop.json" <<'PY' || it_fail "directory multicast JSON: $(cat "$IT_DIR/mc-tree.json" "$IT_DIR/mc-loop.json")"
import json, sys
t, l = (json.load(open(p)) for p in sys.argv[1:3])
assert t["verdict"] == "ok" and t["active_sources"] == 4, t
m = t["mcast"]
assert m["sent"] > 0 and m["expected"] == 3 * m["sent"] and m["delivered"] > 0.9 * m["expected"], m
assert m["non_member"] == 0 and m["dropped"] == 0, m
assert l["verdict"] == "storm" and l["storm_mlid"] == "0xC001", l
PY
"$IT_KEIRO" simulate "$mc" --traffic broadcast --load 0.1 >"$IT_DIR/mc-tree.out" 2>&1
grep -q "^  groups        1 group, groups from $mc/opensm-sa.dump; masks from $mc/opensm.mcfdbs$" \
  "$IT_DIR/mc-tree.out" || it_fail "groups line: $(cat "$IT_DIR/mc-tree.out")"
grep -q "^  storm         no$" "$IT_DIR/mc-tree.out" || it_fail "storm line: $(cat "$IT_DIR/mc-tree.out")"

# Usage errors.
for bad in "--traffic nope $dumps" "--load 2 $dumps" "" "--engine nue" "--sweep 0.5:2:0.1 $dumps" \
  "--sweep --traffic alltoall $dumps" "--plot $IT_DIR/p $dumps" "--mcast-rate 2 $dumps" \
  "--mcast-rate 0.1 --traffic alltoall $dumps" "--mcast-trees nope $dumps"; do
  # shellcheck disable=SC2086
  "$IT_KEIRO" simulate $bad >/dev/null 2>&1
  rc=$?
  [ $rc -eq 2 ] || it_fail "simulate $bad: exit $rc, want 2"
done
it_done
