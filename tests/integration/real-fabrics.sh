#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The real fabrics of tests/data/real/ (ibnetdiscover outputs of real
# clusters) through ibsim and the real OpenSM with keiro loaded. ibsim reads
# the *.topo files (ibnetdiscover's default output) as they were published;
# every other file (the *.ibnd ports reports of `ibnetdiscover -p`, which
# ibsim cannot read) is first converted with `keiro topo convert`, which must
# read back as the same fabric (`keiro topo show` of both, compared). Then:
#  - the fabric OpenSM discovered (its opensm-subnet.lst) is the one keiro
#    reads offline from the published file: the same switches, links, end
#    ports, GUIDs, port numbers and LIDs (`keiro topo show` of both,
#    compared), except that ibsim gives a CA's port p the GUID node GUID + p
#    whatever the file says: a ports report's CA port, which keiro reads as
#    a node of its own port GUID G, comes up as port G + p of node G;
#  - keiro-nue, keiro-acro and keiro-dl (max_vls=8, QoS on) each get their
#    tables installed with no keiro error, and the installed LFTs, SL2VL
#    tables and the SA's SLs for every pair pass keiro check (and the
#    independent oracle agrees);
#  - keiro-loren, without a layout file, logs one ERROR asking for one and
#    OpenSM falls back to updn, the next engine of routing_engine;
#  - a generated director fabric of 214 switches (`keiro topo director 3 52
#    --relabel 1`) is found as read offline and keiro-dl's tables pass.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim

# installed_and_checked TAG NET ENGINE: one OpenSM run with ENGINE (updn
# behind it); the fabric OpenSM found must be $IT_DIR/TAG.offline.txt, the
# engine's tables installed without a keiro error and passing keiro check.
installed_and_checked() {
  local tag=$1 net=$2 e=$3 summary
  if ! it_run "$tag-$e" "$net" -s -e "$e,updn" -p "max_vls=8" -w 300; then
    it_fail "$tag $e: no SUBNET UP (or SA queries failed)"
    return
  fi
  it_expect_log "$e tables configured on all switches" 1 || return
  it_expect_log 'keiro: ERR' 0 || { grep 'keiro: ERR' "$IT_OUT/opensm.log" | head -3; return; }
  it_no_osm_errors
  "$IT_KEIRO" topo show "$IT_OUT/dumps/opensm-subnet.lst" >"$IT_OUT/opensm.txt" 2>/dev/null ||
    { it_fail "$tag $e: keiro cannot read OpenSM's opensm-subnet.lst"; return; }
  if ! diff -u "$IT_DIR/$tag.offline.txt" "$IT_OUT/opensm.txt" >"$IT_OUT/diff.txt"; then
    it_fail "$tag $e: the fabric OpenSM found differs from the file read offline:"
    head -n 20 "$IT_OUT/diff.txt"
    return
  fi
  it_check_installed --lmc 0 --vls 8 || return
  summary=$(kh_summary_line "$IT_OUT/opensm.log" "$e" | sed "s/.*$e: //")
  it_log "$tag $e: installed and checked ($summary)"
}

# ibsim_view: `keiro topo show` lines (stdin) as OpenSM sees that fabric on
# ibsim, which gives a CA's port p the GUID node + p and ignores the
# "[p](guid)" of ibnetdiscover's output (keiro reads it); sorted again.
ibsim_view() {
  local line node pn rest
  while IFS= read -r line; do
    case $line in
      "ca "*)
        read -r _ _ _ node _ pn rest <<<"$line"
        printf 'ca 0x%016x node %s port %s %s\n' $((node + pn)) "$node" "$pn" "$rest" ;;
      *) printf '%s\n' "$line" ;;
    esac
  done | LC_ALL=C sort
}

# offline TAG FILE: what keiro reads from FILE, as ibsim presents it, for the
# comparison above.
offline() {
  "$IT_KEIRO" topo show "$2" >"$IT_DIR/$1.offline.keiro" 2>"$IT_DIR/$1.offline.err" ||
    { it_fail "$1: keiro cannot read $2: $(cat "$IT_DIR/$1.offline.err")"; return 1; }
  ibsim_view <"$IT_DIR/$1.offline.keiro" >"$IT_DIR/$1.offline.txt"
}

# real_fabric TAG FILE NET: the published FILE, brought up on ibsim as NET
# (FILE itself, or its conversion).
real_fabric() {
  local tag=$1 src=$2 net=$3 e
  offline "$tag" "$src" || return
  for e in keiro-nue keiro-acro keiro-dl; do installed_and_checked "$tag" "$net" "$e"; done
  # keiro-loren needs a layout file the fabric does not come with.
  if ! it_run "$tag-loren" "$net" -e keiro-loren,updn -p "max_vls=8" -w 300; then
    it_fail "$tag keiro-loren,updn: no SUBNET UP"
    return
  fi
  it_expect_log 'keiro-loren: option loren_layout is not set' 1 || return
  it_expect_log 'updn tables configured on all switches' 1 || return
  it_log "$tag: keiro-loren asks for a layout, OpenSM routed with updn"
}

# convert TAG FILE: FILE as an ibsim net file, $IT_DIR/TAG.net, which keiro
# must read as the same fabric as FILE.
convert() {
  local net=$IT_DIR/$1.net
  "$IT_KEIRO" topo convert "$2" -o "$net" >"$IT_DIR/$1.convert.out" 2>&1 ||
    { it_fail "$1: keiro topo convert failed: $(tail -n 2 "$IT_DIR/$1.convert.out")"; return 1; }
  "$IT_KEIRO" topo show "$net" >"$IT_DIR/$1.net.txt" 2>/dev/null &&
    "$IT_KEIRO" topo show "$2" 2>/dev/null | diff -u - "$IT_DIR/$1.net.txt" >"$IT_DIR/$1.convert.diff" ||
    { it_fail "$1: the converted net file does not read as $2:"; head -n 10 "$IT_DIR/$1.convert.diff"; return 1; }
  it_log "$1: converted to a net file ($(sed -n 1p "$IT_DIR/$1.convert.out" | sed 's/^[^:]*: //'))"
}

mkdir -p "$IT_DIR"
n=0
for src in "$KEIRO_SRCDIR"/tests/data/real/*; do
  name=$(basename "$src")
  case $name in
    *.md) continue ;;
    *.topo | *.net) n=$((n + 1)); real_fabric "${name%.*}" "$src" "$src" ;;
    *) n=$((n + 1)); convert "${name%.*}" "$src" && real_fabric "${name%.*}" "$src" "$IT_DIR/${name%.*}.net" ;;
  esac
done
[ "$n" -ge 2 ] || { echo "$IT_NAME: ERROR: only $n fabrics in tests/data/real/" >&2; exit 99; }

# The generated counterpart of a director-based production fabric: three
# 648-port directors and 52 rack switches (214 switches), in a random
# labelling, with keiro-dl.
gen="$IT_DIR/director-3-52-r1.net"
"$IT_KEIRO" topo director 3 52 --relabel 1 -o "$gen" >/dev/null 2>&1 ||
  { echo "$IT_NAME: ERROR: keiro topo director 3 52 --relabel 1 failed" >&2; exit 99; }
offline director-3-52-r1 "$gen" && installed_and_checked director-3-52-r1 "$gen" keiro-dl
it_done
