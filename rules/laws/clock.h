/*
 * clock.h — the two-sided chess clock as a pure function of events and
 * times.  Nothing ticks: the clock stores the main time of each side at the
 * start of the current turn and how much of the turn has elapsed; the
 * remaining time at any instant is computed from those.
 *
 * Rules modelled (Art. 6):
 *   - Fischer increment: added to the player's main time after each of his
 *     moves, from move 1 (the increment of the period the move was made in).
 *   - Simple delay: the main time does not run during the first `delay` ms of
 *     each turn; unused delay is lost.  Bronstein delay: the main time runs,
 *     and after the press the time used, at most `delay`, is given back.  Both
 *     leave the same main time after a press; they differ in the flag (simple
 *     delay never flags within the delay; Bronstein can).  Delay never adds
 *     time beyond the main time at the start of the turn.
 *   - Multi-period: when a player completes his own last move of a period
 *     (e.g. his 40th), the next period's base time is added to his clock.
 *   - The arbiter may pause and resume (6.11) and set or add time or fix a
 *     move counter (6.10, 7.1).
 *
 * A flag falls at the instant the remaining time reaches zero; a press at
 * that instant or later is too late.  Times are in ms; `now` must never go
 * backwards between calls (callers check).  Untimed clocks never flag.
 */
#ifndef ARBITER_RULES_CLOCK_H
#define ARBITER_RULES_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "bitboard.h" /* WHITE, BLACK */
#include "timecontrol.h"

/* "No deadline": the clock is stopped, paused or untimed. */
#define CLOCK_NEVER INT64_MAX

typedef struct Clock {
    TimeControl tc;
    int64_t main_ms[2];     /* main time of each side; for the running side, at
                               the start of the current turn */
    int32_t moves[2];       /* moves completed by each side */
    int32_t period[2];      /* index of each side's current period */
    int8_t running;         /* side whose clock runs (WHITE/BLACK), -1 none */
    bool paused;            /* arbiter pause: nothing runs */
    int64_t turn_before_ms; /* elapsed in this turn before seg_start_ms */
    int64_t seg_start_ms;   /* when the current running stretch started;
                               while paused, the instant of the pause */
    int64_t flag_ms[2];     /* instant a side's flag fell while it was not
                               called (flags claimed), else CLOCK_NEVER */
} Clock;

/* A stopped clock with each side's first-period time. */
void clock_init(Clock *c, const TimeControl *tc);

/* Starts side's clock at now (the start of the round: White's clock, 6.6).
 * Any running turn is discarded. */
void clock_start(Clock *c, int side, int64_t now);

/* Stops the clock entirely (end of game), freezing both readings at now. */
void clock_stop(Clock *c, int64_t now);

/* Time elapsed in the running side's current turn at now (0 if none). */
int64_t clock_turn_elapsed(const Clock *c, int64_t now);

/* Remaining main time of side at now, as a clock display would show it
 * (may be negative once the flag has fallen and nobody called it). */
int64_t clock_remaining(const Clock *c, int side, int64_t now);

/* Completes the running side's move at now: charges the time used, gives
 * back Bronstein delay, adds the increment (unless no_increment, for an
 * illegal move's press, 7.5.5), counts the move, enters the next period when
 * the move ends one, and starts the opponent's clock.  No-op when nothing
 * runs.  A press while paused leaves the clocks paused. */
void clock_press(Clock *c, int64_t now, bool no_increment);

/* Arbiter pause / resume (6.11).  Idempotent. */
void clock_pause(Clock *c, int64_t now);
void clock_resume(Clock *c, int64_t now);

/* Sets side's remaining time to ms as read at now. */
void clock_set(Clock *c, int side, int64_t ms, int64_t now);

/* Adds ms (may be negative) to side's remaining time. */
void clock_add(Clock *c, int side, int64_t ms);

/* Takes ms (> 0) from side's remaining time as read at now (a penalty,
 * 12.9, or the arbiter's correction, 6.10).  Taking all that is left makes
 * the flag fall at now, not at the earlier instant the reduced time would
 * have run out; a flag already down keeps its instant. */
void clock_take(Clock *c, int side, int64_t ms, int64_t now);

/* Sets side's count of completed moves (6.10 / 7.1) and the period that
 * count falls in; no time is added or removed. */
void clock_set_moves(Clock *c, int side, int moves);

/* Takes side's count of completed moves back by n (a position restored,
 * 7.1), never below 0.  The base time of each period the player is taken
 * back out of goes back too: completing that period's last move again gives
 * it again (6.3).  No other time changes. */
void clock_take_back(Clock *c, int side, int n);

/* Absolute instant at which the running side's flag falls, or CLOCK_NEVER. */
int64_t clock_deadline(const Clock *c, int64_t now);

/* True when side's flag has fallen at or before now. */
bool clock_flag_fallen(const Clock *c, int side, int64_t now);

/* The instant side's flag fell (<= now), or CLOCK_NEVER if it has not. */
int64_t clock_flag_time(const Clock *c, int side, int64_t now);

/* Moves side still has to make before his next time control, 0 in the last
 * (rest-of-game) period. */
int clock_moves_to_control(const Clock *c, int side);

#endif
