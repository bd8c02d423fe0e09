# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The one list of engines and of option keys.
libkeirocore_la_SOURCES += core/registry/registry.cc core/registry/registry.h
