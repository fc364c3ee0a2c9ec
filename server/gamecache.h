/*
 * gamecache.h — who plays in a game, remembered between requests.
 *
 * Every move asks whether its game exists and which colour the caller
 * has: two reads that the game's players answer, and they change only
 * while a round is still being prepared (an arbiter's pairing edit).  The
 * cache holds them for a few seconds and forgets everything after each
 * committed write other than a game action (gamecache_forget, called by
 * the writer bridge), and after the one game action that changes them (a
 * 7.3 report that swaps the players' colours), so an edit is seen by the
 * next request.
 */
#ifndef ARBITER_SERVER_GAMECACHE_H
#define ARBITER_SERVER_GAMECACHE_H

#include <stdint.h>

#include "store.h"

/*
 * The players of game GID into *WHITE and *BLACK, from the cache or from S
 * (this thread's reader).  Returns 0, STORE_E_NOT_FOUND for an unknown
 * game (not cached), or a negative errno.
 */
int gamecache_players(Store *s, int64_t gid, int64_t *white, int64_t *black);

/* Forgets every cached game (thread-safe, O(1)). */
void gamecache_forget(void);

#endif
