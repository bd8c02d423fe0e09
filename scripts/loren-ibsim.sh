#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro-loren through the real OpenSM on ibsim (issue 7's "done when"):
# generates each LRT with `keiro topo lrt` (net file + layout file), runs OpenSM
# with the keiro plugin (routing_engine keiro-loren,updn, the layout and
# t_max in event_plugin_options), asks the SA for the path SLs, and checks
# the installed tables with `keiro check` (every pair reachable, no loop, no
# credit loop over (link, VL) with the SA's SLs). Prints one summary line
# per case and writes OUT/summary.tsv.
#
# usage: scripts/loren-ibsim.sh [-b BUILDDIR] [-o OUTDIR] [-m MAX_OP_VLS] [CASE...]
#   CASE  n:d:r:hcas:tmax:seed for LRT(n*n, d, r) with hcas HCAs per switch;
#         default: 8:4:2:2:18:1 8:4:2:2:32:1 16:4:4:1:42:1 16:4:4:1:128:1
#   -b    build tree with libkeiro.so, keiro and tests/harness/sa_path_sl
#         (default: $KEIRO_BUILDDIR, else build-loren)
#   -o    output directory (default: $BUILDDIR/loren-ibsim)
#   -m    OpenSM's max_op_vls (default 4: VL0-7, 8 data VLs; OpenSM takes 1-5)
# Exit: 0 when every case passes, 1 otherwise.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/tests/harness/lib.sh"
build=${KEIRO_BUILDDIR:-$src/build-loren}
out= maxop=4
kh_options "b=build o=out m=maxop" 'kh_usage "$0" Exit:' "$@"
shift "$KH_SHIFT"
build=$(cd "$build" && pwd) || exit 2
out=${out:-$build/loren-ibsim}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(8:4:2:2:18:1 8:4:2:2:32:1 16:4:4:1:42:1 16:4:4:1:128:1)
keiro=$build/keiro
for f in "$keiro" "$build/.libs/libkeiro.so" "$build/tests/harness/sa_path_sl"; do
  [ -e "$f" ] || { echo "loren-ibsim: $f missing: build first (make)" >&2; exit 2; }
done

fails=0
printf 'case\tswitches\thcas\ttmax\tsubnet_up\tloren_info\tcheck\n' >"$out/summary.tsv"
for c in "${cases[@]}"; do
  IFS=: read -r n d r h t seed <<<"$c"
  tag="lrt$((n * n))-d$d-r$r-h$h-t$t-s$seed"
  dir=$out/$tag
  mkdir -p "$dir"
  "$keiro" topo lrt $((n * n)) "$d" "$r" --hcas-per-switch "$h" --seed "$seed" \
    -o "$dir/fabric.net" --layout "$dir/fabric.layout" >"$dir/topo.out" 2>&1 ||
    { cat "$dir/topo.out" >&2; exit 1; }
  t0=$SECONDS
  up=yes
  KEIRO_BUILDDIR=$build "$src/tests/harness/run-fabric.sh" -t "$dir/fabric.net" -o "$dir/run" -s \
    -e keiro-loren,updn -m "$maxop" -w 600 \
    -p "loren_layout=$dir/fabric.layout loren_tmax=$t" >"$dir/harness.out" 2>&1 || up=no
  log=$dir/run/opensm.log
  info=$(kh_summary_line "$log" keiro-loren | sed 's/.*keiro-loren: //')
  loren=$(grep -E 'keiro-loren: t_max' "$log" 2>/dev/null | tail -n 1 | sed 's/.*keiro-loren: //')
  errs=$(grep -c 'ERR KE' "$log" 2>/dev/null)
  check=skipped
  if [ "$up" = yes ]; then
    if "$keiro" check "$dir/run/dumps" --sls "$dir/run/sa-path-sl.dump" >"$dir/check.txt" 2>&1; then
      check=ok
    else
      check="FAILED (rc $?)"
    fi
  fi
  status=PASS
  if [ "$up" != yes ] || [ -z "$info" ] || [ "${errs:-0}" -ne 0 ] || [ "$check" != ok ]; then
    status=FAIL
    fails=$((fails + 1))
  fi
  echo "$tag: $status in $((SECONDS - t0)) s: subnet up $up, keiro errors ${errs:-0}, check $check"
  echo "  $info"
  echo "  $loren"
  [ "$check" = ok ] && grep -iE 'pairs|credit|VLs|SLs' "$dir/check.txt" | head -n 4 | sed 's/^/  check: /'
  printf '%s\t%d\t%d\t%d\t%s\t%s\t%s\n' "$tag" $((n * n)) "$h" "$t" "$up" "$info; $loren" \
    "$check" >>"$out/summary.tsv"
done
[ "$fails" -eq 0 ] || { echo "loren-ibsim: $fails case(s) failed; runs kept in $out" >&2; exit 1; }
exit 0
