#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# LMC > 0: every LID of every port is routed by keiro-nue (lmc 2: four LIDs
# per CA port), and the installed tables pass keiro check for all of them,
# with the SA's SLs and with the path-SL file the plugin wrote (sl_dump=).
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
it_require_sim
net=$(it_fabric random-16sw.net)
sl_file="$IT_DIR/lmc2-path-sl.dump"
rm -f "$sl_file"
if it_run lmc2 "$net" -s -l 2 -e keiro-nue,updn -p "max_vls=2 sl_dump=$sl_file"; then
  it_expect_log 'keiro-nue tables configured on all switches' 1
  it_expect_log 'ERR KE' 0
  it_no_osm_errors
  switches=$(grep -c '^Unicast lids' "$IT_OUT/dumps/opensm-lfts.dump")
  cas=$(grep -c '^{ CA' "$IT_OUT/dumps/opensm-subnet.lst")
  want=$((switches + cas * 4))
  got=$(kh_summary_line "$IT_OUT/opensm.log" keiro-nue | sed -nE 's/.* ([0-9]+) LIDs:.*/\1/p')
  [ "$got" = "$want" ] || it_fail "keiro-nue routed ${got:-?} LIDs, expected $want ($switches switches + 4 x $cas CA ports)"
  # Every LID appears on every switch's LFT.
  awk -v want="$want" '/^Unicast lids/ { if (n && n != want) bad++; n = 0; next }
       /^0x/ { n++ } END { if (n != want) bad++; exit bad ? 1 : 0 }' \
      "$IT_OUT/dumps/opensm-lfts.dump" || it_fail "some switch LFT lacks LIDs"
  it_check_installed --lmc 2 --vls 2
  if [ -s "$sl_file" ]; then
    "$IT_KEIRO" check "$IT_OUT/dumps" --sls "$sl_file" --lmc 2 --vls 2 >"$IT_OUT/check-sl-dump.txt" 2>&1 ||
      it_fail "keiro check with the plugin's sl_dump file failed: $(grep -m1 result "$IT_OUT/check-sl-dump.txt")"
    it_oracle_agrees "$IT_OUT/dumps" --sls "$sl_file" --lmc 2 --vls 2
  else
    it_fail "the plugin did not write sl_dump=$sl_file"
  fi
else
  it_fail "no SUBNET UP with lmc 2"
fi
it_done
