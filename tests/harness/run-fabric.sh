#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Runs one fabric through ibsim + the real OpenSM (with keiro loaded unless -P),
# waits for SUBNET UP, leaves OpenSM's dumps (and optionally the SA's path
# SLs) in OUTDIR, and stops everything it started.
#
# usage: run-fabric.sh -t NETFILE -o OUTDIR [options]
#   -e ENGINES     routing_engine list (default keiro-nue,updn)
#   -p 'k=v ...'   keiro's event_plugin_options
#   -P             no plugin: OpenSM's built-in engines only
#   -q TRUE|FALSE  qos (default TRUE)
#   -l LMC         lmc (default 0)
#   -m N           max_op_vls (default 5)
#   -c 'key value' extra opensm.conf line (repeatable)
#   -w SECONDS     how long to wait for SUBNET UP (default 120)
#   -M             multicast dumps: sa_db_dump TRUE and light sweeps every
#                  second, so opensm-sa.dump follows joins (kh_write_conf mcast=yes)
#   -s             ask the SA for the path SL of every (source, destination)
#                  LID pair -> OUTDIR/sa-path-sl.dump (kh_sa_sls)
#   -k             keep ibsim and OpenSM running; prints their PIDs and the
#                  IBSIM_SOCKNAME to use (stop them with kill PID)
# Environment: KEIRO_BUILDDIR (build tree, default .), KEIRO_VERBOSE=1.
# Files in OUTDIR: opensm.conf, opensm.log, dumps/ (opensm-lfts.dump,
# opensm-sl2vl.dump, opensm-subnet.lst, ...), sa-path-sl.dump.
# Exit: 0 subnet up (and SA answered), 1 failure, 2 usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

usage() { kh_usage "$0" Exit:; }

net= out= timeout=120 sa=no keep=no
conf_args=()
while getopts "t:o:e:p:Pq:l:m:c:w:sMkh" opt; do
  case $opt in
    t) net=$OPTARG ;;
    o) out=$OPTARG ;;
    e) conf_args+=("engines=$OPTARG") ;;
    p) conf_args+=("plugin_options=$OPTARG") ;;
    P) conf_args+=("plugin=no") ;;
    q) conf_args+=("qos=$OPTARG") ;;
    l) conf_args+=("lmc=$OPTARG") ;;
    m) conf_args+=("max_op_vls=$OPTARG") ;;
    c) conf_args+=("${OPTARG%% *}=${OPTARG#* }") ;;
    w) timeout=$OPTARG ;;
    s) sa=yes ;;
    M) conf_args+=("mcast=yes") ;;
    k) keep=yes ;;
    *) usage ;;
  esac
done
[ -n "$net" ] && [ -n "$out" ] || usage
case $net in /*) ;; *) net="$PWD/$net" ;; esac

kh_prereq || exit 1
kh_init "$out" || exit 1
[ "$keep" = yes ] || trap kh_stop EXIT
trap 'exit 1' INT TERM

kh_write_conf "$KH_DIR/opensm.conf" ${conf_args[@]+"${conf_args[@]}"}
kh_start_ibsim "$net" || exit 1
kh_start_opensm "$KH_DIR/opensm.conf" || exit 1
kh_wait_up "$timeout" || exit 1
if [ "$sa" = yes ]; then
  kh_sa_sls "$KH_DIR/sa-path-sl.dump" || exit 1
fi
if [ "$keep" = yes ]; then
  echo "ibsim pid $KH_IBSIM_PID, opensm pid $KH_OSM_PID, IBSIM_SOCKNAME=$IBSIM_SOCKNAME"
  echo "query with: IBSIM_SOCKNAME=$IBSIM_SOCKNAME LD_PRELOAD=$KH_UMAD2SIM saquery ..."
fi
exit 0
