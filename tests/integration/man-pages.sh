#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The man pages and the hand-written documentation against what the tool and
# the option parser really accept, offline. The man pages are generated from
# the tool's own --help and `keiro options` (scripts/gen-man.py), so comparing
# them with that output alone would be circular; each check here has a
# second, independent side:
#  - keiro --version prints the version configure was given (AC_INIT);
#  - subcommands: the names registered in the sources (tool/cmd_*.cc,
#    `const Command kX{"name", ...}`) are each runnable (`keiro NAME --help`
#    exits 0), listed by `keiro --help`, have a subsection in keiro(1) and are
#    named ("keiro NAME") in README.md or docs/*.md; an unknown subcommand
#    exits 2;
#  - option keys: every key the parser declares (`keiro options --tsv`) is
#    in keiro-plugin(8) and in the hand-written tables: the general keys and
#    keiro-nue's in docs/deployment.md section 3's table, each other engine's
#    keys (backquoted) in its own document (docs/acro.md, docs/dl.md,
#    docs/loren.md); the other
#    way round, every key of deployment.md's table is accepted by the parser
#    (keiro route --opt KEY=...: no "unknown option"), and where the table
#    gives a plain default it is the parser's default;
#  - an option that does not exist is rejected by the tool (keiro route
#    --opt no_such_key=1: exit 2 naming the key), as is an unknown engine
#    (keiro options --engine no-such-engine: exit 2);
#  - both pages format without groff warnings and man(1) renders them
#    without warnings;
#  - keiro-plugin(8) explains every ERR KE code of deployment.md's table.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
man1=$KEIRO_BUILDDIR/docs/man/keiro.1
man8=$KEIRO_BUILDDIR/docs/man/keiro-plugin.8
dep=$KEIRO_SRCDIR/docs/deployment.md
for f in "$man1" "$man8"; do [ -s "$f" ] || { echo "FAIL: no $f (make builds it)"; exit 99; }; done

want=$(sed -nE 's/^AC_INIT\(\[keiro\], \[([^]]+)\].*/\1/p' "$KEIRO_SRCDIR/configure.ac")
got=$("$IT_KEIRO" --version)
[ "$got" = "keiro $want" ] || it_fail "keiro --version: '$got', want 'keiro $want'"

# ---- subcommands: the sources' registrations are the reference ----
plain1=$IT_DIR/keiro.1.txt
sed 's/\\-/-/g; s/\\e/\\/g' "$man1" >"$plain1"
src_cmds=$(sed -nE 's/^const Command k[A-Za-z]+\{"([a-z][a-z-]*)".*/\1/p' "$KEIRO_SRCDIR"/tool/cmd_*.cc | sort)
[ "$(echo "$src_cmds" | wc -w)" -ge 8 ] || it_fail "tool/cmd_*.cc registers only: $src_cmds"
help_cmds=$("$IT_KEIRO" --help | sed -nE 's/^  ([a-z][a-z-]*)  .*/\1/p' | sort)
[ "$src_cmds" = "$help_cmds" ] ||
  it_fail "keiro --help lists '$(echo $help_cmds)', the sources register '$(echo $src_cmds)'"
for c in $src_cmds; do
  "$IT_KEIRO" "$c" --help >"$IT_DIR/help-$c.txt" 2>&1 || it_fail "keiro $c --help exited $?"
  grep -q "^\.SS \"keiro $c\"" "$plain1" || it_fail "keiro.1 has no section for keiro $c"
  for o in $(grep -oE '(^|[[:space:]])--[a-z][a-z0-9-]*' "$IT_DIR/help-$c.txt" | sort -u); do
    grep -q -- "$o" "$plain1" || it_fail "keiro.1 lacks option $o of keiro $c"
  done
  grep -qE "keiro $c([^a-z-]|$)" "$KEIRO_SRCDIR/README.md" "$KEIRO_SRCDIR"/docs/*.md ||
    it_fail "neither README.md nor docs/*.md names 'keiro $c'"
done
"$IT_KEIRO" no-such-command >"$IT_DIR/bad-cmd.out" 2>&1
rc=$?
[ $rc -eq 2 ] || it_fail "keiro no-such-command exited $rc, want 2"

# ---- option keys: the parser's declarations against the pages and docs ----
plain8=$IT_DIR/keiro-plugin.8.txt
sed 's/\\-/-/g' "$man8" >"$plain8"
"$IT_KEIRO" options --tsv >"$IT_DIR/options.tsv" || it_fail "keiro options --tsv exited $?"
# deployment.md section 3's table: "| `key` | values | default | meaning |".
sed -n '/^## 3\. /,/^## 4\. /p' "$dep" |
  sed -nE 's/^\| `([a-z_]+)` \|([^|]*)\|([^|]*)\|.*/\1\t\3/p' >"$IT_DIR/deployment-keys.tsv"
[ "$(wc -l <"$IT_DIR/deployment-keys.tsv")" -ge 10 ] ||
  it_fail "docs/deployment.md section 3 has only $(wc -l <"$IT_DIR/deployment-keys.tsv") option rows"
n=0
while IFS=$'\t' read -r scope key _ _ _; do
  n=$((n + 1))
  grep -q "^\.BI \"$key=\"" "$plain8" || it_fail "keiro-plugin.8 lacks key $key"
  case $scope in
    general | keiro-nue)
      grep -q "^$key	" "$IT_DIR/deployment-keys.tsv" ||
        it_fail "docs/deployment.md's option table lacks key $key ($scope)" ;;
    keiro-acro | keiro-dl | keiro-loren)
      doc=$KEIRO_SRCDIR/docs/${scope#keiro-}.md
      grep -qE "\`$key(=[^\`]*)?\`" "$doc" ||
        it_fail "$(basename "$doc") does not document key $key ($scope)" ;;
    *) it_fail "keiro options: unknown scope '$scope' of key $key" ;;
  esac
done <"$IT_DIR/options.tsv"
[ "$n" -ge 10 ] || it_fail "keiro options lists only $n keys"
# Every documented key is one the parser accepts (options are read before
# the topology, so a missing topology file is the only error then), and a
# plain documented default (a number or a backquoted word) is the parser's.
while IFS=$'\t' read -r key ddef; do
  "$IT_KEIRO" route --topology "$IT_DIR/none.net" --opt "$key=1" >"$IT_DIR/opt-$key.out" 2>&1
  grep -q "unknown option '$key'" "$IT_DIR/opt-$key.out" &&
    it_fail "docs/deployment.md documents key $key, the parser rejects it: $(head -n 1 "$IT_DIR/opt-$key.out")"
  # (the table's "unset" and an empty cell are the parser's "-": no default)
  ddef=$(echo "$ddef" | sed -E 's/^ +| +$//g; s/^`([^`]*)`$/\1/; s/^(unset|)$/-/')
  pdef=$(awk -F'\t' -v k="$key" '$2 == k { print $4 }' "$IT_DIR/options.tsv")
  if [[ $ddef =~ ^([a-z0-9_.]+|-)$ ]] && [ -n "$pdef" ]; then
    [ "$ddef" = "$pdef" ] || it_fail "key $key: docs/deployment.md says default '$ddef', the parser '$pdef'"
  fi
done <"$IT_DIR/deployment-keys.tsv"
"$IT_KEIRO" route --topology "$IT_DIR/none.net" --opt no_such_key=1 >"$IT_DIR/bad-key.out" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "unknown option 'no_such_key'" "$IT_DIR/bad-key.out" ||
  it_fail "keiro route --opt no_such_key=1: exit $rc, want 2 naming the key: $(head -c 300 "$IT_DIR/bad-key.out")"
"$IT_KEIRO" options --engine no-such-engine >"$IT_DIR/bad-engine.out" 2>&1
rc=$?
[ $rc -eq 2 ] || it_fail "keiro options --engine no-such-engine exited $rc, want 2"

# ---- error codes: deployment.md's table is the reference ----
codes=$(sed -nE 's/^\| `ERR (KE[0-9]+)` \|.*/\1/p' "$dep")
[ "$(echo "$codes" | wc -w)" -ge 6 ] || it_fail "docs/deployment.md lists only the codes: $codes"
for code in $codes; do
  grep -q "ERR $code" "$plain8" || it_fail "keiro-plugin.8 does not explain ERR $code"
done

# ---- rendering ----
for f in "$man1" "$man8"; do
  warn=$(groff -man -ww -z "$f" 2>&1)
  [ -z "$warn" ] || it_fail "groff warns on $(basename "$f"): $(echo "$warn" | head -n 3)"
  warn=$(MANWIDTH=80 man --warnings -l "$f" 2>&1 >"$IT_DIR/$(basename "$f").rendered")
  [ -z "$warn" ] || it_fail "man warns on $(basename "$f"): $(echo "$warn" | head -n 3)"
  [ "$(wc -l <"$IT_DIR/$(basename "$f").rendered")" -ge 50 ] ||
    it_fail "man renders $(basename "$f") in only $(wc -l <"$IT_DIR/$(basename "$f").rendered") lines"
done
it_done
