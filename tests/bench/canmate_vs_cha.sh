#!/bin/bash
# canmate_vs_cha.sh — our "can this side still mate?" analysis against the
# Chess Unwinnability Analyzer (CHA, Miguel Ambrona's D3-Chess, the tool whose
# labelled positions we test on), on the same side-cases in the same command:
# how many each decides, how many wrongly, the CPU time per side-case, and the
# ratio of the means (ours / CHA; absolute times drift on a shared machine).
#
# usage: CHA=/path/to/cha tests/bench/canmate_vs_cha.sh [--bench BENCH_CANMATE]
#            [--file LABELLED] [CHA]
#
# CHA is a binary built outside this repository as its README says (it links
# a Stockfish of its time); without one the script says so and exits 77
# (skip). CHA_ARGS adds options to its command line: `-limit N` sets its node
# budget (500,000 by default; its own test runner uses 10,000,000), `-quick`
# runs its quick mode, which prints only its NO answers (counted as decided;
# the others as undecided).
#
# Building CHA without installing anything system-wide: in its lib/stockfish,
# check out the Stockfish commit its Makefile names, add stockfish.cpp to the
# sources as that Makefile does, build the objects with `make ARCH=x86-64
# EXTRACXXFLAGS="-fPIC -DNNUE_EMBEDDING_OFF" all` (CHA never evaluates, so no
# network file is needed) and link them into libstockfish.so; then compile
# its src/ (every .cpp but test.cpp) against that library with -I, -L and an
# rpath instead of the /usr/local paths of its Makefile.
#
# The side-cases are those `bench_canmate --labelled-only --verbose` reads
# (the positions our FEN reader refuses as unreachable are left out of both
# runs); their labels come from its "case:" lines. CHA gets each as "FEN
# white|black", one query a line, in one process; its answers are matched
# back by the query it echoes. A YES of CHA comes with its helpmate line, a NO
# with its proof; one that disagrees with the label counts as wrong.
#
# Times: ours are bench_canmate's CPU time per side-case. CHA prints wall time
# per query only, so its mean is the CPU time (user + system) of the whole
# process less that of a process answering one trivial query (its start-up:
# tables, thread pool); its median and worst are its own wall-clock figures,
# which load on the machine inflates. Workload: about a minute for each
# program on the 3,508 side-cases of the committed vector.
#
# Exits 0 when neither program answers wrongly, 1 otherwise, 2 on a usage or
# run error, 77 without CHA.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bench=build/tests/bench/bench_canmate
file=$here/../data/canmate/d3-test-vector.txt
cha=${CHA:-}
while [ $# -gt 0 ]; do
    case $1 in
    --bench) bench=$2; shift 2 ;;
    --file) file=$2; shift 2 ;;
    -*) echo "canmate_vs_cha: unknown option $1" >&2; exit 2 ;;
    *) cha=$1; shift ;;
    esac
done
if [ -z "$cha" ] || [ ! -x "$cha" ]; then
    echo "canmate_vs_cha: set CHA (or pass its path) to a built Chess Unwinnability Analyzer"
    exit 77
fi
if [ ! -x "$bench" ]; then
    echo "canmate_vs_cha: no bench_canmate at $bench (use --bench)" >&2
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TIMEFORMAT='%U %S'
read -r -a cha_args <<< "${CHA_ARGS:-}"

cpu() { # runs "$@" < $in > $out, prints CPU seconds (user + system)
    local t
    t=$( { time "$@" < "$in" > "$out" 2> "$work/stderr"; } 2>&1 )
    echo "$t" | awk '{ printf "%.3f", $1 + $2 }'
}

"$bench" --labelled-only --verbose "$file" > "$work/ours" 2> "$work/ours.err"
ours_status=$?
if ! grep -q '^case: ' "$work/ours"; then
    echo "canmate_vs_cha: bench_canmate gave no cases:" >&2
    cat "$work/ours.err" >&2
    exit 2
fi
# "case: FEN | side | want | got | N us" -> the queries, and "want" per query.
awk -F ' [|] ' '/^case: / { print substr($1, 7) " " $2 }' "$work/ours" > "$work/queries"
awk -F ' [|] ' '/^case: / { print substr($1, 7) " " $2 "\t" $3 }' "$work/ours" > "$work/want"

# A bare king cannot mate: CHA answers at once, so this run is its start-up.
echo '4k3/8/8/8/8/8/8/4K3 w - - white' > "$work/one"
in=$work/one
out=$work/cha_one
init=$(cpu "$cha" "${cha_args[@]}")
in=$work/queries
out=$work/cha
total=$(cpu "$cha" "${cha_args[@]}")
if ! grep -q '^Analyzed ' "$work/cha"; then
    echo "canmate_vs_cha: $cha did not finish:" >&2
    tail -3 "$work/cha" "$work/stderr" >&2
    exit 2
fi

awk -F '\t' -v total="$total" -v init="$init" -v ours_status="$ours_status" '
function median(a, n,    i, j, t) { # sorts a[1..n] (insertion sort is enough here)
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && a[j] > t; j--)
            a[j + 1] = a[j]
        a[j + 1] = t
    }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
FILENAME ~ /want$/ { want[$1] = $2; n++; next }
FILENAME ~ /ours$/ {
    if ($0 !~ /^case: /)
        next
    split($0, f, / [|] /)
    n_ours++
    sub(/ us$/, "", f[5])
    ot[n_ours] = f[5] + 0; osum += f[5]
    if (f[5] + 0 > omax) omax = f[5] + 0
    if (f[4] != "unknown") {
        odec++
        if (f[4] != f[3]) owrong++
        od[substr(f[1], 7) " " f[2]] = 1
    }
    next
}
/^(winnable|unwinnable|undetermined)/ {
    # "RESULT [MOVES] nodes N time T (QUERY)"
    q = $0; sub(/^[^(]*\(/, "", q); sub(/\)[ \t\r]*$/, "", q)
    if (!(q in want) || (q in seen))
        next
    seen[q] = 1
    t = $0; sub(/.* time /, "", t); sub(/ .*/, "", t)
    ct[++n_cha] = t + 0
    if (t + 0 > cmax) cmax = t + 0
    if ($0 ~ /^undetermined/)
        next
    got = $0 ~ /^unwinnable/ ? "no" : "yes"
    cdec++
    cd[q] = 1
    if (got != want[q]) {
        cwrong++
        print "CHA WRONG: " q " | got " got
    }
}
END {
    for (q in want) {
        if ((q in od) && !(q in cd)) only_ours++
        if ((q in cd) && !(q in od)) only_cha++
    }
    ours_mean = osum / n
    cha_mean = (total - init) * 1e6 / n
    printf "cases:   %d side-cases (those bench_canmate reads)\n", n
    printf "arbiter: decided %d (%.2f%%)  wrong %d  mean %.1f us/case (CPU)  median %.0f us  worst %.2f ms\n",
           odec, 100 * odec / n, owrong, ours_mean, median(ot, n_ours), omax / 1e3
    printf "CHA:     decided %d (%.2f%%)  wrong %d  mean %.1f us/case (process CPU less start-up %.2f s)" \
           "  median %.0f us  worst %.2f ms (wall)\n",
           cdec, 100 * cdec / n, cwrong, cha_mean, init, median(ct, n_cha), cmax / 1e3
    printf "decided by arbiter only %d, by CHA only %d\n", only_ours, only_cha
    printf "ratio arbiter/CHA (mean per case): %.2f\n", (cha_mean > 0 ? ours_mean / cha_mean : 0)
    exit (owrong || cwrong || ours_status) ? 1 : 0
}' "$work/want" "$work/ours" "$work/cha"
