/*
 * testutil_store.c — shared helpers of the Check programs that test the
 * store (see testutil_store.h).
 */
#include "testutil_store.h"

Store *testutil_store_open(void)
{
    Store *s;
    char err[256];
    ck_assert_msg(store_open(testutil_db_path, 0, &s, err, sizeof err) == 0, "%s", err);
    return s;
}

void testutil_store_round(Store *s, int games)
{
    /* One transaction, so that a round of hundreds of games is one fsync. */
    ck_assert_int_eq(store_run(s, NULL, "BEGIN", ""), 0);
    ck_assert_int_eq(store_run(s, NULL,
                               "INSERT INTO tournaments(name, time_control, created_ms) "
                               "VALUES ('T', '5400+30', 0)",
                               ""),
                     0);
    ck_assert_int_eq(store_run(s, NULL,
                               "INSERT INTO players(tournament_id, name) VALUES (1, 'A'), (1, 'B')",
                               ""),
                     0);
    ck_assert_int_eq(
        store_run(s, NULL, "INSERT INTO rounds(tournament_id, number) VALUES (1, 1)", ""), 0);
    for (int i = 1; i <= games; i++)
        ck_assert_int_eq(store_run(s, NULL,
                                   "INSERT INTO games(tournament_id, round, board, white_id, "
                                   "black_id) VALUES (1, 1, ?1, 1, 2)",
                                   "i", (int64_t)i),
                         0);
    ck_assert_int_eq(store_run(s, NULL, "COMMIT", ""), 0);
}
