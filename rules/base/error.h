/*
 * error.h — the one way to fill a caller's message buffer (`char *err,
 * size_t errlen`) and return the code in the same step, so a failing
 * path reads `return error_set(err, errlen, MODULE_E_X, "why", ...);`.
 *
 * Invariants: ERR may be NULL or ERRLEN 0 (the caller wants no text); the
 * text is cut to fit and always NUL-terminated.
 * Workload: failure paths only.
 */
#ifndef ARBITER_RULES_ERROR_H
#define ARBITER_RULES_ERROR_H

#include <stddef.h>

/* Formats FMT into ERR (at most ERRLEN bytes with the NUL) and returns
 * CODE unchanged. */
int error_set(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
