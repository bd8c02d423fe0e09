#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Checks a built keiro-opensm-plugin .deb against the OpenSM of this machine
# (the one the package was built with): OpenSM refuses a plugin whose
# embedded version string differs from its own ("OpenSM version mismatch ...
# Skip loading"), so the package must depend on exactly that upstream
# version of opensm:
#  - the installed opensm and libopensm-dev (the headers the plugin was built
#    from) have the same upstream version U (e.g. 3.3.23 of 3.3.23-2+b1);
#  - the .deb's Depends has opensm (>= U) and opensm (<< U'~), U' being U
#    with its last component incremented (3.3.24~), and no other opensm
#    constraint;
#  - by dpkg's own comparison the installed opensm satisfies it, and an
#    opensm of the previous or the next upstream version does not;
#  - the plugin in the .deb embeds "OpenSM U" (its osm_version), the string
#    the installed /usr/sbin/opensm carries.
# usage: tests/package/deb-depends.sh KEIRO-OPENSM-PLUGIN.deb
# Exit: 0 pass, 1 fail, 2 usage.
set -u
deb=${1:-}
[ -r "$deb" ] || { echo "usage: $0 keiro-opensm-plugin_*.deb" >&2; exit 2; }
fail=0
bad() { echo "deb-depends: FAIL: $*"; fail=1; }
upstream() { local v=${1#*:}; echo "${v%-*}"; }  # strip epoch and Debian revision

osm=$(dpkg-query -W -f='${Version}' opensm 2>/dev/null) || { bad "opensm is not installed"; exit 1; }
dev=$(dpkg-query -W -f='${Version}' libopensm-dev 2>/dev/null) || { bad "libopensm-dev is not installed"; exit 1; }
u=$(upstream "$osm")
[ "$(upstream "$dev")" = "$u" ] || bad "opensm $osm and libopensm-dev $dev differ in upstream version"
next=$(echo "$u" | awk -F. -v OFS=. '{ $NF = $NF + 1; print }')
prev=$(echo "$u" | awk -F. -v OFS=. '{ $NF = $NF - 1; print }')

dep=$(dpkg-deb -f "$deb" Depends) || { bad "dpkg-deb cannot read $deb"; exit 1; }
echo "deb-depends: opensm $osm (upstream $u); Depends: $dep"
cons=$(echo "$dep" | tr ',' '\n' | sed -nE 's/^[[:space:]]*opensm[[:space:]]*(\(.*\))?[[:space:]]*$/\1/p' | sort)
want=$(printf '(<< %s~)\n(>= %s)\n' "$next" "$u" | sort)
[ "$cons" = "$want" ] ||
  bad "opensm constraints '$(echo $cons)', want '$(echo $want)' for the installed OpenSM $u"

# dpkg's own reading of the constraints: the installed OpenSM, and the
# upstream versions before and after it (with a Debian revision).
satisfies() {
  local v=$1 c op ver
  while read -r c; do
    [ -n "$c" ] || continue
    op=$(echo "$c" | sed -E 's/^\(([<>=]+) .*/\1/') ver=$(echo "$c" | sed -E 's/^\([<>=]+ (.*)\)$/\1/')
    case $op in '>=') op=ge ;; '<<') op=lt ;; '<=') op=le ;; '>>') op=gt ;; '=') op=eq ;; esac
    dpkg --compare-versions "$v" "$op" "$ver" || return 1
  done <<<"$cons"
  [ -n "$cons" ]
}
satisfies "$osm" || bad "the installed opensm $osm does not satisfy '$(echo $cons)'"
satisfies "$next-1" && bad "opensm $next-1 (next upstream) would satisfy '$(echo $cons)'"
satisfies "$prev-1" && bad "opensm $prev-1 (previous upstream) would satisfy '$(echo $cons)'"

# The version string the plugin embeds, against the one of the OpenSM binary.
tmp=$(mktemp -d /tmp/keiro-deb-depends.XXXXXX)
dpkg-deb -x "$deb" "$tmp" || bad "dpkg-deb -x $deb"
so=$(find "$tmp" -name libkeiro.so -type f | head -n 1)
if [ -z "$so" ]; then
  bad "$deb has no libkeiro.so"
else
  grep -aq "OpenSM $u" /usr/sbin/opensm || bad "/usr/sbin/opensm does not carry 'OpenSM $u'"
  emb=$(strings -a "$so" | grep -E '^OpenSM [0-9]+(\.[0-9]+)+$' | sort -u)
  [ "$emb" = "OpenSM $u" ] || bad "libkeiro.so embeds '$(echo $emb)', the installed OpenSM is 'OpenSM $u'"
fi
rm -rf "$tmp"
[ $fail = 0 ] && echo "deb-depends: PASS"
exit $fail
