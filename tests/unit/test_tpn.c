/*
 * test_tpn.c — pairing numbers in the store (db/tpn.h): the C.04.2 order
 * computed from the player rows until the freeze, the numbers kept in
 * players.start_rank once round 4 (round 1 of a round robin) is paired,
 * late entries after it numbered next, and the upgrade of a database made
 * before start ranks were stored: tournaments already past the freeze keep
 * the numbers they were paired with (rating, then registration).
 */
#include <check.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "tpn.h"
#include "testutil.h"

static Store *open_rw(void)
{
    Store *s;
    char err[256];
    ck_assert_msg(store_open(testutil_db_path, 0, &s, err, sizeof err) == 0, "%s", err);
    return s;
}

static void run(Store *s, const char *sql)
{
    ck_assert_msg(store_run(s, NULL, sql, "") == 0, "%s", sql);
}

/* Checks that tournament TID's order is the player ids EXPECT. */
static void expect_order(Store *s, int64_t tid, const int64_t *expect, int n)
{
    int64_t *ids;
    int got;
    ck_assert_int_eq(tpn_order(s, tid, &ids, &got), 0);
    ck_assert_int_eq(got, n);
    for (int i = 0; i < n; i++)
        ck_assert_msg(ids[i] == expect[i], "number %d: player %lld, expected %lld", i + 1,
                      (long long)ids[i], (long long)expect[i]);
    free(ids);
}

static int64_t stored(Store *s, int64_t pid)
{
    return store_int(s, -1, "SELECT coalesce(start_rank, 0) FROM players WHERE id = ?1", "i", pid);
}

START_TEST(freeze_at_round_four)
{
    Store *s = open_rw();
    run(s, "INSERT INTO tournaments(id, name, time_control, created_ms) VALUES (1, 'T', '60', 0)");
    run(s, "INSERT INTO players(id, tournament_id, name, rating, title) VALUES "
           "(1, 1, 'Young', 1900, ''), (2, 1, 'Bacrot', 2000, 'IM'), (3, 1, 'Anand', 2000, 'IM'), "
           "(4, 1, 'Carlsen', 2000, 'GM')");
    expect_order(s, 1, (const int64_t[]){4, 3, 2, 1}, 4);
    /* Rounds 1-3: nothing is stored, a correction renumbers. */
    run(s, "INSERT INTO rounds(tournament_id, number) VALUES (1, 1), (1, 2), (1, 3)");
    ck_assert_int_eq(tpn_freeze(s, 1), 0);
    ck_assert_int_eq(stored(s, 1), 0);
    run(s, "UPDATE players SET rating = 2100 WHERE id = 1");
    expect_order(s, 1, (const int64_t[]){1, 4, 3, 2}, 4);
    /* Round 4: the numbers are stored and a correction no longer counts. */
    run(s, "INSERT INTO rounds(tournament_id, number) VALUES (1, 4)");
    ck_assert_int_eq(tpn_freeze(s, 1), 0);
    ck_assert_int_eq(stored(s, 1), 1);
    ck_assert_int_eq(stored(s, 2), 4);
    run(s, "UPDATE players SET rating = 1000 WHERE id = 1");
    run(s, "INSERT INTO players(id, tournament_id, name, rating) VALUES (5, 1, 'Late', 2800)");
    ck_assert_int_eq(tpn_freeze(s, 1), 0);
    ck_assert_int_eq(stored(s, 5), 5);
    expect_order(s, 1, (const int64_t[]){1, 4, 3, 2, 5}, 5);
    /* The numbers on the player objects. */
    json_t *players = store_rows(s, "SELECT id FROM players ORDER BY id", "");
    tpn_annotate(s, 1, players);
    static const int want[] = {1, 4, 3, 2, 5};
    for (size_t i = 0; i < 5; i++)
        ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(players, i), "tpn")),
                         want[i]);
    json_decref(players);
    /* A tournament without players, or none at all. */
    int64_t *ids;
    int n = -1;
    ck_assert_int_eq(tpn_order(s, 99, &ids, &n), 0);
    ck_assert_int_eq(n, 0);
    free(ids);
    ck_assert_int_eq(tpn_freeze(s, 99), 0);
    store_close(s);
}
END_TEST

/* The number of one player (a live stream or a game read names two) is the
 * one the whole list gives, before the freeze and with frozen numbers and
 * late entries mixed. */
START_TEST(one_player_numbered_as_in_the_list)
{
    Store *s = open_rw();
    run(s, "INSERT INTO tournaments(id, name, time_control, created_ms) VALUES (1, 'T', '60', 0)");
    run(s, "INSERT INTO players(id, tournament_id, name, rating, rating_estimate, title) VALUES "
           "(1, 1, 'Zoltan, B', 0, 0, ''), (2, 1, 'Ödön, A', 0, 0, ''), "
           "(3, 1, 'Anand', 2000, 0, 'IM'), (4, 1, 'Carlsen', 2000, 0, 'GM'), "
           "(5, 1, 'Bacrot', 2000, 0, 'IM'), (6, 1, 'Estimated', 0, 2100, ''), "
           "(7, 1, 'Anand', 2000, 0, 'IM'), (8, 1, 'Young', 1900, 0, '')");
    for (int pass = 0; pass < 3; pass++) {
        if (pass == 1) /* frozen numbers for some, as after the freeze */
            run(s, "UPDATE players SET start_rank = CASE id WHEN 1 THEN 2 WHEN 8 THEN 1 "
                   "WHEN 3 THEN 2 WHEN 5 THEN 7 END WHERE id IN (1, 8, 3, 5)");
        if (pass == 2) /* and a late entry */
            run(s, "INSERT INTO players(id, tournament_id, name, rating) VALUES (9, 1, 'Late', "
                   "2800)");
        json_t *list = store_rows(s, "SELECT id FROM players ORDER BY id", "");
        tpn_annotate(s, 1, list);
        size_t i;
        json_t *row;
        json_array_foreach(list, i, row)
        {
            int64_t pid = json_integer_value(json_object_get(row, "id"));
            json_t *one = store_row(s,
                                    "SELECT id, name, rating, rating_estimate, title FROM "
                                    "players WHERE id = ?1",
                                    "i", pid);
            tpn_annotate(s, 1, one);
            ck_assert_msg(json_integer_value(json_object_get(one, "tpn")) ==
                              json_integer_value(json_object_get(row, "tpn")),
                          "pass %d, player %lld: %lld alone, %lld in the list", pass,
                          (long long)pid,
                          (long long)json_integer_value(json_object_get(one, "tpn")),
                          (long long)json_integer_value(json_object_get(row, "tpn")));
            ck_assert_int_gt(json_integer_value(json_object_get(one, "tpn")), 0);
            json_decref(one);
        }
        json_decref(list);
    }
    json_t *nobody = json_pack("{s:i}", "id", 99);
    tpn_annotate(s, 1, nobody);
    ck_assert_ptr_null(json_object_get(nobody, "tpn"));
    json_decref(nobody);
    store_close(s);
}
END_TEST

START_TEST(round_robin_freezes_at_round_one)
{
    Store *s = open_rw();
    run(s, "INSERT INTO tournaments(id, name, time_control, system, created_ms) VALUES "
           "(1, 'RR', '60', 'roundrobin', 0)");
    run(s, "INSERT INTO players(id, tournament_id, name, rating) VALUES (1, 1, 'A', 1500), "
           "(2, 1, 'B', 1600)");
    ck_assert_int_eq(tpn_freeze_round("roundrobin"), 1);
    ck_assert_int_eq(tpn_freeze_round("swiss"), 4);
    ck_assert_int_eq(tpn_freeze_round("manual"), 4);
    run(s, "INSERT INTO rounds(tournament_id, number) VALUES (1, 1)");
    ck_assert_int_eq(tpn_freeze(s, 1), 0);
    ck_assert_int_eq(stored(s, 2), 1);
    ck_assert_int_eq(stored(s, 1), 2);
    store_close(s);
}
END_TEST

START_TEST(upgrade_keeps_the_numbers_paired_with)
{
    /* A database of schema version 2 (before start ranks were stored). */
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(testutil_db_path, &db), SQLITE_OK);
    ck_assert_int_ge(store_migration_count, 3);
    for (int v = 0; v < 2; v++)
        ck_assert_int_eq(sqlite3_exec(db, store_migrations[v], NULL, NULL, NULL), SQLITE_OK);
    const char *data =
        "PRAGMA user_version = 2;"
        "INSERT INTO tournaments(id, name, time_control, system, created_ms) VALUES "
        "(1, 'past round 4', '60', 'swiss', 0), (2, 'round 3', '60', 'swiss', 0);"
        /* Registered: a GM and an untitled player at 2000 (the old order
         * put the earlier registration first, C.04.2 the GM). */
        "INSERT INTO players(id, tournament_id, name, rating, title) VALUES "
        "(1, 1, 'Zed', 2000, ''), (2, 1, 'Abe', 2000, 'GM'), (3, 1, 'Low', 1500, ''),"
        "(4, 2, 'Zed', 2000, ''), (5, 2, 'Abe', 2000, 'GM');"
        "INSERT INTO rounds(tournament_id, number) VALUES (1, 1), (1, 2), (1, 3), (1, 4),"
        "(2, 1), (2, 2), (2, 3);"
        "INSERT INTO byes(tournament_id, round, player_id, kind, created_ms) VALUES "
        "(1, 2, 3, 'half', 7);";
    ck_assert_int_eq(sqlite3_exec(db, data, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);

    Store *s = open_rw();
    ck_assert_int_eq(store_version(s), store_migration_count);
    expect_order(s, 1, (const int64_t[]){1, 2, 3}, 3);
    ck_assert_int_eq(stored(s, 1), 1);
    expect_order(s, 2, (const int64_t[]){5, 4}, 2); /* not frozen: C.04.2 from now on */
    ck_assert_int_eq(stored(s, 4), 0);
    /* The byes came along, and the new kind is accepted. */
    ck_assert_int_eq(store_int(s, 0, "SELECT created_ms FROM byes WHERE player_id = 3", ""), 7);
    ck_assert_int_eq(store_run(s, NULL,
                               "INSERT INTO byes(tournament_id, round, player_id, kind, "
                               "created_ms, opponent_id) VALUES (1, 3, 1, 'forfeit', 0, 2)",
                               ""),
                     0);
    ck_assert_int_eq(store_run(s, NULL,
                               "INSERT INTO byes(tournament_id, round, player_id, kind, "
                               "created_ms) VALUES (1, 4, 1, 'full', 0)",
                               ""),
                     STORE_E_INVALID);
    store_close(s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tpn");
    TCase *tc = tcase_create("tpn");
    tcase_add_checked_fixture(tc, testutil_db_setup, testutil_db_teardown);
    tcase_add_test(tc, freeze_at_round_four);
    tcase_add_test(tc, one_player_numbered_as_in_the_list);
    tcase_add_test(tc, round_robin_freezes_at_round_one);
    tcase_add_test(tc, upgrade_keeps_the_numbers_paired_with);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
