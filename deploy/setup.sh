#!/bin/sh
# Installs what building and testing Arbiter needs on Debian 12, only what is
# missing, then configures the build directory.  Safe to run again.
#   deploy/setup.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."

packages="build-essential meson ninja-build pkg-config python3 libmicrohttpd-dev
libjansson-dev libsqlite3-dev sqlite3 zlib1g-dev check libcrypt-dev libcurl4-openssl-dev
stockfish pgn-extract clang clang-format chromium"
# The browser tests drive the pages with node and npm packages; Debian's
# nodejs and npm serve when no node is installed already.
command -v node >/dev/null 2>&1 || packages="$packages nodejs"
command -v npm >/dev/null 2>&1 || packages="$packages npm"

missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing$missing"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
fi

build="${1:-build}"
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" --buildtype=release -Db_ndebug=false >/dev/null
fi
