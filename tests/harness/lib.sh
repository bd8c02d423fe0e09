# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# keiro's ibsim + OpenSM harness, sourced by run-fabric.sh, the integration
# tests and the demo. Every process it starts is recorded by PID in the run
# directory and stopped by kh_stop (also from the EXIT trap). Nothing here
# kills by name.
#
# Environment:
#   KEIRO_BUILDDIR   build tree with .libs/libkeiro.so and tests/harness/sa_path_sl
#                    (default: the current directory)
#   KEIRO_UMAD2SIM   libumad2sim.so (default: found through dpkg, then the
#                    multiarch library directories)
#   KEIRO_INSTALLED  1: load the installed libkeiro.so (ld.so.cache), not the
#                    build tree's .libs/libkeiro.so
#   KEIRO_VERBOSE    1: progress lines on stderr
#   KEIRO_PRELOAD    libraries put before umad2sim in OpenSM's LD_PRELOAD
#                    (a sanitizer runtime: tests/soak/asan-plugin.sh)
#   KEIRO_STOP_WAIT  seconds kh_stop_pid waits after TERM (default 5; a
#                    sanitized OpenSM checks for leaks while it exits)

# kh_find_umad2sim: the path of libumad2sim.so on this machine (any
# architecture): what the libumad2sim0 package installed, else the first one
# under a library directory; empty when there is none.
kh_find_umad2sim() {
  local f
  f=$(dpkg-query -L libumad2sim0 2>/dev/null | grep '/libumad2sim\.so$' | head -n 1)
  if [ -z "$f" ]; then
    for f in /usr/lib/*/umad2sim/libumad2sim.so /usr/lib/umad2sim/libumad2sim.so \
             /usr/local/lib/umad2sim/libumad2sim.so ""; do
      [ -z "$f" ] || [ -r "$f" ] && break
    done
  fi
  echo "$f"
}
KH_UMAD2SIM=${KEIRO_UMAD2SIM:-$(kh_find_umad2sim)}

# kh_usage SCRIPT END: SCRIPT's header comment from '# usage:' to the line
# starting '# END' on stderr, without the '# '; exits 2.
kh_usage() { sed -n "/^# usage:/,/^# $2/p" "$1" | sed 's/^# \{0,1\}//' >&2; exit 2; }
KH_BUILDDIR=${KEIRO_BUILDDIR:-$PWD}

# kh_options 'L=var ...' USAGE_CMD "$@": the harness scripts' option
# convention in one place: each letter L takes an argument, stored in the
# script's variable var; -h or an unknown letter runs USAGE_CMD (which
# exits). Sets KH_SHIFT to the number of words taken ("shift $KH_SHIFT").
kh_options() {
  local map=$1 on_usage=$2 spec= pair opt OPTIND=1
  shift 2
  for pair in $map; do spec+="${pair%%=*}:"; done
  while getopts "${spec}h" opt; do
    for pair in $map; do
      if [ "$opt" = "${pair%%=*}" ]; then
        printf -v "${pair#*=}" '%s' "$OPTARG"
        continue 2
      fi
    done
    eval "$on_usage"
  done
  KH_SHIFT=$((OPTIND - 1))
}

kh_say() { [ "${KEIRO_VERBOSE:-0}" = 1 ] && echo "harness: $*" >&2; return 0; }
kh_fail() { echo "harness: $*" >&2; return 1; }

# kh_prereq: the commands the harness needs.
kh_prereq() {
  local c
  for c in ibsim opensm; do
    command -v "$c" >/dev/null 2>&1 || { kh_fail "'$c' not found (apt-get install opensm ibsim-utils)"; return 1; }
  done
  [ -n "$KH_UMAD2SIM" ] && [ -r "$KH_UMAD2SIM" ] ||
    { kh_fail "libumad2sim.so not found (apt-get install libumad2sim0, or set KEIRO_UMAD2SIM)"; return 1; }
}

# kh_init DIR: a fresh run directory (absolute path in KH_DIR).
kh_init() {
  KH_DIR=$(mkdir -p "$1" && cd "$1" && pwd) || return 1
  rm -rf "$KH_DIR/dumps" "$KH_DIR/cache" "$KH_DIR"/sys-* "$KH_DIR"/*.pid \
    "$KH_DIR/opensm.log" "$KH_DIR/opensm.out" "$KH_DIR/ibsim.out"
  mkdir -p "$KH_DIR/dumps" "$KH_DIR/cache"
  # Abstract unix socket names: unique per run so parallel runs never meet.
  export IBSIM_SOCKNAME="keiro$$_${RANDOM}${RANDOM}"
  KH_OSM_PID= KH_IBSIM_PID=
}

# kh_pid_alive PID
kh_pid_alive() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null; }

# kh_stop_pid PID NAME: TERM, wait up to KEIRO_STOP_WAIT (5) s, then KILL.
kh_stop_pid() {
  local pid=$1 i
  kh_pid_alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null
  for i in $(seq $((${KEIRO_STOP_WAIT:-5} * 10))); do
    kh_pid_alive "$pid" || break
    sleep 0.1
  done
  if kh_pid_alive "$pid"; then
    kh_say "$2 ($pid) ignores TERM, killing it"
    kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null
  return 0
}

# kh_stop: stops OpenSM, then ibsim; removes umad2sim's sys-<pid> trees.
kh_stop() {
  [ -n "${KH_DIR:-}" ] || return 0
  kh_stop_pid "${KH_OSM_PID:-}" opensm
  kh_stop_pid "${KH_IBSIM_PID:-}" ibsim
  KH_OSM_PID= KH_IBSIM_PID=
  rm -rf "$KH_DIR"/sys-* 2>/dev/null
  rm -f "$KH_DIR"/*.pid
  return 0
}

# kh_start_ibsim NETFILE: ibsim on the net file, limits raised to the
# fabric's size; waits until its control socket exists. Its console reads
# the FIFO $KH_DIR/ibsim.console (opened read-write, so it never sees EOF):
# send commands with kh_ibsim_cmd.
kh_start_ibsim() {
  local net=$1 nodes switches ports i
  [ -r "$net" ] || { kh_fail "cannot read net file $net"; return 1; }
  nodes=$(grep -cE '^[[:space:]]*(Switch|Hca|Ca|Rt)[[:space:]]' "$net")
  switches=$(grep -cE '^[[:space:]]*Switch[[:space:]]' "$net")
  # ibsim's defaults: 2048 nodes, 256 switches, 256*36+2048*2 ports.
  local N=$(( nodes * 2 + 64 )) S=$(( switches * 2 + 16 ))
  [ "$N" -lt 2048 ] && N=2048
  [ "$S" -lt 256 ] && S=256
  ports=$(( S * 64 + N * 4 ))
  cp "$net" "$KH_DIR/fabric.net"
  rm -f "$KH_DIR/ibsim.console"
  mkfifo "$KH_DIR/ibsim.console" || return 1
  (cd "$KH_DIR" && exec ibsim -s -N "$N" -S "$S" -P "$ports" fabric.net \
     <>ibsim.console >ibsim.out 2>&1) &
  KH_IBSIM_PID=$!
  echo "$KH_IBSIM_PID" >"$KH_DIR/ibsim.pid"
  for i in $(seq 300); do
    grep -q "@${IBSIM_SOCKNAME}:ctl@" /proc/net/unix 2>/dev/null && { kh_say "ibsim up ($KH_IBSIM_PID)"; return 0; }
    kh_pid_alive "$KH_IBSIM_PID" || break
    sleep 0.1
  done
  kh_fail "ibsim did not start on $net:"
  grep -v '^ibwarn' "$KH_DIR/ibsim.out" | tail -5 >&2
  return 1
}

# kh_ibsim_cmd 'COMMAND': one ibsim console command, e.g.
#   kh_ibsim_cmd 'Unlink "S3"[5]'    kh_ibsim_cmd 'ReLink "S3"[5]'
kh_ibsim_cmd() {
  kh_pid_alive "$KH_IBSIM_PID" || { kh_fail "ibsim is not running"; return 1; }
  printf '%s\n' "$1" >"$KH_DIR/ibsim.console"
  kh_say "ibsim: $1"
}

# kh_write_conf FILE KEY=VALUE...: an opensm.conf for the run. Keys given
# override the defaults below; "plugin_options" goes to event_plugin_options,
# "plugin=no" leaves the plugin out. "mcast=yes" is for tests that join
# multicast groups: sa_db_dump TRUE (OpenSM writes opensm-sa.dump, the
# groups with their SL and member port GIDs, into the dump directory) and
# sweep_interval 1, because OpenSM rewrites opensm-sa.dump only at the end
# of a sweep (light sweeps too, when a join or leave changed the SA's
# database) and sweep_interval 0 means no light sweeps at all.
# "sweep_interval=N" and "sa_db_dump=TRUE" set either alone.
kh_write_conf() {
  local conf=$1; shift
  local engines="keiro-nue,updn" popts="" plugin=yes qos=TRUE lmc=0 maxop=5 extra=""
  local sweep=0 sadump=""
  local kv
  for kv in "$@"; do
    case $kv in
      engines=*) engines=${kv#engines=} ;;
      plugin_options=*) popts=${kv#plugin_options=} ;;
      plugin=*) plugin=${kv#plugin=} ;;
      qos=*) qos=${kv#qos=} ;;
      lmc=*) lmc=${kv#lmc=} ;;
      max_op_vls=*) maxop=${kv#max_op_vls=} ;;
      sweep_interval=*) sweep=${kv#sweep_interval=} ;;
      sa_db_dump=*) sadump=${kv#sa_db_dump=} ;;
      mcast=yes) sadump=TRUE; [ "$sweep" = 0 ] && sweep=1 ;;
      mcast=*) ;;
      *) extra="$extra${kv%%=*} ${kv#*=}"$'\n' ;;
    esac
  done
  {
    echo "# written by keiro's harness (tests/harness/lib.sh)"
    if [ "$plugin" = yes ]; then
      echo "event_plugin_name keiro"
      [ -n "$popts" ] && echo "event_plugin_options $popts"
    fi
    echo "routing_engine $engines"
    echo "qos $qos"
    echo "lmc $lmc"
    echo "max_op_vls $maxop"
    echo "log_flags 0x43"
    echo "force_log_flush TRUE"
    echo "dump_files_dir $KH_DIR/dumps"
    echo "sweep_interval $sweep"
    [ -n "$sadump" ] && echo "sa_db_dump $sadump"
    echo "sm_priority 15"
    printf '%s' "$extra"
  } >"$conf"
}

# kh_start_opensm CONF: OpenSM on the simulated fabric with umad2sim, the
# plugin from $KH_BUILDDIR/.libs on LD_LIBRARY_PATH.
kh_start_opensm() {
  local conf=$1 libdir="$KH_BUILDDIR/.libs"
  [ "${KEIRO_INSTALLED:-0}" = 1 ] && libdir=/nonexistent
  if [ "${KEIRO_INSTALLED:-0}" != 1 ] && grep -q '^event_plugin_name keiro' "$conf" &&
     [ ! -e "$libdir/libkeiro.so" ]; then
    kh_fail "no $libdir/libkeiro.so: build first (make), or set KEIRO_BUILDDIR"
    return 1
  fi
  (cd "$KH_DIR" && \
   OSM_CACHE_DIR="$KH_DIR/cache" OSM_TMP_DIR="$KH_DIR" \
   LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
   LD_PRELOAD="${KEIRO_PRELOAD:+$KEIRO_PRELOAD }$KH_UMAD2SIM" \
   exec opensm -F "$conf" -f "$KH_DIR/opensm.log" </dev/null >opensm.out 2>&1) &
  KH_OSM_PID=$!
  echo "$KH_OSM_PID" >"$KH_DIR/opensm.pid"
  kh_say "opensm started ($KH_OSM_PID)"
}

# kh_log_tail [N]: the end of the OpenSM log (and its stdout) for diagnostics.
kh_log_tail() {
  local n=${1:-25}
  echo "---- last $n lines of $KH_DIR/opensm.log ----" >&2
  tail -n "$n" "$KH_DIR/opensm.log" >&2 2>/dev/null
  if [ -s "$KH_DIR/opensm.out" ]; then
    echo "---- opensm stdout/stderr ----" >&2
    grep -v '^ibwarn' "$KH_DIR/opensm.out" | tail -n 8 >&2
  fi
}

# kh_count PATTERN: lines of the OpenSM log matching an ERE.
kh_count() {
  local n
  n=$(grep -cE "$1" "$KH_DIR/opensm.log" 2>/dev/null)
  echo "${n:-0}"
}

# kh_wait_up TIMEOUT_S [UPS]: waits until the log says "SUBNET UP" UPS times
# (default 1). Fails if OpenSM exits, if a sweep ends in "Errors during
# initialization" three times, or on timeout; then prints the log's tail.
kh_wait_up() {
  local timeout=${1:-120} want=${2:-1} t0=$SECONDS n
  while :; do
    n=$(kh_count 'SUBNET UP')
    [ "$n" -ge "$want" ] && { kh_say "SUBNET UP after $((SECONDS - t0)) s"; return 0; }
    if ! kh_pid_alive "$KH_OSM_PID"; then
      kh_fail "opensm exited before SUBNET UP"
      kh_log_tail; return 1
    fi
    if [ "$(kh_count 'Errors during initialization')" -ge 3 ]; then
      kh_fail "OpenSM keeps failing to initialize the subnet"
      kh_log_tail; return 1
    fi
    if [ $((SECONDS - t0)) -ge "$timeout" ]; then
      kh_fail "no SUBNET UP within $timeout s"
      kh_log_tail; return 1
    fi
    sleep 0.2
  done
}

# kh_sa_sls OUT: asks the SA (sa_path_sl; KEIRO_SA_PATH_SL names another
# copy of it, e.g. a package build tree's) for the SL of every (source,
# destination) pair and writes them to OUT as a keiro path-SL file
# (source-lid scope, core/io/path_sl_file.h). Sources and destinations:
# every LID routed in opensm-lfts.dump, at every fabric size (~20,000
# PathRecords per second under ibsim): keiro check needs the SL of every pair
# it checks and never guesses one (docs/check.md).
kh_sa_sls() {
  local out=$1 tool="${KEIRO_SA_PATH_SL:-$KH_BUILDDIR/tests/harness/sa_path_sl}"
  [ -x "$tool" ] || { kh_fail "no $tool: build first (make)"; return 1; }
  local lfts="$KH_DIR/dumps/opensm-lfts.dump"
  [ -s "$lfts" ] || { kh_fail "no $lfts (log_flags needs 0x40)"; return 1; }
  awk '
    function hex(s,   v, i) {
      s = tolower(s); sub(/^0x/, "", s); v = 0
      for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return v
    }
    /^0x[0-9a-fA-F]+ [0-9]+ #/ { lid[hex($1)] = 1 }
    END { for (s in lid) for (d in lid) if (s != d) print s, d }' "$lfts" |
    sort -n -k1,1 -k2,2 >"$KH_DIR/sa-pairs.txt"
  local t0=$SECONDS
  (cd "$KH_DIR" && LD_PRELOAD="$KH_UMAD2SIM" "$tool" --pairs "$KH_DIR/sa-pairs.txt" \
     >"$out" 2>"$KH_DIR/sa_path_sl.err")
  local rc=$?
  kh_say "SA: $(wc -l <"$KH_DIR/sa-pairs.txt") PathRecords in $((SECONDS - t0)) s"
  [ $rc -eq 0 ] || { kh_fail "SA queries failed (rc $rc):"; tail -3 "$KH_DIR/sa_path_sl.err" >&2; }
  return $rc
}

# ---- multicast groups (sa_mcast; the run needs kh_write_conf ... mcast=yes) ----

# kh_ca_ports: one line per CA port of the running fabric, from
# opensm-subnet.lst: "PORTGUID SWITCHGUID SWITCHPORT" (0x-prefixed hex GUIDs,
# the switch's node GUID as opensm.mcfdbs names it, the port in decimal;
# opensm-subnet.lst has it in hex),
# sorted by port GUID.
kh_ca_ports() {
  awk '
    function hex(s,   v, i) {
      s = tolower(s); v = 0
      for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return v
    }
    /^\{ CA / {
      split($0, half, "} {")
      g = half[1]; sub(/.*PortGUID:/, "", g); sub(/ .*/, "", g)
      s = half[2]; sub(/.*NodeGUID:/, "", s); sub(/ .*/, "", s)
      p = half[2]; sub(/.* PN:/, "", p); sub(/ .*/, "", p)
      if (half[2] ~ /^ *SW/) printf "0x%s 0x%s %d\n", tolower(g), tolower(s), hex(p)
    }' "$KH_DIR/dumps/opensm-subnet.lst" | sort -u
}

# kh_mcast_join_file FILE [OUT]: runs sa_mcast (tests/harness/sa_mcast.cc)
# under umad2sim on the commands in FILE (join/leave/query lines); its answer
# lines go to OUT (default: stdout), its errors to $KH_DIR/sa_mcast.err.
# Returns sa_mcast's exit status: 0 every command succeeded, 1 the SA refused
# some (ERR lines), 2 no answer or usage error.
kh_mcast_join_file() {
  local file=$1 out=${2:-/dev/stdout} tool="$KH_BUILDDIR/tests/harness/sa_mcast" rc
  [ -x "$tool" ] || { kh_fail "no $tool: build first (make)"; return 2; }
  case $file in /*) ;; *) file="$PWD/$file" ;; esac
  case $out in /*) ;; *) out="$PWD/$out" ;; esac
  (cd "$KH_DIR" && LD_PRELOAD="$KH_UMAD2SIM" "$tool" --file "$file" >"$out" 2>>"$KH_DIR/sa_mcast.err")
  rc=$?
  [ $rc -eq 2 ] && { kh_fail "sa_mcast failed (rc 2):"; grep -v '^ibwarn' "$KH_DIR/sa_mcast.err" | tail -3 >&2; }
  return $rc
}

# kh_mcast CMD...: one sa_mcast command line, its answer on stdout.
kh_mcast() {
  printf '%s\n' "$*" >"$KH_DIR/sa_mcast.one"
  kh_mcast_join_file "$KH_DIR/sa_mcast.one"
}

# The settle fence. OpenSM answers a join or leave before it has built the
# group's tree (the SA queues the MLID; the sweeper thread rebuilds the
# queued MLIDs in one pass, sets the switches' multicast tables and rewrites
# opensm.mcfdbs), and it rewrites opensm-sa.dump only at the next light
# sweep; no log line at the harness's log level marks either, and both files
# are rewritten in place. So after its changes a test toggles one more
# member of a group of its own: port C joins or leaves the fence group
# ($KH_MCAST_FENCE_MGID; members A and B stay). The state is settled when
# opensm.mcfdbs shows C's switch port in the fence group's entry on C's
# switch exactly when C is a member (the pass that handled that change
# handled every earlier one too: the SA queued them before it, under the
# same lock), when opensm-sa.dump lists C exactly when C is a member (so it
# was written after every change), and when neither file has changed for
# 0.3 s. The fence group is a group like any other: checks see it too.
KH_MCAST_FENCE_MGID=${KH_MCAST_FENCE_MGID:-ff12:401b:ffff::f0f0}

# kh_mcast_fence_init: creates the fence group: the first CA ports (by GUID)
# on three different switches are A, B and C (fewer switches: any three CA
# ports). Sets KH_MCAST_FENCE_MLID; C starts outside the group.
kh_mcast_fence_init() {
  local a b c
  read -r a b c < <(kh_ca_ports | awk '!($2 in sw) { sw[$2] = 1; print $1 }' | head -n 3 | tr '\n' ' ')
  [ -n "$c" ] || read -r a b c < <(kh_ca_ports | head -n 3 | cut -d' ' -f1 | tr '\n' ' ')
  [ -n "$c" ] || { kh_fail "fewer than three CA ports: no multicast fence"; return 1; }
  KH_MCAST_FENCE_C=$c KH_MCAST_FENCE_IN=0
  printf 'join %s %s\njoin %s %s\n' "$KH_MCAST_FENCE_MGID" "$a" "$KH_MCAST_FENCE_MGID" "$b" \
    >"$KH_DIR/fence.cmd"
  kh_mcast_join_file "$KH_DIR/fence.cmd" "$KH_DIR/fence.out" ||
    { kh_fail "cannot create the fence group: $(cat "$KH_DIR/fence.out")"; return 1; }
  KH_MCAST_FENCE_MLID=$(awk 'END { print $1 }' "$KH_DIR/fence.out")
  kh_say "multicast fence: group $KH_MCAST_FENCE_MGID mlid $KH_MCAST_FENCE_MLID, toggling $c"
}

# kh_mcast_settle [TIMEOUT_S]: toggles the fence member (above) and waits
# until OpenSM has processed every earlier join and leave: opensm.mcfdbs and
# opensm-sa.dump then show the settled state. Fails on timeout (default 30 s)
# or when OpenSM exits.
kh_mcast_settle() {
  local timeout=${1:-30} cmd=join sw port
  [ -n "${KH_MCAST_FENCE_MLID:-}" ] || kh_mcast_fence_init || return 1
  [ "$KH_MCAST_FENCE_IN" = 1 ] && cmd=leave
  kh_mcast "$cmd $KH_MCAST_FENCE_MGID $KH_MCAST_FENCE_C" >"$KH_DIR/fence.out" ||
    { kh_fail "fence $cmd refused: $(cat "$KH_DIR/fence.out")"; return 1; }
  KH_MCAST_FENCE_IN=$((1 - KH_MCAST_FENCE_IN))
  read -r _ sw port < <(kh_ca_ports | awk -v c="$KH_MCAST_FENCE_C" '$1 == c')
  python3 - "$KH_DIR/dumps" "$KH_MCAST_FENCE_MLID" "$KH_MCAST_FENCE_C" "$sw" "$port" \
      "$KH_MCAST_FENCE_IN" "$timeout" "$KH_OSM_PID" <<'EOF'
import os, re, sys, time
dumps, mlid, guid, sw, port, want, timeout, pid = sys.argv[1:]
mlid, guid, sw, port, want = int(mlid, 16), int(guid, 16), int(sw, 16), int(port), want == "1"
mcf, sad = os.path.join(dumps, "opensm.mcfdbs"), os.path.join(dumps, "opensm-sa.dump")
def mcf_has():
    cur = None
    for line in open(mcf):
        m = re.match(r"Switch (0x[0-9a-fA-F]+)", line)
        if m:
            cur = int(m.group(1), 16)
            continue
        m = re.match(r"(0x[0-9A-Fa-f]+) :(.*)", line)
        if m and cur == sw and int(m.group(1), 16) == mlid:
            return port in [int(x, 16) for x in m.group(2).split()]
    return False
def sad_has():
    inside = False
    for line in open(sad):
        m = re.match(r"MC Group (0x[0-9a-fA-F]+)", line)
        if m:
            inside = int(m.group(1), 16) == mlid
        elif inside and line.startswith("mcm_port:"):
            m = re.search(r"port_gid=0x[0-9a-f]+:(0x[0-9a-f]+)", line)
            if m and int(m.group(1), 16) == guid:
                return True
    return False
def stamp():
    return (os.stat(mcf).st_mtime_ns, os.stat(sad).st_mtime_ns)
t0, since, last = time.time(), 0.0, None
while time.time() - t0 < float(timeout):
    try:
        os.kill(int(pid), 0)
    except OSError:
        sys.exit("harness: OpenSM exited while waiting for the multicast state")
    try:
        s = stamp()
        ok = mcf_has() == want and sad_has() == want and stamp() == s
    except OSError:
        ok = False
    if not ok:
        last = None
    elif s != last:
        last, since = s, time.time()
    elif time.time() - since >= 0.3:
        sys.exit(0)
    time.sleep(0.05)
sys.exit("harness: OpenSM did not settle the multicast groups within %s s" % timeout)
EOF
}

# kh_mcast_snapshot DEST: copies the settled dump directory (after
# kh_mcast_settle) to DEST: every OpenSM and keiro dump, opensm.mcfdbs and
# opensm-sa.dump included.
kh_mcast_snapshot() {
  rm -rf "$1" && mkdir -p "$1" && cp -p "$KH_DIR"/dumps/* "$1"/
}

# kh_rss_kb [PID]: VmRSS of OpenSM (or PID) in kB; empty when it is gone.
kh_rss_kb() {
  awk '/^VmRSS:/ { print $2 }' "/proc/${1:-$KH_OSM_PID}/status" 2>/dev/null
}

# ---- reading results (no process is started here) ----

# kh_json FILE FIELD[:FORMAT]...: fields of a JSON document (e.g. the output
# of `keiro analyze --json`; FILE - reads stdin), one line per FIELD. FIELD is
# a dotted path: paths.avg_hops, check.pairs_checked, 0.efi.max (an index
# into an array, as with several inputs to keiro analyze). FORMAT is a Python
# %-format for numbers (paths.avg_hops:%.3f). A missing field or null prints
# an empty line; true/false print as such. Exit 1 when FILE is no JSON.
# Needs python3 (scripts/install-deps.sh).
kh_json() {
  python3 -c '
import json, sys
src = sys.argv[1]
try:
    doc = json.load(sys.stdin if src == "-" else open(src))
except (OSError, ValueError) as e:
    sys.exit("kh_json: %s: %s" % (src, e))
for spec in sys.argv[2:]:
    path, _, fmt = spec.partition(":")
    v = doc
    for k in path.split("."):
        if isinstance(v, list) and k.isdigit() and int(k) < len(v):
            v = v[int(k)]
        elif isinstance(v, dict) and k in v:
            v = v[k]
        else:
            v = None
            break
    if v is None:
        print("")
    elif isinstance(v, bool):
        print("true" if v else "false")
    elif fmt and isinstance(v, (int, float)):
        print(fmt % v)
    elif isinstance(v, (dict, list)):
        print(json.dumps(v))
    else:
        print(v)
' "$@"
}

# kh_installed_engine LOG: the engine whose tables OpenSM installed last
# ("<engine> tables configured on all switches"); empty when none.
kh_installed_engine() {
  sed -nE 's/.* ([A-Za-z0-9-]+) tables configured on all switches.*/\1/p' "$1" 2>/dev/null | tail -n 1
}

# kh_route_time LOG ENGINE: seconds (%.3f) from OpenSM's "building routing
# with 'ENGINE'" line to the next "ENGINE tables configured on all switches"
# line of the log (timestamps "Mon DD HH:MM:SS usec", same day). Both ends
# are OpenSM's own lines, so keiro's engines and OpenSM's built-in ones are
# timed the same way. Empty when the log lacks either line.
kh_route_time() {
  awk -v eng="$2" '
    function t(l,  a, h) { split(l, a, " "); split(a[3], h, ":");
                           return h[1] * 3600 + h[2] * 60 + h[3] + a[4] / 1e6 }
    index($0, "building routing with \047" eng "\047") { s = t($0) }
    s && index($0, ": " eng " tables configured on all switches") { printf "%.3f\n", t($0) - s; exit }
  ' "$1" 2>/dev/null
}

# kh_summary_line LOG [ENGINE]: the last summary line keiro's plugin logs
# after routing ("keiro: ENGINE: routed N switches, M end ports, L LIDs: VLs
# used U of K, SLs used S, [escape fallbacks F, ]read R s, route T s, ...");
# any keiro engine when ENGINE is not given.
kh_summary_line() {
  grep -E "keiro: ${2:-[a-z-]+}: routed [0-9]+ switches" "$1" 2>/dev/null | tail -n 1
}

# kh_summary_field LOG NAME [ENGINE]: the number after NAME (an ERE) in that
# line: "VLs used" -> 3, "VLs used [0-9]+ of" -> the VL budget, "SLs used",
# "escape fallbacks", "read", "route", "check" (seconds). Empty when absent.
kh_summary_field() {
  kh_summary_line "$1" "${3:-}" | sed -nE "s/.*$2 ([0-9.]+).*/\\1/p"
}

# kh_engine_fact LOG ENGINE KEY: KEY's value in the engine's last "facts"
# line of the log ("keiro: ENGINE: k1=v1, k2=v2, ...", e.g. keiro-acro's
# layers=3, escape_fallbacks=0). Empty when absent.
kh_engine_fact() {
  grep -E "keiro: $2: (.*, )?$3=" "$1" 2>/dev/null | tail -n 1 |
    sed -nE "s/.*[:,] $3=([^,]*).*/\\1/p"
}

# kh_gtest_counts LOG: "PASSED FAILED SKIPPED" of a GoogleTest run's output:
# the cases that ran, of which those that passed and those that were
# skipped; --gtest_brief prints no list of failures, so failed = ran -
# passed - skipped. A log without GoogleTest's closing summary (a crash)
# counts as one failure.
kh_gtest_counts() {
  local ran p s
  ran=$(sed -nE 's/^\[==========\] ([0-9]+) tests? from .* ran\..*/\1/p' "$1" | tail -n 1)
  p=$(sed -nE 's/^\[  PASSED  \] ([0-9]+) tests?\..*/\1/p' "$1" | tail -n 1)
  s=$(sed -nE 's/^\[  SKIPPED \] ([0-9]+) tests?[.,].*/\1/p' "$1" | tail -n 1)
  if [ -z "$ran" ]; then
    echo "0 1 0"
  else
    echo "${p:-0} $((ran - ${p:-0} - ${s:-0})) ${s:-0}"
  fi
}
