/*
 * rounds.h — rounds (table rounds) and the rows of their games (table
 * games: board, players, status, result; the game log itself is
 * db/games.h's).  Creating a round stores its pairings and, at the freeze
 * round, the pairing numbers (db/tpn.h); pairings are checked here (each
 * player once per round, in the tournament, not on a requested bye).
 *
 * Reads take any Store; writes run inside the caller's writer job
 * (db/writer.h) and return 0 or a positive STORE_E_* with a message in ERR.
 * Objects come back as JSON with the API's field names; the caller owns
 * them.
 *
 * Workload: a round of a few hundred boards per call.
 */
#ifndef ARBITER_DB_ROUNDS_H
#define ARBITER_DB_ROUNDS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* Every round of TID with its games / round RN of TID (NULL when there is
 * none, or when it is a draft and S is in a public view): {tournament_id,
 * number, status, started_at, published, published_at, games: [summary]};
 * status is "finished" once every game of a started round has a result. */
json_t *rounds_list(Store *s, int64_t tid);
json_t *rounds_get(Store *s, int64_t tid, int64_t rn);
/* Creates round (last + 1) with PAIRINGS (array of {board?, white_id, black_id}),
 * freezing the pairing numbers when it is the freeze round.  A player with
 * a requested bye in the round is refused (STORE_E_CONFLICT); a PAB, free
 * round or forfeit win of a player paired by hand gives way to the game.
 * 0 with *OUT the round, or an error with ERR. */
int rounds_create(Store *s, int64_t tid, json_t *pairings, int64_t user, json_t **out, char *err,
                  size_t n);
/* Adds the board IN ({board?, white_id, black_id}) to pending round RN:
 * 0 with *OUT the game's summary, or an error with ERR. */
int rounds_pairing_add(Store *s, int64_t tid, int64_t rn, json_t *in, int64_t user, json_t **out,
                       char *err, size_t n);
/* Changes the players or board of game GID before it starts: 0 with *OUT
 * the game's summary, or an error with ERR (STORE_E_STATE once started). */
int rounds_game_update(Store *s, int64_t gid, json_t *in, int64_t user, json_t **out, char *err,
                       size_t n);
/* One game's summary (ids, names, board, status, result) or NULL. */
json_t *rounds_game_summary(Store *s, int64_t gid);
/* The two players of game GID: 0, or STORE_E_NOT_FOUND. */
int rounds_game_players(Store *s, int64_t gid, int64_t *white, int64_t *black);
/* The game a player plays in the newest published round of his
 * tournament, or 0: a draft binds no tablet. */
int64_t rounds_player_current_game(Store *s, int64_t pid);
/* Games of a round / a tournament, ids in board order: [{id}]. */
json_t *rounds_game_ids(Store *s, int64_t tid, int64_t rn);
json_t *rounds_tournament_game_ids(Store *s, int64_t tid);
/* Copies the status of round RN of TID ("pending", "running", ...) into
 * STATUS (CAP bytes).  Returns 0, or STORE_E_NOT_FOUND with a message in
 * ERR when there is no such round. */
int rounds_status_get(Store *s, int64_t tid, int64_t rn, char *status, size_t cap, char *err,
                      size_t n);
/* Sets the status of round RN of TID, and its start time AT_MS the first
 * time.  Returns 0 or the store's error. */
int rounds_status_set(Store *s, int64_t tid, int64_t rn, const char *status, int64_t at_ms);

/* SQL: true when the end of game g (the alias) is held back from the
 * public view of the store (store_public_view) by its tournament's delay. */
#define ROUNDS_SQL_HELD                                                                            \
    "(g.status = 'over' AND (SELECT at_ms FROM game_events WHERE game_id = g.id ORDER BY seq"      \
    " DESC LIMIT 1) > public_now_ms() - 1000 * ifnull((SELECT json_extract(settings,"              \
    " '$.public_delay') FROM tournaments WHERE id = g.tournament_id), 0))"

/* SQL: true when what belongs to round R (an SQL expression) of tournament
 * T may be shown to the reader of the store: always outside a public view
 * (store_public_view), inside one unless the round is a draft
 * (db/round_publish.h).  A round not paired yet hides nothing: a bye
 * requested for it is public. */
#define ROUNDS_SQL_SHOWN(T, R)                                                                     \
    "(public_now_ms() IS NULL OR NOT EXISTS (SELECT 1 FROM rounds pr WHERE pr.tournament_id = " T  \
    " AND pr.number = " R " AND pr.published_ms IS NULL))"

#endif
