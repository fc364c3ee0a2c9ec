/*
 * test_http_webfiles.c — the pages' files over HTTP: an ETag and
 * Cache-Control on every file, 304 for a client that has the file, and the
 * build's gzip copy for a client that accepts gzip, only while that copy is
 * not older than its file; the build's bundles (dist/) in place of the
 * pages, content-named files kept for good, and the service worker.
 */
#include <check.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

HARNESS_SIGNED_IN_FIXTURE(D, ARB)

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_msg(f && fputs(text, f) >= 0 && fclose(f) == 0, "cannot write %s", path);
}

/* The value of response header NAME (without the line end), or "". */
static const char *header(const Resp *r, const char *name, char *out, size_t n)
{
    char key[64];
    snprintf(key, sizeof key, "\n%s: ", name);
    const char *p = strcasestr(r->headers, key);
    out[0] = 0;
    if (p) {
        p += strlen(key);
        snprintf(out, n, "%.*s", (int)strcspn(p, "\r\n"), p);
    }
    return out;
}

/* A GET of PATH with the extra request header H (NULL for none). */
static Resp *get(Daemon *w, const char *path, const char *h)
{
    const char *hs[] = {h, NULL};
    return req_hdr(w, "GET", path, NULL, hs);
}

/* Moves the modification time of DIR/NAME by DELTA seconds. */
static void age(const char *dir, const char *name, int delta)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    struct timespec ts[2] = {st.st_atim, st.st_mtim};
    ts[0].tv_sec += delta;
    ts[1].tv_sec += delta;
    ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

START_TEST(files_have_validators_and_gzip_copies)
{
    char root[400], js[500], h[200], etag[100], gzetag[100];
    snprintf(root, sizeof root, "%s/webroot", D.dir);
    snprintf(js, sizeof js, "%s/js", root);
    ck_assert_int_eq(mkdir(root, 0700), 0);
    ck_assert_int_eq(mkdir(js, 0700), 0);
    write_file(root, "index.html", "<p>hi</p>");
    write_file(root, "js/app.js", "plain;");
    write_file(root, "js/app.js.gz", "GZCOPY");
    age(root, "js/app.js", -10);
    Daemon w = {0};
    const char *args[] = {"--rate-limit", "0", "--web", root, NULL};
    daemon_start_args(&w, 0, args);

    /* A page is revalidated every time; a script is kept a while. */
    Resp *r = get(&w, "/", NULL);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(header(r, "Cache-Control", h, sizeof h), "no-cache");
    ck_assert_int_gt(strlen(header(r, "ETag", h, sizeof h)), 2);
    resp_free(r);
    r = get(&w, "/js/app.js", NULL);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(r->body, "plain;");
    ck_assert_ptr_nonnull(strstr(header(r, "Cache-Control", h, sizeof h), "max-age="));
    ck_assert_str_eq(header(r, "Vary", h, sizeof h), "Accept-Encoding");
    ck_assert_str_eq(header(r, "Content-Encoding", h, sizeof h), "");
    header(r, "ETag", etag, sizeof etag);
    resp_free(r);

    /* A page revalidated keeps its own policy, not the API's "default-src 'none'". */
    char page_csp[2048], csp304[2048], page_inm[160];
    r = get(&w, "/", NULL);
    header(r, "Content-Security-Policy", page_csp, sizeof page_csp);
    snprintf(page_inm, sizeof page_inm, "If-None-Match: %s", header(r, "ETag", h, sizeof h));
    resp_free(r);
    r = get(&w, "/", page_inm);
    ck_assert_int_eq(r->status, 304);
    ck_assert_str_eq(header(r, "Content-Security-Policy", csp304, sizeof csp304), page_csp);
    ck_assert_ptr_nonnull(strstr(page_csp, "script-src 'self'"));
    resp_free(r);

    /* The client that has it gets 304 without a body. */
    char inm[160];
    snprintf(inm, sizeof inm, "If-None-Match: %s", etag);
    r = get(&w, "/js/app.js", inm);
    ck_assert_int_eq(r->status, 304);
    ck_assert_uint_eq(r->len, 0);
    ck_assert_str_eq(header(r, "ETag", h, sizeof h), etag);
    resp_free(r);
    r = get(&w, "/js/app.js", "If-None-Match: \"other\"");
    ck_assert_int_eq(r->status, 200);
    resp_free(r);

    /* gzip when accepted, with its own ETag; not when refused by q=0. */
    r = get(&w, "/js/app.js", "Accept-Encoding: br, gzip, deflate");
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(r->body, "GZCOPY");
    ck_assert_str_eq(header(r, "Content-Encoding", h, sizeof h), "gzip");
    header(r, "ETag", gzetag, sizeof gzetag);
    ck_assert_str_ne(gzetag, etag);
    resp_free(r);
    r = get(&w, "/js/app.js", "Accept-Encoding: gzip;q=0, identity");
    ck_assert_str_eq(r->body, "plain;");
    resp_free(r);

    /* A file edited after the build: its old compressed copy is not sent. */
    age(root, "js/app.js", 20);
    r = get(&w, "/js/app.js", "Accept-Encoding: gzip");
    ck_assert_str_eq(r->body, "plain;");
    ck_assert_str_eq(header(r, "Content-Encoding", h, sizeof h), "");
    ck_assert_str_ne(header(r, "ETag", h, sizeof h), etag);
    resp_free(r);
    daemon_finish(&w);
}
END_TEST

START_TEST(built_pages_replace_their_sources)
{
    char root[400], dist[500], h[2048];
    snprintf(root, sizeof root, "%s/webroot", D.dir);
    snprintf(dist, sizeof dist, "%s/dist", root);
    ck_assert_int_eq(mkdir(root, 0700), 0);
    write_file(root, "index.html", "<p>source</p>");
    write_file(root, "board.html", "<p>board source</p>");
    write_file(root, "sw.js", "const VERSION = 'dev';");
    Daemon w = {0};
    const char *args[] = {"--rate-limit", "0", "--web", root, NULL};
    daemon_start_args(&w, 0, args);

    /* Without a build: the sources, and no service worker. */
    Resp *r = get(&w, "/", NULL);
    ck_assert_str_eq(r->body, "<p>source</p>");
    resp_free(r);
    r = get(&w, "/sw.js", NULL);
    ck_assert_int_eq(r->status, 404);
    resp_free(r);

    ck_assert_int_eq(mkdir(dist, 0700), 0);
    write_file(dist, "index.html", "<p>built</p>");
    write_file(dist, "board.html", "<p>board built</p>");
    write_file(dist, "public.0123abcd.js", "bundle;");
    write_file(dist, "sw.js", "const VERSION = '0123';");
    /* A page edited after the build is served as it is. */
    age(root, "board.html", 20);

    r = get(&w, "/", NULL);
    ck_assert_str_eq(r->body, "<p>built</p>");
    ck_assert_str_eq(header(r, "Cache-Control", h, sizeof h), "no-cache");
    ck_assert_ptr_nonnull(
        strstr(header(r, "Content-Security-Policy", h, sizeof h), "script-src 'self'"));
    resp_free(r);
    r = get(&w, "/index.html", NULL);
    ck_assert_str_eq(r->body, "<p>built</p>");
    resp_free(r);
    r = get(&w, "/board.html", NULL);
    ck_assert_str_eq(r->body, "<p>board source</p>");
    resp_free(r);

    /* Content-named files are never revalidated. */
    r = get(&w, "/dist/public.0123abcd.js", NULL);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(r->body, "bundle;");
    ck_assert_str_eq(header(r, "Cache-Control", h, sizeof h),
                     "public, max-age=31536000, immutable");
    resp_free(r);

    /* The build's worker, revalidated on every load, allowed to fetch from here only. */
    r = get(&w, "/sw.js", NULL);
    ck_assert_int_eq(r->status, 200);
    ck_assert_str_eq(r->body, "const VERSION = '0123';");
    ck_assert_str_eq(header(r, "Cache-Control", h, sizeof h), "no-cache");
    ck_assert_str_eq(header(r, "Content-Type", h, sizeof h), "text/javascript; charset=utf-8");
    ck_assert_str_eq(header(r, "Content-Security-Policy", h, sizeof h),
                     "default-src 'none'; connect-src 'self'; frame-ancestors 'none'");
    resp_free(r);
    daemon_finish(&w);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("http-webfiles");
    TCase *tc = tcase_create("webfiles");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, files_have_validators_and_gzip_copies);
    tcase_add_test(tc, built_pages_replace_their_sources);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    return testutil_run(suite());
}
