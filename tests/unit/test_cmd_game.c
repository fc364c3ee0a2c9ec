/*
 * test_cmd_game.c — `arbiter game` and `arbiter pgn` as programs: output,
 * exit status (0 ok, 1 refused events, 2 bad input, 3 unreadable file),
 * standard input, and messages that name the line.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include <jansson.h>

static char out[1 << 18];

START_TEST(game_prints_the_state)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' game '%s/laws/5.1.1-checkmate/events.jsonl'", testutil_bin(),
             testutil_data_dir());
    ck_assert_int_eq(testutil_capture(cmd, out, sizeof out), 0);
    json_error_t je;
    json_t *o = json_loads(out, 0, &je);
    ck_assert_msg(o != NULL, "%s", je.text);
    ck_assert_str_eq(json_string_value(json_object_get(o, "result")), "1-0");
    ck_assert_str_eq(json_string_value(json_object_get(o, "termination")), "checkmate");
    ck_assert_int_eq(json_array_size(json_object_get(o, "refused")), 0);
    json_decref(o);
    /* Standard input, and --now reads the clocks later. */
    snprintf(cmd, sizeof cmd,
             "printf '%%s\\n' '{\"type\":\"start\",\"time_ms\":0,\"actor\":\"arbiter\"}' "
             "| '%s' game --now 1000 -",
             testutil_bin());
    ck_assert_int_eq(testutil_capture(cmd, out, sizeof out), 0);
    o = json_loads(out, 0, &je);
    ck_assert_ptr_nonnull(o);
    /* Default 5400+30; nobody checked in, so the default time (0) has
     * passed: the server's next deadline is 1 ms after the start. */
    json_t *clock = json_object_get(o, "clock");
    ck_assert_int_eq(json_integer_value(json_object_get(clock, "white_ms")), 5399000);
    ck_assert_int_eq(json_integer_value(json_object_get(clock, "deadline_ms")), 1);
    json_decref(o);
}
END_TEST

START_TEST(exit_statuses_and_messages)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' game '%s/laws/7.5-illegal-entry-reject/events.jsonl' 2>&1",
             testutil_bin(), testutil_data_dir());
    ck_assert_int_eq(testutil_capture(cmd, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "events.jsonl:5: move refused (illegal)") != NULL, "%s", out);
    snprintf(cmd, sizeof cmd,
             "printf '%%s\\n' '{\"type\":\"start\",\"time_ms\":0,\"actor\":\"arbiter\"}' "
             "'{\"type\":\"move\",\"time_ms\":1,\"actor\":\"white\",\"mvoe\":\"e4\"}' "
             "| '%s' game 2>&1 >/dev/null",
             testutil_bin());
    ck_assert_int_eq(testutil_capture(cmd, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "stdin:2: unknown field 'mvoe'") != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, "'%s' game /nonexistent/log.jsonl 2>&1", testutil_bin());
    ck_assert_int_eq(testutil_capture(cmd, out, sizeof out), 3);
    ck_assert_msg(strstr(out, "cannot open") != NULL, "%s", out);
    snprintf(cmd, sizeof cmd, "'%s' pgn --tag 'Bad Name=x' 2>&1 </dev/null", testutil_bin());
    ck_assert_int_eq(testutil_capture(cmd, out, sizeof out), 2);
}
END_TEST

START_TEST(pgn_prints_the_scoresheet)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' pgn --tag 'White=Doe, John' --tag WhiteFideId=1503014 --tag Board=7 "
             "'%s/laws/9.5.3-incorrect-claim-penalty-and-play-on/events.jsonl'",
             testutil_bin(), testutil_data_dir());
    ck_assert_int_eq(testutil_capture(cmd, out, sizeof out), 0);
    static const char *const want[] = {
        "[White \"Doe, John\"]",
        "[WhiteFideId \"1503014\"]",
        "[Board \"7\"]",
        "[TimeControl \"900+10\"]",
        "[Termination \"unterminated\"]",
        "1. Nf3 {[%clk 0:15:09]}",
        "incorrect, Black +60 s (9.5.3)",
        "3... Nc6 {[%clk 0:16:27]} *",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(out, want[i]) != NULL, "no '%s' in\n%s", want[i], out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cmd_game");
    TCase *tc = tcase_create("cmd_game");
    tcase_add_test(tc, game_prints_the_state);
    tcase_add_test(tc, exit_statuses_and_messages);
    tcase_add_test(tc, pgn_prints_the_scoresheet);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
