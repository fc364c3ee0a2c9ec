#!/bin/sh
# cli_standings.sh ARBITER — the standings and trf subcommands as a user runs
# them: output shape, exit statuses, error positions, TRF conversion.
set -u
A="$1"
D="$ARBITER_TEST_DATA"
T="${TMPDIR:-/tmp}/arbiter-cli-$$"
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# The TEC exercise: player 2 wins with 4 points; BH/C1 then BH decide the rest.
"$A" standings "$D/tiebreak/fide-exercise-2023.trf" --tiebreaks BH/C1,BH --edition 2023 \
    --format csv > "$T/out.csv" || fail "standings exit $?"
head -1 "$T/out.csv" | grep -qx 'rank,start_rank,name,rating,PTS,BH/C1,BH' || fail "csv header"
sed -n 2p "$T/out.csv" | grep -q '^1,2,"Player 2",0,4.0,12.0,13.0$' || fail "first row: $(sed -n 2p "$T/out.csv")"
[ "$(wc -l < "$T/out.csv")" -eq 17 ] || fail "16 players expected"

# Handbook spelling and JSON.
"$A" standings "$D/tiebreak/fide-exercise-2023.trf" --tiebreaks 'BH-C1, SB' --format json \
    > "$T/out.json" || fail "json exit"
grep -q '"tiebreaks":\["PTS","BH/C1","SB"\]' "$T/out.json" || fail "json tiebreaks"

# A broken file: exit 3, FILE:LINE:COLUMN and the reason.
printf '012 x\r001    1      A                                 2000                             1.0    1     2 w 1\r001    2      B                                 1900                             0.0    2     1 w 0\r' > "$T/bad.trf"
"$A" standings "$T/bad.trf" 2> "$T/err"
[ $? -eq 3 ] || fail "bad file must exit 3"
grep -q 'bad.trf:2:97: round 1: both 1 and 2 have white' "$T/err" || fail "error text: $(cat "$T/err")"

# A file naming a team tie-break in 202: left out with a word, the rest computed.
{ printf '202 BH,EDET/P,SB\r'; cat "$D/tiebreak/fide-exercise-2023.trf"; } > "$T/team.trf"
"$A" standings "$T/team.trf" --format csv > "$T/out.csv" 2> "$T/err" || fail "202 with EDET"
grep -q "leaving out tie-break 'EDET/P'" "$T/err" || fail "no word about EDET"
head -1 "$T/out.csv" | grep -qx 'rank,start_rank,name,rating,PTS,BH,SB' || fail "202 header"

# Unknown tie-break and missing file.
"$A" standings "$D/tiebreak/fide-exercise-2023.trf" --tiebreaks BH,XX 2> "$T/err"
[ $? -eq 2 ] || fail "unknown tie-break must exit 2"
"$A" standings "$T/none.trf" 2> /dev/null
[ $? -eq 1 ] || fail "missing file must exit 1"

# trf: TRF16 -> TRF-2026 -> TRF16 gives the TRF16 text back; lines end in CR.
"$A" trf "$D/trf/bbp-issue_7.trf" --flavour 16 > "$T/a16.trf" || fail "trf 16"
"$A" trf "$T/a16.trf" --flavour 26 > "$T/a26.trf" || fail "trf 26"
"$A" trf "$T/a26.trf" --flavour 16 > "$T/b16.trf" || fail "trf back"
cmp -s "$T/a16.trf" "$T/b16.trf" || fail "16 -> 26 -> 16 differs"
tr '\r' '\n' < "$T/a26.trf" | grep -q '^142 15$' || fail "142 line"
[ "$(tr -cd '\n' < "$T/a26.trf" | wc -c)" -eq 0 ] || fail "LF in output"
# berger: the published 6-player table, round 2 and round 5.
"$A" berger 6 > "$T/b6" || fail "berger exit"
grep -qx 'Round 2: 6-4 5-3 1-2' "$T/b6" || fail "berger round 2"
grep -qx 'Round 5: 3-6 4-2 5-1' "$T/b6" || fail "berger round 5"
"$A" berger 5 | grep -qx 'Round 1: 1-bye 2-5 3-4' || fail "berger odd"
"$A" berger 2 2> /dev/null
[ $? -eq 2 ] || fail "berger 2 must exit 2"
echo "ok"
