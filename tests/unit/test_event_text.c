/*
 * test_event_text.c — the direct text forms of events, verdicts, game
 * states and game updates (db/event_json.h, games_outcome_text/answer) are
 * the same bytes as jansson's compact dump of the json_t forms, which the
 * web pages and the HTTP tests parse.  Random games, with every kind of
 * event thrown at the Laws engine (most refused), notes holding quotes,
 * control characters and UTF-8, compared after every event.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_json.h"
#include "games.h"
#include "testutil.h"

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static char *dump(json_t *j)
{
    ck_assert_ptr_nonnull(j);
    char *s = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return s;
}

static const char *const NOTES[] = {
    "",
    "plain",
    "say \"hi\"\\ back",
    "line\nbreak\ttab\r\b\f",
    "\x01\x1f ctrl",
    "caf\xc3\xa9 \xe2\x99\x94 \xf0\x9f\x98\x80",
    "slash / and \x7f",
};

/* Every text form of ST and of one outcome around it against jansson. */
static void compare(GameState *st, EventJsonSheet *sh, const GameEvent *ev, const GameVerdict *v,
                    int64_t id, int64_t now)
{
    EventJsonText t = {0};
    event_json_text_state(&t, st, now, NULL);
    char *want = dump(event_json_state_to_json(st, now));
    ck_assert_int_eq(t.bad, 0);
    ck_assert_str_eq(t.p, want);
    free(t.p);
    free(want);

    t = (EventJsonText){0};
    event_json_text_verdict(&t, v);
    want = dump(event_json_verdict_to_json(v));
    ck_assert_str_eq(t.p, want);
    free(t.p);
    free(want);

    GameOutcome o = {.gid = 7,
                     .tid = 3,
                     .event_id = id,
                     .seq = (int32_t)(id % 1000),
                     .ev = *ev,
                     .v = *v,
                     .snap = st,
                     .at_ms = now};
    /* The answer from the scoresheet kept across the game's events. */
    o.sheet = event_json_sheet_text(sh, st);
    ck_assert_ptr_nonnull(o.sheet);
    size_t len;
    char *answer = games_outcome_answer(&o, &len);
    ck_assert_ptr_nonnull(answer);
    ck_assert_uint_eq(len, strlen(answer));
    GameOutcome ref = o;
    ref.update_text = ref.sheet = NULL;
    games_outcome_json(&ref);
    char *upd = json_dumps(ref.update, JSON_COMPACT);
    ck_assert_str_eq(o.update_text, upd);
    json_t *a = json_pack("{s:O,s:O,s:O}", "verdict", ref.verdict, "event",
                          ref.event ? ref.event : json_null(), "game", ref.update);
    want = dump(a);
    ck_assert_str_eq(answer, want);
    free(want);
    free(upd);
    free(answer);
    ref.snap = o.snap = NULL;
    games_outcome_clear(&ref);
    games_outcome_clear(&o);
}

START_TEST(random_games_match_jansson)
{
    uint64_t seed = 0x1234567ull + (uint64_t)_i * 7919;
    char err[200];
    GameSettings gs;
    game_settings_default(&gs);
    ck_assert_int_eq(
        timecontrol_parse(&gs.tc, _i % 3 ? "5400+30" : "40/5400:1800+30", err, sizeof err), 0);
    if (_i % 4 == 3)
        gs.tc.untimed = true;
    GameState *st = game_new(&gs, err, sizeof err);
    ck_assert_ptr_nonnull(st);
    int64_t now = 1795959990000;
    int64_t id = 1;
    EventJsonSheet sheet = {0};
    for (int step = 0; step < 400 && !(st->over && step > 300); step++) {
        now += (int64_t)(rng(&seed) % 4000);
        GameEvent ev;
        int type = (int)(rng(&seed) % GAME_EV_COUNT);
        int actor = (int)(rng(&seed) % 3);
        if (step < 3 || rng(&seed) % 3) { /* mostly moves, after the start */
            type = step == 0   ? GAME_EV_CHECKIN
                   : step == 1 ? GAME_EV_CHECKIN
                   : step == 2 ? GAME_EV_START
                               : GAME_EV_MOVE;
            actor = step == 0   ? GAME_ACTOR_WHITE
                    : step == 1 ? GAME_ACTOR_BLACK
                    : step == 2 ? GAME_ACTOR_ARBITER
                                : game_side_to_move(st);
        }
        game_event_init(&ev, type, actor, now);
        if (type == GAME_EV_MOVE || type == GAME_EV_PRESS ||
            (type == GAME_EV_CLAIM && rng(&seed) % 2)) {
            MoveList list;
            movegen_legal_moves(&st->board, &list);
            if (list.count)
                board_move_to_uci(list.moves[rng(&seed) % (uint64_t)list.count], ev.move);
            else
                snprintf(ev.move, sizeof ev.move, "e2e4");
            ev.offer = rng(&seed) % 10 == 0;
        }
        if (type == GAME_EV_CLAIM)
            ev.claim = (uint8_t)(rng(&seed) % 4);
        if (type == GAME_EV_FLAG || type == GAME_EV_ADJUST || type == GAME_EV_ILLEGAL ||
            type == GAME_EV_PENALTY)
            ev.side = (int8_t)(rng(&seed) % 2);
        if (type == GAME_EV_ADJUST)
            ev.add_ms = 1000;
        if (type == GAME_EV_PENALTY) {
            ev.penalty = (uint8_t)(rng(&seed) % 2 ? GAME_PENALTY_WARNING : GAME_PENALTY_TIME_ADD);
            if (ev.penalty == GAME_PENALTY_TIME_ADD)
                ev.ms = 60000;
        }
        if (type == GAME_EV_TOUCH || type == GAME_EV_PRESS || type == GAME_EV_ILLEGAL_ACT ||
            type == GAME_EV_DISPLACED)
            ev.side = (int8_t)(rng(&seed) % 2);
        if (type == GAME_EV_TOUCH)
            ev.square = (int8_t)(rng(&seed) % 64);
        if (game_type_has_kind(type))
            ev.kind = (uint8_t)(rng(&seed) % 2);
        if (type == GAME_EV_DISPLACED && ev.kind == GAME_DISPLACED_WARNING && rng(&seed) % 2) {
            ev.kind = GAME_DISPLACED_TIME_ADD;
            ev.ms = 30000;
        }
        if (type == GAME_EV_RESTORE) /* takes plies back: the kept sheet must follow */
            ev.ply = st->nplies ? (int32_t)(rng(&seed) % (uint64_t)st->nplies) : 0;
        if (type == GAME_EV_RESULT) {
            ev.score[WHITE] = (int8_t)(rng(&seed) % 3);
            ev.score[BLACK] = (int8_t)(2 - ev.score[WHITE]);
        }
        if (rng(&seed) % 4 == 0)
            snprintf(ev.note, sizeof ev.note, "%s",
                     NOTES[rng(&seed) % (sizeof NOTES / sizeof NOTES[0])]);
        GameVerdict v;
        int code = game_apply(st, &ev, now, &v);
        compare(st, &sheet, &ev, &v, code == GAME_OK ? id++ : 0, now + 500);

        EventJsonText t = {0};
        event_json_text_event(&t, &ev, id, 5);
        json_t *j = event_json_to_json(&ev);
        json_object_set_new(j, "id", json_integer(id));
        json_object_set_new(j, "seq", json_integer(5));
        char *want = dump(j);
        ck_assert_str_eq(t.p, want);
        free(want);
        free(t.p);
        /* The stored form: no id, no seq; jansson keeps insertion order. */
        char *stored = event_json_format(&ev);
        want = json_dumps(j = event_json_to_json(&ev), JSON_COMPACT | JSON_PRESERVE_ORDER);
        json_decref(j);
        ck_assert_str_eq(stored, want);
        free(stored);
        free(want);
    }
    event_json_sheet_clear(&sheet);
    game_free(st);
}
END_TEST

START_TEST(invalid_utf8_falls_back)
{
    EventJsonText t = {0};
    event_json_text_str(&t, "bad \xc3 byte");
    ck_assert_int_eq(t.bad, 1);
    free(t.p);
    t = (EventJsonText){0};
    event_json_text_str(&t, "\xed\xa0\x80"); /* a surrogate */
    ck_assert_int_eq(t.bad, 1);
    free(t.p);
}
END_TEST

/* The arbiter's board events parse and print back to the same text; their
 * fields are checked by type. */
START_TEST(board_events_round_trip)
{
    static const char *const good[] = {
        "{\"type\":\"touch\",\"time_ms\":5,\"actor\":\"arbiter\",\"side\":\"white\","
        "\"ply\":2,\"square\":\"g1\"}",
        "{\"type\":\"press\",\"time_ms\":5,\"actor\":\"arbiter\",\"move\":\"e5\","
        "\"side\":\"black\"}",
        "{\"type\":\"illegal_act\",\"time_ms\":5,\"actor\":\"arbiter\",\"side\":\"black\","
        "\"kind\":\"two_hands\"}",
        "{\"type\":\"displaced\",\"time_ms\":5,\"actor\":\"arbiter\",\"side\":\"white\","
        "\"ms\":60000,\"kind\":\"time_sub\",\"note\":\"knocked over\"}",
        "{\"type\":\"displaced\",\"time_ms\":5,\"actor\":\"arbiter\",\"side\":\"white\"}",
        "{\"type\":\"setup\",\"time_ms\":5,\"actor\":\"arbiter\",\"kind\":\"orientation\"}",
        "{\"type\":\"dead_position\",\"time_ms\":5,\"actor\":\"arbiter\",\"kind\":\"alive\"}",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        GameEvent ev;
        char err[200] = "";
        ck_assert_msg(event_json_parse(good[i], &ev, err, sizeof err) == 0, "%s: %s", good[i], err);
        char *text = event_json_format(&ev);
        ck_assert_str_eq(text, good[i]);
        free(text);
    }
    static const char *const bad[] = {
        "{\"type\":\"touch\",\"time_ms\":5,\"actor\":\"arbiter\",\"side\":\"white\"}",
        "{\"type\":\"touch\",\"time_ms\":5,\"actor\":\"arbiter\",\"side\":\"white\","
        "\"square\":\"i9\"}",
        "{\"type\":\"illegal_act\",\"time_ms\":5,\"actor\":\"arbiter\",\"side\":\"white\","
        "\"kind\":\"orientation\"}",
        "{\"type\":\"displaced\",\"time_ms\":5,\"actor\":\"arbiter\",\"side\":\"white\","
        "\"kind\":\"warning\",\"ms\":1000}",
        "{\"type\":\"displaced\",\"time_ms\":5,\"actor\":\"arbiter\",\"side\":\"white\","
        "\"kind\":\"time_add\"}",
        "{\"type\":\"setup\",\"time_ms\":5,\"actor\":\"arbiter\"}",
        "{\"type\":\"dead_position\",\"time_ms\":5,\"actor\":\"arbiter\",\"kind\":\"dead\","
        "\"square\":\"e4\"}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        GameEvent ev;
        char err[200] = "";
        ck_assert_msg(event_json_parse(bad[i], &ev, err, sizeof err) == EVENT_JSON_E_INVALID,
                      "accepted %s", bad[i]);
        ck_assert_msg(err[0], "no message for %s", bad[i]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("event_text");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, random_games_match_jansson, 0, 24);
    tcase_add_test(tc, invalid_utf8_falls_back);
    tcase_add_test(tc, board_events_round_trip);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
