/*
 * test_clock.c — the clock as a function of presses and instants: Fischer
 * increment from move 1, simple and Bronstein delay (never adding time),
 * period change on the player's own 40th move, pause over a deadline,
 * arbiter adjustments, moves taken back over a time control, time taken
 * to zero.
 */
#include <check.h>

#include "clock.h"
#include "testutil.h"

static Clock make(const char *text)
{
    TimeControl tc;
    char err[160];
    ck_assert_msg(timecontrol_parse(&tc, text, err, sizeof err) == 0, "%s", err);
    Clock c;
    clock_init(&c, &tc);
    return c;
}

START_TEST(fischer_from_move_one)
{
    Clock c = make("300+2");
    clock_start(&c, WHITE, 1000);
    ck_assert_int_eq(clock_remaining(&c, WHITE, 6000), 295000);
    clock_press(&c, 6000, false); /* White used 5 s, gets 2 s */
    ck_assert_int_eq(clock_remaining(&c, WHITE, 9000), 297000);
    ck_assert_int_eq(clock_remaining(&c, BLACK, 9000), 297000);
    ck_assert_int_eq(clock_deadline(&c, 9000), 6000 + 300000);
    clock_press(&c, 9000, true); /* no increment for this press */
    ck_assert_int_eq(clock_remaining(&c, BLACK, 9000), 297000);
    ck_assert_int_eq(c.moves[WHITE], 1);
    ck_assert_int_eq(c.moves[BLACK], 1);
}
END_TEST

START_TEST(flag_instant)
{
    Clock c = make("60");
    clock_start(&c, WHITE, 0);
    ck_assert_int_eq(clock_deadline(&c, 0), 60000);
    ck_assert(!clock_flag_fallen(&c, WHITE, 59999));
    ck_assert(clock_flag_fallen(&c, WHITE, 60000));
    ck_assert_int_eq(clock_flag_time(&c, WHITE, 70000), 60000);
    ck_assert(!clock_flag_fallen(&c, BLACK, 70000));
    /* Claimed flags: White moves after the flag; the instant is kept. */
    clock_press(&c, 70000, false);
    ck_assert_int_eq(clock_remaining(&c, WHITE, 70000), -10000);
    ck_assert_int_eq(clock_flag_time(&c, WHITE, 80000), 60000);
}
END_TEST

START_TEST(simple_delay_never_adds)
{
    Clock c = make("60d5");
    clock_start(&c, WHITE, 0);
    ck_assert_int_eq(clock_remaining(&c, WHITE, 3000), 60000); /* within the delay */
    ck_assert_int_eq(clock_deadline(&c, 0), 65000);
    clock_press(&c, 3000, false); /* 3 s used, all within the delay */
    ck_assert_int_eq(clock_remaining(&c, WHITE, 3000), 60000);
    clock_press(&c, 4000, false);  /* Black */
    clock_press(&c, 12000, false); /* White: 8 s, 3 s charged */
    ck_assert_int_eq(clock_remaining(&c, WHITE, 12000), 57000);
    ck_assert_int_eq(clock_remaining(&c, BLACK, 12000), 60000);
}
END_TEST

START_TEST(bronstein_delay)
{
    Clock c = make("60b5");
    clock_start(&c, WHITE, 0);
    ck_assert_int_eq(clock_remaining(&c, WHITE, 3000), 57000); /* the time runs */
    ck_assert_int_eq(clock_deadline(&c, 0), 60000);            /* and can flag */
    clock_press(&c, 3000, false); /* 3 s given back: never more than used */
    ck_assert_int_eq(clock_remaining(&c, WHITE, 3000), 60000);
    clock_press(&c, 4000, false);
    clock_press(&c, 12000, false); /* 8 s used, 5 back */
    ck_assert_int_eq(clock_remaining(&c, WHITE, 12000), 57000);
}
END_TEST

START_TEST(period_change_on_own_fortieth_move)
{
    Clock c = make("40/5400+30:1800+30");
    clock_start(&c, WHITE, 0);
    int64_t t = 0;
    for (int i = 0; i < 39; i++) { /* 39 moves each, 10 s each */
        clock_press(&c, t += 10000, false);
        clock_press(&c, t += 10000, false);
    }
    ck_assert_int_eq(clock_moves_to_control(&c, WHITE), 1);
    ck_assert_int_eq(clock_remaining(&c, WHITE, t), 5400000 - 39 * 10000 + 39 * 30000);
    clock_press(&c, t += 10000, false); /* White's 40th */
    ck_assert_int_eq(c.period[WHITE], 1);
    ck_assert_int_eq(clock_remaining(&c, WHITE, t), 5400000 - 40 * 10000 + 40 * 30000 + 1800000);
    /* Black has not completed his 40th move: no new time yet. */
    ck_assert_int_eq(c.period[BLACK], 0);
    ck_assert_int_eq(clock_remaining(&c, BLACK, t), 5400000 - 39 * 10000 + 39 * 30000);
    ck_assert_int_eq(clock_moves_to_control(&c, WHITE), 0);
    clock_press(&c, t += 10000, false);
    ck_assert_int_eq(c.period[BLACK], 1);
}
END_TEST

START_TEST(pause_over_a_deadline)
{
    Clock c = make("60");
    clock_start(&c, WHITE, 0);
    clock_pause(&c, 50000);
    ck_assert_int_eq(clock_deadline(&c, 50000), CLOCK_NEVER);
    ck_assert(!clock_flag_fallen(&c, WHITE, 100000)); /* paused over 60 s */
    ck_assert_int_eq(clock_remaining(&c, WHITE, 100000), 10000);
    clock_resume(&c, 200000);
    ck_assert_int_eq(clock_deadline(&c, 200000), 210000);
    ck_assert(!clock_flag_fallen(&c, WHITE, 209999));
    ck_assert(clock_flag_fallen(&c, WHITE, 210000));
    /* A pause after the flag keeps the instant it fell. */
    clock_pause(&c, 220000);
    ck_assert_int_eq(clock_flag_time(&c, WHITE, 300000), 210000);
}
END_TEST

START_TEST(arbiter_adjusts)
{
    Clock c = make("40/5400:1800");
    clock_start(&c, WHITE, 0);
    clock_set(&c, WHITE, 100000, 30000); /* reading at 30 s becomes 100 s */
    ck_assert_int_eq(clock_remaining(&c, WHITE, 30000), 100000);
    ck_assert_int_eq(clock_remaining(&c, WHITE, 40000), 90000);
    clock_add(&c, BLACK, 120000);
    ck_assert_int_eq(clock_remaining(&c, BLACK, 40000), 5520000);
    clock_set_moves(&c, WHITE, 40);
    ck_assert_int_eq(c.period[WHITE], 1);
    ck_assert_int_eq(clock_remaining(&c, WHITE, 40000), 90000); /* no time added */
    clock_set_moves(&c, WHITE, 39);
    ck_assert_int_eq(c.period[WHITE], 0);
    clock_stop(&c, 50000);
    ck_assert_int_eq(clock_remaining(&c, WHITE, 999999), 80000);
    ck_assert_int_eq(clock_deadline(&c, 999999), CLOCK_NEVER);
}
END_TEST

START_TEST(take_back_over_two_controls)
{
    /* 2 moves in 10 min, 2 more in 5 min, then 1 min: a player who has
     * completed 4 moves has been given 5 + 1 min; taking 3 of them back
     * puts him in the first period again, and both times go back with
     * them (6.3: they come again at his 2nd and 4th moves). */
    Clock c = make("2/600:2/300:60");
    clock_start(&c, WHITE, 0);
    int64_t t = 0;
    for (int i = 0; i < 4; i++) {
        clock_press(&c, t += 1000, false);
        clock_press(&c, t += 1000, false);
    }
    ck_assert_int_eq(c.period[WHITE], 2);
    ck_assert_int_eq(c.main_ms[WHITE], 600000 - 4000 + 300000 + 60000);
    clock_take_back(&c, WHITE, 3);
    ck_assert_int_eq(c.moves[WHITE], 1);
    ck_assert_int_eq(c.period[WHITE], 0);
    ck_assert_int_eq(c.main_ms[WHITE], 600000 - 4000);
    ck_assert_int_eq(clock_moves_to_control(&c, WHITE), 1);
    /* Within a period nothing but the counter changes; never below 0. */
    clock_take_back(&c, BLACK, 1);
    ck_assert_int_eq(c.period[BLACK], 1);
    ck_assert_int_eq(c.main_ms[BLACK], 600000 - 4000 + 300000);
    clock_take_back(&c, BLACK, 9);
    ck_assert_int_eq(c.moves[BLACK], 0);
    ck_assert_int_eq(c.main_ms[BLACK], 600000 - 4000);
}
END_TEST

START_TEST(time_taken_to_zero)
{
    Clock c = make("60");
    /* Before the start nothing runs: the clock just reads 0 and the flag
     * falls when it starts. */
    clock_take(&c, BLACK, 70000, 0);
    ck_assert_int_eq(clock_remaining(&c, BLACK, 0), 0);
    ck_assert_int_eq(c.flag_ms[BLACK], CLOCK_NEVER);
    clock_set(&c, BLACK, 60000, 0);
    clock_start(&c, WHITE, 0);
    clock_take(&c, WHITE, 5000, 10000); /* some left: 60 - 10 - 5 */
    ck_assert_int_eq(clock_remaining(&c, WHITE, 10000), 45000);
    ck_assert(!clock_flag_fallen(&c, WHITE, 10000));
    clock_take(&c, WHITE, 50000, 20000); /* 35 s left, 50 taken: falls now */
    ck_assert_int_eq(clock_flag_time(&c, WHITE, 30000), 20000);
    ck_assert_int_eq(clock_remaining(&c, WHITE, 20000), 0);
    /* The waiting side's flag falls at the instant its time is taken. */
    clock_take(&c, BLACK, 60000, 25000);
    ck_assert_int_eq(clock_flag_time(&c, BLACK, 40000), 25000);
}
END_TEST

START_TEST(untimed_never_flags)
{
    Clock c = make("-");
    clock_start(&c, WHITE, 0);
    ck_assert_int_eq(clock_deadline(&c, 0), CLOCK_NEVER);
    ck_assert(!clock_flag_fallen(&c, WHITE, 1000000000));
    clock_press(&c, 5000, false);
    ck_assert_int_eq(c.moves[WHITE], 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("clock");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, fischer_from_move_one);
    tcase_add_test(tc, flag_instant);
    tcase_add_test(tc, simple_delay_never_adds);
    tcase_add_test(tc, bronstein_delay);
    tcase_add_test(tc, period_change_on_own_fortieth_move);
    tcase_add_test(tc, pause_over_a_deadline);
    tcase_add_test(tc, arbiter_adjusts);
    tcase_add_test(tc, take_back_over_two_controls);
    tcase_add_test(tc, time_taken_to_zero);
    tcase_add_test(tc, untimed_never_flags);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
