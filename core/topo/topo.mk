# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Topology generators (keiro topo).
