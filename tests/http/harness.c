/*
 * harness.c — the daemon under test and an HTTP client.  See harness.h.
 */
#include "harness.h"

#include <arpa/inet.h>
#include <check.h>
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof sa;
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
    close(fd);
    return ntohs(sa.sin_port);
}

void daemon_start(Daemon *d, int restart)
{
    static const char *const no_limit[] = {"--rate-limit", "0", NULL};
    daemon_start_args(d, restart, restart ? d->args : no_limit);
}

void harness_daemon_prepare(Daemon *d)
{
    memset(d, 0, sizeof *d);
    testutil_tmpdir_make(d->dir, sizeof d->dir, "http");
    snprintf(d->db, sizeof d->db, "%s/arbiter.db", d->dir);
}

void daemon_start_args(Daemon *d, int restart, const char *const *args)
{
    const char *bin = testutil_bin();
    if (!restart)
        harness_daemon_prepare(d);
    d->port = free_port();
    char listen[64], out[320], err[320];
    snprintf(listen, sizeof listen, "127.0.0.1:%d", d->port);
    snprintf(out, sizeof out, "%s/stdout.txt", d->dir);
    snprintf(err, sizeof err, "%s/stderr.txt", d->dir);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int o = open(out, O_WRONLY | O_CREAT | O_APPEND, 0644);
        int e = open(err, O_WRONLY | O_CREAT | O_APPEND, 0644);
        dup2(o, 1);
        dup2(e, 2);
        const char *argv[32] = {bin, "serve", "--listen", listen, "--db", d->db, "--threads", "2"};
        int n = 8;
        for (int i = 0; args && args[i] && n < 31; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    d->args = args;
    d->pid = pid;
    /* Wait until it answers. */
    for (int i = 0; i < 500; i++) {
        Resp *r = req(d, NULL, "GET", "/api/v1/health", NULL);
        long st = r->status;
        resp_free(r);
        if (st == 200)
            break;
        int status;
        ck_assert_msg(waitpid(pid, &status, WNOHANG) == 0, "the daemon exited at start");
        usleep(10000);
    }
    if (!restart) {
        FILE *f = fopen(out, "r");
        ck_assert_ptr_nonnull(f);
        char line[512], file[400] = "";
        while (fgets(line, sizeof line, f)) {
            char *p = strstr(line, "password is in ");
            if (p)
                sscanf(p + 15, "%399s", file);
        }
        fclose(f);
        ck_assert_msg(file[0], "the first start named no password file");
        f = fopen(file, "r");
        ck_assert_ptr_nonnull(f);
        ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
        fclose(f);
        sscanf(line, "%63s", d->password);
        ck_assert_msg(d->password[0], "the first start wrote no arbiter password");
    }
}

int daemon_stop(Daemon *d, int sig)
{
    if (d->pid <= 0)
        return -1;
    kill(d->pid, sig);
    int status = 0;
    waitpid(d->pid, &status, 0);
    d->pid = 0;
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (sig == SIGTERM && rc != 0) {
        /* Show what the daemon said (sanitizer reports included). */
        char path[320], line[1024];
        snprintf(path, sizeof path, "%s/stderr.txt", d->dir);
        FILE *f = fopen(path, "r");
        while (f && fgets(line, sizeof line, f))
            if (strncmp(line, "http ", 5) && strncmp(line, "game ", 5))
                fputs(line, stderr);
        if (f)
            fclose(f);
    }
    return rc;
}

void daemon_cleanup(Daemon *d)
{
    if (d->pid > 0)
        daemon_stop(d, SIGKILL);
    char cmd[400];
    if (!getenv("ARBITER_KEEP_TEST_DIR")) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", d->dir);
        if (system(cmd) != 0)
            fprintf(stderr, "cannot remove %s\n", d->dir);
    }
}

static size_t on_body(char *p, size_t size, size_t n, void *cls)
{
    Resp *r = cls;
    size_t k = size * n;
    char *nb = realloc(r->body, r->len + k + 1);
    if (!nb)
        return 0;
    r->body = nb;
    memcpy(r->body + r->len, p, k);
    r->len += k;
    r->body[r->len] = 0;
    return k;
}

static size_t on_header(char *p, size_t size, size_t n, void *cls)
{
    Resp *r = cls;
    size_t k = size * n, have = strlen(r->headers);
    if (have + k + 1 < sizeof r->headers) {
        memcpy(r->headers + have, p, k);
        r->headers[have + k] = 0;
    }
    return k;
}

/* A handle for PATH on D with C's credentials and the answer collected
 * into a fresh Resp; *HS gets the client's headers (more may be added). */
static CURL *handle_new(Daemon *d, const Client *c, const char *path, struct curl_slist **hs,
                        Resp **out)
{
    Resp *r = calloc(1, sizeof *r);
    ck_assert_ptr_nonnull(r);
    CURL *h = curl_easy_init();
    char url[512], line[300];
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", d->port, path);
    if (c && c->bearer[0]) {
        snprintf(line, sizeof line, "Authorization: Bearer %s", c->bearer);
        *hs = curl_slist_append(*hs, line);
    }
    if (c && c->csrf[0]) {
        snprintf(line, sizeof line, "X-CSRF-Token: %s", c->csrf);
        *hs = curl_slist_append(*hs, line);
    }
    if (c && c->cookie[0])
        curl_easy_setopt(h, CURLOPT_COOKIE, c->cookie);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, r);
    *out = r;
    return h;
}

/* Runs H with the headers HS, frees both and parses R's body.  A stream
 * ends by its time-out, which is no failure: its status is kept then. */
static Resp *handle_run(CURL *h, struct curl_slist *hs, Resp *r, int stream)
{
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hs);
    if (curl_easy_perform(h) == CURLE_OK || stream)
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r->status);
    curl_slist_free_all(hs);
    curl_easy_cleanup(h);
    if (r->body)
        r->json = json_loads(r->body, JSON_DECODE_ANY, NULL);
    return r;
}

static Resp *request(Daemon *d, const Client *c, const char *method, const char *path,
                     const char *body, size_t body_len, const char *ctype, const char *const *extra)
{
    struct curl_slist *hs = NULL;
    Resp *r;
    CURL *h = handle_new(d, c, path, &hs, &r);
    char line[300];
    if (body) {
        snprintf(line, sizeof line, "Content-Type: %s", ctype ? ctype : "application/json");
        if (!ctype || *ctype)
            hs = curl_slist_append(hs, line);
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)body_len);
    }
    hs = curl_slist_append(hs, "Expect:");
    for (int i = 0; extra && extra[i]; i++)
        hs = curl_slist_append(hs, extra[i]);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(h, CURLOPT_TIMEOUT, 20L);
    return handle_run(h, hs, r, 0);
}

Resp *req_raw(Daemon *d, const Client *c, const char *method, const char *path, const char *body,
              size_t body_len, const char *ctype)
{
    return request(d, c, method, path, body, body_len, ctype, NULL);
}

Resp *req_hdr(Daemon *d, const char *method, const char *path, const char *body,
              const char *const *headers)
{
    return request(d, NULL, method, path, body, body ? strlen(body) : 0, NULL, headers);
}

Resp *stream_read(Daemon *d, const Client *c, const char *path, long timeout_ms, long long last_id)
{
    /* A stream is a GET by a tablet or a page: no CSRF token goes with it. */
    Client viewer = {{0}, {0}, {0}};
    if (c) {
        viewer = *c;
        viewer.csrf[0] = 0;
    }
    struct curl_slist *hs = NULL;
    Resp *r;
    CURL *h = handle_new(d, c ? &viewer : NULL, path, &hs, &r);
    if (last_id > 0) {
        char line[64];
        snprintf(line, sizeof line, "Last-Event-ID: %lld", last_id);
        hs = curl_slist_append(hs, line);
    }
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
    return handle_run(h, hs, r, 1);
}

Resp *req(Daemon *d, const Client *c, const char *method, const char *path, const char *body)
{
    return req_raw(d, c, method, path, body, body ? strlen(body) : 0, NULL);
}

Resp *reqf(Daemon *d, const Client *c, const char *method, const char *body, const char *pathfmt,
           ...)
{
    char path[512];
    va_list ap;
    va_start(ap, pathfmt);
    vsnprintf(path, sizeof path, pathfmt, ap);
    va_end(ap);
    return req(d, c, method, path, body);
}

void resp_free(Resp *r)
{
    if (!r)
        return;
    json_decref(r->json);
    free(r->body);
    free(r);
}

const char *resp_code(const Resp *r)
{
    const char *s = json_string_value(json_object_get(json_object_get(r->json, "error"), "code"));
    return s ? s : "";
}

void harness_login(Daemon *d, const char *name, const char *password, Client *c)
{
    memset(c, 0, sizeof *c);
    char body[300];
    snprintf(body, sizeof body, "{\"username\":\"%s\",\"password\":\"%s\"}", name, password);
    Resp *r = req(d, NULL, "POST", "/api/v1/auth/login", body);
    ck_assert_msg(r->status == 200, "login: %ld %s", r->status, r->body);
    char *p = strcasestr(r->headers, "Set-Cookie: ");
    ck_assert_ptr_nonnull(p);
    p += 12;
    size_t n = strcspn(p, ";\r\n");
    snprintf(c->cookie, sizeof c->cookie, "%.*s", (int)n, p);
    snprintf(c->csrf, sizeof c->csrf, "%s",
             json_string_value(json_object_get(r->json, "csrf_token")));
    resp_free(r);
}

void login_arbiter(Daemon *d, Client *c)
{
    harness_login(d, "arbiter", d->password, c);
}

int harness_user(const Daemon *d, const char *verb, const char *name, const char *password)
{
    char env[1200];
    snprintf(env, sizeof env, "ARBITER_PASSWORD=%s", password ? password : "");
    const char *const argv[] = {testutil_bin(), "user", verb, name, "--db", d->db, NULL};
    const char *const envs[] = {env, NULL};
    return testutil_exec(argv, envs, NULL);
}

int64_t make_tournament(Daemon *d, const Client *arb, const char *time_control,
                        const char *settings_json, int n, int64_t *pids, Client *players)
{
    char body[1024];
    snprintf(body, sizeof body, "{\"name\":\"Test\",\"time_control\":\"%s\"%s%s}", time_control,
             settings_json ? ",\"settings\":" : "", settings_json ? settings_json : "");
    Resp *r = req(d, arb, "POST", "/api/v1/tournaments", body);
    ck_assert_msg(r->status == 201, "tournament: %ld %s", r->status, r->body);
    int64_t tid = json_integer_value(json_object_get(r->json, "id"));
    resp_free(r);
    for (int i = 0; i < n; i++) {
        snprintf(body, sizeof body, "{\"name\":\"Player %d\",\"rating\":%d}", i + 1, 2000 - 10 * i);
        r = reqf(d, arb, "POST", body, "/api/v1/tournaments/%lld/players", (long long)tid);
        ck_assert_msg(r->status == 201, "player: %ld %s", r->status, r->body);
        json_t *cred = json_object_get(r->json, "credentials");
        if (pids)
            pids[i] = json_integer_value(json_object_get(cred, "player_id"));
        if (players) {
            memset(&players[i], 0, sizeof players[i]);
            snprintf(players[i].bearer, sizeof players[i].bearer, "%s",
                     json_string_value(json_object_get(cred, "token")));
        }
        resp_free(r);
    }
    return tid;
}

int64_t make_round(Daemon *d, const Client *arb, int64_t tid, int npairs, const int64_t *white,
                   const int64_t *black, int64_t *gids)
{
    char *body = malloc(64 + (size_t)npairs * 64);
    strcpy(body, "{\"pairings\":[");
    for (int i = 0; i < npairs; i++)
        sprintf(body + strlen(body), "%s{\"white_id\":%lld,\"black_id\":%lld}", i ? "," : "",
                (long long)white[i], (long long)black[i]);
    /* Published at once: the tablets check in to it. */
    strcat(body, "],\"publish\":true}");
    Resp *r = reqf(d, arb, "POST", body, "/api/v1/tournaments/%lld/rounds", (long long)tid);
    free(body);
    ck_assert_msg(r->status == 201, "round: %ld %s", r->status, r->body);
    int64_t rn = json_integer_value(json_object_get(r->json, "number"));
    json_t *games = json_object_get(r->json, "games");
    for (int i = 0; gids && i < npairs; i++)
        gids[i] = json_integer_value(json_object_get(json_array_get(games, (size_t)i), "id"));
    resp_free(r);
    return rn;
}

int64_t harness_game_new(Daemon *d, const Client *arb, const char *tc, const char *settings_json,
                         Client *pl, int64_t *gid)
{
    int64_t pids[2];
    int64_t tid = make_tournament(d, arb, tc, settings_json, 2, pids, pl);
    make_round(d, arb, tid, 1, &pids[0], &pids[1], gid);
    return tid;
}

void harness_round_one_start(Daemon *d, const Client *arb, const Client *pl, int64_t tid,
                             const int64_t *gids, int n)
{
    for (int i = 0; i < 2 * n; i++) {
        Resp *r =
            reqf(d, &pl[i], "POST", "{}", "/api/v1/games/%lld/checkin", (long long)gids[i % n]);
        ck_assert_msg(r->status == 200, "check-in: %s", r->body ? r->body : "");
        resp_free(r);
    }
    Resp *r = reqf(d, arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/1/start", (long long)tid);
    ck_assert_msg(r->status == 200, "start: %s", r->body ? r->body : "");
    resp_free(r);
}

void start_round_one(Daemon *d, const Client *arb, const Client *pl, int64_t tid, int64_t gid)
{
    harness_round_one_start(d, arb, pl, tid, &gid, 1);
}

long play(Daemon *d, const Client *c, int64_t gid, int ply, const char *move)
{
    char body[128];
    snprintf(body, sizeof body, "{\"ply\":%d,\"move\":\"%s\"}", ply, move);
    Resp *r = reqf(d, c, "POST", body, "/api/v1/games/%lld/move", (long long)gid);
    long st = r->status;
    resp_free(r);
    return st;
}

void daemon_start_signed_in(Daemon *d, Client *arb)
{
    daemon_start(d, 0);
    login_arbiter(d, arb);
}

void daemon_finish(Daemon *d)
{
    int status = daemon_stop(d, SIGTERM);
    daemon_cleanup(d);
    ck_assert_msg(status == 0, "the daemon did not stop cleanly (%d)", status);
}

char *harness_daemon_file(const Daemon *d, const char *name)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", d->dir, name);
    return testutil_read(path, NULL);
}

static void *stream_thread(void *arg)
{
    HarnessStream *s = arg;
    s->r = stream_read(s->d, s->c, s->path, s->timeout_ms, s->last_id);
    return NULL;
}

void harness_stream_start(HarnessStream *s, Daemon *d, const Client *c, const char *path,
                          long timeout_ms, long long last_id)
{
    memset(s, 0, sizeof *s);
    s->d = d;
    s->c = c;
    snprintf(s->path, sizeof s->path, "%s", path);
    s->timeout_ms = timeout_ms;
    s->last_id = last_id;
    ck_assert_int_eq(pthread_create(&s->thread, NULL, stream_thread, s), 0);
}

Resp *harness_stream_join(HarnessStream *s)
{
    pthread_join(s->thread, NULL);
    return s->r;
}

json_int_t jint(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

json_t *assert_standings_match_cli(Daemon *d, int64_t tid, const char *trf, size_t len,
                                   const char *extra)
{
    char path[400], cmd[1024];
    snprintf(path, sizeof path, "%s/report.trf", d->dir);
    testutil_write(path, trf, len);
    snprintf(cmd, sizeof cmd, "'%s' standings '%s' %s --format json", testutil_bin(), path, extra);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    json_error_t e;
    json_t *cli = json_loadf(p, 0, &e);
    ck_assert_int_eq(pclose(p), 0);
    ck_assert_msg(cli != NULL, "arbiter standings: %s", e.text);
    json_t *rows = json_object_get(cli, "standings"), *names = json_object_get(cli, "tiebreaks");
    Resp *r = reqf(d, NULL, "GET", NULL, "/api/v1/tournaments/%lld/standings", (long long)tid);
    ck_assert_int_eq(json_array_size(r->json), json_array_size(rows));
    for (size_t i = 0; i < json_array_size(rows); i++) {
        json_t *c = json_array_get(rows, i), *a = json_array_get(r->json, i);
        ck_assert_str_eq(json_string_value(json_object_get(c, "name")),
                         json_string_value(json_object_get(json_object_get(a, "player"), "name")));
        ck_assert_int_eq(jint(c, "rank"), jint(a, "rank"));
        json_t *vals = json_object_get(c, "values");
        ck_assert(json_number_value(json_array_get(vals, 0)) ==
                  json_number_value(json_object_get(a, "points")));
        for (size_t k = 1; k < json_array_size(names); k++) {
            const char *tb = json_string_value(json_array_get(names, k));
            json_t *av = json_object_get(json_object_get(a, "tiebreaks"), tb);
            json_t *cv = json_array_get(vals, k);
            ck_assert_msg(av != NULL, "the API has no %s", tb);
            ck_assert_msg(json_is_null(av) == json_is_null(cv) &&
                              json_number_value(av) == json_number_value(cv),
                          "row %zu %s: API %g, command line %g", i + 1, tb, json_number_value(av),
                          json_number_value(cv));
        }
    }
    resp_free(r);
    return cli;
}

void finish_round(Daemon *d, const Client *arb, int64_t tid, int64_t rn, const char *results)
{
    Resp *r = reqf(d, arb, "POST", NULL, "/api/v1/tournaments/%lld/rounds/%lld/start",
                   (long long)tid, (long long)rn);
    ck_assert_msg(r->status == 200, "start: %s", r->body);
    resp_free(r);
    r = reqf(d, arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%lld", (long long)tid,
             (long long)rn);
    json_t *games = json_object_get(r->json, "games");
    ck_assert_int_eq(json_array_size(games), strlen(results));
    for (size_t i = 0; i < json_array_size(games); i++) {
        const char *body = results[i] == '1'   ? "{\"white\":1,\"black\":0}"
                           : results[i] == '0' ? "{\"white\":0,\"black\":1}"
                                               : "{\"white\":0.5,\"black\":0.5}";
        Resp *a = reqf(d, arb, "POST", body, "/api/v1/games/%lld/arbiter/result",
                       (long long)jint(json_array_get(games, i), "id"));
        ck_assert_msg(a->status == 200, "result: %s", a->body);
        resp_free(a);
    }
    resp_free(r);
}

void round_check_codes(Daemon *d, const Client *arb, int64_t tid, int64_t rn, char *out, size_t cap)
{
    Resp *r = reqf(d, arb, "GET", NULL, "/api/v1/tournaments/%lld/rounds/%lld/check",
                   (long long)tid, (long long)rn);
    ck_assert_msg(r->status == 200, "check: %ld %s", r->status, r->body);
    out[0] = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(r->json, "violations"), i, v)
        snprintf(out + strlen(out), cap - strlen(out), "%s%s", i ? " " : "",
                 json_string_value(json_object_get(v, "code")));
    resp_free(r);
}

int harness_bbp_check(const Daemon *d, const char *text, size_t len, const char *sys, int rounds)
{
    const char *bbp = getenv("BBPPAIRINGS");
    if (!bbp || !*bbp) {
        fprintf(stderr, "BBPPAIRINGS is not set: bbpPairings' checker not run\n");
        return 0;
    }
    char *copy = malloc(len + 1);
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, text, len);
    copy[len] = 0;
    char *code = strstr(copy, "\r192 FIDE_DUTCH_2026");
    if (code)
        code[strlen("\r192 FIDE_DUTCH_202")] = '5';
    char path[400], out_path[400], cmd[1400], want[32];
    snprintf(path, sizeof path, "%s/bbp-check.trf", d->dir);
    snprintf(out_path, sizeof out_path, "%s/bbp-check.txt", d->dir);
    testutil_write(path, copy, len);
    free(copy);
    snprintf(cmd, sizeof cmd, "'%s' %s '%s' -c > '%s' 2>&1", bbp, sys, path, out_path);
    int rc = system(cmd);
    size_t n = 0;
    char *out = testutil_read(out_path, &n);
    snprintf(want, sizeof want, "Round #%d", rounds);
    ck_assert_msg(rc == 0 && out && !strstr(out, "Checker pairings") && strstr(out, want),
                  "bbpPairings %s -c: %s", sys, out ? out : "");
    fprintf(stderr, "bbpPairings %s -c: %d rounds, none differs\n", sys, rounds);
    free(out);
    return 1;
}

double points_of(Daemon *d, int64_t tid, int64_t pid)
{
    Resp *r = reqf(d, NULL, "GET", NULL, "/api/v1/tournaments/%lld/standings", (long long)tid);
    ck_assert_int_eq(r->status, 200);
    double pts = -1;
    size_t i;
    json_t *row;
    json_array_foreach(r->json, i, row) if (jint(json_object_get(row, "player"), "id") == pid) pts =
        json_number_value(json_object_get(row, "points"));
    resp_free(r);
    return pts;
}
