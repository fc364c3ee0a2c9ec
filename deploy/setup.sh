#!/bin/sh
# Installs what building and testing Arbiter needs on Debian 12, only what is
# missing, then configures the build directory.  Safe to run again.
#   deploy/setup.sh [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."

packages="build-essential meson ninja-build pkg-config python3 libmicrohttpd-dev
libjansson-dev libsqlite3-dev sqlite3 zlib1g-dev check libcrypt-dev libcurl4-openssl-dev
stockfish pgn-extract clang clang-format chromium nginx libnginx-mod-nchan"
# nginx with Nchan: the fan-out test (http-nchan) runs its own nginx on
# loopback ports; the package's service is never started (below).
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
    # Installing a service must not start it: nginx would try port 80, and
    # a port already taken there would fail the install.  Debian's
    # policy-rc.d answer 101 forbids starting services while we install.
    policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
        $sudo chmod 0755 "$policy"
    fi
    rc=0
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        $missing || rc=$?
    [ -z "$policy" ] || $sudo rm -f "$policy"
    [ "$rc" -eq 0 ] || exit "$rc"
fi

build="${1:-build}"
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" --buildtype=release -Db_ndebug=false >/dev/null
fi
