/*
 * test_laws.c — the Laws engine against scenarios written as data: each
 * directory of tests/data/laws/ holds events.jsonl (an event log, maybe
 * headed by a settings line) and expected.json (the parts of the resulting
 * state that the Laws decide, worked out by hand from the articles the
 * directory is named after).  Every key of expected.json must equal the
 * state's; objects compare recursively, arrays element by element
 * ("refused" lists the refused events by line and code; keys starting
 * with '_' are remarks, e.g. "_why" shows the clock arithmetic).
 *
 * Every scenario's PGN export must also pass pgn-extract (PGN_EXTRACT)
 * without a single error or warning.  And the codec round-trips every event.
 */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "event_json.h"
#include "game.h"
#include "game_pgn.h"
#include "testutil.h"

static char data_dir[512];

static void find_data(void)
{
    snprintf(data_dir, sizeof data_dir, "%s/laws", testutil_data_dir());
}

/* The event log of scenario NAME (its path into PATH), or NULL when the
 * directory entry has none. */
static FILE *open_events(const char *name, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s/events.jsonl", data_dir, name);
    return fopen(path, "r");
}

typedef struct Fold {
    GameState *st;
    json_t *refused;
    int64_t last;
} Fold;

/* Folds path, also checking that each event survives format/parse. */
static Fold fold_file(const char *path)
{
    Fold f = {NULL, json_array(), 0};
    FILE *in = fopen(path, "r");
    ck_assert_msg(in != NULL, "cannot open %s", path);
    GameSettings settings;
    game_settings_default(&settings);
    char line[4096], err[256];
    int lineno = 0;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        if (line[0] == '\n')
            continue;
        if (strstr(line, "\"settings\"")) {
            ck_assert_msg(event_json_settings_parse(line, &settings, err, sizeof err) == 0,
                          "%s:%d: %s", path, lineno, err);
            continue;
        }
        GameEvent ev, back;
        ck_assert_msg(event_json_parse(line, &ev, err, sizeof err) == 0, "%s:%d: %s", path, lineno,
                      err);
        char *text = event_json_format(&ev);
        ck_assert_ptr_nonnull(text);
        ck_assert_msg(event_json_parse(text, &back, err, sizeof err) == 0, "%s", err);
        ck_assert_msg(memcmp(&ev, &back, sizeof ev) == 0, "%s:%d: round trip differs: %s", path,
                      lineno, text);
        free(text);
        if (!f.st) {
            f.st = game_new(&settings, err, sizeof err);
            ck_assert_msg(f.st != NULL, "%s: %s", path, err);
        }
        GameVerdict v;
        if (game_apply(f.st, &ev, ev.time_ms, &v) != GAME_OK)
            json_array_append_new(f.refused,
                                  json_pack("{s:i,s:s,s:s}", "line", lineno, "code",
                                            event_json_code_name(v.code), "reason", v.reason));
        if (ev.time_ms > f.last)
            f.last = ev.time_ms;
    }
    fclose(in);
    if (!f.st)
        f.st = game_new(&settings, err, sizeof err);
    return f;
}

/* Appends to why where expected is not part of actual; returns mismatches. */
static int subset(const json_t *exp, const json_t *act, const char *at, char *why, size_t cap)
{
    if (json_is_object(exp)) {
        if (!json_is_object(act)) {
            snprintf(why + strlen(why), cap - strlen(why), "%s: not an object; ", at);
            return 1;
        }
        int bad = 0;
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)exp, k, v)
        {
            if (k[0] == '_')
                continue; /* "_why": the reasoning, for the reader */
            char sub[256];
            snprintf(sub, sizeof sub, "%s.%s", at, k);
            json_t *a = json_object_get(act, k);
            if (!a) {
                snprintf(why + strlen(why), cap - strlen(why), "%s: missing; ", sub);
                bad++;
            } else {
                bad += subset(v, a, sub, why, cap);
            }
        }
        return bad;
    }
    if (json_is_array(exp)) {
        if (!json_is_array(act) || json_array_size(exp) != json_array_size(act)) {
            char *a = json_dumps(act, JSON_COMPACT | JSON_ENCODE_ANY);
            snprintf(why + strlen(why), cap - strlen(why), "%s: got %s; ", at, a ? a : "?");
            free(a);
            return 1;
        }
        int bad = 0;
        for (size_t i = 0; i < json_array_size(exp); i++) {
            char sub[256];
            snprintf(sub, sizeof sub, "%s[%zu]", at, i);
            bad += subset(json_array_get(exp, i), json_array_get(act, i), sub, why, cap);
        }
        return bad;
    }
    bool eq = json_equal((json_t *)exp, (json_t *)act);
    if (!eq && json_is_number(exp) && json_is_number(act))
        eq = json_number_value(exp) == json_number_value(act);
    if (!eq) {
        char *e = json_dumps(exp, JSON_COMPACT | JSON_ENCODE_ANY);
        char *a = json_dumps(act, JSON_COMPACT | JSON_ENCODE_ANY);
        snprintf(why + strlen(why), cap - strlen(why), "%s: want %s, got %s; ", at, e ? e : "?",
                 a ? a : "?");
        free(e);
        free(a);
        return 1;
    }
    return 0;
}

/* Lines pgn-extract -r writes for a clean file. */
static bool harmless(const char *line)
{
    return strncmp(line, "Processing ", 11) == 0 ||
           strncmp(line, "White Player - Black Player", 27) == 0 ||
           strstr(line, " matched out of ") != NULL || line[0] == '\n';
}

static void check_pgn(const char *name, const GameState *st)
{
    const char *tool = getenv("PGN_EXTRACT");
    if (!tool || !*tool)
        return;
    GamePgnTags tags = {0};
    static const char *const kv[][2] = {
        {"Event", "Laws scenarios"}, {"White", "White Player"}, {"Black", "Black Player"},
        {"WhiteFideId", "1503014"},  {"BlackElo", "2100"},      {"Board", "1"},
    };
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++) {
        snprintf(tags.name[i], sizeof tags.name[i], "%s", kv[i][0]);
        snprintf(tags.value[i], sizeof tags.value[i], "%s", kv[i][1]);
        tags.count++;
    }
    char *buf = NULL, perr[200];
    ck_assert_msg(game_pgn(st, &tags, &buf, perr, sizeof perr) == 0, "%s: %s", name, perr);
    size_t n = strlen(buf);
    char small[64];
    ck_assert_uint_eq(game_pgn_write(st, &tags, small, sizeof small), n);
    ck_assert(strncmp(small, buf, sizeof small - 1) == 0 && strlen(small) == sizeof small - 1);
    ck_assert_uint_eq(game_pgn_write(st, &tags, NULL, 0), n);
    char pgn[] = "/tmp/arbiter-laws-XXXXXX";
    int fd = mkstemp(pgn);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, buf, n), (ssize_t)n);
    close(fd);
    char log[sizeof pgn + 4];
    snprintf(log, sizeof log, "%s.log", pgn);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' -r -l '%s' '%s' >/dev/null 2>&1", tool, log, pgn);
    int rc = system(cmd);
    FILE *l = fopen(log, "r");
    char line[512], complaints[2048] = "";
    while (l && fgets(line, sizeof line, l))
        if (!harmless(line))
            snprintf(complaints + strlen(complaints), sizeof complaints - strlen(complaints), "%s",
                     line);
    if (l)
        fclose(l);
    unlink(log);
    ck_assert_msg(rc == 0 && complaints[0] == '\0', "%s: pgn-extract: %s\n%s", name, complaints,
                  buf);
    /* pgn-extract replays our SAN to the same moves (its UCI output). */
    snprintf(cmd, sizeof cmd, "'%s' -Wuci --nocomments -s '%s' 2>/dev/null", tool, pgn);
    FILE *pipe = popen(cmd, "r");
    ck_assert_ptr_nonnull(pipe);
    char theirs[16384] = "", ours[16384] = "";
    while (fgets(line, sizeof line, pipe)) {
        if (line[0] == '[')
            continue;
        if (line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = '\0';
        snprintf(theirs + strlen(theirs), sizeof theirs - strlen(theirs), "%s ", line);
    }
    pclose(pipe);
    Board b = st->start;
    for (int i = 0; i < st->nplies; i++) {
        char uci[6];
        board_move_to_uci(st->plies[i].move, uci);
        snprintf(ours + strlen(ours), sizeof ours - strlen(ours), "%s ", uci);
        board_make(&b, st->plies[i].move);
    }
    for (char *c = theirs; *c; c++) /* pgn-extract writes e7e8Q */
        *c = (char)tolower((unsigned char)*c);
    /* Theirs ends with the result token. */
    char *last = strrchr(theirs, ' ');
    if (last) {
        *last = '\0';
        char *prev = strrchr(theirs, ' ');
        if (prev)
            prev[1] = '\0';
        else
            theirs[0] = '\0';
    }
    ck_assert_msg(strcmp(theirs, ours) == 0, "%s: pgn-extract reads\n%s\nwe played\n%s", name,
                  theirs, ours);
    unlink(pgn);
    /* Draw offers made with a move are marked (=); the Result and
     * Termination tags say how the game ended. */
    int offers = 0, marks = 0;
    for (int i = 0; i < st->nplies; i++)
        offers += (st->plies[i].flags & GAME_PLY_OFFER) != 0;
    for (const char *q = buf; (q = strstr(q, "(=)")) != NULL; q++)
        marks++;
    ck_assert_msg(marks >= offers, "%s: %d offers, %d (=) marks", name, offers, marks);
    char rbuf[16], want[64];
    const char *res = game_result_text(st, rbuf);
    if (strcmp(res, "1-0") && strcmp(res, "0-1") && strcmp(res, "1/2-1/2"))
        res = st->forfeit && st->score[0] + st->score[1] == 2 ? (st->score[0] == 2 ? "1-0" : "0-1")
                                                              : "*";
    snprintf(want, sizeof want, "[Result \"%s\"]", res);
    ck_assert_msg(strstr(buf, want) != NULL, "%s: no %s in\n%s", name, want, buf);
    snprintf(want, sizeof want, "[Termination \"%s\"]",
             !st->over                                                          ? "unterminated"
             : st->end == GAME_END_TIME                                         ? "time forfeit"
             : st->end == GAME_END_ILLEGAL_MOVES || st->end == GAME_END_PENALTY ? "rules infraction"
             : st->end == GAME_END_DEFAULT                                      ? "abandoned"
             : st->end == GAME_END_ARBITER                                      ? "adjudication"
                                                                                : "normal");
    ck_assert_msg(strstr(buf, want) != NULL, "%s: no %s in\n%s", name, want, buf);
    /* Every move is followed by its clock. */
    if (!st->settings.tc.untimed) {
        int clocks = 0;
        for (const char *p = buf; (p = strstr(p, "[%clk ")) != NULL; p++)
            clocks++;
        ck_assert_int_eq(clocks, st->nplies);
    }
    free(buf);
}

START_TEST(scenarios)
{
    char **names;
    int ndirs = testutil_list(data_dir, "", &names);
    int count = 0, failed = 0;
    char report[8192] = "";
    for (int i = 0; i < ndirs; i++) {
        const char *name = names[i];
        char path[1024], exp_path[1024];
        snprintf(path, sizeof path, "%s/%s/events.jsonl", data_dir, name);
        snprintf(exp_path, sizeof exp_path, "%s/%s/expected.json", data_dir, name);
        if (access(path, R_OK) != 0)
            continue;
        count++;
        json_error_t je;
        json_t *exp = json_load_file(exp_path, 0, &je);
        ck_assert_msg(exp != NULL, "%s: %s", exp_path, je.text);
        Fold f = fold_file(path);
        json_t *act = event_json_state_to_json(f.st, f.last);
        ck_assert_ptr_nonnull(act);
        json_object_set(act, "refused", f.refused);
        json_t *refused_exp = json_object_get(exp, "refused");
        if (!refused_exp)
            json_object_set_new(exp, "refused", json_array()); /* none unless listed */
        char why[2048] = "";
        if (subset(exp, act, name, why, sizeof why)) {
            failed++;
            snprintf(report + strlen(report), sizeof report - strlen(report), "\n%s", why);
        }
        check_pgn(name, f.st);
        json_decref(act);
        json_decref(exp);
        json_decref(f.refused);
        game_free(f.st);
    }
    testutil_list_free(names, ndirs);
    ck_assert_msg(count >= 40, "only %d scenarios found in %s", count, data_dir);
    ck_assert_msg(failed == 0, "%d of %d scenarios differ:%s", failed, count, report);
}
END_TEST

START_TEST(codec_is_strict)
{
    static const struct {
        const char *text, *why;
    } bad[] = {
        {"[1]", "must be a JSON object"},
        {"{\"type\":\"move\",\"time_ms\":1,\"actor\":\"white\"}", "needs field 'move'"},
        {"{\"type\":\"move\",\"time_ms\":1,\"actor\":\"white\",\"move\":\"e4\",\"colour\":1}",
         "unknown field 'colour'"},
        {"{\"type\":\"resign\",\"time_ms\":1,\"actor\":\"white\",\"move\":\"e4\"}",
         "does not belong"},
        {"{\"type\":\"move\",\"time_ms\":\"1\",\"actor\":\"white\",\"move\":\"e4\"}",
         "whole number"},
        {"{\"type\":\"move\",\"time_ms\":1.5,\"actor\":\"white\",\"move\":\"e4\"}", "whole number"},
        {"{\"type\":\"move\",\"time_ms\":-1,\"actor\":\"white\",\"move\":\"e4\"}", "from 0"},
        {"{\"type\":\"jump\",\"time_ms\":1,\"actor\":\"white\"}", "unknown event type 'jump'"},
        {"{\"type\":\"move\",\"time_ms\":1,\"actor\":\"queen\",\"move\":\"e4\"}", "'actor'"},
        {"{\"type\":\"result\",\"time_ms\":1,\"actor\":\"arbiter\",\"white\":1}", "needs field"},
        {"{\"type\":\"result\",\"time_ms\":1,\"actor\":\"arbiter\",\"white\":1,\"black\":2}",
         "0, 0.5 or 1"},
        {"{\"type\":\"penalty\",\"time_ms\":1,\"actor\":\"arbiter\",\"side\":\"white\","
         "\"penalty\":\"time_add\"}",
         "needs field 'ms'"},
        {"{\"type\":\"adjust\",\"time_ms\":1,\"actor\":\"arbiter\",\"side\":\"white\"}",
         "needs 'set_ms', 'add_ms' or 'moves'"},
        {"{\"type\":\"claim\",\"time_ms\":1,\"actor\":\"white\",\"claim\":\"perpetual\"}",
         "'claim'"},
        {"{\"type\":\"move\",\"time_ms\":1,\"time_ms\":2,\"actor\":\"white\",\"move\":\"e4\"}",
         "not valid JSON"},
        {"{\"type\":\"move\"", "not valid JSON"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        GameEvent ev;
        char err[256] = "";
        ck_assert_msg(event_json_parse(bad[i].text, &ev, err, sizeof err) == EVENT_JSON_E_INVALID,
                      "accepted: %s", bad[i].text);
        ck_assert_msg(strstr(err, bad[i].why) != NULL, "%s: '%s' lacks '%s'", bad[i].text, err,
                      bad[i].why);
    }
    GameSettings s;
    char err[256] = "";
    ck_assert_int_eq(
        event_json_settings_parse("{\"time_control\":\"40/5400\"}", &s, err, sizeof err),
        EVENT_JSON_E_INVALID);
    ck_assert_msg(strstr(err, "time_control") != NULL, "%s", err);
    ck_assert_int_eq(event_json_settings_parse("{\"flags\":\"sometimes\"}", &s, err, sizeof err),
                     EVENT_JSON_E_INVALID);
    ck_assert_int_eq(
        event_json_settings_parse("{\"fen\":\"8/8/8/8/8/8/8/8 w - - 0 1\"}", &s, err, sizeof err),
        EVENT_JSON_E_INVALID);
    /* Settings round-trip. */
    ck_assert_int_eq(event_json_settings_parse(
                         "{\"time_control\":\"W300+2-B240+2\",\"illegal_moves_to_lose\":2,"
                         "\"draw_offers\":\"sofia\",\"sofia_moves\":30,\"flags\":\"claimed\"}",
                         &s, err, sizeof err),
                     0);
    char *text = event_json_settings_format(&s);
    GameSettings t;
    ck_assert_int_eq(event_json_settings_parse(text, &t, err, sizeof err), 0);
    ck_assert(memcmp(&s, &t, sizeof s) == 0);
    free(text);
}
END_TEST

START_TEST(refusal_changes_nothing)
{
    /* Replaying only the accepted events gives the same state as replaying
     * everything, refusals included: a refused event leaves no trace. */
    char **names;
    int ndirs = testutil_list(data_dir, "", &names);
    for (int i = 0; i < ndirs; i++) {
        const char *name = names[i];
        char path[1024];
        FILE *in = open_events(name, path, sizeof path);
        if (!in)
            continue;
        GameSettings settings;
        game_settings_default(&settings);
        GameState *all = NULL, *kept = NULL;
        char line[4096], err[256];
        while (fgets(line, sizeof line, in)) {
            if (strstr(line, "\"settings\"")) {
                event_json_settings_parse(line, &settings, err, sizeof err);
                continue;
            }
            if (!all) {
                all = game_new(&settings, err, sizeof err);
                kept = game_new(&settings, err, sizeof err);
            }
            GameEvent ev;
            GameVerdict v;
            ck_assert_int_eq(event_json_parse(line, &ev, err, sizeof err), 0);
            if (game_apply(all, &ev, ev.time_ms, &v) == GAME_OK)
                ck_assert_int_eq(game_apply(kept, &ev, ev.time_ms, &v), GAME_OK);
        }
        fclose(in);
        if (all) {
            json_t *a = event_json_state_to_json(all, all->last_ms);
            json_t *b = event_json_state_to_json(kept, kept->last_ms);
            ck_assert_msg(json_equal(a, b), "%s: states differ", name);
            json_decref(a);
            json_decref(b);
        }
        game_free(all);
        game_free(kept);
    }
    testutil_list_free(names, ndirs);
}
END_TEST

static int apply(GameState *st, int type, int actor, int64_t t, const char *move)
{
    GameEvent ev;
    GameVerdict v;
    game_event_init(&ev, type, actor, t);
    if (move)
        snprintf(ev.move, sizeof ev.move, "%s", move);
    return game_apply(st, &ev, t, &v);
}

/* The arbiter's board events reach the PGN as comments after the move they
 * follow: the scoresheet says what the arbiter saw (8.1). */
START_TEST(board_events_in_the_pgn)
{
    GameState *st = game_new(NULL, NULL, 0);
    ck_assert_ptr_nonnull(st);
    st->settings.default_time_ms = -1;
    ck_assert_int_eq(apply(st, GAME_EV_START, GAME_ACTOR_ARBITER, 0, NULL), GAME_OK);
    ck_assert_int_eq(apply(st, GAME_EV_MOVE, GAME_ACTOR_WHITE, 1000, "e4"), GAME_OK);
    GameEvent ev;
    GameVerdict v;
    game_event_init(&ev, GAME_EV_PRESS, GAME_ACTOR_ARBITER, 9000);
    ev.side = BLACK;
    snprintf(ev.move, sizeof ev.move, "e5");
    ck_assert_int_eq(game_apply(st, &ev, 9000, &v), GAME_OK);
    game_event_init(&ev, GAME_EV_TOUCH, GAME_ACTOR_ARBITER, 10000);
    ev.side = WHITE;
    ev.square = SQ(6, 0); /* g1 */
    ck_assert_int_eq(game_apply(st, &ev, 10000, &v), GAME_OK);
    ck_assert_int_eq(apply(st, GAME_EV_MOVE, GAME_ACTOR_WHITE, 11000, "Bc4"), GAME_E_TOUCH);
    ck_assert_int_eq(apply(st, GAME_EV_MOVE, GAME_ACTOR_WHITE, 12000, "Nf3"), GAME_OK);
    game_event_init(&ev, GAME_EV_DISPLACED, GAME_ACTOR_ARBITER, 13000);
    ev.side = BLACK;
    ev.kind = GAME_DISPLACED_WARNING;
    ck_assert_int_eq(game_apply(st, &ev, 13000, &v), GAME_OK);
    GamePgnTags tags = {0};
    char *pgn = NULL, err[200];
    ck_assert_int_eq(game_pgn(st, &tags, &pgn, err, sizeof err), 0);
    for (char *c = pgn; *c; c++) /* movetext lines wrap at 80 columns */
        if (*c == '\n')
            *c = ' ';
    ck_assert_msg(strstr(pgn,
                         "1. e4 {[%clk 1:30:29]} 1... e5 {[%clk 1:30:22] Black did not press the "
                         "clock after e5 (6.2.1); the arbiter switches it now (6.2.2); White "
                         "touched the knight on g1: it must be moved (4.3.1)}"),
                  "%s", pgn);
    ck_assert_msg(strstr(pgn, "Black displaced pieces: the correct position is re-established in "
                              "Black's own time (7.4.1); Black is warned (7.4.3)"),
                  "%s", pgn);
    free(pgn);
    game_free(st);
}
END_TEST

START_TEST(deadlines_for_the_server_timer)
{
    GameSettings s;
    char err[160];
    game_settings_default(&s);
    ck_assert_int_eq(timecontrol_parse(&s.tc, "60+1", err, sizeof err), 0);
    s.default_time_ms = 30000;
    GameState *st = game_new(&s, err, sizeof err);
    ck_assert_ptr_nonnull(st);
    ck_assert_int_eq(game_next_deadline(st, 0), CLOCK_NEVER); /* not started */
    ck_assert_int_eq(apply(st, GAME_EV_CHECKIN, GAME_ACTOR_WHITE, 0, NULL), GAME_OK);
    ck_assert_int_eq(apply(st, GAME_EV_START, GAME_ACTOR_ARBITER, 1000, NULL), GAME_OK);
    /* Black absent: the default time passes first, just after 31 s. */
    ck_assert_int_eq(game_next_deadline(st, 1000), 31001);
    ck_assert_int_eq(apply(st, GAME_EV_CHECKIN, GAME_ACTOR_BLACK, 31000, NULL), GAME_OK);
    ck_assert_int_eq(game_next_deadline(st, 31000), 61000); /* White's flag */
    ck_assert_int_eq(game_flag_fallen(st, 60999), -1);
    ck_assert_int_eq(game_flag_fallen(st, 61000), WHITE);
    ck_assert_int_eq(apply(st, GAME_EV_MOVE, GAME_ACTOR_WHITE, 41000, "e4"), GAME_OK);
    ck_assert_int_eq(game_next_deadline(st, 41000), 41000 + 60000);
    ck_assert_int_eq(game_remaining(st, WHITE, 41000), 21000);
    ck_assert_int_eq(apply(st, GAME_EV_PAUSE, GAME_ACTOR_ARBITER, 50000, NULL), GAME_OK);
    ck_assert_int_eq(game_next_deadline(st, 50000), CLOCK_NEVER);
    ck_assert_int_eq(apply(st, GAME_EV_RESUME, GAME_ACTOR_ARBITER, 90000, NULL), GAME_OK);
    ck_assert_int_eq(game_next_deadline(st, 90000), 90000 + 51000);
    /* Out of order, or from the future: refused. */
    ck_assert_int_eq(apply(st, GAME_EV_MOVE, GAME_ACTOR_BLACK, 89999, "e5"), GAME_E_ORDER);
    GameEvent ev;
    GameVerdict v;
    game_event_init(&ev, GAME_EV_MOVE, GAME_ACTOR_BLACK, 95000);
    snprintf(ev.move, sizeof ev.move, "e5");
    ck_assert_int_eq(game_apply(st, &ev, 94000, &v), GAME_E_ORDER);
    /* A player may not pause; the arbiter may not move. */
    ck_assert_int_eq(apply(st, GAME_EV_PAUSE, GAME_ACTOR_BLACK, 95000, NULL), GAME_E_ACTOR);
    ck_assert_int_eq(apply(st, GAME_EV_MOVE, GAME_ACTOR_ARBITER, 95000, "e5"), GAME_E_ACTOR);
    ck_assert_int_eq(apply(st, GAME_EV_MOVE, GAME_ACTOR_WHITE, 95000, "d4"), GAME_E_TURN);
    /* The flag falls at 141 s: a move then is refused, the flag event ends it. */
    ck_assert_int_eq(apply(st, GAME_EV_MOVE, GAME_ACTOR_BLACK, 141000, "e5"), GAME_E_FLAG_FELL);
    ck_assert_int_eq(apply(st, GAME_EV_FLAG, GAME_ACTOR_SERVER, 141000, NULL), GAME_OK);
    ck_assert(st->over);
    ck_assert_int_eq(st->end_ms, 141000);
    ck_assert_int_eq(game_next_deadline(st, 141000), CLOCK_NEVER);
    game_free(st);
    game_free(NULL);
}
END_TEST

START_TEST(a_waiting_players_flag_is_due_at_once)
{
    /* 6.10 / 12.9: the arbiter takes all of Black's time while White's
     * clock runs.  Black's flag is down at that instant, and the server,
     * which calls flags, must record it then, not when White's own flag
     * would fall. */
    GameSettings s;
    char err[160];
    game_settings_default(&s);
    ck_assert_int_eq(timecontrol_parse(&s.tc, "60", err, sizeof err), 0);
    GameState *st = game_new(&s, err, sizeof err);
    ck_assert_ptr_nonnull(st);
    ck_assert_int_eq(apply(st, GAME_EV_CHECKIN, GAME_ACTOR_WHITE, 0, NULL), GAME_OK);
    ck_assert_int_eq(apply(st, GAME_EV_CHECKIN, GAME_ACTOR_BLACK, 0, NULL), GAME_OK);
    ck_assert_int_eq(apply(st, GAME_EV_START, GAME_ACTOR_ARBITER, 0, NULL), GAME_OK);
    ck_assert_int_eq(apply(st, GAME_EV_MOVE, GAME_ACTOR_WHITE, 5000, "e4"), GAME_OK);
    ck_assert_int_eq(apply(st, GAME_EV_MOVE, GAME_ACTOR_BLACK, 6000, "e5"), GAME_OK);
    ck_assert_int_eq(game_next_deadline(st, 6000), 6000 + 55000); /* White's */
    GameEvent ev;
    GameVerdict v;
    game_event_init(&ev, GAME_EV_PENALTY, GAME_ACTOR_ARBITER, 8000);
    ev.side = BLACK;
    ev.penalty = GAME_PENALTY_TIME_SUB;
    ev.ms = 100000;
    ck_assert_int_eq(game_apply(st, &ev, 8000, &v), GAME_OK);
    ck_assert_int_eq(game_flag_fallen(st, 8000), BLACK);
    ck_assert_int_eq(game_next_deadline(st, 8000), 8000);
    ck_assert_int_eq(game_next_deadline(st, 9000), 8000);
    ck_assert_int_eq(apply(st, GAME_EV_FLAG, GAME_ACTOR_SERVER, 8000, NULL), GAME_OK);
    ck_assert(st->over);
    ck_assert_int_eq(st->end_ms, 8000);
    ck_assert_int_eq(st->score[WHITE], 2);
    game_free(st);
}
END_TEST

START_TEST(codec_survives_damaged_lines)
{
    /* Every prefix of every scenario line, and every line with one byte
     * changed, is parsed or refused with a message; never a crash. */
    char **names;
    int ndirs = testutil_list(data_dir, "", &names);
    int refused = 0, tried = 0;
    for (int i = 0; i < ndirs; i++) {
        const char *name = names[i];
        char path[1024];
        FILE *in = open_events(name, path, sizeof path);
        if (!in)
            continue;
        char line[4096];
        while (fgets(line, sizeof line, in)) {
            size_t n = strlen(line);
            for (size_t k = 0; k < n; k++) {
                char copy[4096];
                GameEvent ev;
                char err[256] = "";
                memcpy(copy, line, k);
                copy[k] = '\0';
                int rc = event_json_parse(copy, &ev, err, sizeof err);
                ck_assert(rc == 0 || (rc == EVENT_JSON_E_INVALID && err[0]));
                memcpy(copy, line, n + 1);
                copy[k] = (char)(copy[k] ^ 0x21);
                err[0] = '\0';
                rc = event_json_parse(copy, &ev, err, sizeof err);
                ck_assert(rc == 0 || (rc == EVENT_JSON_E_INVALID && err[0]));
                refused += rc != 0;
                tried += 2;
            }
        }
        fclose(in);
    }
    testutil_list_free(names, ndirs);
    ck_assert_int_gt(refused, tried / 4);
}
END_TEST

/* A small deterministic generator (xorshift), so failures replay. */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

START_TEST(random_events_refused_leave_no_trace)
{
    /* Random event streams: every refusal must leave the state exactly as
     * it was, and nothing may crash (the sanitizer run watches). */
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    int refused = 0, accepted = 0;
    for (int game = 0; game < 40; game++) {
        GameSettings s;
        char err[160];
        game_settings_default(&s);
        static const char *const tcs[] = {"60+1", "40/120+1:60", "30d2", "20b2", "-"};
        timecontrol_parse(&s.tc, tcs[game % 5], err, sizeof err);
        s.flags_claimed = game % 3 == 0;
        s.default_time_ms = game % 4 == 0 ? -1 : 5000;
        s.draw_offers = (uint8_t)(game % 3);
        s.sofia_moves = 3;
        GameState *st = game_new(&s, err, sizeof err);
        ck_assert_ptr_nonnull(st);
        int64_t t = 0;
        for (int k = 0; k < 70; k++) {
            GameEvent ev;
            int type = (int)(rnd(&seed) % GAME_EV_COUNT);
            if (rnd(&seed) % 2 ||
                ((type == GAME_EV_RESIGN || type == GAME_EV_RESULT || type == GAME_EV_PENALTY) &&
                 rnd(&seed) % 8))
                type = GAME_EV_MOVE;
            if (k < 3)
                type = k < 2 ? GAME_EV_CHECKIN : GAME_EV_START;
            int actor = (int)(rnd(&seed) % 4);
            if (k < 3)
                actor = k < 2 ? k : GAME_ACTOR_ARBITER;
            if (type == GAME_EV_MOVE && rnd(&seed) % 4)
                actor = st->board.side;
            t += (int64_t)(rnd(&seed) % 3000);
            game_event_init(&ev, type, actor, t);
            MoveList list;
            movegen_legal_moves(&st->board, &list);
            uint64_t r = rnd(&seed) % 10;
            if (r < 7 && list.count) {
                board_move_to_uci(list.moves[rnd(&seed) % (uint64_t)list.count], ev.move);
            } else if (r < 9) {
                snprintf(ev.move, sizeof ev.move, "%c%c%c%c", (char)('a' + rnd(&seed) % 8),
                         (char)('1' + rnd(&seed) % 8), (char)('a' + rnd(&seed) % 8),
                         (char)('1' + rnd(&seed) % 8));
            } else {
                snprintf(ev.move, sizeof ev.move, "Zz%d", (int)(rnd(&seed) % 100));
            }
            ev.offer = rnd(&seed) % 5 == 0;
            ev.claim = (uint8_t)(rnd(&seed) % 2);
            ev.side = (int8_t)((int)(rnd(&seed) % 3) - 1);
            ev.penalty = (uint8_t)(rnd(&seed) % GAME_PENALTY_COUNT);
            ev.ms = (int64_t)(rnd(&seed) % 200000);
            ev.score[0] = (int8_t)(rnd(&seed) % 3);
            ev.score[1] = (int8_t)(rnd(&seed) % 3);
            if (rnd(&seed) % 2)
                ev.set_ms = (int64_t)(rnd(&seed) % 100000);
            else
                ev.add_ms = (int64_t)(rnd(&seed) % 100000) - 50000;
            ev.ply = (int32_t)(rnd(&seed) % (uint64_t)(st->nplies + 2)) - 1;
            json_t *before = event_json_state_to_json(st, t);
            GameVerdict v;
            if (game_apply(st, &ev, t, &v) != GAME_OK) {
                json_t *after = event_json_state_to_json(st, t);
                ck_assert_msg(json_equal(before, after),
                              "game %d event %d (%s): refused (%s) "
                              "but changed the state",
                              game, k, game_event_type_name(type), v.reason);
                ck_assert(v.reason[0] != '\0');
                json_decref(after);
                refused++;
            } else {
                accepted++;
            }
            json_decref(before);
        }
        game_free(st);
    }
    ck_assert_int_gt(accepted, 500);
    ck_assert_int_gt(refused, 500);
}
END_TEST

int main(void)
{
    find_data();
    Suite *s = suite_create("laws");
    TCase *tc = tcase_create("laws");
    tcase_add_test(tc, scenarios);
    tcase_add_test(tc, codec_is_strict);
    tcase_add_test(tc, refusal_changes_nothing);
    tcase_add_test(tc, deadlines_for_the_server_timer);
    tcase_add_test(tc, board_events_in_the_pgn);
    tcase_add_test(tc, a_waiting_players_flag_is_due_at_once);
    tcase_add_test(tc, codec_survives_damaged_lines);
    tcase_add_test(tc, random_events_refused_leave_no_trace);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
