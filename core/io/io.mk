# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Readers and writers of OpenSM's and ibsim's file formats.
