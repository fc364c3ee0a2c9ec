#!/bin/sh
# cli_ratings.sh ARBITER — the ratings and norms subcommands as a user runs
# them: JSON fields, exit statuses, error positions.
set -u
A="$1"
D="$ARBITER_TEST_DATA"
T="${TMPDIR:-/tmp}/arbiter-cli-rating-$$"
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$A" ratings "$D/rating/example-30.trf" --format json > "$T/r.json" || fail "ratings exit $?"
grep -q '"start_rank":1,"name":"Petrov, Ivan","rating":2600,"kind":"standard","rated_games":9,"score":6.5,"k":10,"expected":6.68,"rating_change":-1.8,"new_rating":2598' \
    "$T/r.json" || fail "player 1: $(grep '"start_rank":1,' "$T/r.json" | head -c 300)"
grep -q '"start_rank":29,.*"initial_rating":1609' "$T/r.json" || fail "player 29"
[ "$(grep -c '"start_rank"' "$T/r.json")" -eq 30 ] || fail "30 players expected"
"$A" ratings "$D/rating/example-30.trf" --k 20 --format json | grep -q '"start_rank":1,.*"rating_change":-3.6,' \
    || fail "--k 20"
"$A" norms "$D/rating/example-30.trf" | grep -q '9 FM Stoyanov, Nikola (BUL) IM: 7/9, Ra 2370 (raised), Rp 2590.*-> IM norm$' \
    || fail "IM norm line"
"$A" norms "$D/rating/example-30.trf" --rounds 8 | grep -q 'any result in round 9 gives an IM norm' \
    || fail "round 8 outlook"

# A broken file: exit 3, FILE:LINE:COLUMN and the reason.
printf '012 x\r001    1      A                                 2000                             1.0    1     2 w 1\r001    2      B                                 1900                             0.0    2     1 w 0\r' > "$T/bad.trf"
for c in ratings norms; do
    "$A" $c "$T/bad.trf" 2> "$T/err"
    [ $? -eq 3 ] || fail "$c: bad file must exit 3"
    grep -q "arbiter $c: .*bad.trf:2:97: round 1: both 1 and 2 have white" "$T/err" || fail "$c error: $(cat "$T/err")"
done
"$A" ratings "$D/rating/example-30.trf" --k 0 2> /dev/null
[ $? -eq 2 ] || fail "--k 0 must exit 2"
"$A" help ratings | grep -q 'usage: arbiter ratings FILE.trf' || fail "help ratings"
echo "ok"
