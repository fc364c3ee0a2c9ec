/*
 * jsonget.h — reading one field of a JSON object the way the store's
 * modules read request objects and rows: a missing or mistyped field reads
 * as NULL or 0, so callers check presence only where it matters
 * (jsonget_has_int).
 *
 * Workload: a few calls per request; no allocation.
 */
#ifndef ARBITER_DB_JSONGET_H
#define ARBITER_DB_JSONGET_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* O's string field K (borrowed from O), or NULL when absent or not a string. */
const char *jsonget_str(json_t *o, const char *k);

/* O's integer field K, or 0 when absent or not an integer. */
int64_t jsonget_int(json_t *o, const char *k);

/* Whether O has an integer field K. */
bool jsonget_has_int(json_t *o, const char *k);

#endif
