/*
 * rating.h — FIDE rating changes of a tournament (Handbook B.02, FIDE
 * Rating Regulations effective from 1 March 2024).
 *
 * Follows the edition effective from 1 March 2024, the one in force for
 * events starting on or after that date (later amendments change the
 * list-publication and inactivity rules, not the calculation):
 *  - 8.1(a) and 8.1(b): score p -> rating difference dp, and rating
 *    difference D -> expected score PD (the tables typed once in tiebreak.c);
 *  - 8.3.1 the 400-point rule: a difference of more than 400 points counts
 *    as 400, in every game (the 2024 edition dropped the old limit of using
 *    it once per event);
 *  - 8.3.3 K: 40 for a player new to the list until 30 games are
 *    completed, and until the end of the year of the 18th birthday while the
 *    rating stays under 2300; 20 while the rating stays under 2400; 10 once
 *    a published rating has reached 2400; 20 for everybody in rapid and
 *    blitz; and K x n <= 700 over the rating period (applied here over the
 *    event's rated games, the only games the module sees);
 *  - rated games: played over the board (TRF results 1 = 0); forfeits,
 *    games of less than one move (W D L) and byes are not rated; for a rated
 *    player, a game against an unrated opponent is not rated;
 *  - 7.1 first rating of an unrated player: games against rated opponents
 *    only, at least 5 of them; a zero score is disregarded (7.1.1); two
 *    hypothetical draws against opponents rated 1800 are added; Ru = Ra + dp
 *    with Ra the average (the two 1800s included) rounded half up and p the
 *    score percentage (the two draws included) rounded to hundredths; a
 *    result under the rating floor of 1400 is not published.
 *
 * Every figure is an integer in hundredths (a draw scores 50, an expected
 * score of 0.76 is 76, a change of +7.6 is 760), so the sums are exact.
 *
 * Pure: libc only, no I/O, no clock.  Workload: one pass over players x
 * rounds; a 9999-player, 99-round event is about 1 M cells.
 */
#ifndef ARBITER_RULES_RATING_H
#define ARBITER_RULES_RATING_H

#include <stdbool.h>
#include <stdint.h>

#include "tournament.h"

enum {
    RATING_E_RANGE = 1,           /* an option is out of its range */
    RATING_FLOOR = 1400,          /* B.02 2024: lowest published rating */
    RATING_MAX_DIFF = 400,        /* 8.3.1 */
    RATING_INITIAL_MIN_GAMES = 5, /* 7.1: games against rated opponents */
    RATING_INITIAL_ANCHOR = 1800, /* 7.1: the two hypothetical opponents */
    RATING_KN_MAX = 700,          /* 8.3.3: K x n limit */
};

typedef enum RatingKind {
    RATING_STANDARD = 0,
    RATING_RAPID = 1,
    RATING_BLITZ = 2,
} RatingKind;

/* Why an unrated player gets no first rating from this event. */
typedef enum RatingInitial {
    RATING_INITIAL_NONE = 0,    /* the player is rated: not applicable */
    RATING_INITIAL_OK,          /* initial_rating holds the result */
    RATING_INITIAL_FEW_GAMES,   /* fewer than 5 games against rated opponents */
    RATING_INITIAL_ZERO,        /* scored nothing against rated opponents */
    RATING_INITIAL_BELOW_FLOOR, /* Ru < 1400 */
} RatingInitial;

/* One rated game of one player. */
typedef struct RatingGame {
    int round;    /* 1-based */
    int opponent; /* start rank */
    int opp_rating;
    int score;    /* hundredths: 100, 50 or 0 */
    int expected; /* hundredths, 8.1(b) after the 400-point rule */
    int change;   /* hundredths of a rating point: K x (score - expected) */
} RatingGame;

typedef struct RatingRow {
    int player;      /* start rank */
    int rating;      /* 0 = unrated */
    int k;           /* K used; 0 for an unrated player */
    bool k_given;    /* K came from the options (record or --k), not the defaults */
    int rated_games; /* rated games (for an unrated player: against rated opponents) */
    int score;       /* hundredths, over the rated games */
    int expected;    /* hundredths, sum of PD (0 for an unrated player) */
    int64_t change;  /* hundredths: K x (score - expected), before rounding */

    /* Unrated players (7.1). */
    RatingInitial initial;
    int initial_ra;     /* Ra with the two 1800s */
    int initial_p;      /* percentage in hundredths with the two draws */
    int initial_rating; /* Ra + dp when initial == RATING_INITIAL_OK */

    int n_games;
    RatingGame *games; /* n_games entries, owned by the report */
} RatingRow;

typedef struct RatingOptions {
    RatingKind kind;
    int rounds;  /* rounds counted; 0 = every round in the file */
    int force_k; /* > 0: this K for everybody (no K x n limit) */
    /* Optional K per start rank (index 0..TRN_MAX_PLAYERS) from the players'
     * records, 0 = unknown; NULL = none.  Not owned. */
    const int *k_of;
    int event_year; /* junior K; 0 = read from the 042 start date */
} RatingOptions;

typedef struct RatingReport {
    RatingKind kind;
    int rounds;
    int n_rows;
    RatingRow *rows; /* file order */
} RatingReport;

/* 8.1(a): dp for a score fraction p in hundredths (0..100, clamped). */
int rating_dp(int p);

/*
 * 8.1(b) with 8.3.1: expected score in hundredths of a player rated
 * `own`, against `opp`; a difference beyond 400 counts as 400.
 */
int rating_expected(int own, int opp);

/*
 * 8.3.3: the default K of a player rated `rating` (> 0) aged `age` at the
 * end of the event's year (<= 0 unknown) for a kind of play; `new_player`
 * (fewer than 30 rated games) and `reached_2400` come from the player's
 * record when known.
 */
int rating_k_default(RatingKind kind, int rating, int age, bool new_player, bool reached_2400);

/* 8.3.3: K reduced so that K x n <= 700 (n rated games; K unchanged if n <= 0). */
int rating_k_limit(int k, int n);

/*
 * 7.1: the first rating of an unrated player who scored `score` hundredths
 * over `n` games against rated opponents whose ratings sum to `sum`.
 * Returns the reason code; *ra, *p and *ru get the figures (also when the
 * result is under the floor).
 */
RatingInitial rating_initial(int n, long sum, int score, int *ra, int *p, int *ru);

/* The kind of play of a 222 "base+increment" control (seconds): blitz when
 * base + 60 x increment <= 600, rapid below 3600, else standard. */
RatingKind rating_kind_for_control(const char *encoded_tc);

/*
 * Rating changes of every player of t after opt->rounds rounds.  Returns
 * 0 with *out (free with rating_report_free), RATING_E_RANGE for a bad
 * option, or -ENOMEM.
 */
int rating_event(const Tournament *t, const RatingOptions *opt, RatingReport **out);

/* Frees r; rating_report_free(NULL) is a no-op. */
void rating_report_free(RatingReport *r);

#endif
