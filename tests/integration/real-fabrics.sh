#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The real fabrics of tests/data/real/ (ibnetdiscover outputs of real
# clusters, read by ibsim as they were published) through ibsim and the real
# OpenSM with keiro loaded:
#  - the fabric OpenSM discovered (its opensm-subnet.lst) is the one keiro
#    reads offline from the file: the same switches, links, end ports,
#    GUIDs, port numbers and LIDs (`keiro topo show` of both, compared);
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

# offline TAG NET: what keiro reads from NET, for the comparison above.
offline() {
  "$IT_KEIRO" topo show "$2" >"$IT_DIR/$1.offline.txt" 2>"$IT_DIR/$1.offline.err" ||
    { it_fail "$1: keiro cannot read $2: $(cat "$IT_DIR/$1.offline.err")"; return 1; }
}

real_fabric() {
  local net=$1 tag e
  tag=$(basename "$net" .topo)
  offline "$tag" "$net" || return
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

mkdir -p "$IT_DIR"
for net in "$KEIRO_SRCDIR"/tests/data/real/*.topo; do
  [ -r "$net" ] || { echo "$IT_NAME: ERROR: no fabric in tests/data/real/" >&2; exit 99; }
  real_fabric "$net"
done

# The generated counterpart of a director-based production fabric: three
# 648-port directors and 52 rack switches (214 switches), in a random
# labelling, with keiro-dl.
gen="$IT_DIR/director-3-52-r1.net"
"$IT_KEIRO" topo director 3 52 --relabel 1 -o "$gen" >/dev/null 2>&1 ||
  { echo "$IT_NAME: ERROR: keiro topo director 3 52 --relabel 1 failed" >&2; exit 99; }
offline director-3-52-r1 "$gen" && installed_and_checked director-3-52-r1 "$gen" keiro-dl
it_done
