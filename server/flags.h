/*
 * flags.h — the flag timers: one deadline per game whose clock runs.  When
 * a deadline passes, a time check (a `flag` event by the server) goes
 * through the writer like any request; the Laws engine decides whether a
 * flag fell (or a default time passed).  Deadlines come from
 * game_next_deadline() after every committed event, so a game whose
 * tournament says flags are claimed never gets one.
 * Workload: one heap operation per move; thousands of games.
 */
#ifndef ARBITER_SERVER_FLAGS_H
#define ARBITER_SERVER_FLAGS_H

#include <stdint.h>

#include "games.h"
#include "http.h"

/* What runs on the writer thread after a time check committed an event
 * (`serve` passes live_game: publish it and re-arm the timer).  A callback,
 * so that the timers do not depend on the live streams, which set them. */
typedef void (*FlagsCommitted)(Server *srv, GameOutcome *o);

/* Starts the timer thread of SRV; COMMITTED is called for each time check
 * that committed an event.  NULL when the thread cannot start. */
Flags *flags_start(Server *srv, FlagsCommitted committed);
/* Sets GID's deadline (absolute ms); INT64_MAX clears it. */
void flags_set(Flags *f, int64_t gid, int64_t deadline_ms);
/* Stops the timer thread (pending checks are dropped: the next start pauses
 * the games as of the heartbeat); flags_set stays harmless until
 * flags_free.  NULL is a no-op. */
void flags_stop(Flags *f);
void flags_free(Flags *f);

#endif
