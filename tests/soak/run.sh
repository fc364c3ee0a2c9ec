#!/bin/sh
# Runs the soak test by hand against build/server/arbiter (or $ARBITER_BIN),
# e.g.  tests/soak/run.sh --boards 300 --viewers 1500 --duration 300
# Options: see tests/soak/soak.py --help.  Raises the descriptor limit first.
set -e
here=$(cd "$(dirname "$0")" && pwd)
: "${ARBITER_BIN:=$here/../../build/server/arbiter}"
export ARBITER_BIN
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec python3 "$here/soak.py" "$@"
