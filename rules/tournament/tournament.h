/*
 * tournament.h — the data model of an individual tournament, as a FIDE
 * Tournament Report File (TRF16, TRF-2026, JaVaFo's XX and bbpPairings' BB
 * extensions) describes it.  Plain data shared by the TRF reader and writer
 * (trf.h), the pairing engines, round robin tables and tie-breaks.
 *
 * Invariants:
 *  - Player ids are the starting ranks (TPN) of the file, 1..TRN_MAX_PLAYERS;
 *    each id occurs at most once.  players[] keeps the order of the file;
 *    tournament_player() finds a player by id in O(1).
 *  - Rounds are numbered from 1; a player's games[r - 1] is round r.  A game
 *    whose opponent is 0 has no opponent (bye, absence, or not paired yet).
 *  - Points are in tenths (TRN_POINT = 10 is one point), so 3-1-0 and
 *    half-point systems are exact integers.
 *  - Strings are NUL-terminated, trailing blanks removed; "" means absent.
 *
 * Workload: up to 9999 players and 99 rounds; everything is heap arrays
 * owned by the Tournament (one tournament_free() releases all).
 */
#ifndef ARBITER_RULES_TOURNAMENT_H
#define ARBITER_RULES_TOURNAMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    TRN_MAX_PLAYERS = 9999, /* four columns of start rank */
    TRN_MAX_ROUNDS = 99,    /* three columns of round number in 240/250/260 */
    TRN_TEXT_MAX = 256,     /* longest header value kept (bytes incl. NUL) */
    TRN_POINT = 10,         /* points are stored in tenths */
    TRN_NAME_MAX = 136,     /* 33 columns of UTF-8 (up to 4 bytes each) + NUL */
};

/* Points in tenths of a point (15 = 1.5). */
typedef int32_t TrnPoints;

typedef enum TrnColour {
    TRN_COLOUR_NONE = 0, /* '-' or blank: bye, absence, forfeit without colour */
    TRN_WHITE = 1,
    TRN_BLACK = 2,
} TrnColour;

/*
 * Result codes: the TRF characters themselves (stored upper case), plus
 * TRN_RES_NONE for a blank result.  A blank result in a round that has been
 * played counts as Z (TRF); in the round being played or paired it means "no
 * result yet".
 */
typedef enum TrnResult {
    TRN_RES_NONE = 0,
    TRN_RES_WIN = '1',  /* rated win */
    TRN_RES_DRAW = '=', /* rated draw */
    TRN_RES_LOSS = '0', /* rated loss */
    TRN_RES_FORFEIT_WIN = '+',
    TRN_RES_FORFEIT_LOSS = '-',
    TRN_RES_UNRATED_WIN = 'W', /* game lasted less than one move */
    TRN_RES_UNRATED_DRAW = 'D',
    TRN_RES_UNRATED_LOSS = 'L',
    TRN_RES_HPB = 'H', /* half-point bye */
    TRN_RES_FPB = 'F', /* full-point bye */
    TRN_RES_PAB = 'U', /* pairing-allocated bye */
    TRN_RES_ZPB = 'Z', /* zero-point bye (known absence) */
} TrnResult;

/* One player's entry for one round (TRF columns 92 + 10(r-1) ...). */
typedef struct TrnGame {
    uint16_t opponent; /* start rank of the scheduled opponent, 0 = none */
    uint8_t colour;    /* TrnColour */
    char result;       /* TrnResult */
} TrnGame;

typedef struct TrnPlayer {
    int id;                  /* start rank / TPN, cols 5-8 */
    char sex;                /* 'm', 'w' or '\0' (col 10) */
    char title[4];           /* GM IM WGM FM WIM CM WFM WCM or "" (cols 11-13) */
    char name[TRN_NAME_MAX]; /* "Last, First" (cols 15-47), bytes as in the file */
    int rating;              /* FIDE rating, 0 = unrated (cols 49-52) */
    char federation[4];      /* cols 54-56 */
    char fide_id[12];        /* cols 58-68, digits */
    char birth[11];          /* YYYY/MM/DD or partial, as written (cols 70-79) */
    TrnPoints points;        /* cols 81-84 as in the file */
    int rank;                /* cols 86-89, 0 = not given */
    int line;                /* line of its 001 record in the source, 0 if none */
    int rounds;              /* round columns present on the 001 line */
    TrnGame games[TRN_MAX_ROUNDS];
    /* XXA: fictitious points per round (accel[r - 1]); has_accel says the
     * player had an XXA line. */
    bool has_accel;
    TrnPoints accel[TRN_MAX_ROUNDS];
} TrnPlayer;

/*
 * Points for each kind of result.  TRF-2026 line 162 (W D L A P X),
 * bbpPairings' BBW/BBD/BBL/BBZ/BBF/BBU and JaVaFo's XXS (WW BW WD BD WL BL
 * ZPB HPB FPB PAB FW FL) all map onto these fields.
 */
typedef struct TrnPointSystem {
    TrnPoints win_white, win_black;
    TrnPoints draw_white, draw_black;
    TrnPoints loss_white, loss_black;
    TrnPoints forfeit_win, forfeit_loss;
    TrnPoints zpb, hpb, fpb, pab;
    TrnPoints unknown; /* 162 X: adjourned or unknown result */
} TrnPointSystem;

/* 240 (T = F/H/Z for a round) or XXZ (type 'Z', round 0 = the round to pair). */
typedef struct TrnBye {
    char type;  /* 'F', 'H' or 'Z' */
    int round;  /* 1..99, or 0 for "the next round" (XXZ) */
    int player; /* start rank */
    bool xxz;   /* came from an XXZ line */
} TrnBye;

/* 250: fictitious points for a round range and a player range. */
typedef struct TrnAccel {
    TrnPoints match_points; /* cols 5-8, teams only, 0 for individuals */
    TrnPoints points;       /* cols 10-13 */
    int first_round, last_round;
    int first_player, last_player;
} TrnAccel;

/* 260 (round range) or XXP (all rounds): listed players must not meet. */
typedef struct TrnForbidden {
    int first_round, last_round; /* XXP: 1..TRN_MAX_ROUNDS */
    bool xxp;
    int n;        /* number of ids */
    int *players; /* start ranks, owned */
} TrnForbidden;

/* A line the model does not interpret, kept verbatim for the writer. */
typedef struct TrnLine {
    char code[4]; /* its first three characters */
    char *text;   /* the whole line without its end of line, owned */
} TrnLine;

typedef struct Tournament {
    /* Header (TRF16). */
    char name[TRN_TEXT_MAX];             /* 012 */
    char city[TRN_TEXT_MAX];             /* 022 */
    char federation[TRN_TEXT_MAX];       /* 032 */
    char start_date[TRN_TEXT_MAX];       /* 042 */
    char end_date[TRN_TEXT_MAX];         /* 052 */
    int declared_players;                /* 062, -1 if absent */
    int declared_rated;                  /* 072, -1 if absent */
    char type[TRN_TEXT_MAX];             /* 092 free text */
    char chief_arbiter[TRN_TEXT_MAX];    /* 102 */
    char time_control[TRN_TEXT_MAX];     /* 122 free text */
    char round_dates[TRN_MAX_ROUNDS][9]; /* 132, YY/MM/DD per round */
    int n_round_dates;                   /* round dates present */

    /* TRF-2026 and extensions. */
    int n_rounds;                  /* 142 / XXR; 0 = not given */
    TrnColour initial_colour;      /* 152 / XXC white1|black1; NONE = not given */
    bool pair_by_rank;             /* XXC rank */
    TrnPointSystem points;         /* 162 / BB? / XXS, defaults 1/0.5/0 */
    bool points_given;             /* some line set the point system */
    char system[TRN_TEXT_MAX];     /* 192, e.g. FIDE_DUTCH_2026 */
    char tiebreaks[TRN_TEXT_MAX];  /* 202, e.g. BH/C1,BH,SB,DE */
    char standings[TRN_TEXT_MAX];  /* 212 */
    char encoded_tc[TRN_TEXT_MAX]; /* 222, e.g. 5400+30 */

    /* Players, in file order. */
    int n_players;
    int cap_players;
    TrnPlayer *players;
    int *index_of; /* TRN_MAX_PLAYERS + 1 entries: id -> index + 1, 0 = none */

    int rounds_played; /* most round columns on any 001 line */

    int n_byes, cap_byes;
    TrnBye *byes;
    int n_accel, cap_accel;
    TrnAccel *accel;
    int n_forbidden, cap_forbidden;
    TrnForbidden *forbidden;
    int n_other, cap_other;
    TrnLine *other; /* 112, 172, 182, 299, NRS, ### comments, DAT, ... */
} Tournament;

/*
 * Allocates an empty tournament with the default point system (1, 0.5, 0;
 * PAB and FPB = win, HPB = draw, ZPB and forfeit loss = 0).  Returns NULL
 * when out of memory.  Free with tournament_free().
 */
Tournament *tournament_new(void);

/* Frees t and everything it owns.  tournament_free(NULL) is a no-op. */
void tournament_free(Tournament *t);

/* Sets *ps to the FIDE default point system. */
void tournament_points_default(TrnPointSystem *ps);

/*
 * Adds a player with start rank id (1..TRN_MAX_PLAYERS), all other fields
 * zero.  Returns the new player (owned by t, valid until the next add), or
 * NULL if the id is out of range, already taken, or memory ran out.
 */
TrnPlayer *tournament_add_player(Tournament *t, int id);

/* The player with start rank id, or NULL. */
const TrnPlayer *tournament_player(const Tournament *t, int id);
TrnPlayer *tournament_player_mut(Tournament *t, int id);

/*
 * Points a result earns under ps; the colour matters only for systems that
 * value wins with White and Black differently (XXS).  A blank result counts
 * as a zero-point bye.
 */
TrnPoints tournament_result_points(const TrnPointSystem *ps, char result, TrnColour colour);

/* True for results of a game played over the board: 1 = 0 and W D L. */
bool tournament_result_is_played(char result);

/* True when the result is an OTB game that counts for rating: 1 = 0. */
bool tournament_result_is_rated(char result);

/* True for a win in any form: 1 + W F U (points of a win, played or not). */
bool tournament_result_is_win(char result);

/* Sum of the points of p's results in rounds 1..rounds under ps. */
TrnPoints tournament_player_score(const Tournament *t, const TrnPlayer *p, int rounds);

/*
 * Fictitious (accelerated) points of player id in round r: the player's XXA
 * entry if any, else the last matching 250 record, else 0.
 */
TrnPoints tournament_acceleration(const Tournament *t, int id, int round);

/* Appends records; each returns 0, or -ENOMEM.  The list is copied. */
int tournament_add_bye(Tournament *t, TrnBye bye);
int tournament_add_accel(Tournament *t, TrnAccel a);
int tournament_add_forbidden(Tournament *t, int first_round, int last_round, bool xxp,
                             const int *players, int n);
int tournament_add_other(Tournament *t, const char *line);

/* True if players a and b may not meet in round r (260 / XXP). */
bool tournament_is_forbidden(const Tournament *t, int a, int b, int round);

#endif
