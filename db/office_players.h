/*
 * office_players.h — players from the FIDE register (db/fide.h) into a
 * tournament: the player body a register card stands for, and the refresh
 * of every registered player's rating, title and federation from the
 * register before round 1, under the tournament's rating type
 * (db/office.h).
 *
 * A player's rating is the one of the tournament's rating type; a player
 * without one (or below FIDE's floor of 1000) is unrated and keeps the
 * arbiter's estimate, which the register never touches.
 *
 * Workload: one card per added player; a refresh reads one card per player
 * of the tournament (a few hundred indexed look-ups).
 */
#ifndef ARBITER_DB_OFFICE_PLAYERS_H
#define ARBITER_DB_OFFICE_PLAYERS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/*
 * The player body (name, title, federation, fide_id, sex, birth, rating)
 * for the register card CARD under rating type TYPE ("standard", "rapid",
 * "blitz"; NULL = standard).  A new object (caller owns) or NULL when out
 * of memory.
 */
json_t *office_players_body(json_t *card, const char *type);

/* Tournament TID's rating type ("standard" when there is no such row);
 * copied into OUT (CAP bytes). */
void office_players_rating_type(Store *s, int64_t tid, char *out, size_t cap);

/*
 * Compares every player of TID that has a FIDE ID with the register:
 * rating (of the tournament's rating type), title and federation.  With
 * APPLY, writes the changes (in the caller's writer job).  Only before
 * round 1 is paired.  0 with *OUT {rating_type, list_date, applied,
 * changes: [{player_id, name, fide_id, field, from, to}], missing:
 * [{player_id, name, fide_id}]}, or STORE_E_STATE with ERR.
 */
int office_players_refresh(Store *s, int64_t tid, int apply, int64_t user, json_t **out, char *err,
                           size_t n);

#endif
