/*
 * throttle.h — failed sign-ins remembered per exact key, in a bounded table.
 *
 * A key is a whole string ("a|198.51.100.7|user:arbiter", "k|pin:12"): two
 * keys never share a record, whatever their hashes.  The table holds at
 * most CAPACITY records; when it is full, a new key takes the place of the
 * record seen least recently (the oldest `last_ms`), so memory stays fixed
 * however many keys an attacker invents, and the records that are evicted
 * are the ones whose failures matter least.
 *
 * The table is not thread-safe: its one user (security.c) holds a mutex
 * around each read-modify-write, so that concurrent sign-ins count exactly.
 * Time is an argument (milliseconds), so the table is tested without
 * sleeping.
 */
#ifndef ARBITER_SERVER_THROTTLE_H
#define ARBITER_SERVER_THROTTLE_H

#include <stdint.h>

#include "ratelimit.h"

enum { THROTTLE_KEY_MAX = 200, THROTTLE_DEFAULT_CAPACITY = 16384 };

/* What is remembered of one key. */
typedef struct ThrottleRec {
    int fails;          /* failures since the record was made or cleared */
    int64_t last_ms;    /* the last time the record was written */
    int64_t next_ms;    /* no attempt before this time (0: none) */
    TokenBucket budget; /* a key's failure budget, when the caller keeps one */
} ThrottleRec;

typedef struct Throttle Throttle;

/* A table of at most CAPACITY records (0: THROTTLE_DEFAULT_CAPACITY).
 * NULL when out of memory; free with throttle_free (NULL is a no-op). */
Throttle *throttle_new(unsigned capacity);
void throttle_free(Throttle *t);
/* The record of KEY into OUT: 1 when there is one, else 0 and OUT zeroed. */
int throttle_get(Throttle *t, const char *key, ThrottleRec *out);
/* Stores REC as KEY's record (made if missing, evicting the record with the
 * oldest last_ms when the table is full).  Keys longer than
 * THROTTLE_KEY_MAX bytes are refused with -EINVAL; else 0. */
int throttle_put(Throttle *t, const char *key, const ThrottleRec *rec);
/* Forgets KEY (nothing when absent). */
void throttle_del(Throttle *t, const char *key);
/* How many records the table holds. */
unsigned throttle_count(const Throttle *t);

#endif
