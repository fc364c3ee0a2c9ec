/*
 * tournaments.h — tournament rows (table tournaments) and their settings:
 * the game settings every game of the tournament starts with (Laws engine,
 * "settings"), the point system, the tie-break list and the requested-bye
 * rules.  Also the check that the objects a request's path names exist.
 *
 * A tournament's "status" is derived on every read from its rounds and
 * games (setup, running, finished), never stored.  Reads take any Store;
 * writes run inside the caller's writer job (db/writer.h) and return 0 or a
 * positive STORE_E_* with a message in ERR.  Objects come back as JSON with
 * the API's field names; the caller owns them.  Inputs are JSON objects
 * already checked for field names and types by the server.
 *
 * Workload: a few tournaments per store; one row per call.
 */
#ifndef ARBITER_DB_TOURNAMENTS_H
#define ARBITER_DB_TOURNAMENTS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "tournament.h"

/* 1 when the object named by a path parameter exists: KIND 't' tournament
 * ID; 'p' player ID of tournament PARENT; 'r' round ID of tournament
 * PARENT; 'g' game ID; 'a' alert ID of tournament PARENT. */
int tournaments_exists(Store *s, char kind, int64_t parent, int64_t id);

/* The settings every tournament starts with (spec/laws.md defaults); the
 * caller owns them. */
json_t *tournaments_settings_default(void);
/* Checks SETTINGS (may be NULL) and TIME_CONTROL (may be NULL) with the Laws
 * engine's strict parser: 0, or STORE_E_INVALID with the reason in ERR. */
int tournaments_settings_check(json_t *settings, const char *time_control, char *err, size_t n);

/*
 * Checks the optional "points" ({"win","draw","loss","bye"}, numbers in
 * tenths of a point from 0 to 10) and "tiebreaks" (a string such as
 * "BH/C1,BH,SB,DE", or an array of such names) of a tournament body.
 * Returns 0, or STORE_E_INVALID with the reason in ERR.
 */
int tournaments_options_check(json_t *in, char *err, size_t n);

/*
 * Stores the "points", "tiebreaks", "bye_limit" and "bye_last_rounds" of
 * IN (already checked) for tournament TID; absent fields are left as they
 * are.  Returns 0 or the store's error.
 */
int tournaments_options_store(Store *s, int64_t tid, json_t *in);

/* The point system a tournament row's "points" object (may be NULL) stands
 * for: the defaults with its win, draw, loss and bye values. */
void tournaments_point_system(json_t *points, TrnPointSystem *ps);

/* Every tournament by id / tournament TID (NULL when there is none). */
json_t *tournaments_list(Store *s);
json_t *tournaments_get(Store *s, int64_t tid);
/* Creates a tournament from IN with the default settings overridden by its
 * "settings", with USER (0: none) its chief arbiter (db/users.h): 0 with
 * *OUT the new row, or a store error with ERR. */
int tournaments_create(Store *s, json_t *in, int64_t user, json_t **out, char *err, size_t n);
/* Changes the fields IN gives (settings merged into the stored ones): 0
 * with *OUT the row, STORE_E_NOT_FOUND or a store error with ERR. */
int tournaments_update(Store *s, int64_t tid, json_t *in, int64_t user, json_t **out, char *err,
                       size_t n);

#endif
