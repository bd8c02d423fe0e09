#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Fails (exit 1, naming the files) when a C++ file of the repository is not
# formatted as .clang-format says (Debian 12's clang-format 14).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format.sh: clang-format not installed" >&2; exit 2; }
bad=()
while IFS= read -r f; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done < <(git ls-files '*.cc' '*.h' 2>/dev/null || find core plugin tool tests -name '*.cc' -o -name '*.h')
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format.sh: not clang-formatted (run clang-format -i): ${bad[*]}" >&2
  exit 1
fi
echo "check-format.sh: every C++ file is clang-formatted"
