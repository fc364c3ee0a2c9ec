#!/bin/sh
# run_fuzzer.sh FUZZER SEEDS WORKDIR — a bounded libFuzzer run (FUZZ_SECONDS,
# default 20) starting from the committed seeds; fails on any crash, leak or
# sanitizer report (exit 1: libFuzzer's own code for a finding, 77, would read
# as "skipped" to meson).  Crashing inputs are left in WORKDIR.
set -eu
fuzzer=$(realpath "$1") seeds=$(realpath "$2") work=$3
mkdir -p "$work"
cd "$work"
exec "$fuzzer" -max_total_time="${FUZZ_SECONDS:-20}" -timeout=10 -rss_limit_mb=2048 -error_exitcode=1 \
    -print_final_stats=1 "$work" "$seeds"
