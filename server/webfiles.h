/*
 * webfiles.h — the pages' files from the web root (--web): which files may
 * be served, their types, and what spares a hall of tablets and phones on
 * venue Wi-Fi from fetching them again: a validator (ETag), freshness
 * (Cache-Control), 304 answers to If-None-Match, and the gzip copy made at
 * build time (FILE.gz beside FILE) for a client that accepts it.
 *
 * Invariants: only the pages' own files are served (never the npm
 * metadata, the test tools, or a link leading out of the root); a .gz copy
 * is used only when it is at least as new as its file, so an edited page
 * is never answered with its old compressed text; the ETag names the copy
 * sent (a compressed copy has its own), so a cache never mixes them.
 *
 * Workload: every page load asks for a dozen files; a warm load is answered
 * from the browser's cache or by 304s without bodies.
 */
#ifndef ARBITER_SERVER_WEBFILES_H
#define ARBITER_SERVER_WEBFILES_H

#include "http.h"

/* Documented failure of webfiles_serve(): URL is not a page file here. */
enum { WEBFILES_E_NOT_FOUND = 1 };

/* Answers request R for URL (the path as received) from r->srv->web_dir:
 * 0 with r->resp and r->status set (200 with the file, or 304 when the
 * client's If-None-Match names it); WEBFILES_E_NOT_FOUND for what is not a
 * page file; -ENOMEM when no response could be made.  The caller answers
 * the failures (this module stays below the HTTP layer's helpers). */
int webfiles_serve(Req *r, const char *url);

#endif
