/*
 * cmd_norms.c — `arbiter norms FILE.trf`: the FIDE title norms (B.01, see
 * rules/tournament/norms.h) each player has made or can still make, with what the
 * player needs in the remaining rounds; text or JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdutil.h"
#include "commands.h"
#include "norms.h"
#include "ratings_json.h"
#include "trf.h"

static void print_json(const Tournament *t, const NormReport *r)
{
    size_t len = 0;
    char *text = ratings_json_norms(t, r, NULL, &len);
    if (text)
        fwrite(text, 1, len, stdout);
    free(text);
}

static void print_text(const Tournament *t, const NormReport *r, bool all)
{
    printf("FIDE title norms (B.01), after round %d of %d%s\n", r->rounds, r->total_rounds,
           r->swiss_exception ? "; Swiss exception: federation rules waived" : "");
    int shown = 0;
    char s[16], m[200], o[320];
    for (int i = 0; i < r->n_rows; i++) {
        const NormRow *w = &r->rows[i];
        const TrnPlayer *p = tournament_player(t, w->player);
        for (int k = 0; k < w->n_checks; k++) {
            const NormCheck *c = &w->checks[k];
            if (!all && !c->possible)
                continue;
            ratings_json_points(c->score, s, sizeof s);
            ratings_json_missing(c, m, sizeof m);
            ratings_json_outlook(c, r->rounds, o, sizeof o);
            printf("%4d %s %s (%s) %s: %s/%d, Ra %d%s, Rp %d, titled %d, %s+ %d, "
                   "feds %d other, own %d, max %d -> %s%s%s%s\n",
                   w->player, norms_title_code(p->title), p->name,
                   p->federation[0] ? p->federation : "-", norms_level(c->title)->name, s, c->games,
                   c->average, c->raised_from ? " (raised)" : "", c->performance, c->titled,
                   norms_level(c->title)->name, c->title_holders, c->federations, c->own_federation,
                   c->max_one_federation, o, m[0] ? " [missing: " : "", m, m[0] ? "]" : "");
            shown++;
        }
    }
    if (!shown)
        printf("no player has made or can still make a norm\n");
}

static int number(const char *val, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(val, &end, 10);
    if (*end || !val[0] || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static int run_norms(int argc, char **argv)
{
    const char *path = NULL, *format = "text";
    NormOptions opt = {0};
    int rr = -1;
    bool all = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--format") == 0 && val) {
            format = argv[++i];
            if (strcmp(format, "text") && strcmp(format, "json")) {
                fprintf(stderr, "arbiter norms: --format is text or json\n");
                return 2;
            }
        } else if ((strcmp(a, "--rounds") == 0 || strcmp(a, "--total-rounds") == 0 ||
                    strcmp(a, "--min-games") == 0) &&
                   val) {
            int *dst = a[2] == 'r' ? &opt.rounds : a[2] == 't' ? &opt.total_rounds : &opt.min_games;
            i++;
            if (number(val, 1, TRN_MAX_ROUNDS, dst)) {
                fprintf(stderr, "arbiter norms: %s is a number from 1 to %d\n", a, TRN_MAX_ROUNDS);
                return 2;
            }
        } else if (strcmp(a, "--national") == 0) {
            opt.national_championship = true;
        } else if (strcmp(a, "--round-robin") == 0) {
            rr = 1;
        } else if (strcmp(a, "--swiss") == 0) {
            rr = 0;
        } else if (strcmp(a, "--all") == 0) {
            all = true;
        } else if (cmdutil_file_arg("norms", a, &path)) {
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: arbiter norms FILE.trf [--format text|json]\n");
        return 2;
    }
    Tournament *t;
    int rc = cmdutil_trf_load("norms", path, 0, &t);
    if (rc)
        return rc;
    if (rr < 0)
        rr = strstr(t->system, "ROUNDROBIN") != NULL || strstr(t->system, "BERGER") != NULL;
    opt.swiss = !rr;
    NormReport *r;
    rc = norms_event(t, &opt, &r);
    if (rc) {
        fprintf(stderr, "arbiter norms: %s\n", rc < 0 ? "out of memory" : "bad option");
        tournament_free(t);
        return rc < 0 ? 1 : 2;
    }
    if (strcmp(format, "json") == 0)
        print_json(t, r);
    else
        print_text(t, r, all);
    norms_report_free(r);
    tournament_free(t);
    return 0;
}

const Command cmd_norms = {
    .name = "norms",
    .summary = "FIDE title norms made or still possible in a TRF",
    .help = "usage: arbiter norms FILE.trf [--format text|json] [--rounds N]\n"
            "                     [--total-rounds N] [--min-games N] [--national]\n"
            "                     [--round-robin|--swiss] [--all]\n\n"
            "Checks the GM, IM, WGM and WIM norms (FIDE Title Regulations, Handbook\n"
            "B.01 1.4) of every player of FILE who does not hold the title (women's\n"
            "titles for players marked w): games played over the board (at least 9),\n"
            "the opponents' average with the lowest one raised to the title's floor\n"
            "(GM 2200, IM 2050, WGM 2000, WIM 1850; unrated opponents count 1400),\n"
            "minimum averages GM 2380, IM 2230, WGM 2180, WIM 2030, performance Ra + dp\n"
            "at least GM 2600, IM 2450, WGM 2400, WIM 2250, half the opponents titled, a\n"
            "third (at least 3) holding the title or a higher one, at most 20% unrated,\n"
            "two federations besides the player's, at most 3/5 from the player's\n"
            "federation and 2/3 from one federation.  With rounds left it says what the\n"
            "player needs, assuming opponents of the same average.\n\n"
            "  --rounds N        after round N.\n"
            "  --total-rounds N  rounds of the event (default: line 142 / XXR).\n"
            "  --min-games N     7 or 8 for the events B.01 allows (default 9).\n"
            "  --national        a national championship: federation rules waived.\n"
            "  --round-robin     no Swiss exception (default from line 192); in a Swiss\n"
            "                    with 20 rated foreign players from 3 federations, 10 of\n"
            "                    them GM IM WGM WIM, federation rules are waived.\n"
            "  --all             also the norms out of reach (text; JSON has them all).\n\n"
            "Exit status: 0 ok, 2 bad arguments, 3 invalid file (FILE:LINE:COLUMN: why),\n"
            "1 cannot read the file.\n",
    .run = run_norms,
};
