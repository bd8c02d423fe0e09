#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-acro through ibsim + the real OpenSM (QoS on) on random regular
# fabrics with 2 HCAs per switch, next to OpenSM's lash, dfsssp and minhop on
# the same fabric. For every fabric:
#   keiro-acro: SA PathRecords for every (source LID, destination LID) pair,
#               keiro check on the installed LFTs + SL2VL + the SA's SLs,
#               keiro analyze (stretch, edge forwarding index), VLs/SLs used;
#   lash, dfsssp: the VLs they say they need ("Lanes needed",
#               "Virtual Lanes needed", or their ERR line when too few);
#   minhop:     its edge forwarding index (keiro analyze).
# Writes a markdown table to OUT (default docs/acro-opensm.md) between
# <!-- acro-opensm:begin --> and <!-- acro-opensm:end -->, headed by the
# script, the commit of the source tree and the wall time; an existing page
# keeps what is outside the block, a new one gets an SPDX comment and a title.
#
# usage: scripts/acro-opensm.sh [-b BUILDDIR] [-o OUT] [-w WORKDIR] [-q] [N:D ...]
#        (default fabrics 64:4 128:8 256:4, seed 1, 2 HCAs per switch)
#   -q   quick: fabric 32:4 unless given, OUT in WORKDIR unless -o is given
#        (a few seconds; what tests/integration/eval-scripts.sh runs)
#   -w   where the OpenSM runs go (default a new /tmp/acro-opensm.XXXXXX)
# Needs a built tree (make): BUILDDIR/keiro, .libs/libkeiro.so,
# tests/harness/sa_path_sl. Every process it starts is stopped by PID.
set -u
t0=$(date +%s) load=$(cut -d' ' -f1 /proc/loadavg)
src=$(cd "$(dirname "$0")/.." && pwd)
build="" out="" work="" quick=0
while getopts "b:o:w:qh" opt; do
  case $opt in
    b) build=$OPTARG ;;
    o) out=$OPTARG ;;
    w) work=$OPTARG ;;
    q) quick=1 ;;
    *) sed -n '/^# usage:/,/^# Needs/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ -n "$build" ] || build=$(ls -td "$src"/build*/ 2>/dev/null | while read -r d; do
  [ -x "$d/keiro" ] && [ -e "$d/.libs/libkeiro.so" ] && { echo "${d%/}"; break; }; done)
[ -n "$build" ] && [ -x "$build/keiro" ] || { echo "no build tree with keiro and libkeiro.so (-b)" >&2; exit 2; }
build=$(cd "$build" && pwd)
export KEIRO_BUILDDIR=$build KEIRO_SRCDIR=$src
. "$src/tests/harness/lib.sh"
kh_prereq || exit 1
fabrics=("$@")
if [ ${#fabrics[@]} -eq 0 ]; then
  if [ $quick = 1 ]; then fabrics=(32:4); else fabrics=(64:4 128:8 256:4); fi
fi
if [ -n "$work" ]; then mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 2
else work=$(mktemp -d /tmp/acro-opensm.XXXXXX); fi
[ -n "$out" ] || { if [ $quick = 1 ]; then out=$work/acro-opensm.md; else out=$src/docs/acro-opensm.md; fi; }
commit=$(git -C "$src" rev-parse --short HEAD 2>/dev/null) || commit="unknown (no git)"
[ -z "$(git -C "$src" status --porcelain --untracked-files=no -- . ':!docs' 2>/dev/null)" ] ||
  commit="$commit + local changes"
K="$build/keiro"

# run TAG NET ENGINES yes|no(plugin) yes|no(SA): one OpenSM run in $work/TAG
# through the harness (tests/harness/run-fabric.sh), which stops what it
# starts. With SA: the SA's SL of every (source LID, destination LID) pair.
run() {
  local tag=$1 net=$2 engines=$3 plugin=$4 sa=$5 args=()
  [ "$plugin" = yes ] || args+=(-P)
  [ "$sa" = yes ] && args+=(-s)
  "$src/tests/harness/run-fabric.sh" -t "$net" -o "$work/$tag" \
    -e "$engines" -w 300 ${args[@]+"${args[@]}"} >"$work/$tag.harness.txt" 2>&1
}

{
  echo "Random regular fabrics"
  echo "(\`keiro topo random N d --hcas-per-switch 2 --seed 1\`), OpenSM with \`qos TRUE\`,"
  echo "\`max_op_vls 5\` (ibsim ports offer 8 data VLs). keiro-acro's tables are checked as"
  echo "installed: opensm-lfts.dump + opensm-sl2vl.dump + the SA's PathRecord SL of every"
  echo "(source LID, destination LID) pair, with \`keiro check\`. Routing time is keiro-acro's"
  echo "wall clock inside OpenSM (its log), next to ibsim on the same machine (load average"
  echo "at the start: $load, other jobs on the machine included; $(nproc) CPUs)."
  echo
  echo "| fabric | keiro-acro: layers / VLs / SLs | routing time (s) | check (pairs) | stretch max | EFI max (acro / minhop) | lash VLs | dfsssp VLs |"
  echo "|---|---|---|---|---|---|---|---|"
} >"$work/table.md"

for nd in "${fabrics[@]}"; do
  n=${nd%%:*} d=${nd##*:} tag="rrg$n-d$d"
  net="$work/$tag.net"
  "$K" topo random "$n" "$d" --hcas-per-switch 2 --seed 1 -o "$net" >/dev/null || exit 1
  echo "$tag: keiro-acro" >&2
  if ! run "$tag-acro" "$net" keiro-acro yes yes; then echo "$tag: keiro-acro run failed" >&2; continue; fi
  a="$work/$tag-acro"
  "$K" check "$a/dumps" --sls "$a/sa-path-sl.dump" --json >"$a/check.json" 2>"$a/check.err"
  "$K" analyze "$a/dumps" --sls "$a/sa-path-sl.dump" --no-traffic --json >"$a/analyze.json" 2>"$a/analyze.err"
  layers=$(kh_engine_fact "$a/opensm.log" keiro-acro layers)
  vls=$(kh_engine_fact "$a/opensm.log" keiro-acro vls_used)
  sls=$(kh_engine_fact "$a/opensm.log" keiro-acro sls_used)
  rt=$(kh_summary_field "$a/opensm.log" route keiro-acro)
  { read -r ok; read -r pairs; } < <(kh_json "$a/check.json" check.ok check.pairs_checked)
  chk="$([ "$ok" = true ] && echo OK || echo FAILED) ($pairs)"
  [ "$(kh_installed_engine "$a/opensm.log")" = keiro-acro ] || chk="not installed"
  { read -r stretch; read -r efi; } < <(kh_json "$a/analyze.json" paths.max_stretch:%.3f efi.max:%.0f)

  echo "$tag: lash, dfsssp, minhop" >&2
  lash=? dfsssp=? efi_mh=?
  if run "$tag-lash" "$net" lash no no; then
    l="$work/$tag-lash/opensm.log"
    lash=$(sed -nE 's/.*Lanes needed: ([0-9]+).*/\1/p' "$l" | tail -n 1)
    [ -n "$lash" ] || lash="$(sed -nE 's/.*Lane requirements \(([0-9]+)\) exceed available lanes \(([0-9]+)\).*/\1 (> \2 available: failed)/p' "$l" | tail -n 1)"
  fi
  if run "$tag-dfsssp" "$net" dfsssp no no; then
    l="$work/$tag-dfsssp/opensm.log"
    dfsssp="$(sed -nE 's/.*avail=([0-9]+), needed=([0-9]+).*/\2 (> \1 available: failed)/p' "$l" | tail -n 1)"
    [ -n "$dfsssp" ] || dfsssp=$(sed -nE 's/.*Virtual Lanes needed: ([0-9]+).*/\1/p' "$l" | tail -n 1)
  fi
  if run "$tag-minhop" "$net" minhop no no; then
    m="$work/$tag-minhop"
    "$K" analyze "$m/dumps" --no-traffic --json >"$m/analyze.json" 2>"$m/analyze.err"
    efi_mh=$(kh_json "$m/analyze.json" efi.max:%.0f)
  fi
  echo "| $n switches, degree $d, $((2 * n)) HCAs | $layers / $vls / $sls | $rt | $chk | $stretch | $efi / $efi_mh | ${lash:-?} | ${dfsssp:-?} |" >>"$work/table.md"
done
# The page: the block replaces the one in OUT, or OUT is written whole.
{
  echo "Generated by \`scripts/acro-opensm.sh$([ $quick = 1 ] && echo " -q")\` at commit $commit on $(date +%Y-%m-%d)"
  echo "in $(($(date +%s) - t0)) s of wall time (fabrics ${fabrics[*]})."
  cat "$work/table.md"
} >"$work/block.md"
if [ -f "$out" ] && grep -q '^<!-- acro-opensm:begin -->$' "$out" && grep -q '^<!-- acro-opensm:end -->$' "$out"; then
  awk -v body="$work/block.md" '
    /^<!-- acro-opensm:end -->$/ { skip = 0 }
    !skip { print }
    /^<!-- acro-opensm:begin -->$/ { while ((getline l < body) > 0) print l; skip = 1 }' \
    "$out" >"$work/page.md"
else
  { echo "<!-- SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause -->"
    echo "# keiro-acro through OpenSM 3.3.23 + ibsim (generated)"
    echo
    echo "<!-- acro-opensm:begin -->"
    cat "$work/block.md"
    echo "<!-- acro-opensm:end -->"; } >"$work/page.md"
fi
cp "$work/page.md" "$out"
echo "wrote $out (runs kept in $work)" >&2
