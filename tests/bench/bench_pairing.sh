#!/bin/bash
# bench_pairing.sh — time one Dutch round with `arbiter pair` and with
# bbpPairings on the same files, and print the ratio (absolute times drift on
# a shared machine; the ratio is what to watch).
#
# usage: BBPPAIRINGS=/path/to/bbpPairings.exe tests/bench/bench_pairing.sh \
#            [ARBITER] [WORKDIR]
#
# Two cases: 200 players, round 9 of 9, and 1,000 players, round 4 of 4. The
# history is made by bbpPairings' generator (`--dutch -g CONFIG -s SEED`),
# cut before the last round by trf_truncate.py, and both engines pair that
# round. Generated files are kept in WORKDIR and reused (the 1,000-player
# history takes minutes to generate). CPU time is user + system time.
set -u
here=$(cd "$(dirname "$0")" && pwd)
arbiter=${1:-build/server/arbiter}
work=${2:-build/bench-dutch}
bbp=${BBPPAIRINGS:-}
if [ -z "$bbp" ] || [ ! -x "$bbp" ]; then
    echo "bench_pairing: set BBPPAIRINGS to a bbpPairings binary"
    exit 77
fi
mkdir -p "$work"
TIMEFORMAT='%U %S'

cpu() { # runs "$@" > $out, prints CPU seconds
    local t
    t=$( { time "$@" > "$out" 2> /dev/null; } 2>&1 )
    echo "$t" | awk '{ printf "%.3f", $1 + $2 }'
}

status=0
for spec in "200 9 7" "1000 4 7"; do
    set -- $spec
    players=$1 rounds=$2 seed=$3
    full="$work/p${players}_full.trf"
    if [ ! -s "$full" ]; then
        printf 'PlayersNumber=%d\nRoundsNumber=%d\nDrawPercentage=30\n' "$players" "$rounds" \
            > "$work/p${players}.cfg"
        "$bbp" --dutch -g "$work/p${players}.cfg" -o "$full" -s "$seed" > /dev/null || exit 1
    fi
    cut="$work/p${players}_r${rounds}.trf"
    python3 "$here/trf_truncate.py" "$full" $((rounds - 1)) "$rounds" > "$cut" || exit 1
    out="$work/p${players}.bbp"
    tb=$(cpu "$bbp" --dutch "$cut" -p)
    out="$work/p${players}.arbiter"
    ta=$(cpu "$arbiter" pair --dutch "$cut")
    if cmp -s <(tr -d '\r' < "$work/p${players}.bbp") "$work/p${players}.arbiter"; then
        same=identical
    else
        same=DIFFERENT
        status=1
    fi
    ratio=$(awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    echo "$players players, round $rounds: arbiter ${ta}s, bbpPairings ${tb}s," \
         "ratio arbiter/bbpPairings $ratio, pairings $same"
done
exit $status
