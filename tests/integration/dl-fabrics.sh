#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-dl through the real OpenSM (QoS on) on two fabrics of the DL paper:
# an 8x8 2D torus (made here by `keiro topo`, 2 HCAs per switch) and a random
# irregular fabric of 64 8-port switches, 4 HCAs and up to 4 switch links
# each (data/dl-irregular-64.net). With max_vls=2 and max_vls=3 OpenSM
# installs keiro-dl's tables, keiro logs no error, and the installed LFTs,
# SL2VL tables and the SA's SLs for every (source, destination) pair pass
# keiro check. OpenSM's updn, given keiro-dl's root, routes the same fabric
# with a higher average path length between CAs.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim

# dl_avg_hops DUMPS: average CA-to-CA path length (links) of keiro analyze.
dl_avg_hops() { it_analyze_json "$1" --no-traffic --pairs ca -- paths.avg_hops:%.3f; }

dl_fabric() {
  local fab=$1 net=$2 v root= hops dl_hops=() updn_hops r
  for v in 2 3; do
    if ! it_run "$fab-dl$v" "$net" -s -e keiro-dl,updn -p "max_vls=$v"; then
      it_fail "$fab max_vls=$v: no SUBNET UP (or SA queries failed)"
      continue
    fi
    it_expect_log 'keiro-dl tables configured on all switches' 1 || continue
    it_expect_log 'keiro: ERR' 0 || { grep 'keiro: ERR' "$IT_OUT/opensm.log" | head -3; continue; }
    it_no_osm_errors
    it_check_installed --lmc 0 --vls "$v" || continue
    r=$(sed -nE "s/.*keiro-dl: root='.*' \((0x[0-9a-f]+)\).*/\1/p" "$IT_OUT/opensm.log" | tail -n 1)
    [ -n "$r" ] || { it_fail "$fab max_vls=$v: no keiro-dl root in the log"; continue; }
    if [ -z "$root" ]; then
      root=$r
    elif [ "$r" != "$root" ]; then
      it_fail "$fab: keiro-dl root $r with max_vls=$v, $root with max_vls=2"
    fi
    hops=$(dl_avg_hops "$IT_OUT/dumps")
    [ -n "$hops" ] || { it_fail "$fab max_vls=$v: keiro analyze gave no path length"; continue; }
    dl_hops+=("$hops")
    it_log "$fab max_vls=$v: ok, avg path $hops links ($(grep -E 'keiro-dl: \(' "$IT_OUT/opensm.log" |
      tail -n 1 | sed 's/.*keiro-dl: //'))"
  done
  [ -n "$root" ] || { it_fail "$fab: no keiro-dl run to take the root from"; return; }

  # OpenSM's updn (no plugin) from keiro-dl's root.
  mkdir -p "$IT_DIR" && echo "$root" >"$IT_DIR/$fab.root"
  if ! it_run "$fab-updn" "$net" -P -e updn -c "root_guid_file $IT_DIR/$fab.root"; then
    it_fail "$fab updn: no SUBNET UP"
    return
  fi
  it_expect_log 'updn tables configured on all switches' 1 || return
  updn_hops=$(dl_avg_hops "$IT_OUT/dumps")
  [ -n "$updn_hops" ] || { it_fail "$fab updn: keiro analyze gave no path length"; return; }
  for hops in "${dl_hops[@]}"; do
    awk -v a="$hops" -v b="$updn_hops" 'BEGIN { exit !(a < b) }' ||
      it_fail "$fab: keiro-dl avg path $hops links is not below updn's $updn_hops"
  done
  it_log "$fab: avg CA-to-CA path, links: keiro-dl ${dl_hops[*]} (max_vls=2 3), updn $updn_hops (root $root)"
}

mkdir -p "$IT_DIR"
"$IT_KEIRO" topo torus 8x8 --hcas-per-switch 2 -o "$IT_DIR/torus8x8.net" >/dev/null 2>&1 ||
  { echo "$IT_NAME: ERROR: keiro topo torus 8x8 failed" >&2; exit 99; }
dl_fabric torus8x8 "$IT_DIR/torus8x8.net"

irr="$KEIRO_SRCDIR/tests/integration/data/dl-irregular-64.net"
[ -r "$irr" ] || { echo "$IT_NAME: ERROR: $irr is missing" >&2; exit 99; }
dl_fabric irregular64 "$irr"
it_done
