/*
 * timecontrol.h — time controls: the PGN `TimeControl` grammar extended by
 * FIDE practice and the TRF `222` record, and the category (standard, rapid,
 * blitz) that Appendices A and B derive from them.
 *
 * Grammar accepted by timecontrol_parse() (times in seconds, decimals with up
 * to three digits allowed, e.g. "2.5"):
 *     tc      := "-" | "?" | sides
 *     sides   := periods | "W" periods "-B" periods       (TRF odds form)
 *     periods := period (":" period)*                      (at most TC_PERIODS_MAX)
 *     period  := [MOVES "/"] SECONDS [bonus]
 *     bonus   := "+" SECONDS      Fischer increment, added after every move
 *              | "d" SECONDS      simple (US) delay
 *              | "b" SECONDS      Bronstein delay
 * A period with MOVES lasts that many moves of the player; the last period
 * must have none (it is the rest of the game).  "40/5400+30:1800+30" is
 * 90 minutes for 40 moves then 30 minutes, 30 s added per move from move 1.
 * "-" means no clock; "?" (unknown) and the sandclock form "*SECONDS" are
 * refused, with a message saying so.
 *
 * timecontrol_format() prints the canonical form of the same grammar (whole
 * seconds where possible), so parse(format(tc)) == tc.
 *
 * Pure: no allocation, no I/O.
 */
#ifndef ARBITER_RULES_TIMECONTROL_H
#define ARBITER_RULES_TIMECONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TC_PERIODS_MAX = 4 };
/* Longest text timecontrol_format() writes, with its NUL. */
enum { TC_TEXT_MAX = 192 };

enum { TC_BONUS_NONE = 0, TC_BONUS_FISCHER, TC_BONUS_DELAY, TC_BONUS_BRONSTEIN };
enum { TC_STANDARD = 0, TC_RAPID, TC_BLITZ, TC_UNTIMED };

/* Documented failure of timecontrol_parse(); the message says why. */
enum { TC_E_SYNTAX = 1 };

typedef struct TcPeriod {
    int32_t moves;    /* moves of the player in this period; 0 = rest of game */
    int64_t base_ms;  /* time given at the start of the period */
    int64_t bonus_ms; /* increment or delay per move */
    uint8_t bonus;    /* TC_BONUS_* */
} TcPeriod;

typedef struct TcSide {
    int nperiods; /* 1..TC_PERIODS_MAX */
    TcPeriod periods[TC_PERIODS_MAX];
} TcSide;

typedef struct TimeControl {
    bool untimed;   /* "-": no clock at all; side[] unused */
    bool odds;      /* "W...-B...": side[1] differs from side[0] */
    TcSide side[2]; /* [WHITE], [BLACK]; equal unless odds */
} TimeControl;

/* Parses text into *tc.  Returns 0, or TC_E_SYNTAX with the reason in err
 * (NUL-terminated, truncated to errlen).  *tc is unspecified on error. */
int timecontrol_parse(TimeControl *tc, const char *text, char *err, size_t errlen);

/* Writes the canonical text of tc into out (at least TC_TEXT_MAX bytes). */
void timecontrol_format(const TimeControl *tc, char *out);

/* Appendix A.1 / B.1: base time plus 60 times the increment (delay counted as
 * an increment; later periods reached within 60 moves added), <= 10 min is
 * blitz, < 60 min rapid, else standard; TC_UNTIMED for "-".  With odds the
 * longer side decides. */
int timecontrol_category(const TimeControl *tc);

/* "standard", "rapid", "blitz" or "untimed". */
const char *timecontrol_category_name(int category);

/* Art. 7.5.5 / 9.5.3 penalty time: 2 minutes in standard (and untimed)
 * games, 1 minute in rapid and blitz (A.3, B.3). */
int64_t timecontrol_penalty_ms(const TimeControl *tc);

/* True when a and b describe the same control. */
bool timecontrol_equal(const TimeControl *a, const TimeControl *b);

#endif
