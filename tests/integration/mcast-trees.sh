#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro's multicast trees through the real OpenSM (docs/multicast.md): on a
# 4x4x4 torus with 2 HCAs per switch, every CA port joins the IPoIB
# broadcast group and 4 groups get 8-16 members (scripts/mcast-survey.sh,
# through the SA with tests/harness/sa_mcast). Then, per keiro engine:
#  - every group's installed tables (opensm.mcfdbs, members and SLs from
#    opensm-sa.dump) are a loop-free tree reaching each member once, and
#    unicast and multicast together have no credit loop: `keiro check DIR`
#    exits 0 with 5 groups ok, and the independent oracle
#    (tests/oracle/oracle.py) agrees;
#  - the same run with mcast_trees=0 (OpenSM's own builder over keiro's hop
#    rows, the defect keiro's trees fix) installs forwarding loops: keiro
#    check exits 1 and counts them, and the oracle agrees.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
[ -x "$KEIRO_BUILDDIR/tests/harness/sa_mcast" ] || { echo "FAIL: tests/harness/sa_mcast not built"; exit 99; }
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
net="$IT_DIR/t444.net"
"$IT_KEIRO" topo torus 4x4x4 --hcas-per-switch 2 -o "$net" >/dev/null || { it_fail "keiro topo"; it_done; }
oracle="$KEIRO_SRCDIR/tests/oracle/oracle.py"

# mcast_field DIR KEY: a field of keiro check's "mcast" object.
mcast_field() { "$IT_KEIRO" check "$1" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['mcast']['$2'])"; }

# judge TAG DIR WANT: WANT "ok" (every group sound, exit 0) or "loops".
judge() {
  local tag=$1 dir=$2 want=$3 rc groups ok loops orc
  "$IT_KEIRO" check "$dir" >"$dir/../check.txt" 2>&1
  rc=$?
  groups=$(mcast_field "$dir" groups) ok=$(mcast_field "$dir" groups_ok) loops=$(mcast_field "$dir" loops)
  python3 "$oracle" "$dir" --json >"$dir/../oracle.json" 2>&1
  orc=$?
  it_log "$tag: keiro check exit $rc, $ok of $groups groups sound, $loops with a loop; oracle exit $orc"
  [ "$groups" -ge 5 ] || it_fail "$tag: expected the 5 groups (and the harness's fence group), got $groups"
  if [ "$want" = ok ]; then
    [ "$rc" = 0 ] && [ "$ok" = "$groups" ] && [ "$loops" = 0 ] || it_fail "$tag: keiro check: $(grep -m3 -A3 'problems' "$dir/../check.txt")"
    [ "$orc" = 0 ] || it_fail "$tag: the oracle disagrees: $(head -c 400 "$dir/../oracle.json")"
  else
    [ "$rc" = 1 ] && [ "$loops" -ge 1 ] || it_fail "$tag: keiro check finds no forwarding loop (exit $rc, $loops loops)"
    [ "$orc" = 1 ] || it_fail "$tag: the oracle finds nothing wrong (exit $orc)"
  fi
}

for e in keiro-nue keiro-acro keiro-dl; do
  if "$KEIRO_SRCDIR/scripts/mcast-survey.sh" -t "$net" -o "$IT_DIR/own" -b "$KEIRO_BUILDDIR" "$e" \
       >"$IT_DIR/own-$e.txt" 2>&1; then
    judge "$e" "$IT_DIR/own/$e/dumps" ok
    grep -q "ERR KE" "$IT_DIR/own/$e/run/opensm.log" && it_fail "$e: keiro ERROR lines: $(grep -m2 'ERR KE' "$IT_DIR/own/$e/run/opensm.log")"
  else
    it_fail "$e: survey run failed: $(tail -n 3 "$IT_DIR/own-$e.txt")"
  fi
done
if "$KEIRO_SRCDIR/scripts/mcast-survey.sh" -t "$net" -o "$IT_DIR/osm" -b "$KEIRO_BUILDDIR" \
     -p mcast_trees=0 keiro-nue >"$IT_DIR/osm.txt" 2>&1; then
  judge "keiro-nue, mcast_trees=0" "$IT_DIR/osm/keiro-nue/dumps" loops
else
  it_fail "mcast_trees=0 run failed: $(tail -n 3 "$IT_DIR/osm.txt")"
fi
it_done
