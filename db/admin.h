/*
 * admin.h — the store's queries for everything but the game logs:
 * tournaments, players and their credentials, rounds and pairings, users and
 * sessions, alerts, the audit log and standings.
 *
 * Reads take any Store (readers use their own connection); writes are meant
 * to run inside a writer job (db/writer.h) and return 0 or a positive
 * STORE_E_* with a message in ERR.  Objects come back as JSON with the API's
 * field names; the caller owns them.  Inputs are JSON objects already checked
 * for field names and types by the server.
 */
#ifndef ARBITER_DB_ADMIN_H
#define ARBITER_DB_ADMIN_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* 1 when the object named by a path parameter exists: KIND 't' tournament
 * ID; 'p' player ID of tournament PARENT; 'r' round ID of tournament
 * PARENT; 'g' game ID; 'a' alert ID of tournament PARENT. */
int admin_exists(Store *s, char kind, int64_t parent, int64_t id);

/* The settings every tournament starts with (spec/laws.md defaults). */
json_t *admin_default_settings(void);
/* Checks SETTINGS (may be NULL) and TIME_CONTROL (may be NULL) with the Laws
 * engine's strict parser: 0, or STORE_E_INVALID with the reason in ERR. */
int admin_settings_check(json_t *settings, const char *time_control, char *err, size_t n);

json_t *admin_tournaments_list(Store *s);
json_t *admin_tournament_get(Store *s, int64_t tid);
int admin_tournament_create(Store *s, json_t *in, int64_t user, json_t **out, char *err, size_t n);
int admin_tournament_update(Store *s, int64_t tid, json_t *in, int64_t user, json_t **out,
                            char *err, size_t n);

/* Players by id, each with its pairing number "tpn" (db/tpn.h). */
json_t *admin_players_list(Store *s, int64_t tid);
json_t *admin_player_get(Store *s, int64_t tid, int64_t pid);
/* Creates a player with the given credential hashes; after the freeze the
 * player gets the next free pairing number.  STORE_E_STATE for a round
 * robin whose round 1 is paired. */
int admin_player_create(Store *s, int64_t tid, json_t *in, const char *pin_hash,
                        const char *token_hash, int64_t user, json_t **out, char *err, size_t n);
int admin_player_update(Store *s, int64_t tid, int64_t pid, json_t *in, int64_t user,
                        json_t **out, char *err, size_t n);
int admin_credentials_set(Store *s, int64_t tid, int64_t pid, const char *pin_hash,
                          const char *token_hash, int64_t user, char *err, size_t n);
/* 1 when PIN_HASH is already some player's PIN in tournament TID. */
int admin_pin_taken(Store *s, int64_t tid, const char *pin_hash);
/* The player signing in with a PIN of tournament TID / with a token:
 * {"id", "tournament_id"} or NULL. */
json_t *admin_player_by_pin(Store *s, int64_t tid, const char *pin_hash);
json_t *admin_player_by_token(Store *s, const char *token_hash);

json_t *admin_rounds_list(Store *s, int64_t tid);
json_t *admin_round_get(Store *s, int64_t tid, int64_t rn);
/* Creates round (last + 1) with PAIRINGS (array of {board?, white_id, black_id}),
 * freezing the pairing numbers when it is the freeze round.  A player with
 * a requested bye in the round is refused (STORE_E_CONFLICT); a PAB, free
 * round or forfeit win of a player paired by hand gives way to the game. */
int admin_round_create(Store *s, int64_t tid, json_t *pairings, int64_t user, json_t **out,
                       char *err, size_t n);
int admin_pairing_add(Store *s, int64_t tid, int64_t rn, json_t *in, int64_t user, json_t **out,
                      char *err, size_t n);
int admin_game_update(Store *s, int64_t gid, json_t *in, int64_t user, json_t **out, char *err,
                      size_t n);
/* One game's summary (ids, names, board, status, result) or NULL. */
json_t *admin_game_summary(Store *s, int64_t gid);
/* The two players of game GID: 0, or STORE_E_NOT_FOUND. */
int admin_game_players(Store *s, int64_t gid, int64_t *white, int64_t *black);
/* The game a player plays in the newest round of his tournament, or 0. */
int64_t admin_player_current_game(Store *s, int64_t pid);
/* Games of a round / a tournament, ids in board order. */
json_t *admin_round_game_ids(Store *s, int64_t tid, int64_t rn);
json_t *admin_tournament_game_ids(Store *s, int64_t tid);
int admin_round_set_status(Store *s, int64_t tid, int64_t rn, const char *status, int64_t at_ms);

int admin_user_add(Store *s, const char *username, const char *pwhash, char *err, size_t n);
/* {"id", "username", "pwhash"} or NULL. */
json_t *admin_user_by_name(Store *s, const char *username);
int64_t admin_user_count(Store *s);
int admin_session_create(Store *s, const char *token_hash, int64_t user, int64_t player,
                         const char *csrf, int64_t expires_ms);
int admin_session_delete(Store *s, const char *token_hash);

json_t *admin_alerts_list(Store *s, int64_t tid, int64_t after_id);
/* Adds an alert; *ID gets its id. */
int admin_alert_add(Store *s, int64_t tid, int64_t gid, const char *kind, const char *message,
                    int64_t at_ms, int64_t *id);
int admin_alert_resolve(Store *s, int64_t tid, int64_t aid, int resolved, json_t **out,
                        char *err, size_t n);

/* Appends to the audit log (append-only). */
int admin_audit(Store *s, int64_t user, int64_t player, const char *action, const char *target,
                json_t *detail);

/* Standings after the games with a result, with the tournament's point
 * system and tie-breaks (see tio_standings in tournament_io.h). */
json_t *admin_standings(Store *s, int64_t tid);

#endif
