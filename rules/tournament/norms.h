/*
 * norms.h — FIDE title norms of a tournament (Handbook B.01, FIDE Title
 * Regulations as in force since 1 January 2022; the performance table is
 * B.02 8.1(a)).
 *
 * For each player and each of GM, IM, WGM, WIM the player does not hold
 * yet (women's titles for players marked 'w'), the module checks the norm
 * requirements of 1.4 over the games counted so far:
 *  - games: over-the-board results only (1 = 0); forfeits, games of less
 *    than one move and byes do not count; at least 9 games (min_games, 7
 *    for the events the regulation names);
 *  - opponents' ratings: the list at the start; unrated opponents count as
 *    the rating floor, 1400; the one lowest-rated opponent below the title's
 *    adjusted floor (GM 2200, IM 2050, WGM 2000, WIM 1850) is raised to it;
 *    at most 20% of the opponents unrated;
 *  - average Ra (adjusted, rounded half up) at least GM 2380, IM 2230,
 *    WGM 2180, WIM 2030; performance Rp = Ra + dp(p), p rounded to
 *    hundredths, at least GM 2600, IM 2450, WGM 2400, WIM 2250;
 *  - titled opponents: at least half hold GM IM FM WGM WIM WFM (not CM,
 *    WCM); at least a third, and at least 3, hold the norm's title or a
 *    higher one (GM: GM; IM: GM IM; WGM: GM IM WGM; WIM: GM IM WGM WIM);
 *  - federations: at least two federations other than the player's; at
 *    most 3/5 of the opponents from the player's federation and at most
 *    2/3 from any one; waived in a federation's national championship
 *    (option) and in a Swiss event with at least 20 rated players from at
 *    least 3 federations other than the host (line 032), at least 10 of
 *    them titled GM IM WGM WIM.
 * Fractions are exact: "at least a third of 10" is 4, "at most 3/5 of 9" is 5.
 *
 * Games left out: the player may disregard games against opponents they
 * defeated, as long as the games that remain meet every requirement (the
 * minimum number of games included); the full crosstable is still sent.
 * When the games as played make no norm, norms_event tries every set of
 * the player's wins (the first NORMS_MAX_DROPPED of them) and reports the
 * smallest set whose removal makes the norm, the lowest rounds first among
 * equals, in NormCheck.dropped.
 *
 * What the player needs: with R rounds in the event (line 142 / XXR) and
 * r counted, every remaining round is assumed to be a game against
 * opponents of the same average; `need` is the fewest points (tenths) in
 * those rounds that bring Rp to the title's threshold, -1 if none can.
 *
 * Pure: libc only, no I/O, no clock.
 */
#ifndef ARBITER_RULES_NORMS_H
#define ARBITER_RULES_NORMS_H

#include <stdbool.h>

#include "tournament.h"

enum {
    NORMS_E_RANGE = 1,      /* an option is out of its range */
    NORMS_MIN_GAMES = 9,    /* 1.4: games for a norm */
    NORMS_UNRATED = 1400,   /* rating of an unrated opponent */
    NORMS_MAX_DROPPED = 12, /* wins searched for leaving out (see norms_event) */
};

typedef enum NormTitle {
    NORM_GM = 0,
    NORM_IM,
    NORM_WGM,
    NORM_WIM,
    NORM_N_TITLES,
} NormTitle;

/* Per title: performance, minimum average, adjusted rating floor. */
typedef struct NormLevel {
    const char *name;
    int performance;
    int min_average;
    int floor;
} NormLevel;

/* The figures of `title` (static storage). */
const NormLevel *norms_level(NormTitle title);

/* Canonical title code of a TRF title ("GM", "wgm" -> "WGM"), "" if none. */
const char *norms_title_code(const char *title);

typedef struct NormCheck {
    NormTitle title;
    int games;              /* games counted */
    int score;              /* tenths */
    int average;            /* adjusted Ra, rounded half up */
    int raised_from;        /* rating of the opponent raised to the floor, 0 = none */
    int performance;        /* Ra + dp */
    int titled;             /* opponents with GM IM FM WGM WIM WFM */
    int title_holders;      /* opponents holding the norm's title or higher */
    int unrated;            /* unrated opponents */
    int federations;        /* federations other than the player's */
    int own_federation;     /* opponents from the player's federation */
    int max_one_federation; /* most opponents from one federation */

    bool ok_games, ok_average, ok_performance, ok_titled, ok_title_holders, ok_unrated;
    bool ok_federations; /* all three federation rules, or waived */
    bool federations_waived;
    bool norm; /* every requirement met */

    /* Games against defeated opponents left out so that the rest make the
     * norm (see norms_event); their rounds, ascending. */
    int n_dropped;
    unsigned char dropped[NORMS_MAX_DROPPED];

    int remaining; /* rounds left in the event */
    int need;      /* tenths from the remaining rounds, -1 out of reach */
    bool possible; /* norm, or score, games and title counts all still
                      reachable in the remaining rounds */
} NormCheck;

typedef struct NormRow {
    int player; /* start rank */
    int n_checks;
    NormCheck checks[NORM_N_TITLES];
} NormRow;

typedef struct NormOptions {
    int rounds;                 /* rounds counted, 0 = every round in the file */
    int total_rounds;           /* rounds of the event, 0 = line 142 / XXR or `rounds` */
    int min_games;              /* 0 = 9 */
    bool national_championship; /* federation rules waived */
    bool swiss;                 /* the Swiss exception may apply (default: not a round robin) */
} NormOptions;

typedef struct NormReport {
    int rounds, total_rounds;
    bool swiss_exception; /* the event meets the Swiss federation exception */
    int n_rows;
    NormRow *rows; /* players with at least one check, file order */
} NormReport;

/*
 * Checks one title for the games described: n opponents with their
 * ratings (0 = unrated), titles and federations, the player's score in
 * tenths and federation.  Used by norms_event and by tests that state
 * the opposition directly.
 */
typedef struct NormOpponent {
    int rating;
    const char *title;
    const char *federation;
} NormOpponent;

void norms_check(NormTitle title, const NormOpponent *opp, int n, int score,
                 const char *own_federation, bool federations_waived, int min_games, int remaining,
                 NormCheck *out);

/* True when the Swiss exception (see above) holds for t. */
bool norms_swiss_exception(const Tournament *t);

/*
 * Norm checks for every player of t.  Returns 0 with *out (free with
 * norms_report_free), NORMS_E_RANGE for a bad option, or -ENOMEM.
 */
int norms_event(const Tournament *t, const NormOptions *opt, NormReport **out);

/* Frees r; norms_report_free(NULL) is a no-op. */
void norms_report_free(NormReport *r);

#endif
