/*
 * live.h — what happens after a commit that others must see: game updates
 * and alerts published to the live streams (in commit order, from the
 * writer thread), the flag timer re-armed; and the stream routes, which
 * replay what a reconnecting client missed from the store.
 */
#ifndef ARBITER_SERVER_LIVE_H
#define ARBITER_SERVER_LIVE_H

#include "games.h"
#include "http.h"

/* Publishes O (one game action, durable now) and re-arms the game's timer.
 * Call on the writer thread, after the commit; builds O's JSON only when a
 * stream listens or the tournament has a public delay (then the public
 * streams get it that long after O happened). */
void live_game(Server *srv, GameOutcome *o);
/* Publishes a round's new state to its tournament's stream (delayed for
 * the public like the games). */
void live_round(Server *srv, int64_t tid, json_t *round);
/* Publishes tournament TID's changed head and settings (TOUR, as GET
 * /tournaments/{tid} answers it) as a "tournament" event to the live
 * stream of each of its games that someone follows: an open tablet
 * applies a settings change (confirm_moves) without a reload.  Live
 * streams only: the public's delayed ones carry game events alone.  Call
 * on the writer thread, after the commit. */
void live_tournament(Server *srv, int64_t tid, json_t *tour);
/* The delay line's tap (sse_tap_set) with CLS the Nchan publisher: each
 * delayed public event goes to Nchan when it falls due. */
void live_tap(void *cls, const char *topic, const char *event, const char *data);

#endif
