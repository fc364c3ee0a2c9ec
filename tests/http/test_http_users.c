/*
 * test_http_users.c — arbiter accounts: the first start's password only in
 * a 0600 file beside the database; `arbiter user` add (12 characters at
 * least), list, passwd, revoke and remove, each ending the sessions it
 * should; the rights on a tournament (its chief assigns arbiters, others
 * only read it, writes answered 403 JSON); an arbiter changing his own
 * password; a sign-in as an unknown user taking as long as a wrong
 * password.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

HARNESS_SIGNED_IN_FIXTURE(D, arb)

/* The role /auth/me reports for C. */
static const char *me(const Client *c, char *buf, size_t n)
{
    Resp *r = req(&D, c, "GET", "/api/v1/auth/me", NULL);
    snprintf(buf, n, "%s", json_string_value(json_object_get(r->json, "role")));
    resp_free(r);
    return buf;
}

static long login_status(const char *name, const char *password)
{
    char body[300];
    snprintf(body, sizeof body, "{\"username\":\"%s\",\"password\":\"%s\"}", name, password);
    Resp *r = req(&D, NULL, "POST", "/api/v1/auth/login", body);
    long st = r->status;
    resp_free(r);
    return st;
}

/* A committed write, so that the server's credential cache forgets what a
 * change made by the command line (another process) replaced. */
static void some_write(void)
{
    Resp *r = req(&D, &arb, "POST", "/api/v1/tournaments",
                  "{\"name\":\"Flush\",\"time_control\":\"60\"}");
    ck_assert_int_eq(r->status, 201);
    resp_free(r);
}

START_TEST(first_password_in_a_private_file)
{
    char *out = harness_daemon_file(&D, "stdout.txt");
    char *err = harness_daemon_file(&D, "stderr.txt");
    ck_assert_msg(!strstr(out, D.password) && !strstr(err, D.password),
                  "the first password reached the log");
    ck_assert_ptr_nonnull(strstr(out, "arbiter-first-password"));
    free(out);
    free(err);
    char path[400];
    snprintf(path, sizeof path, "%s/arbiter-first-password", D.dir);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
}
END_TEST

START_TEST(cli_add_list_passwd_revoke_remove)
{
    char role[32];
    ck_assert_int_eq(harness_user(&D, "add", "deputy", "eleven char"), 2);
    ck_assert_int_eq(harness_user(&D, "add", "deputy", "twelve chars"), 0);
    ck_assert_int_eq(harness_user(&D, "add", "deputy", "twelve chars"), 1);
    ck_assert_int_eq(harness_user(&D, "passwd", "nobody", "twelve chars"), 1);
    char cmd[600], text[2000];
    snprintf(cmd, sizeof cmd, "%s user list --db %s", testutil_bin(), D.db);
    ck_assert_int_eq(testutil_capture(cmd, text, sizeof text), 0);
    ck_assert_ptr_nonnull(strstr(text, "deputy"));
    ck_assert_ptr_nonnull(strstr(text, "arbiter"));

    /* revoke: signed out everywhere, the password still works. */
    Client d1, d2;
    harness_login(&D, "deputy", "twelve chars", &d1);
    ck_assert_str_eq(me(&d1, role, sizeof role), "arbiter");
    ck_assert_int_eq(harness_user(&D, "revoke", "deputy", NULL), 0);
    some_write();
    ck_assert_str_eq(me(&d1, role, sizeof role), "anonymous");
    /* passwd: the old password and the sessions it opened end. */
    harness_login(&D, "deputy", "twelve chars", &d2);
    ck_assert_str_eq(me(&d2, role, sizeof role), "arbiter");
    ck_assert_int_eq(harness_user(&D, "passwd", "deputy", "short"), 2);
    ck_assert_int_eq(harness_user(&D, "passwd", "deputy", "a new password"), 0);
    some_write();
    ck_assert_str_eq(me(&d2, role, sizeof role), "anonymous");
    ck_assert_int_eq(login_status("deputy", "twelve chars"), 401);
    ck_assert_int_eq(login_status("deputy", "a new password"), 200);
    /* remove: the login and its sessions go; the last administrator stays. */
    harness_login(&D, "deputy", "a new password", &d1);
    ck_assert_int_eq(harness_user(&D, "remove", "deputy", NULL), 0);
    some_write();
    ck_assert_str_eq(me(&d1, role, sizeof role), "anonymous");
    ck_assert_int_eq(login_status("deputy", "a new password"), 401);
    ck_assert_int_eq(harness_user(&D, "remove", "deputy", NULL), 1);
    ck_assert_int_eq(harness_user(&D, "remove", "arbiter", NULL), 1);
    ck_assert_str_eq(me(&arb, role, sizeof role), "arbiter");
}
END_TEST

/* C's write to PATH with BODY: asserts STATUS, and for 403 a JSON error. */
static void write_as(const Client *c, const char *path, const char *body, long status)
{
    Resp *r = req(&D, c, "POST", path, body);
    ck_assert_msg(r->status == status, "POST %s: %ld %s", path, r->status, r->body);
    if (status == 403)
        ck_assert_str_eq(resp_code(r), "forbidden");
    resp_free(r);
}

/* C's PATCH of tournament TID's name: the status. */
static long rename_as(const Client *c, int64_t tid)
{
    Resp *r =
        reqf(&D, c, "PATCH", "{\"name\":\"Renamed\"}", "/api/v1/tournaments/%lld", (long long)tid);
    long st = r->status;
    if (st == 403)
        ck_assert_msg(r->json && strcmp(resp_code(r), "forbidden") == 0, "%s", r->body);
    resp_free(r);
    return st;
}

START_TEST(chief_assigns_arbiters_others_read_only)
{
    ck_assert_int_eq(harness_user(&D, "add", "deputy", "deputy's secret"), 0);
    ck_assert_int_eq(harness_user(&D, "add", "judge", "judge's secret!"), 0);
    Client dep, jud, pl[2];
    harness_login(&D, "deputy", "deputy's secret", &dep);
    harness_login(&D, "judge", "judge's secret!", &jud);
    int64_t gid, t1 = harness_game_new(&D, &arb, "5400+30", NULL, pl, &gid);
    char path[128], gpath[128];
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/arbiters", (long long)t1);
    snprintf(gpath, sizeof gpath, "/api/v1/games/%lld/arbiter/pause", (long long)gid);

    /* The deputy reads T1 but changes nothing of it or its games. */
    Resp *r = req(&D, &dep, "GET", path, NULL);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(
        json_string_value(json_object_get(json_object_get(r->json, "chief"), "username")),
        "arbiter");
    resp_free(r);
    ck_assert_int_eq(rename_as(&dep, t1), 403);
    write_as(&dep, gpath, "{}", 403);
    /* Nor may he assign himself. */
    write_as(&dep, path, "{\"username\":\"deputy\"}", 403);
    /* The chief assigns him: now he may. */
    write_as(&arb, path, "{\"username\":\"deputy\"}", 200);
    write_as(&arb, path, "{\"username\":\"nobody\"}", 404);
    ck_assert_int_eq(rename_as(&dep, t1), 200);
    /* An assigned arbiter is no chief: he assigns nobody. */
    write_as(&dep, path, "{\"username\":\"judge\"}", 403);
    r = req(&D, &jud, "GET", path, NULL);
    ck_assert_int_eq(json_array_size(json_object_get(r->json, "arbiters")), 1);
    resp_free(r);

    /* The deputy's own tournament: he is its chief, the judge reads it. */
    r = req(&D, &dep, "POST", "/api/v1/tournaments",
            "{\"name\":\"Deputy's\",\"time_control\":\"60\"}");
    ck_assert_int_eq(r->status, 201);
    int64_t t2 = jint(r->json, "id");
    resp_free(r);
    ck_assert_int_eq(rename_as(&jud, t2), 403);
    char path2[128];
    snprintf(path2, sizeof path2, "/api/v1/tournaments/%lld/arbiters", (long long)t2);
    write_as(&dep, path2, "{\"username\":\"judge\"}", 200);
    ck_assert_int_eq(rename_as(&jud, t2), 200);
    /* The administrator may change it without an assignment. */
    ck_assert_int_eq(rename_as(&arb, t2), 200);

    /* Revoked: read-only again. */
    snprintf(path, sizeof path, "/api/v1/tournaments/%lld/arbiters/remove", (long long)t1);
    write_as(&arb, path, "{\"username\":\"deputy\"}", 200);
    write_as(&arb, path, "{\"username\":\"deputy\"}", 404);
    ck_assert_int_eq(rename_as(&dep, t1), 403);
}
END_TEST

START_TEST(own_password_change)
{
    ck_assert_int_eq(harness_user(&D, "add", "deputy", "deputy's secret"), 0);
    Client a, b;
    harness_login(&D, "deputy", "deputy's secret", &a);
    harness_login(&D, "deputy", "deputy's secret", &b);
    write_as(&a, "/api/v1/auth/password",
             "{\"password\":\"deputy's secret\",\"new_password\":\"too short\"}", 400);
    write_as(&a, "/api/v1/auth/password",
             "{\"password\":\"wrong secret\",\"new_password\":\"long enough now\"}", 403);
    write_as(&a, "/api/v1/auth/password",
             "{\"password\":\"deputy's secret\",\"new_password\":\"long enough now\"}", 200);
    char role[32];
    ck_assert_str_eq(me(&a, role, sizeof role), "arbiter");
    ck_assert_str_eq(me(&b, role, sizeof role), "anonymous");
    ck_assert_int_eq(login_status("deputy", "deputy's secret"), 401);
    ck_assert_int_eq(login_status("deputy", "long enough now"), 200);
}
END_TEST

START_TEST(unknown_user_takes_as_long)
{
    /* Three tries each, under the throttle's free failures. */
    int64_t known = 0, unknown = 0;
    for (int i = 0; i < 3; i++) {
        char name[32];
        int64_t t0 = now_ms();
        ck_assert_int_eq(login_status("arbiter", "not the password"), 401);
        int64_t t1 = now_ms();
        snprintf(name, sizeof name, "ghost%d", i);
        ck_assert_int_eq(login_status(name, "not the password"), 401);
        known += t1 - t0;
        unknown += now_ms() - t1;
    }
    /* A yescrypt check takes tens of ms; a lookup alone well under one. */
    ck_assert_msg(known >= 15, "a password check took only %lld ms", (long long)known);
    ck_assert_msg(unknown * 2 >= known, "unknown users: %lld ms, known: %lld ms",
                  (long long)unknown, (long long)known);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("http-users");
    TCase *tc = tcase_create("users");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, first_password_in_a_private_file);
    tcase_add_test(tc, cli_add_list_passwd_revoke_remove);
    tcase_add_test(tc, chief_assigns_arbiters_others_read_only);
    tcase_add_test(tc, own_password_change);
    tcase_add_test(tc, unknown_user_takes_as_long);
    suite_add_tcase(s, tc);
    return testutil_run(s);
}
