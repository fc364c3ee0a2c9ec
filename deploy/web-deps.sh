#!/bin/sh
# Installs the pages' npm packages into web/node_modules (chessground, the
# board; playwright-core, for the browser tests; eslint, the lint step of the
# unit suite) from web/package-lock.json,
# again only when the lock file changed.  The daemon serves the board's ES
# modules straight from there: there is no build step.
set -eu
cd "$(dirname "$0")/../web"
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
fi
