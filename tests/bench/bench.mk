# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Benchmark programs (built by make check): nue_bench times keiro-nue on the
# docs/nue.md fabrics; acro_bench and loren_bench reproduce the papers'
# figures (scripts/acro-compare.py, scripts/loren-repro.py run them);
# check_bench times check::verify on large fabrics with 1 and 2 threads.
check_PROGRAMS += tests/bench/nue_bench tests/bench/acro_bench tests/bench/loren_bench \
	tests/bench/check_bench
tests_bench_nue_bench_SOURCES = tests/bench/nue_bench.cc tests/unit/fabrics.h tests/unit/fabrics.cc \
	tests/unit/oracles.h tests/unit/oracles.cc
tests_bench_acro_bench_SOURCES = tests/bench/acro_bench.cc tests/unit/fabrics.h tests/unit/fabrics.cc
tests_bench_check_bench_SOURCES = tests/bench/check_bench.cc tests/unit/fabrics.h tests/unit/fabrics.cc
tests_bench_check_bench_LDADD = libkeirocore.la
tests_bench_loren_bench_SOURCES = tests/bench/loren_bench.cc tests/bench/loren_lrt.h
tests_bench_nue_bench_LDADD = libkeirocore.la
tests_bench_acro_bench_LDADD = libkeirocore.la
tests_bench_loren_bench_LDADD = libkeirocore.la
# Their smoke modes run in make check (seconds; a failed route or check fails).
TESTS += tests/bench/smoke.sh
dist_noinst_SCRIPTS += tests/bench/smoke.sh
