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
kh_options "t=net o=out p=popts k=vls S=seed w=wait_s b=build" 'kh_usage "$0" Exit:' "$@"
shift "$KH_SHIFT"
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

# survey_verdict DIR [SLS]: judges the multicast tables of one settled dump
# directory and prints "GROUPS OK LOOPS [DISAGREE ...]": groups with members,
# groups whose tables form a loop-free tree reaching every member once
# (keiro check's per-group verdict; credit loops are the checkers' overall
# verdict, in DIR/check.json and DIR/oracle.json), groups with a forwarding
# loop. The verdicts come from `keiro check DIR
# --json` and from the independent oracle (tests/oracle/oracle.py); a group
# on which they disagree is named after DISAGREE. Per-group lines go to
# DIR/verdict.txt. Groups named by MGID in $SURVEY_SKIP_MGIDS (the harness's
# fence group) are left out. SLS: the path-SL file for engines without
# keiro-path-sl.dump.
survey_verdict() {
  local d=$1 sls=${2:-}
  "$build/keiro" check "$d" --json ${sls:+--sls "$sls"} >"$d/check.json" 2>"$d/check.err"
  python3 "$src/tests/oracle/oracle.py" "$d" --json ${sls:+--sls "$sls"} >"$d/oracle.json" 2>"$d/oracle.err"
  python3 - "$d" "${SURVEY_SKIP_MGIDS:-}" <<'EOF'
import ipaddress, json, re, sys
d, skip = sys.argv[1], {ipaddress.IPv6Address(m).packed for m in sys.argv[2].split()}
skip_mlids = set()
try:
    for line in open(d + "/opensm-sa.dump"):
        m = re.match(r"MC Group .*? mgid=0x([0-9a-fA-F]+):0x([0-9a-fA-F]+) .*? mlid=0x([0-9a-fA-F]+)", line)
        if m and (int(m.group(1), 16) << 64 | int(m.group(2), 16)).to_bytes(16, "big") in skip:
            skip_mlids.add(int(m.group(3), 16))
except OSError:
    pass
def load(name):
    try:
        return json.load(open(d + "/" + name)).get("mcast")
    except (OSError, ValueError, AttributeError):
        return None
k, o = load("check.json"), load("oracle.json")
if k is None or o is None:
    print("0 0 0 DISAGREE (no verdict from %s)" % ("keiro check" if k is None else "the oracle"))
    sys.exit(0)
kv = {int(g["mlid"], 16): g for g in k["group_verdicts"]}
ov = {g["mlid"]: g for g in o["per_group"]}
groups = ok = loops = 0
bad = []
with open(d + "/verdict.txt", "w") as out:
    for mlid in sorted(set(kv) | set(ov)):
        if mlid in skip_mlids:
            continue
        a, b = kv.get(mlid), ov.get(mlid)
        agree = a is not None and b is not None and a["ok"] == b["ok"] and a["loop"] == b["loop"]
        if not agree:
            bad.append("0x%04X" % mlid)
        groups += 1
        ok += bool(a and a["ok"])
        loops += bool(a and a["loop"])
        out.write("0x%04X keiro-check %s oracle %s%s\n" % (mlid, "ok" if a and a["ok"] else "FAIL",
                  "ok" if b and b["ok"] else "FAIL", "" if agree else " DISAGREE"))
# Credit loops: unicast and multicast together (both checkers' overall verdict).
kc = bool(json.load(open(d + "/check.json"))["check"]["credit_loop"])
oc = bool(json.load(open(d + "/oracle.json"))["credit_loop"]) or bool(o["credit_loop"])
if kc != oc:
    bad.append("credit-loop")
print(groups, ok, loops, "yes" if kc else "no", ("DISAGREE on " + " ".join(bad)) if bad else "")
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
        rows+=("$(printf '%-12s %-18s %6s %9s %6s %12s  %s' "$e" - - - - - "skipped: $(tail -n 1 "$out/torus-2QoS.err")")")
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
    rows+=("$(printf '%-12s %-18s %6s %9s %6s %12s  %s' "$e" - - - - - "FAILED: $(grep -v '^ibwarn' "$dir/harness.txt" | grep -m1 harness: )")")
    continue
  fi
  installed=$(cat "$dir/installed.txt")
  [ "$installed" = "$e" ] || note="fell back to ${installed:-nothing}"
  sls=
  [ -f "$dir/sa-path-sl.dump" ] && sls="$dir/sa-path-sl.dump"
  read -r groups okg loops cloop disagree < <(survey_verdict "$dir/dumps" "$sls")
  [ -n "$disagree" ] && { note="$note $disagree"; failed=1; }
  cp "$dir/dumps/verdict.txt" "$dir/verdict.txt" 2>/dev/null
  rows+=("$(printf '%-12s %-18s %6s %9s %6s %12s  %s' "$e" "${installed:--}" "$groups" "$okg" "$loops" "$cloop" "$note")")
done

echo "mcast-survey: $(basename "$net"), seed $seed${popts:+, plugin options '$popts'}; groups: the broadcast group (every CA port) and 4 of 8-16 ports"
printf '%-12s %-18s %6s %9s %6s %12s  %s\n' engine installed groups loop-free looped credit-loop note
printf '%s\n' "${rows[@]}"
exit $failed
