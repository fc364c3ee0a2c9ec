/*
 * event_json.c — JSON in and out for game events, settings and state
 * (docs/events.md).  Strict on input: every field is checked against the
 * fields its event type may carry.  Two ways out: json_t trees for the
 * routes that merge or inspect them, and direct text (event_json_text_*)
 * for the answer of every move, which must not pay for a tree per request;
 * tests/unit/test_event_text.c keeps the two byte-identical.
 */
#include "event_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notation.h"

enum {
    F_MOVE = 1 << 0,
    F_OFFER = 1 << 1,
    F_CLAIM = 1 << 2,
    F_SIDE = 1 << 3,
    F_PENALTY = 1 << 4,
    F_MS = 1 << 5,
    F_SET = 1 << 6,
    F_ADD = 1 << 7,
    F_MOVES = 1 << 8,
    F_PLY = 1 << 9,
    F_CLOCKS = 1 << 10,
    F_SCORE = 1 << 11,
    F_RESULT = 1 << 12,
    F_FORFEIT = 1 << 13,
    F_KIND = 1 << 14,
    F_SQUARE = 1 << 15,
};

/* Optional and required fields of each event type. */
static const struct {
    unsigned allowed, required;
} shape[GAME_EV_COUNT] = {
    [GAME_EV_CHECKIN] = {F_SIDE, 0}, /* the side only when the arbiter admits */
    [GAME_EV_MOVE] = {F_MOVE | F_OFFER, F_MOVE},
    [GAME_EV_CLAIM] = {F_CLAIM | F_MOVE, F_CLAIM},
    [GAME_EV_FLAG] = {F_SIDE, 0},
    [GAME_EV_ADJUST] = {F_SIDE | F_SET | F_ADD | F_MOVES, F_SIDE},
    [GAME_EV_RESTORE] = {F_PLY | F_CLOCKS, F_PLY},
    [GAME_EV_ILLEGAL] = {F_SIDE | F_PLY | F_CLOCKS, F_SIDE},
    [GAME_EV_PENALTY] = {F_SIDE | F_PENALTY | F_MS | F_SCORE, F_SIDE | F_PENALTY},
    [GAME_EV_RESULT] = {F_RESULT | F_FORFEIT, F_RESULT},
    [GAME_EV_TOUCH] = {F_SIDE | F_SQUARE | F_PLY | F_CLOCKS, F_SIDE | F_SQUARE},
    [GAME_EV_PRESS] = {F_SIDE | F_MOVE, F_SIDE | F_MOVE},
    [GAME_EV_ILLEGAL_ACT] = {F_SIDE | F_KIND, F_SIDE | F_KIND},
    [GAME_EV_DISPLACED] = {F_SIDE | F_KIND | F_MS | F_PLY | F_CLOCKS, F_SIDE},
    [GAME_EV_SETUP] = {F_KIND, F_KIND},
    [GAME_EV_DEAD] = {F_KIND, F_KIND},
};

static const struct {
    const char *name;
    unsigned bit;
} field_bits[] = {
    {"move", F_MOVE},       {"offer", F_OFFER},   {"claim", F_CLAIM},     {"side", F_SIDE},
    {"penalty", F_PENALTY}, {"ms", F_MS},         {"set_ms", F_SET},      {"add_ms", F_ADD},
    {"moves", F_MOVES},     {"ply", F_PLY},       {"white_ms", F_CLOCKS}, {"black_ms", F_CLOCKS},
    {"score", F_SCORE},     {"white", F_RESULT},  {"black", F_RESULT},    {"forfeit", F_FORFEIT},
    {"kind", F_KIND},       {"square", F_SQUARE},
};

static int bad(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return EVENT_JSON_E_INVALID;
}

static const int64_t MS_MAX = 100LL * 86400000; /* 100 days */

static int get_int(const json_t *v, const char *name, int64_t lo, int64_t hi, int64_t *out,
                   char *err, size_t errlen)
{
    if (!json_is_integer(v))
        return bad(err, errlen, "field '%s' must be a whole number", name);
    json_int_t x = json_integer_value(v);
    if (x < lo || x > hi)
        return bad(err, errlen, "field '%s' must be from %lld to %lld", name, (long long)lo,
                   (long long)hi);
    *out = x;
    return 0;
}

static int get_side(const json_t *v, const char *name, int8_t *out, char *err, size_t errlen)
{
    const char *s = json_string_value(v);
    if (s && strcmp(s, "white") == 0)
        *out = WHITE;
    else if (s && strcmp(s, "black") == 0)
        *out = BLACK;
    else
        return bad(err, errlen, "field '%s' must be \"white\" or \"black\"", name);
    return 0;
}

static int get_score(const json_t *v, const char *name, int8_t *out, char *err, size_t errlen)
{
    if (!json_is_number(v))
        return bad(err, errlen, "field '%s' must be 0, 0.5 or 1", name);
    double d = json_number_value(v);
    if (d == 0)
        *out = 0;
    else if (d == 0.5)
        *out = 1;
    else if (d == 1)
        *out = 2;
    else
        return bad(err, errlen, "field '%s' must be 0, 0.5 or 1", name);
    return 0;
}

static int get_text(const json_t *v, const char *name, char *out, size_t cap, char *err,
                    size_t errlen)
{
    if (!json_is_string(v))
        return bad(err, errlen, "field '%s' must be a string", name);
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (n >= cap)
        return bad(err, errlen, "field '%s' is longer than %zu bytes", name, cap - 1);
    if (memchr(s, '\0', n))
        return bad(err, errlen, "field '%s' contains a NUL character", name);
    memcpy(out, s, n + 1);
    return 0;
}

/* "\"no_move\" or \"two_hands\"": the kinds of an event type, for messages. */
static const char *kind_list(int type)
{
    switch (type) {
    case GAME_EV_ILLEGAL_ACT: return "\"no_move\" or \"two_hands\"";
    case GAME_EV_SETUP: return "\"position\" or \"orientation\"";
    case GAME_EV_DEAD: return "\"dead\" or \"alive\"";
    default: return "\"none\", \"warning\", \"time_add\" or \"time_sub\"";
    }
}

/* Whether ev's kind is written: always where the type requires one, else
 * when it is not the default. */
static bool kind_written(const GameEvent *ev)
{
    return (shape[ev->type].required & F_KIND) || ev->kind != 0;
}

int event_json_from_json(const json_t *obj, GameEvent *ev, char *err, size_t errlen)
{
    if (!json_is_object(obj))
        return bad(err, errlen, "an event must be a JSON object");
    const json_t *jt = json_object_get(obj, "type");
    if (!jt)
        return bad(err, errlen, "missing field 'type'");
    if (!json_is_string(jt))
        return bad(err, errlen, "field 'type' must be a string");
    int type = game_event_type_from_name(json_string_value(jt));
    if (type < 0)
        return bad(err, errlen, "unknown event type '%s'", json_string_value(jt));
    const json_t *ja = json_object_get(obj, "actor");
    if (!ja)
        return bad(err, errlen, "missing field 'actor'");
    int actor = json_is_string(ja) ? game_actor_from_name(json_string_value(ja)) : -1;
    if (actor < 0)
        return bad(err, errlen,
                   "field 'actor' must be \"white\", \"black\", \"arbiter\" or "
                   "\"server\"");
    const json_t *jtime = json_object_get(obj, "time_ms");
    if (!jtime)
        return bad(err, errlen, "missing field 'time_ms'");
    int64_t t = 0;
    if (get_int(jtime, "time_ms", 0, INT64_MAX / 4, &t, err, errlen))
        return EVENT_JSON_E_INVALID;
    game_event_init(ev, type, actor, t);

    unsigned allowed = shape[type].allowed, seen = 0;
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val)
    {
        if (!strcmp(key, "type") || !strcmp(key, "actor") || !strcmp(key, "time_ms"))
            continue;
        if (!strcmp(key, "note")) {
            if (get_text(val, "note", ev->note, sizeof ev->note, err, errlen))
                return EVENT_JSON_E_INVALID;
            continue;
        }
        unsigned bit = 0;
        for (size_t i = 0; i < sizeof field_bits / sizeof field_bits[0]; i++)
            if (!strcmp(key, field_bits[i].name))
                bit = field_bits[i].bit;
        if (!bit)
            return bad(err, errlen, "unknown field '%s'", key);
        if (!(allowed & bit))
            return bad(err, errlen, "field '%s' does not belong to a '%s' event", key,
                       game_event_type_name(type));
        seen |= bit;
        int64_t x = 0;
        int rc = 0;
        switch (bit) {
        case F_MOVE:
            rc = get_text(val, key, ev->move, sizeof ev->move, err, errlen);
            if (!rc && type == GAME_EV_MOVE && !ev->move[0])
                rc = bad(err, errlen, "field 'move' is empty");
            break;
        case F_OFFER:
        case F_FORFEIT:
            if (!json_is_boolean(val))
                return bad(err, errlen, "field '%s' must be true or false", key);
            if (bit == F_OFFER)
                ev->offer = json_is_true(val);
            else
                ev->forfeit = json_is_true(val);
            break;
        case F_CLAIM:
            ev->claim = json_is_string(val) ? (uint8_t)game_claim_from_name(json_string_value(val))
                                            : (uint8_t)255;
            if (ev->claim > GAME_CLAIM_NO_EFFORT)
                return bad(err, errlen,
                           "field 'claim' must be \"threefold\", \"fifty\", "
                           "\"increment\" or \"no_effort\"");
            break;
        case F_SIDE: rc = get_side(val, key, &ev->side, err, errlen); break;
        case F_KIND: {
            int k = json_is_string(val) ? game_kind_from_name(type, json_string_value(val)) : -1;
            if (k < 0)
                return bad(err, errlen, "field 'kind' of a '%s' event must be %s",
                           game_event_type_name(type), kind_list(type));
            ev->kind = (uint8_t)k;
            break;
        }
        case F_SQUARE: {
            const char *q = json_string_value(val);
            if (!q || strlen(q) != 2 || q[0] < 'a' || q[0] > 'h' || q[1] < '1' || q[1] > '8')
                return bad(err, errlen, "field 'square' must be a square such as \"e4\"");
            ev->square = (int8_t)SQ(q[0] - 'a', q[1] - '1');
            break;
        }
        case F_PENALTY: {
            int p = json_is_string(val) ? game_penalty_from_name(json_string_value(val)) : -1;
            if (p < 0)
                return bad(err, errlen,
                           "field 'penalty' must be one of warning, time_add, "
                           "time_sub, score_up, score_down, loss, exclusion");
            ev->penalty = (uint8_t)p;
            break;
        }
        case F_MS: rc = get_int(val, key, 1, MS_MAX, &ev->ms, err, errlen); break;
        case F_SET: rc = get_int(val, key, 0, MS_MAX, &ev->set_ms, err, errlen); break;
        case F_ADD: rc = get_int(val, key, -MS_MAX, MS_MAX, &ev->add_ms, err, errlen); break;
        case F_MOVES:
            rc = get_int(val, key, 0, 9999, &x, err, errlen);
            ev->moves = (int32_t)x;
            break;
        case F_PLY:
            rc = get_int(val, key, 0, 20000, &x, err, errlen);
            ev->ply = (int32_t)x;
            break;
        case F_CLOCKS:
            rc = get_int(val, key, 0, MS_MAX, &ev->clock_ms[key[0] == 'w' ? WHITE : BLACK], err,
                         errlen);
            break;
        case F_SCORE: rc = get_score(val, key, &ev->score[0], err, errlen); break;
        case F_RESULT:
            rc = get_score(val, key, &ev->score[key[0] == 'w' ? WHITE : BLACK], err, errlen);
            break;
        }
        if (rc)
            return EVENT_JSON_E_INVALID;
    }
    unsigned missing = shape[type].required & ~seen;
    if (type == GAME_EV_RESULT && (ev->score[0] < 0 || ev->score[1] < 0))
        missing |= F_RESULT;
    for (size_t i = 0; missing && i < sizeof field_bits / sizeof field_bits[0]; i++)
        if (missing & field_bits[i].bit)
            return bad(err, errlen, "a '%s' event needs field '%s'", game_event_type_name(type),
                       field_bits[i].name);
    if (type == GAME_EV_ADJUST && ev->set_ms == GAME_NONE && ev->add_ms == GAME_NONE &&
        ev->moves < 0)
        return bad(err, errlen, "an 'adjust' event needs 'set_ms', 'add_ms' or 'moves'");
    if (type == GAME_EV_DISPLACED) {
        bool timed = ev->kind == GAME_DISPLACED_TIME_ADD || ev->kind == GAME_DISPLACED_TIME_SUB;
        if (timed && ev->ms == GAME_NONE)
            return bad(err, errlen, "a '%s' penalty needs field 'ms'",
                       game_kind_name(type, ev->kind));
        if (!timed && ev->ms != GAME_NONE)
            return bad(err, errlen, "field 'ms' goes with kind time_add or time_sub");
    }
    if (type == GAME_EV_PENALTY) {
        int p = ev->penalty;
        bool timed = p == GAME_PENALTY_TIME_ADD || p == GAME_PENALTY_TIME_SUB;
        bool scored = p == GAME_PENALTY_SCORE_UP || p == GAME_PENALTY_SCORE_DOWN;
        if (timed && ev->ms == GAME_NONE)
            return bad(err, errlen, "a '%s' penalty needs field 'ms'", game_penalty_name(p));
        if (!timed && ev->ms != GAME_NONE)
            return bad(err, errlen, "field 'ms' does not belong to a '%s' penalty",
                       game_penalty_name(p));
        if (scored && ev->score[0] < 0)
            return bad(err, errlen, "a '%s' penalty needs field 'score'", game_penalty_name(p));
        if (!scored && ev->score[0] >= 0)
            return bad(err, errlen, "field 'score' does not belong to a '%s' penalty",
                       game_penalty_name(p));
    }
    return 0;
}

int event_json_parse(const char *text, GameEvent *ev, char *err, size_t errlen)
{
    if (!text)
        return bad(err, errlen, "no event");
    json_error_t je;
    json_t *obj = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!obj)
        return bad(err, errlen, "not valid JSON: %s (column %d)", je.text, je.column);
    int rc = event_json_from_json(obj, ev, err, errlen);
    json_decref(obj);
    return rc;
}

static json_t *score_json(int half)
{
    if (half < 0)
        return json_null();
    if (half == 1)
        return json_real(0.5);
    return json_integer(half / 2);
}

/* "e4" for a square 0..63. */
static const char *square_text(int sq, char out[3])
{
    out[0] = (char)('a' + SQ_FILE(sq));
    out[1] = (char)('1' + SQ_RANK(sq));
    out[2] = '\0';
    return out;
}

static const char *side_name(int side)
{
    return side == WHITE ? "white" : "black";
}

/* json_object_set_new that tolerates a NULL value (out of memory): the
 * object is then marked failed by returning -1. */
static int put(json_t *o, const char *k, json_t *v)
{
    if (!v)
        return -1;
    return json_object_set_new(o, k, v);
}

json_t *event_json_to_json(const GameEvent *ev)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int rc = 0;
    rc |= put(o, "type", json_string(game_event_type_name(ev->type)));
    rc |= put(o, "time_ms", json_integer(ev->time_ms));
    rc |= put(o, "actor", json_string(game_actor_name(ev->actor)));
    unsigned a = ev->type < GAME_EV_COUNT ? shape[ev->type].allowed : 0;
    if ((a & F_MOVE) && ev->move[0])
        rc |= put(o, "move", json_string(ev->move));
    if ((a & F_OFFER) && ev->offer)
        rc |= put(o, "offer", json_true());
    if (a & F_CLAIM)
        rc |= put(o, "claim", json_string(game_claim_name(ev->claim)));
    if ((a & F_SIDE) && ev->side >= 0)
        rc |= put(o, "side", json_string(side_name(ev->side)));
    if (a & F_PENALTY)
        rc |= put(o, "penalty", json_string(game_penalty_name(ev->penalty)));
    if ((a & F_MS) && ev->ms != GAME_NONE)
        rc |= put(o, "ms", json_integer(ev->ms));
    if ((a & F_SET) && ev->set_ms != GAME_NONE)
        rc |= put(o, "set_ms", json_integer(ev->set_ms));
    if ((a & F_ADD) && ev->add_ms != GAME_NONE)
        rc |= put(o, "add_ms", json_integer(ev->add_ms));
    if ((a & F_MOVES) && ev->moves >= 0)
        rc |= put(o, "moves", json_integer(ev->moves));
    if ((a & F_PLY) && ev->ply >= 0)
        rc |= put(o, "ply", json_integer(ev->ply));
    if ((a & F_CLOCKS) && ev->clock_ms[WHITE] != GAME_NONE)
        rc |= put(o, "white_ms", json_integer(ev->clock_ms[WHITE]));
    if ((a & F_CLOCKS) && ev->clock_ms[BLACK] != GAME_NONE)
        rc |= put(o, "black_ms", json_integer(ev->clock_ms[BLACK]));
    if ((a & F_SCORE) && ev->score[0] >= 0)
        rc |= put(o, "score", score_json(ev->score[0]));
    if (a & F_RESULT) {
        rc |= put(o, "white", score_json(ev->score[WHITE]));
        rc |= put(o, "black", score_json(ev->score[BLACK]));
    }
    if ((a & F_FORFEIT) && ev->forfeit)
        rc |= put(o, "forfeit", json_true());
    if ((a & F_KIND) && kind_written(ev))
        rc |= put(o, "kind", json_string(game_kind_name(ev->type, ev->kind)));
    if ((a & F_SQUARE) && ev->square >= 0) {
        char sq[3];
        rc |= put(o, "square", json_string(square_text(ev->square, sq)));
    }
    if (ev->note[0])
        rc |= put(o, "note", json_string(ev->note));
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

char *event_json_format(const GameEvent *ev)
{
    /* Every stored move goes through here, on the writer thread: the text
     * writer, and the tree only for a string jansson would refuse. */
    EventJsonText t = {0};
    event_json_text_event(&t, ev, 0, 0);
    if (!t.bad)
        return t.p;
    free(t.p);
    json_t *o = event_json_to_json(ev);
    if (!o)
        return NULL;
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return s;
}

/* ---- settings ------------------------------------------------------------ */

int event_json_settings_from_json(const json_t *obj, GameSettings *s, char *err, size_t errlen)
{
    game_settings_default(s);
    if (!json_is_object(obj))
        return bad(err, errlen, "settings must be a JSON object");
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val)
    {
        int64_t x = 0;
        const char *str = json_string_value(val);
        if (!strcmp(key, "public_delay")) {
            /* The tournament's broadcast delay (db/feed.h): no rule of play. */
            continue;
        } else if (!strcmp(key, "confirm_moves")) {
            /* The tablets' confirm-move step (web/js/tablet-head.js): how a
             * move is entered, no rule of play. */
            if (!json_is_boolean(val))
                return bad(err, errlen, "field 'confirm_moves' must be true or false");
        } else if (!strcmp(key, "norm_min_games")) {
            /* Title norms (rules/tournament/norms.h): no rule of play. */
            if (get_int(val, key, 0, 99, &x, err, errlen))
                return EVENT_JSON_E_INVALID;
        } else if (!strcmp(key, "national_championship")) {
            if (!json_is_boolean(val))
                return bad(err, errlen, "field 'national_championship' must be true or false");
        } else if (!strcmp(key, "type")) {
            if (!str || strcmp(str, "settings"))
                return bad(err, errlen, "field 'type' of settings must be \"settings\"");
        } else if (!strcmp(key, "time_control")) {
            char why[160];
            if (!str)
                return bad(err, errlen, "field 'time_control' must be a string");
            if (timecontrol_parse(&s->tc, str, why, sizeof why))
                return bad(err, errlen, "field 'time_control': %s", why);
        } else if (!strcmp(key, "illegal_entry")) {
            if (str && !strcmp(str, "penalize"))
                s->illegal_entry = GAME_ILLEGAL_PENALIZE;
            else if (str && !strcmp(str, "reject"))
                s->illegal_entry = GAME_ILLEGAL_REJECT;
            else
                return bad(err, errlen, "field 'illegal_entry' must be \"penalize\" or \"reject\"");
        } else if (!strcmp(key, "illegal_moves_to_lose")) {
            if (get_int(val, key, 0, 255, &x, err, errlen))
                return EVENT_JSON_E_INVALID;
            s->illegal_moves_to_lose = (uint8_t)x;
        } else if (!strcmp(key, "draw_offers")) {
            if (str && !strcmp(str, "free"))
                s->draw_offers = GAME_OFFERS_FREE;
            else if (str && !strcmp(str, "sofia"))
                s->draw_offers = GAME_OFFERS_SOFIA;
            else if (str && !strcmp(str, "arbiter"))
                s->draw_offers = GAME_OFFERS_ARBITER;
            else
                return bad(err, errlen,
                           "field 'draw_offers' must be \"free\", \"sofia\" or \"arbiter\"");
        } else if (!strcmp(key, "sofia_moves")) {
            if (get_int(val, key, 0, 999, &x, err, errlen))
                return EVENT_JSON_E_INVALID;
            s->sofia_moves = (uint16_t)x;
        } else if (!strcmp(key, "default_time_ms")) {
            if (get_int(val, key, -1, MS_MAX, &x, err, errlen))
                return EVENT_JSON_E_INVALID;
            s->default_time_ms = x;
        } else if (!strcmp(key, "flags")) {
            if (str && !strcmp(str, "server"))
                s->flags_claimed = false;
            else if (str && !strcmp(str, "claimed"))
                s->flags_claimed = true;
            else
                return bad(err, errlen, "field 'flags' must be \"server\" or \"claimed\"");
        } else if (!strcmp(key, "supervised")) {
            if (!json_is_boolean(val))
                return bad(err, errlen, "field 'supervised' must be true or false");
            s->supervised = json_is_true(val);
        } else if (!strcmp(key, "penalty_ms")) {
            if (get_int(val, key, 0, MS_MAX, &x, err, errlen))
                return EVENT_JSON_E_INVALID;
            s->penalty_ms = x;
        } else if (!strcmp(key, "guidelines_iii")) {
            if (!json_is_boolean(val))
                return bad(err, errlen, "field 'guidelines_iii' must be true or false");
            s->guidelines_iii = json_is_true(val);
        } else if (!strcmp(key, "fen")) {
            Board b;
            char why[160];
            if (!str)
                return bad(err, errlen, "field 'fen' must be a string");
            if (board_from_fen(&b, str, why, sizeof why))
                return bad(err, errlen, "field 'fen': %s", why);
            board_to_fen(&b, s->start_fen);
        } else {
            return bad(err, errlen, "unknown settings field '%s'", key);
        }
    }
    return 0;
}

int event_json_settings_parse(const char *text, GameSettings *s, char *err, size_t errlen)
{
    if (!text)
        return bad(err, errlen, "no settings");
    json_error_t je;
    json_t *obj = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    if (!obj)
        return bad(err, errlen, "not valid JSON: %s (column %d)", je.text, je.column);
    int rc = event_json_settings_from_json(obj, s, err, errlen);
    json_decref(obj);
    return rc;
}

json_t *event_json_settings_to_json(const GameSettings *s)
{
    static const char *const offers[] = {"free", "sofia", "arbiter"};
    char tc[TC_TEXT_MAX];
    timecontrol_format(&s->tc, tc);
    json_t *o = json_object();
    if (!o)
        return NULL;
    int rc = 0;
    rc |= put(o, "type", json_string("settings"));
    rc |= put(o, "time_control", json_string(tc));
    rc |= put(o, "illegal_entry",
              json_string(s->illegal_entry == GAME_ILLEGAL_REJECT ? "reject" : "penalize"));
    rc |= put(o, "illegal_moves_to_lose", json_integer(s->illegal_moves_to_lose));
    rc |= put(o, "draw_offers", json_string(offers[s->draw_offers % 3]));
    rc |= put(o, "sofia_moves", json_integer(s->sofia_moves));
    rc |= put(o, "default_time_ms", json_integer(s->default_time_ms));
    rc |= put(o, "flags", json_string(s->flags_claimed ? "claimed" : "server"));
    rc |= put(o, "supervised", json_boolean(s->supervised));
    rc |= put(o, "penalty_ms", json_integer(s->penalty_ms));
    rc |= put(o, "guidelines_iii", json_boolean(s->guidelines_iii));
    rc |= put(o, "fen", json_string(s->start_fen[0] ? s->start_fen : BOARD_START_FEN));
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

char *event_json_settings_format(const GameSettings *s)
{
    json_t *o = event_json_settings_to_json(s);
    if (!o)
        return NULL;
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    return text;
}

/* ---- state ----------------------------------------------------------------- */

static json_t *side_or_null(int side)
{
    return side == WHITE || side == BLACK ? json_string(side_name(side)) : json_null();
}

static json_t *pair_int(int64_t w, int64_t b)
{
    return json_pack("{s:I,s:I}", "white", (json_int_t)w, "black", (json_int_t)b);
}

static json_t *pair_bool(bool w, bool b)
{
    return json_pack("{s:b,s:b}", "white", w, "black", b);
}

json_t *event_json_state_to_json(const GameState *st, int64_t now)
{
    json_t *o = json_object();
    json_t *moves = json_array(), *ucis = json_array(), *notes = json_array();
    if (!o || !moves || !ucis || !notes)
        goto fail;
    int rc = 0;
    char fen[FEN_MAX], buf[TC_TEXT_MAX];
    board_to_fen(&st->board, fen);
    rc |= put(o, "fen", json_string(fen));
    rc |= put(o, "start_fen", json_string(st->settings.start_fen));
    rc |= put(o, "side_to_move", json_string(side_name(st->board.side)));
    rc |= put(o, "ply", json_integer(st->nplies));
    Board b = st->start;
    for (int i = 0; i < st->nplies; i++) {
        char san[NOTATION_SAN_MAX], uci[6];
        if (notation_san(&b, st->plies[i].move, san))
            snprintf(san, sizeof san, "?");
        board_move_to_uci(st->plies[i].move, uci);
        rc |= json_array_append_new(moves, json_string(san));
        rc |= json_array_append_new(ucis, json_string(uci));
        board_make(&b, st->plies[i].move);
    }
    rc |= json_object_set_new(o, "moves", moves);
    rc |= json_object_set_new(o, "uci", ucis);
    moves = ucis = NULL;
    rc |= put(o, "started", json_boolean(st->started));
    rc |= put(o, "over", json_boolean(st->over));
    rc |= put(o, "result", json_string(game_result_text(st, buf)));
    json_t *score = json_object();
    if (score) {
        put(score, "white", score_json(st->score[WHITE]));
        put(score, "black", score_json(st->score[BLACK]));
    }
    rc |= put(o, "score", score);
    rc |= put(o, "forfeit", json_boolean(st->forfeit));
    rc |= put(o, "termination", st->end ? json_string(game_end_name(st->end)) : json_null());
    rc |= put(o, "end_side", side_or_null(st->end_side));
    rc |= put(o, "end_ms", st->over ? json_integer(st->end_ms) : json_null());

    const Clock *c = &st->clock;
    timecontrol_format(&st->settings.tc, buf);
    json_t *clock = json_object();
    if (clock) {
        int64_t d = game_next_deadline(st, now);
        int fl = game_flag_fallen(st, now);
        rc |= put(clock, "time_control", json_string(buf));
        rc |= put(clock, "category",
                  json_string(timecontrol_category_name(timecontrol_category(&st->settings.tc))));
        bool untimed = st->settings.tc.untimed; /* no readings at all */
        rc |= put(clock, "white_ms",
                  untimed ? json_null() : json_integer(game_remaining(st, WHITE, now)));
        rc |= put(clock, "black_ms",
                  untimed ? json_null() : json_integer(game_remaining(st, BLACK, now)));
        rc |= put(clock, "running", side_or_null(c->running));
        rc |= put(clock, "paused", json_boolean(c->paused));
        rc |= put(clock, "deadline_ms", d == CLOCK_NEVER ? json_null() : json_integer(d));
        rc |= put(clock, "flag_fallen", side_or_null(fl));
        rc |= put(clock, "moves", pair_int(c->moves[WHITE], c->moves[BLACK]));
        rc |= put(clock, "moves_to_control",
                  pair_int(clock_moves_to_control(c, WHITE), clock_moves_to_control(c, BLACK)));
    }
    rc |= put(o, "clock", clock);
    rc |= put(o, "illegal_moves", pair_int(st->illegal_count[WHITE], st->illegal_count[BLACK]));
    rc |= put(o, "offer", side_or_null(st->offer));
    rc |= put(o, "offer_awaits_arbiter", json_boolean(st->offer_agreed));
    rc |= put(o, "arbiter_called", st->call_pending ? side_or_null(st->call_side) : json_null());
    if (st->iii_claim >= 0)
        rc |= put(o, "claim_awaits_arbiter",
                  json_pack("{s:s,s:s}", "claim", game_claim_name(st->iii_claim), "side",
                            st->iii_side == WHITE ? "white" : "black"));
    else
        rc |= put(o, "claim_awaits_arbiter", json_null());
    if (st->dead_side >= 0)
        rc |= put(o, "dead_position_awaits_arbiter",
                  json_pack("{s:s,s:s}", "side", st->dead_side == WHITE ? "white" : "black", "end",
                            game_end_name(st->dead_end)));
    else
        rc |= put(o, "dead_position_awaits_arbiter", json_null());
    char sq[3];
    rc |= put(o, "must_move_from",
              st->touch_square >= 0 ? json_string(square_text(st->touch_square, sq)) : json_null());
    rc |=
        put(o, "must_capture_on",
            st->touch_capture >= 0 ? json_string(square_text(st->touch_capture, sq)) : json_null());
    rc |= put(o, "must_castle_to",
              st->touch_castle >= 0 ? json_string(square_text(st->touch_castle, sq)) : json_null());
    rc |= put(o, "repetitions", json_integer(game_repetitions(st)));
    rc |= put(o, "halfmove_clock", json_integer(st->board.halfmove));
    rc |= put(o, "checked_in", pair_bool(st->checked_in[WHITE], st->checked_in[BLACK]));
    rc |= put(o, "confirmed", pair_bool(st->confirmed[WHITE], st->confirmed[BLACK]));
    rc |= put(o, "warnings", pair_int(st->warnings[WHITE], st->warnings[BLACK]));
    rc |= put(o, "excluded", pair_bool(st->excluded[WHITE], st->excluded[BLACK]));
    rc |= put(o, "colours_reversed", json_boolean(st->colours_reversed));
    for (int i = 0; i < st->nnotes; i++) {
        const GameNote *n = &st->notes[i];
        rc |= json_array_append_new(notes, json_pack("{s:i,s:I,s:s,s:s,s:s}", "ply", (int)n->ply,
                                                     "time_ms", (json_int_t)n->time_ms, "event",
                                                     game_event_type_name(n->type), "actor",
                                                     game_actor_name(n->actor), "text", n->text));
    }
    rc |= json_object_set_new(o, "notes", notes);
    notes = NULL;
    if (rc)
        goto fail;
    return o;
fail:
    json_decref(o);
    json_decref(moves);
    json_decref(ucis);
    json_decref(notes);
    return NULL;
}

static const char *const code_names[] = {
    "ok",       "order",      "actor",   "not_started", "started", "over",      "not_over",
    "turn",     "notation",   "illegal", "touch",       "paused",  "flag_fell", "no_flag",
    "no_offer", "offer_rule", "payload", "limit",       "score",
};

const char *event_json_code_name(int code)
{
    if (code >= 0 && (size_t)code < sizeof code_names / sizeof code_names[0])
        return code_names[code];
    return "error";
}

json_t *event_json_verdict_to_json(const GameVerdict *v)
{
    return json_pack("{s:b,s:s,s:s,s:b,s:b}", "ok", v->code == GAME_OK, "code",
                     event_json_code_name(v->code), "reason", v->reason, "ended", v->ended,
                     "illegal", v->illegal);
}

/* ---- direct text forms ------------------------------------------------------ */

int event_json_text_grow(EventJsonText *t, size_t n)
{
    if (t->bad)
        return -1;
    if (t->len + n + 1 <= t->cap)
        return 0;
    size_t cap = t->cap ? t->cap : 4096; /* a whole update usually fits */
    while (cap < t->len + n + 1)
        cap *= 2;
    char *np = realloc(t->p, cap);
    if (!np) {
        t->bad = 1;
        return -1;
    }
    t->p = np;
    t->cap = cap;
    return 0;
}

static int grow(EventJsonText *t, size_t n)
{
    return event_json_text_grow(t, n);
}

void event_json_text_int(EventJsonText *t, int64_t x)
{
    /* By hand: snprintf was a tenth of the cost of a whole state. */
    char b[24], *e = b + sizeof b, *p = e;
    uint64_t u = x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
    do
        *--p = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (x < 0)
        *--p = '-';
    event_json_text_raw(t, p, (size_t)(e - p));
}

/* Length of the valid UTF-8 sequence at S (1..4), or 0 (jansson's rules:
 * no overlong forms, no surrogates, nothing above U+10FFFF). */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    int n;
    unsigned cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, cp = c & 0x07;
    else
        return 0;
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

void event_json_text_str(EventJsonText *t, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s);
    if (grow(t, n + 2))
        return;
    t->p[t->len++] = '"';
    size_t run = 0; /* start of the bytes not yet copied */
    for (size_t i = 0; i < n;) {
        unsigned c = u[i];
        if (c >= 0x80) {
            int k = utf8_len(u + i);
            if (!k) {
                t->bad = 1;
                return;
            }
            i += (size_t)k;
            continue;
        }
        if (c >= 0x20 && c != '"' && c != '\\') {
            i++;
            continue;
        }
        event_json_text_raw(t, s + run, i - run);
        char esc[8];
        switch (c) {
        case '"': strcpy(esc, "\\\""); break;
        case '\\': strcpy(esc, "\\\\"); break;
        case '\b': strcpy(esc, "\\b"); break;
        case '\f': strcpy(esc, "\\f"); break;
        case '\n': strcpy(esc, "\\n"); break;
        case '\r': strcpy(esc, "\\r"); break;
        case '\t': strcpy(esc, "\\t"); break;
        default: snprintf(esc, sizeof esc, "\\u%04X", c); break;
        }
        event_json_text_lit(t, esc);
        run = ++i;
    }
    event_json_text_raw(t, s + run, n - run);
    event_json_text_raw(t, "\"", 1);
}

/* ,"key": */
static void key(EventJsonText *t, const char *k, int first)
{
    if (!first)
        event_json_text_raw(t, ",", 1);
    event_json_text_raw(t, "\"", 1);
    event_json_text_lit(t, k);
    event_json_text_raw(t, "\":", 2);
}

static void kstr(EventJsonText *t, const char *k, const char *v)
{
    key(t, k, 0);
    event_json_text_str(t, v);
}

static void kint(EventJsonText *t, const char *k, int64_t v)
{
    key(t, k, 0);
    event_json_text_int(t, v);
}

static void kbool(EventJsonText *t, const char *k, bool v)
{
    key(t, k, 0);
    event_json_text_lit(t, v ? "true" : "false");
}

static void knull(EventJsonText *t, const char *k)
{
    key(t, k, 0);
    event_json_text_raw(t, "null", 4);
}

static void score_text(EventJsonText *t, int half)
{
    if (half < 0)
        event_json_text_raw(t, "null", 4);
    else if (half == 1)
        event_json_text_raw(t, "0.5", 3);
    else
        event_json_text_int(t, half / 2);
}

static void side_text(EventJsonText *t, const char *k, int side)
{
    if (side == WHITE || side == BLACK)
        kstr(t, k, side_name(side));
    else
        knull(t, k);
}

static void pair_int_text(EventJsonText *t, const char *k, int64_t w, int64_t b)
{
    key(t, k, 0);
    event_json_text_raw(t, "{\"white\":", 9);
    event_json_text_int(t, w);
    event_json_text_raw(t, ",\"black\":", 9);
    event_json_text_int(t, b);
    event_json_text_raw(t, "}", 1);
}

static void pair_bool_text(EventJsonText *t, const char *k, bool w, bool b)
{
    key(t, k, 0);
    event_json_text_lit(t, w ? "{\"white\":true" : "{\"white\":false");
    event_json_text_lit(t, b ? ",\"black\":true}" : ",\"black\":false}");
}

void event_json_text_event(EventJsonText *t, const GameEvent *ev, int64_t id, int32_t seq)
{
    event_json_text_raw(t, "{", 1);
    key(t, "type", 1);
    event_json_text_str(t, game_event_type_name(ev->type));
    kint(t, "time_ms", ev->time_ms);
    kstr(t, "actor", game_actor_name(ev->actor));
    unsigned a = ev->type < GAME_EV_COUNT ? shape[ev->type].allowed : 0;
    if ((a & F_MOVE) && ev->move[0])
        kstr(t, "move", ev->move);
    if ((a & F_OFFER) && ev->offer)
        kbool(t, "offer", true);
    if (a & F_CLAIM)
        kstr(t, "claim", game_claim_name(ev->claim));
    if ((a & F_SIDE) && ev->side >= 0)
        kstr(t, "side", side_name(ev->side));
    if (a & F_PENALTY)
        kstr(t, "penalty", game_penalty_name(ev->penalty));
    if ((a & F_MS) && ev->ms != GAME_NONE)
        kint(t, "ms", ev->ms);
    if ((a & F_SET) && ev->set_ms != GAME_NONE)
        kint(t, "set_ms", ev->set_ms);
    if ((a & F_ADD) && ev->add_ms != GAME_NONE)
        kint(t, "add_ms", ev->add_ms);
    if ((a & F_MOVES) && ev->moves >= 0)
        kint(t, "moves", ev->moves);
    if ((a & F_PLY) && ev->ply >= 0)
        kint(t, "ply", ev->ply);
    if ((a & F_CLOCKS) && ev->clock_ms[WHITE] != GAME_NONE)
        kint(t, "white_ms", ev->clock_ms[WHITE]);
    if ((a & F_CLOCKS) && ev->clock_ms[BLACK] != GAME_NONE)
        kint(t, "black_ms", ev->clock_ms[BLACK]);
    if ((a & F_SCORE) && ev->score[0] >= 0) {
        key(t, "score", 0);
        score_text(t, ev->score[0]);
    }
    if (a & F_RESULT) {
        key(t, "white", 0);
        score_text(t, ev->score[WHITE]);
        key(t, "black", 0);
        score_text(t, ev->score[BLACK]);
    }
    if ((a & F_FORFEIT) && ev->forfeit)
        kbool(t, "forfeit", true);
    if ((a & F_KIND) && kind_written(ev))
        kstr(t, "kind", game_kind_name(ev->type, ev->kind));
    if ((a & F_SQUARE) && ev->square >= 0) {
        char sq[3];
        kstr(t, "square", square_text(ev->square, sq));
    }
    if (ev->note[0])
        kstr(t, "note", ev->note);
    if (id > 0) {
        kint(t, "id", id);
        kint(t, "seq", seq);
    }
    event_json_text_raw(t, "}", 1);
}

void event_json_text_verdict(EventJsonText *t, const GameVerdict *v)
{
    event_json_text_raw(t, "{", 1);
    key(t, "ok", 1);
    event_json_text_lit(t, v->code == GAME_OK ? "true" : "false");
    kstr(t, "code", event_json_code_name(v->code));
    kstr(t, "reason", v->reason);
    kbool(t, "ended", v->ended);
    kbool(t, "illegal", v->illegal);
    event_json_text_raw(t, "}", 1);
}

void event_json_sheet_clear(EventJsonSheet *sh)
{
    free(sh->san.p);
    free(sh->uci.p);
    free(sh->moves);
    memset(sh, 0, sizeof *sh);
}

char *event_json_sheet_text(EventJsonSheet *sh, const GameState *st)
{
    int32_t keep = sh->n <= st->nplies ? sh->n : -1;
    for (int32_t i = 0; i < keep; i++)
        if (sh->moves[i] != st->plies[i].move)
            keep = -1;
    if (keep < 0 || sh->n == 0) {
        sh->san.len = sh->uci.len = 0;
        sh->san.bad = sh->uci.bad = 0;
        sh->n = 0;
        sh->board = st->start;
    }
    if (st->nplies > sh->cap) {
        int32_t cap = st->nplies + 64;
        Move *nm = realloc(sh->moves, sizeof *nm * (size_t)cap);
        if (!nm)
            return NULL;
        sh->moves = nm;
        sh->cap = cap;
    }
    for (int32_t i = sh->n; i < st->nplies; i++) {
        char san[NOTATION_SAN_MAX], uci[6];
        Move m = st->plies[i].move;
        if (notation_san(&sh->board, m, san))
            snprintf(san, sizeof san, "?");
        board_move_to_uci(m, uci);
        if (i) {
            event_json_text_raw(&sh->san, ",", 1);
            event_json_text_raw(&sh->uci, ",", 1);
        }
        event_json_text_str(&sh->san, san);
        event_json_text_str(&sh->uci, uci);
        board_make(&sh->board, m);
        sh->moves[i] = m;
    }
    sh->n = st->nplies;
    if (sh->san.bad || sh->uci.bad) {
        event_json_sheet_clear(sh);
        return NULL;
    }
    EventJsonText t = {0};
    grow(&t, sh->san.len + sh->uci.len + 24);
    event_json_text_raw(&t, "\"moves\":[", 9);
    event_json_text_raw(&t, sh->san.p ? sh->san.p : "", sh->san.len);
    event_json_text_raw(&t, "],\"uci\":[", 9);
    event_json_text_raw(&t, sh->uci.p ? sh->uci.p : "", sh->uci.len);
    event_json_text_raw(&t, "]", 1);
    if (t.bad) {
        free(t.p);
        return NULL;
    }
    return t.p;
}

void event_json_text_state(EventJsonText *t, const GameState *st, int64_t now, const char *sheet)
{
    char fen[FEN_MAX], buf[TC_TEXT_MAX];
    board_to_fen(&st->board, fen);
    event_json_text_raw(t, "{", 1);
    key(t, "fen", 1);
    event_json_text_str(t, fen);
    kstr(t, "start_fen", st->settings.start_fen);
    kstr(t, "side_to_move", side_name(st->board.side));
    kint(t, "ply", st->nplies);
    char *own = NULL;
    if (!sheet) {
        EventJsonSheet sh = {0};
        own = event_json_sheet_text(&sh, st);
        event_json_sheet_clear(&sh);
    }
    if (!sheet && !own) {
        t->bad = 1;
        return;
    }
    event_json_text_raw(t, ",", 1);
    event_json_text_lit(t, sheet ? sheet : own);
    free(own);
    kbool(t, "started", st->started);
    kbool(t, "over", st->over);
    kstr(t, "result", game_result_text(st, buf));
    key(t, "score", 0);
    event_json_text_raw(t, "{\"white\":", 9);
    score_text(t, st->score[WHITE]);
    event_json_text_raw(t, ",\"black\":", 9);
    score_text(t, st->score[BLACK]);
    event_json_text_raw(t, "}", 1);
    kbool(t, "forfeit", st->forfeit);
    if (st->end)
        kstr(t, "termination", game_end_name(st->end));
    else
        knull(t, "termination");
    side_text(t, "end_side", st->end_side);
    if (st->over)
        kint(t, "end_ms", st->end_ms);
    else
        knull(t, "end_ms");

    const Clock *c = &st->clock;
    timecontrol_format(&st->settings.tc, buf);
    int64_t d = game_next_deadline(st, now);
    int fl = game_flag_fallen(st, now);
    key(t, "clock", 0);
    event_json_text_raw(t, "{", 1);
    key(t, "time_control", 1);
    event_json_text_str(t, buf);
    kstr(t, "category", timecontrol_category_name(timecontrol_category(&st->settings.tc)));
    if (st->settings.tc.untimed) {
        knull(t, "white_ms");
        knull(t, "black_ms");
    } else {
        kint(t, "white_ms", game_remaining(st, WHITE, now));
        kint(t, "black_ms", game_remaining(st, BLACK, now));
    }
    side_text(t, "running", c->running);
    kbool(t, "paused", c->paused);
    if (d == CLOCK_NEVER)
        knull(t, "deadline_ms");
    else
        kint(t, "deadline_ms", d);
    side_text(t, "flag_fallen", fl);
    pair_int_text(t, "moves", c->moves[WHITE], c->moves[BLACK]);
    pair_int_text(t, "moves_to_control", clock_moves_to_control(c, WHITE),
                  clock_moves_to_control(c, BLACK));
    event_json_text_raw(t, "}", 1);
    pair_int_text(t, "illegal_moves", st->illegal_count[WHITE], st->illegal_count[BLACK]);
    side_text(t, "offer", st->offer);
    kbool(t, "offer_awaits_arbiter", st->offer_agreed);
    if (st->call_pending)
        side_text(t, "arbiter_called", st->call_side);
    else
        knull(t, "arbiter_called");
    if (st->iii_claim >= 0) {
        key(t, "claim_awaits_arbiter", 0);
        event_json_text_raw(t, "{", 1);
        key(t, "claim", 1);
        event_json_text_str(t, game_claim_name(st->iii_claim));
        kstr(t, "side", st->iii_side == WHITE ? "white" : "black");
        event_json_text_raw(t, "}", 1);
    } else {
        knull(t, "claim_awaits_arbiter");
    }
    if (st->dead_side >= 0) {
        key(t, "dead_position_awaits_arbiter", 0);
        event_json_text_raw(t, "{", 1);
        key(t, "side", 1);
        event_json_text_str(t, st->dead_side == WHITE ? "white" : "black");
        kstr(t, "end", game_end_name(st->dead_end));
        event_json_text_raw(t, "}", 1);
    } else {
        knull(t, "dead_position_awaits_arbiter");
    }
    char sq[3];
    if (st->touch_square >= 0)
        kstr(t, "must_move_from", square_text(st->touch_square, sq));
    else
        knull(t, "must_move_from");
    if (st->touch_capture >= 0)
        kstr(t, "must_capture_on", square_text(st->touch_capture, sq));
    else
        knull(t, "must_capture_on");
    if (st->touch_castle >= 0)
        kstr(t, "must_castle_to", square_text(st->touch_castle, sq));
    else
        knull(t, "must_castle_to");
    kint(t, "repetitions", game_repetitions(st));
    kint(t, "halfmove_clock", st->board.halfmove);
    pair_bool_text(t, "checked_in", st->checked_in[WHITE], st->checked_in[BLACK]);
    pair_bool_text(t, "confirmed", st->confirmed[WHITE], st->confirmed[BLACK]);
    pair_int_text(t, "warnings", st->warnings[WHITE], st->warnings[BLACK]);
    pair_bool_text(t, "excluded", st->excluded[WHITE], st->excluded[BLACK]);
    kbool(t, "colours_reversed", st->colours_reversed);
    key(t, "notes", 0);
    event_json_text_raw(t, "[", 1);
    for (int i = 0; i < st->nnotes; i++) {
        const GameNote *n = &st->notes[i];
        if (i)
            event_json_text_raw(t, ",", 1);
        event_json_text_raw(t, "{", 1);
        key(t, "ply", 1);
        event_json_text_int(t, (int)n->ply);
        kint(t, "time_ms", n->time_ms);
        kstr(t, "event", game_event_type_name(n->type));
        kstr(t, "actor", game_actor_name(n->actor));
        kstr(t, "text", n->text);
        event_json_text_raw(t, "}", 1);
    }
    event_json_text_raw(t, "]}", 2);
}
