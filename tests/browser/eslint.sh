#!/bin/sh
# ESLint over the pages' scripts (web/js, web/sw.js), the build's bundler and
# the browser tests, with the settings of web/eslint.config.js.  Skips (exit 77)
# when node or the web/ npm packages (deploy/web-deps.sh) are missing.
#   eslint.sh SOURCE_ROOT
set -u
root="$1"
eslint="$root/web/node_modules/.bin/eslint"
if [ ! -x "$eslint" ]; then echo "skip: run 'npm ci' in web/ first"; exit 77; fi
if ! command -v node >/dev/null 2>&1; then echo "skip: node is missing"; exit 77; fi
cd "$root" || exit 1
exec "$eslint" --max-warnings 0 -c web/eslint.config.js web/js web/sw.js web/bundle.mjs tests/browser
