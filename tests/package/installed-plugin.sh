#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Runs against the *installed* Debian packages (keiro, keiro-opensm-plugin),
# with no build tree and no LD_LIBRARY_PATH: OpenSM must find libkeiro.so
# through the dynamic linker's cache, route the bundled demo fabric in ibsim
# with keiro-nue, and the installed /usr/bin/keiro must find the tables
# deadlock free with the SLs the SA hands out (a PathRecord query for every
# (source, destination) LID pair, tests/harness/sa_path_sl), which must also
# be the SLs of the plugin's own keiro-path-sl.dump, pair by pair. Also: the
# man pages and the bash completion are where the packages put them.
# usage: tests/package/installed-plugin.sh [SRCDIR]   (SRCDIR: a checkout, for
#        the harness scripts and the fabric; default: this script's checkout)
# Environment: KEIRO_SA_PATH_SL: the sa_path_sl program (a test helper the
#        packages do not ship; scripts/package-test.sh passes the package
#        build tree's); default SRCDIR/build/tests/harness/sa_path_sl.
# Exit: 0 pass, 1 fail.
set -u
src=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
fail=0
say() { echo "installed-plugin: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

keiro=$(command -v keiro) || { echo "FAIL: no keiro on PATH (install the keiro package)"; exit 1; }
[ "$keiro" = /usr/bin/keiro ] || bad "keiro is $keiro, not the packaged /usr/bin/keiro"
lib=$(ldconfig -p | sed -nE 's/^[[:space:]]*libkeiro\.so .*=> (.*)$/\1/p' | head -n 1)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
# Debian 12 has a merged /usr: /lib is /usr/lib, and ldconfig may list either.
[ -n "$lib" ] && [ "$(readlink -f "$lib")" = "/usr/lib/$multiarch/libkeiro.so" ] &&
  dpkg -S "/usr/lib/$multiarch/libkeiro.so" >/dev/null 2>&1 ||
  bad "ldconfig finds libkeiro.so at '${lib:-nowhere}', expected /usr/lib/$multiarch/libkeiro.so"
[ -z "${LD_LIBRARY_PATH:-}" ] || bad "LD_LIBRARY_PATH is set ($LD_LIBRARY_PATH)"
say "$("$keiro" --version), plugin $lib"

# Minimal container images tell dpkg not to unpack man pages
# (path-exclude=/usr/share/man/* in /etc/dpkg/dpkg.cfg.d/); scripts/
# package-test.sh checks the pages inside the .deb files in any case.
if grep -qs '^path-exclude=/usr/share/man' /etc/dpkg/dpkg.cfg.d/*; then
  say "dpkg excludes /usr/share/man on this machine: man pages checked in the .deb files only"
else
  for page in keiro.1 keiro-plugin.8; do
    f=$(man -w "${page%.*}" 2>/dev/null)
    case $f in
      /usr/share/man/man*/"$page".gz) ;;
      *) bad "man -w ${page%.*} gives '${f:-nothing}'" ;;
    esac
  done
fi
[ -s /usr/share/bash-completion/completions/keiro ] || bad "no bash completion file"
[ -s /usr/share/doc/keiro-opensm-plugin/examples/opensm-keiro.conf ] ||
  bad "no example opensm.conf fragment under /usr/share/doc/keiro-opensm-plugin/examples"

# The demo fabric through ibsim + the stock OpenSM + the installed plugin.
sa_tool=${KEIRO_SA_PATH_SL:-$src/build/tests/harness/sa_path_sl}
[ -x "$sa_tool" ] || { echo "FAIL: no sa_path_sl at $sa_tool (set KEIRO_SA_PATH_SL)"; exit 1; }
export KEIRO_SA_PATH_SL=$sa_tool
work=$(mktemp -d /tmp/keiro-installed.XXXXXX)
net=$src/ibsim-topologies/demo-lrt-25sw.net
[ -r "$net" ] || net=$(ls "$src"/ibsim-topologies/*.net | head -n 1)
if KEIRO_INSTALLED=1 KEIRO_BUILDDIR=/nonexistent "$src/tests/harness/run-fabric.sh" \
    -t "$net" -o "$work/run" -e keiro-nue,updn -p "max_vls=4" -w 300 -s >"$work/harness.txt" 2>&1; then
  log=$work/run/opensm.log
  grep -q "keiro-nue tables configured on all switches" "$log" ||
    bad "OpenSM did not install keiro-nue's tables: $(grep -m1 -E 'ERR|keiro' "$log")"
  grep -qE "keiro: keiro-nue: routed [0-9]+ switches" "$log" || bad "no keiro summary line in the log"
  # The SA's answers (what applications get), not the plugin's own file.
  sa=$work/run/sa-path-sl.dump
  [ "$(grep -c '^slid ' "$sa" 2>/dev/null)" -ge 10 ] || bad "the SA answered for fewer than 10 source LIDs ($sa)"
  if "$keiro" check "$work/run/dumps" --sls "$sa" >"$work/check.txt" 2>&1; then
    say "keiro check with the SA's SLs: $(grep -m1 -iE 'pairs checked|result' "$work/check.txt")"
  else
    bad "keiro check with the SA's SLs failed on the installed tables: $(head -n 3 "$work/check.txt")"
  fi
  # The plugin's file says the same as the SA, pair by pair: in source-switch
  # scope each source LID's row is its switch's (a CA's switch from
  # opensm-subnet.lst), in destination scope (keiro-nue) the one row.
  python3 - "$work/run/dumps" "$sa" <<'PY' || bad "the plugin's keiro-path-sl.dump differs from the SA's answers"
import re, sys
d, sa = sys.argv[1], sys.argv[2]
def rows(path, key):
    return {m.group(1): m.group(2) for m in (re.match(r"^%s (\S+) (\S+)$" % key, l)
                                             for l in open(path)) if m}
plug = rows(d + "/keiro-path-sl.dump", "switch")
dest = next((l.split()[1] for l in open(d + "/keiro-path-sl.dump") if l.startswith("dest ")), None)
sal = rows(sa, "slid")
# opensm-subnet.lst: '{ CA ... LID:0xNNNN ...} <-> { SW PortGUID:... LID:0xMMMM ...}' and
# the switch's node GUID: map every LID to its switch's node GUID.
lid_sw, sw_guid = {}, {}
for l in open(d + "/opensm-subnet.lst"):
    ends = re.findall(r"\{ ([\w-]+) Ports:\w+ SystemGUID:(\w+) NodeGUID:(\w+) PortGUID:\w+ "
                      r"VenID:\w+ DevID:\w+ Rev:\w+ \{[^}]*\} LID:(\w+)", l)
    for kind, _, node, lid in ends[:1]:
        if kind.startswith("SW"):
            lid_sw[int(lid, 16)] = node
    if len(ends) == 2 and not ends[0][0].startswith("SW") and ends[1][0].startswith("SW"):
        lid_sw[int(ends[0][3], 16)] = ends[1][2]
norm = lambda g: "0x%016x" % int(g, 16)
plug = {norm(k): v for k, v in plug.items()}
n = diff = 0
for slid, row in sal.items():
    if dest is not None:  # destination scope: one row for every source
        prow = dest
    else:
        sw = lid_sw.get(int(slid))
        if sw is None or norm(sw) not in plug:
            print("no switch row for source LID", slid); sys.exit(1)
        prow = plug[norm(sw)]
    for i, c in enumerate(row):
        if c == "-":
            continue
        n += 1
        if i >= len(prow) or prow[i] != c:
            diff += 1
            if diff <= 3:
                print("slid %s dlid %d: SA %s, plugin %s" % (slid, i + 1, c, prow[i] if i < len(prow) else "none"))
print("installed-plugin: %d (source LID, destination) SLs of the SA compared with the plugin's file, %d differ" % (n, diff))
sys.exit(1 if diff or n < 100 else 0)
PY
else
  bad "no SUBNET UP with the installed plugin: $(tail -n 3 "$work/harness.txt")"
fi
[ $fail = 0 ] && { say PASS; rm -rf "$work"; } || echo "installed-plugin: run files in $work"
exit $fail
