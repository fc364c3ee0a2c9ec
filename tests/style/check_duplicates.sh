#!/bin/sh
# check_duplicates.sh — no run of six or more identical lines is repeated in
# the non-test code (rules/, db/, server/, web/js/).
#
# Uses the `duplicates` command where the machine has it (it is a developer
# tool, not a Debian package: exit 77, skipped, elsewhere).  Rows it marks
# `shape` (alike only up to names and values) are listed for review but do
# not fail the check; identical repeated code does.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
if ! command -v duplicates >/dev/null 2>&1; then
    echo "check_duplicates: the duplicates command is not installed; skipped"
    exit 77
fi
status=0
for dir in rules db server web/js; do
    out=$(duplicates --repo "$dir" --most 200 --seconds 60)
    echo "== $dir: $(echo "$out" | head -n 1)"
    case "$out" in
        incomplete*) echo "$out"; status=1; continue ;;
    esac
    same=$(echo "$out" | grep -E '^D[0-9]+ ' | grep -v ' shape' || true)
    if [ -n "$same" ]; then
        echo "identical code repeated in $dir (fold it into one function):"
        echo "$same"
        status=1
    fi
    echo "$out" | grep -E '^D[0-9]+ .* shape' | sed 's/^/  review: /' || true
done
exit $status
