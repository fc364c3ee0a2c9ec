#!/bin/sh
# cli_pair.sh — `arbiter pair` and `arbiter check` as a user runs them:
# bbpPairings' own expected output byte for byte, and the exit statuses.
# usage: cli_pair.sh ARBITER DATADIR
set -u
arb=$1
data=$2/dutch
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_status() { # want, command...
    want=$1
    shift
    "$@" > "$tmp/out" 2> "$tmp/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: $* exited $got, expected $want"
        cat "$tmp/err"
        fail=1
    fi
}

for c in issue_7 dutch_2025_C5 dutch_2025_C9; do
    expect_status 0 "$arb" pair --dutch "$data/bbp/$c.input"
    tr -d '\r' < "$data/bbp/$c.output.expected" > "$tmp/want"
    if ! cmp -s "$tmp/out" "$tmp/want"; then
        echo "FAIL: pair $c differs from bbpPairings' expected output"
        fail=1
    fi
done
expect_status 0 "$arb" check --dutch "$data/corpus/seed0001.trf"
grep -q '^9 rounds checked, 0 differ$' "$tmp/out" || { echo "FAIL: check summary"; fail=1; }
expect_status 2 "$arb" pair "$data/corpus/seed0001.trf"
expect_status 3 "$arb" pair --dutch "$tmp/missing.trf"
printf '012 t\rXXR 5\rXXC white1\r001 junk\r' > "$tmp/bad.trf"
expect_status 3 "$arb" pair --dutch "$tmp/bad.trf"
# two players who already met: no valid pairing (C1)
{
    printf '012 t\rXXR 5\rXXC white1\r'
    printf '001    1      Player 1                          2500                             1.0          2 w 1\r'
    printf '001    2      Player 2                          2400                             0.0          1 b 0\r'
} > "$tmp/rematch.trf"
expect_status 1 "$arb" pair --dutch "$tmp/rematch.trf"
if [ "$fail" -eq 0 ]; then echo "cli_pair: all passed"; fi
exit $fail
