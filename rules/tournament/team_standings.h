/*
 * team_standings.h — team standings with the FIDE team tie-breaks
 * (Handbook C.07, the team articles), board prizes and every player's
 * individual results.
 *
 * Codes (C.07 names; ":MP"/":GP" say which score a tie-break reads):
 *   MPTS    match points                 GPTS   game points
 *   PTS     the primary score (MPTS or GPTS as the settings say)
 *   BH:MP   Buchholz of the opponents' match points (with /C1 /C2 /M1 /M2)
 *   BH:GP   Buchholz of the opponents' game points (same modifiers)
 *   SB:MP   team Sonneborn-Berger = EMMSB: opponent's match points x match
 *           points scored against it
 *   SB:GP   = EGGSB: opponent's game points x game points scored against it
 *   EMGSB   opponent's match points x game points scored against it: the
 *           Olympiad Sonneborn-Berger (Olympiad regulations: with /C1, the
 *           opponent with the fewest match points left out)
 *   EGMSB   opponent's game points x match points scored against it
 *   DE      direct encounter among the tied teams (primary score of their
 *           matches), C.07 Art. 6 with the "all met" condition
 *   WON     matches won (played or by forfeit; not the PAB)
 *   TPN     pairing number (smaller first)
 *   MPvGP   the score that is not the primary one (game points when match
 *           points are primary, and the reverse)
 * Unplayed rounds (C.07 Art. 16, 2026 text): a team's own round without a
 * match played (bye, absence, whole-match forfeit) counts, in its Buchholz
 * and Sonneborn-Berger, a dummy opponent with the team's own final score,
 * capped at the opponent's score for a forfeited match and at a draw in
 * every round otherwise (the points the round gave the team multiply it in
 * the Sonneborn-Berger).  Opponents count with their actual scores (the
 * voluntarily unplayed rounds of Art. 16.3 are not treated as draws).
 * Cuts drop the contributions of the lowest opponent scores.
 *
 * Values are integers in hundredths (TB_SCALE of tiebreak.h) so products
 * of tenths stay exact: SB:MP 2 x 3.0 = 6.00 -> 600.
 *
 * Workload: O(teams x rounds) per tie-break, O(teams^2) for DE; one heap
 * block per result.
 */
#ifndef ARBITER_RULES_TEAM_STANDINGS_H
#define ARBITER_RULES_TEAM_STANDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "team.h"

enum {
    TEAM_TB_MAX = 12,
    TEAM_STANDINGS_E_SYNTAX = 1, /* a tie-break list cannot be read */
};

typedef enum TeamTbCode {
    TEAM_TB_PTS,
    TEAM_TB_MPTS,
    TEAM_TB_GPTS,
    TEAM_TB_BH_MP,
    TEAM_TB_BH_GP,
    TEAM_TB_EMMSB, /* SB:MP */
    TEAM_TB_EGGSB, /* SB:GP */
    TEAM_TB_EMGSB, /* Olympiad SB */
    TEAM_TB_EGMSB,
    TEAM_TB_DE,
    TEAM_TB_WON,
    TEAM_TB_TPN,
    TEAM_TB_MPVGP, /* the secondary score */
    TEAM_TB_N_CODES
} TeamTbCode;

typedef struct TeamTbSpec {
    TeamTbCode code;
    int cut_low;  /* /Cn and /Mn: the n lowest values left out (BH, SB family) */
    int cut_high; /* /Mn: the n highest too */
} TeamTbSpec;

/*
 * Parses "MPTS,GPTS,EMGSB/C1,BH:MP/C1,DE" (commas, blanks or semicolons;
 * case insensitive; SB:MP = EMMSB, SB:GP = EGGSB; "-C1" as "/C1").
 * Returns 0 with *n specs, or TEAM_STANDINGS_E_SYNTAX with a message.
 */
int team_standings_parse(const char *text, TeamTbSpec *specs, int max, int *n, char *err,
                         size_t errlen);

/* Writes the C.07 spelling of s ("BH:MP/C1") into buf. */
void team_standings_spec_name(const TeamTbSpec *s, char *buf, size_t len);

typedef struct TeamRow {
    int team;
    int rank;                   /* 1-based, equal for teams tied on everything */
    TrnPoints mp, gp;           /* tenths */
    int64_t value[TEAM_TB_MAX]; /* hundredths, one per spec */
} TeamRow;

typedef struct TeamStandings {
    int rounds;
    int n_specs;
    TeamTbSpec specs[TEAM_TB_MAX];
    int n_rows;
    TeamRow *rows; /* standings order */
} TeamStandings;

/*
 * Standings after `rounds` rounds (0 = every round of ev): by the primary
 * score, then the specs in order (at most TEAM_TB_MAX - 1; PTS is put
 * first if missing).  Returns 0 with *out (free with
 * team_standings_free), TEAM_STANDINGS_E_SYNTAX for too many specs, or
 * -ENOMEM.
 */
int team_standings_compute(const TeamEvent *ev, int rounds, const TeamTbSpec *specs, int n_specs,
                           TeamStandings **out);

/* Frees s; NULL is a no-op. */
void team_standings_free(TeamStandings *s);

/* One player's games, as the individual crosstable and the board prizes
 * see them. */
typedef struct TeamPlayerResult {
    int player;
    int team;
    int board;          /* the board of the roster order (1-based), for prizes */
    int games;          /* games played over the board (1 = 0 W D L: rated or not) */
    TrnPoints points;   /* points from those games, tenths */
    int rated_games;    /* games that count for rating */
    int opp_rating_sum; /* sum of the rated opponents' ratings over those games */
    int percent;        /* points / games in hundredths of a percent (0..10000), 0 if no games */
    int performance;    /* ARO + dp(p) (B.02 8.1.1, tiebreak_dp); 0 if no rated games */
    TrnPoints forfeit_points; /* + and - results, not counted in games */
    /* Per round: opponent player id (0 = none), colour, result char. */
    TrnGame rounds[TRN_MAX_ROUNDS];
} TeamPlayerResult;

/*
 * Every player's results over rounds 1..rounds (0 = all): out must hold
 * ev->n_players entries, written in the order of ev->players.  The board
 * of a player is its roster position if that is at most settings.boards,
 * else the board it played most often (ties: the higher board).
 */
void team_standings_players(const TeamEvent *ev, int rounds, TeamPlayerResult *out);

/* A board prize list for one board. */
typedef enum TeamPrizeBy {
    TEAM_PRIZE_PERCENT = 0,     /* percentage, then games, then performance */
    TEAM_PRIZE_PERFORMANCE = 1, /* performance rating, then percentage, then games */
    TEAM_PRIZE_POINTS = 2,      /* points, then percentage */
} TeamPrizeBy;

/*
 * Ranks the players of board `board` (1-based) who played at least
 * min_games games over the board: writes indexes into res[] (from
 * team_standings_players) to order[], best first, and returns their count.
 */
int team_standings_board_prizes(const TeamEvent *ev, const TeamPlayerResult *res, int board,
                                int min_games, TeamPrizeBy by, int *order);

#endif
