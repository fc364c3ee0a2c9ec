/*
 * team_lists.h — the lists of a team competition computed by the rules
 * (rules/tournament/team_standings.h) from the store: team standings with
 * the team tie-breaks, every player's individual results, the board
 * prizes, and the team crosstable (matches by round, the chess-results
 * form), and the TRF-2026 report with its team section.
 *
 * Points come out as numbers in points (the rules' tenths / 10), tie-break
 * values in their own unit (hundredths / 100).  Read from any Store; the
 * caller owns the JSON.
 *
 * Workload: a few hundred teams over a dozen rounds per call.
 */
#ifndef ARBITER_DB_TEAM_LISTS_H
#define ARBITER_DB_TEAM_LISTS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* Standings after ROUNDS rounds (0 = all): 0 with *OUT {"rounds",
 * "tiebreaks": [names], "rows": [{"rank", "team_id", "name",
 * "pairing_number", "match_points", "game_points", "values": [numbers]}]},
 * STORE_E_NOT_FOUND, STORE_E_INVALID (the settings' tie-break list cannot
 * be read) with ERR, or -ENOMEM. */
int team_lists_standings(Store *s, int64_t tid, int rounds, json_t **out, char *err, size_t n);

/* Every player's results: [{"player_id", "name", "team_id", "board",
 * "games", "points", "percent", "performance", "rounds": [{"round",
 * "opponent_id", "colour", "result"}]}]; NULL when TID does not exist. */
json_t *team_lists_players(Store *s, int64_t tid);

/* The board prizes: [{"board", "players": [{"player_id", "name",
 * "team_id", "games", "points", "percent", "performance"}]}] of players
 * with at least MIN_GAMES games on the board, best first, ranked BY
 * "percent", "performance" or "points".  NULL when TID does not exist. */
json_t *team_lists_prizes(Store *s, int64_t tid, int min_games, const char *by);

/* The team crosstable: {"rounds", "teams": [{"rank", "team_id", "name",
 * "pairing_number", "match_points", "game_points", "rounds": [{"round",
 * "opponent" (pairing number or null), "colour", "game_points",
 * "opponent_game_points", "match_points", "bye", "forfeit"}]}]} in standings
 * order.  0 with *OUT, or as team_lists_standings. */
int team_lists_crosstable(Store *s, int64_t tid, json_t **out, char *err, size_t n);

/* The TRF-2026 report of team competition TID: the players' games for
 * the rating report and the team section (rules/tournament/team_trf.h),
 * with the tournament's header fields.  A malloc'd text (caller frees)
 * and its length in *LEN, or NULL with ERR. */
char *team_lists_trf(Store *s, int64_t tid, size_t *len, char *err, size_t n);

#endif
