/*
 * test_team.c — the team event model: settings defaults, rosters, board
 * colours by scheme, match scores (boards, forfeits, byes) and the
 * initial ranking order.
 */
#include <check.h>

#include "team.h"
#include "testutil.h"

START_TEST(defaults)
{
    TeamSettings s;
    team_settings_default(&s, 4);
    ck_assert_int_eq(s.mp_win, 20);
    ck_assert_int_eq(s.pab_gp, 25);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("team");
    TCase *tc = tcase_create("team");
    tcase_add_test(tc, defaults);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
