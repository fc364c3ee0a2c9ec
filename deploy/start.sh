#!/bin/sh
# Sets up, builds and starts Arbiter on its embedded SQLite default.
#   deploy/start.sh [arbiter serve options]
set -eu
cd "$(dirname "$0")/.."
deploy/setup.sh build
deploy/web-deps.sh
meson compile -C build >/dev/null
# The web pages when they are there; later options override these defaults.
web=""
[ -d web ] && web="--web web"
exec build/server/arbiter serve --listen 127.0.0.1:8080 --db ./arbiter.db $web "$@"
