/*
 * throttle.c — the bounded table of sign-in failures per exact key.  See
 * throttle.h.
 *
 * Layout: CAPACITY records in an array, and an open-addressing index of
 * twice as many slots (linear probing, deletion by backward shift) from a
 * key's seeded hash to its record.  The hash only chooses where to look;
 * the key is always compared in full.  Workload: sign-ins only (a few per
 * second at a busy venue, at most the write rate limit under attack); an
 * insertion into a full table scans the records for the oldest one, a few
 * microseconds for the default 16,384.
 */
#include "throttle.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

typedef struct Record {
    char key[THROTTLE_KEY_MAX + 1];
    int used;
    ThrottleRec rec;
} Record;

struct Throttle {
    unsigned cap, nslots, n;
    uint64_t seed;
    Record *recs;
    int32_t *slots; /* record index + 1; 0 = empty */
};

Throttle *throttle_new(unsigned capacity)
{
    if (capacity == 0)
        capacity = THROTTLE_DEFAULT_CAPACITY;
    Throttle *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->cap = capacity;
    t->nslots = 1;
    while (t->nslots < 2 * capacity)
        t->nslots <<= 1;
    t->recs = calloc(capacity, sizeof *t->recs);
    t->slots = calloc(t->nslots, sizeof *t->slots);
    if (!t->recs || !t->slots) {
        throttle_free(t);
        return NULL;
    }
    /* A secret seed: chosen keys cannot be aimed at one probe run. */
    if (getrandom(&t->seed, sizeof t->seed, GRND_NONBLOCK) != (ssize_t)sizeof t->seed)
        t->seed = (uint64_t)(uintptr_t)t * 0x9E3779B97F4A7C15u;
    return t;
}

void throttle_free(Throttle *t)
{
    if (!t)
        return;
    free(t->recs);
    free(t->slots);
    free(t);
}

static unsigned hash(const Throttle *t, const char *key)
{
    uint64_t h = t->seed ^ 0xcbf29ce484222325u;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3u;
        h ^= h >> 31;
    }
    h *= 0x9E3779B97F4A7C15u;
    return (unsigned)(h >> 32) & (t->nslots - 1);
}

/* The slot holding KEY, or the empty slot where it would go (*FOUND 0). */
static unsigned probe(const Throttle *t, const char *key, int *found)
{
    unsigned i = hash(t, key);
    while (t->slots[i]) {
        if (strcmp(t->recs[t->slots[i] - 1].key, key) == 0) {
            *found = 1;
            return i;
        }
        i = (i + 1) & (t->nslots - 1);
    }
    *found = 0;
    return i;
}

/* Empties slot I and moves later members of its run back, so that every
 * key stays reachable from its home slot. */
static void slot_remove(Throttle *t, unsigned i)
{
    unsigned mask = t->nslots - 1, j = i;
    t->slots[i] = 0;
    for (;;) {
        j = (j + 1) & mask;
        if (!t->slots[j])
            return;
        unsigned home = hash(t, t->recs[t->slots[j] - 1].key);
        /* The entry at J may move to I when its home is not within (I, J]. */
        int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            t->slots[i] = t->slots[j];
            t->slots[j] = 0;
            i = j;
        }
    }
}

int throttle_get(Throttle *t, const char *key, ThrottleRec *out)
{
    int found;
    unsigned i = probe(t, key, &found);
    if (!found) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    *out = t->recs[t->slots[i] - 1].rec;
    return 1;
}

int throttle_put(Throttle *t, const char *key, const ThrottleRec *rec)
{
    size_t len = strlen(key);
    if (len > THROTTLE_KEY_MAX)
        return -EINVAL;
    int found;
    unsigned i = probe(t, key, &found);
    if (found) {
        t->recs[t->slots[i] - 1].rec = *rec;
        return 0;
    }
    Record *r = NULL;
    if (t->n < t->cap) {
        r = &t->recs[t->n++];
    } else {
        /* Full: the record seen least recently gives way. */
        r = &t->recs[0];
        for (unsigned k = 1; k < t->cap; k++)
            if (t->recs[k].rec.last_ms < r->rec.last_ms)
                r = &t->recs[k];
        int f;
        slot_remove(t, probe(t, r->key, &f));
        i = probe(t, key, &found);
    }
    memcpy(r->key, key, len + 1);
    r->used = 1;
    r->rec = *rec;
    t->slots[i] = (int32_t)(r - t->recs) + 1;
    return 0;
}

void throttle_del(Throttle *t, const char *key)
{
    int found;
    unsigned i = probe(t, key, &found);
    if (!found)
        return;
    unsigned idx = (unsigned)t->slots[i] - 1, last = t->n - 1;
    slot_remove(t, i);
    if (idx != last) {
        /* Keep the records dense: the last one moves into the hole. */
        unsigned j = probe(t, t->recs[last].key, &found);
        t->recs[idx] = t->recs[last];
        t->slots[j] = (int32_t)idx + 1;
    }
    memset(&t->recs[last], 0, sizeof t->recs[last]);
    t->n--;
}

unsigned throttle_count(const Throttle *t)
{
    return t->n;
}
