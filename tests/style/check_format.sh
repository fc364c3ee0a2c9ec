#!/bin/sh
# check_format.sh — the C sources are formatted as .clang-format says.
#
# Runs clang-format (Debian 12's, version 14: other versions break lines
# differently, so the check runs only with that one) in dry-run mode over the
# project's C files and fails listing the files it would change.  Fix them
# with `tests/style/check_format.sh --fix`.  Exit 77 (skipped) when
# clang-format 14 is not installed.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
cf=""
for c in clang-format-14 clang-format; do
    if command -v "$c" >/dev/null 2>&1 && "$c" --version | grep -q 'version 14\.'; then
        cf=$c
        break
    fi
done
if [ -z "$cf" ]; then
    echo "check_format: clang-format 14 not found; skipped"
    exit 77
fi
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find rules db server tests -name '*.[ch]')
[ -n "$files" ] || { echo "check_format: no C files found"; exit 1; }
if [ "${1:-}" = "--fix" ]; then
    echo "$files" | xargs "$cf" -i
    exit 0
fi
# One clang-format process for all files (one per file costs more than the
# formatting); it names each file that differs in its diagnostics.
out=$(echo "$files" | xargs "$cf" --dry-run --Werror 2>&1) && status=0 || status=$?
if [ "$status" -ne 0 ]; then
    echo "check_format: not formatted as .clang-format says (fix: tests/style/check_format.sh --fix):"
    echo "$out" | sed -n 's/^\([^:]*\.[ch]\):[0-9]*:[0-9]*: error:.*/  \1/p' | sort -u
    exit 1
fi
echo "check_format: $(echo "$files" | wc -l) files formatted"
