#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The benchmark programs in their smoke modes (seconds): nue_bench on its two
# fabrics with one repetition, acro_bench and loren_bench on small cases,
# check_bench on a small fabric (1 and 2 threads must agree).
# Each must exit 0; any other status (a failed route or check) fails the test.
b=${KEIRO_BUILDDIR:-.}/tests/bench
status=0
for cmd in "nue_bench --smoke" "acro_bench smoke" "loren_bench smoke" \
  "check_bench --smoke"; do
  set -- $cmd
  if ! "$b/$1" "${@:2}" >"${TMPDIR:-/tmp}/keiro-bench-smoke-$$.out" 2>&1; then
    echo "FAIL: $cmd"
    cat "${TMPDIR:-/tmp}/keiro-bench-smoke-$$.out"
    status=1
  else
    echo "ok: $cmd ($(grep -vc '^#' "${TMPDIR:-/tmp}/keiro-bench-smoke-$$.out") lines)"
  fi
done
rm -f "${TMPDIR:-/tmp}/keiro-bench-smoke-$$.out"
exit $status
