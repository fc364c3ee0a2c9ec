#!/bin/sh
# dutch_corpus.sh — random tournaments from bbpPairings' generator, re-paired
# round by round by `arbiter check --dutch`: how many rounds agree.
#
# usage: BBPPAIRINGS=/path/to/bbpPairings.exe tests/bench/dutch_corpus.sh \
#            FIRST_SEED LAST_SEED [OUTDIR] [ARBITER]
#
# For each seed s a generator configuration is derived from s alone:
#   PlayersNumber    10 + (53 s mod 111)         (10..120)
#   RoundsNumber     5 + (11 s mod 7)            (5..11)
#   DrawPercentage   13 s mod 60
#   ForfeitRate      10 + s mod 40, when s mod 3 = 1
#   HalfPointByeRate 5 + s mod 20,  when s mod 4 = 2
#   RetiredRate      5 + s mod 20,  when s mod 5 = 0
# and the tournament is generated with `--dutch -g CONFIG -o FILE -s s`.
# Seeds the generator itself cannot complete are skipped. Prints one line per
# tournament whose rounds differ and a summary line at the end; exits 0 when
# every round agrees, 1 otherwise, 77 (skip) without bbpPairings.
set -u
first=$1
last=$2
out=${3:-$(mktemp -d)}
arbiter=${4:-build/server/arbiter}
bbp=${BBPPAIRINGS:-}
if [ -z "$bbp" ] || [ ! -x "$bbp" ]; then
    echo "dutch_corpus: set BBPPAIRINGS to a bbpPairings binary to run this check"
    exit 77
fi
mkdir -p "$out"
tours=0 rounds=0 differ=0 skipped=0
s=$first
while [ "$s" -le "$last" ]; do
    cfg="$out/c$s.txt"
    {
        echo "PlayersNumber=$((10 + (53 * s) % 111))"
        echo "RoundsNumber=$((5 + (11 * s) % 7))"
        echo "DrawPercentage=$(((13 * s) % 60))"
        [ $((s % 3)) -eq 1 ] && echo "ForfeitRate=$((10 + s % 40))"
        [ $((s % 4)) -eq 2 ] && echo "HalfPointByeRate=$((5 + s % 20))"
        [ $((s % 5)) -eq 0 ] && echo "RetiredRate=$((5 + s % 20))"
    } > "$cfg"
    trf="$out/t$s.trf"
    if ! "$bbp" --dutch -g "$cfg" -o "$trf" -s "$s" > /dev/null 2>&1; then
        skipped=$((skipped + 1))
        s=$((s + 1))
        continue
    fi
    res=$("$arbiter" check --dutch "$trf" 2>&1 | tail -n 1)
    n=$(echo "$res" | sed -n 's/^\([0-9]*\) rounds checked, \([0-9]*\) differ$/\1 \2/p')
    if [ -z "$n" ]; then
        echo "seed $s: $res"
        differ=$((differ + 1))
    else
        set -- $n
        rounds=$((rounds + $1))
        differ=$((differ + $2))
        [ "$2" -ne 0 ] && echo "seed $s: $res"
    fi
    tours=$((tours + 1))
    s=$((s + 1))
done
echo "$tours tournaments ($skipped seeds skipped), $rounds rounds, $differ rounds differ"
[ "$differ" -eq 0 ]
