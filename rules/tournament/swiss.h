/*
 * swiss.h — what the Swiss pairing systems (Dutch C.04.3, Burstein
 * C.04.4.2) share: the players of the round to pair with their scores,
 * acceleration and colour facts, the colour rules of C.04 Art. 5 that do not
 * depend on the system, the board order of the published pairing (C.04.2),
 * and the pairing type both engines return.
 *
 * Acceleration, as bbpPairings reads it: XXA / 250 lines when the file has
 * any; otherwise Baku (C.04.7) when the 192 line names a *_BAKU system;
 * otherwise, for the Burstein system only, its own default (the upper half
 * of the players of round 1 get a win's points in rounds 1 and 2).
 *
 * Pure: no I/O, no globals, deterministic.
 */
#ifndef ARBITER_RULES_SWISS_H
#define ARBITER_RULES_SWISS_H

#include <stddef.h>

#include "tournament.h"

enum { SWISS_WHITE = 0, SWISS_BLACK = 1, SWISS_NONE = 2 };

/* The system a round is paired with (it decides the default acceleration). */
typedef enum SwissSystem { SWISS_DUTCH = 0, SWISS_BURSTEIN = 1 } SwissSystem;

enum {
    SWISS_E_NO_PAIRING = 1, /* no pairing satisfies the absolute criteria */
    SWISS_E_INPUT = 2,      /* the tournament cannot be paired as given */
};

/* One board: start ranks; black == 0 means white receives the PAB. */
typedef struct SwissPair {
    int white, black;
} SwissPair;

/* The pairs of a round in publication order (C.04.2 board order), the PAB
 * last. Owned array: release with swiss_pairing_free(). */
typedef struct SwissPairing {
    int n_pairs;
    SwissPair *pairs;
} SwissPairing;

/* A player of the round to pair and the facts the systems read. */
typedef struct SwissPlayer {
    const TrnPlayer *tp;
    int id;             /* start rank */
    int rank;           /* 0-based pairing order among the players of the round */
    TrnPoints raw;      /* score before this round, without acceleration */
    TrnPoints score;    /* with acceleration: what scoregroups use */
    int played;         /* games played over the board */
    int pref, rep, imb; /* SWISS_* preference, repeated colour, |W - B| */
    int strong, abspref, absimb;
    int fl[3]; /* Dutch: float 1 and 2 rounds back (index 1, 2) */
    int elig;  /* may receive the PAB */
    int ncol;
    unsigned char cols[TRN_MAX_ROUNDS]; /* colours of played games, in order */
} SwissPlayer;

/* The round being paired. */
typedef struct SwissRound {
    const Tournament *t;
    int round;                   /* the round being paired */
    int pr;                      /* rounds played before it */
    int n;                       /* players to pair */
    SwissPlayer *pl;             /* sorted: score desc, rank asc */
    int init;                    /* initial colour, SWISS_WHITE or SWISS_BLACK */
    int expected;                /* rounds of the event */
    int baku;                    /* Baku acceleration from the 192 line */
    int *id_rank;                /* start rank -> position among all players by start rank */
    unsigned char *burstein_top; /* start rank -> gets Burstein's default acceleration */
} SwissRound;

/*
 * Reads CODE, the value of a 192 line, as a Swiss system the engines pair:
 * 1 with *SYSTEM and *BAKU (1 for a *_BAKU code) set, or 0 when CODE names
 * no such system (a round robin, another Swiss system, free text).  The
 * Dutch codes of every edition are read (FIDE_DUTCH_2026, FIDE_DUTCH,
 * FIDE_DUTCH_2017, and FIDE_DUTCH_2025 of the draft table that bbpPairings
 * v6 uses); the engines pair by the 2026 rules whichever was written.
 */
int swiss_code_read(const char *code, SwissSystem *system, int *baku);

/* The 192 code of SYSTEM with or without Baku acceleration as TRF-2026's
 * code table writes it for the rules these engines implement:
 * FIDE_DUTCH_2026[_BAKU] or FIDE_BURSTEIN[_BAKU].  A static string. */
const char *swiss_code_name(SwissSystem system, int baku);

/* Round r of p (1-based); an empty game outside the rounds written. */
const TrnGame *swiss_game(const TrnPlayer *p, int r);

/* True when g was played over the board. */
int swiss_game_played(const TrnGame *g);

/* True when g was a pairing: an opponent, a PAB or a forfeit win. */
int swiss_game_participated(const TrnGame *g);

/* The points g earns (a blank game counts as a zero-point bye). */
TrnPoints swiss_game_points(const Tournament *t, const TrnGame *g);

/*
 * Fills *s for pairing round `round` of t with `system`: the players taking
 * part (absent ones left out), their scores, ranks and colour facts, sorted
 * by score (with acceleration) then rank; empties *out (NULL: none) for the
 * engine to fill. Returns 0, SWISS_E_INPUT (reason in err) or -ENOMEM; call
 * swiss_round_free() on every path.
 */
int swiss_round_setup(SwissRound *s, const Tournament *t, int round, SwissSystem system,
                      SwissPairing *out, char *err, size_t errlen);

/* Writes MSG into err (errlen bytes; NULL or 0: nothing). */
void swiss_error(char *err, size_t errlen, const char *msg);

/* Releases what swiss_round_setup() allocated; a zeroed round is fine. */
void swiss_round_free(SwissRound *s);

/* Fictitious points of p in round r (see the header comment). */
TrnPoints swiss_round_acceleration(const SwissRound *s, const TrnPlayer *p, int r);

/* p's score after rounds 1..upto plus the acceleration of round upto+1. */
TrnPoints swiss_round_score_at(const SwissRound *s, const TrnPlayer *p, int upto);

/* The colour a gets against b by C.04 Art. 5 before the system's own last
 * rule (rank or order); SWISS_NONE when those rules do not decide. */
int swiss_colour_neutral(const SwissPlayer *a, const SwissPlayer *b);

/* The other colour; SWISS_NONE stays. */
int swiss_colour_invert(int c);

/* Colour vertex a gets against vertex b (indexes into s->pl). */
typedef int (*SwissColourFn)(const void *ctx, int a, int b);

/*
 * The boards of `mate` (vertex -> partner vertex, itself for the PAB),
 * coloured by `colour` and in C.04.2 board order, into out.  Returns 0 or
 * -ENOMEM.
 */
int swiss_round_emit(const SwissRound *s, const int *mate, SwissColourFn colour, const void *ctx,
                     SwissPairing *out);

/* One past the last round in which some player took part in a pairing. */
int swiss_next_round(const Tournament *t);

/* True when the pairing of round `round` written in t equals p (colours as
 * written; an entry without colour matches either). */
int swiss_round_matches(const Tournament *t, int round, const SwissPairing *p);

/* Releases the pairs; NULL or an empty pairing is fine. */
void swiss_pairing_free(SwissPairing *p);

#endif
