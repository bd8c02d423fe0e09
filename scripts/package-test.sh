#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Builds the Debian packages from a clean copy of the checkout's HEAD,
# checks the plugin package's opensm dependency against the OpenSM it was
# built with (tests/package/deb-depends.sh), installs them, runs
# tests/package/installed-plugin.sh against the installed plugin and tool
# (no build tree, no LD_LIBRARY_PATH), checks lintian, then
# removes the packages and checks that nothing of them is left, and deletes
# the package build tree (the .deb files and logs stay). As root on a
# Debian 12 machine with keiro's build dependencies (scripts/install-deps.sh).
#
# usage: scripts/package-test.sh [WORKDIR]   (default /tmp/keiro-package)
# Environment: KEIRO_PKG_CHECK=1 also runs the unit tests inside the package
#   build (dh_auto_test); default off, since run-tests.sh runs them already.
# Exit: 0 pass, 1 fail.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/tmp/keiro-package}
rm -rf "$work" && mkdir -p "$work" || exit 1
step() { echo "package-test: $*"; }
die() { echo "package-test: FAIL: $*" >&2; exit 1; }

step "clean copy of $(git -C "$src" rev-parse --short HEAD)"
git -C "$src" archive --format=tar --prefix=keiro/ HEAD | tar -x -C "$work" || die "git archive"
opts=nocheck
[ "${KEIRO_PKG_CHECK:-0}" = 1 ] && opts=
step "dpkg-buildpackage -b -us -uc (DEB_BUILD_OPTIONS=${opts:-none})"
(cd "$work/keiro" && DEB_BUILD_OPTIONS="$opts parallel=$(nproc)" dpkg-buildpackage -b -us -uc) \
  >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log"; die "package build (log: $work/build.log)"; }
ls "$work"/*.deb | sed 's|.*/|  |'

for want in keiro:./usr/share/man/man1/keiro.1.gz keiro:./usr/bin/keiro \
    keiro:./usr/share/bash-completion/completions/keiro \
    keiro-opensm-plugin:./usr/share/man/man8/keiro-plugin.8.gz \
    "keiro-opensm-plugin:./usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libkeiro.so"; do
  dpkg-deb -c "$work/${want%%:*}"_*_"$(dpkg --print-architecture)".deb | grep -q " ${want#*:}\$" ||
    die "${want%%:*} does not contain ${want#*:}"
done

step "opensm dependency of the plugin package against this machine's OpenSM"
bash "$src/tests/package/deb-depends.sh" "$work"/keiro-opensm-plugin_*_"$(dpkg --print-architecture)".deb ||
  die "keiro-opensm-plugin's opensm dependency does not match the OpenSM it was built with"

step "lintian"
lintian --fail-on error "$work"/*.changes >"$work/lintian.txt" 2>&1
lrc=$?
cat "$work/lintian.txt"
[ $lrc = 0 ] || die "lintian reports errors"

step "install"
apt-get install -y "$work"/keiro_*.deb "$work"/keiro-opensm-plugin_*.deb >"$work/install.log" 2>&1 ||
  { tail -n 20 "$work/install.log"; die "apt-get install"; }
dpkg -s keiro-opensm-plugin | grep -E '^(Version|Depends):'

step "installed-plugin test"
# sa_path_sl (asks the SA for every pair's SL) from the package build tree:
# a test helper the packages do not ship.
env -u LD_LIBRARY_PATH -u KEIRO_BUILDDIR KEIRO_SA_PATH_SL="$work/keiro/tests/harness/sa_path_sl" \
  "$src/tests/package/installed-plugin.sh" "$src" || die "installed-plugin test"

step "remove"
files=$(dpkg -L keiro keiro-opensm-plugin | grep -E '^/usr/(bin|lib|share/man)/.*keiro')
apt-get remove -y keiro keiro-opensm-plugin >"$work/remove.log" 2>&1 || die "apt-get remove"
for f in $files; do [ ! -e "$f" ] || die "$f is still there after removal"; done
ldconfig -p | grep -q libkeiro && die "ldconfig still lists libkeiro.so after removal"
# The package build tree goes (most of the disk this used); the packages and
# logs stay in $work.
rm -rf "$work/keiro"
step "PASS"
