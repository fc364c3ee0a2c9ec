/*
 * tournament_io.h — the bridge between the store and the pure tournament
 * layer (rules/tournament/tournament.h): builds a rules Tournament from a tournament's
 * rows (players with start ranks, results of the games, byes, withdrawals,
 * forbidden pairs (db/forbidden.h), the point system and tie-breaks), and writes back what the
 * engines decide (a Swiss round from the Dutch engine, a round robin round from the Berger tables).
 * Standings and the FIDE rating report (TRF) come from here too, so the daemon computes them
 * exactly as the command line does.
 *
 * Start ranks (TPN) follow C.04.2 (rating, title, name, registration) and
 * freeze once round 4 is paired (round 1 of a round robin); see db/tpn.h.
 * A round counts once it has a round row; a player without game or bye in
 * a past round was absent (TRF Z).
 *
 * Byes (table byes): 'half' and 'zero' are requested (TRF H and Z), 'pab'
 * the pairing-allocated bye (U), 'free' the free round of an odd round
 * robin (Z), 'forfeit' the win (TRF +) of a round robin player whose
 * scheduled opponent (opponent_id) was absent.  In a round robin the
 * absent player's row names the scheduled opponent too, and the report
 * links the two as a forfeit (+/-, or -/- when both were absent) unless
 * one side has a half-point bye, which TRF cannot pair with an opponent.
 *
 * Workload: one tournament at a time, a few hundred players; each call
 * reads the tournament's rows once.
 */
#ifndef ARBITER_DB_TOURNAMENT_IO_H
#define ARBITER_DB_TOURNAMENT_IO_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "tournament.h"

/*
 * Builds tournament TID with the rounds 1..ROUNDS (0 = every round that
 * exists).  *IDS gets a malloc'd array mapping start rank - 1 to player id
 * (caller frees), *OUT the Tournament (tournament_free).  Returns 0,
 * STORE_E_NOT_FOUND, STORE_E_INVALID (too many players) with ERR, or
 * -ENOMEM.
 */
int tournament_io_build(Store *s, int64_t tid, int rounds, Tournament **out, int64_t **ids,
                        char *err, size_t n);

/*
 * Pairs and creates the next round of tournament TID (inside a writer job):
 * Dutch for "swiss", Berger for "roundrobin".  Stores the games and the
 * pairing-allocated bye.  Returns 0 with *OUT the round (as
 * rounds_get, plus "byes"), STORE_E_STATE when the previous round is
 * not finished or the system is manual, STORE_E_CONFLICT when no valid
 * pairing exists, with the reason in ERR.
 */
int tournament_io_pair_next_round(Store *s, int64_t tid, int64_t user, json_t **out, char *err,
                                  size_t n);

/*
 * Records a requested bye of player PID in round RN (KIND "half" or
 * "zero"), or cancels it (KIND "none").  The round must not be paired yet
 * nor lie beyond the tournament's round count (when it has one).  A half-point bye
 * also obeys the tournament's bye_limit (most half-point byes per player,
 * NULL = no limit) and bye_last_rounds (none in that many final rounds,
 * when the round count is known); a zero-point bye is a notified absence
 * and always accepted.  Returns 0 with *OUT the record ({tournament_id,
 * player_id, round, kind}), or with ERR: STORE_E_NOT_FOUND (no such player,
 * nothing to cancel), STORE_E_INVALID (round beyond the tournament),
 * STORE_E_STATE (round already paired, player withdrawn), STORE_E_CONFLICT
 * (a bye already there, over the limit, in the last rounds).
 */
int tournament_io_bye_request(Store *s, int64_t tid, int64_t pid, int64_t rn, const char *kind,
                              int64_t user, json_t **out, char *err, size_t n);

/* The byes of round RN of TID: [{player_id, kind, opponent_id}] (never
 * NULL; opponent_id is null except in a round robin). */
json_t *tournament_io_round_byes(Store *s, int64_t tid, int64_t rn);

/* Adds "virtual_points" ([{player_id, points}], as the pairing answer
 * gives them) to ROUND, a round object of TID with its "number", when the
 * tournament's acceleration gave anybody virtual points in it; leaves ROUND
 * as it is otherwise.  For the pairing views only: standings never count
 * them.  Returns 0 or -ENOMEM. */
int tournament_io_round_virtual_add(Store *s, int64_t tid, json_t *round);

/* Every bye of TID, requested or given by the pairing, by round then
 * player: [{round, player_id, player_name, kind, opponent_id, created_at}]
 * (never NULL). */
json_t *tournament_io_byes_list(Store *s, int64_t tid);

/*
 * Standings after the rounds with results, with the tournament's point
 * system and tie-breaks (its own list, else Swiss BH/C1,BH,SB,DE and round
 * robin DE,SB,WIN): [{rank, player, points, games, tiebreaks{}}].
 */
json_t *tournament_io_standings(Store *s, int64_t tid);

/* The standings together with what they were computed from, for the
 * printed lists (crosstable): the same rows tournament_io_standings answers. */
typedef struct TournamentIoStandings {
    Tournament *t; /* after `rounds` rounds; NULL without players */
    int64_t *ids;  /* start rank - 1 -> player id */
    int rounds;    /* rounds counted: the last one with a result (0 = none) */
    int round_robin;
    json_t *rows;      /* as tournament_io_standings */
    json_t *tiebreaks; /* the tie-break names in order, PTS not included */
} TournamentIoStandings;

/*
 * Fills *TS for tournament TID (an unknown tournament gives no rows).
 * Returns 0 (release with tournament_io_standings_clear) or -ENOMEM.
 */
int tournament_io_standings_build(Store *s, int64_t tid, TournamentIoStandings *ts);

/* Frees what *TS holds and zeroes it; a zeroed TournamentIoStandings is fine. */
void tournament_io_standings_clear(TournamentIoStandings *ts);

/*
 * The tournament as a TRF of FLAVOUR (16 or 26), lines ending in CR.
 * Returns a malloc'd buffer (length in *LEN) or NULL with ERR.
 */
char *tournament_io_trf(Store *s, int64_t tid, int flavour, size_t *len, char *err, size_t n);

#endif
