# trf_cut.awk — a TRF file cut before round R, asking for R to be paired:
# rounds 1..KEEP (= R - 1) kept, points recomputed (1 / 0.5 / 0, byes by
# their letter), the absences written for round R kept (0000 - H/F/Z/-),
# "192 SYSNAME" and "XXR TOTAL" set, and XXC read back from round 1 when the
# file has none, as bbpPairings infers the initial colour.
#
# usage: awk -v keep=KEEP -v total=TOTAL -v sysname=NAME -f trf_cut.awk IN.trf
BEGIN {
    RS = "\r"; ORS = "\r"
    split("1 + W U F", w, " "); for (i in w) pts[w[i]] = 10
    split("= D H", d, " "); for (i in d) pts[d[i]] = 5
}
{ sub(/\n$/, ""); line[NR] = $0 }
/^(XXC|152)/ { hasxxc = 1 }
/^001/ { byid[substr($0, 5, 4) + 0] = NR; if (substr($0, 5, 4) + 0 > maxid) maxid = substr($0, 5, 4) + 0 }
function colour(   id, g, opp, skipped, c) {
    for (id = 1; id <= maxid; id++) {
        if (!(id in byid)) continue
        g = substr(line[byid[id]], 92, 8)
        if (length(g) < 8) continue
        opp = substr(g, 1, 4)
        if ((opp ~ /^ *$/ || opp == "0000") && index("U+", substr(g, 8, 1)) == 0) continue
        c = substr(g, 6, 1)
        if (c == "w" || c == "b") {
            if (skipped % 2) c = c == "w" ? "b" : "w"
            return c == "w" ? "white1" : "black1"
        }
        skipped++
    }
    return ""
}
END {
    for (n = 1; n <= NR; n++) {
        l = line[n]
        if (l ~ /^(XXR|142|092|192)/) continue
        if (l ~ /^001/) {
            games = substr(l, 92, 10 * keep); p = 0
            for (k = 0; k < keep; k++) {
                g = substr(games, 10 * k + 1, 8)
                if (length(g) >= 8 && (substr(g, 8, 1) in pts)) p += pts[substr(g, 8, 1)]
            }
            nx = substr(l, 92 + 10 * keep, 8)
            if (length(nx) == 8 && (substr(nx, 1, 4) ~ /^ *$/ || substr(nx, 1, 4) == "0000") &&
                index("HFZ-", substr(nx, 8, 1)))
                games = sprintf("%-" (10 * keep) "s", games) nx
            l = substr(l, 1, 80) sprintf("%4s", int(p / 10) "." (p % 10)) substr(l, 85, 7) games
            sub(/ +$/, "", l)
        }
        printf "%s%s", (n > 1 ? "\r" : ""), l
        if (n == 1) {
            c = hasxxc ? "" : colour()
            if (c != "") printf "\rXXC %s", c
            printf "\r192 %s\rXXR %d", sysname, total
        }
    }
    printf "\r"
}
