/*
 * cmd_ratings.c — `arbiter ratings FILE.trf`: the FIDE rating change of
 * every player of a tournament (B.02, see rules/tournament/rating.h), as a text table
 * or as JSON (one object per player, figures unrounded).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdutil.h"
#include "commands.h"
#include "fide.h"
#include "rating.h"
#include "ratings_json.h"
#include "trf.h"

static void print_json(const Tournament *t, const RatingReport *r)
{
    size_t len = 0;
    char *text = ratings_json_ratings(t, r, NULL, &len);
    if (text)
        fwrite(text, 1, len, stdout);
    free(text);
}

/* Display width of a UTF-8 string (continuation bytes do not count). */
static int width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void print_text(const Tournament *t, const RatingReport *r)
{
    int nw = 4;
    for (int i = 0; i < r->n_rows; i++) {
        int w = width(tournament_player(t, r->rows[i].player)->name);
        nw = w > nw ? w : nw;
    }
    printf("FIDE rating changes (%s, B.02 2024), after round %d\n", ratings_json_kind(r->kind),
           r->rounds);
    printf("%4s  %-*s %5s %3s %5s %6s %7s %8s %5s\n", "SNo", nw, "Name", "Rtg", "K", "Games",
           "Score", "Exp", "Change", "New");
    char s[32], e[32], c[32];
    for (int i = 0; i < r->n_rows; i++) {
        const RatingRow *w = &r->rows[i];
        const TrnPlayer *p = tournament_player(t, w->player);
        ratings_json_centi(w->score, s, sizeof s);
        printf("%4d  %s%*s %5d", w->player, p->name, nw - width(p->name), "", w->rating);
        if (w->rating > 0) {
            ratings_json_centi(w->expected, e, sizeof e);
            snprintf(c, sizeof c, "%+.2f", (double)w->change / 100.0);
            printf(" %3d %5d %6s %7s %8s %5lld\n", w->k, w->rated_games, s, e, c,
                   w->rating + ratings_json_rounded(w->change));
        } else if (w->initial == RATING_INITIAL_OK) {
            printf(" %3s %5d %6s %7s %8s %5d  first rating (Ra %d, p %d%%)\n", "-", w->rated_games,
                   s, "-", "-", w->initial_rating, w->initial_ra, w->initial_p);
        } else {
            printf(" %3s %5d %6s %7s %8s %5s  no first rating: %s\n", "-", w->rated_games, s, "-",
                   "-", "-", ratings_json_initial(w->initial));
        }
    }
}

/* Fills *K_OF (owned by the caller) with the K of each player of T in the
 * FIDE register of the store at DB.  Returns 0 or the exit status. */
static int register_k(const char *db, RatingKind kind, const Tournament *t, int **k_of)
{
    Store *s;
    char err[256];
    if (store_open(db, 1, &s, err, sizeof err)) {
        fprintf(stderr, "arbiter ratings: %s\n", err);
        return 3;
    }
    int type = kind == RATING_RAPID   ? FIDE_RAPID
               : kind == RATING_BLITZ ? FIDE_BLITZ
                                      : FIDE_STANDARD;
    *k_of = calloc(TRN_MAX_PLAYERS + 1, sizeof **k_of);
    int found = *k_of ? fide_k_of(s, type, t, *k_of) : -1;
    store_close(s);
    if (found < 0) {
        fprintf(stderr, "arbiter ratings: the FIDE register of %s could not be read\n", db);
        free(*k_of);
        *k_of = NULL;
        return 1;
    }
    return 0;
}

static int run_ratings(int argc, char **argv)
{
    const char *path = NULL, *format = "text", *kind = NULL, *db = NULL;
    RatingOptions opt = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        if (strcmp(a, "--k") == 0 && val) {
            opt.force_k = (int)strtol(val, &end, 10);
            i++;
            if (*end || opt.force_k < 1 || opt.force_k > 100) {
                fprintf(stderr, "arbiter ratings: --k is a number from 1 to 100\n");
                return 2;
            }
        } else if (strcmp(a, "--db") == 0 && val) {
            db = val;
            i++;
        } else if (strcmp(a, "--format") == 0 && val) {
            format = val;
            i++;
            if (strcmp(format, "text") && strcmp(format, "json")) {
                fprintf(stderr, "arbiter ratings: --format is text or json\n");
                return 2;
            }
        } else if (strcmp(a, "--kind") == 0 && val) {
            kind = val;
            i++;
            if (strcmp(kind, "standard") && strcmp(kind, "rapid") && strcmp(kind, "blitz")) {
                fprintf(stderr, "arbiter ratings: --kind is standard, rapid or blitz\n");
                return 2;
            }
        } else if (strcmp(a, "--rounds") == 0 && val) {
            opt.rounds = (int)strtol(val, &end, 10);
            i++;
            if (*end || opt.rounds < 1 || opt.rounds > TRN_MAX_ROUNDS) {
                fprintf(stderr, "arbiter ratings: --rounds is a number from 1 to %d\n",
                        TRN_MAX_ROUNDS);
                return 2;
            }
        } else if (cmdutil_file_arg("ratings", a, &path)) {
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: arbiter ratings FILE.trf [--k N] [--format text|json]\n");
        return 2;
    }
    Tournament *t;
    int rc = cmdutil_trf_load("ratings", path, 0, &t);
    if (rc)
        return rc;
    if (kind)
        opt.kind = strcmp(kind, "rapid") == 0   ? RATING_RAPID
                   : strcmp(kind, "blitz") == 0 ? RATING_BLITZ
                                                : RATING_STANDARD;
    else
        opt.kind = rating_kind_for_control(t->encoded_tc);
    int *k_of = NULL;
    if (db && !opt.force_k && (rc = register_k(db, opt.kind, t, &k_of))) {
        tournament_free(t);
        return rc;
    }
    opt.k_of = k_of;
    RatingReport *r;
    rc = rating_event(t, &opt, &r);
    free(k_of);
    if (rc) {
        fprintf(stderr, "arbiter ratings: %s\n", rc < 0 ? "out of memory" : "bad option");
        tournament_free(t);
        return rc < 0 ? 1 : 2;
    }
    if (strcmp(format, "json") == 0)
        print_json(t, r);
    else
        print_text(t, r);
    rating_report_free(r);
    tournament_free(t);
    return 0;
}

const Command cmd_ratings = {
    .name = "ratings",
    .summary = "FIDE rating change of every player of a TRF",
    .help = "usage: arbiter ratings FILE.trf [--k N] [--format text|json] [--rounds N]\n"
            "                       [--kind standard|rapid|blitz] [--db STORE]\n\n"
            "Prints each player's FIDE rating change for the tournament in FILE (TRF16\n"
            "or TRF-2026) under the FIDE Rating Regulations effective from 1 March 2024\n"
            "(Handbook B.02): expected score from table 8.1(b) with the 400-point rule\n"
            "in every game, change K x (W - We) per game.  Rated games are the games\n"
            "played over the board (1 = 0) against rated opponents; forfeits, games of\n"
            "less than one move and byes do not count.  Unrated players get their\n"
            "first rating from this event when they played at least 5 rated opponents\n"
            "and scored against them: Ra + dp with two hypothetical draws against\n"
            "1800s, published only from 1400.\n\n"
            "  --k N       one K for everybody.  Default: 10 from a 2400 rating, 40 under\n"
            "              2300 until the year of the 18th birthday (TRF birth date and\n"
            "              the 042 start date), else 20; 20 in rapid and blitz; K x games\n"
            "              at most 700.  New players (K 40 for their first 30 games)\n"
            "              cannot be told from a TRF: give --k 40.\n"
            "  --db STORE  take each player's K from the FIDE register of that store\n"
            "              (`arbiter fide import`), by the FIDE ID of the TRF; players\n"
            "              not in it keep the default.  --k wins over it.\n"
            "  --kind K    standard, rapid or blitz.  Default: from the 222 time control\n"
            "              (base + 60 x increment: up to 10 min blitz, under 60 min\n"
            "              rapid), else standard.\n"
            "  --rounds N  changes after round N.\n"
            "  --format    text (default) or json: an array with one object per player:\n"
            "              start_rank, name, rating, kind, rated_games, score, k,\n"
            "              expected, rating_change (unrounded), new_rating, games[]; for\n"
            "              unrated players initial_ra, initial_percentage,\n"
            "              initial_rating, initial_status.\n\n"
            "Exit status: 0 ok, 2 bad arguments, 3 invalid file (the message gives\n"
            "FILE:LINE:COLUMN and what is wrong), 1 cannot read the file.\n",
    .run = run_ratings,
};
