# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# libkeiro.so: the OpenSM event plugin that registers keiro's engines.
