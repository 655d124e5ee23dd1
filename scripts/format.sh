#!/usr/bin/env bash
# clang-format (the repository's .clang-format: LLVM style, 100 columns) over
# the hand-written C++ and CUDA sources. With --check, changes nothing and
# exits 1 naming every file that is not formatted (a CTest test runs this).
# Left out: the code templates (*.tpl, text with placeholders), the
# measured tables (*.inc) and test inputs whose line numbers tests check
# (test/CFrontend, test/GPU/Inputs, examples/c).
# Usage: scripts/format.sh [--check]   CLANG_FORMAT (default clang-format-19)
# Exit status 77 (CTest's skip) when the tool is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${CLANG_FORMAT:-clang-format-19}
if ! command -v "$tool" >/dev/null 2>&1; then
  echo "format.sh: $tool not found (scripts/install-deps installs clang-format-19)" >&2
  exit 77
fi
mapfile -t files < <(git ls-files -- '*.cpp' '*.h' '*.cu' '*.cuh' 2>/dev/null |
  grep -v -e '\.tpl$' -e '^test/CFrontend/' -e '^test/GPU/Inputs/' -e '^examples/c/')
if ((${#files[@]} == 0)); then
  echo "format.sh: no sources (not a git checkout?)" >&2
  exit 2
fi
if [[ ${1:-} == --check ]]; then
  bad=()
  for f in "${files[@]}"; do
    "$tool" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
  if ((${#bad[@]})); then
    printf 'not formatted (run scripts/format.sh): %s\n' "${bad[@]}" >&2
    exit 1
  fi
  echo "format.sh: ${#files[@]} files formatted"
else
  "$tool" -i "${files[@]}"
fi
