#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro topo convert, offline (no ibsim, no OpenSM): any file keiro reads,
# written as an ibsim net file that keiro reads back as the same fabric.
#  - the two real fabrics of tests/data/real/: avakas-12800.ibnd (an
#    `ibnetdiscover -p` ports report) and psmn-x5.topo (ibnetdiscover's
#    default output). `keiro topo show` of the input and of the net file print
#    the same lines; the net file holds the records the fabric has (counted
#    here from the published figures: 25 switches and 281 CAs, 288 links;
#    11 switches and 89 CAs, 70 links), one switch and one CA written as the
#    input file describes them (GUIDs, LIDs, ports, description), the ports
#    report's CA port GUIDs (node GUID = port GUID) as "[p](guid)" and
#    psmn-x5's (node GUID + 1, what ibsim gives) without; standard output
#    holds the same text as -o; converting the net file again gives the same
#    records;
#  - small files written here: a net file with a dual-port HCA and an HCA
#    linked on port 2 only (one record of 2 ports each), a ports report whose
#    CA is linked on port 2 (a record of 2 ports, its port GUID written);
#  - a file that cannot be read (missing) exits 1 with one line naming it and
#    writes no output file; a fabric a net file cannot carry (a router, whose
#    LID ibsim does not read) exits 1 with one line; no FILE, or an unknown
#    option, exits 2.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
real=$KEIRO_SRCDIR/tests/data/real

# expect_rc WANT NAME CMD...: runs CMD, stdout in $IT_DIR/NAME.out, stderr in
# $IT_DIR/NAME.err.
expect_rc() {
  local want=$1 name=$2
  shift 2
  "$@" >"$IT_DIR/$name.out" 2>"$IT_DIR/$name.err"
  local rc=$?
  [ $rc -eq "$want" ] || it_fail "$name: exit $rc, want $want: $(tail -n 3 "$IT_DIR/$name.err")"
}

# has FILE LINE: FILE has LINE as a whole line.
has() { grep -qxF -- "$2" "$1" || it_fail "$(basename "$1") lacks the line: $2"; }

# count FILE ERE WANT: lines of FILE matching ERE.
count() {
  local n
  n=$(grep -cE -- "$2" "$1")
  [ "$n" -eq "$3" ] || it_fail "$(basename "$1"): $n lines match '$2', want $3"
}

# same_fabric TAG INPUT: converts INPUT to $IT_DIR/TAG.net; keiro topo show
# of both must print the same. Returns 1 when there is no net file to look at.
same_fabric() {
  local tag=$1 in=$2
  expect_rc 0 "$tag-convert" "$IT_KEIRO" topo convert "$in" -o "$IT_DIR/$tag.net"
  [ -s "$IT_DIR/$tag.net" ] || { it_fail "$tag: no net file written"; return 1; }
  expect_rc 0 "$tag-show-in" "$IT_KEIRO" topo show "$in"
  expect_rc 0 "$tag-show-net" "$IT_KEIRO" topo show "$IT_DIR/$tag.net"
  [ -s "$IT_DIR/$tag-show-in.out" ] || it_fail "$tag: keiro topo show printed nothing"
  diff -u "$IT_DIR/$tag-show-in.out" "$IT_DIR/$tag-show-net.out" >"$IT_DIR/$tag.diff" ||
    { it_fail "$tag: keiro topo show of the input and of the net file differ:"; head -n 10 "$IT_DIR/$tag.diff"; }
}

# avakas_records NET: the records of the converted avakas-12800.ibnd.
avakas_records() {
  local net=$1
  count "$net" '^Switch 36 "S-[0-9a-f]{16}" # "' 25
  count "$net" '^Hca 1 "H-[0-9a-f]{16}" # "' 281
  count "$net" '^\[[0-9]+\] "S-' $((2 * 288))
  count "$net" '^\[1\]\([0-9a-f]+\) "S-[0-9a-f]{16}"\[[0-9]+\] lid [0-9]+$' 281
  # From the file's line "CA 182 1 0x001175000077d284 4x QDR - SW 18 18
  # 0x00066a00ec002dd9 ( 'node179 HCA-1' - 'QLogic 12800-180 GUID=... L112' )".
  has "$net" 'switchguid=0x00066a00ec002dd9'
  has "$net" 'Switch 36 "S-00066a00ec002dd9" # "QLogic 12800-180 GUID=0x00066a00e8001310 L112" lid 18'
  has "$net" '[18] "H-001175000077d284"[1]'
  has "$net" 'caguid=0x001175000077d284'
  has "$net" 'Hca 1 "H-001175000077d284" # "node179 HCA-1"'
  has "$net" '[1](1175000077d284) "S-00066a00ec002dd9"[18] lid 182'
  has "$IT_DIR/avakas-show-net.out" \
    'ca 0x001175000077d284 node 0x001175000077d284 port 1 lid 182 at 0x00066a00ec002dd9[18] "node179 HCA-1"'
  grep -q '^# ibsim limits: ibsim -s -n -N 2048 -S 256 -P 13312 FILE$' "$net" ||
    it_fail "avakas.net does not name the ibsim limits"
  # Standard output without -o: the same text.
  expect_rc 0 avakas-stdout "$IT_KEIRO" topo convert "$real/avakas-12800.ibnd"
  cmp -s "$IT_DIR/avakas-stdout.out" "$net" || it_fail "convert to standard output differs from -o"
}

# psmn_records NET: the records of the converted psmn-x5.topo.
psmn_records() {
  local net=$1
  count "$net" '^Switch 36 "S-[0-9a-f]{16}" # "' 11
  count "$net" '^Hca 1 "H-[0-9a-f]{16}" # "' 89
  count "$net" '^\[[0-9]+\] "S-' $((2 * 70 + 89))
  count "$net" '\(' 0
  has "$net" 'Switch 36 "S-0008f10500200b50" # "Voltaire 4036 - 36 QDR ports switch" lid 9'
  has "$net" '[1] "S-0008f10500108c5c"[15]'
  has "$net" 'caguid=0x003048c749cd0000'
  has "$net" '[1] "S-0008f10500200b50"[4] lid 72'
  # The net file converted again: the same records (the notes name the input).
  expect_rc 0 psmn-again "$IT_KEIRO" topo convert "$net" -o "$IT_DIR/psmn-again.net"
  cmp -s <(grep -v '^#' "$net") <(grep -v '^#' "$IT_DIR/psmn-again.net") ||
    it_fail "psmn-x5 converted twice gives other records"
}

# ---- the real fabrics ----
same_fabric avakas "$real/avakas-12800.ibnd" && avakas_records "$IT_DIR/avakas.net"
same_fabric psmn "$real/psmn-x5.topo" && psmn_records "$IT_DIR/psmn.net"

# ---- CA nodes of several end ports, and a CA port other than 1 ----
# A net file with a dual-port HCA and an HCA linked on port 2 only: one Hca 2
# record each, port GUIDs node + p as ibsim gives them (no "(guid)").
printf '%s\n' 'switchguid=0x100' 'Switch 4 "S1" # "sw one" lid 1' '[2] "H1"[1]' '[3] "H1"[2]' \
  '[4] "H2"[2]' '' 'caguid=0x200' 'Hca 2 "H1" # "dual hca"' '[1] "S1"[2]' '[2] "S1"[3]' '' \
  'Hca 2 "H2" # "second port only"' '[2] "S1"[4]' >"$IT_DIR/dual-in.net"
if same_fabric dual "$IT_DIR/dual-in.net"; then
  count "$IT_DIR/dual.net" '^Hca ' 2
  has "$IT_DIR/dual.net" 'Hca 2 "H-0000000000000200" # "dual hca"'
  has "$IT_DIR/dual.net" '[2] "S-0000000000000100"[3] lid 3'
  has "$IT_DIR/dual.net" 'caguid=0x0000000000000203'
  has "$IT_DIR/dual.net" '[2] "S-0000000000000100"[4] lid 4'
  has "$IT_DIR/dual-show-net.out" \
    'ca 0x0000000000000205 node 0x0000000000000203 port 2 lid 4 at 0x0000000000000100[4] "second port only"'
fi
# A ports report whose CA is linked on its port 2: node GUID = port GUID, so
# the port GUID is written as "(guid)".
printf '%s\n' \
  "SW     1  1 0x0000000000000100 4x QDR - CA     2  2 0x0000000000000a02 ( 'sw one' - 'hca two' )" \
  "SW     1  2 0x0000000000000100 4x QDR 'sw one'" \
  "CA     2  2 0x0000000000000a02 4x QDR - SW     1  1 0x0000000000000100 ( 'hca two' - 'sw one' )" \
  >"$IT_DIR/port2.ibnd"
if same_fabric port2 "$IT_DIR/port2.ibnd"; then
  has "$IT_DIR/port2.net" 'Switch 2 "S-0000000000000100" # "sw one" lid 1'
  has "$IT_DIR/port2.net" 'Hca 2 "H-0000000000000a02" # "hca two"'
  has "$IT_DIR/port2.net" '[2](a02) "S-0000000000000100"[1] lid 2'
fi

# ---- bad input ----
expect_rc 1 missing "$IT_KEIRO" topo convert "$IT_DIR/no-such.ibnd" -o "$IT_DIR/missing.net"
[ "$(wc -l <"$IT_DIR/missing.err")" -eq 1 ] || it_fail "missing file: stderr has $(wc -l <"$IT_DIR/missing.err") lines, want 1"
grep -qxF "keiro topo: $IT_DIR/no-such.ibnd: cannot open" "$IT_DIR/missing.err" ||
  it_fail "missing file: stderr says '$(cat "$IT_DIR/missing.err")'"
[ ! -s "$IT_DIR/missing.out" ] || it_fail "missing file: something on standard output"
[ ! -e "$IT_DIR/missing.net" ] || it_fail "missing file: an output file was written"
printf '%s\n' 'switchguid=0x10' 'Switch 4 "S1" # "sw" lid 1' '[1] "R1"[1]' '' \
  'rtguid=0x20' 'Rt 1 "R1" # "router"' '[1] "S1"[1]' >"$IT_DIR/router.net"
expect_rc 1 router "$IT_KEIRO" topo convert "$IT_DIR/router.net" -o "$IT_DIR/router-out.net"
[ "$(wc -l <"$IT_DIR/router.err")" -eq 1 ] && grep -q 'router' "$IT_DIR/router.err" ||
  it_fail "router: stderr says '$(cat "$IT_DIR/router.err")'"
[ ! -e "$IT_DIR/router-out.net" ] || it_fail "router: an output file was written"
expect_rc 2 no-file "$IT_KEIRO" topo convert
expect_rc 2 bad-option "$IT_KEIRO" topo convert "$real/psmn-x5.topo" --no-such-option
"$IT_KEIRO" topo --help | grep -qxF 'usage: keiro topo convert FILE [-o NET]' ||
  it_fail "keiro topo --help lacks the convert usage"
it_done
