#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The measured figures of docs/simulation.md (except the Booksim sweeps of
# scripts/sim-vs-booksim.sh and the papers of scripts/sim-papers.sh), in one
# run, offline (keiro route + keiro simulate, no OpenSM). It writes these
# generated blocks of docs/simulation.md:
#   sim-sweeps    the load-sweep examples (keiro-nue 4x4x4 torus, transpose
#                 on an 8x8 mesh)
#   sim-mcast     the multicast runs (4x4x4 torus, 2 CAs per switch)
#   sim-measured  run times and results on tori of 64 to 4,000 CAs, the
#                 deadlocking minhop ring
#   sim-queues    per-VL source queues against one FIFO; the seed spread of
#                 uniform traffic that tests/integration/simulate-cli.sh uses
#   sim-alltoall  shift all-to-all: bounds, keiro analyze's estimate,
#                 free-running and pairwise exchange with windows 1, 8, 32
#   sim-speed     the 4,000-CA all-to-all's wall time, packets and flits per
#                 second, and (with --booksim) keiro against Booksim2 on the
#                 10x10x10 torus with the same dimension-order routes under
#                 uniform traffic
#
# usage: scripts/sim-figures.sh [--quick] [--no-doc] [-o FILE] [-w DIR] [--booksim DIR]
#   --quick      small fabrics only (up to 256 CAs), fewer seeds: a smoke run
#                of under a minute; implies --no-doc
#   --no-doc     write the blocks to FILE (-o; default WORK/blocks.md), do not
#                touch docs/simulation.md
#   -o FILE      where the blocks go (also with the doc written)
#   -w DIR       work directory (default: a new one under /tmp)
#   --booksim D  a built Booksim2 checkout (D/src/booksim; default
#                $BOOKSIM_DIR): the speed comparison on the same network.
#                Not run in CI.
# Environment: KEIRO (default build/keiro).
#
# Times are wall-clock and user CPU seconds of one process (GNU time), on
# whatever machine runs the script; the blocks say so.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
keiro=${KEIRO:-$src/build/keiro}
quick=0 doc=1 work="" outfile="" booksim_dir=${BOOKSIM_DIR:-}
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 doc=0 ;;
    --no-doc) doc=0 ;;
    -o) outfile=$2; shift ;;
    -w) work=$2; shift ;;
    --booksim) booksim_dir=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "sim-figures.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$keiro" ] || { echo "sim-figures.sh: $keiro not built (scripts/build.sh)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "sim-figures.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
booksim=""
if [ -n "$booksim_dir" ]; then
  booksim=$(cd "$booksim_dir" && pwd)/src/booksim
  [ -x "$booksim" ] || { echo "sim-figures.sh: $booksim not built (make -C $booksim_dir/src)" >&2; exit 2; }
fi
work=${work:-$(mktemp -d /tmp/sim-figures.XXXXXX)}
mkdir -p "$work/runs"
work=$(cd "$work" && pwd)
outfile=${outfile:-$work/blocks.md}
say() { echo "sim-figures.sh: $*" >&2; }
say "working in $work"
t_start=$SECONDS
# The commit the runs are made at (recorded before they start).
rev=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$src" diff --quiet HEAD -- core tool scripts 2>/dev/null || rev="$rev (with local changes)"
# Runs already in the work directory (-w of an earlier run) are reused, not
# made again; the speed block says so.
reused=$(find "$work/runs" -maxdepth 1 -name '*.json' | wc -l)

# net NAME ARGS...: WORK/NAME.net from `keiro topo ARGS` and keiro-nue's
# tables in WORK/NAME (timed: WORK/runs/NAME-route.time).
net() {
  local name=$1
  shift
  [ -d "$work/$name" ] && return 0
  if [ "$1" = file ]; then cp "$2" "$work/$name.net"; else "$keiro" topo "$@" -o "$work/$name.net" >/dev/null; fi
  /usr/bin/time -f '%e %U %M' -o "$work/runs/$name-route.time" \
    "$keiro" route --engine nue --topology "$work/$name.net" --out "$work/$name" >"$work/$name.route" 2>&1
  "$keiro" analyze "$work/$name" --json >"$work/runs/$name-analyze.json" 2>/dev/null || true
}
# sim TAG ARGS...: keiro simulate ARGS --json -> runs/TAG.json, its exit
# status in runs/TAG.rc, wall / user seconds and peak RSS (KiB) in runs/TAG.time.
sim() {
  local tag=$1 rc=0
  shift
  [ -s "$work/runs/$tag.json" ] && return 0
  say "$tag"
  /usr/bin/time -f '%e %U %M' -o "$work/runs/$tag.time" \
    "$keiro" simulate "$@" --json >"$work/runs/$tag.json" 2>"$work/runs/$tag.err" || rc=$?
  echo "$rc" >"$work/runs/$tag.rc"
}

# --- fabrics ---
net t4 file "$src/ibsim-topologies/torus-4x4x4-f4-h1.net"
net t4x4 torus 4x4x4 --hcas-per-switch 4
net t6 torus 6x6x6 --hcas-per-switch 1
net mesh8 mesh 8x8
"$keiro" topo torus 4x4x4 --hcas-per-switch 2 -o "$work/t4x2.net" >/dev/null
big=t4x4
if [ "$quick" = 0 ]; then
  net t6x4 torus 6x6x6 --hcas-per-switch 4
  net t10 torus 10x10x10 --hcas-per-switch 1
  net t10x4 torus 10x10x10 --hcas-per-switch 4
  big=t10x4
fi
echo "$big" >"$work/runs/big"

# --- load sweeps ---
sim t4-sweep "$work/t4" --sweep
sim mesh8-transpose "$work/mesh8" --traffic transpose
sim mesh8-transpose-sweep "$work/mesh8" --traffic transpose --sweep

# --- multicast (one group of all 128 CAs) ---
mc=(--topology "$work/t4x2.net" --engine nue)
sim mc-bcast "${mc[@]}" --traffic broadcast --load 0.004 --cycles 20000
sim mc-bcast-opensm "${mc[@]}" --traffic broadcast --load 0.004 --cycles 20000 --mcast-trees opensm
sim mc-sweep "${mc[@]}" --traffic broadcast --sweep 0.002:0.01:0.002 --cycles 5000
sim mc-sweep-opensm "${mc[@]}" --traffic broadcast --sweep 0.002:0.01:0.002 --cycles 5000 --mcast-trees opensm
sim mc-rate "${mc[@]}" --traffic uniform --load 0.3 --mcast-rate 0.002 --cycles 20000
sim mc-rate0 "${mc[@]}" --traffic uniform --load 0.3 --cycles 20000

# --- run times ---
sim t4-uniform "$work/t4" --load 1 --cycles 12000
sim t4-alltoall "$work/t4" --traffic alltoall
sim t4x4-uniform "$work/t4x4" --load 1 --cycles 12000
sim t6-uniform "$work/t6" --load 1 --cycles 12000
sim t6-alltoall "$work/t6" --traffic alltoall
sim ring5 "$src/tests/unit/data/ring5-minhop" --assume-sl 0 --buffer 2048 --cycles 114000
if [ "$quick" = 0 ]; then
  sim t10x4-uniform "$work/t10x4" --load 1 --cycles 12000
fi

# --- source queues: per VL against one FIFO ---
for f in t4 t4x4; do
  sim "$f-uniform-fifo" "$work/$f" --load 1 --cycles 12000 --source-queue fifo
done
if [ "$quick" = 1 ]; then seeds="1 2 3 4 5"; else seeds=$(seq 1 20); fi
echo "$seeds" >"$work/runs/seeds"
for s in $seeds; do
  sim "t4-seed$s" "$work/t4" --load 1 --seed "$s"
done
for s in 1 2; do sim "t4-fifo-seed$s" "$work/t4" --load 1 --seed "$s" --source-queue fifo; done

# --- all-to-all ---
if [ "$quick" = 1 ]; then a2a="t4x4 t6"; else a2a="t4x4 t6 t6x4 t10 t10x4"; fi
echo "$a2a" >"$work/runs/a2a"
for f in $a2a; do
  sim "$f-alltoall" "$work/$f" --traffic alltoall
  sim "$f-alltoall-free" "$work/$f" --traffic alltoall --alltoall-sync free
  sim "$f-alltoall-w8" "$work/$f" --traffic alltoall --alltoall-window 8
  [ "$quick" = 1 ] || sim "$f-alltoall-w32" "$work/$f" --traffic alltoall --alltoall-window 32
done
sim t4x4-alltoall-w32 "$work/t4x4" --traffic alltoall --alltoall-window 32
sim t4x4-alltoall-w32-fifo "$work/t4x4" --traffic alltoall --alltoall-window 32 --source-queue fifo
sim t4x4-alltoall-free-fifo "$work/t4x4" --traffic alltoall --alltoall-sync free --source-queue fifo

# --- speed: keiro and Booksim2 on the same torus with the same routes ---
# Booksim's torus holds one node per router, so the comparison runs on the
# 10x10x10 torus with one CA per switch (quick: 4x4x4). keiro's tables are
# rewritten to Booksim's routes: dimension order (x, y, z), the shorter way
# round (ties at distance k/2 by the destination's parity), path SL bit d
# set when the segment in dimension d crosses the wrap link, and SL2VL
# putting a hop in dimension d on VL = that bit: Booksim's `dim_order` on
# its `torus` with 2 VCs (dateline), as scripts/sim-vs-booksim.sh does for
# its 8x8 torus; `keiro check` must pass them. Matched: packets of 32 flits
# (keiro's 2 KiB packets of 64-byte credits), 64 flits of buffer per (port,
# VC) (keiro's 4 KiB), a 4-cycle router against keiro's --switch-latency
# 20.48 (4 cycles), one-cycle channels, uniform traffic at 0.1 flits per node
# per cycle, below both tools' saturation. Booksim runs one warm-up period
# and one sample of $period cycles, then drains; keiro is given the same
# number of cycles.
if [ "$quick" = 1 ]; then
  net tq torus 4x4x4 --hcas-per-switch 1
  dor_base=tq dor_k=4 period=1000
else
  dor_base=t10 dor_k=10 period=5000
fi
dor=$dor_base-dor
echo "$dor $dor_k" >"$work/runs/speed-net"
if [ ! -d "$work/$dor" ]; then
  cp -r "$work/$dor_base" "$work/$dor"
  python3 - "$work/$dor" "$dor_k" <<'EOF'
import re, sys
d, k = sys.argv[1], int(sys.argv[2])
LINK = re.compile(r'\{ (SW|CA) Ports:\S+ SystemGUID:\S+ NodeGUID:(\S+) PortGUID:(\S+) .*?'
                  r'\{([^}]*)\} LID:(\S+) PN:(\S+) \}')
def coords(name):  # 'torus 3,5,1' / 'torus 3,5,1 hca 0' -> (3, 5, 1)
    return tuple(int(v) for v in name.split()[1].split(','))
links, lids = {}, {}
for line in open(d + '/opensm-subnet.lst'):
    m = LINK.findall(line)
    if len(m) != 2:
        continue
    (k1, _, _, n1, l1, p1), (k2, _, _, n2, l2, p2) = m
    lids[int(l1, 16)] = (k1, n1)
    lids[int(l2, 16)] = (k2, n2)
    if k1 == 'SW':
        links[(n1, int(p1))] = (k2, n2)
def step(c, t):
    """(direction, crosses the wrap) of the shorter way from c to t."""
    fwd = (t - c) % k
    plus = fwd < k - fwd or (fwd == k - fwd and t % 2 == 0)
    return (1, c > t) if plus else (-1, c < t)
port_to, dim_of = {}, {}
for (s, p), (kind, n) in links.items():
    if kind == 'CA':
        port_to[(s, 'ca')] = p
    else:
        port_to[(s, coords(n))] = p
        dim_of[(s, p)] = next(i for i, (a, b) in enumerate(zip(coords(s), coords(n))) if a != b)
def hop(s, lid):
    kind, name = lids[lid]
    sc, dc = coords(s), coords(name)
    i = next((i for i in range(len(sc)) if sc[i] != dc[i]), None)
    if i is None:
        return 0 if kind == 'SW' else port_to[(s, 'ca')]
    nc = list(sc)
    nc[i] = (sc[i] + step(sc[i], dc[i])[0]) % k
    return port_to[(s, tuple(nc))]
def sl(s, lid):
    sc, dc = coords(s), coords(lids[lid][1])
    return sum(1 << i for i in range(len(sc)) if sc[i] != dc[i] and step(sc[i], dc[i])[1])
out, cur = [], None
for line in open(d + '/opensm-lfts.dump'):
    m = re.match(r"Unicast lids .*\('(.*)'\)", line)
    if m:
        cur = m.group(1)
    m2 = re.match(r'(0x[0-9a-fA-F]+) (\d+)( .*)?$', line.rstrip('\n'))
    if m2 and cur:
        line = '%s %03d%s\n' % (m2.group(1), hop(cur, int(m2.group(1), 16)), m2.group(3) or '')
    out.append(line)
open(d + '/opensm-lfts.dump', 'w').writelines(out)
out, cur = [], None
for line in open(d + '/opensm-sl2vl.dump'):
    m = re.match(r'(Switch|Channel Adapter) \S+, base LID \d+, "(.*)"', line)
    if m:
        cur = m.group(2) if m.group(1) == 'Switch' else None
    m2 = re.match(r'(\d+\s+)(\d+)(\s+: )', line)
    if m2:
        o, vls = int(m2.group(2)), [0] * 16
        if cur and (cur, o) in dim_of:
            vls = [(s >> dim_of[(cur, o)]) & 1 for s in range(16)]
        line = m2.group(1) + m2.group(2) + m2.group(3) + ' '.join('%-2d' % v for v in vls) + ' \n'
    out.append(line)
open(d + '/opensm-sl2vl.dump', 'w').writelines(out)
names = {}
for line in open(d + '/opensm-lfts.dump'):
    m = re.match(r"Unicast lids .* guid (0x[0-9a-fA-F]+) \('(.*)'\)", line)
    if m:
        names[int(m.group(1), 16)] = m.group(2)
max_lid = max(lids)
with open(d + '/keiro-path-sl.dump', 'w') as f:  # core/io/path_sl_file.h, one row per source switch
    f.write('keiro-path-sl 1\nengine dor-dateline\nmax_lid %d\nscope source-switch\n' % max_lid)
    for guid, s in sorted(names.items()):
        f.write('switch 0x%016x %s\n' % (guid, ''.join(
            '%x' % sl(s, lid) if lid in lids else '-' for lid in range(1, max_lid + 1))))
EOF
  "$keiro" check "$work/$dor" >"$work/runs/$dor.check" 2>&1 || {
    say "the dimension-order tables of $dor fail keiro check: $(tail -n 3 "$work/runs/$dor.check")"
    exit 1
  }
fi
bs_cycles=$((3 * period))
if [ -n "$booksim" ]; then
  if ! grep -q '^Time taken is' "$work/runs/booksim.out" 2>/dev/null; then
    say "booksim: torus $dor_k-ary 3-cube, dim_order, uniform 0.1"
    cat >"$work/runs/booksim.cfg" <<EOF
topology = torus;
k = $dor_k;
n = 3;
routing_function = dim_order;
num_vcs = 2;
vc_buf_size = 64;
packet_size = 32;
traffic = uniform;
injection_rate_uses_flits = 1;
injection_rate = 0.1;
sim_type = latency;
warmup_periods = 1;
sample_period = $period;
max_samples = 2;
latency_thres = -1.0;
seed = 1;
use_noc_latency = 0;
EOF
    (cd "$work/runs" && /usr/bin/time -f '%e %U %M' -o booksim.time "$booksim" booksim.cfg >booksim.out 2>&1) || true
  fi
  bs_cycles=$(sed -nE 's/^Time taken is ([0-9]+) cycles/\1/p' "$work/runs/booksim.out" | tail -n 1)
  bs_cycles=${bs_cycles:-$((3 * period))}
fi
sim "speed-uniform-$bs_cycles" "$work/$dor" --load 0.1 --switch-latency 20.48 --warmup "$period" \
  --cycles $((bs_cycles - period))
echo "speed-uniform-$bs_cycles" >"$work/runs/speed-tag"

# --- the blocks ---
cmd="scripts/sim-figures.sh"
[ "$quick" = 1 ] && cmd="$cmd --quick"
[ -n "$booksim" ] && cmd="$cmd --booksim BOOKSIM_DIR"
booksim_rev=-
[ -n "$booksim" ] && booksim_rev=$(git -C "$booksim_dir" rev-parse --short HEAD 2>/dev/null || echo unknown)
python3 "$src/scripts/sim_figures.py" "$work" "$cmd" "$rev" "$booksim_rev" "$((SECONDS - t_start))" "$reused" >"$outfile"
say "blocks written to $outfile"
if [ "$doc" = 1 ]; then
  python3 "$src/scripts/keiro_bench.py" replace-blocks "$src/docs/simulation.md" "$outfile" || exit 1
  say "blocks written into docs/simulation.md"
fi
say "done in $((SECONDS - t_start)) s"
