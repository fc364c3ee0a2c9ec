/*
 * test_http_backup.c — `arbiter backup` and `arbiter restore` against the
 * real daemon: a copy taken while tablets keep playing passes
 * integrity_check and holds every move acknowledged before the copy began
 * (in order, as played); restore refuses a corrupt or foreign file and a
 * database a running server holds, and a restored copy serves the games it
 * holds; the periodic backups of `serve --backup-dir` appear and rotate.
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "harness.h"

enum { GAMES = 4, MAXPLY = 400 };

typedef struct Table {
    int64_t gid;
    Client *w, *b;
    pthread_mutex_t mu;
    int acked;             /* moves answered 200 so far */
    char moves[MAXPLY][6]; /* their UCI, in order */
    volatile int *stop;
    unsigned seed;
} Table;

static Daemon D;
static Client arb, pl[2 * GAMES];
static int64_t tid, pids[2 * GAMES], gids[GAMES];

static void setup(void)
{
    daemon_start_signed_in(&D, &arb);
    tid = make_tournament(&D, &arb, "5400+30", NULL, 2 * GAMES, pids, pl);
    make_round(&D, &arb, tid, GAMES, &pids[0], &pids[GAMES], gids);
    harness_round_one_start(&D, &arb, pl, tid, gids, GAMES);
}

static void teardown(void)
{
    if (D.pid > 0)
        daemon_stop(&D, SIGTERM);
    daemon_cleanup(&D);
}

/* Runs `arbiter ARGS...`; returns its exit status. */
static int arbiter(const char *a1, const char *a2, const char *a3, const char *a4)
{
    const char *const argv[] = {testutil_bin(), a1, a2, a3, a4, NULL};
    return testutil_exec(argv, NULL, NULL);
}

/* A tablet pair playing random legal moves until stopped or the game ends. */
static void *tablets(void *arg)
{
    Table *t = arg;
    Board b;
    board_start(&b);
    for (int ply = 0; ply < MAXPLY && !*t->stop; ply++) {
        MoveList list;
        movegen_legal_moves(&b, &list);
        if (list.count == 0)
            break;
        Move m = list.moves[rand_r(&t->seed) % (unsigned)list.count];
        char uci[6];
        board_move_to_uci(m, uci);
        if (play(&D, ply % 2 ? t->b : t->w, t->gid, ply, uci) != 200)
            break; /* the game ended (mate, draw by rule) */
        board_make(&b, m);
        pthread_mutex_lock(&t->mu);
        memcpy(t->moves[t->acked], uci, 6);
        t->acked++;
        pthread_mutex_unlock(&t->mu);
    }
    return NULL;
}

/* The moves of game GID in the database file PATH, as UCI; returns count. */
static int moves_in(const char *path, int64_t gid, char (*out)[6], int max)
{
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    ck_assert_int_eq(sqlite3_prepare_v2(db,
                                        "SELECT body FROM game_events WHERE game_id = ? "
                                        "ORDER BY seq",
                                        -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(st, 1, gid);
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        json_t *ev = json_loads((const char *)sqlite3_column_text(st, 0), 0, NULL);
        ck_assert_ptr_nonnull(ev);
        const char *type = json_string_value(json_object_get(ev, "type"));
        if (type && strcmp(type, "move") == 0 && n < max)
            snprintf(out[n++], 6, "%s", json_string_value(json_object_get(ev, "move")));
        json_decref(ev);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

static const char *integrity_of(const char *path, char *buf, size_t len)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    snprintf(buf, len, "cannot open");
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return buf;
}

static Table tables[GAMES];
static volatile int stop_flag;

static void start_tables(pthread_t *th)
{
    stop_flag = 0;
    for (int i = 0; i < GAMES; i++) {
        memset(&tables[i], 0, sizeof tables[i]);
        tables[i].gid = gids[i];
        tables[i].w = &pl[i];
        tables[i].b = &pl[GAMES + i];
        tables[i].stop = &stop_flag;
        tables[i].seed = 1234u + (unsigned)i;
        pthread_mutex_init(&tables[i].mu, NULL);
        pthread_create(&th[i], NULL, tablets, &tables[i]);
    }
}

static void stop_tables(pthread_t *th)
{
    stop_flag = 1;
    for (int i = 0; i < GAMES; i++)
        pthread_join(th[i], NULL);
}

START_TEST(backup_while_playing)
{
    pthread_t th[GAMES];
    start_tables(th);
    char copy[400], buf[200];
    snprintf(copy, sizeof copy, "%s/copy.db", D.dir);
    int total_before = 0, total_after = 0, during = 0;
    for (int round = 0; round < 3; round++) {
        usleep(700000);
        int before[GAMES];
        for (int i = 0; i < GAMES; i++) {
            pthread_mutex_lock(&tables[i].mu);
            before[i] = tables[i].acked;
            pthread_mutex_unlock(&tables[i].mu);
        }
        ck_assert_int_eq(arbiter("backup", copy, "--db", D.db), 0);
        ck_assert_str_eq(integrity_of(copy, buf, sizeof buf), "ok");
        for (int i = 0; i < GAMES; i++) {
            char got[MAXPLY][6];
            int n = moves_in(copy, gids[i], got, MAXPLY);
            pthread_mutex_lock(&tables[i].mu);
            int after = tables[i].acked;
            /* Everything acknowledged before the copy began is in it, in
             * order; what the copy has beyond that was acknowledged too. */
            ck_assert_msg(n >= before[i], "game %d: %d moves in the copy, %d acknowledged before",
                          i, n, before[i]);
            ck_assert_msg(n <= after + 1, "game %d: %d moves in the copy, only %d acknowledged", i,
                          n, after);
            for (int k = 0; k < n && k < after; k++)
                ck_assert_str_eq(got[k], tables[i].moves[k]);
            pthread_mutex_unlock(&tables[i].mu);
            total_before += before[i];
            total_after += n;
            during += after - before[i];
        }
    }
    stop_tables(th);
    ck_assert_msg(total_before > 0, "no move was played");
    fprintf(stderr,
            "backup_while_playing: 3 copies, %d moves acknowledged before their starts, "
            "%d in the copies, %d acknowledged while copying\n",
            total_before, total_after, during);
}
END_TEST

START_TEST(restore_refuses_bad_files_and_busy_databases)
{
    pthread_t th[GAMES];
    start_tables(th);
    usleep(800000);
    stop_tables(th);
    char copy[400], bad[400], buf[200];
    snprintf(copy, sizeof copy, "%s/copy.db", D.dir);
    ck_assert_int_eq(arbiter("backup", copy, "--db", D.db), 0);
    int nmoves[GAMES];
    for (int i = 0; i < GAMES; i++)
        nmoves[i] = tables[i].acked;

    /* Not a database, an empty file, a missing file. */
    snprintf(bad, sizeof bad, "%s/garbage.db", D.dir);
    FILE *f = fopen(bad, "w");
    fputs("this is not a database\n", f);
    fclose(f);
    ck_assert_int_eq(arbiter("restore", bad, "--db", D.db), 3);
    f = fopen(bad, "w");
    fclose(f);
    ck_assert_int_eq(arbiter("restore", bad, "--db", D.db), 3);
    ck_assert_int_eq(arbiter("restore", "/nonexistent/x.db", "--db", D.db), 3);
    /* A copy with a damaged page: integrity_check fails. */
    snprintf(bad, sizeof bad, "%s/damaged.db", D.dir);
    char cmd[900];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", copy, bad);
    ck_assert_int_eq(system(cmd), 0);
    int fd = open(bad, O_RDWR);
    off_t size = lseek(fd, 0, SEEK_END);
    ck_assert(size >= 3 * 4096);
    char junk[2048];
    memset(junk, 0x5a, sizeof junk);
    for (off_t at = 4096 + 100; at + (off_t)sizeof junk < size; at += 4096)
        ck_assert_int_eq(pwrite(fd, junk, sizeof junk, at), (ssize_t)sizeof junk);
    close(fd);
    ck_assert_str_ne(integrity_of(bad, buf, sizeof buf), "ok");
    ck_assert_int_eq(arbiter("restore", bad, "--db", D.db), 3);
    /* An SQLite file that is not ours. */
    snprintf(bad, sizeof bad, "%s/foreign.db", D.dir);
    sqlite3 *db;
    ck_assert_int_eq(sqlite3_open(bad, &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    ck_assert_int_eq(arbiter("restore", bad, "--db", D.db), 3);

    /* A good copy, but the server holds the database. */
    ck_assert_int_eq(arbiter("restore", copy, "--db", D.db), 4);
    /* ...and it still serves, undisturbed. */
    Resp *r = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld", (long long)gids[0]);
    ck_assert_int_eq(r->status, 200);
    resp_free(r);

    /* Stopped: the restore goes through, and the server starts on the copy
     * with every game as it was. */
    ck_assert_int_eq(daemon_stop(&D, SIGTERM), 0);
    ck_assert_int_eq(arbiter("restore", copy, "--db", D.db), 0);
    daemon_start(&D, 1);
    for (int i = 0; i < GAMES; i++) {
        r = reqf(&D, NULL, "GET", NULL, "/api/v1/games/%lld", (long long)gids[i]);
        ck_assert_int_eq(r->status, 200);
        json_t *mv =
            json_object_get(json_object_get(json_object_get(r->json, "state"), "state"), "moves");
        if (!mv)
            mv = json_object_get(json_object_get(r->json, "state"), "moves");
        ck_assert_int_eq((int)json_array_size(mv), nmoves[i]);
        resp_free(r);
    }
}
END_TEST

START_TEST(periodic_backups_rotate)
{
    daemon_stop(&D, SIGTERM);
    /* Restart by hand with the backup options. */
    const char *bin = getenv("ARBITER_BIN");
    char dir[400], listen[64];
    snprintf(dir, sizeof dir, "%s/backups", D.dir);
    snprintf(listen, sizeof listen, "127.0.0.1:%d", D.port);
    pid_t p = fork();
    if (p == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execl(bin, bin, "serve", "--listen", listen, "--db", D.db, "--backup-dir", dir,
              "--backup-every", "0.01", "--backup-keep", "2", (char *)NULL);
        _exit(127);
    }
    D.pid = -1;
    sleep(4);
    /* A second server on the same database is refused. */
    ck_assert_int_eq(arbiter("serve", "--db", D.db, "--quiet"), 3);
    kill(p, SIGTERM);
    int st;
    waitpid(p, &st, 0);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    char buf[200], path[700];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        ck_assert_msg(strncmp(e->d_name, "arbiter-", 8) == 0, "stray file %s", e->d_name);
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ck_assert_str_eq(integrity_of(path, buf, sizeof buf), "ok");
        n++;
    }
    closedir(d);
    ck_assert_int_eq(n, 2);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-backup");
    TCase *tc = tcase_create("backup");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, backup_while_playing);
    tcase_add_test(tc, restore_refuses_bad_files_and_busy_databases);
    tcase_add_test(tc, periodic_backups_rotate);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
