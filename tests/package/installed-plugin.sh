#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Runs against the *installed* Debian packages (keiro, keiro-opensm-plugin),
# with no build tree and no LD_LIBRARY_PATH: OpenSM must find libkeiro.so
# through the dynamic linker's cache, route the bundled demo fabric in ibsim
# with keiro-nue, and the installed /usr/bin/keiro must find the tables
# deadlock free with the SLs the plugin handed out. Also: the man pages and
# the bash completion are where the packages put them.
# usage: tests/package/installed-plugin.sh [SRCDIR]   (SRCDIR: a checkout, for
#        the harness scripts and the fabric; default: this script's checkout)
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
work=$(mktemp -d /tmp/keiro-installed.XXXXXX)
net=$src/ibsim-topologies/demo-lrt-25sw.net
[ -r "$net" ] || net=$(ls "$src"/ibsim-topologies/*.net | head -n 1)
if KEIRO_INSTALLED=1 KEIRO_BUILDDIR=/nonexistent "$src/tests/harness/run-fabric.sh" \
    -t "$net" -o "$work/run" -e keiro-nue,updn -p "max_vls=4" -w 300 >"$work/harness.txt" 2>&1; then
  log=$work/run/opensm.log
  grep -q "keiro-nue tables configured on all switches" "$log" ||
    bad "OpenSM did not install keiro-nue's tables: $(grep -m1 -E 'ERR|keiro' "$log")"
  grep -qE "keiro: keiro-nue: routed [0-9]+ switches" "$log" || bad "no keiro summary line in the log"
  if "$keiro" check "$work/run/dumps" >"$work/check.txt" 2>&1; then
    say "keiro check on the installed tables: $(grep -m1 -i result "$work/check.txt")"
  else
    bad "keiro check failed on the installed tables: $(head -n 3 "$work/check.txt")"
  fi
else
  bad "no SUBNET UP with the installed plugin: $(tail -n 3 "$work/harness.txt")"
fi
[ $fail = 0 ] && { say PASS; rm -rf "$work"; } || echo "installed-plugin: run files in $work"
exit $fail
