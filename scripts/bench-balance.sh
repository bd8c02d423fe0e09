#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Benchmark: how evenly every keiro engine and OpenSM's built-in engines
# spread the routes of the fabrics clusters run (fat trees intact and
# degraded, a dragonfly, a torus with failed links, a random fabric), all
# through the real OpenSM on ibsim, in one run.
#
# usage: scripts/bench-balance.sh [BUILDDIR] [OUTDIR]
#   BUILDDIR  built keiro tree (default ./build)
#   OUTDIR    run directories, results.tsv, balance.md and balance.svg
#             (default BUILDDIR/bench-balance)
# Environment:
#   BENCH_QUICK=1    small fabrics of the same families (a smoke run, ~2 min)
#   BENCH_FABRICS    names of the fabrics to run (default: all of the set)
#   BENCH_ENGINES    engines (default: keiro's, as `keiro engines --osm-names`
#                    lists them, then ftree updn dfsssp nue minhop)
#   BENCH_VLS        VL cap: keiro max_vls and OpenSM's nue_max_num_vls (8)
#   BENCH_DOC        also put the table into this markdown file (between its
#                    bench-balance:begin/end markers, e.g. docs/balance.md)
#                    and balance.svg next to it
#
# Per run: the engine OpenSM installed (ftree refuses fabrics it does not
# recognize as fat trees and OpenSM falls back), routing time from OpenSM's
# own log lines ("building routing with" .. "tables configured"), and from
# `keiro analyze --pairs ca` on the installed dumps: max and average edge
# forwarding index over switch-to-switch links for all HCA pairs, effective
# bandwidth Γ under uniform traffic, average hops, VLs, and keiro check's
# deadlock verdict with the SLs the SA hands out (keiro's engines: the
# plugin's keiro-path-sl.dump, which is what its path_sl answers; dfsssp, nue
# and lash: asked from the SA pair by pair; the others hand out SL 0).
# keiro-loren needs a layout file: it runs only on fabrics that come with one.
# Exit: 0 all runs done (verdicts are data), 1 a run failed, 2 usage.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/bench-lib.sh"
kb_init bench-balance "$@"

vls=${BENCH_VLS:-8}
kb_keiro_engines bench-balance
engines=${BENCH_ENGINES:-"${KB_ENGINES}ftree updn dfsssp nue minhop"}
# name|keiro topo arguments|is it a fat tree (ftree applies)
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  set_=(
    "ft4x3|fattree 4 3|yes"
    "ft4x3-f2-s1|fattree 4 3 --fail-links 0.02 --seed 1|yes"
    "dfly-4-2-2-9|dragonfly 4 2 2 9|no"
    "torus4x4x4-f1|torus 4x4x4 --hcas-per-switch 1 --fail-links 0.01 --seed 1|no"
    "rrg32-d4|random 32 4 --hcas-per-switch 2 --seed 1|no"
  )
else
  set_=(
    "ft12x3|fattree 12 3|yes"
    "ft12x3-f2-s1|fattree 12 3 --fail-links 0.02 --seed 1|yes"
    "ft12x3-f2-s2|fattree 12 3 --fail-links 0.02 --seed 2|yes"
    "ft12x3-f2-s3|fattree 12 3 --fail-links 0.02 --seed 3|yes"
    "dfly-8-4-4-33|dragonfly 8 4 4 33|no"
    "torus8x8x8-f1|torus 8x8x8 --hcas-per-switch 2 --fail-links 0.01 --seed 1|no"
    "rrg256-d8|random 256 8 --hcas-per-switch 4 --seed 1|no"
  )
fi

tsv=$out/results.tsv
printf '#fabric\tengine\tinstalled\troute_s\tvls\tefi_max\tefi_avg\tgamma_uniform\tavg_hops\tverdict\n' >"$tsv"
failed=0
for entry in "${set_[@]}"; do
  IFS='|' read -r fab topo fat <<<"$entry"
  if [ -n "${BENCH_FABRICS:-}" ] && ! [[ " $BENCH_FABRICS " == *" $fab "* ]]; then continue; fi
  net=$out/$fab.net
  # shellcheck disable=SC2086
  "$keiro" topo $topo -o "$net" >"$out/$fab.topo.txt" 2>&1 ||
    { echo "bench-balance: keiro topo $topo failed" >&2; exit 1; }
  layout=${net%.net}.layout
  for e in $engines; do
    [ "$e" = ftree ] && [ "$fat" != yes ] && continue
    if [ "$e" = keiro-loren ] && [ ! -s "$layout" ]; then
      printf '%s\t%s\t-\t-\t-\t-\t-\t-\t-\tn/a (no layout)\n' "$fab" "$e" >>"$tsv"
      continue
    fi
    dir=$out/$fab/$e
    echo "bench-balance: $fab: $e" >&2
    if ! kb_run "$e" "$net" "$dir" "$vls" "$layout"; then
      echo "bench-balance: $fab: $e: no SUBNET UP (see $dir.harness.txt)" >&2
      printf '%s\t%s\t-\t-\t-\t-\t-\t-\t-\tno SUBNET UP\n' "$fab" "$e" >>"$tsv"
      failed=1
      continue
    fi
    kb_analyze "$dir" || failed=1
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$fab" "$e" "${KB_USED:--}" "${KB_RT:--}" \
      "$KB_VLS" "$KB_EFI_MAX" "$KB_EFI_AVG" "$KB_GAMMA" "$KB_HOPS" "$KB_VERDICT" >>"$tsv"
  done
done

doc=()
[ -n "${BENCH_DOC:-}" ] && doc=(--doc "$BENCH_DOC")
quick=
[ "${BENCH_QUICK:-0}" = 1 ] && quick='(BENCH_QUICK=1) '
python3 "$src/scripts/bench_table.py" balance "$tsv" --svg "$out/balance.svg" \
  --md "$out/balance.md" --commit "$KB_COMMIT" \
  --note "${quick}$(kb_note), keiro engines with max_vls=$vls" ${doc[@]+"${doc[@]}"} || failed=1
cat "$out/balance.md"
[ -n "${BENCH_DOC:-}" ] && cp "$out/balance.svg" "$(dirname "$BENCH_DOC")/balance.svg"
exit $failed
