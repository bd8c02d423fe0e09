# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Shared helpers of the integration tests (sourced). They run under
# `make check` with KEIRO_BUILDDIR/KEIRO_SRCDIR set (tests/tests.mk), or by
# hand from a build tree: KEIRO_SRCDIR=.. ../tests/integration/X.sh
set -u
KEIRO_SRCDIR=${KEIRO_SRCDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
KEIRO_BUILDDIR=${KEIRO_BUILDDIR:-$PWD}
export KEIRO_SRCDIR KEIRO_BUILDDIR
. "$KEIRO_SRCDIR/tests/harness/lib.sh"

IT_NAME=$(basename "$0" .sh)
IT_DIR="$KEIRO_BUILDDIR/tests/integration/$IT_NAME.d"
IT_FAILS=0
IT_KEIRO="$KEIRO_BUILDDIR/keiro"

# it_require_sim: the simulator stack (ibsim, OpenSM, umad2sim) must be
# installed. Without it the test is a hard error (exit 99): a test that
# cannot run must not read as passed. KEIRO_ALLOW_SKIP=1 (a machine without
# ibsim, said out loud) turns that into a skip (exit 77).
it_require_sim() {
  local why
  if ! why=$(kh_prereq 2>&1); then
    if [ "${KEIRO_ALLOW_SKIP:-0}" = 1 ]; then
      echo "SKIP (KEIRO_ALLOW_SKIP=1): $why"
      exit 77
    fi
    echo "ERROR: $why; this test needs the simulator stack (scripts/install-deps.sh)."
    echo "Set KEIRO_ALLOW_SKIP=1 to skip the OpenSM tests on a machine without it."
    exit 99
  fi
  [ -e "$KEIRO_BUILDDIR/.libs/libkeiro.so" ] || { echo "FAIL: libkeiro.so not built"; exit 99; }
}

it_log() { echo "$IT_NAME: $*"; }
it_fail() {
  echo "$IT_NAME: FAIL: $*"
  IT_FAILS=$((IT_FAILS + 1))
}

# it_fabric FILE: path of a bundled fabric (ibsim-topologies/FILE); fails
# (exit 99, a hard error) when it is missing.
it_fabric() {
  local f="$KEIRO_SRCDIR/ibsim-topologies/$1"
  [ -r "$f" ] || { echo "$IT_NAME: ERROR: bundled fabric $f is missing" >&2; exit 99; }
  echo "$f"
}

# it_run TAG NETFILE [run-fabric.sh options]: one OpenSM run in $IT_DIR/TAG.
# Prints the tail of the log on failure. Sets IT_OUT.
it_run() {
  local tag=$1 net=$2
  shift 2
  IT_OUT="$IT_DIR/$tag"
  "$KEIRO_SRCDIR/tests/harness/run-fabric.sh" -t "$net" -o "$IT_OUT" "$@"
}

# it_start TAG NETFILE [KEY=VALUE conf settings]: like it_run but leaves ibsim
# and OpenSM running (stopped by it_stop or at exit) for tests that poke the
# live fabric. Returns 1 without SUBNET UP.
it_start() {
  local tag=$1 net=$2
  shift 2
  IT_OUT="$IT_DIR/$tag"
  kh_init "$IT_OUT" || return 1
  trap kh_stop EXIT
  kh_write_conf "$IT_OUT/opensm.conf" "$@"
  kh_start_ibsim "$net" || return 1
  kh_start_opensm "$IT_OUT/opensm.conf" || return 1
  kh_wait_up 120
}
it_stop() { kh_stop; }

# it_sa_ca_pairs N: asks the running SA for N CA-to-CA PathRecords (LIDs from
# opensm-subnet.lst); 0 when every one has a record.
it_sa_ca_pairs() {
  local n=$1
  awk '/^\{ CA/ { split($0, f, "LID:"); print substr(f[2], 1, 4) }' \
      "$IT_OUT/dumps/opensm-subnet.lst" | sort -u | head -n "$n" |
    while read -r a; do echo "0x$a"; done >"$IT_OUT/ca-lids.txt"
  awk 'NR == FNR { l[NR] = $1; n = NR; next } END { for (i = 1; i <= n; i++)
         for (j = 1; j <= n; j++) if (i != j) print l[i], l[j] }' \
      "$IT_OUT/ca-lids.txt" "$IT_OUT/ca-lids.txt" >"$IT_OUT/ca-pairs.txt"
  (cd "$IT_OUT" && LD_PRELOAD="$KH_UMAD2SIM" "$KEIRO_BUILDDIR/tests/harness/sa_path_sl" --raw \
     --pairs "$IT_OUT/ca-pairs.txt" >"$IT_OUT/ca-sls.txt" 2>"$IT_OUT/ca-sls.err")
}

# it_net_link NETFILE switch|ca [N]: the Nth (default 1st) link of the net
# file between two switches, or from a CA to its switch, as ibsim's console
# names the local end: "nodeid"[port].
it_net_link() {
  awk -v kind="$2" -v want="${3:-1}" '
    NR == FNR { if ($1 == "Switch") { split($0, q, "\""); sw[q[2]] = 1 }; next }
    /^[[:space:]]*(Switch|Hca|Ca|Rt)[[:space:]]/ { type = $1; split($0, q, "\""); node = q[2]; next }
    /^[[:space:]]*\[[0-9]+\]/ {
      split($0, q, "\""); remote = q[2]
      port = $0; sub(/^[[:space:]]*\[/, "", port); sub(/\].*/, "", port)
      if ((kind == "switch" && type == "Switch" && (remote in sw)) ||
          (kind == "ca" && type != "Switch" && (remote in sw)))
        if (++n == want) { printf "\"%s\"[%d]\n", node, port; exit }
    }' "$1" "$1"
}

# it_wait_count PATTERN N [TIMEOUT]: waits until the OpenSM log has N lines
# matching PATTERN.
it_wait_count() {
  local t0=$SECONDS
  while [ "$(it_log_count "$1")" -lt "$2" ]; do
    [ $((SECONDS - t0)) -ge "${3:-60}" ] && { it_fail "no $2 lines '$1' within ${3:-60} s"; kh_log_tail 15; return 1; }
    kh_pid_alive "$KH_OSM_PID" || { it_fail "OpenSM exited"; kh_log_tail 15; return 1; }
    sleep 0.2
  done
}

# it_log_count PATTERN: matching lines in the last run's OpenSM log.
it_log_count() {
  local n
  n=$(grep -cE "$1" "$IT_OUT/opensm.log" 2>/dev/null)
  echo "${n:-0}"
}

# it_expect_log PATTERN [N]: the log has the pattern (exactly N times if given).
it_expect_log() {
  local n
  n=$(it_log_count "$1")
  if [ $# -ge 2 ]; then
    [ "$n" -eq "$2" ] || { it_fail "log has $n lines matching '$1', expected $2"; return 1; }
  else
    [ "$n" -ge 1 ] || { it_fail "log has no line matching '$1'"; return 1; }
  fi
}

# OpenSM's own error lines: every line logged at level 0x01 (OSM_LOG_ERROR;
# mostly "ERR 0A12: ..." with four hex digits) except keiro's "keiro: ERR
# KE0n" lines and OpenSM's "ucast_mgr_route: keiro-X: cannot build fwd
# tables" after one, which the tests count themselves. IT_KNOWN_OSM_ERRS lists
# those known to be harmless, one ERE each. None for every test: runs with
# OpenSM's built-in engines and with every keiro engine on the bundled
# fabrics log no such line at all (a failed LFT or SL2VL set, a MAD timeout,
# an SA PathRecord without a route, ERR 1F02, ... would show up here). A test
# adds an entry only for what it provokes itself, with the reason: tests that
# take a link down add trap 128, which OpenSM logs at error level
# (log_trap_info) for every trap it receives.
IT_KNOWN_OSM_ERRS=()

# it_no_osm_errors [LOG]: fails the test when OpenSM logged an error line of
# its own (see above) in LOG (default: the last run's opensm.log); prints
# the first few. Called after every run that routes with a keiro engine.
it_no_osm_errors() {
  local log=${1:-$IT_OUT/opensm.log} errs k
  [ -r "$log" ] || { it_fail "no OpenSM log $log"; return 1; }
  errs=$(grep -E ' 0x01 -> | ERR [0-9A-Fa-f]{4}:' "$log" |
    grep -vE ' 0x01 -> keiro: ERR KE[0-9]{2}: | 0x01 -> ucast_mgr_route: keiro-[a-z]+: cannot build fwd tables$')
  for k in ${IT_KNOWN_OSM_ERRS[@]+"${IT_KNOWN_OSM_ERRS[@]}"}; do
    errs=$(printf '%s\n' "$errs" | grep -vE -- "$k")
  done
  errs=$(printf '%s\n' "$errs" | sed '/^$/d')
  [ -z "$errs" ] && return 0
  it_fail "OpenSM logged $(printf '%s\n' "$errs" | wc -l) error line(s) in $log:"
  printf '%s\n' "$errs" | head -n 5 | sed 's/^/    /'
  return 1
}

# it_expect_qos_off ENGINE: the last run routed with ENGINE with OpenSM's QoS
# off: ENGINE says so in one line (routing with 1 VL), configures every
# switch, logs no keiro error and OpenSM no error of its own, the summary
# reports 1 VL used and the SA hands out SL 0 only.
it_expect_qos_off() {
  local engine=$1 vls
  it_expect_log "$engine: QoS is off.*routing with 1 VL" 1
  it_expect_log "$engine tables configured on all switches" 1
  it_expect_log 'ERR KE' 0
  it_no_osm_errors
  vls=$(it_summary_field "VLs used")
  [ "$vls" = 1 ] || it_fail "$engine: VLs used '$vls', expected 1"
  if grep -E '^slid ' "$IT_OUT/sa-path-sl.dump" | cut -d' ' -f3 | grep -q '[1-9a-f]'; then
    it_fail "$engine: the SA hands out SLs other than 0"
  fi
}

# it_check_installed [keiro check options]: the installed tables of the last
# run (dumps + the SA's SLs) pass keiro check: every pair reachable, no loop,
# no credit loop; and the independent oracle says the same (it_oracle_agrees).
it_check_installed() {
  local rc
  "$IT_KEIRO" check "$IT_OUT/dumps" --sls "$IT_OUT/sa-path-sl.dump" "$@" >"$IT_OUT/check.txt" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    it_fail "keiro check failed (rc $rc) on $IT_OUT:"
    tail -n 15 "$IT_OUT/check.txt"
    return 1
  fi
  it_oracle_agrees "$IT_OUT/dumps" --sls "$IT_OUT/sa-path-sl.dump" "$@"
}

# it_oracle_agrees DIR [keiro check options]: tests/oracle/oracle.py (written
# apart from keiro's check, docs/testing.md) and keiro check agree on DIR:
# the same exit status, pairs checked, forwarding loops, unreachable pairs,
# stale drops and credit-loop verdict (unicast and multicast together); when
# both exit 2 (unusable input) only that. --sls, --stale-sls, --pairs,
# --fixed-sl, --mixed-sl, --assume-sl, --lmc and --mcast-sl go to both; --vls
# (a VL budget the oracle does not know) to keiro check only, whose exit
# status then is compared one way: keiro check passing within the budget
# must be the oracle passing (a budget only adds errors). Verdict files: DIR/../verdict-{keiro,oracle}.json
# (IT_VERDICTS=PREFIX: PREFIX-{keiro,oracle}.json instead). Sets IT_ORACLE_RC
# to the oracle's exit status when they agree.
it_oracle_agrees() {
  local dir=$1 krc orc vls=0 diff
  shift
  local kopts=() oopts=()
  while [ $# -gt 0 ]; do
    case $1 in
      --sls | --stale-sls | --pairs | --fixed-sl | --mixed-sl | --assume-sl | --lmc | --mcast-sl)
        kopts+=("$1" "$2") oopts+=("$1" "$2"); shift 2 ;;
      --vls) kopts+=("$1" "$2") vls=1; shift 2 ;;
      *) kopts+=("$1"); shift ;;
    esac
  done
  local v=${IT_VERDICTS:-$dir/../verdict}
  "$IT_KEIRO" check "$dir" --json ${kopts[@]+"${kopts[@]}"} >"$v-keiro.json" 2>"$v-keiro.err"
  krc=$?
  python3 "$KEIRO_SRCDIR/tests/oracle/oracle.py" "$dir" --json ${oopts[@]+"${oopts[@]}"} \
    >"$v-oracle.json" 2>"$v-oracle.err"
  orc=$?
  diff=$(python3 - "$v-keiro.json" "$v-oracle.json" "$krc" "$orc" "$vls" <<'EOF'
import json, sys
kpath, opath, krc, orc, vls = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
if krc == 2 and orc == 2:
    sys.exit()  # both: unusable input
try:
    k, o = json.load(open(kpath)), json.load(open(opath))
except ValueError:
    print("no JSON verdict (keiro check exit %d, oracle exit %d)" % (krc, orc)); sys.exit()
c, u = k["check"], o["unicast"]
pairs = [("pairs checked", c["pairs_checked"], u["pairs"]),
         ("forwarding loops", c["loops"], u["loops"]), ("unreachable", c["unreachable"], u["unreachable"]),
         ("stale drops", c.get("stale_drops", 0), u["stale_drops"]),
         ("credit loop", c["credit_loop"], o["credit_loop"] or o.get("mcast", {}).get("credit_loop", False))]
if not vls:
    pairs.append(("exit status", krc, orc))
elif krc == 0 and orc != 0:
    pairs.append(("exit status (keiro check within the VL budget)", krc, orc))
print("; ".join("%s: keiro check %s, oracle %s" % (n, a, b) for n, a, b in pairs if a != b))
EOF
)
  if [ -n "$diff" ]; then
    it_fail "$dir: keiro check and the independent oracle disagree: $diff"
    return 1
  fi
  IT_ORACLE_RC=$orc
  return 0
}

# it_oracle_passes_all DIR: every dump directory DIR/* with LFTs (tables
# that passed keiro's own check) must pass the independent oracle too, with
# keiro check agreeing (it_oracle_agrees, verdicts kept in each directory);
# it_fail names each one that does not. Sets IT_ORACLE_N to the directories
# checked.
it_oracle_passes_all() {
  local d
  IT_ORACLE_N=0
  for d in "$1"/*; do
    [ -f "$d/opensm-lfts.dump" ] || continue
    IT_VERDICTS=$d it_oracle_agrees "$d" && [ "$IT_ORACLE_RC" -eq 0 ] ||
      it_fail "$(basename "$d"): the independent oracle does not pass the tables"
    IT_ORACLE_N=$((IT_ORACLE_N + 1))
  done
}

# it_live_check WANT_RC [keiro check options]: keiro check --live on the
# running fabric (it_start): ibnetdiscover, ibroute, smpquery sl2vl and the
# SA through umad2sim, as on hardware; what was read is saved to
# $IT_OUT/live. Fails unless the exit status is WANT_RC.
# it_live_sl2vl_complete: the last live read got every SL2VL row ("read N of
# N SL2VL rows" in its notes; no such note counts as complete).
it_live_sl2vl_complete() {
  sed -nE 's/.*read ([0-9]+) of ([0-9]+) SL2VL rows.*/\1 \2/p' "$IT_OUT/live-check.txt" |
    awk '$1 != $2 { bad = 1 } END { exit bad }'
}

# keiro check --live takes VL 0 for an SL2VL query that got no answer (it
# says "read N of M SL2VL rows"); under ibsim on a loaded machine smpquery
# sometimes times out, so an incomplete read is repeated (up to 3 reads) and
# a read that stays incomplete fails the test.
it_live_check() {
  local want=$1 rc try
  shift
  for try in 1 2 3; do
    "$IT_KEIRO" check --live --umad2sim "$KH_UMAD2SIM" "$@" --save "$IT_OUT/live" \
      >"$IT_OUT/live-check.txt" 2>&1
    rc=$?
    it_live_sl2vl_complete && break
    it_log "$(basename "$IT_OUT"): read $try incomplete: $(grep -o 'read [0-9]* of [0-9]* SL2VL rows' "$IT_OUT/live-check.txt")"
  done
  if ! it_live_sl2vl_complete; then
    it_fail "$IT_OUT: keiro check --live could not read every SL2VL table in 3 tries"
    return 1
  fi
  if [ "$rc" -ne "$want" ]; then
    it_fail "$IT_OUT: keiro check --live exited $rc, expected $want"
    sed -n '1,25p' "$IT_OUT/live-check.txt"
    return 1
  fi
  it_log "$(basename "$IT_OUT"): keiro check --live -> $rc ($(grep -E '^  (path SLs|credit loops)|read the fabric' \
    "$IT_OUT/live-check.txt" | sed 's/  */ /g' | tr '\n' ';'))"
  # The verdict is also the independent oracle's, on what was read live.
  IT_VERDICTS=$IT_OUT/live-verdict it_oracle_agrees "$IT_OUT/live" || return 1
  [ "$IT_ORACLE_RC" -eq "$want" ] || { it_fail "$IT_OUT: the oracle exited $IT_ORACLE_RC on the live read, expected $want"; return 1; }
}

# it_same_lfts: what the switches hold (it_live_check's $IT_OUT/live) equals
# what OpenSM dumped as installed: every switch's port per LID, and every
# SL2VL table.
it_same_lfts() {
  local a b
  a=$(grep -E '^0x' "$IT_OUT/dumps/opensm-lfts.dump" | cut -c1-10 | md5sum)
  b=$(grep -E '^0x' "$IT_OUT/live/opensm-lfts.dump" 2>/dev/null | cut -c1-10 | md5sum)
  [ -n "$(grep -E '^0x' "$IT_OUT/dumps/opensm-lfts.dump" | head -n 1)" ] ||
    { it_fail "$IT_OUT: opensm-lfts.dump has no LFT entries"; return 1; }
  [ "$a" = "$b" ] || { it_fail "$IT_OUT: live LFTs differ from opensm-lfts.dump"; return 1; }
  cmp -s "$IT_OUT/dumps/opensm-sl2vl.dump" "$IT_OUT/live/opensm-sl2vl.dump" ||
    { it_fail "$IT_OUT: live SL2VL tables differ from opensm-sl2vl.dump"; return 1; }
}

# it_summary_field NAME: a number from the last "keiro: ENGINE: routed ..."
# INFO line of the last run, e.g. it_summary_field "VLs used" -> 3.
it_summary_field() { kh_summary_field "$IT_OUT/opensm.log" "$1"; }

# it_analyze_json DUMPS [keiro analyze options] -- FIELD[:FORMAT]...: runs
# `keiro analyze --json` on DUMPS (the JSON stays in $IT_OUT/analyze.json)
# and prints the FIELDs, one per line (kh_json).
it_analyze_json() {
  local dumps=$1 analyze_args=()
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do analyze_args+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  "$IT_KEIRO" analyze "$dumps" --json ${analyze_args[@]+"${analyze_args[@]}"} >"$IT_OUT/analyze.json" 2>"$IT_OUT/analyze.err"
  kh_json "$IT_OUT/analyze.json" "$@"
}

# it_route_nue NETFILE [K...]: routes the fabric with keiro-nue through
# OpenSM once per VL cap K (default 1 2 4 8) and checks each result:
# OpenSM installed keiro-nue's tables, keiro logged no error, at most K VLs
# were used, and the installed tables (dumps + SA SLs) pass keiro check
# with the budget (--vls K: no hop of any path on VL K or above).
it_route_nue() {
  local net=$1 k vls ks
  shift
  ks=("$@")
  [ ${#ks[@]} -eq 0 ] && ks=(1 2 4 8)
  for k in "${ks[@]}"; do
    if ! it_run "k$k" "$net" -s -e keiro-nue,updn -p "max_vls=$k"; then
      it_fail "k=$k: no SUBNET UP"
      continue
    fi
    it_expect_log 'keiro-nue tables configured on all switches' 1 || continue
    it_expect_log 'ERR KE' 0 || grep 'ERR KE' "$IT_OUT/opensm.log" | head -3
    it_no_osm_errors
    vls=$(it_summary_field "VLs used")
    if [ -z "$vls" ] || [ "$vls" -gt "$k" ]; then
      it_fail "k=$k: keiro-nue reports '${vls:-nothing}' VLs used"
    fi
    it_check_installed --lmc 0 --vls "$k" || continue
    it_log "k=$k: ok ($(kh_summary_line "$IT_OUT/opensm.log" keiro-nue | sed 's/.*keiro-nue: //'))"
  done
}

# it_done: exit status for the test driver. A passing test's forwarding
# tables go: OpenSM's and keiro's dumps (LFTs, SL2VL, path SLs, subnet list)
# are most of what a test writes (2.4 of 2.7 GB in make check), and CI's
# machine has a few GB of disk. Logs, verdicts and results stay; a failing
# test keeps everything.
it_done() {
  if [ "$IT_FAILS" -ne 0 ]; then
    it_log "$IT_FAILS failure(s); runs kept in $IT_DIR"
    exit 1
  fi
  [ -d "$IT_DIR" ] && find "$IT_DIR" -type f \( -name '*.dump' -o -name '*.fdbs' -o -name '*.lst' \) -delete
  it_log "PASS"
  exit 0
}
