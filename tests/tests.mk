# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Tests: unit tests (GoogleTest), benchmark programs, the ibsim + OpenSM
# harness and the integration tests, one fragment per directory.
include tests/unit/unit.mk
include tests/bench/bench.mk
include tests/harness/harness.mk
include tests/integration/integration.mk
include tests/fuzz/fuzz.mk
include tests/docs/docs.mk
