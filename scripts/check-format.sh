#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every C++ file of the tree as .clang-format says (clang-format 14, Debian's `clang-format`). Lists the
# files that differ and exits 1; `bash scripts/check-format.sh --fix` formats them. ctest: tst_format.
set -euo pipefail
cd "$(dirname "$0")/.."
formatter=$(command -v clang-format-14 || command -v clang-format || true)
if [[ -z $formatter ]]; then
    echo "check-format: clang-format is not installed (scripts/install-deps.sh installs it)" >&2
    exit 1
fi
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.cpp' '*.h' | grep -v '^tests/sdk/')
else
    mapfile -t files < <(find core ui app devsupport tests -name '*.cpp' -o -name '*.h' | grep -v '^tests/sdk/')
fi
if [[ ${1:-} == --fix ]]; then
    "$formatter" -i "${files[@]}"
    exit 0
fi
differ=()
for f in "${files[@]}"; do
    if ! "$formatter" --dry-run --Werror "$f" > /dev/null 2>&1; then
        differ+=("$f")
    fi
done
if (( ${#differ[@]} > 0 )); then
    echo "check-format: ${#differ[@]} of ${#files[@]} files differ from .clang-format (bash scripts/check-format.sh --fix):" >&2
    printf '  %s\n' "${differ[@]}" >&2
    exit 1
fi
echo "check-format: ${#files[@]} files as .clang-format says"
