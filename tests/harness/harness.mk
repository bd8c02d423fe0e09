# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The ibsim + OpenSM harness: lib.sh (prerequisites, ibsim, OpenSM, SA
# queries), run-fabric.sh (one fabric through OpenSM), compare-engines.sh.
# sa_path_sl asks the SA for path SLs, sa_mcast joins and leaves multicast
# groups (libibumad; under umad2sim against ibsim).
noinst_PROGRAMS += tests/harness/sa_path_sl tests/harness/sa_mcast
tests_harness_sa_path_sl_SOURCES = tests/harness/sa_path_sl.cc tests/harness/mad_bytes.h tests/harness/sa_port.h
tests_harness_sa_path_sl_LDADD = libkeirocore.la -libumad
tests_harness_sa_mcast_SOURCES = tests/harness/sa_mcast.cc tests/harness/mad_bytes.h tests/harness/sa_port.h
tests_harness_sa_mcast_LDADD = -libumad
dist_noinst_SCRIPTS += tests/harness/lib.sh tests/harness/run-fabric.sh \
	tests/harness/compare-engines.sh
