/*
 * teams.h — the teams of a team competition (tables teams, team_members,
 * team_credentials) and the event's team settings (tournaments.kind and
 * tournaments.team_settings).
 *
 * A team has a name (unique in its tournament), a federation, a club, a
 * captain's name and a roster: players of the tournament in the board
 * order fixed for the event, the last ones possibly reserves.  The roster
 * may change until round 1 is paired; the pairing numbers are given then
 * (db/matches.h).  A captain has a PIN (hashed as players' PINs) and a
 * bearer token; his only power is his team's line-up (db/lineups.h).
 *
 * Reads take any Store; writes run inside the caller's writer job
 * (db/writer.h) and return 0 or a positive STORE_E_* with a message in ERR.
 * Objects come back as JSON with the API's field names; the caller owns
 * them.  Inputs are JSON objects already checked for field names and types
 * by the server.
 *
 * Workload: up to a couple of hundred teams of a few players each.
 */
#ifndef ARBITER_DB_TEAMS_H
#define ARBITER_DB_TEAMS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "team.h"

/* 1 when TID is a team competition. */
int teams_event_is_team(Store *s, int64_t tid);
/* 1 when team TEAM belongs to tournament TID. */
int teams_exists(Store *s, int64_t tid, int64_t team);

/* The team settings of TID with every default filled in: {"kind",
 * "boards", "match_points": {"win","draw","loss"}, "primary", "colours",
 * "preference", "bye": {"match_points","game_points"}, "tiebreaks"}; NULL
 * when there is no such tournament. */
json_t *teams_settings_get(Store *s, int64_t tid);
/* The rules' settings of TID (team_settings_default() with the stored
 * values over it; n_rounds from the tournament's rounds). */
void teams_settings_rules(Store *s, int64_t tid, TeamSettings *ts);
/* Changes the settings IN gives (fields as teams_settings_get's; "kind"
 * makes the tournament a team competition or not).  Refused with
 * STORE_E_STATE once a round exists, STORE_E_INVALID for values out of
 * range.  0 with *OUT the settings. */
int teams_settings_set(Store *s, int64_t tid, json_t *in, int64_t user, json_t **out, char *err,
                       size_t n);

/* Every team of TID in pairing-number order (then by id) / team TEAM of
 * TID (NULL when none): {"id", "name", "federation", "club", "captain",
 * "pairing_number", "status", "rating_average", "members": [{"player_id",
 * "name", "rating", "title", "federation", "board_order", "reserve",
 * "status"}]}. */
json_t *teams_list(Store *s, int64_t tid);
json_t *teams_get(Store *s, int64_t tid, int64_t team);
/* Creates a team from IN ({"name", "federation"?, "club"?, "captain"?,
 * "members"?: [{"player_id", "reserve"?}] in board order}).  Members must
 * be players of TID in no other team (STORE_E_INVALID / STORE_E_CONFLICT).
 * 0 with *OUT the team. */
int teams_create(Store *s, int64_t tid, json_t *in, int64_t user, json_t **out, char *err,
                 size_t n);
/* Changes the fields IN gives; "members" replaces the roster and is
 * refused once round 1 is paired (STORE_E_STATE); "status" withdraws a
 * team or brings it back.  0 with *OUT the team, or STORE_E_NOT_FOUND. */
int teams_update(Store *s, int64_t tid, int64_t team, json_t *in, int64_t user, json_t **out,
                 char *err, size_t n);

/* Sets (or replaces) the captain's credentials of TEAM of TID and audits
 * it as USER.  0, or STORE_E_CONFLICT when the PIN hash is taken. */
int teams_credentials_set(Store *s, int64_t tid, int64_t team, const char *pin_hash,
                          const char *token_hash, int64_t user);
/* 1 when PIN_HASH is already a captain's PIN in TID. */
int teams_pin_taken(Store *s, int64_t tid, const char *pin_hash);
/* The team whose captain's PIN of TID hashes to PIN_HASH, or 0. */
int64_t teams_by_pin(Store *s, int64_t tid, const char *pin_hash);
/* Gives TEAM's captain a new token (signing in again ends the old one). */
int teams_token_set(Store *s, int64_t team, const char *token_hash);
/* The team whose captain's token hashes to TOKEN_HASH: 1 with *TEAM and
 * *TID, 0 when none.  Asked only when no player has the token, and cached
 * by the server as players' tokens are. */
int teams_lookup_token(Store *s, const char *token_hash, int64_t *team, int64_t *tid);

#endif
