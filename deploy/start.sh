#!/bin/sh
# Sets up, builds and starts Arbiter on its embedded SQLite default.
#   deploy/start.sh [arbiter serve options]
set -eu
cd "$(dirname "$0")/.."
deploy/setup.sh build
deploy/web-deps.sh
meson compile -C build >/dev/null
exec build/server/arbiter --help
