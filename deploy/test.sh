#!/bin/sh
# Sets up, builds and runs every test of Arbiter: the test suites in a
# release build, the unit suites again under AddressSanitizer and
# UndefinedBehaviorSanitizer, the unit, rules and http suites in the build
# a distribution package makes (-O2, _FORTIFY_SOURCE, NDEBUG), and a short
# libFuzzer run of every fuzz target.
# Ends with the line "N passed, N failed".
#   deploy/test.sh            everything the default run has
#   SUITES="unit rules" deploy/test.sh   only some suites
set -eu
cd "$(dirname "$0")/.."
deploy/setup.sh build

deploy/web-deps.sh || echo "test: npm ci failed in web/; the browser tests will be skipped"

if [ ! -f build-san/build.ninja ]; then
    meson setup build-san --buildtype=debugoptimized -Db_sanitize=address,undefined \
        -Dc_args=-fno-sanitize-recover=all -Db_lundef=false >/dev/null
fi

# libFuzzer builds need clang; each target gets a short run (FUZZ_SECONDS).
if [ ! -f build-fuzz/build.ninja ]; then
    CC=clang meson setup build-fuzz --buildtype=debugoptimized -Dfuzz=true \
        -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi

# A package build: Debian's default compiler flags, assertions off.  It
# catches what only shows there (an assert-only helper left unused, a
# format that _FORTIFY_SOURCE refuses at run time).
if [ ! -f build-pkg/build.ninja ]; then
    CFLAGS="-g -O2 -fstack-protector-strong -Wformat -Werror=format-security" \
        CPPFLAGS="-Wdate-time -D_FORTIFY_SOURCE=2" LDFLAGS="-Wl,-z,relro" \
        meson setup build-pkg --buildtype=plain -Db_ndebug=true >/dev/null
fi

status=0
meson compile -C build || status=1
meson compile -C build-san || status=1
meson compile -C build-pkg || status=1
# Only the fuzz targets need the clang build.
fuzzers=$(for f in tests/fuzz/fuzz_*.c; do basename "$f" .c; done | grep -v "^fuzz_main$" | sed "s|^|tests/fuzz/|")
ninja -C build-fuzz $fuzzers || status=1

# The main run: every suite except "slow" (run it by hand: meson test -C build --suite slow).
meson test -C build --no-rebuild --print-errorlogs --no-suite slow --no-suite browser \
    --num-processes 2 || status=1
# The browser suite on its own log.  A real browser against a real daemon
# has timing of its own: a failed run is reported and run once more, and
# the second run's result is the one counted.
if ! meson test -C build --no-rebuild --print-errorlogs --suite browser --logbase browser; then
    # The console shows only the log's tail: name the steps that failed,
    # and keep the whole first log beside the second.
    cp build/meson-logs/browser.txt build/meson-logs/browser-first.txt 2>/dev/null || true
    echo "test: the browser steps that failed (whole log: build/meson-logs/browser-first.txt):"
    grep -A 30 "not ok" build/meson-logs/browser.txt | head -120 || true
    echo "test: the browser suite failed once (see above); running it again"
    meson test -C build --no-rebuild --print-errorlogs --suite browser --logbase browser || status=1
fi
# The unit and rules suites again under the sanitizers.
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    meson test -C build-san --no-rebuild --print-errorlogs --suite unit --suite rules \
    --timeout-multiplier 10 \
    --num-processes 2 || status=1

# The package build's suites that need no browser.
meson test -C build-pkg --no-rebuild --print-errorlogs --suite unit --suite rules --suite http \
    --num-processes 2 || status=1

# A short fuzzing run of every target.
meson test -C build-fuzz --no-rebuild --print-errorlogs --suite fuzz || status=1

python3 deploy/count_tests.py build/meson-logs/testlog.json build/meson-logs/browser.json \
    build-san/meson-logs/testlog.json build-pkg/meson-logs/testlog.json \
    build-fuzz/meson-logs/testlog.json
exit $status
