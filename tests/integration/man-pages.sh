#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The generated man pages and the tool's self-description, offline:
#  - keiro --version prints the version configure was given (AC_INIT);
#  - keiro(1) has a subsection for every subcommand `keiro --help` lists, and
#    every option word of every subcommand's --help appears in it;
#  - keiro-plugin(8) lists every key `keiro options` lists (the keys the
#    plugin's parser accepts), and a key the parser rejects is not there;
#  - both pages format without groff warnings;
#  - keiro options --engine rejects an unknown engine (exit 2).
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
man1=$KEIRO_BUILDDIR/docs/man/keiro.1
man8=$KEIRO_BUILDDIR/docs/man/keiro-plugin.8
for f in "$man1" "$man8"; do [ -s "$f" ] || { echo "FAIL: no $f (make builds it)"; exit 99; }; done

want=$(sed -nE 's/^AC_INIT\(\[keiro\], \[([^]]+)\].*/\1/p' "$KEIRO_SRCDIR/configure.ac")
got=$("$IT_KEIRO" --version)
[ "$got" = "keiro $want" ] || it_fail "keiro --version: '$got', want 'keiro $want'"

# roff escapes hyphens as \-; compare on the plain text.
plain1=$IT_DIR/keiro.1.txt
sed 's/\\-/-/g; s/\\e/\\/g' "$man1" >"$plain1"
cmds=$("$IT_KEIRO" --help | sed -nE 's/^  ([a-z][a-z-]*)  .*/\1/p')
[ "$(echo "$cmds" | wc -w)" -ge 8 ] || it_fail "keiro --help lists only: $cmds"
for c in $cmds; do
  grep -q "^\.SS \"keiro $c\"" "$plain1" || it_fail "keiro.1 has no section for keiro $c"
  for o in $("$IT_KEIRO" "$c" --help 2>&1 | grep -oE '(^|[[:space:]])--[a-z][a-z0-9-]*' | sort -u); do
    grep -q -- "$o" "$plain1" || it_fail "keiro.1 lacks option $o of keiro $c"
  done
done

plain8=$IT_DIR/keiro-plugin.8.txt
sed 's/\\-/-/g' "$man8" >"$plain8"
n=0
while IFS=$'\t' read -r _ key _ _ _; do
  n=$((n + 1))
  grep -q "^\.BI \"$key=\"" "$plain8" || it_fail "keiro-plugin.8 lacks key $key"
done < <("$IT_KEIRO" options --tsv)
[ "$n" -ge 10 ] || it_fail "keiro options lists only $n keys"
grep -q '^\.BI "no_such_key="' "$plain8" && it_fail "keiro-plugin.8 lists a key that does not exist"
for code in KE01 KE02 KE03 KE04 KE05 KE06; do
  grep -q "ERR $code" "$plain8" || it_fail "keiro-plugin.8 does not explain ERR $code"
done

for f in "$man1" "$man8"; do
  warn=$(groff -man -ww -z "$f" 2>&1)
  [ -z "$warn" ] || it_fail "groff warns on $(basename "$f"): $(echo "$warn" | head -n 3)"
done

"$IT_KEIRO" options --engine no-such-engine >"$IT_DIR/bad-engine.out" 2>&1
[ $? -eq 2 ] || it_fail "keiro options --engine no-such-engine did not exit 2"
it_done
