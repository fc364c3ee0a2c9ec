/*
 * webfiles.c — the pages' files, with validators, freshness and gzip.
 * See webfiles.h.
 *
 * Freshness: a page (HTML) is revalidated on every load ("no-cache"), so a
 * new version of the server reaches every screen at once; its scripts,
 * styles and texts are fresh for a minute and then served from the cache
 * while the browser revalidates them in the background
 * (stale-while-revalidate), so a warm load never waits for the network.
 * The ETag is made of the file's inode, size and modification time: cheap
 * (no read), and it changes whenever the file does.
 *
 * The build's bundles (web/bundle.mjs): when the web root holds dist/PAGE
 * (not older than PAGE), a page is answered with it, and /sw.js (the pages'
 * service worker) is dist/sw.js.  The other files under /dist/ are named by
 * their content, so they are fresh for a year and never revalidated
 * ("immutable"): a new build names new files in a new page.
 */
#include "webfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *mime(const char *path)
{
    const char *dot = strrchr(path, '.');
    static const struct {
        const char *ext, *type;
    } t[] = {{".html", "text/html; charset=utf-8"},
             {".js", "text/javascript; charset=utf-8"},
             {".mjs", "text/javascript; charset=utf-8"},
             {".css", "text/css; charset=utf-8"},
             {".json", "application/json"},
             {".svg", "image/svg+xml"},
             {".png", "image/png"},
             {".ico", "image/x-icon"},
             {".woff2", "font/woff2"},
             {".txt", "text/plain; charset=utf-8"}};
    for (unsigned i = 0; dot && i < sizeof t / sizeof t[0]; i++)
        if (strcmp(dot, t[i].ext) == 0)
            return t[i].type;
    return "application/octet-stream";
}

/* 1 when URL names one of the files the pages need: a page at the top
 * (*.html, or a folder's index), the site's icon, the pages' own folders,
 * and the board library's built files.  Not the npm files (package.json, the lock file),
 * the lint configuration, or the test tools under node_modules. */
static int page_file(const char *url)
{
    static const char *const dirs[] = {"/css/",
                                       "/js/",
                                       "/i18n/",
                                       "/dist/",
                                       "/node_modules/chessground/dist/",
                                       "/node_modules/chessground/assets/"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        if (strncmp(url, dirs[i], strlen(dirs[i])) == 0)
            return 1;
    if (strchr(url + 1, '/'))
        return 0;
    size_t n = strlen(url);
    if (strcmp(url, "/favicon.ico") == 0 || strcmp(url, "/favicon.svg") == 0 ||
        strcmp(url, "/sw.js") == 0)
        return 1;
    return n == 1 || (n > 5 && strcmp(url + n - 5, ".html") == 0);
}

/* 1 when PATH, with every symbolic link resolved, lies inside DIR: a link
 * in the web root cannot lead out of it. */
static int inside(const char *dir, const char *path)
{
    char *d = realpath(dir, NULL), *p = realpath(path, NULL);
    size_t n = d ? strlen(d) : 0;
    int ok = d && p && strncmp(d, p, n) == 0 && p[n] == '/';
    free(d);
    free(p);
    return ok;
}

/* Opens PATH as a regular file inside the web root; -1 when it is not one. */
static int open_inside(const char *dir, const char *path, struct stat *st)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || !inside(dir, path)) {
        close(fd);
        return -1;
    }
    return fd;
}

/* 1 when the request's Accept-Encoding takes gzip (and not with q=0). */
static int accepts_gzip(Req *r)
{
    const char *ae =
        MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING);
    for (const char *p = ae; p && *p;) {
        p += strspn(p, " \t,");
        size_t n = strcspn(p, ",;");
        int gz = (n == 4 && strncasecmp(p, "gzip", 4) == 0) || (n == 1 && *p == '*');
        const char *end = p + strcspn(p, ",");
        if (gz) {
            const char *q = strstr(p, "q=");
            if (!q || q > end)
                return 1;
            return strtod(q + 2, NULL) > 0;
        }
        p = end;
    }
    return 0;
}

/* 1 when the If-None-Match header names ETAG (or is "*"). */
static int not_modified(Req *r, const char *etag)
{
    const char *inm =
        MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
    if (!inm)
        return 0;
    if (strcmp(inm, "*") == 0)
        return 1;
    size_t n = strlen(etag);
    for (const char *p = strstr(inm, etag); p; p = strstr(p + 1, etag))
        if ((p[n] == 0 || p[n] == ',' || p[n] == ' ') && (p == inm || p[-1] == ' ' || p[-1] == ','))
            return 1;
    return 0;
}

/* Modification time in nanoseconds: an edit within the same second as
 * the build's copy still counts as newer. */
static unsigned long long mtime_ns(const struct stat *st)
{
    return (unsigned long long)st->st_mtim.tv_sec * 1000000000ull +
           (unsigned long long)st->st_mtim.tv_nsec;
}

/* PATH (a file at the top of the web root DIR, LEN bytes of room) becomes
 * the build's copy DIR/dist/NAME when there is one at least as new as it:
 * 1 then, else 0.  An edited page is served as it is until the next build. */
static int built_copy(const char *dir, char *path, size_t len)
{
    char built[4096];
    struct stat src, out;
    if (snprintf(built, sizeof built, "%s/dist/%s", dir, path + strlen(dir) + 1) >=
        (int)sizeof built)
        return 0;
    if (stat(built, &out) != 0 || !S_ISREG(out.st_mode))
        return 0;
    if (stat(path, &src) == 0 && mtime_ns(&out) < mtime_ns(&src))
        return 0;
    snprintf(path, len, "%s", built);
    return 1;
}

/* The freshness of a file: pages and the service worker are revalidated on
 * every load, the build's content-named files never, the others after a
 * minute (in the background). */
static const char *freshness(const char *url, int html)
{
    if (html || strcmp(url, "/sw.js") == 0)
        return "no-cache";
    if (strncmp(url, "/dist/", 6) == 0)
        return "public, max-age=31536000, immutable";
    return "public, max-age=60, stale-while-revalidate=604800";
}

static void add_header(Req *r, const char *name, const char *value)
{
    MHD_add_response_header(r->resp, name, value);
}

int webfiles_serve(Req *r, const char *url)
{
    const char *dir = r->srv->web_dir;
    if (!dir || (r->method != HTTP_GET && r->method != HTTP_HEAD))
        return WEBFILES_E_NOT_FOUND;
    if (strstr(url, "..") || strchr(url, '\\') || url[0] != '/' || !page_file(url))
        return WEBFILES_E_NOT_FOUND;
    char path[4096], gzpath[4100];
    size_t ul = strlen(url);
    snprintf(path, sizeof path, "%s%s%s", dir, url, url[ul - 1] == '/' ? "index.html" : "");
    struct stat st, gst;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(path, sizeof path, "%s%s/index.html", dir, url);
    /* The service worker exists only as the build's (it names the build's
     * files). */
    if (!strchr(url + 1, '/') && !built_copy(dir, path, sizeof path) && strcmp(url, "/sw.js") == 0)
        return WEBFILES_E_NOT_FOUND;
    int fd = open_inside(dir, path, &st);
    if (fd < 0)
        return WEBFILES_E_NOT_FOUND;
    const char *type = mime(path);
    int html = strncmp(type, "text/html", 9) == 0;
    int text = strncmp(type, "text/", 5) == 0 || strcmp(type, "application/json") == 0 ||
               strcmp(type, "image/svg+xml") == 0;
    /* The build's compressed copy, when the client takes it and it is not
     * older than the file. */
    int gz = -1;
    if (text && accepts_gzip(r)) {
        snprintf(gzpath, sizeof gzpath, "%s.gz", path);
        gz = open_inside(dir, gzpath, &gst);
        if (gz >= 0 && mtime_ns(&gst) < mtime_ns(&st)) {
            close(gz);
            gz = -1;
        }
    }
    char etag[96];
    snprintf(etag, sizeof etag, "\"%llx-%llx-%llx%s\"", (unsigned long long)st.st_ino,
             (unsigned long long)st.st_size, mtime_ns(&st), gz >= 0 ? "-gz" : "");
    if (gz >= 0) {
        close(fd);
        fd = gz;
        st = gst;
    }
    if (not_modified(r, etag)) {
        close(fd);
        r->resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
        r->status = MHD_HTTP_NOT_MODIFIED;
    } else {
        r->resp = MHD_create_response_from_fd((size_t)st.st_size, fd);
        r->status = 200;
    }
    if (!r->resp) {
        if (r->status == 200)
            close(fd);
        return -ENOMEM;
    }
    if (r->status == 200) {
        add_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
        add_header(r, "X-Content-Type-Options", "nosniff");
        if (gz >= 0)
            add_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    }
    /* A 304 updates the headers of the cached page: without the page's own
     * policy it would take the API's (default-src 'none') and load nothing. */
    if (html)
        r->srv->hooks->page_headers(r->resp, path);
    /* A worker runs under its script's policy: this one fetches the pages'
     * files from this server and nothing else. */
    if (strcmp(url, "/sw.js") == 0)
        add_header(r, "Content-Security-Policy",
                   "default-src 'none'; connect-src 'self'; frame-ancestors 'none'");
    add_header(r, MHD_HTTP_HEADER_ETAG, etag);
    add_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, freshness(url, html));
    if (text)
        add_header(r, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
    return 0;
}
