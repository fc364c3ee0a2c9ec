#!/bin/sh
# Runs the soak test by hand against build/server/arbiter (or $ARBITER_BIN),
# e.g.  tests/soak/run.sh --boards 300 --viewers 1500 --duration 300 --think 1
# Options: see the header of tests/soak/soak.c.  Raises the descriptor
# limit first; builds nothing (run ninja -C build first).
set -e
here=$(cd "$(dirname "$0")" && pwd)
: "${ARBITER_BIN:=$here/../../build/server/arbiter}"
: "${SOAK_BIN:=$here/../../build/tests/soak/soak}"
export ARBITER_BIN
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec "$SOAK_BIN" "$@"
