#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A test that cannot run must not read as passed (offline, no ibsim needed):
#  - an OpenSM integration test on a machine without the simulator stack
#    (simulated here by pointing KEIRO_UMAD2SIM at a missing file) is a hard
#    error (exit 99, which fails `make check`), and a skip (exit 77) only
#    with KEIRO_ALLOW_SKIP=1;
#  - the harness finds libumad2sim.so without an architecture-specific path;
#  - run-tests.sh's GoogleTest counting (kh_gtest_counts): passed, failed
#    and skipped cases of a --gtest_brief log, a crash as one failure;
#  - it_done deletes a passing test's tables (*.dump, *.fdbs, *.lst) and
#    keeps its logs; a failing test keeps everything.
. "${KEIRO_SRCDIR:-$(dirname "$0")/../..}/tests/integration/common.sh"
rm -rf "$IT_DIR" && mkdir -p "$IT_DIR"
t="$KEIRO_SRCDIR/tests/integration/bad-option.sh"

(cd "$IT_DIR" && KEIRO_UMAD2SIM=/nonexistent/libumad2sim.so KEIRO_ALLOW_SKIP=0 bash "$t") >"$IT_DIR/nosim.out" 2>&1
rc=$?
[ $rc -eq 99 ] || it_fail "without the simulator stack: exit $rc, want 99 (hard error): $(head -n 2 "$IT_DIR/nosim.out")"
grep -q '^ERROR: .*libumad2sim.so not found' "$IT_DIR/nosim.out" || it_fail "no reason given: $(cat "$IT_DIR/nosim.out")"
(cd "$IT_DIR" && KEIRO_UMAD2SIM=/nonexistent/libumad2sim.so KEIRO_ALLOW_SKIP=1 bash "$t") >"$IT_DIR/allow.out" 2>&1
rc=$?
[ $rc -eq 77 ] || it_fail "with KEIRO_ALLOW_SKIP=1: exit $rc, want 77 (skip)"

# The harness's own search (no KEIRO_UMAD2SIM): the package's file.
found=$(unset KEIRO_UMAD2SIM; . "$KEIRO_SRCDIR/tests/harness/lib.sh"; echo "$KH_UMAD2SIM")
pkg=$(dpkg-query -L libumad2sim0 2>/dev/null | grep '/libumad2sim\.so$' | head -n 1)
[ -n "$pkg" ] || it_fail "libumad2sim0 is not installed (scripts/install-deps.sh installs it)"
[ "$found" = "$pkg" ] || it_fail "harness found '$found', the package installed '$pkg'"

# kh_gtest_counts on --gtest_brief logs.
printf '%s\n' '[==========] 5 tests from 2 test suites ran. (3 ms total)' \
  '[  PASSED  ] 3 tests.' '[  SKIPPED ] 1 test.' >"$IT_DIR/g1.log"
[ "$(kh_gtest_counts "$IT_DIR/g1.log")" = "3 1 1" ] || it_fail "counts of g1: $(kh_gtest_counts "$IT_DIR/g1.log")"
printf '%s\n' '[==========] 212 tests from 51 test suites ran. (1721 ms total)' \
  '[  PASSED  ] 212 tests.' >"$IT_DIR/g2.log"
[ "$(kh_gtest_counts "$IT_DIR/g2.log")" = "212 0 0" ] || it_fail "counts of g2: $(kh_gtest_counts "$IT_DIR/g2.log")"
printf '%s\n' '[ RUN      ] A.B' 'AddressSanitizer: heap-use-after-free' >"$IT_DIR/g3.log"
[ "$(kh_gtest_counts "$IT_DIR/g3.log")" = "0 1 0" ] || it_fail "a crash counts as a failure: $(kh_gtest_counts "$IT_DIR/g3.log")"

# it_done: a passing test deletes its tables and keeps its logs; a failing
# one keeps everything (a test's own directory, in a copy of common.sh's
# environment: IT_DIR of a test named fake).
fake() {  # fake FAILS: it_done of a test with FAILS failures; prints what is left
  local d=$IT_DIR/fake.d
  rm -rf "$d" && mkdir -p "$d/run/dumps"
  touch "$d/run/dumps/opensm-lfts.dump" "$d/run/dumps/opensm.fdbs" "$d/run/dumps/opensm-subnet.lst" \
    "$d/run/opensm.log" "$d/verdict-keiro.json"
  (IT_DIR=$d IT_FAILS=$1 it_done) >/dev/null
  (cd "$d" && find . -type f | sort | tr '\n' ' ')
}
left=$(fake 0)
[ "$left" = "./run/opensm.log ./verdict-keiro.json " ] || it_fail "a passing test left: $left"
left=$(fake 1)
[ "$(echo "$left" | wc -w)" = 5 ] || it_fail "a failing test kept only: $left"
it_done
