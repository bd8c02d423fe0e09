#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Multicast survey: for each engine, one fabric through ibsim + the real
# OpenSM; every CA port joins the IPoIB broadcast group of the default
# partition (ff12:401b:ffff::ffff:ffff, which OpenSM 3.3.23 creates itself
# without a partitions.conf) and 4 more groups get 8-16 members each (a
# seeded choice, the same for every engine); once OpenSM has built the trees
# (kh_mcast_settle), the dump directory is copied to OUT/<engine>/ and the
# multicast tables are judged. One line per engine: groups, groups whose
# tables are a loop-free tree reaching every member, groups with a loop.
#
# usage: mcast-survey.sh -t NETFILE -o OUT [options] [ENGINE...]
#   ENGINE        keiro-nue, keiro-acro, keiro-dl, ... (through the plugin) or
#                 an OpenSM engine: minhop updn dfsssp nue lash torus-2QoS ...
#                 (default: keiro-nue keiro-acro keiro-dl minhop updn dfsssp
#                 nue lash torus-2QoS)
#   -p 'k=v ...'  more event_plugin_options for the keiro engines, e.g.
#                 -p mcast_trees=0 (OpenSM's own tree builder over keiro's tables)
#   -k VLS        VL cap: keiro max_vls=VLS, OpenSM nue_max_num_vls (default 4)
#   -S SEED       seed of the group choice (default 1)
#   -w SECONDS    SUBNET UP timeout per run (default 300)
#   -b BUILDDIR   build tree (default: $KEIRO_BUILDDIR, else build/ next to
#                 this script)
# torus-2QoS needs a torus-2QoS.conf: written for net files made by `keiro
# topo torus` (from the coordinates in their comments); on other fabrics
# torus-2QoS is skipped with a note.
# Files in OUT/<engine>/: the dump directory (opensm-lfts.dump,
# opensm-sl2vl.dump, opensm-subnet.lst, opensm.mcfdbs, opensm-sa.dump,
# keiro-path-sl.dump for keiro engines), sa-path-sl.dump (the SA's path SLs,
# OpenSM engines), joins.txt / joins.out (sa_mcast's commands and answers),
# verdict.txt (per group), run/ (the harness run: opensm.conf, opensm.log).
# Exit: 0 every run came up and was judged, 1 some did not, 2 usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
. "$src/tests/harness/lib.sh"

net= out= popts= vls=4 seed=1 wait_s=300
build=${KEIRO_BUILDDIR:-$src/build}
while getopts "t:o:p:k:S:w:b:h" opt; do
  case $opt in
    t) net=$OPTARG ;;
    o) out=$OPTARG ;;
    p) popts=$OPTARG ;;
    k) vls=$OPTARG ;;
    S) seed=$OPTARG ;;
    w) wait_s=$OPTARG ;;
    b) build=$OPTARG ;;
    *) kh_usage "$0" Exit: ;;
  esac
done
shift $((OPTIND - 1))
[ -n "$net" ] && [ -n "$out" ] || kh_usage "$0" Exit:
engines=("$@")
[ ${#engines[@]} -gt 0 ] ||
  engines=(keiro-nue keiro-acro keiro-dl minhop updn dfsssp nue lash torus-2QoS)
case $net in /*) ;; *) net="$PWD/$net" ;; esac
build=$(cd "$build" && pwd) || exit 2
export KEIRO_BUILDDIR=$build
KH_BUILDDIR=$build
[ -x "$build/tests/harness/sa_mcast" ] || { echo "mcast-survey: no $build/tests/harness/sa_mcast (make)" >&2; exit 2; }
kh_prereq || exit 1
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2

# survey_verdict DIR: judges the multicast tables of one settled dump
# directory (opensm.mcfdbs, opensm-sa.dump, opensm-subnet.lst) and prints
# "GROUPS OK LOOPS": groups with members, groups whose tables form a
# loop-free tree that delivers a packet from every member to every other
# member exactly once, groups where some member's packet comes back to a
# switch it already passed (a forwarding loop: a storm). Per-group lines go
# to DIR/verdict.txt. Groups named by MGID in $SURVEY_SKIP_MGIDS (the
# harness's fence group) are left out. A stand-in, kept in this one function
# so that keiro check's "mcast" verdict or tests/oracle/oracle.py can
# replace it.
survey_verdict() {
  python3 - "$1" "${SURVEY_SKIP_MGIDS:-}" <<'EOF'
import collections, ipaddress, re, sys
d, skip = sys.argv[1], {ipaddress.IPv6Address(m).packed for m in sys.argv[2].split()}
# Links: (node GUID, port) <-> (node GUID, port); which nodes are switches;
# CA port GUID -> (node GUID, port).
link, switch, ca = {}, set(), {}
end = re.compile(r"\{ (\S+) .*?NodeGUID:([0-9a-fA-F]+) PortGUID:([0-9a-fA-F]+) .*?PN:([0-9a-fA-F]+) \}")
for line in open(d + "/opensm-subnet.lst"):
    ends = end.findall(line)
    if len(ends) != 2:
        continue
    (t1, n1, g1, p1), (t2, n2, g2, p2) = ends
    a, b = (int(n1, 16), int(p1, 16)), (int(n2, 16), int(p2, 16))
    link[a], link[b] = b, a
    for t, n, g, p in ends:
        if t.startswith("SW"):
            switch.add(int(n, 16))
        else:
            ca[int(g, 16)] = (int(n, 16), int(p, 16))
# Multicast tables: switch -> MLID -> ports.
mft, cur = collections.defaultdict(dict), None
for line in open(d + "/opensm.mcfdbs"):
    m = re.match(r"Switch (0x[0-9a-fA-F]+)", line)
    if m:
        cur = int(m.group(1), 16)
        continue
    m = re.match(r"(0x[0-9A-Fa-f]+) :(.*)", line)
    if m and cur is not None:
        mft[cur][int(m.group(1), 16)] = {int(x, 16) for x in m.group(2).split()}
# Groups: MLID, MGID, members (port GUIDs).
groups, g = [], None
for line in open(d + "/opensm-sa.dump"):
    m = re.match(r"MC Group (0x[0-9a-fA-F]+).*mgid=0x([0-9a-f]+):0x([0-9a-f]+)", line)
    if m:
        g = {"mlid": int(m.group(1), 16), "mgid": bytes.fromhex(m.group(2) + m.group(3)), "members": set()}
        groups.append(g)
        continue
    m = re.match(r"mcm_port: port_gid=0x[0-9a-f]+:0x([0-9a-f]+)", line)
    if m and g is not None:
        g["members"].add(int(m.group(1), 16))
    elif not line.strip() == "" and not line.startswith("mcm_port"):
        g = None
ca_at = {e: x for x, e in ca.items()}
total = ok = loops = 0
with open(d + "/verdict.txt", "w") as rep:
    for g in groups:
        if not g["members"] or g["mgid"] in skip:
            continue
        total += 1
        mlid, members = g["mlid"], g["members"]
        looped, missed, dup = False, set(), 0
        for src in sorted(members):
            if src not in ca or ca[src] not in link:
                missed.add(src)
                continue
            seen, got = set(), collections.Counter()
            todo = [link[ca[src]]]
            while todo:
                sw, inp = todo.pop()
                if sw in seen:
                    looped = True
                    continue
                seen.add(sw)
                for p in mft.get(sw, {}).get(mlid, ()):
                    if p == inp or p == 0 or (sw, p) not in link:
                        continue
                    nxt = link[(sw, p)]
                    if nxt[0] in switch:
                        todo.append(nxt)
                    else:
                        got[ca_at.get(nxt)] += 1
            dup += sum(c - 1 for c in got.values() if c > 1)
            missed |= {m for m in members if m != src and not got[m]}
        good = not looped and not missed and not dup
        ok += good
        loops += looped
        rep.write("mlid 0x%04x mgid %s members %d: %s\n" % (
            mlid, ipaddress.IPv6Address(g["mgid"]), len(members),
            "loop-free tree" if good else ", ".join(
                x for x in ("LOOP" if looped else "",
                            "%d members not reached" % len(missed) if missed else "",
                            "%d duplicate deliveries" % dup if dup else "") if x)))
print(total, ok, loops)
EOF
}

# torus_conf NET CONF: a torus-2QoS.conf for a `keiro topo torus` net file
# (coordinates in the switches' comments): the torus size and a seed switch
# with its links in every + direction (and - for radix 4 dimensions, which
# torus-2QoS.conf(5) asks for). Fails on other net files.
torus_conf() {
  python3 - "$1" "$2" <<'EOF'
import re, sys
coords, guid, nbrs, g, name = {}, {}, {}, None, None
for line in open(sys.argv[1]):
    m = re.match(r"switchguid=(0x[0-9a-fA-F]+)", line)
    if m:
        g = m.group(1)
    m = re.match(r'Switch \d+ "([^"]+)" # "torus ([0-9,]+)"', line)
    if m:
        name = m.group(1)
        coords[name] = tuple(int(c) for c in m.group(2).split(","))
        guid[name], nbrs[name] = g, set()
        continue
    m = re.match(r'\s*\[\d+\]\s+"([^"]+)"', line)
    if m and name:
        nbrs[name].add(m.group(1))
if not coords:
    sys.exit("not a keiro topo torus net file")
dims = [max(c[i] for c in coords.values()) + 1 for i in range(len(next(iter(coords.values()))))]
at = {c: n for n, c in coords.items()}
for n in sorted(coords, key=lambda x: coords[x]):
    want = []
    for i, k in enumerate(dims):
        for step, tag in ((1, "p"), (-1, "m")):
            if tag == "m" and k != 4:
                continue
            c = list(coords[n])
            c[i] = (c[i] + step) % k
            want.append(("xyz"[i] + tag, at[tuple(c)]))
    if all(x in nbrs[n] for _, x in want):
        with open(sys.argv[2], "w") as f:
            f.write("torus %s\n" % " ".join(map(str, dims)))
            for tag, x in want:
                f.write("%s_link %s %s\n" % (tag, guid[n], guid[x]))
        sys.exit(0)
sys.exit("no switch with all its torus links")
EOF
}

# The joins, the same for every engine: every CA port into the broadcast
# group, then 4 groups (2 IPv4-style, 2 IPv6 solicited-node style) of 8 to
# 16 ports drawn with the seed.
make_joins() {
  kh_ca_ports | python3 -c '
import random, sys
seed = int(sys.argv[1])
ports = [l.split()[0] for l in sys.stdin if l.strip()]
rng = random.Random(seed)
for p in ports:
    print("join ff12:401b:ffff::ffff:ffff", p)
mgids = ["ff12:401b:ffff::1", "ff12:401b:ffff::2",
         "ff12:601b:ffff::1:ff00:1", "ff12:601b:ffff::1:ff00:2"]
for m in mgids:
    for p in sorted(rng.sample(ports, min(len(ports), rng.randint(8, 16)))):
        print("join", m, p)
' "$seed"
}

export SURVEY_SKIP_MGIDS=$KH_MCAST_FENCE_MGID
tconf=
failed=0
rows=()
for e in "${engines[@]}"; do
  dir=$out/$e
  rm -rf "$dir"
  mkdir -p "$dir"
  args=(mcast=yes "engines=$e")
  note=
  case $e in
    keiro-*) args+=("plugin_options=max_vls=$vls${popts:+ $popts}") ;;
    torus-2QoS)
      if [ -z "$tconf" ]; then
        tconf=$out/torus-2QoS.conf
        torus_conf "$net" "$tconf" 2>"$out/torus-2QoS.err" || tconf=none
      fi
      if [ "$tconf" = none ]; then
        rows+=("$(printf '%-12s %-18s %6s %9s %6s  %s' "$e" - - - - "skipped: $(tail -n 1 "$out/torus-2QoS.err")")")
        continue
      fi
      args+=(plugin=no max_op_vls=8 "torus_config=$tconf") ;;
    dfsssp | nue | lash) args+=(plugin=no "nue_max_num_vls=$vls") ;;
    updn)
      # Up*/down* finds no root on a torus or random fabric by itself (it
      # then falls back to minhop): the net file's first switch is the root.
      awk -F= '/^switchguid=/ { print $2; exit }' "$net" >"$out/updn-roots.txt"
      args+=(plugin=no "root_guid_file=$out/updn-roots.txt") ;;
    *) args+=(plugin=no) ;;
  esac
  echo "mcast-survey: $e ..." >&2
  (
    kh_init "$dir/run" || exit 1
    trap kh_stop EXIT
    kh_write_conf "$KH_DIR/opensm.conf" "${args[@]}"
    kh_start_ibsim "$net" || exit 1
    kh_start_opensm "$KH_DIR/opensm.conf" || exit 1
    kh_wait_up "$wait_s" || exit 1
    make_joins >"$dir/joins.txt"
    kh_mcast_join_file "$dir/joins.txt" "$dir/joins.out" ||
      { kh_fail "$e: the SA refused $(grep -c '^ERR' "$dir/joins.out") joins"; exit 1; }
    kh_mcast_settle 60 || exit 1
    kh_mcast_snapshot "$dir/dumps" || exit 1
    case $e in
      keiro-*) ;;
      *) kh_sa_sls "$dir/sa-path-sl.dump" || exit 1 ;;
    esac
    kh_installed_engine "$KH_DIR/opensm.log" >"$dir/installed.txt"
    exit 0
  ) >"$dir/harness.txt" 2>&1
  if [ $? -ne 0 ]; then
    failed=1
    rows+=("$(printf '%-12s %-18s %6s %9s %6s  %s' "$e" - - - - "FAILED: $(grep -v '^ibwarn' "$dir/harness.txt" | grep -m1 harness: )")")
    continue
  fi
  installed=$(cat "$dir/installed.txt")
  [ "$installed" = "$e" ] || note="fell back to ${installed:-nothing}"
  read -r groups okg loops < <(survey_verdict "$dir/dumps")
  cp "$dir/dumps/verdict.txt" "$dir/verdict.txt" 2>/dev/null
  rows+=("$(printf '%-12s %-18s %6s %9s %6s  %s' "$e" "${installed:--}" "$groups" "$okg" "$loops" "$note")")
done

echo "mcast-survey: $(basename "$net"), seed $seed${popts:+, plugin options '$popts'}; groups: the broadcast group (every CA port) and 4 of 8-16 ports"
printf '%-12s %-18s %6s %9s %6s  %s\n' engine installed groups loop-free looped note
printf '%s\n' "${rows[@]}"
exit $failed
