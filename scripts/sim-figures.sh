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
#                 same 10x10x10 torus under uniform traffic
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

# --- speed: keiro and Booksim2 on the same network, uniform traffic ---
# Booksim's anynet with the same routers, links and nodes (node i = keiro's
# terminal i), min routing (one shortest path per pair; keiro runs
# keiro-nue's tables), as many VCs as keiro's tables use VLs, packets of 32
# flits (keiro's 2 KiB packets of 64-byte credits), 64 flits of buffer per
# (port, VC) (keiro's 4 KiB), a 4-cycle router against keiro's
# --switch-latency 20.48 (4 cycles), one-cycle channels. Load 0.02 flits per
# node per cycle, below both tools' saturation. Booksim: one warm-up period
# and one sample of $period cycles, then its drain; keiro is given the same
# number of cycles.
if [ "$quick" = 1 ]; then period=1000; else period=5000; fi
python3 - "$work/$big.net" "$work/$big.anynet" <<'EOF'
import re, sys
rows, cur, hosts = [], None, {}
for line in open(sys.argv[1]):
    m = re.match(r'Switch \d+ "S(\d+)"', line)
    if m:
        cur = [int(m.group(1)), [], []]
        rows.append(cur)
        continue
    if re.match(r'(Hca|Ca|Rt) ', line):  # a CA's own record: its links are listed above
        cur = None
        continue
    m = re.match(r'\[\d+\] "([SH])([\d-]+)"', line)
    if m and cur is not None:
        if m.group(1) == 'S':
            cur[1].append(int(m.group(2)))
        else:
            cur[2].append(hosts.setdefault(m.group(2), len(hosts)))
with open(sys.argv[2], 'w') as f:
    for r, sws, cas in rows:
        f.write('router %d %s%s\n' % (r, ''.join('node %d ' % c for c in cas),
                                      ' '.join('router %d' % s for s in sws)))
EOF
vls=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["vls_used"])' "$work/runs/$big-analyze.json")
bs_cycles=$((3 * period))
if [ -n "$booksim" ]; then
  if [ ! -s "$work/runs/booksim.out" ]; then
    say "booksim: $big, uniform 0.02"
    cat >"$work/runs/booksim.cfg" <<EOF
topology = anynet;
network_file = $work/$big.anynet;
routing_function = min;
num_vcs = $vls;
vc_buf_size = 64;
packet_size = 32;
traffic = uniform;
injection_rate_uses_flits = 1;
injection_rate = 0.02;
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
sim speed-uniform "$work/$big" --load 0.02 --switch-latency 20.48 --warmup "$period" \
  --cycles $((bs_cycles - period))

# --- the blocks ---
rev=$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$src" diff --quiet HEAD -- core tool scripts 2>/dev/null || rev="$rev (with local changes)"
cmd="scripts/sim-figures.sh"
[ "$quick" = 1 ] && cmd="$cmd --quick"
[ -n "$booksim" ] && cmd="$cmd --booksim BOOKSIM_DIR"
booksim_rev=-
[ -n "$booksim" ] && booksim_rev=$(git -C "$booksim_dir" rev-parse --short HEAD 2>/dev/null || echo unknown)
python3 "$src/scripts/sim_figures.py" "$work" "$cmd" "$rev" "$booksim_rev" "$((SECONDS - t_start))" >"$outfile"
say "blocks written to $outfile"
if [ "$doc" = 1 ]; then
  python3 - "$src/docs/simulation.md" "$outfile" <<'EOF'
import re, sys
doc, blocks = sys.argv[1], open(sys.argv[2]).read()
t = open(doc).read()
for m in re.finditer(r'<!-- ([a-z0-9-]+):begin -->\n(.*?)<!-- \1:end -->', blocks, re.S):
    b, e = '<!-- %s:begin -->' % m.group(1), '<!-- %s:end -->' % m.group(1)
    if b not in t or e not in t:
        sys.exit('sim-figures.sh: the markers of %s are missing from %s' % (m.group(1), doc))
    t = t[:t.index(b) + len(b)] + '\n' + m.group(2) + t[t.index(e):]
open(doc, 'w').write(t)
EOF
  say "blocks written into docs/simulation.md"
fi
say "done in $((SECONDS - t_start)) s"
