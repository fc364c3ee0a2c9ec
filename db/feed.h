/*
 * feed.h — the version of a published list of games (a round's or a whole
 * tournament's PGN feed), read without replaying a single game, so that a
 * broadcast platform polling every second is answered 304 for the price
 * of a few index look-ups.
 *
 * The version is the newest game event of the games listed (the event log
 * orders every event of the store) plus a hash of everything else a feed
 * prints: the tournament's row, the rounds' status, the games' pairings and
 * results, the players' names, ratings, titles and FIDE ids.  Any change to
 * what the feed would print changes the version; the converse need not hold.
 *
 * The public delay lives here too: settings.public_delay (whole seconds,
 * 0 = live) holds back from the public every event younger than the delay,
 * and a game's end with its last event.
 */
#ifndef ARBITER_DB_FEED_H
#define ARBITER_DB_FEED_H

#include <stdint.h>

#include "store.h"

typedef struct FeedVersion {
    int64_t last_event;  /* the greatest game_events.id of the games, 0: none */
    int64_t modified_ms; /* when the feed last changed, as far as the store knows */
    uint64_t meta_hash;  /* the hash of the rows other than events */
} FeedVersion;

/* The version of the games of round RN of tournament TID (RN 0: all the
 * tournament's games) as seen with the events stored at or before CUT_MS
 * (INT64_MAX: all) into *OUT.  Returns 0, or a negative value when the
 * store cannot be read (*OUT then zero). */
int feed_version(Store *s, int64_t tid, int64_t rn, int64_t cut_ms, FeedVersion *out);

/* The public delay of tournament TID (0: that of game GID) in milliseconds
 * (settings.public_delay is in seconds; 0 or none: live). */
int64_t feed_delay_ms(Store *s, int64_t tid, int64_t gid);

/* The newest event of game GID that the public may see at NOW_MS: those
 * stored at or before NOW_MS minus the tournament's delay.  *ID and *AT_MS
 * (either may be NULL) get its id and time, 0 when none; returns 1 when
 * every event of the game is public, 0 when some are still held back. */
int feed_game_public(Store *s, int64_t gid, int64_t now_ms, int64_t *id, int64_t *at_ms);

/* True when game GID is over and the public may see its end at NOW_MS. */
int feed_game_over_public(Store *s, int64_t gid, int64_t now_ms);

#endif
