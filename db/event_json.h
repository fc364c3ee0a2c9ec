/*
 * event_json.h — the JSON form of game events, game settings and game
 * state (docs/events.md).  One event is one JSON object (one line of an
 * event log); the store keeps events in exactly this form and the API
 * renders state with it.
 *
 * Parsing is strict: an unknown field, a field of the wrong type or out of
 * range, or a field that does not belong to the event's type is an error
 * with a message naming the field.  Formatting writes only the fields the
 * event uses, in a fixed order, so format(parse(x)) is canonical and
 * parse(format(ev)) == ev.
 *
 * Strings returned by the *_format functions are malloc'd; the caller frees
 * them.  json_t results are new references; the caller json_decref()s them.
 */
#ifndef ARBITER_DB_EVENT_JSON_H
#define ARBITER_DB_EVENT_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <string.h>

#include "game.h"

/* Documented failure of the parsers; err says which field and why. */
enum { EVENT_JSON_E_INVALID = 1 };

/* Parses one event from a JSON object text (one log line).  Returns 0 or
 * EVENT_JSON_E_INVALID with err filled. */
int event_json_parse(const char *text, GameEvent *ev, char *err, size_t errlen);

/* The same from an already parsed object (borrowed). */
int event_json_from_json(const json_t *obj, GameEvent *ev, char *err, size_t errlen);

/* The canonical JSON object of ev, or NULL on out-of-memory. */
json_t *event_json_to_json(const GameEvent *ev);

/* The canonical one-line text of ev (no newline), or NULL on out-of-memory. */
char *event_json_format(const GameEvent *ev);

/* Settings: every field optional, missing ones take game_settings_default().
 * An object {"type":"settings", ...} is accepted too (the first line of a
 * log file, see docs/events.md). */
int event_json_settings_parse(const char *text, GameSettings *s, char *err, size_t errlen);
int event_json_settings_from_json(const json_t *obj, GameSettings *s, char *err, size_t errlen);
json_t *event_json_settings_to_json(const GameSettings *s);
char *event_json_settings_format(const GameSettings *s);

/* The state of a game as seen at now: position, moves, result and each
 * side's score, termination, clocks (remaining at now, running side, next
 * deadline), illegal-move counts, pending offer, obligations, notes. */
json_t *event_json_state_to_json(const GameState *st, int64_t now);

/* The verdict of game_apply() as {"ok":bool,"code":"...","reason":"..."}. */
json_t *event_json_verdict_to_json(const GameVerdict *v);

/* ---- direct text forms (the hot path of every move) ----
 *
 * The same JSON as json_dumps(x, JSON_COMPACT) of the json_t forms above,
 * byte for byte, written straight into a growing buffer without building a
 * tree first.  A string that is not valid UTF-8 (which jansson would refuse)
 * sets bad: the caller then falls back to the json_t form. */
typedef struct EventJsonText {
    char *p; /* NUL-terminated, malloc'd, owned by the buffer */
    size_t len, cap;
    int bad; /* out of memory or a string that is not UTF-8 */
} EventJsonText;

/* Makes room for N more bytes and the NUL; -1 (and bad) when it cannot. */
int event_json_text_grow(EventJsonText *t, size_t n);

/* Appends N bytes / a NUL-terminated piece as is.  Inline: a move's answer
 * is a few hundred small pieces, and the call was most of their cost. */
static inline void event_json_text_raw(EventJsonText *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap && event_json_text_grow(t, n))
        return;
    memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = 0;
}

static inline void event_json_text_lit(EventJsonText *t, const char *s)
{
    event_json_text_raw(t, s, strlen(s));
}
/* Appends S as a JSON string, escaped as jansson escapes it. */
void event_json_text_str(EventJsonText *t, const char *s);
void event_json_text_int(EventJsonText *t, int64_t x);
/* The event of event_json_to_json() with "id" and "seq" added when id > 0. */
void event_json_text_event(EventJsonText *t, const GameEvent *ev, int64_t id, int32_t seq);
/* event_json_state_to_json(st, now).  SHEET, when not NULL, is the text of
 * st's scoresheet fields, "moves":[...],"uci":[...], from
 * event_json_sheet_text(); NULL renders them here. */
void event_json_text_state(EventJsonText *t, const GameState *st, int64_t now, const char *sheet);

/* The scoresheet of one game kept across its moves: an accepted move adds
 * one SAN and one UCI string instead of re-rendering every ply (each SAN
 * needs the legal moves of its position).  A game whose plies no longer
 * start with the ones rendered (a restore) is rendered again. */
typedef struct EventJsonSheet {
    EventJsonText san, uci; /* the array contents, without brackets */
    Board board;            /* the position after the rendered plies */
    Move *moves;            /* the rendered plies */
    int32_t n, cap;
} EventJsonSheet;

/* The scoresheet fields of ST as text, malloc'd (caller frees), updating
 * SH; NULL on out-of-memory or text jansson would refuse.  SH starts
 * zeroed. */
char *event_json_sheet_text(EventJsonSheet *sh, const GameState *st);
/* Frees what SH holds and zeroes it. */
void event_json_sheet_clear(EventJsonSheet *sh);
/* event_json_verdict_to_json(v). */
void event_json_text_verdict(EventJsonText *t, const GameVerdict *v);

/* Name of a verdict code: "ok", "illegal", "turn", ... */
const char *event_json_code_name(int code);

#endif
