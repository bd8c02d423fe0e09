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
#    OpenSM falls back to updn, the next engine of routing_engine.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim

real_fabric() {
  local net=$1 tag e summary
  tag=$(basename "$net" .topo)
  "$IT_KEIRO" topo show "$net" >"$IT_DIR/$tag.offline.txt" 2>"$IT_DIR/$tag.offline.err" ||
    { it_fail "$tag: keiro cannot read $net: $(cat "$IT_DIR/$tag.offline.err")"; return; }
  for e in keiro-nue keiro-acro keiro-dl; do
    if ! it_run "$tag-$e" "$net" -s -e "$e,updn" -p "max_vls=8" -w 300; then
      it_fail "$tag $e: no SUBNET UP (or SA queries failed)"
      continue
    fi
    it_expect_log "$e tables configured on all switches" 1 || continue
    it_expect_log 'keiro: ERR' 0 || { grep 'keiro: ERR' "$IT_OUT/opensm.log" | head -3; continue; }
    it_no_osm_errors
    "$IT_KEIRO" topo show "$IT_OUT/dumps/opensm-subnet.lst" >"$IT_OUT/opensm.txt" 2>/dev/null ||
      { it_fail "$tag $e: keiro cannot read OpenSM's opensm-subnet.lst"; continue; }
    if ! diff -u "$IT_DIR/$tag.offline.txt" "$IT_OUT/opensm.txt" >"$IT_OUT/diff.txt"; then
      it_fail "$tag $e: the fabric OpenSM found differs from the file read offline:"
      head -n 20 "$IT_OUT/diff.txt"
      continue
    fi
    it_check_installed --lmc 0 --vls 8 || continue
    summary=$(kh_summary_line "$IT_OUT/opensm.log" "$e" | sed "s/.*$e: //")
    it_log "$tag $e: installed and checked ($summary)"
  done
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
it_done
