/*
 * errors.h — the ONE place where error codes become HTTP statuses.
 *
 * Codes below 100 are the modules' documented failures (STORE_E_* from
 * db/store.h, and the Laws engine's codes mapped by the game layer onto
 * them); codes from 100 are the HTTP layer's own.  Every user mistake maps to
 * a 4xx; only API_E_INTERNAL (and negative errno values) give a 5xx, besides
 * 501 for a body encoding HTTP says to refuse that way and 503 while stopping.
 */
#ifndef ARBITER_SERVER_ERRORS_H
#define ARBITER_SERVER_ERRORS_H

enum {
    API_E_BAD_JSON = 100, /* the body is not JSON / not an object */
    API_E_UNKNOWN_FIELD,
    API_E_WRONG_TYPE,
    API_E_MISSING_FIELD,
    API_E_INVALID_VALUE,
    API_E_UNAUTHORIZED, /* not signed in, or bad credentials */
    API_E_FORBIDDEN,    /* signed in but not allowed */
    API_E_CSRF,
    API_E_TOO_LARGE,
    API_E_MEDIA_TYPE,
    API_E_NO_ROUTE,
    API_E_METHOD,
    API_E_UNAVAILABLE,  /* the server is stopping */
    API_E_RATE,         /* too many failed sign-in attempts */
    API_E_RATE_LIMITED, /* too many requests from one address */
    API_E_INTERNAL,
    API_E_BAD_REQUEST,     /* the request itself is malformed (Host, Content-Length) */
    API_E_NOT_IMPLEMENTED, /* a Transfer-Encoding the server does not decode */
    API_E_STREAMS,         /* too many live streams from one address */
};

/* The HTTP status and the machine-readable code string of CODE (a
 * STORE_E_*, an API_E_* or a negative errno). */
int errors_status(int code);
const char *errors_code(int code);

#endif
