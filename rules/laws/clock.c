/*
 * clock.c — the two-sided clock, computed from events rather than ticked.
 *
 * The running side's flag instant has a closed form: with E the time already
 * used in the turn before the current stretch began at S, the main time M
 * runs out at S + M - E, plus the delay D for a simple delay (which holds
 * the main time for the first D ms of the turn).  While paused, S is the
 * pause instant, and the same formula says whether the flag fell before it.
 */
#include "clock.h"

#include <string.h>

#include "bitboard.h"

static const TcPeriod *period_of(const Clock *c, int side)
{
    return &c->tc.side[side].periods[c->period[side]];
}

static int64_t simple_delay(const Clock *c, int side)
{
    const TcPeriod *pd = period_of(c, side);
    return pd->bonus == TC_BONUS_DELAY ? pd->bonus_ms : 0;
}

void clock_init(Clock *c, const TimeControl *tc)
{
    memset(c, 0, sizeof *c);
    c->tc = *tc;
    c->running = -1;
    for (int s = 0; s < 2; s++) {
        c->main_ms[s] = tc->untimed ? 0 : tc->side[s].periods[0].base_ms;
        c->flag_ms[s] = CLOCK_NEVER;
    }
}

int64_t clock_turn_elapsed(const Clock *c, int64_t now)
{
    if (c->running < 0)
        return 0;
    return c->turn_before_ms + (c->paused ? 0 : now - c->seg_start_ms);
}

int64_t clock_remaining(const Clock *c, int side, int64_t now)
{
    if (c->tc.untimed)
        return 0;
    if (side != c->running)
        return c->main_ms[side];
    int64_t used = clock_turn_elapsed(c, now) - simple_delay(c, side);
    if (used < 0)
        used = 0;
    return c->main_ms[side] - used;
}

void clock_start(Clock *c, int side, int64_t now)
{
    c->running = (int8_t)side;
    c->turn_before_ms = 0;
    c->seg_start_ms = now;
}

/* The flag instant of the running side, whatever now is. */
static int64_t running_flag_instant(const Clock *c)
{
    int s = c->running;
    return c->seg_start_ms + c->main_ms[s] + simple_delay(c, s) - c->turn_before_ms;
}

static void note_flag(Clock *c, int side, int64_t now)
{
    if (c->tc.untimed || c->flag_ms[side] != CLOCK_NEVER)
        return;
    if (side == c->running) {
        int64_t t = running_flag_instant(c);
        if (t <= now && (!c->paused || t <= c->seg_start_ms))
            c->flag_ms[side] = t;
    } else if (c->main_ms[side] <= 0) {
        c->flag_ms[side] = now;
    }
}

void clock_stop(Clock *c, int64_t now)
{
    if (c->running < 0)
        return;
    int s = c->running;
    note_flag(c, s, now);
    c->main_ms[s] = clock_remaining(c, s, now);
    c->running = -1;
    c->paused = false;
    c->turn_before_ms = 0;
}

void clock_press(Clock *c, int64_t now, bool no_increment)
{
    int s = c->running;
    if (s < 0)
        return;
    note_flag(c, s, now);
    int64_t rem = clock_remaining(c, s, now);
    const TcPeriod *pd = period_of(c, s);
    if (!c->tc.untimed && !no_increment) {
        if (pd->bonus == TC_BONUS_FISCHER) {
            rem += pd->bonus_ms;
        } else if (pd->bonus == TC_BONUS_BRONSTEIN) {
            int64_t e = clock_turn_elapsed(c, now);
            rem += e < pd->bonus_ms ? e : pd->bonus_ms;
        }
    }
    c->moves[s]++;
    if (!c->tc.untimed) {
        int cum = 0;
        for (int i = 0; i <= c->period[s]; i++)
            cum += c->tc.side[s].periods[i].moves;
        if (pd->moves != 0 && c->moves[s] == cum && c->period[s] + 1 < c->tc.side[s].nperiods) {
            c->period[s]++;
            rem += period_of(c, s)->base_ms;
        }
    }
    c->main_ms[s] = rem;
    c->running = (int8_t)!s;
    c->turn_before_ms = 0;
    c->seg_start_ms = now;
}

void clock_pause(Clock *c, int64_t now)
{
    if (c->paused)
        return;
    if (c->running >= 0)
        c->turn_before_ms += now - c->seg_start_ms;
    c->seg_start_ms = now;
    c->paused = true;
}

void clock_resume(Clock *c, int64_t now)
{
    if (!c->paused)
        return;
    if (c->running >= 0)
        note_flag(c, c->running, now);
    c->seg_start_ms = now;
    c->paused = false;
}

void clock_set(Clock *c, int side, int64_t ms, int64_t now)
{
    if (c->tc.untimed)
        return;
    note_flag(c, side, now);
    int64_t used = c->main_ms[side] - clock_remaining(c, side, now);
    c->main_ms[side] = ms + used;
    if (ms > 0)
        c->flag_ms[side] = CLOCK_NEVER;
}

void clock_add(Clock *c, int side, int64_t ms)
{
    if (c->tc.untimed)
        return;
    c->main_ms[side] += ms;
    if (side != c->running && c->main_ms[side] > 0)
        c->flag_ms[side] = CLOCK_NEVER;
}

void clock_take(Clock *c, int side, int64_t ms, int64_t now)
{
    if (c->tc.untimed)
        return;
    note_flag(c, side, now);
    if (c->flag_ms[side] != CLOCK_NEVER || clock_remaining(c, side, now) > ms) {
        clock_add(c, side, -ms);
        return;
    }
    clock_set(c, side, 0, now);
    if (c->running >= 0) /* before the start, the flag falls when it runs */
        c->flag_ms[side] = now;
}

void clock_set_moves(Clock *c, int side, int moves)
{
    c->moves[side] = moves;
    if (c->tc.untimed)
        return;
    const TcSide *ts = &c->tc.side[side];
    int p = 0, cum = 0;
    while (p + 1 < ts->nperiods && moves >= cum + ts->periods[p].moves) {
        cum += ts->periods[p].moves;
        p++;
    }
    c->period[side] = p;
}

void clock_take_back(Clock *c, int side, int n)
{
    int was = c->period[side];
    int moves = c->moves[side] - n;
    clock_set_moves(c, side, moves < 0 ? 0 : moves);
    if (c->tc.untimed)
        return;
    for (int p = c->period[side] + 1; p <= was; p++)
        c->main_ms[side] -= c->tc.side[side].periods[p].base_ms;
}

int64_t clock_deadline(const Clock *c, int64_t now)
{
    (void)now;
    if (c->tc.untimed || c->running < 0 || c->paused)
        return CLOCK_NEVER;
    return running_flag_instant(c);
}

int64_t clock_flag_time(const Clock *c, int side, int64_t now)
{
    if (c->tc.untimed)
        return CLOCK_NEVER;
    if (c->flag_ms[side] != CLOCK_NEVER)
        return c->flag_ms[side];
    if (side == c->running) {
        int64_t t = running_flag_instant(c);
        if (c->paused)
            return t <= c->seg_start_ms ? t : CLOCK_NEVER;
        return t <= now ? t : CLOCK_NEVER;
    }
    return c->main_ms[side] <= 0 ? now : CLOCK_NEVER;
}

bool clock_flag_fallen(const Clock *c, int side, int64_t now)
{
    return clock_flag_time(c, side, now) != CLOCK_NEVER;
}

int clock_moves_to_control(const Clock *c, int side)
{
    if (c->tc.untimed)
        return 0;
    const TcSide *ts = &c->tc.side[side];
    if (ts->periods[c->period[side]].moves == 0)
        return 0;
    int cum = 0;
    for (int i = 0; i <= c->period[side]; i++)
        cum += ts->periods[i].moves;
    return cum - c->moves[side];
}
