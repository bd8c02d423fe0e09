#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro simulate against Booksim2 on the same three networks, with matched
# packet size, buffers and router delay (not run in CI):
#  - mesh:   an 8x8 mesh (`keiro topo mesh 8x8`), keiro-acro's tables, which
#            are exactly XY there (checked below), against Booksim's `dor`;
#  - torus:  an 8x8 torus, dimension-order routes with dateline VLs written
#            by this script into a dump directory (x then y, the shorter way
#            round, ties at distance 4 by the destination's parity; path SL
#            bit d set when the segment in dimension d crosses the wrap link,
#            and SL2VL sends a hop in dimension d on VL = that bit: Booksim's
#            dim_order_torus partitions) against Booksim's `dim_order`;
#  - random: a random 4-regular fabric of 64 switches (`keiro topo random 64
#            4 --seed 1`), keiro-acro's balanced minimal routes against
#            Booksim's `anynet` with `min` routing (one shortest path per pair);
# one CA / node per switch, uniform, transpose and bit-reversal sweeps in
# both tools, then a table of saturation throughput (plateau and highest),
# zero-load latency and speed written into docs/simulation.md between the
# markers <!-- sim-vs-booksim:begin --> and <!-- sim-vs-booksim:end -->.
#
# usage: scripts/sim-vs-booksim.sh [options] BOOKSIM_DIR
#   BOOKSIM_DIR   a checkout of github.com/booksim/booksim2; it is built there
#                 (make in BOOKSIM_DIR/src; flex and bison are installed with
#                 apt-get when missing). The script downloads nothing.
#   --keiro-only  run keiro's half only (no BOOKSIM_DIR needed); the Booksim
#                 columns are '-'
#   --quick       loads 0.1..1 step 0.1 and shorter runs (a smoke run)
#   --no-doc      print the table, do not touch docs/simulation.md
#   --table-only  only make the table from the runs in -w DIR (an earlier run)
#   -w DIR        work directory (default: a new one under /tmp)
# Environment: KEIRO (default build/keiro).
#
# Matched parameters: packets of 4 flits (keiro: --mtu 256 --size 256, a
# flit being keiro's 64-byte credit), 8 flits of buffer per (port, VC/VL)
# (keiro --buffer 512, Booksim vc_buf_size 8), as many VCs as keiro's tables
# use VLs (num_vcs), a router of 4 pipeline cycles (Booksim's iq router:
# routing, VC allocation, switch allocation, switch traversal, 1 each)
# against keiro's switch latency of 4 cycles (--switch-latency 20.48 ns),
# one-cycle channels everywhere (Booksim use_noc_latency 0: its torus is
# otherwise a folded on-chip one with 2-cycle channels),
# offered load in flits per node per cycle (Booksim
# injection_rate_uses_flits 1), Bernoulli arrivals, warm-up 3,000 cycles and
# 10,000 measured (Booksim: 3 warm-up periods, samples of 1,000 cycles until
# it converges, at most 10). Time: a few minutes (about 300 runs).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
keiro=${KEIRO:-$src/build/keiro}
keiro_only=0 quick=0 doc=1 work="" table_only=0
while [ $# -gt 0 ]; do
  case $1 in
    --keiro-only) keiro_only=1 ;;
    --quick) quick=1 ;;
    --no-doc) doc=0 ;;
    --table-only) table_only=1 ;;
    -w) work=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "sim-vs-booksim.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
booksim_dir=${1:-}
if [ "$keiro_only" = 0 ] && [ -z "$booksim_dir" ]; then
  echo "sim-vs-booksim.sh: give the path of a Booksim2 checkout, or --keiro-only" >&2
  exit 2
fi
[ -x "$keiro" ] || { echo "sim-vs-booksim.sh: $keiro not built (scripts/build.sh)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "sim-vs-booksim.sh: needs python3" >&2; exit 2; }
work=${work:-$(mktemp -d /tmp/sim-vs-booksim.XXXXXX)}
mkdir -p "$work"
echo "sim-vs-booksim.sh: working in $work" >&2

if [ "$quick" = 1 ]; then loads=0.1:1:0.1 measure=4000; else loads=0.05:1:0.05 measure=10000; fi
if [ "$table_only" = 1 ] && [ ! -d "$work/runs" ]; then
  echo "sim-vs-booksim.sh: --table-only needs -w DIR of an earlier run" >&2
  exit 2
fi
# --- Booksim: build it in the checkout given ---
booksim=""
if [ "$keiro_only" = 0 ]; then
  booksim_dir=$(cd "$booksim_dir" && pwd)
  booksim=$booksim_dir/src/booksim
  if [ ! -x "$booksim" ] && [ "$table_only" = 0 ]; then
    [ -f "$booksim_dir/src/Makefile" ] || {
      echo "sim-vs-booksim.sh: $booksim_dir/src/Makefile missing: not a Booksim2 checkout" >&2
      exit 2
    }
    if ! command -v flex >/dev/null || ! command -v bison >/dev/null; then
      echo "sim-vs-booksim.sh: installing flex and bison (Booksim's config parser)" >&2
      apt-get install -y flex bison >&2
    fi
    make -C "$booksim_dir/src" -j"${KEIRO_JOBS:-2}" >&2
  fi
fi

if [ "$table_only" = 0 ]; then
# --- the three networks: net files and keiro's tables ---
"$keiro" topo mesh 8x8 -o "$work/mesh.net" >/dev/null
"$keiro" topo torus 8x8 -o "$work/torus.net" >/dev/null
"$keiro" topo random 64 4 --seed 1 -o "$work/random.net" >/dev/null
for n in mesh torus random; do
  "$keiro" route --engine acro --topology "$work/$n.net" --out "$work/$n" >"$work/$n.route" 2>&1
done
cat >"$work/tables.py" <<'EOF'
# Helpers of sim-vs-booksim.sh: the torus's DOR + dateline tables, the XY
# check of the mesh, Booksim's anynet file. Reads keiro's dump directories.
import re, sys

LINK = re.compile(r'\{ (SW|CA) Ports:\S+ SystemGUID:\S+ NodeGUID:(\S+) PortGUID:(\S+) .*?'
                  r'\{([^}]*)\} LID:(\S+) PN:(\S+) \}')

def coords(name):  # 'torus 3,5' / 'torus 3,5 hca 0' -> (3, 5)
    return tuple(int(v) for v in name.split()[1].split(','))

def subnet(d):
    """links[(switch name, port)] = (kind, peer name); lids[lid] = (kind, name)."""
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
    return links, lids

def check_xy(d):
    links, _ = subnet(d)
    cur, seen, bad = None, 0, 0
    for line in open(d + '/opensm-lfts.dump'):
        m = re.match(r"Unicast lids .*\('(.*)'\)", line)
        if m:
            cur = m.group(1)
            continue
        m = re.match(r"0x[0-9a-fA-F]+ (\d+) # .*: '(.*)'", line)
        if not m or int(m.group(1)) == 0:
            continue
        kind, nxt = links[(cur, int(m.group(1)))]
        if kind == 'CA':
            continue
        (cx, cy), (dx, dy), (nx, ny) = coords(cur), coords(m.group(2)), coords(nxt)
        ok = (ny == cy and abs(dx - nx) < abs(dx - cx)) if cx != dx else \
             (nx == cx and abs(dy - ny) < abs(dy - cy))
        seen += 1
        bad += not ok
    print('%d switch hops checked, %d not XY' % (seen, bad))
    return bad == 0 and seen > 0

def torus_step(c, d, k):
    """(direction, crosses the wrap) of the shorter way from c to d."""
    fwd = (d - c) % k
    plus = fwd < k - fwd or (fwd == k - fwd and d % 2 == 0)
    return (1, c > d) if plus else (-1, c < d)

def dor_torus(d, k):
    """Rewrites d's LFTs, SL2VL and path SLs to DOR with dateline VLs."""
    links, lids = subnet(d)
    port_to = {}  # (switch, neighbour coords) -> port; (switch, 'ca') -> port
    for (s, p), (kind, n) in links.items():
        port_to[(s, 'ca' if kind == 'CA' else coords(n))] = p
    def hop(s, lid):
        kind, name = lids[lid]
        (sx, sy), (dx, dy) = coords(s), coords(name)
        if (sx, sy) == (dx, dy):
            return 0 if kind == 'SW' else port_to[(s, 'ca')]
        if sx != dx:
            step = torus_step(sx, dx, k)[0]
            return port_to[(s, ((sx + step) % k, sy))]
        step = torus_step(sy, dy, k)[0]
        return port_to[(s, (sx, (sy + step) % k))]
    def sl(s, lid):
        (sx, sy), (dx, dy) = coords(s), coords(lids[lid][1])
        bx = sx != dx and torus_step(sx, dx, k)[1]
        by = sy != dy and torus_step(sy, dy, k)[1]
        return int(bx) | int(by) << 1
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
    # SL2VL: a hop in x on VL = SL bit 0, in y on VL = SL bit 1.
    xports = {(s, p) for (s, p), (kind, n) in links.items()
              if kind == 'SW' and coords(n)[1] == coords(s)[1]}
    out, cur = [], None
    for line in open(d + '/opensm-sl2vl.dump'):
        m = re.match(r'(Switch|Channel Adapter) \S+, base LID \d+, "(.*)"', line)
        if m:
            cur = m.group(2) if m.group(1) == 'Switch' else None
        m2 = re.match(r'(\d+\s+)(\d+)(\s+: )', line)
        if m2 and cur:
            o = int(m2.group(2))
            peer = links.get((cur, o))
            vls = [0] * 16
            if peer and peer[0] == 'SW':
                bit = 0 if (cur, o) in xports else 1
                vls = [(s >> bit) & 1 for s in range(16)]
            line = m2.group(1) + m2.group(2) + m2.group(3) + ' '.join('%-2d' % v for v in vls) + ' \n'
        elif m2:
            line = m2.group(1) + m2.group(2) + m2.group(3) + ' '.join(['0 '] * 16) + '\n'
        out.append(line)
    open(d + '/opensm-sl2vl.dump', 'w').writelines(out)
    names = {}  # switch GUID -> name
    for line in open(d + '/opensm-lfts.dump'):
        m = re.match(r"Unicast lids .* guid (0x[0-9a-fA-F]+) \('(.*)'\)", line)
        if m:
            names[int(m.group(1), 16)] = m.group(2)
    out = []
    for line in open(d + '/keiro-path-sl.dump'):
        if line.startswith('engine '):
            line = 'engine dor-dateline\n'
        m = re.match(r'switch (0x[0-9a-fA-F]+) (\S+)$', line.rstrip('\n'))
        if m:
            s = names[int(m.group(1), 16)]
            digits = ''.join('%x' % sl(s, lid) if lid in lids else '-'
                             for lid in range(1, len(m.group(2)) + 1))
            line = 'switch %s %s\n' % (m.group(1), digits)
        out.append(line)
    open(d + '/keiro-path-sl.dump', 'w').writelines(out)

def anynet(net, path):
    """Booksim anynet file: router i with node i (the CA of switch S<i>)."""
    rows, cur = [], None
    for line in open(net):
        m = re.match(r'Switch \d+ "S(\d+)"', line)
        if m:
            cur = [int(m.group(1)), [], []]
            rows.append(cur)
            continue
        if re.match(r'(Hca|Ca|Rt) ', line):  # a CA's own record: its links are listed above
            cur = None
            continue
        m = re.match(r'\[\d+\] "([SH])(\d+)(-\d+)?"', line)
        if m and cur is not None:
            cur[1 if m.group(1) == 'S' else 2].append(int(m.group(2)))
    with open(path, 'w') as f:
        for r, sws, cas in rows:
            f.write('router %d %s%s\n' % (r, ''.join('node %d ' % c for c in cas),
                                          ' '.join('router %d' % s for s in sws)))

if __name__ == '__main__':
    cmd = sys.argv[1]
    if cmd == 'xy':
        sys.exit(0 if check_xy(sys.argv[2]) else 1)
    if cmd == 'torus':
        dor_torus(sys.argv[2], int(sys.argv[3]))
    if cmd == 'anynet':
        anynet(sys.argv[2], sys.argv[3])
EOF
python3 "$work/tables.py" xy "$work/mesh" >&2 || { echo "sim-vs-booksim.sh: keiro-acro's mesh tables are not XY" >&2; exit 1; }
python3 "$work/tables.py" torus "$work/torus" 8
"$keiro" check "$work/torus" >"$work/torus.check" 2>&1 || {
  echo "sim-vs-booksim.sh: the DOR + dateline torus tables fail keiro check:" >&2
  tail -5 "$work/torus.check" >&2
  exit 1
}
python3 "$work/tables.py" anynet "$work/random.net" "$work/random.anynet"

# --- the runs ---
model=(--mtu 256 --size 256 --buffer 512 --switch-latency 20.48 --warmup 3000 --cycles "$measure")
mkdir -p "$work/runs"
vls_of() { "$keiro" simulate "$work/$1" --topology "$work/$1.net" "${model[@]}" --load 0.01 --json |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["vls"])'; }
booksim_cfg() { # net traffic load vcs
  local net=$1 tr=$2 load=$3 vcs=$4
  case $net in
    mesh) printf 'topology = mesh;\nk = 8;\nn = 2;\nrouting_function = dor;\n' ;;
    torus) printf 'topology = torus;\nk = 8;\nn = 2;\nrouting_function = dim_order;\n' ;;
    random) printf 'topology = anynet;\nnetwork_file = %s;\nrouting_function = min;\n' "$work/random.anynet" ;;
  esac
  printf 'num_vcs = %d;\nvc_buf_size = 8;\npacket_size = 4;\ntraffic = %s;\n' "$vcs" "$tr"
  # (a decimal point: Booksim reads "1" as an integer and refuses it)
  printf 'injection_rate_uses_flits = 1;\ninjection_rate = %.4f;\nsim_type = latency;\n' "$load"
  printf 'warmup_periods = 3;\nsample_period = 1000;\nmax_samples = 10;\nseed = 1;\n'
  printf 'use_noc_latency = 0;\n'  # one-cycle channels (the torus is not folded)
}
for net in mesh torus random; do
  vcs=$(vls_of $net)
  echo "$vcs" >"$work/runs/$net.vls"
  for tr in uniform transpose bitrev; do
    echo "sim-vs-booksim.sh: $net $tr" >&2
    "$keiro" simulate "$work/$net" --topology "$work/$net.net" "${model[@]}" --traffic $tr \
      --load 0.01 --json >"$work/runs/$net-$tr-keiro-zero.json" || true
    "$keiro" simulate "$work/$net" --topology "$work/$net.net" "${model[@]}" --traffic $tr \
      --sweep "$loads" --json >"$work/runs/$net-$tr-keiro.json" || true
    [ -n "$booksim" ] || continue
    for load in 0.01 $(python3 -c "
lo, hi, st = map(float, '$loads'.split(':'))
print(' '.join('%g' % round(lo + i * st, 6) for i in range(int(round((hi - lo) / st)) + 1)))"); do
      booksim_cfg $net $tr "$load" "$vcs" >"$work/runs/$net-$tr-$load.cfg"
      (cd "$work/runs" && "$booksim" "$net-$tr-$load.cfg" >"$net-$tr-booksim-$load.out" 2>&1) || true
    done
  done
  # Speed: uniform traffic at load 0.15 (below saturation in both), 100,000
  # measured cycles in keiro; Booksim until it converges. User CPU seconds.
  TIMEFORMAT=%U
  { time "$keiro" simulate "$work/$net" --topology "$work/$net.net" "${model[@]}" --load 0.15 \
      --cycles 100000 --json >"$work/runs/$net-speed-keiro.json"; } 2>"$work/runs/$net-speed-keiro.time"
  if [ -n "$booksim" ]; then
    booksim_cfg $net uniform 0.15 "$vcs" | sed 's/sample_period = 1000;/sample_period = 10000;/' \
      >"$work/runs/$net-speed.cfg"
    (cd "$work/runs" && { time "$booksim" "$net-speed.cfg" >"$net-speed-booksim.out" 2>&1; } \
      2>"$net-speed-booksim.time") || true
  fi
done

fi  # table_only

# --- the table ---
keiro_rev=$(git -C "$src" rev-parse --short HEAD)
git -C "$src" diff --quiet HEAD -- core tool 2>/dev/null || keiro_rev="$keiro_rev (with local changes)"
booksim_rev="-"
[ -n "$booksim" ] && booksim_rev=$(git -C "$booksim_dir" rev-parse --short HEAD 2>/dev/null || echo unknown)
args="scripts/sim-vs-booksim.sh"
[ "$keiro_only" = 1 ] && args="$args --keiro-only"
[ "$quick" = 1 ] && args="$args --quick"
[ -n "$booksim" ] && args="$args BOOKSIM_DIR"
python3 - "$work/runs" "$loads" "$keiro_rev" "$booksim_rev" "$args" "$([ -n "$booksim" ] && echo 1 || echo 0)" \
  >"$work/table.md" <<'EOF'
import json, os, re, statistics, sys
runs, loads, krev, brev, args, have_bs = sys.argv[1:7]
lo, hi, st = map(float, loads.split(':'))
grid = [round(lo + i * st, 6) for i in range(int(round((hi - lo) / st)) + 1)]
N = 64

def fixed_points(tr):
    def perm(i):  # on 6-bit indices, as both tools define them
        if tr == 'transpose':
            return ((i << 3) | (i >> 3)) & 63
        if tr == 'bitrev':
            return int(format(i, '06b')[::-1], 2)
        return -1
    return sum(1 for i in range(N) if perm(i) == i)

def booksim(path):
    if not os.path.exists(path):
        return None
    t = open(path).read()
    def nums(pattern):
        out = []
        for v in re.findall(pattern, t):
            try:
                out.append(float(v))
            except ValueError:  # '-nan' of an empty sample
                pass
        return out
    acc = nums(r'Accepted flit rate average\s*=\s*(\S+)')
    lat = nums(r'Packet latency average = (\S+)')
    cyc = re.findall(r'Time taken is (\d+) cycles', t)
    run = re.findall(r'Total run time ([0-9.eE+-]+)', t)
    if not acc:
        return None
    return {'acc': acc[-1], 'lat': lat[-1] if lat else None,
            'unstable': 'unstable' in t, 'cycles': int(cyc[-1]) if cyc else None,
            'deadlock': 'Possible network deadlock' in t,
            'run': float(run[-1]) if run else None}

def saturation(points, dead=None):
    """points: (load, offered, accepted) -> (plateau, max, load) as keiro
    simulate; a deadlocked load (dead) ends the sweep there."""
    sat, plateau = None, []
    points = [p for p in points if dead is None or p[0] < dead]
    for load, off, acc in points:
        if sat is None and acc < 0.95 * off:
            sat = load
        if sat is not None:
            plateau.append(acc)
    if sat is None and dead is not None:
        sat = dead
    best = max((a for _, _, a in points), default=None)
    return (statistics.median(plateau) if plateau else None), best, sat

def f(v, fmt='%.3f'):
    return '-' if v is None else fmt % v

rows, speed = [], []
for net in ('mesh', 'torus', 'random'):
    vls = open(os.path.join(runs, net + '.vls')).read().strip()
    for tr in ('uniform', 'transpose', 'bitrev'):
        fp = fixed_points(tr)
        active = N - fp
        k = {}
        try:
            k = json.load(open(os.path.join(runs, '%s-%s-keiro.json' % (net, tr))))
            kz = json.load(open(os.path.join(runs, '%s-%s-keiro-zero.json' % (net, tr))))
        except (OSError, ValueError):
            kz = None
        kpts = [(p['load'], p['offered_per_source'], p['throughput_per_source'])
                for p in k.get('points', []) if not p['deadlock'] and not p['stall']]
        kdead = next((p['load'] for p in k.get('points', []) if p['deadlock'] or p['stall']), None)
        kp, kmax, kload = saturation(kpts, kdead)
        kzl = kz['latency_avg'] / kz['cycle_ns'] if kz else None
        bpts, bzl, bdead = [], None, None
        if have_bs == '1':
            z = booksim(os.path.join(runs, '%s-%s-booksim-0.01.out' % (net, tr)))
            bzl = z['lat'] if z else None
            for load in grid:
                r = booksim(os.path.join(runs, '%s-%s-booksim-%g.out' % (net, tr, load)))
                if r is None:
                    continue
                if r['deadlock'] and bdead is None:
                    bdead = load
                # Booksim's fixed points send to themselves (accepted in full):
                # per active source, their share is taken out.
                acc = (r['acc'] * N - load * fp) / active
                bpts.append((load, load, acc))
        bp, bmax, bload = saturation(bpts, bdead)
        notes = []
        if kdead is not None:
            notes.append('keiro deadlocked at load %g' % kdead)
        if bdead is not None:
            notes.append('Booksim warned of a possible deadlock at load %g' % bdead)
        rows.append('| %s (%s VL%s) | %s | %s | %s | %s / %s | %s / %s | %s | %s | %s |' % (
            net, vls, '' if vls == '1' else 's', tr, f(kzl, '%.1f'), f(bzl, '%.1f'),
            f(kp), f(kmax), f(bp), f(bmax), f(kload, '%g'), f(bload, '%g'), '; '.join(notes)))
    try:
        ks = json.load(open(os.path.join(runs, net + '-speed-keiro.json')))
        kt = float(open(os.path.join(runs, net + '-speed-keiro.time')).read().split()[-1])
        kflits = ks['throughput'] * N * ks['cycles']
        kspeed = (kflits / kt, kflits / 4 / kt, ks['cycles'], kt)
    except (OSError, ValueError, KeyError, IndexError, ZeroDivisionError):
        kspeed = None
    bspeed = None
    b = booksim(os.path.join(runs, net + '-speed-booksim.out')) if have_bs == '1' else None
    try:
        bt = float(open(os.path.join(runs, net + '-speed-booksim.time')).read().split()[-1])
    except (OSError, ValueError, IndexError):
        bt = None
    if b and b['cycles'] and bt:
        bflits = b['acc'] * N * b['cycles']
        bspeed = (bflits / bt, bflits / 4 / bt, b['cycles'], bt)
    speed.append('| %s | %s | %s | %s | %s |' % (
        net,
        '-' if not kspeed else '%.2e flits/s, %.2e packets/s' % kspeed[:2],
        '-' if not kspeed else '%d cycles in %.2f s' % kspeed[2:],
        '-' if not bspeed else '%.2e flits/s, %.2e packets/s' % bspeed[:2],
        '-' if not bspeed else '%d cycles in %.2f s' % bspeed[2:]))

print('Generated by `%s` (keiro %s, Booksim2 %s); do not edit by hand.' % (args, krev, brev))
print()
print('Saturation throughput per active source in flits per node per cycle, as')
print('plateau / highest accepted (see [Load sweeps](#load-sweeps); the same')
print('rule applied to both tools\' points), loads %s; zero-load latency in' % loads)
print('cycles at load 0.01 (creation to tail, source queueing included).')
print()
print('A deadlocked load ends a sweep (keiro: a cycle of full buffers found;')
print('Booksim: its "Possible network deadlock" warning); the points before it count.')
print()
print('| network | traffic | zero-load keiro | zero-load Booksim | keiro plateau / max | Booksim plateau / max | keiro sat. load | Booksim sat. load | notes |')
print('|---|---|---|---|---|---|---|---|---|')
for r in rows:
    print(r)
print()
print('Speed: uniform traffic at load 0.15, flits (packets) delivered per second of user CPU time')
print('(delivered: accepted rate x 64 nodes x cycles run, warm-up included); keiro')
print('3,000 + 100,000 cycles, Booksim samples of 10,000 cycles until it converges:')
print()
print('| network | keiro | keiro run | Booksim | Booksim run |')
print('|---|---|---|---|---|')
for s in speed:
    print(s)
EOF
cat "$work/table.md"
if [ "$doc" = 1 ]; then
  python3 - "$src/docs/simulation.md" "$work/table.md" <<'EOF'
import sys
doc, table = sys.argv[1], open(sys.argv[2]).read()
b, e = '<!-- sim-vs-booksim:begin -->', '<!-- sim-vs-booksim:end -->'
t = open(doc).read()
if b not in t or e not in t:
    sys.exit('sim-vs-booksim.sh: the markers are missing from ' + doc)
t = t[:t.index(b) + len(b)] + '\n' + table + t[t.index(e):]
open(doc, 'w').write(t)
EOF
  echo "sim-vs-booksim.sh: table written into docs/simulation.md" >&2
fi
