/*
 * tournament_lists.h — the data of the printed lists of a tournament: the
 * crosstable (standings with every round's opponent, colour and result)
 * and the pairing list of a round (boards with the players' points before
 * the round, and the byes).  The server renders them as HTML, CSV or JSON
 * (server/export.h); nothing here knows a format.
 *
 * The crosstable's points, ranks and tie-breaks are the standings route's
 * own rows (tournament_io_standings_build), so the two can never disagree; the round
 * cells come from the same rules Tournament those rows were computed from.
 * Players are referred to by start rank (TPN: rating descending, then
 * registration order), as in the TRF.
 *
 * Workload: one call per download; a few hundred players, a few rounds.
 */
#ifndef ARBITER_DB_TOURNAMENT_LISTS_H
#define ARBITER_DB_TOURNAMENT_LISTS_H

#include <jansson.h>
#include <stdint.h>

#include "store.h"

/*
 * The crosstable of tournament TID after the last round with a result:
 *   {"tournament": {id, name, place, start_date, system, rounds},
 *    "after_round": N, "tiebreaks": [names],
 *    "rows": [{rank, tpn, player{...}, points, games, tiebreaks{},
 *              "results": [{round, kind, opponent, opponent_id, colour,
 *                           result, text}]}]}
 * in standings order.  kind is "game", "forfeit", "pab", "hpb", "fpb" or
 * "zpb" (zero-point bye or absent); opponent is a start rank (null for a
 * bye); colour "w"/"b"/null; result "1", "½", "0", "+", "-" or null (no
 * result yet); text the chess-results cell ("12w1", "7b½", "3w+", "PAB").
 * NULL when the tournament does not exist; the caller owns the answer.
 */
json_t *tournament_lists_crosstable(Store *s, int64_t tid);

/*
 * The pairing list of round RN of TID:
 *   {"tournament": {...}, "round": RN, "status",
 *    "boards": [{board, game_id, result, white{...}, black{...}}],
 *    "byes": [{kind, player{...}}]}
 * where each player is {id, tpn, name, title, federation, rating, points}
 * with the points before the round; kind is "pab", "half", "zero" or
 * "free" (the free player of a round robin).  NULL when the round does not
 * exist; the caller owns the answer.
 */
json_t *tournament_lists_pairings(Store *s, int64_t tid, int64_t rn);

#endif
