/*
 * test_timecontrol.c — the TimeControl grammar (PGN, FIDE periods, delay,
 * TRF 222 odds), its canonical printing, and the Appendix A/B category.
 */
#include <check.h>
#include <string.h>

#include "timecontrol.h"
#include "testutil.h"

static TimeControl parse_ok(const char *text)
{
    TimeControl tc;
    char err[160] = "";
    ck_assert_msg(timecontrol_parse(&tc, text, err, sizeof err) == 0, "%s: %s", text, err);
    return tc;
}

START_TEST(parses_fide_forms)
{
    TimeControl tc = parse_ok("40/5400+30:1800+30");
    ck_assert_int_eq(tc.side[0].nperiods, 2);
    ck_assert_int_eq(tc.side[0].periods[0].moves, 40);
    ck_assert_int_eq(tc.side[0].periods[0].base_ms, 5400000);
    ck_assert_int_eq(tc.side[0].periods[0].bonus, TC_BONUS_FISCHER);
    ck_assert_int_eq(tc.side[0].periods[0].bonus_ms, 30000);
    ck_assert_int_eq(tc.side[0].periods[1].moves, 0);
    ck_assert_int_eq(tc.side[0].periods[1].base_ms, 1800000);
    ck_assert(!tc.odds);
    ck_assert(timecontrol_equal(&tc, &tc));

    tc = parse_ok("300");
    ck_assert_int_eq(tc.side[1].periods[0].base_ms, 300000);
    ck_assert_int_eq(tc.side[1].periods[0].bonus, TC_BONUS_NONE);

    tc = parse_ok("5400d10");
    ck_assert_int_eq(tc.side[0].periods[0].bonus, TC_BONUS_DELAY);
    tc = parse_ok("5400b10");
    ck_assert_int_eq(tc.side[0].periods[0].bonus, TC_BONUS_BRONSTEIN);
    tc = parse_ok("180+2.5");
    ck_assert_int_eq(tc.side[0].periods[0].bonus_ms, 2500);

    tc = parse_ok("W300-B240");
    ck_assert(tc.odds);
    ck_assert_int_eq(tc.side[0].periods[0].base_ms, 300000);
    ck_assert_int_eq(tc.side[1].periods[0].base_ms, 240000);

    tc = parse_ok("-");
    ck_assert(tc.untimed);
}
END_TEST

START_TEST(prints_canonically)
{
    static const char *const same[] = {
        "40/5400+30:1800+30",     "5400+30",   "300",           "180+2.5",           "5400d10",
        "40/7200b5:3600b5",       "W300-B240", "W300+2-B240+2", "40/6000+30:900+30", "-",
        "40/7200:20/3600:900+30",
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        TimeControl tc = parse_ok(same[i]), back;
        char out[TC_TEXT_MAX];
        timecontrol_format(&tc, out);
        ck_assert_str_eq(out, same[i]);
        back = parse_ok(out);
        ck_assert(timecontrol_equal(&tc, &back));
    }
    /* Equal odds collapse to the plain form; "+0" is no increment. */
    char out[TC_TEXT_MAX];
    TimeControl tc = parse_ok("W600+5-B600+5");
    timecontrol_format(&tc, out);
    ck_assert_str_eq(out, "600+5");
    tc = parse_ok(" 900+0 ");
    timecontrol_format(&tc, out);
    ck_assert_str_eq(out, "900");
}
END_TEST

START_TEST(refuses_with_reasons)
{
    static const struct {
        const char *text, *why;
    } bad[] = {
        {"", "empty"},
        {"?", "unknown"},
        {"*180", "sandclock"},
        {"40/5400", "rest of the game"},
        {"5400:1800", "only the last period"},
        {"0/5400", "at least one move"},
        {"5400+", "number of seconds"},
        {"5400x30", "unexpected character"},
        {"99999999", "more than a day"},
        {"1.2345", "three decimals"},
        {"W300", "'-B'"},
        {"40/5400:40/5400:40/5400:40/5400:900", "more than 4 periods"},
        {"0", "no time"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        TimeControl tc;
        char err[160] = "";
        ck_assert_msg(timecontrol_parse(&tc, bad[i].text, err, sizeof err) == TC_E_SYNTAX,
                      "'%s' accepted", bad[i].text);
        ck_assert_msg(strstr(err, bad[i].why) != NULL, "'%s': '%s' lacks '%s'", bad[i].text, err,
                      bad[i].why);
    }
}
END_TEST

START_TEST(category_by_appendices)
{
    static const struct {
        const char *text;
        int cat;
    } cases[] = {
        {"300+2", TC_BLITZ},                            /* 5 + 2 = 7 min */
        {"180+2", TC_BLITZ},      {"600", TC_BLITZ},    /* exactly 10 min: blitz (B.1) */
        {"601", TC_RAPID},        {"900+10", TC_RAPID}, /* 15 + 10 = 25 min */
        {"1500+10", TC_RAPID},                          /* 25 + 10 = 35 */
        {"3000+10", TC_STANDARD},                       /* 50 + 10 = 60: not under 60, standard */
        {"2999+10", TC_RAPID},    {"5400+30", TC_STANDARD}, {"40/5400+30:1800+30", TC_STANDARD},
        {"W300-B240", TC_BLITZ},  {"-", TC_UNTIMED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TimeControl tc = parse_ok(cases[i].text);
        ck_assert_msg(timecontrol_category(&tc) == cases[i].cat, "%s", cases[i].text);
    }
    TimeControl tc = parse_ok("900+10");
    ck_assert_int_eq(timecontrol_penalty_ms(&tc), 60000);
    tc = parse_ok("5400+30");
    ck_assert_int_eq(timecontrol_penalty_ms(&tc), 120000);
    ck_assert_str_eq(timecontrol_category_name(TC_RAPID), "rapid");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("timecontrol");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, parses_fide_forms);
    tcase_add_test(tc, prints_canonically);
    tcase_add_test(tc, refuses_with_reasons);
    tcase_add_test(tc, category_by_appendices);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
