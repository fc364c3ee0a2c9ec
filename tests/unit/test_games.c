/*
 * test_games.c — the writer's cache of game states (db/games.c): a round of
 * more games than the cache keeps once they are over still takes every
 * later action on any of them (a result confirmed long after the end is
 * replayed from the store and stored with the next sequence number).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games.h"
#include "store.h"
#include "testutil_store.h"

/* More than the cache keeps after their end (KEEP_DONE in games.c). */
enum { NGAMES = 600 };

static int act(Games *g, Store *s, int64_t gid, int type, int actor)
{
    GameEvent ev;
    game_event_init(&ev, type, actor, store_now_ms());
    GameOutcome out = {0};
    char err[256] = "";
    int rc = games_act(g, s, gid, &ev, -1, &out, err, sizeof err);
    games_outcome_clear(&out);
    ck_assert_msg(rc == 0, "game %lld, event %d: %d %s", (long long)gid, type, rc, err);
    return rc;
}

static int64_t events_of(Store *s, int64_t gid)
{
    return store_int(s, -1, "SELECT count(*) FROM game_events WHERE game_id = ?1", "i", gid);
}

START_TEST(finished_games_leave_the_cache_but_still_take_actions)
{
    Store *s = testutil_store_open();
    testutil_store_round(s, NGAMES);

    Games *g = games_new();
    ck_assert_ptr_nonnull(g);
    /* One transaction, as the writer batches them (not one fsync each). */
    ck_assert_int_eq(store_run(s, NULL, "BEGIN", ""), 0);
    for (int64_t gid = 1; gid <= NGAMES; gid++) {
        act(g, s, gid, GAME_EV_START, GAME_ACTOR_ARBITER);
        act(g, s, gid, GAME_EV_RESIGN, GAME_ACTOR_WHITE);
    }
    ck_assert_int_eq(store_run(s, NULL, "COMMIT", ""), 0);
    /* The first games ended long ago: confirming their result replays them. */
    for (int64_t gid = 1; gid <= NGAMES; gid += 97) {
        act(g, s, gid, GAME_EV_CONFIRM, GAME_ACTOR_BLACK);
        ck_assert_int_eq(events_of(s, gid), 3);
    }
    /* And the newest ones, still in the cache. */
    for (int64_t gid = NGAMES - 50; gid <= NGAMES; gid++)
        if (gid % 97 != 1)
            act(g, s, gid, GAME_EV_CONFIRM, GAME_ACTOR_WHITE);
    ck_assert_int_eq(events_of(s, 2), 2);
    ck_assert_int_eq(events_of(s, NGAMES), 3);
    ck_assert_int_eq(store_int(s, -1, "SELECT count(*) FROM games WHERE status = 'over'", ""),
                     NGAMES);
    games_free(g);
    store_close(s);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("games");
    TCase *tc = tcase_create("cache");
    tcase_add_checked_fixture(tc, testutil_db_setup, testutil_db_teardown);
    tcase_add_test(tc, finished_games_leave_the_cache_but_still_take_actions);
    suite_add_tcase(su, tc);
    return testutil_run(su);
}
