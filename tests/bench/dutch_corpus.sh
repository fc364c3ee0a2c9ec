#!/bin/sh
# dutch_corpus.sh — random tournaments from bbpPairings' generator, re-paired
# round by round by `arbiter check`: how many rounds agree.
#
# usage: BBPPAIRINGS=/path/to/bbpPairings.exe tests/bench/dutch_corpus.sh \
#            [--system dutch|burstein] [--baku] FIRST_SEED LAST_SEED [OUTDIR] [ARBITER]
#
# For each seed s a generator configuration is derived from s alone:
#   PlayersNumber    10 + (53 s mod 111)         (10..120)
#   RoundsNumber     5 + (11 s mod 7)            (5..11)
#   DrawPercentage   13 s mod 60
#   ForfeitRate      10 + s mod 40, when s mod 3 = 1
#   HalfPointByeRate 5 + s mod 20,  when s mod 4 = 2
#   RetiredRate      5 + s mod 20,  when s mod 5 = 0
# and the tournament is generated with `--SYSTEM -g CONFIG -o FILE -s s`
# (SYSTEM dutch unless --system says otherwise). Seeds the generator itself
# cannot complete are skipped.
#
# Without --baku every round of the file is re-paired by
# `arbiter check --SYSTEM`. With --baku (bbpPairings' generator cannot write
# accelerated events) each round R of the file is asked of both programs
# separately: the file cut before R (trf_cut.awk: points recomputed, the
# absences of R kept, "192 FIDE_DUTCH_BAKU" or "192 FIDE_BURSTEIN_BAKU", XXC
# and XXR added) is paired by `bbpPairings --SYSTEM -p` and by
# `arbiter pair --SYSTEM`, and the outputs must be equal; bbpPairings'
# answers are also kept in OUTDIR/eS.expected ("round R" then its output).
#
# Prints one line per tournament whose rounds differ and a summary line at
# the end; exits 0 when every round agrees, 1 otherwise, 77 (skip) without
# bbpPairings.
set -u
system=dutch
baku=0
while [ $# -gt 0 ]; do
    case $1 in
    --system) system=$2; shift 2 ;;
    --baku) baku=1; shift ;;
    *) break ;;
    esac
done
first=$1
last=$2
out=${3:-$(mktemp -d)}
arbiter=${4:-build/server/arbiter}
bbp=${BBPPAIRINGS:-}
here=$(dirname "$0")
if [ -z "$bbp" ] || [ ! -x "$bbp" ]; then
    echo "dutch_corpus: set BBPPAIRINGS to a bbpPairings binary to run this check"
    exit 77
fi
case $system in
dutch) bakuname=FIDE_DUTCH_BAKU ;;
burstein) bakuname=FIDE_BURSTEIN_BAKU ;;
*) echo "dutch_corpus: unknown system '$system'"; exit 2 ;;
esac
mkdir -p "$out"

# rounds written in a TRF (its longest 001 line)
rounds_of() {
    tr '\r' '\n' < "$1" | awk '/^001/ { n = int((length($0) - 89) / 10); if (n > m) m = n }
                                END { print m + 0 }'
}

# Baku: every round of $1 paired by both programs; prints "ROUNDS DIFFER"
baku_rounds() {
    trf=$1 exp=$2
    total=$(rounds_of "$trf")
    : > "$exp"
    n=0 d=0 r=1
    while [ "$r" -le "$total" ]; do
        cut="$out/cut.trf"
        awk -v keep=$((r - 1)) -v total="$total" -v sysname="$bakuname" \
            -f "$here/trf_cut.awk" "$trf" > "$cut"
        # no pairing at all (exit status 1 of both) is an agreement too
        want=$("$bbp" --"$system" "$cut" -p 2> /dev/null) || want="no pairing ($?)"
        want=$(printf '%s' "$want" | tr -d '\r')
        got=$("$arbiter" pair --"$system" "$cut" 2> /dev/null) || got="no pairing ($?)"
        printf 'round %d\n%s\n' "$r" "$want" >> "$exp"
        n=$((n + 1))
        if [ "$want" != "$got" ]; then
            d=$((d + 1))
            echo "$trf round $r: bbpPairings and arbiter differ" >&2
        fi
        r=$((r + 1))
    done
    echo "$n $d"
}

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
    if ! "$bbp" --"$system" -g "$cfg" -o "$trf" -s "$s" > /dev/null 2>&1; then
        skipped=$((skipped + 1))
        s=$((s + 1))
        continue
    fi
    if [ "$baku" -eq 1 ]; then
        res=$(baku_rounds "$trf" "$out/e$s.expected")
        set -- $res
        rounds=$((rounds + $1))
        differ=$((differ + $2))
        [ "$2" -ne 0 ] && echo "seed $s: $2 of $1 rounds differ"
        tours=$((tours + 1))
        s=$((s + 1))
        continue
    fi
    res=$("$arbiter" check --"$system" "$trf" 2>&1 | tail -n 1)
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
