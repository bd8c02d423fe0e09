# shellcheck shell=bash disable=SC2034,SC2154
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Shared steps of the OpenSM benchmarks (scripts/bench-balance.sh,
# bench-report.sh, bench-scale.sh): one engine through ibsim + the real
# OpenSM (tests/harness/run-fabric.sh), then the installed tables measured
# with `keiro analyze`. Source it with $src set to the source tree, then call
# kb_init.
#
# The layering: tests/harness/lib.sh (processes, logs, JSON) ->
# run-fabric.sh (one fabric through OpenSM) -> this file (one benchmark
# cell) -> the bench-*.sh scripts (fabric sets, tables, pages).

. "$src/tests/harness/lib.sh"

# kb_init NAME [BUILDDIR [OUTDIR]]: the benchmarks' common arguments. Sets
# build (default $src/build), out (default BUILDDIR/NAME, created), keiro
# (the built tool), KB_COMMIT (the source tree's commit at the start of the
# run, for the page's header; "unknown" outside a git checkout), KB_START
# (seconds since the epoch) and exports KEIRO_BUILDDIR for the harness; exits
# 2 when the build tree or its keiro is missing.
kb_init() {
  build=$(cd "${2:-$src/build}" && pwd) || exit 2
  out=${3:-$build/$1}
  mkdir -p "$out" || exit 2
  out=$(cd "$out" && pwd)
  export KEIRO_BUILDDIR=$build
  KH_BUILDDIR=$build
  keiro=$build/keiro
  [ -x "$keiro" ] || { echo "$1: no $keiro (build first)" >&2; exit 2; }
  KB_COMMIT=$(git -C "$src" rev-parse --short HEAD 2>/dev/null) || KB_COMMIT=unknown
  KB_START=$(date +%s)
}

# kb_note: how the run was made, for the page's header: the date, the time
# the run took, the cores and the load average at the end.
kb_note() {
  printf 'on %s in %s s on %s cores shared with other jobs (load average %s at the end; times are inflated alike for every engine)' \
    "$(date -u +%Y-%m-%d)" "$(($(date +%s) - KB_START))" "$(nproc 2>/dev/null || echo '?')" \
    "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
}

# kb_keiro_engines NAME [EXTRA_OF_NUE]: keiro's engines as the built tool
# lists them (`keiro engines --osm-names`), space separated with a trailing
# space, into KB_ENGINES; with EXTRA_OF_NUE (e.g. keiro-nue@fixed_sl=0) that
# label follows keiro-nue. Exits 1 naming NAME when the tool lists none.
kb_keiro_engines() {
  local e
  KB_ENGINES=
  for e in $("$keiro" engines --osm-names); do
    KB_ENGINES+="$e "
    [ "$e" = keiro-nue ] && [ -n "${2:-}" ] && KB_ENGINES+="$2 "
  done
  [ -n "$KB_ENGINES" ] || { echo "$1: $keiro engines lists no engine" >&2; exit 1; }
}

# kb_run LABEL NET DIR VLS [LAYOUT [TORUS_CONF]]: route NET with engine LABEL
# (ENGINE or ENGINE@k=v: a keiro engine with an extra plugin option) through
# OpenSM into DIR (DIR is replaced; the harness output goes to DIR.harness.txt).
#  - keiro engines: the plugin with max_vls=VLS (keiro-loren with
#    loren_layout=LAYOUT); their SLs are the plugin's keiro-path-sl.dump;
#  - dfsssp, nue, lash: nue_max_num_vls VLS, SLs asked from the SA for every
#    LID pair (sa-path-sl.dump);
#  - torus-2QoS: torus_config TORUS_CONF, max_op_vls 8, SLs from the SA;
#  - the others (minhop, updn, ftree, ...) hand out SL 0.
# KB_NO_SA=1: no SA queries (timing only; on big fabrics the per-pair
# PathRecord queries take longer than the routing). KB_LOG_FLAGS: OpenSM's
# log_flags (default 0x47; the dumps keiro analyze reads need 0x40).
# Sets KB_USED (the engine OpenSM installed: fallback shows here), KB_RT
# (routing seconds from OpenSM's own log lines) and KB_SLS (the SL arguments
# of keiro analyze/check/simulate for these tables). Returns 1 when the
# subnet did not come up.
kb_run() {
  local label=$1 net=$2 dir=$3 vls=$4 layout=${5:-} tconf=${6:-}
  local e=${label%%@*} extra=
  [ "$e" != "$label" ] && extra=" ${label#*@}"
  local args=(-t "$net" -o "$dir" -w 3600 -c "log_flags ${KB_LOG_FLAGS:-0x47}")
  KB_SLS=(--assume-sl 0) KB_USED='' KB_RT=''
  case $e in
    keiro-loren) args+=(-e "$e" -p "max_vls=$vls loren_layout=$layout$extra") KB_SLS=() ;;
    keiro-*) args+=(-e "$e" -p "max_vls=$vls$extra") KB_SLS=() ;;
    torus-2QoS)
      args+=(-P -e "$e" -m 8 -c "torus_config $tconf") KB_SLS=(--sls "$dir/sa-path-sl.dump") ;;
    dfsssp | nue | lash)
      args+=(-P -e "$e" -c "nue_max_num_vls $vls") KB_SLS=(--sls "$dir/sa-path-sl.dump") ;;
    *) args+=(-P -e "$e") ;;
  esac
  if [ ${#KB_SLS[@]} = 2 ] && [ "${KB_SLS[0]}" = --sls ]; then
    if [ "${KB_NO_SA:-0}" = 1 ]; then KB_SLS=(); else args+=(-s); fi
  fi
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")" || return 1
  nice -n 5 "$src/tests/harness/run-fabric.sh" "${args[@]}" >"$dir.harness.txt" 2>&1 || return 1
  KB_USED=$(kh_installed_engine "$dir/opensm.log")
  KB_RT=$(kh_route_time "$dir/opensm.log" "$KB_USED")
  return 0
}

# kb_analyze DIR: `keiro analyze DIR/dumps --pairs ca` with the SLs kb_run
# chose (DIR/analyze.json, DIR/analyze.err). Sets KB_VLS, KB_SLS_USED,
# KB_EFI_MAX, KB_EFI_AVG, KB_GAMMA, KB_SHIFT, KB_HOPS ('-' when absent) and
# KB_VERDICT ("deadlock free", "FAILS: <first problem>" or "no verdict: ...").
# Returns 0 with a verdict (pass or fail: both are data), 1 without one.
kb_analyze() {
  local dir=$1 rc problem
  "$keiro" analyze "$dir/dumps" --pairs ca ${KB_SLS[@]+"${KB_SLS[@]}"} --json \
    >"$dir/analyze.json" 2>"$dir/analyze.err"
  rc=$?
  {
    read -r KB_VLS
    read -r KB_SLS_USED
    read -r KB_EFI_MAX
    read -r KB_EFI_AVG
    read -r KB_GAMMA
    read -r KB_SHIFT
    read -r KB_HOPS
    read -r problem
  } < <(kh_json "$dir/analyze.json" vls_used sls_used efi.max:%.0f efi.avg:%.1f \
    traffic.gamma_uniform:%.4f traffic.shift_throughput:%.4f paths.avg_hops:%.3f check.first_problem)
  local v
  for v in KB_VLS KB_SLS_USED KB_EFI_MAX KB_EFI_AVG KB_GAMMA KB_SHIFT KB_HOPS; do
    [ -n "${!v}" ] || printf -v "$v" '%s' -
  done
  case $rc in
    0) KB_VERDICT="deadlock free" ;;
    1) KB_VERDICT="FAILS: ${problem:-see analyze.err}" ;;
    *) KB_VERDICT="no verdict: $(head -n 1 "$dir/analyze.err")" && return 1 ;;
  esac
  return 0
}
