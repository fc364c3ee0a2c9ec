/*
 * test_store.c — the SQLite store: a fresh database gets the newest schema
 * with the durability settings (WAL, synchronous=FULL, foreign keys);
 * reopening migrates nothing twice; the scoresheets and the audit log are
 * append-only; the group-commit writer puts concurrent requests into shared
 * transactions, answers each only after its commit, and a failing request
 * leaves no trace while its batch-mates are kept.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"
#include "testutil_store.h"
#include "backup.h"
#include "sessions.h"
#include "users.h"
#include "writer.h"

static const char *pragma_text(Store *s, const char *sql, char *buf, size_t n)
{
    json_t *row = store_row(s, sql, "");
    ck_assert_ptr_nonnull(row);
    const char *k;
    json_t *v;
    json_object_foreach(row, k, v)
    {
        if (json_is_string(v))
            snprintf(buf, n, "%s", json_string_value(v));
        else
            snprintf(buf, n, "%lld", (long long)json_integer_value(v));
    }
    json_decref(row);
    return buf;
}

START_TEST(fresh_database_settings)
{
    Store *s = testutil_store_open();
    char buf[32];
    ck_assert_int_eq(store_version(s), store_migration_count);
    ck_assert_str_eq(pragma_text(s, "PRAGMA journal_mode", buf, sizeof buf), "wal");
    ck_assert_str_eq(pragma_text(s, "PRAGMA synchronous", buf, sizeof buf), "2"); /* FULL */
    ck_assert_str_eq(pragma_text(s, "PRAGMA foreign_keys", buf, sizeof buf), "1");
    store_close(s);
    /* Reopening applies nothing again. */
    s = testutil_store_open();
    ck_assert_int_eq(store_version(s), store_migration_count);
    store_close(s);
    /* A reader opens the same file read-only and cannot write. */
    char err[256];
    ck_assert_int_eq(store_open(testutil_db_path, 1, &s, err, sizeof err), 0);
    ck_assert_int_lt(store_run(s, NULL, "INSERT INTO meta(key, value) VALUES ('x', 1)", ""), 0);
    store_close(s);
}
END_TEST

START_TEST(newer_schema_is_refused)
{
    Store *s = testutil_store_open();
    store_run(s, NULL, "PRAGMA user_version = 999", "");
    store_close(s);
    char err[256] = "";
    ck_assert_int_ne(store_open(testutil_db_path, 0, &s, err, sizeof err), 0);
    ck_assert_ptr_nonnull(strstr(err, "newer"));
}
END_TEST

START_TEST(append_only_logs)
{
    Store *s = testutil_store_open();
    testutil_store_round(s, 1);
    ck_assert_int_eq(store_run(s, NULL,
                               "INSERT INTO game_events(game_id, seq, at_ms, body) VALUES "
                               "(1, 1, 0, '{}')",
                               ""),
                     0);
    ck_assert_int_ne(store_run(s, NULL, "UPDATE game_events SET body = 'x'", ""), 0);
    ck_assert_int_ne(store_run(s, NULL, "DELETE FROM game_events", ""), 0);
    ck_assert_int_eq(store_int(s, 0, "SELECT count(*) FROM game_events", ""), 1);
    /* The same seq twice in one game is a conflict; an unknown game is
     * refused by the foreign key. */
    ck_assert_int_eq(store_run(s, NULL,
                               "INSERT INTO game_events(game_id, seq, at_ms, body) VALUES "
                               "(1, 1, 0, '{}')",
                               ""),
                     STORE_E_CONFLICT);
    ck_assert_int_eq(store_run(s, NULL,
                               "INSERT INTO game_events(game_id, seq, at_ms, body) VALUES "
                               "(99, 1, 0, '{}')",
                               ""),
                     STORE_E_INVALID);
    ck_assert_int_eq(store_run(s, NULL,
                               "INSERT INTO audit(at_ms, action, target) VALUES (0, 'a', "
                               "'b')",
                               ""),
                     0);
    ck_assert_int_ne(store_run(s, NULL, "DELETE FROM audit", ""), 0);
    ck_assert_int_eq(store_int(s, 0, "SELECT count(*) FROM audit", ""), 1);
    store_close(s);
}
END_TEST

/* ---- the writer ---- */

typedef struct Job {
    WriterJob job;
    int k;
    int fail;
} Job;

static int run_insert(Store *s, WriterJob *job)
{
    Job *j = (Job *)job;
    char key[32];
    snprintf(key, sizeof key, "%s%d", j->fail ? "failing" : "k", j->k);
    int rc = store_run(s, NULL, "INSERT INTO meta(key, value) VALUES (?1, ?2)", "si", key,
                       (int64_t)j->k);
    /* A request that fails after it wrote: none of it may stay. */
    return j->fail ? STORE_E_INVALID : rc;
}

static Writer *W;
enum { THREADS = 8, PER_THREAD = 40 };

static void *client(void *arg)
{
    int t = (int)(intptr_t)arg;
    char err[256];
    Store *r;
    ck_assert_int_eq(store_open(testutil_db_path, 1, &r, err, sizeof err), 0);
    for (int i = 0; i < PER_THREAD; i++) {
        Job j = {.job = {.run = run_insert}, .k = t * 1000 + i, .fail = i == 7};
        int rc = writer_call(W, &j.job);
        ck_assert_int_eq(rc, j.fail ? STORE_E_INVALID : 0);
        if (!j.fail) {
            /* Answered after the commit: another connection sees the row. */
            char key[32];
            snprintf(key, sizeof key, "k%d", j.k);
            ck_assert_int_eq(store_int(r, -1, "SELECT value FROM meta WHERE key = ?1", "s", key),
                             j.k);
        }
    }
    store_close(r);
    return NULL;
}

START_TEST(sessions_capped_and_expired_in_bulk)
{
    Store *s = testutil_store_open();
    ck_assert_int_eq(sessions_user_add(s, "chief", "$y$x", NULL, 0), 0);
    int64_t uid = store_int(s, 0, "SELECT id FROM users WHERE username = 'chief'", "");
    int64_t now = store_now_ms();
    char hash[32];
    /* One arbiter signs in 30 times: only the newest 20 sessions stay. */
    for (int i = 0; i < 30; i++) {
        snprintf(hash, sizeof hash, "h%02d", i);
        ck_assert_int_eq(sessions_create(s, hash, uid, 0, "c", now + 3600000), 0);
    }
    ck_assert_int_eq(store_int(s, -1, "SELECT count(*) FROM sessions", ""), SESSIONS_PER_HOLDER);
    SessionsCaller c;
    ck_assert_int_eq(sessions_lookup(s, "h29", now, &c), 1);
    ck_assert_int_eq(sessions_lookup(s, "h09", now, &c), 0);
    ck_assert_int_eq(sessions_lookup(s, "h10", now, &c), 1);
    /* Expiry: bounded bulks, by the index on expires_ms. */
    store_run(s, NULL, "UPDATE sessions SET expires_ms = ?1 WHERE token_hash < 'h20'", "i",
              now - 1);
    ck_assert_int_eq(sessions_expire(s, now, 4), 4);
    ck_assert_int_eq(sessions_expire(s, now, 100), 6);
    ck_assert_int_eq(sessions_expire(s, now, 100), 0);
    ck_assert_int_eq(store_int(s, -1, "SELECT count(*) FROM sessions", ""), 10);
    char plan[256] = "";
    json_t *rows = store_rows(s,
                              "EXPLAIN QUERY PLAN SELECT rowid FROM sessions "
                              "WHERE expires_ms < ?1 LIMIT 10",
                              "i", now);
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        const char *d = json_string_value(json_object_get(row, "detail"));
        if (d)
            snprintf(plan + strlen(plan), sizeof plan - strlen(plan), "%s;", d);
    }
    json_decref(rows);
    ck_assert_msg(strstr(plan, "sessions_expiry") != NULL, "plan: %s", plan);
    store_close(s);
}
END_TEST

/* Tournament TID created by user UID (0: nobody) straight in the store. */
static int64_t tournament_by(Store *s, int64_t uid)
{
    ck_assert_int_eq(
        store_run(s, NULL,
                  "INSERT INTO tournaments(name, time_control, created_ms, created_by) "
                  "VALUES ('T', '60', 0, nullif(?1, 0))",
                  "i", uid),
        0);
    return sqlite3_last_insert_rowid(store_db(s));
}

START_TEST(arbiter_rights)
{
    Store *s = testutil_store_open();
    char err[200];
    /* The first account is the administrator, later ones are not. */
    ck_assert_int_eq(sessions_user_add(s, "admin", "$y$x", err, sizeof err), 0);
    ck_assert_int_eq(sessions_user_add(s, "chief", "$y$x", err, sizeof err), 0);
    ck_assert_int_eq(sessions_user_add(s, "deputy", "$y$x", err, sizeof err), 0);
    int64_t admin = users_id(s, "admin"), chief = users_id(s, "chief"),
            deputy = users_id(s, "deputy");
    ck_assert_int_gt(deputy, 0);
    int64_t t = tournament_by(s, chief), orphan = tournament_by(s, 0);
    ck_assert(users_may_change(s, admin, t, 0) && users_may_change(s, admin, orphan, 0));
    ck_assert(users_may_change(s, chief, t, 0) && users_is_chief(s, chief, t));
    ck_assert(!users_may_change(s, chief, orphan, 0) && !users_may_change(s, deputy, t, 0));
    ck_assert(!users_may_change(s, admin, 999, 0));
    /* Assigned: may change, is no chief; revoked: read-only again. */
    ck_assert_int_eq(users_grant(s, t, "deputy", chief, err, sizeof err), 0);
    ck_assert_int_eq(users_grant(s, t, "deputy", chief, err, sizeof err), 0);
    ck_assert_int_eq(users_grant(s, t, "ghost", chief, err, sizeof err), STORE_E_NOT_FOUND);
    ck_assert(users_may_change(s, deputy, t, 0) && !users_is_chief(s, deputy, t));
    json_t *a = users_arbiters(s, t);
    ck_assert_int_eq(json_array_size(json_object_get(a, "arbiters")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(a, "chief"), "id")), chief);
    json_decref(a);
    ck_assert_int_eq(users_ungrant(s, t, "deputy", chief, err, sizeof err), 0);
    ck_assert_int_eq(users_ungrant(s, t, "deputy", chief, err, sizeof err), STORE_E_NOT_FOUND);
    ck_assert(!users_may_change(s, deputy, t, 0));
    /* Sessions end with passwd, revoke and remove; the last admin stays. */
    int n = 0;
    ck_assert_int_eq(sessions_create(s, "c1", chief, 0, "x", store_now_ms() + 60000), 0);
    ck_assert_int_eq(sessions_create(s, "c2", chief, 0, "x", store_now_ms() + 60000), 0);
    ck_assert_int_eq(users_revoke(s, "chief", &n, err, sizeof err), 0);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(sessions_create(s, "c3", chief, 0, "x", store_now_ms() + 60000), 0);
    ck_assert_int_eq(users_passwd(s, "chief", "$y$new", 0, err, sizeof err), 0);
    ck_assert_int_eq(store_int(s, -1, "SELECT count(*) FROM sessions", ""), 0);
    ck_assert_int_eq(users_remove(s, "admin", err, sizeof err), STORE_E_CONFLICT);
    ck_assert_int_eq(users_admin_set(s, "admin", 0, err, sizeof err), STORE_E_CONFLICT);
    ck_assert_int_eq(users_grant(s, t, "deputy", chief, err, sizeof err), 0);
    ck_assert_int_eq(users_remove(s, "chief", err, sizeof err), 0);
    ck_assert_int_eq(users_remove(s, "deputy", err, sizeof err), 0);
    /* His tournament stays, without a chief; his assignments went. */
    ck_assert_int_eq(store_int(s, -1, "SELECT count(*) FROM tournament_arbiters", ""), 0);
    ck_assert_int_eq(
        store_int(s, -1, "SELECT count(*) FROM tournaments WHERE created_by IS NULL", ""), 2);
    store_close(s);
}
END_TEST

START_TEST(files_are_private)
{
    mode_t old = umask(022);
    Store *s = testutil_store_open();
    store_close(s);
    struct stat st;
    ck_assert_int_eq(stat(testutil_db_path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    char copy[600], err[256];
    snprintf(copy, sizeof copy, "%s.copy", testutil_db_path);
    ck_assert_msg(backup_copy(testutil_db_path, copy, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(stat(copy, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    unlink(copy);
    umask(old);
}
END_TEST

START_TEST(group_commit)
{
    char err[256];
    W = writer_start(testutil_db_path, err, sizeof err);
    ck_assert_msg(W != NULL, "%s", err);
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, client, (void *)(intptr_t)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    uint64_t jobs, batches, ru, cu;
    writer_counts(W, &jobs, &batches, &ru, &cu);
    ck_assert_int_eq((int)jobs, THREADS * PER_THREAD);
    /* Requests that arrived together shared transactions. */
    ck_assert_msg(batches < jobs, "%llu batches for %llu jobs", (unsigned long long)batches,
                  (unsigned long long)jobs);
    writer_stop(W);
    Store *s = testutil_store_open();
    ck_assert_int_eq(store_int(s, 0, "SELECT count(*) FROM meta WHERE key LIKE 'k%'", ""),
                     THREADS * (PER_THREAD - 1));
    ck_assert_int_eq(store_int(s, 0, "SELECT count(*) FROM meta WHERE key LIKE 'failing%'", ""), 0);
    /* The last heartbeat is written at stop. */
    ck_assert_int_gt(store_int(s, 0, "SELECT value FROM meta WHERE key = 'heartbeat_ms'", ""), 0);
    store_close(s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("store");
    TCase *tc = tcase_create("store");
    tcase_add_checked_fixture(tc, testutil_db_setup, testutil_db_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, fresh_database_settings);
    tcase_add_test(tc, newer_schema_is_refused);
    tcase_add_test(tc, append_only_logs);
    tcase_add_test(tc, group_commit);
    tcase_add_test(tc, sessions_capped_and_expired_in_bulk);
    tcase_add_test(tc, files_are_private);
    tcase_add_test(tc, arbiter_rights);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
