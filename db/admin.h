/*
 * admin.h — the store's queries for everything but the game logs, by
 * subject: tournaments (db/tournaments.h), players (db/players.h), rounds
 * and their games' rows (db/rounds.h), users, credentials and sessions
 * (db/sessions.h), alerts and the audit log (db/alerts.h), standings
 * (db/tournament_io.h).  Nothing in db/ includes this header; it keeps the
 * server's includes working until they name the modules themselves.
 */
#ifndef ARBITER_DB_ADMIN_H
#define ARBITER_DB_ADMIN_H

#include "alerts.h"
#include "players.h"
#include "rounds.h"
#include "sessions.h"
#include "tournament_io.h"
#include "tournaments.h"

/* Standings after the games with a result (see tio_standings). */
static inline json_t *admin_standings(Store *s, int64_t tid)
{
    return tio_standings(s, tid);
}

#endif
