/*
 * timecontrol.c — parsing and printing time controls, and their category.
 * See timecontrol.h for the grammar.  Numbers are bounded (a day per
 * period) so that sums never overflow.
 */
#include "timecontrol.h"

#include <stdio.h>
#include <string.h>

#include "error.h"

enum { MAX_SECONDS = 86400, MAX_MOVES = 999 };

static int fail(char *err, size_t errlen, const char *msg, const char *at)
{
    if (at && *at)
        return error_set(err, errlen, TC_E_SYNTAX, "%s at '%s'", msg, at);
    return error_set(err, errlen, TC_E_SYNTAX, "%s", msg);
}

/* Reads an unsigned decimal integer; returns the number of digits (0 = none). */
static int read_uint(const char **p, long long *out, long long max)
{
    const char *s = *p;
    long long v = 0;
    int n = 0;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (*s - '0');
        if (v > max)
            return -1;
        s++;
        n++;
    }
    *p = s;
    *out = v;
    return n;
}

/* Seconds with up to three decimals, into ms. */
static int read_seconds(const char **p, int64_t *ms, char *err, size_t errlen)
{
    const char *start = *p;
    long long whole;
    int n = read_uint(p, &whole, MAX_SECONDS);
    if (n < 0)
        return fail(err, errlen, "time is more than a day (86400 s)", start);
    if (n == 0)
        return fail(err, errlen, "expected a number of seconds", start);
    int64_t v = (int64_t)whole * 1000;
    if (**p == '.') {
        (*p)++;
        int64_t scale = 100;
        int digits = 0;
        while (**p >= '0' && **p <= '9') {
            if (++digits > 3)
                return fail(err, errlen, "more than three decimals in seconds", start);
            v += (**p - '0') * scale;
            scale /= 10;
            (*p)++;
        }
        if (digits == 0)
            return fail(err, errlen, "expected digits after the decimal point", start);
    }
    *ms = v;
    return 0;
}

static int parse_period(TcPeriod *pd, const char **p, char *err, size_t errlen)
{
    const char *start = *p;
    memset(pd, 0, sizeof *pd);
    /* "MOVES/" is told apart from plain seconds by the slash that follows. */
    const char *q = *p;
    long long moves;
    int n = read_uint(&q, &moves, MAX_MOVES);
    if (n > 0 && *q == '/') {
        if (moves == 0)
            return fail(err, errlen, "a period needs at least one move", start);
        pd->moves = (int32_t)moves;
        *p = q + 1;
    } else if (n < 0 && *q == '/') {
        return fail(err, errlen, "more than 999 moves in a period", start);
    }
    if (**p == '*')
        return fail(err, errlen, "sandclock time controls are not supported", start);
    int rc = read_seconds(p, &pd->base_ms, err, errlen);
    if (rc)
        return rc;
    if (**p == '+' || **p == 'd' || **p == 'b') {
        char c = **p;
        (*p)++;
        pd->bonus = c == '+' ? TC_BONUS_FISCHER : c == 'd' ? TC_BONUS_DELAY : TC_BONUS_BRONSTEIN;
        rc = read_seconds(p, &pd->bonus_ms, err, errlen);
        if (rc)
            return rc;
        if (pd->bonus_ms == 0)
            pd->bonus = TC_BONUS_NONE;
    }
    if (pd->base_ms == 0 && pd->bonus == TC_BONUS_NONE)
        return fail(err, errlen, "a period with no time and no increment", start);
    return 0;
}

static int parse_side(TcSide *side, const char **p, char stop, char *err, size_t errlen)
{
    memset(side, 0, sizeof *side);
    for (;;) {
        if (side->nperiods == TC_PERIODS_MAX)
            return fail(err, errlen, "more than 4 periods", *p);
        int rc = parse_period(&side->periods[side->nperiods], p, err, errlen);
        if (rc)
            return rc;
        side->nperiods++;
        if (**p != ':')
            break;
        (*p)++;
    }
    if (**p != '\0' && **p != stop)
        return fail(err, errlen, "unexpected character", *p);
    for (int i = 0; i + 1 < side->nperiods; i++)
        if (side->periods[i].moves == 0)
            return fail(err, errlen, "only the last period may be the rest of the game", "");
    if (side->periods[side->nperiods - 1].moves != 0)
        return fail(err, errlen, "the last period must be the rest of the game (no move count)",
                    "");
    return 0;
}

int timecontrol_parse(TimeControl *tc, const char *text, char *err, size_t errlen)
{
    memset(tc, 0, sizeof *tc);
    if (!text)
        return fail(err, errlen, "no time control", "");
    while (*text == ' ' || *text == '\t')
        text++;
    size_t len = strlen(text);
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\n' ||
                   text[len - 1] == '\r'))
        len--;
    char buf[256];
    if (len == 0)
        return fail(err, errlen, "empty time control", "");
    if (len >= sizeof buf)
        return fail(err, errlen, "time control text is too long", "");
    memcpy(buf, text, len);
    buf[len] = '\0';
    if (strcmp(buf, "-") == 0) {
        tc->untimed = true;
        return 0;
    }
    if (strcmp(buf, "?") == 0)
        return fail(err, errlen, "the time control is unknown ('?'); give one", "");
    const char *p = buf;
    int rc;
    if (*p == 'W') {
        p++;
        rc = parse_side(&tc->side[0], &p, '-', err, errlen);
        if (rc)
            return rc;
        if (p[0] != '-' || p[1] != 'B')
            return fail(err, errlen, "expected '-B' after White's time control", p);
        p += 2;
        rc = parse_side(&tc->side[1], &p, '\0', err, errlen);
        if (rc)
            return rc;
        tc->odds = memcmp(&tc->side[0], &tc->side[1], sizeof tc->side[0]) != 0;
        return 0;
    }
    rc = parse_side(&tc->side[0], &p, '\0', err, errlen);
    if (rc)
        return rc;
    tc->side[1] = tc->side[0];
    return 0;
}

static size_t put_seconds(char *out, size_t cap, int64_t ms)
{
    if (ms % 1000 == 0)
        return (size_t)snprintf(out, cap, "%lld", (long long)(ms / 1000));
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%lld.%03lld", (long long)(ms / 1000), (long long)(ms % 1000));
    size_t n = strlen(tmp);
    while (tmp[n - 1] == '0')
        tmp[--n] = '\0';
    return (size_t)snprintf(out, cap, "%s", tmp);
}

static size_t put_side(char *out, size_t cap, const TcSide *s)
{
    size_t n = 0;
    for (int i = 0; i < s->nperiods && n < cap; i++) {
        const TcPeriod *pd = &s->periods[i];
        if (i)
            n += (size_t)snprintf(out + n, cap - n, ":");
        if (pd->moves)
            n += (size_t)snprintf(out + n, cap - n, "%d/", (int)pd->moves);
        n += put_seconds(out + n, cap - n, pd->base_ms);
        if (pd->bonus != TC_BONUS_NONE && n < cap) {
            out[n++] = pd->bonus == TC_BONUS_FISCHER ? '+'
                       : pd->bonus == TC_BONUS_DELAY ? 'd'
                                                     : 'b';
            out[n] = '\0';
            n += put_seconds(out + n, cap - n, pd->bonus_ms);
        }
    }
    return n;
}

void timecontrol_format(const TimeControl *tc, char *out)
{
    size_t cap = TC_TEXT_MAX;
    if (tc->untimed) {
        snprintf(out, cap, "-");
        return;
    }
    if (!tc->odds) {
        put_side(out, cap, &tc->side[0]);
        return;
    }
    size_t n = (size_t)snprintf(out, cap, "W");
    n += put_side(out + n, cap - n, &tc->side[0]);
    n += (size_t)snprintf(out + n, cap - n, "-B");
    put_side(out + n, cap - n, &tc->side[1]);
}

/* Time a side gets for its first 60 moves, increments included. */
static int64_t sixty_move_ms(const TcSide *s)
{
    int64_t total = 0;
    int moves = 0;
    for (int i = 0; i < s->nperiods; i++) {
        const TcPeriod *pd = &s->periods[i];
        total += pd->base_ms;
        int here = pd->moves ? pd->moves : 60 - moves;
        if (here > 60 - moves)
            here = 60 - moves;
        total += (int64_t)here * pd->bonus_ms;
        moves += here;
        if (moves >= 60)
            break;
    }
    return total;
}

int timecontrol_category(const TimeControl *tc)
{
    if (tc->untimed)
        return TC_UNTIMED;
    int64_t a = sixty_move_ms(&tc->side[0]), b = sixty_move_ms(&tc->side[1]);
    int64_t t = a > b ? a : b;
    if (t <= 10 * 60 * 1000)
        return TC_BLITZ;
    if (t < 60 * 60 * 1000)
        return TC_RAPID;
    return TC_STANDARD;
}

const char *timecontrol_category_name(int category)
{
    switch (category) {
    case TC_STANDARD: return "standard";
    case TC_RAPID: return "rapid";
    case TC_BLITZ: return "blitz";
    default: return "untimed";
    }
}

int64_t timecontrol_penalty_ms(const TimeControl *tc)
{
    int c = timecontrol_category(tc);
    return (c == TC_RAPID || c == TC_BLITZ) ? 60 * 1000 : 120 * 1000;
}

bool timecontrol_equal(const TimeControl *a, const TimeControl *b)
{
    if (a->untimed || b->untimed)
        return a->untimed == b->untimed;
    for (int s = 0; s < 2; s++) {
        if (a->side[s].nperiods != b->side[s].nperiods)
            return false;
        for (int i = 0; i < a->side[s].nperiods; i++) {
            const TcPeriod *x = &a->side[s].periods[i], *y = &b->side[s].periods[i];
            if (x->moves != y->moves || x->base_ms != y->base_ms || x->bonus != y->bonus ||
                x->bonus_ms != y->bonus_ms)
                return false;
        }
    }
    return true;
}
