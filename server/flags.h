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

#include "http.h"

Flags *flags_start(Server *srv);
/* Sets GID's deadline (absolute ms); INT64_MAX clears it. */
void flags_set(Flags *f, int64_t gid, int64_t deadline_ms);
/* Stops the timer thread (pending checks are dropped: the next start pauses
 * the games as of the heartbeat); flags_set stays harmless until
 * flags_free.  NULL is a no-op. */
void flags_stop(Flags *f);
void flags_free(Flags *f);

#endif
