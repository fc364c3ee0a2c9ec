#!/bin/sh
# Runs the browser tests against the real daemon.  Skips (exit 77) when
# chromium, node or the web/ npm packages are missing.
#   run.sh ARBITER_BINARY SOURCE_ROOT [TEST.mjs ...]
# Without TEST files: every tests/browser/test_*.mjs but the measurements
# (test_measure.mjs, a test of its own) and the PGN feed check (test_pgn_feed.mjs,
# which needs no browser and runs in the http suite).
set -u
ARBITER="$1"
root="$2"
WEB_ROOT="$root/web"
export ARBITER WEB_ROOT
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
export CHROMIUM
for need in "$CHROMIUM" "$(command -v node || echo /nonexistent/node)"; do
    if [ ! -x "$need" ]; then echo "skip: $need is missing"; exit 77; fi
done
if [ ! -d "$WEB_ROOT/node_modules/playwright-core" ] || [ ! -d "$WEB_ROOT/node_modules/chessground" ]; then
    echo "skip: run 'npm ci' in web/ first"; exit 77
fi
out=$(mktemp)
shift 2
if [ $# -eq 0 ]; then
    for f in "$root"/tests/browser/test_*.mjs; do
        case "$f" in */test_measure.mjs | */test_pgn_feed.mjs) ;; *) set -- "$@" "$f" ;; esac
    done
else
    for f in "$@"; do shift; set -- "$@" "$root/tests/browser/$f"; done
fi
node --test --test-reporter=tap --test-concurrency=1 "$@" >"$out" 2>&1
status=$?
cat "$out"
pass=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$out" | tail -n 1)
fail=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$out" | tail -n 1)
rm -f "$out"
echo "${pass:-0} passed, ${fail:-0} failed"
exit $status
