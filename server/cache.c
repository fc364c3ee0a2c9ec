/*
 * cache.c — ETag, Last-Modified and Cache-Control of GET answers, and the
 * 304 answers to conditional requests.  See cache.h.
 *
 * Workload: once per GET.  The body's hash runs over bytes just rendered
 * (a few kilobytes); routes polled often (the PGN feeds) give their own
 * validator before rendering, so a 304 costs them no rendering at all.
 */
#include "cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "feed.h"
#include "gamecache.h"

static int signed_in(const Req *r)
{
    return r->auth.role != ROLE_ANON;
}

static const char *added(const Req *r, const char *name)
{
    for (int i = 0; i < r->nhdr; i++)
        if (strcasecmp(r->hdr[i][0], name) == 0)
            return r->hdr[i][1];
    return NULL;
}

/* An HTTP date (RFC 9110 IMF-fixdate) of MS. */
static void http_date(int64_t ms, char *buf, size_t n)
{
    time_t sec = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&sec, &tm);
    strftime(buf, n, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

/* True when the If-None-Match header V names ETAG (a list, weak or not,
 * or "*"). */
static int names(const char *v, const char *etag)
{
    return v && (strcmp(v, "*") == 0 || strstr(v, etag) != NULL);
}

static void not_modified(Req *r)
{
    free(r->out);
    r->out = NULL;
    r->out_len = 0;
    r->status = 304;
}

int cache_conditional(Req *r, const char *etag, int64_t modified_ms)
{
    if (signed_in(r))
        return 0;
    http_add_header(r, "ETag", etag);
    char date[64] = "";
    if (modified_ms > 0) {
        http_date(modified_ms, date, sizeof date);
        http_add_header(r, "Last-Modified", date);
    }
    const char *inm = http_header(r, "If-None-Match");
    int match = 0;
    if (inm) {
        match = names(inm, etag);
    } else if (modified_ms > 0) {
        const char *ims = http_header(r, "If-Modified-Since");
        struct tm tm = {0};
        const char *end = ims ? strptime(ims, "%a, %d %b %Y %H:%M:%S GMT", &tm) : NULL;
        match = end && *end == 0 && (int64_t)timegm(&tm) >= modified_ms / 1000;
    }
    if (!match)
        return 0;
    not_modified(r);
    return 1;
}

int64_t cache_cut_ms(Req *r, Store *s, int64_t tid, int64_t gid)
{
    if (r->auth.role == ROLE_ARBITER)
        return INT64_MAX;
    int64_t delay = feed_delay_ms(s, tid, gid);
    if (delay == 0)
        return INT64_MAX;
    int64_t w = 0, b = 0;
    if (r->auth.role == ROLE_PLAYER && gid > 0 && gamecache_players(s, gid, &w, &b) == 0 &&
        (r->auth.player_id == w || r->auth.player_id == b))
        return INT64_MAX;
    return store_now_ms() - delay;
}

/* How many seconds a public answer of R may be reused; -1: not at all. */
static int max_age(Req *r)
{
    const char *p = r->route ? r->route : "";
    if (strcmp(p, "/health") == 0 || strncmp(p, "/auth/", 6) == 0)
        return -1;
    if (strcmp(p, "/openapi.json") == 0)
        return 3600;
    if (strncmp(p, "/games/{gid}", 12) == 0) {
        /* A finished game changes only by an arbiter's correction. */
        Store *s = http_reader(r->srv);
        return s && feed_game_over_public(s, r->id[0], store_now_ms()) ? 3600 : 1;
    }
    if (strstr(p, "/pgn"))
        return 1;
    return 5;
}

void cache_finish(Req *r, int public_route)
{
    /* A ready response (a stream) says its own; errors are never kept. */
    if (r->resp || added(r, "Cache-Control") || (r->status != 200 && r->status != 304))
        return;
    if (!public_route || signed_in(r)) {
        http_add_header(r, "Cache-Control", "private, no-store");
        return;
    }
    int age = max_age(r);
    if (age < 0)
        return; /* the layer's default: no-store */
    char cc[48];
    snprintf(cc, sizeof cc, "public, max-age=%d", age);
    http_add_header(r, "Cache-Control", cc);
    if (r->status != 200 || added(r, "ETag") || !r->out)
        return;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < r->out_len; i++) {
        h ^= (unsigned char)r->out[i];
        h *= 0x100000001b3ULL;
    }
    char etag[40];
    snprintf(etag, sizeof etag, "\"b%016llx\"", (unsigned long long)h);
    http_add_header(r, "ETag", etag);
    if (names(http_header(r, "If-None-Match"), etag))
        not_modified(r);
}
